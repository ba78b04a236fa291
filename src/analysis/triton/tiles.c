#include "tiles.h"

#include "../../front/python/syntax.h"
#include "../../base/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* One part of a tile mask: `lhs < bound`. */
typedef struct {
    al_tf_lin lhs;
    int bound;
} conjunct;

/* The parts of a mask `(a < M) & (b < N)`, through locals and `m[:, None]`
 * broadcasts of named masks; false when a part is anything else (a lower
 * bound, a loaded value), which may leave elements out. */
static bool mask_conjuncts(al_tf_kernel *k, TSNode m, const char *tag, conjunct *out, int *n,
                           int depth)
{
    m = al_tf_through_locals(k, m);
    if (depth > 8 || al_node_is(m, "identifier"))
        return false;
    if (al_node_is(m, "binary_operator") && al_node_text_eq(k->pf, al_node_field(m, "operator"), "&"))
        return mask_conjuncts(k, al_node_field(m, "left"), tag, out, n, depth + 1) &&
               mask_conjuncts(k, al_node_field(m, "right"), tag, out, n, depth + 1);
    if (al_node_is(m, "subscript")) {
        TSNode subs[2];
        if (tag || al_node_field_children(m, "subscript", subs, 2) != 2)
            return false;
        const char *t = al_node_is(subs[0], "slice") && al_node_is(subs[1], "none")   ? "@r"
                        : al_node_is(subs[0], "none") && al_node_is(subs[1], "slice") ? "@c"
                                                                                      : NULL;
        return t && mask_conjuncts(k, al_node_field(m, "value"), t, out, n, depth + 1);
    }
    al_tf_lin lhs, rhs;
    if (*n >= AL_TILE_DIMS || !al_tf_bound_of(k, m, &lhs, &rhs) || lhs.data)
        return false;
    int b = al_tf_lone_param(k, &rhs);
    if (b < 0)
        return false;
    out[*n].lhs = tag ? al_tf_retag(k, lhs, tag) : lhs;
    out[*n].bound = b;
    (*n)++;
    return true;
}

static bool pid_like(const char *f)
{
    return !strncmp(f, "PID", 3) || !strncmp(f, "Q(PID", 5) || !strncmp(f, "R(PID", 5) ||
           !strncmp(f, "GQ(PID", 6) || !strncmp(f, "GR(PID", 6);
}

/* The axis and split of a program-id factor (`PIDa`, `Q(PIDa|..)`,
 * `R(PIDa|..)`, the grouped order's `GQ(PIDa|..)`, `GR(PIDa|..)`). */
static void pid_axis(const char *f, int *axis, int *split, bool *grouped)
{
    *grouped = f[0] == 'G';
    const char *kind = *grouped ? f + 1 : f;
    *split = kind[0] == 'Q' ? 1 : kind[0] == 'R' ? 2 : 0;
    *axis = atoi(kind + (*split ? 5 : 3));
}

/* Takes out of off the terms `lhs * stride` of a tile dimension whose
 * mask part is c: lhs = X * BLOCK + tl.arange(0, BLOCK) with X a program
 * id, stride the product of the other factors of the one term holding the
 * arange. False when off does not hold them exactly. */
static bool tile_dim(al_tf_kernel *k, const conjunct *c, al_tf_lin *off, al_tile_dim *d,
                     const char **ar_out, const char **pid_out)
{
    const al_tf_lin *l = &c->lhs;
    int ai = -1;
    for (int i = 0; i < l->n; i++)
        if (l->t[i].nf == 1 && l->t[i].coef == 1 && !strncmp(l->t[i].f[0], "AR(", 3))
            ai = i;
    if (l->n != 2 || ai < 0)
        return false;
    const char *ar = l->t[ai].f[0];
    const char *tag = strchr(ar, '@');
    size_t end = tag ? (size_t)(tag - ar) : strlen(ar);
    char block[200];
    snprintf(block, sizeof block, "%.*s", (int)(end - 4), ar + 3);
    const al_tf_term *x = &l->t[1 - ai];
    int bi = al_tf_param_index(k, block, strlen(block));
    const char *bp = al_tf_factor(k, "P:%s", block);
    const char *pid = NULL;
    long bv;
    int used = 0;
    if (bi >= 0 && x->coef == 1 && x->nf == 2 && (x->f[0] == bp || x->f[1] == bp))
        pid = x->f[0] == bp ? x->f[1] : x->f[0];
    else if (bi < 0 && sscanf(block, "%ld%n", &bv, &used) == 1 && block[used] == '\0' &&
             x->nf == 1 && x->coef == bv)
        pid = x->f[0];
    if (!pid || !pid_like(pid))
        return false;
    int ti = -1;
    for (int i = 0; i < off->n; i++)
        for (int j = 0; j < off->t[i].nf; j++)
            if (off->t[i].f[j] == ar) {
                if (ti >= 0)
                    return false;
                ti = i;
            }
    if (ti < 0 || off->t[ti].coef != 1)
        return false;
    const char *stride[MAX_FACTORS];
    int ns = 0;
    for (int j = 0; j < off->t[ti].nf; j++) {
        const char *f = off->t[ti].f[j];
        if (f == ar)
            continue;
        if (strncmp(f, "P:", 2) || ns == AL_TILE_STRIDES)
            return false;
        stride[ns++] = f;
    }
    al_tf_lin want = al_tf_times(k, *l, stride, ns);
    al_tf_lin rest = al_tf_sum(*off, &want, -1);
    if (rest.n != off->n - want.n)
        return false;
    *off = rest;
    pid_axis(pid, &d->axis, &d->split, &d->grouped);
    d->bound = c->bound;
    d->block = bi;
    d->block_text = al_xstrdup(block);
    d->nstride = ns;
    for (int j = 0; j < ns; j++)
        d->stride[j] = al_tf_param_index(k, stride[j] + 2, strlen(stride[j] + 2));
    *ar_out = ar;
    *pid_out = pid;
    return true;
}

