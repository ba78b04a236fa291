/* Whether a buffer meets what a callee's summary requires of it (its
 * element count is a value, its shape an argument's, its rows the
 * contract's, its size the sum of segments), read from how the buffer was
 * made; and whether its size pads past what a writer covers. */
#ifndef ALLOCLINT_PY_REQUIREMENT_H
#define ALLOCLINT_PY_REQUIREMENT_H

#include "uses.h"

/* 1 met, 0 not proved, 2 met if the function's caller proves it (the
 * requirement is exported on the buffer's parameter). */
int al_requirement_met(const al_use_ctx *c, TSNode call, const al_req *r);

/* The buffer's element count, as its dims spell it, when it is built from
 * `covered` and is not it (`head_dim + 1` against `head_dim`); else NULL.
 * Caller frees. */
char *al_padded_past(const al_use_ctx *c, const char *covered);

/* The value a requirement names, as the call spells it (every extent, for
 * a tile kernel's shape), for messages; caller frees. */
char *al_requirement_shown(const al_pyfile *pf, const al_req *r);

#endif
