/* What fresh.c and fresh_modules.c share: the walk through a value's
 * bindings and callees, the helpers that make its facts, and the table
 * of the object calls. Not for other modules (fresh.h is the interface). */
#ifndef ALLOCLINT_FRESH_INTERNAL_H
#define ALLOCLINT_FRESH_INTERNAL_H

#include "fresh.h"
#include "../core/index.h"

#include <stdbool.h>

/* How far a walk has gone: calls followed into the project's functions
 * and modules, and hops inside the current function (a name to its
 * bindings, a value to its parts). Each callee starts its own hops, so a
 * forward that rebinds its argument three times is followed as far as
 * one that returns a call. */
typedef struct {
    int calls, hops;
    int elem; /* the element of a returned tuple the caller takes, or -1 */
    bool *cut; /* set when a limit stopped the walk: its result is not memoised */
} al_fresh_walk;

#define AL_FRESH_MAX_CALLS 3
#define MAX_BASES 3

/* The walk stops here: say so to the summary being made. */
void al_fresh_stopped(al_fresh_walk w);
/* Into a callee: one call more, its own hops. */
al_fresh_walk al_fresh_enter(al_fresh_walk w);
al_own al_fresh_make(al_own_kind kind, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* A fact whose reason names one expression: fmt has one %s, for n's text. */
al_own al_fresh_make_about(const al_pyfile *pf, al_own_kind kind, const char *fmt, TSNode n);
/* The text of n for a message, shortened; caller frees. */
char *al_fresh_shown(const al_pyfile *pf, TSNode n);
/* A copy of o; and a boxed al_own freed, for memos. */
al_own al_fresh_own_copy(const al_own *o);
void al_fresh_own_free_boxed(void *p);
/* What a project function returns: the meet over its returns. */
al_own al_fresh_returns(const al_def *d, al_fresh_walk w, const al_pymodule *caller);
/* d returns its parameter o.param on some path: what the call then gives,
 * from what it hands that parameter. */
al_own al_fresh_through_argument(const al_pymodule *m, TSNode func, TSNode call, const al_def *d,
                                 bool bound, al_own o, al_fresh_walk w);
/* The calls whose callee is an object (fresh_modules.c, built on this
 * walk): `self.<attr>(...)`, what the modules assigned to `self.<attr>`
 * return; and `obj.meth(...)` on an object of unknown class, the meet over
 * the project's methods `meth` (false when there are none or too many).
 * fresh.c reaches them only through this table, filled in
 * fresh_modules.c, so that the two files call one way, as the languages
 * table keeps core and the languages one way (core/languages.h). */
typedef struct {
    al_own (*module_call)(const al_pymodule *m, TSNode func, TSNode call, const char *attr,
                          al_fresh_walk w);
    bool (*method_meet)(const al_pymodule *m, TSNode func, TSNode call, al_fresh_walk w,
                        al_own *out);
} al_fresh_object_calls;
extern const al_fresh_object_calls al_fresh_objects;

#endif
