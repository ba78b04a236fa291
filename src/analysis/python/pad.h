/* Zero padding as model code spells it: blocks of zeros made only to be
 * concatenated (`torch.zeros(k, ...)`, `x.new_zeros(k)`, `torch.tensor([0])`,
 * either `.to(x)`), and values whose leading element is a zero put there
 * by padding (`F.pad(r, (1, 0))`, `torch.cat([torch.zeros(1), r])`). The
 * cat-with-zeros rules and the class-attribute facts share them. */
#ifndef ALLOCLINT_PAD_H
#define ALLOCLINT_PAD_H

#include "module.h"

#include <stdbool.h>

typedef struct {
    TSNode call;    /* the factory call, `.to(x)` taken off */
    al_py_args args; /* its arguments */
    int rank;       /* of the block; -1 unknown */
    bool literal;   /* torch.tensor([0]) / x.new_tensor([0]): one element */
    bool to_other;  /* `.to(other)`: other's dtype and device */
    bool like_other; /* other.new_zeros(...) / other.new_tensor(...): other's dtype */
    TSNode dtype, device; /* keyword arguments, null when absent */
} al_zero_block;

/* Whether item is a freshly made block of zeros; other is the tensor it is
 * concatenated with (for `.to(other)`, `other.new_zeros`), may be null. */
bool al_zero_block_read(const al_pymodule *m, TSNode item, TSNode other, al_zero_block *out);
/* The block's extent along dim, or a null node (unknown); "1" literal
 * blocks have no node: *one is set instead. */
TSNode al_zero_block_extent(const al_zero_block *z, int dim, bool *one);

/* `F.pad(r, (1, 0))` with value 0 and constant mode, or
 * `torch.cat([<one-element zero block>, r])` along dim 0: *rest is r. The
 * value's element 0 is zero and the rest is r, for a 1-D r — in r's dtype
 * for F.pad; a cat promotes, so *promotes (may be NULL) says whether the
 * zero block's dtype is not proved to be r's (spelled the same as r's
 * `dtype=`, `.to(r)`, `r.new_zeros`). */
bool al_zero_head_value(const al_pymodule *m, TSNode v, TSNode *rest, bool *promotes);

/* Whether n is a padding width of one before and none after: `(1, 0)`
 * or `[1, 0]`. */
bool al_pad_width_one_before(const al_pyfile *pf, TSNode n);

/* Whether call is `torch.nn.functional.pad(r, (1, 0))` (or `pad=`), value
 * absent or 0, mode absent or "constant"; *rest is r. */
bool al_pad_one_before(const al_pymodule *m, TSNode call, TSNode *rest);

#endif
