#include "extent.h"

#include "../../base/util.h"

#include <stdlib.h>
#include <string.h>

const char *al_intern(al_interner *in, const char *s, size_t len)
{
    for (size_t i = 0; i < in->n; i++)
        if (strlen(in->items[i]) == len && memcmp(in->items[i], s, len) == 0)
            return in->items[i];
    char *copy = al_xstrndup(s, len);
    AL_PUSH(in->items, in->n, in->cap, copy);
    return copy;
}

const char *al_intern_node(al_interner *in, const al_pyfile *pf, TSNode n)
{
    char *c = al_node_text_compact(pf, n);
    const char *r = al_intern(in, c, strlen(c));
    free(c);
    return r;
}

void al_interner_free(al_interner *in)
{
    for (size_t i = 0; i < in->n; i++)
        free(in->items[i]);
    free(in->items);
    memset(in, 0, sizeof *in);
}

bool al_sym_eq(al_sym a, al_sym b)
{
    return a.base == b.base && a.off == b.off;
}

al_sym al_sym_parse(const al_pyfile *pf, al_interner *strs, TSNode n)
{
    n = al_py_unparen(n);
    long v;
    if (al_py_parse_long(pf, n, &v))
        return (al_sym){NULL, v};
    if (al_node_is(n, "unary_operator")) {
        TSNode arg = al_node_field(n, "argument");
        TSNode op = al_node_field(n, "operator");
        if (al_py_parse_long(pf, arg, &v) && al_node_text_eq(pf, op, "-"))
            return (al_sym){NULL, -v};
    }
    if (al_node_is(n, "binary_operator")) {
        TSNode l = al_node_field(n, "left"), r = al_node_field(n, "right");
        TSNode op = al_node_field(n, "operator");
        bool plus = al_node_text_eq(pf, op, "+"), minus = al_node_text_eq(pf, op, "-");
        if ((plus || minus) && al_py_parse_long(pf, r, &v)) {
            al_sym s = al_sym_parse(pf, strs, l);
            s.off += plus ? v : -v;
            return s;
        }
        if (plus && al_py_parse_long(pf, l, &v)) {
            al_sym s = al_sym_parse(pf, strs, r);
            s.off += v;
            return s;
        }
    }
    return (al_sym){al_intern_node(strs, pf, n), 0};
}

void al_extents_init(al_extents *x, const al_pyfile *pf, al_interner *strs,
                     const char *const *even, size_t neven)
{
    memset(x, 0, sizeof *x);
    x->pf = pf;
    x->strs = strs;
    x->even = even;
    x->neven = neven;
    al_region unknown = {.unknown = true}, full = {0};
    AL_PUSH(x->regions, x->nreg, x->capreg, unknown);
    AL_PUSH(x->regions, x->nreg, x->capreg, full);
}

void al_extents_free(al_extents *x)
{
    free(x->regions);
    x->regions = NULL;
    x->nreg = x->capreg = 0;
}

void al_extents_read_shape(al_extents *x, TSNode size_expr, bool multiple, const al_py_args *args,
                           int first)
{
    x->ndims = 0;
    x->rank_known = false;
    if (multiple) {
        for (int i = first; i < args->npos && x->ndims < AL_MAX_DIMS; i++)
            x->shape[x->ndims++] = al_sym_parse(x->pf, x->strs, args->pos[i]);
        x->rank_known = args->npos - first <= AL_MAX_DIMS && !args->splat;
        return;
    }
    TSNode s = al_py_unparen(size_expr);
    if (al_node_is(s, "tuple") || al_node_is(s, "list")) {
        uint32_t k = ts_node_named_child_count(s);
        bool ok = true;
        for (uint32_t i = 0; i < k; i++) {
            TSNode c = ts_node_named_child(s, i);
            if (al_node_is(c, "comment"))
                continue;
            if (al_node_is(c, "list_splat") || x->ndims == AL_MAX_DIMS) {
                ok = false;
                break;
            }
            x->shape[x->ndims++] = al_sym_parse(x->pf, x->strs, c);
        }
        x->rank_known = ok;
        return;
    }
    if (al_node_is(s, "integer") || al_node_is(s, "binary_operator")) {
        x->shape[0] = al_sym_parse(x->pf, x->strs, s);
        x->ndims = 1;
        x->rank_known = true;
        return;
    }
    if (al_node_is(s, "identifier") || al_node_is(s, "attribute")) {
        /* An int or a size tuple: as an int it is dim 0; as a tuple any
         * proof that uses it as dim 0 would have raised. */
        x->shape[0] = al_sym_parse(x->pf, x->strs, s);
        x->ndims = 1;
    }
}

