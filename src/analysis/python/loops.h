/* Loops whose passes together write a whole dimension of a buffer:
 *
 *   for i in range([lo,] n):            buf[i] = ...
 *   for s in range(lo, n, C):            buf[s:s + C] = ...   (or min(s + C, n))
 *   for c in range(cdiv(n, C)):          s = c * C; e = min(s + C, n); buf[s:e] = ...
 *
 * (`triton.cdiv`, `(n + C - 1) // C` and `math.ceil(n / C)` count as cdiv;
 * a slice past the end stops at it). Each pass's write must be a
 * statement of the loop's own body, and the names its slice reads either
 * bound by an earlier statement of the body or not at all in it; the loop
 * has no break, continue, return or yield, and does not rebind its
 * variable. A chunk loop covers its range only when the chunk size is
 * positive: a zero one raises in every form, but a negative one runs no
 * pass and leaves the zeros, so a size of unknown sign makes the cover an
 * assumption (an unsafe fix), said in `assumes`. `range(n // C)` leaves
 * the tail and covers nothing. */
#ifndef ALLOCLINT_LOOPS_H
#define ALLOCLINT_LOOPS_H

#include "alloc.h"
#include "extent.h"

#include <stdbool.h>
#include <stddef.h>

typedef struct {
    int region;       /* the region every pass together writes (al_region_id) */
    const char *form; /* "the loop over `range(...)`", "the chunk loop over ...", static */
    char *assumes;    /* what the cover rests on, or NULL: a proof */
    char *chunk;      /* a chunk loop: its slice, as written (`grad[start:end]`), or NULL */
    char *size;       /* ... and its chunk size (`BLOCK`) */
} al_loop_cover;

/* What `loop` (a for_statement of func) writes of the buffer named target
 * over all its passes. site (may be NULL: a parameter) tells the buffer's
 * sizes where x does not: a bound that is one of them, or for a `*_like`
 * factory the first dimension of its input, is that dimension's extent.
 * False when the loop covers nothing it can show. */
bool al_loop_covers(const al_pyfile *pf, TSNode func, al_extents *x, const al_alloc_site *site,
                    TSNode loop, const char *target, size_t tlen, al_loop_cover *out);
void al_loop_cover_free(al_loop_cover *c);
/* Whether a proof's evidence (al_buffer.evidence) is a loop's passes: a
 * message then says the loop writes the buffer, not that it is handed to
 * an op. */
bool al_evidence_is_loop(const char *evidence);

#endif
