/* Whether a value bound to a name is a tensor that nothing else holds, so
 * that an in-place update of it changes no one else's data (AL401): a
 * factory or an allocating op; a call of a project function every return
 * of which is such a value (a returns-fresh summary, through the repo
 * index); a torch.nn module that makes its output (`nn.Linear`,
 * `nn.Embedding`, ...). A parameter, an attribute, another name, a view,
 * or a module or function that may return its input is not. A call that
 * cannot be followed is assumed, and the assumption is said. */
#ifndef ALLOCLINT_FRESH_H
#define ALLOCLINT_FRESH_H

#include "module.h"

typedef enum {
    AL_OWN_NO,      /* may be someone else's tensor (why) */
    AL_OWN_ASSUMED, /* a call alloclint cannot follow: assumed new (why) */
    AL_OWN_FRESH,   /* proved new */
} al_own_kind;

typedef struct {
    al_own_kind kind;
    char *why; /* NO: the reason; ASSUMED: the assumption; FRESH: the callee that
                * proved it, or NULL */
    char *param; /* NO only because a function returns this parameter of its
                  * own unchanged on some path (new tensors on the others): a
                  * caller that hands it a new tensor it does not read again
                  * gets one back. NULL otherwise. */
    size_t kept_row; /* with param: a use on this line of the function may keep
                      * the argument, so a tensor handed to it may be held
                      * elsewhere; 0 when none */
    bool or_none;    /* the value may be None instead (a path returns None) */
} al_own;

/* What `value`, evaluated in function func of module m, gives. With
 * follow false, no callee is read through the repo index (a call is
 * assumed): for a caller whose fix is unsafe on other grounds anyway, as
 * following costs time and memory. */
al_own al_value_own(const al_pymodule *m, TSNode func, TSNode value, bool follow);
/* What the element `elem` of value gives: `a, b = f(x)` binds b to
 * element 1 of what f returns (a new tensor when every path of f returns
 * a tuple with a new tensor there). */
al_own al_value_own_element(const al_pymodule *m, TSNode func, TSNode value, int elem,
                            bool follow);
/* What argument arg of call (in func; a null func: at module level)
 * hands its callee: a new tensor the caller does not read again (a
 * temporary; a local name not read after the call, outside a loop, that
 * nothing keeps), or why not. */
al_own al_handed_own(const al_pymodule *m, TSNode func, TSNode call, TSNode arg);
/* The meet of two facts: the weaker one, with its reason (takes both). */
al_own al_own_meet(al_own a, al_own b);
void al_own_free(al_own *o);

#endif