static bool region_eq(const al_region *a, const al_region *b)
{
    if (a->unknown != b->unknown || a->unsafe != b->unsafe || a->n != b->n)
        return false;
    for (int i = 0; i < a->n; i++) {
        const al_dimspec *p = &a->d[i], *q = &b->d[i];
        if (p->kind != q->kind || !al_sym_eq(p->lo, q->lo) || p->hi_end != q->hi_end ||
            (!p->hi_end && !al_sym_eq(p->hi, q->hi)))
            return false;
    }
    return true;
}

int al_region_id(al_extents *x, al_region r)
{
    /* Trailing full dims say nothing. */
    while (r.n > 0 && r.d[r.n - 1].kind == AL_DS_FULL)
        r.n--;
    for (size_t i = 0; i < x->nreg; i++)
        if (region_eq(&x->regions[i], &r))
            return (int)i;
    AL_PUSH(x->regions, x->nreg, x->capreg, r);
    return (int)x->nreg - 1;
}

static bool extent_of(const al_extents *x, int dim, al_sym *out)
{
    if (dim < x->ndims) {
        *out = x->shape[dim];
        return true;
    }
    return false;
}

/* Resolves a bound that counts from the end (a negative constant). */
static bool resolve_bound(const al_extents *x, int dim, al_sym s, al_sym *out)
{
    if (s.base == NULL && s.off < 0) {
        al_sym e;
        if (!extent_of(x, dim, &e))
            return false;
        *out = (al_sym){e.base, e.off + s.off};
        return true;
    }
    *out = s;
    return true;
}

/* The upper bound `hi`: the end of the dimension when it equals its extent. */
static void set_hi(const al_extents *x, int dim, al_sym hi, al_dimspec *out)
{
    al_sym e;
    if (extent_of(x, dim, &e) && al_sym_eq(hi, e))
        out->hi_end = true;
    else
        out->hi = hi;
}

static void set_range_kind(al_dimspec *out)
{
    out->kind = (out->lo.base == NULL && out->lo.off == 0 && out->hi_end) ? AL_DS_FULL
                                                                         : AL_DS_RANGE;
}

static bool parse_slice(al_extents *x, TSNode n, int dim, al_dimspec *out)
{
    TSNode parts[3];
    if (!al_py_slice_parts(n, parts))
        return false;
    al_sym lo = {NULL, 0};
    if (!ts_node_is_null(parts[0]) &&
        !resolve_bound(x, dim, al_sym_parse(x->pf, x->strs, parts[0]), &lo))
        return false;
    if (!ts_node_is_null(parts[2])) {
        long step;
        if (!al_py_parse_long(x->pf, parts[2], &step))
            return false;
        if (step != 1) {
            if (step != 2 || !ts_node_is_null(parts[1]) || lo.base != NULL)
                return false;
            if (lo.off == 0)
                out->kind = AL_DS_EVEN;
            else if (lo.off == 1)
                out->kind = AL_DS_ODD;
            else
                return false;
            return true;
        }
    }
    out->lo = lo;
    if (ts_node_is_null(parts[1])) {
        out->hi_end = true;
    } else {
        al_sym hi;
        if (!resolve_bound(x, dim, al_sym_parse(x->pf, x->strs, parts[1]), &hi))
            return false;
        set_hi(x, dim, hi, out);
    }
    set_range_kind(out);
    return true;
}

/* One element of a subscript: a slice or an index. Returns false when
 * its extent is unknown. */
static bool parse_dimspec(al_extents *x, TSNode n, int dim, al_loop_subst *ls, al_dimspec *out)
{
    memset(out, 0, sizeof *out);
    if (ls && !ts_node_is_null(ls->spec) && al_py_node_eq(n, ls->spec)) {
        ls->used = true;
        out->lo = ls->lo;
        set_hi(x, dim, ls->hi, out);
        set_range_kind(out);
        return true;
    }
    if (al_node_is(n, "slice"))
        return parse_slice(x, n, dim, out);
    /* An index: only plain names, attributes, constants and +/- constants
     * have an extent of one; tensors, lists and masks do not. */
    TSNode inner = al_py_unparen(n);
    const char *t = ts_node_type(inner);
    if (ls && al_node_is(inner, "identifier")) {
        size_t len;
        const char *p = al_node_ptr(x->pf, inner, &len);
        if (len == ls->var_len && memcmp(p, ls->var, len) == 0) {
            ls->used = true;
            out->lo = ls->lo;
            set_hi(x, dim, ls->hi, out);
            set_range_kind(out);
            return true;
        }
    }
    if (strcmp(t, "identifier") && strcmp(t, "integer") && strcmp(t, "attribute") &&
        strcmp(t, "unary_operator") && strcmp(t, "binary_operator"))
        return false;
    al_sym lo;
    if (!resolve_bound(x, dim, al_sym_parse(x->pf, x->strs, inner), &lo))
        return false;
    out->kind = AL_DS_RANGE;
    out->lo = lo;
    set_hi(x, dim, (al_sym){lo.base, lo.off + 1}, out);
    return true;
}

