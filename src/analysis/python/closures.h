/* Nested functions and lambdas of a function, for the buffer analysis:
 * which of them run only where the function calls them by name (so a
 * buffer they name is used at those calls, not where they are defined),
 * and which may already exist when an allocation runs (so that a call
 * of theirs after it sees what the name then holds). */
#ifndef ALLOCLINT_CLOSURES_H
#define ALLOCLINT_CLOSURES_H

#include "../../front/python/cfg.h"
#include "../../front/python/syntax.h"

#include <stdbool.h>
#include <stddef.h>

/* A nested function called only directly, by name, from the function's
 * own statements: never handed on, stored, decorated, or called from
 * another nested scope. */
typedef struct {
    int def_node; /* its DEF node in the function's graph */
    char *name;
} al_closure;

typedef struct {
    int node;    /* the graph node whose expression holds the call */
    int closure; /* index into closures; -1: eval, exec, locals or vars, which
                  * read any local by name */
    TSNode call;
} al_closure_call;

/* A scope that runs later than where it is written: a nested def or
 * class (a DEF node), a lambda, a generator expression. */
typedef struct {
    TSNode node;
    int closure; /* the al_closure it is, or -1 */
} al_late_scope;

typedef struct {
    al_closure *items;
    size_t n, cap;
    al_closure_call *calls; /* in node order */
    size_t ncalls, capcalls;
    al_late_scope *scopes;
    size_t nscopes, capscopes;
} al_closures;

/* globals: the names the function declares global or nonlocal. */
void al_closures_find(const al_pyfile *pf, TSNode func, const al_cfg *cfg,
                      const char *const *globals, size_t nglobals, al_closures *out);
void al_closures_free(al_closures *c);
/* The closure defined at graph node `node`, or NULL. */
const al_closure *al_closure_at(const al_closures *c, const al_cfg *cfg, int node);
/* Whether node's expression calls a closure. */
bool al_closures_called_at(const al_closures *c, int node);
/* Whether the closure (may be NULL: no) names `name` as its enclosing function's variable:
 * it mentions it and binds it nowhere (a parameter, an assignment or a
 * target of its own would make it a local of its own). */
bool al_closure_names(const al_pyfile *pf, const al_cfg *cfg, const al_closure *c,
                      const char *name, size_t len);
/* "a lambda", "a generator expression" or "a nested definition". */
const char *al_late_scope_kind(TSNode scope);
/* A late scope that names `name` (not a closure that names it: that one
 * runs at its calls) and may exist before statement st runs: written
 * above it, or in a loop around it (an earlier pass made it). Null if
 * none. */
TSNode al_closures_captured_before(const al_closures *c, const al_pyfile *pf, const al_cfg *cfg,
                                   TSNode func, TSNode st, const char *name);

#endif
