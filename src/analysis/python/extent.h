/* Symbolic extents of a buffer and the regions that writes cover, to prove
 * that a set of slices writes every element: `buf[:k]` and `buf[k:]`,
 * `buf[0::2]` and `buf[1::2]` of an extent asserted even, column blocks
 * that tile a dimension. An extent is an expression text plus a constant
 * (`n + 1`), so two spellings of one size compare equal. */
#ifndef ALLOCLINT_EXTENT_H
#define ALLOCLINT_EXTENT_H

#include "../../front/python/syntax.h"

#include <stdbool.h>
#include <stddef.h>

#define AL_MAX_DIMS 6
#define AL_REGION_UNKNOWN 0 /* a write whose extent cannot be told */
#define AL_REGION_FULL 1    /* every element */

/* Expression texts held once each, so that symbols compare by pointer. */
typedef struct {
    char **items;
    size_t n, cap;
} al_interner;

const char *al_intern(al_interner *in, const char *s, size_t len);
/* The whitespace-free text of a node, interned. */
const char *al_intern_node(al_interner *in, const al_pyfile *pf, TSNode n);
void al_interner_free(al_interner *in);

typedef struct {
    const char *base; /* interned; NULL for a plain constant */
    long off;
} al_sym;

typedef enum { AL_DS_FULL, AL_DS_RANGE, AL_DS_EVEN, AL_DS_ODD } al_ds_kind;

/* What a subscript selects along one dimension. */
typedef struct {
    al_ds_kind kind;
    al_sym lo;
    bool hi_end; /* runs to the end of the dimension */
    al_sym hi;
} al_dimspec;

typedef struct {
    bool unknown;
    bool unsafe; /* written by an op whose full write is not proved */
    int n;       /* leading dims specified; the rest are full */
    al_dimspec d[AL_MAX_DIMS];
} al_region;

/* One buffer's shape and the regions written to it, by id. */
typedef struct {
    const al_pyfile *pf;
    al_interner *strs;
    const char *const *even; /* expressions asserted even (`assert d % 2 == 0`) */
    size_t neven;
    al_sym shape[AL_MAX_DIMS];
    int ndims; /* leading dims whose extent is known */
    bool rank_known;
    al_region *regions; /* [AL_REGION_UNKNOWN] and [AL_REGION_FULL] first */
    size_t nreg, capreg;
} al_extents;

/* `for i in range(lo, hi)`: the loop variable stands for that range; a
 * chunk loop's slice (spec, when set) stands for it too. */
typedef struct {
    const char *var;
    size_t var_len;
    TSNode spec;
    al_sym lo, hi;
    bool used; /* set when a subscript used the variable */
} al_loop_subst;

bool al_sym_eq(al_sym a, al_sym b);
/* `n`, `n + 1`, `n - 1`, `1 + n`, `128` */
al_sym al_sym_parse(const al_pyfile *pf, al_interner *strs, TSNode n);

void al_extents_init(al_extents *x, const al_pyfile *pf, al_interner *strs,
                     const char *const *even, size_t neven);
void al_extents_free(al_extents *x);
/* Reads the shape of a factory call: one size expression (an int, a
 * tuple or list), or with `multiple` the positional arguments from
 * `first` on (`zeros(a, b, c)`). */
void al_extents_read_shape(al_extents *x, TSNode size_expr, bool multiple, const al_py_args *args,
                           int first);
/* The id of a region, added when new. */
int al_region_id(al_extents *x, al_region r);
/* The region `x[...]` selects, in the buffer's own dims; unknown when it
 * cannot be told. With ls, the loop variable indexes its range. */
al_region al_extents_subscript(al_extents *x, TSNode sub, al_loop_subst *ls);
/* Whether the regions cov[0..ncov) together cover every element. */
bool al_extents_covered(const al_extents *x, const int *cov, int ncov);
/* Whether any of them was written by an op not proved to write in full. */
bool al_extents_any_unsafe(const al_extents *x, const int *cov, int ncov);

#endif
