/* Exclusive prefix sums in a caller: whether the tensor a name holds at a
 * call is `[0, x[0], x[0] + x[1], ...]`, the starts of segments whose
 * lengths are x, so that a kernel writing segment i at [p[i], p[i] +
 * x[i]) covers [0, sum(x)) with no gap and no overlap (the lengths being
 * counts, never negative).
 *
 * Proved for two spellings, each making p one-dimensional with one entry
 * more than x (torch checks the shapes when it runs them):
 *   p = torch.zeros(n + 1, ...)             then   p[1:] = torch.cumsum(x, dim=-1)
 *   p = torch.cat([torch.zeros(1, ...), torch.cumsum(x, dim=0)])
 * (`x.cumsum(0)`, any zero block pad.h reads), with `dim=0` in the first
 * only when n + 1 is spelled from x's length (`p[1:] = ...` also takes a
 * (1, k) value, and the cumsum of that along dim 0 is no prefix sum), and
 * only when nothing between
 * the prefix sum and the call can change p or x: every other use of
 * either there is a read that makes no alias (`p[-1].item()`, `x.sum()`,
 * `.shape`). Not proved: `F.pad(torch.cumsum(x, 0), (1, 0))`, which pads
 * the last dimension and so is a prefix sum only when x is known to be
 * one-dimensional. */
#ifndef ALLOCLINT_PREFIX_H
#define ALLOCLINT_PREFIX_H

#include "module.h"
#include "../../front/python/syntax.h"

#include <stdbool.h>

/* `torch.cumsum(x, d, dtype=D)` or `x.cumsum(d, dtype=D)` (`input=` too),
 * d 0 or -1, nothing else passed: x, d and D (a null node when absent). */
typedef struct {
    TSNode input, dim, dtype;
} al_cumsum;

bool al_cumsum_read(const al_pymodule *m, TSNode call, al_cumsum *out);

typedef struct {
    TSNode sums;    /* x, as written in the cumsum call */
    TSNode entries; /* `n + 1` of torch.zeros(n + 1), or a null node (cat: one more than x) */
    size_t row;     /* the line that completes the prefix sum */
    TSNode done;    /* its statement */
} al_prefix_sum;

/* Whether `name` (an identifier passed at `call`, in func) holds the
 * exclusive prefix sum of some x at that call; on false, *why says what
 * could not be shown (caller frees). */
bool al_prefix_sum_at(const al_pymodule *m, TSNode func, TSNode call, TSNode name,
                      al_prefix_sum *out, char **why);

/* Whether a buffer's size `size`, read at alloc_stmt, sees the starts p
 * complete and the lengths `sums` as the launch at call does: p's name
 * only after `done`, and the locals of sums unchanged from there to the
 * call (through the locals size names, a few deep). Without it a size
 * that reads like `p[-1]` could be an older p's. */
bool al_prefix_size_sound(const al_pyfile *pf, TSNode func, TSNode alloc_stmt, TSNode size,
                          TSNode p, TSNode sums, TSNode done, TSNode call);

/* Whether a one-dimensional buffer of size `size` (its value text
 * size_text), made at alloc_stmt, holds exactly the sum of the lengths
 * `sums` whose prefix sum `starts` (completed at `done`) a launch of
 * `grid` programs at call reads: x.sum(), torch.sum(x), p[-1] or p[grid],
 * int() and .item() aside, and read soundly (al_prefix_size_sound). */
bool al_prefix_size_is_sum(const al_pyfile *pf, TSNode func, TSNode call, TSNode alloc_stmt,
                           TSNode size, const char *size_text, TSNode sums, TSNode starts,
                           TSNode grid, TSNode done);

#endif
