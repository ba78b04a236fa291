/* How long a value lives and what it depends on, for the rules about
 * loops and rebinding: the loop around a statement, whether an expression
 * is the same on every iteration, whether a use lets a value outlive the
 * iteration (or the statement). Whether a value is new: fresh.h. */
#ifndef ALLOCLINT_LIFETIME_H
#define ALLOCLINT_LIFETIME_H

#include "../../front/python/imports.h"
#include "../../front/python/syntax.h"

#include <stdbool.h>

/* The innermost for/while loop whose passes run n, inside func (its
 * `else:` is not in it), or a null node. */
TSNode al_enclosing_loop(TSNode func, TSNode n);
/* Whether no name read in expr is in `names` (those a loop binds) and
 * expr calls nothing but .size()/.dim()/.numel(). */
bool al_loop_invariant(const al_pyfile *pf, TSNode expr, const al_strlist *names);
/* Whether the use of a name at identifier `id` lets its value live on:
 * returned, yielded, stored, put in a container, aliased by another name,
 * or passed to a call that may keep it (tensor methods that only read
 * their argument, torch functions and `out=` arguments do not). */
bool al_use_escapes(const al_pyfile *pf, const al_imports *im, TSNode id);

#endif