/* The dimension of one index per program a term `pid * stride` is. */
static bool program_dim(al_tf_kernel *k, const al_tf_term *t, al_tile_dim *d)
{
    const char *pid = NULL;
    d->nstride = 0;
    if (t->coef != 1)
        return false;
    for (int j = 0; j < t->nf; j++) {
        const char *f = t->f[j];
        if (!strncmp(f, "PID", 3) && !pid)
            pid = f;
        else if (!strncmp(f, "P:", 2) && d->nstride < AL_TILE_STRIDES)
            d->stride[d->nstride++] = al_tf_param_index(k, f + 2, strlen(f + 2));
        else
            return false;
    }
    if (!pid)
        return false;
    pid_axis(pid, &d->axis, &d->split, &d->grouped);
    d->bound = d->block = -1;
    return true;
}

/* Whether a split program id's tile count is the one its column
 * dimension masks and blocks by: `Q(PIDa|N|B)` with N the bound and B the
 * block of the dimension holding `R(PIDa|N|B)`. */
static bool split_matches(const al_tf_kernel *k, const char *f, const al_tile_dim *row,
                          const al_tile_dim *col)
{
    const char *bar = strchr(f, '|');
    if (!bar || col->bound < 0 || col->block < 0 || row->bound < 0 || row->block < 0)
        return false;
    char want[400];
    if (f[0] == 'G') {
        /* the grouped order: its row count is the rows' own too */
        int n = snprintf(want, sizeof want, "%s|%s|%s|%s|", k->params[row->bound],
                         k->params[row->block], k->params[col->bound], k->params[col->block]);
        return n > 0 && !strncmp(bar + 1, want, (size_t)n) && !strchr(bar + 1 + n, '|');
    }
    snprintf(want, sizeof want, "%s|%s)", k->params[col->bound], k->params[col->block]);
    return !strcmp(bar + 1, want);
}

/* The dimensions of a tile cover, as `explain` shows them: per dimension
 * its extent, the program id that picks its tile, and its stride. */
char *al_tf_describe_tiles(const al_tf_kernel *k, const al_kparam *p)
{
    al_strbuf sb = {0};
    for (int i = 0; i < p->ntiles; i++) {
        const al_tile_dim *d = &p->tiles[i];
        al_strbuf_puts(&sb, i ? "; " : "");
        if (d->bound >= 0)
            al_strbuf_printf(&sb, "`%s` in blocks of `%s` from program id %d%s", k->params[d->bound],
                             d->block >= 0 ? k->params[d->block] : d->block_text, d->axis,
                             d->split == 1 && d->grouped ? " (its row in the grouped tile order)"
                             : d->split == 2 && d->grouped ? " (its column in the grouped tile order)"
                             : d->split == 1 ? " divided by the column tiles' count"
                             : d->split == 2 ? " modulo the column tiles' count"
                                             : "");
        else
            al_strbuf_printf(&sb, "one index per program on axis %d", d->axis);
        al_strbuf_puts(&sb, ", stride ");
        for (int j = 0; j < d->nstride; j++)
            al_strbuf_printf(&sb, "%s`%s`", j ? " * " : "",
                             d->stride[j] >= 0 ? k->params[d->stride[j]] : "?");
        if (!d->nstride)
            al_strbuf_puts(&sb, "1");
    }
    return al_strbuf_detach(&sb);
}