al_region al_extents_subscript(al_extents *x, TSNode sub, al_loop_subst *ls)
{
    al_region r;
    memset(&r, 0, sizeof r);
    TSNode specs[16];
    size_t total = al_node_field_children(sub, "subscript", specs, 16);
    if (total > 16) {
        r.unknown = true;
        return r;
    }
    int m = (int)total, ell = -1;
    for (int i = 0; i < m; i++) {
        if (al_node_is(specs[i], "ellipsis")) {
            if (ell >= 0) {
                r.unknown = true;
                return r;
            }
            ell = i;
        }
        if (al_node_is(specs[i], "none")) {
            r.unknown = true;
            return r;
        }
    }
    int before = ell >= 0 ? ell : m;
    int after = ell >= 0 ? m - ell - 1 : 0;
    if (before > AL_MAX_DIMS) {
        r.unknown = true;
        return r;
    }
    for (int i = 0; i < before; i++)
        if (!parse_dimspec(x, specs[i], i, ls, &r.d[i])) {
            r.unknown = true;
            return r;
        }
    r.n = before;
    if (after > 0) {
        /* Dims after an ellipsis count from the end: only with a known rank,
         * unless they are all full. */
        bool all_full = true;
        al_dimspec tmp[AL_MAX_DIMS];
        if (after > AL_MAX_DIMS) {
            r.unknown = true;
            return r;
        }
        int base = x->rank_known ? x->ndims - after : -1;
        for (int j = 0; j < after; j++) {
            int dim = base >= 0 ? base + j : AL_MAX_DIMS - 1;
            if (!parse_dimspec(x, specs[ell + 1 + j], dim, ls, &tmp[j])) {
                r.unknown = true;
                return r;
            }
            if (tmp[j].kind != AL_DS_FULL)
                all_full = false;
        }
        if (!all_full) {
            if (base < before || base + after > AL_MAX_DIMS) {
                r.unknown = true;
                return r;
            }
            for (int d = before; d < base; d++)
                r.d[d].kind = AL_DS_FULL;
            for (int j = 0; j < after; j++)
                r.d[base + j] = tmp[j];
            r.n = base + after;
        }
    }
    return r;
}

static bool provably_even(const al_extents *x, al_sym e)
{
    if (e.base == NULL)
        return e.off % 2 == 0;
    if (e.off % 2 != 0)
        return false;
    if (al_str_starts_with(e.base, "2*") || al_str_ends_with(e.base, "*2"))
        return true;
    for (size_t i = 0; i < x->neven; i++)
        if (x->even[i] == e.base)
            return true;
    return false;
}

static bool covers_dim(const al_extents *x, const al_dimspec **specs, int n, int dim)
{
    al_sym e;
    bool have_extent = extent_of(x, dim, &e);
    bool even = false, odd = false;
    for (int i = 0; i < n; i++) {
        if (specs[i]->kind == AL_DS_EVEN)
            even = true;
        if (specs[i]->kind == AL_DS_ODD)
            odd = true;
    }
    if (even && odd && have_extent && provably_even(x, e))
        return true;
    al_sym cur = {NULL, 0};
    for (int step = 0; step <= n; step++) {
        bool advanced = false;
        for (int i = 0; i < n; i++) {
            const al_dimspec *s = specs[i];
            if (s->kind != AL_DS_RANGE || !al_sym_eq(s->lo, cur))
                continue;
            if (s->hi_end)
                return true;
            if (al_sym_eq(s->hi, cur))
                continue;
            cur = s->hi;
            if (have_extent && al_sym_eq(cur, e))
                return true;
            advanced = true;
            break;
        }
        if (!advanced)
            return false;
    }
    return false;
}

bool al_extents_covered(const al_extents *x, const int *cov, int ncov)
{
    for (int i = 0; i < ncov; i++) {
        const al_region *r = &x->regions[cov[i]];
        if (!r->unknown && r->n == 0)
            return true;
    }
    for (int dim = 0; dim < AL_MAX_DIMS; dim++) {
        const al_dimspec *specs[16];
        int n = 0;
        for (int i = 0; i < ncov && n < 16; i++) {
            const al_region *r = &x->regions[cov[i]];
            if (r->unknown || r->n <= dim)
                continue;
            bool others_full = true;
            for (int d = 0; d < r->n; d++)
                if (d != dim && r->d[d].kind != AL_DS_FULL)
                    others_full = false;
            if (others_full)
                specs[n++] = &r->d[dim];
        }
        if (n >= 1 && covers_dim(x, specs, n, dim))
            return true;
    }
    return false;
}

bool al_extents_any_unsafe(const al_extents *x, const int *cov, int ncov)
{
    for (int i = 0; i < ncov; i++)
        if (x->regions[cov[i]].unsafe)
            return true;
    return false;
}
