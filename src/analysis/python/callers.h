/* Who hands a function its arguments: every call of it across its
 * project, found by name through the repo index, and what each hands a
 * parameter. For AL401's question of whether a parameter's tensor is
 * held by anyone but the function (caller-side ownership). */
#ifndef ALLOCLINT_CALLERS_H
#define ALLOCLINT_CALLERS_H

#include "fresh.h"
#include "../core/index.h"

/* What parameter `param` of func (a function of m) holds when the project
 * is the whole program: AL_OWN_ASSUMED when every call of func in it hands
 * the parameter a new tensor it does not read again (its why names the
 * calls and says that a caller outside the project is assumed not to
 * exist), AL_OWN_NO with the reason otherwise: a call that hands it
 * something else, no call found, or a use of the function's name that is
 * not a call (it may be called under another name). */
al_own al_param_callers_own(const al_pymodule *m, TSNode func, const char *param);

/* The calls of func, a private function (`_name`, not decorated but by
 * staticmethod, classmethod, no_grad or inference_mode), in its file: at
 * most max, found by name in view (its file as the check parsed it, or the
 * statements naming it). 0 and *why (caller frees) when it is not private,
 * a use of its name is not a call, a call is at module level, or there is
 * none. */
size_t al_private_calls(const al_pymodule *m, TSNode func, al_pysite *view, TSNode *calls,
                        size_t max, char **why);

#endif
