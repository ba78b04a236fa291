/* Where a local name is bound again and what a use of it does to the
 * value it holds, for the question of whether that value is a tensor of
 * its own (fresh.h) and whether an in-place update of it is seen (AL401):
 * the rebinding every path takes before a statement, a use that reads
 * the old value inside its own rebinding, a use that surely keeps it. */
#ifndef ALLOCLINT_REBINDING_H
#define ALLOCLINT_REBINDING_H

#include "../../front/python/syntax.h"

#include <stdbool.h>

/* `x = x <op> ...`, `x = x.<method>(...)`, `x = x[...]`: a new tensor made
 * from x's, or x's own (a view, a no-op conversion); either way held by
 * whoever held x's. */
bool al_rebind_updates_itself(const al_pyfile *pf, TSNode v, const char *name);
/* Where name sits in a flat unpacking target `a, b` (no starred or nested
 * target), or -1. */
int al_unpacked_position(const al_pyfile *pf, TSNode left, const char *name);
/* The last statement that every path from the start of func to `at`
 * passes and that rebinds name anew (not to a view of what it held): one
 * in the same block before it, or before a block around it; null when
 * some path skips every rebinding. */
TSNode al_rebound_before(const al_pyfile *pf, TSNode func, TSNode at, const char *name);
/* Whether use sits in the right side of `name = f(name)` or `name, _ =
 * f(name)`: it reads the value before the rebinding. */
bool al_rebinding_reads_old(const al_pyfile *pf, TSNode use, const char *name);
/* A statement of func that may run after st (below it, or in a loop
 * around it) and binds again a name or attribute path that e reads (`n
 * -= 1`, `self.n = ...`, `for n in ...`, `del n`; a nested function's
 * `nonlocal n` too; not the target of a `for` around st, bound before st
 * on each pass), or null: e's value at st may not be its value there.
 * Calls that change an attribute (`obj.shrink()`) are not seen. */
TSNode al_rebound_after(const al_pyfile *pf, TSNode func, TSNode st, TSNode e);
/* Whether use is an argument of a kernel launch `kernel[grid](...)`: a
 * launch reads and writes its tensors, and keeps none of them. */
bool al_launch_argument(TSNode use);
/* Whether a statement or expression under n binds `name` (an assignment,
 * `for`, `:=`, `as` target; too deep to tell counts as yes). */
bool al_assigns_name(const al_pyfile *pf, TSNode n, const char *name, size_t len);
/* Identifier tokens spelling `name` under n, keyword names included (an
 * attribute's name is not one). */
size_t al_count_name(const al_pyfile *pf, TSNode n, const char *name, size_t len);
/* Whether use certainly keeps the value alive past the function: stored
 * into an attribute or an element, or put into a container. */
bool al_use_surely_kept(const al_pyfile *pf, TSNode use);
/* The first use of name in func after node `after` ends that reads it
 * (not a plain rebinding `name = ...`), or null. */
TSNode al_read_after(const al_pyfile *pf, TSNode func, TSNode after, const char *name);

/* The value of the last `name = v` in func's body before stmt in source
 * order (in a branch or not; nested functions not read), its assignment in
 * *at; with unpacked, `name, other = v` too. Null when none. */
TSNode al_last_binding_before(const al_pyfile *pf, TSNode func, TSNode stmt, const char *name,
                              bool unpacked, TSNode *at);

#endif
