/* What AL201's two spellings share: torch's (al201.c) and NumPy's host
 * code (al201_numpy.c). Both rewrite `target = <padded prefix sum>` into
 * an n + 1 buffer that the cumsum writes with `out=`. */
#ifndef ALLOCLINT_AL201_H
#define ALLOCLINT_AL201_H

#include "rules.h"

/* `target = value` as a statement of its own lines. */
typedef struct {
    char *name;   /* the target's text; NULL when value is not so bound */
    char *indent; /* the statement's leading blanks */
    bool attribute; /* `obj.attr = ...`: a property setter may see the buffer */
    size_t start, end; /* the statement */
} al201_target;

void al201_target_read(const al_pyfile *pf, TSNode value, al201_target *t);
void al201_target_free(al201_target *t);
/* Whether text names the variable or attribute chain `name` (not as the
 * tail of a longer chain: `x.name`). */
bool al201_names_variable(const char *text, const char *name);
/* The statement before stmt in its block, comments skipped; null at the
 * block's start. */
TSNode al201_previous_statement(TSNode stmt);
/* When other (an operand of value) is a name that the statement just
 * before binds and nothing else reads (or that value's own target
 * rebinds, where its old value dies): the right side of that binding,
 * and the lines of its statement. A null node otherwise. target may be
 * NULL (`return value`). */
TSNode al201_held_value(const al_pyfile *pf, TSNode value, TSNode other, const char *target,
                        size_t *start, size_t *end);

/* The NumPy spellings of a padded prefix sum in host code. */
void al201_numpy_call(const al_pymodule *m, TSNode call, al_findings *out);

#endif