/* Whether a loop encloses the store: one its offsets do not use may run
 * no iteration. */
static bool in_loop(const al_tf_kernel *k, TSNode store)
{
    for (TSNode n = ts_node_parent(store); !ts_node_eq(n, k->def); n = ts_node_parent(n))
        if (ts_node_is_null(n) || al_node_is(n, "for_statement") || al_node_is(n, "while_statement"))
            return true;
    return false;
}

/* Sets p to the tiles of dims[0..nd) when each axis of the grid enumerates
 * one dimension (or, split, the rows and columns of tiles), and a quotient
 * has its remainder by the tile count of the columns that remainder's
 * dimension masks (the factor names say by what); frees them otherwise. */
static bool accept_tiles(const al_tf_kernel *k, al_tile_dim *dims, const char *const *pids, int nd,
                         al_kparam *p)
{
    int uses[3] = {0};
    bool ok = nd >= 1;
    for (int i = 0; i < nd && ok; i++) {
        if (dims[i].axis < 0 || dims[i].axis > 2)
            ok = false;
        else if (dims[i].split != 1)
            uses[dims[i].axis]++;
    }
    for (int i = 0; i < 3 && ok; i++)
        ok = uses[i] <= 1;
    for (int i = 0; i < nd && ok; i++) {
        if (dims[i].split == 0)
            continue;
        int other = -1;
        for (int j = 0; j < nd; j++)
            if (j != i && dims[j].axis == dims[i].axis && dims[j].split == 3 - dims[i].split)
                other = j;
        /* Q with R, GQ with GR of one grouping */
        ok = other >= 0 && pids[i] && pids[other] &&
             (pids[i][0] == 'G') == (pids[other][0] == 'G') &&
             (pids[i][0] != 'G' || !strcmp(pids[i] + 2, pids[other] + 2)) &&
             split_matches(k, pids[i], dims[i].split == 1 ? &dims[i] : &dims[other],
                           dims[i].split == 2 ? &dims[i] : &dims[other]);
    }
    if (!ok) {
        for (int i = 0; i < nd; i++)
            free(dims[i].block_text);
        return false;
    }
    p->cover = AL_TCOVER_TILES;
    p->ntiles = nd;
    memcpy(p->tiles, dims, (size_t)nd * sizeof *dims);
    p->n = dims[0].bound;
    return true;
}

/* Tiles: every term of the store's offsets belongs to one dimension, each
 * tile dimension bounded by one part of the mask. */
bool al_tf_tile_cover(al_tf_kernel *k, TSNode store, al_tf_lin off, TSNode mask, al_kparam *p)
{
    conjunct cs[AL_TILE_DIMS];
    int nc = 0;
    /* No mask: every dimension one index per program (`i * s0 + j` on a
     * grid of the buffer's shape), checked below to be two or more. */
    bool unmasked = ts_node_is_null(mask);
    if (in_loop(k, store) || off.data ||
        (!unmasked && (!mask_conjuncts(k, mask, NULL, cs, &nc, 0) || nc == 0 || nc > 2)))
        return false;
    al_tile_dim dims[AL_TILE_DIMS];
    memset(dims, 0, sizeof dims);
    const char *ars[AL_TILE_DIMS], *pids[AL_TILE_DIMS] = {0};
    int nd = 0;
    bool ok = true;
    for (int i = 0; i < nc && ok; i++) {
        ok = tile_dim(k, &cs[i], &off, &dims[nd], &ars[nd], &pids[nd]);
        if (ok)
            nd++;
    }
    /* What is left: one index per program. */
    for (int i = 0; i < off.n && ok; i++)
        ok = nd < AL_TILE_DIMS && program_dim(k, &off.t[i], &dims[nd++]);
    if (ok && nc == 2) {
        /* Two tile dimensions broadcast into a grid only as rows and
         * columns (or a 1-D arange against rows). */
        const char *t0 = strchr(ars[0], '@'), *t1 = strchr(ars[1], '@');
        ok = (t0 && t1 && strcmp(t0, t1)) || (!t0 && t1 && !strcmp(t1, "@r")) ||
             (!t1 && t0 && !strcmp(t0, "@r"));
    }
    if (!ok || nd < 2) {
        for (int i = 0; i < nd; i++)
            free(dims[i].block_text);
        return false;
    }
    return accept_tiles(k, dims, pids, nd, p);
}

/* The elements of a tuple argument of make_block_ptr (by position or
 * keyword), or -1. */
static int block_tuple(const al_tf_kernel *k, const al_py_args *a, int pos, const char *kw,
                       TSNode *out)
{
    TSNode t = a->npos > pos ? a->pos[pos] : al_py_kwarg(k->pf, a, kw);
    t = al_py_unparen(t);
    if (ts_node_is_null(t) || (!al_node_is(t, "tuple") && !al_node_is(t, "list")))
        return -1;
    return al_py_elements(t, out, AL_TILE_DIMS);
}

/* Tiles through a block pointer: tl.make_block_ptr(P (+ pid * S), shape=(M,
 * N), strides=(S_m, S_n), offsets=(pid_m * BM, pid_n * BN), block_shape=(BM,
 * BN)): each dimension's shape a parameter, its offset a program id times
 * its block, its stride a product of parameters; the base's own terms are
 * dimensions of one index per program. A block store writes the part of
 * its tile inside the shape, boundary-checked or not. */
bool al_tf_block_tile_cover(al_tf_kernel *k, TSNode store, al_kparam *p)
{
    al_py_args sa;
    al_py_args_read(store, &sa);
    if (sa.npos < 1 || in_loop(k, store))
        return false;
    TSNode ptr = al_tf_through_locals(k, sa.pos[0]);
    if (!al_node_is(ptr, "call"))
        return false;
    al_py_args a;
    al_py_args_read(ptr, &a);
    TSNode shape[AL_TILE_DIMS], strides[AL_TILE_DIMS], offsets[AL_TILE_DIMS], blocks[AL_TILE_DIMS];
    int n = block_tuple(k, &a, 1, "shape", shape);
    if (n < 1 || n > 2 || a.splat || block_tuple(k, &a, 2, "strides", strides) != n ||
        block_tuple(k, &a, 3, "offsets", offsets) != n ||
        block_tuple(k, &a, 4, "block_shape", blocks) != n)
        return false;
    TSNode base = a.npos > 0 ? a.pos[0] : al_py_kwarg(k->pf, &a, "base");
    al_tf_lin bl = al_tf_form(k, base, 0);
    int bt = -1;
    if (bl.data || al_tf_base_param(k, &bl, &bt) < 0)
        return false;
    al_tf_lin off = al_tf_without_term(bl, bt);
    al_tile_dim dims[AL_TILE_DIMS];
    memset(dims, 0, sizeof dims);
    const char *pids[AL_TILE_DIMS] = {0};
    int nd = 0;
    bool ok = true;
    for (int i = 0; i < n && ok; i++) {
        al_tile_dim *d = &dims[nd];
        al_tf_lin bound = al_tf_form(k, shape[i], 0), stride = al_tf_form(k, strides[i], 0);
        al_tf_lin at = al_tf_form(k, offsets[i], 0);
        char *block = al_node_text_compact(k->pf, blocks[i]);
        int bi = al_tf_param_index(k, block, strlen(block));
        long bv;
        int used = 0;
        bool const_block = bi < 0 && sscanf(block, "%ld%n", &bv, &used) == 1 && block[used] == '\0';
        const char *bp = al_tf_factor(k, "P:%s", block);
        const al_tf_term *x = at.n == 1 ? &at.t[0] : NULL;
        const char *pid = NULL;
        if (x && bi >= 0 && x->coef == 1 && x->nf == 2 && (x->f[0] == bp || x->f[1] == bp))
            pid = x->f[0] == bp ? x->f[1] : x->f[0];
        else if (x && const_block && x->nf == 1 && x->coef == bv)
            pid = x->f[0];
        d->nstride = 0;
        bool stride_ok = !stride.data && stride.n == 1 && stride.t[0].coef == 1 &&
                         stride.t[0].nf <= AL_TILE_STRIDES;
        for (int j = 0; stride_ok && j < stride.t[0].nf; j++) {
            const char *f = stride.t[0].f[j];
            stride_ok = !strncmp(f, "P:", 2);
            if (stride_ok)
                d->stride[d->nstride++] = al_tf_param_index(k, f + 2, strlen(f + 2));
        }
        ok = pid && pid_like(pid) && (bi >= 0 || const_block) && !at.data && stride_ok &&
             al_tf_lone_param(k, &bound) >= 0;
        if (ok) {
            pid_axis(pid, &d->axis, &d->split, &d->grouped);
            d->bound = al_tf_lone_param(k, &bound);
            d->block = bi;
            d->block_text = block;
            pids[nd++] = pid;
        } else {
            free(block);
        }
    }
    for (int i = 0; i < off.n && ok; i++)
        ok = nd < AL_TILE_DIMS && program_dim(k, &off.t[i], &dims[nd++]);
    if (!ok) {
        for (int i = 0; i < nd; i++)
            free(dims[i].block_text);
        return false;
    }
    return accept_tiles(k, dims, pids, nd, p);
}
