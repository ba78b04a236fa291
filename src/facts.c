#include "facts.h"

#include "patterns_collect.h"
#include "python/cfg.h"
#include "python/imports.h"
#include "util.h"

#include <ctype.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------ */
/* Symbolic extents: an interned expression text plus a constant.      */

#define MAX_DIMS 6
#define MAX_COV 8
#define MAX_ALIASES 8
#define REGION_UNKNOWN 0 /* region id 0: a write whose extent we cannot tell */
#define REGION_FULL 1    /* region id 1: every element */

typedef struct {
    const char *base; /* interned; NULL for a plain constant */
    long off;
} sym;

typedef enum { DS_FULL, DS_RANGE, DS_EVEN, DS_ODD } ds_kind;

typedef struct {
    ds_kind kind;
    sym lo;
    bool hi_end; /* runs to the end of the dimension */
    sym hi;
} dimspec;

typedef struct {
    bool unknown;
    bool unsafe; /* written by an op whose full write is not proved */
    int n;       /* leading dims specified; the rest are full */
    dimspec d[MAX_DIMS];
} region;

typedef enum { AK_SAME, AK_RESHAPED, AK_REGION, AK_OPAQUE } alias_kind;

typedef struct {
    const char *name;
    size_t len;
    alias_kind kind;
    int region; /* for AK_REGION */
    bool must;
} alias;

typedef struct {
    bool reached;
    bool pristine; /* some path: alive and not yet fully written */
    bool written;  /* some path: fully written */
    bool dirty;    /* some path: any element written since the allocation */
    int cov[MAX_COV];
    int ncov;
    alias al[MAX_ALIASES];
    int nal;
} bstate;

typedef struct {
    TSNode *ids;
    size_t n, cap;
} occlist;

typedef struct {
    const char **names; /* interned in `strs` of the file */
    size_t n, cap;
} namelist;

typedef struct {
    const al_pyfile *pf;
    const al_imports *im;
    const al_op_table *ops;
    const namelist *atomic_kernels; /* @triton.jit functions using tl.atomic_* */
    const namelist *kernels;        /* every @triton.jit function of the file */
    TSNode func;
    al_cfg cfg;
    occlist *occ;
    char **strs;
    size_t nstrs, capstrs;
    const char **even; /* expressions asserted even */
    size_t neven, capeven;
    const char **globals;
    size_t nglobals, capglobals;
} fctx;

typedef struct {
    fctx *f;
    int alloc_node;
    bool zero_fill; /* zeros*: a kernel may well use it as a pure output */
    const char *root;
    size_t root_len;
    sym shape[MAX_DIMS];
    int ndims; /* leading dims whose extent is known */
    bool rank_known;
    bool padded;
    region *regions;
    size_t nreg, capreg;
    bstate *in;
    /* results */
    bool blocked;
    al_block_reason reason;
    size_t reason_row;
    bool accumulated;
    bool completed_safe, completed_unsafe;
    char *evidence;
    size_t evidence_row;
    unsigned char *refill_at; /* per node: 1 fill of a still-zero buffer, 2 not */
    bool refill_wanted;
} actx;

static const char *intern(fctx *f, const char *s, size_t len)
{
    for (size_t i = 0; i < f->nstrs; i++)
        if (strlen(f->strs[i]) == len && memcmp(f->strs[i], s, len) == 0)
            return f->strs[i];
    char *copy = al_xstrndup(s, len);
    AL_PUSH(f->strs, f->nstrs, f->capstrs, copy);
    return copy;
}

static const char *intern_node(fctx *f, TSNode n)
{
    char *c = al_node_text_compact(f->pf, n);
    const char *r = intern(f, c, strlen(c));
    free(c);
    return r;
}

static bool sym_eq(sym a, sym b)
{
    return a.base == b.base && a.off == b.off;
}

static bool parse_long(const al_pyfile *pf, TSNode n, long *out)
{
    if (!al_node_is(n, "integer"))
        return false;
    size_t len;
    const char *p = al_node_ptr(pf, n, &len);
    if (len == 0 || len > 18)
        return false;
    char buf[24];
    size_t k = 0;
    for (size_t i = 0; i < len; i++)
        if (p[i] != '_')
            buf[k++] = p[i];
    buf[k] = '\0';
    char *end;
    long v = strtol(buf, &end, 0);
    if (*end)
        return false;
    *out = v;
    return true;
}

/* `n`, `n + 1`, `n - 1`, `1 + n`, `128` */
static sym parse_sym(fctx *f, TSNode n)
{
    while (al_node_is(n, "parenthesized_expression") && ts_node_named_child_count(n) == 1)
        n = ts_node_named_child(n, 0);
    long v;
    if (parse_long(f->pf, n, &v))
        return (sym){NULL, v};
    if (al_node_is(n, "unary_operator")) {
        TSNode arg = al_node_field(n, "argument");
        TSNode op = al_node_field(n, "operator");
        if (parse_long(f->pf, arg, &v) && al_node_text_eq(f->pf, op, "-"))
            return (sym){NULL, -v};
    }
    if (al_node_is(n, "binary_operator")) {
        TSNode l = al_node_field(n, "left"), r = al_node_field(n, "right");
        TSNode op = al_node_field(n, "operator");
        bool plus = al_node_text_eq(f->pf, op, "+"), minus = al_node_text_eq(f->pf, op, "-");
        if ((plus || minus) && parse_long(f->pf, r, &v)) {
            sym s = parse_sym(f, l);
            s.off += plus ? v : -v;
            return s;
        }
        if (plus && parse_long(f->pf, l, &v)) {
            sym s = parse_sym(f, r);
            s.off += v;
            return s;
        }
    }
    return (sym){intern_node(f, n), 0};
}

/* ------------------------------------------------------------------ */
/* Regions                                                             */

static bool region_eq(const region *a, const region *b)
{
    if (a->unknown != b->unknown || a->unsafe != b->unsafe || a->n != b->n)
        return false;
    for (int i = 0; i < a->n; i++) {
        const dimspec *x = &a->d[i], *y = &b->d[i];
        if (x->kind != y->kind || !sym_eq(x->lo, y->lo) || x->hi_end != y->hi_end ||
            (!x->hi_end && !sym_eq(x->hi, y->hi)))
            return false;
    }
    return true;
}

static void region_normalise(region *r)
{
    /* Trailing full dims say nothing. */
    while (r->n > 0 && r->d[r->n - 1].kind == DS_FULL)
        r->n--;
}

static int region_id(actx *a, region r)
{
    region_normalise(&r);
    for (size_t i = 0; i < a->nreg; i++)
        if (region_eq(&a->regions[i], &r))
            return (int)i;
    AL_PUSH(a->regions, a->nreg, a->capreg, r);
    return (int)a->nreg - 1;
}

static bool region_is_full(const region *r)
{
    return !r->unknown && r->n == 0;
}

static bool extent_of(const actx *a, int dim, sym *out)
{
    if (dim < a->ndims) {
        *out = a->shape[dim];
        return true;
    }
    return false;
}

/* Resolves a bound that counts from the end (a negative constant). */
static bool resolve_bound(const actx *a, int dim, sym s, sym *out)
{
    if (s.base == NULL && s.off < 0) {
        sym e;
        if (!extent_of(a, dim, &e))
            return false;
        *out = (sym){e.base, e.off + s.off};
        return true;
    }
    *out = s;
    return true;
}

typedef struct {
    const char *var; /* loop variable replaced by a range */
    size_t var_len;
    sym lo, hi;
    bool used;
} loop_subst;

/* One element of a subscript: a slice or an index. Returns false when
 * its extent is unknown. */
static bool parse_dimspec(actx *a, TSNode n, int dim, loop_subst *ls, dimspec *out)
{
    fctx *f = a->f;
    memset(out, 0, sizeof *out);
    if (al_node_is(n, "slice")) {
        TSNode parts[3];
        memset(parts, 0, sizeof parts);
        int slot = 0;
        uint32_t k = ts_node_child_count(n);
        for (uint32_t i = 0; i < k; i++) {
            TSNode c = ts_node_child(n, i);
            if (!ts_node_is_named(c)) {
                if (strcmp(ts_node_type(c), ":") == 0)
                    slot++;
                continue;
            }
            if (al_node_is(c, "comment"))
                continue;
            if (slot > 2)
                return false;
            parts[slot] = c;
        }
        sym lo = {NULL, 0};
        if (!ts_node_is_null(parts[0]) && !resolve_bound(a, dim, parse_sym(f, parts[0]), &lo))
            return false;
        if (!ts_node_is_null(parts[2])) {
            long step;
            if (!parse_long(f->pf, parts[2], &step))
                return false;
            if (step != 1) {
                if (step != 2 || !ts_node_is_null(parts[1]) || lo.base != NULL)
                    return false;
                if (lo.off == 0)
                    out->kind = DS_EVEN;
                else if (lo.off == 1)
                    out->kind = DS_ODD;
                else
                    return false;
                return true;
            }
        }
        out->lo = lo;
        if (ts_node_is_null(parts[1])) {
            out->hi_end = true;
        } else {
            sym hi;
            if (!resolve_bound(a, dim, parse_sym(f, parts[1]), &hi))
                return false;
            sym e;
            if (extent_of(a, dim, &e) && sym_eq(hi, e))
                out->hi_end = true;
            else
                out->hi = hi;
        }
        out->kind = (out->lo.base == NULL && out->lo.off == 0 && out->hi_end) ? DS_FULL
                                                                              : DS_RANGE;
        return true;
    }
    /* An index: only plain names, attributes, constants and +/- constants
     * have an extent of one; tensors, lists and masks do not. */
    TSNode inner = n;
    while (al_node_is(inner, "parenthesized_expression") && ts_node_named_child_count(inner) == 1)
        inner = ts_node_named_child(inner, 0);
    const char *t = ts_node_type(inner);
    if (ls && al_node_is(inner, "identifier")) {
        size_t len;
        const char *p = al_node_ptr(f->pf, inner, &len);
        if (len == ls->var_len && memcmp(p, ls->var, len) == 0) {
            ls->used = true;
            out->lo = ls->lo;
            sym e;
            if (extent_of(a, dim, &e) && sym_eq(ls->hi, e)) {
                out->hi_end = true;
            } else {
                out->hi = ls->hi;
            }
            out->kind = (out->lo.base == NULL && out->lo.off == 0 && out->hi_end) ? DS_FULL
                                                                                  : DS_RANGE;
            return true;
        }
    }
    if (strcmp(t, "identifier") && strcmp(t, "integer") && strcmp(t, "attribute") &&
        strcmp(t, "unary_operator") && strcmp(t, "binary_operator"))
        return false;
    sym lo;
    if (!resolve_bound(a, dim, parse_sym(f, inner), &lo))
        return false;
    out->kind = DS_RANGE;
    out->lo = lo;
    sym hi = {lo.base, lo.off + 1}, e;
    if (extent_of(a, dim, &e) && sym_eq(hi, e))
        out->hi_end = true;
    else
        out->hi = hi;
    return true;
}

/* Region of `x[...]` in the buffer's own dims. */
static region parse_subscript(actx *a, TSNode sub, loop_subst *ls)
{
    region r;
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
    if (before > MAX_DIMS) {
        r.unknown = true;
        return r;
    }
    for (int i = 0; i < before; i++)
        if (!parse_dimspec(a, specs[i], i, ls, &r.d[i])) {
            r.unknown = true;
            return r;
        }
    r.n = before;
    if (after > 0) {
        /* Dims after an ellipsis count from the end: only with a known rank,
         * unless they are all full. */
        bool all_full = true;
        dimspec tmp[MAX_DIMS];
        if (after > MAX_DIMS) {
            r.unknown = true;
            return r;
        }
        int base = a->rank_known ? a->ndims - after : -1;
        for (int j = 0; j < after; j++) {
            int dim = base >= 0 ? base + j : MAX_DIMS - 1;
            if (!parse_dimspec(a, specs[ell + 1 + j], dim, ls, &tmp[j])) {
                r.unknown = true;
                return r;
            }
            if (tmp[j].kind != DS_FULL)
                all_full = false;
        }
        if (!all_full) {
            if (base < before || base + after > MAX_DIMS) {
                r.unknown = true;
                return r;
            }
            for (int d = before; d < base; d++)
                r.d[d].kind = DS_FULL;
            for (int j = 0; j < after; j++)
                r.d[base + j] = tmp[j];
            r.n = base + after;
        }
    }
    return r;
}

static bool provably_even(const actx *a, sym e)
{
    if (e.base == NULL)
        return e.off % 2 == 0;
    if (e.off % 2 != 0)
        return false;
    if (al_str_starts_with(e.base, "2*") || al_str_ends_with(e.base, "*2"))
        return true;
    for (size_t i = 0; i < a->f->neven; i++)
        if (a->f->even[i] == e.base)
            return true;
    return false;
}

static bool covers_dim(const actx *a, const dimspec **specs, int n, int dim)
{
    sym e;
    bool have_extent = extent_of(a, dim, &e);
    bool even = false, odd = false;
    for (int i = 0; i < n; i++) {
        if (specs[i]->kind == DS_EVEN)
            even = true;
        if (specs[i]->kind == DS_ODD)
            odd = true;
    }
    if (even && odd && have_extent && provably_even(a, e))
        return true;
    sym cur = {NULL, 0};
    for (int step = 0; step <= n; step++) {
        bool advanced = false;
        for (int i = 0; i < n; i++) {
            const dimspec *s = specs[i];
            if (s->kind != DS_RANGE || !sym_eq(s->lo, cur))
                continue;
            if (s->hi_end)
                return true;
            if (sym_eq(s->hi, cur))
                continue;
            cur = s->hi;
            if (have_extent && sym_eq(cur, e))
                return true;
            advanced = true;
            break;
        }
        if (!advanced)
            return false;
    }
    return false;
}

static bool coverage_full(const actx *a, const bstate *s)
{
    for (int i = 0; i < s->ncov; i++)
        if (region_is_full(&a->regions[s->cov[i]]))
            return true;
    for (int dim = 0; dim < MAX_DIMS; dim++) {
        const dimspec *specs[MAX_COV];
        int n = 0;
        for (int i = 0; i < s->ncov; i++) {
            const region *r = &a->regions[s->cov[i]];
            if (r->unknown || r->n <= dim)
                continue;
            bool others_full = true;
            for (int d = 0; d < r->n; d++)
                if (d != dim && r->d[d].kind != DS_FULL)
                    others_full = false;
            if (others_full)
                specs[n++] = &r->d[dim];
        }
        if (n >= 1 && covers_dim(a, specs, n, dim))
            return true;
    }
    return false;
}

static bool coverage_unsafe(const actx *a, const bstate *s)
{
    for (int i = 0; i < s->ncov; i++)
        if (a->regions[s->cov[i]].unsafe)
            return true;
    return false;
}

/* ------------------------------------------------------------------ */
/* States                                                              */

static int find_alias(const bstate *s, const char *name, size_t len)
{
    for (int i = 0; i < s->nal; i++)
        if (s->al[i].len == len && memcmp(s->al[i].name, name, len) == 0)
            return i;
    return -1;
}

static void add_alias(bstate *s, alias al)
{
    int i = find_alias(s, al.name, al.len);
    if (i >= 0) {
        s->al[i] = al;
        return;
    }
    if (s->nal < MAX_ALIASES) {
        s->al[s->nal++] = al;
    }
}

static void kill_alias(bstate *s, const char *name, size_t len)
{
    int i = find_alias(s, name, len);
    if (i < 0)
        return;
    s->al[i] = s->al[--s->nal];
}

static bool state_eq(const bstate *a, const bstate *b)
{
    if (a->reached != b->reached || a->pristine != b->pristine || a->written != b->written ||
        a->dirty != b->dirty ||
        a->ncov != b->ncov || a->nal != b->nal)
        return false;
    if (memcmp(a->cov, b->cov, (size_t)a->ncov * sizeof a->cov[0]) != 0)
        return false;
    for (int i = 0; i < a->nal; i++) {
        const alias *x = &a->al[i], *y = &b->al[i];
        if (x->name != y->name || x->len != y->len || x->kind != y->kind ||
            x->region != y->region || x->must != y->must)
            return false;
    }
    return true;
}

static bool join(bstate *into, const bstate *from)
{
    if (!from->reached)
        return false;
    if (!into->reached) {
        *into = *from;
        return true;
    }
    bstate old = *into;
    into->written |= from->written;
    into->dirty |= from->dirty;
    if (from->pristine) {
        if (into->pristine) {
            int n = 0;
            for (int i = 0; i < into->ncov; i++)
                for (int j = 0; j < from->ncov; j++)
                    if (into->cov[i] == from->cov[j]) {
                        into->cov[n++] = into->cov[i];
                        break;
                    }
            into->ncov = n;
        } else {
            into->ncov = from->ncov;
            memcpy(into->cov, from->cov, sizeof from->cov);
        }
        into->pristine = true;
    }
    /* May-aliases: the union; must only where both paths agree. */
    for (int i = 0; i < into->nal; i++) {
        int j = find_alias(from, into->al[i].name, into->al[i].len);
        if (j < 0 || from->al[j].kind != into->al[i].kind ||
            from->al[j].region != into->al[i].region || !from->al[j].must)
            into->al[i].must = false;
    }
    for (int j = 0; j < from->nal; j++)
        if (find_alias(into, from->al[j].name, from->al[j].len) < 0) {
            alias al = from->al[j];
            al.must = false;
            add_alias(into, al);
        }
    return !state_eq(&old, into);
}

/* ------------------------------------------------------------------ */
/* Classifying one use                                                 */

typedef enum {
    EV_META,
    EV_READ,
    EV_ESCAPE,
    EV_RMW,
    EV_WRITE,   /* region, evidence */
    EV_PARTIAL, /* a write of unknown extent */
    EV_KILL,
    EV_CREATE, /* a new alias bound to `target` */
} ev_kind;

typedef struct {
    ev_kind kind;
    int region;
    bool unsafe; /* output of an op without a full-write summary */
    const char *evidence_kind;
    char *evidence; /* owned */
    size_t row;
    const char *target;
    size_t target_len;
    alias_kind akind;
    int aregion;
    bool through_must; /* the use went through a must-alias */
    const char *alias_name;
    size_t alias_len;
    bool zero_fill; /* .zero_() / .fill_(0) */
} event;

static const char *const META_ATTRS[] = {
    "shape", "dtype", "device", "ndim", "is_cuda", "layout", "requires_grad", "is_leaf",
    "grad_fn", "names", "is_sparse", "is_quantized", "is_meta", "itemsize", "nbytes", NULL};
static const char *const META_METHODS[] = {
    "size", "dim", "numel", "nelement", "data_ptr", "stride", "element_size",
    "is_contiguous", "get_device", "storage_offset", "untyped_storage", "is_pinned",
    "is_floating_point", "is_complex", "type", "record_stream", "ndimension", NULL};
static const char *const FULL_WRITE_METHODS[] = {
    "copy_", "fill_", "zero_", "normal_", "uniform_", "random_", "bernoulli_",
    "exponential_", "geometric_", "cauchy_", "log_normal_", NULL};
static const char *const PARTIAL_WRITE_METHODS[] = {
    "index_copy_", "index_fill_", "masked_fill_", "masked_scatter_", "scatter_",
    "index_put_", "put_", "fill_diagonal_", "tril_", "triu_", NULL};
static const char *const RESHAPE_METHODS[] = {
    "view", "reshape", "flatten", "view_as", "reshape_as", "unsqueeze", "squeeze",
    "permute", "transpose", "t", "unflatten", "movedim", "swapaxes", "swapdims", "ravel",
    NULL};
static const char *const SAME_METHODS[] = {"detach", "contiguous", "requires_grad_", NULL};
static const char *const OPAQUE_METHODS[] = {
    "expand", "expand_as", "as_strided", "narrow", "select", "diagonal", "chunk", "split",
    "unbind", "tensor_split", "unfold", "split_with_sizes", "__getitem__", NULL};
static const char *const META_FUNCS[] = {
    "len", "isinstance", "id", "type", "hasattr", "torch.is_tensor",
    "torch.is_floating_point", "torch.numel", NULL};
static const char *const ESCAPE_PARENTS[] = {
    "return_statement", "yield", "list", "tuple", "set", "dictionary", "pair",
    "expression_list", "list_splat", "dictionary_splat", "await", "named_expression",
    "raise_statement", NULL};

static bool in_list(const char *const *list, const char *s, size_t len)
{
    for (int i = 0; list[i]; i++)
        if (strlen(list[i]) == len && memcmp(list[i], s, len) == 0)
            return true;
    return false;
}

static bool in_list_z(const char *const *list, const char *s)
{
    return in_list(list, s, strlen(s));
}

static int write_region(actx *a, alias_kind kind, int rid)
{
    (void)a;
    switch (kind) {
    case AK_SAME:
        return rid;
    case AK_RESHAPED:
        return REGION_FULL;
    case AK_REGION:
        return rid;
    case AK_OPAQUE:
        return REGION_UNKNOWN;
    }
    return REGION_UNKNOWN;
}

static event make(ev_kind kind, TSNode at)
{
    event e;
    memset(&e, 0, sizeof e);
    e.kind = kind;
    e.row = al_node_row(at);
    return e;
}

static event make_write(actx *a, int rid, bool unsafe, TSNode at, const char *what)
{
    event e = make(EV_WRITE, at);
    if (rid == REGION_UNKNOWN) {
        e.kind = EV_PARTIAL;
        return e;
    }
    if (unsafe) {
        region r = a->regions[rid];
        r.unsafe = true;
        rid = region_id(a, r);
    }
    e.region = rid;
    e.unsafe = unsafe;
    e.evidence = al_xstrdup(what);
    return e;
}

static event use_of_value(actx *a, TSNode E, alias_kind kind, int rid, TSNode root);

static bool has_keyword(actx *a, TSNode call, const char *kw, const char *value)
{
    TSNode args = al_node_field(call, "arguments");
    uint32_t k = ts_node_named_child_count(args);
    for (uint32_t i = 0; i < k; i++) {
        TSNode c = ts_node_named_child(args, i);
        if (al_node_is(c, "keyword_argument") &&
            al_node_text_eq(a->f->pf, al_node_field(c, "name"), kw) &&
            (!value || al_node_text_eq(a->f->pf, al_node_field(c, "value"), value)))
            return true;
    }
    return false;
}

static event method_use(actx *a, TSNode attr_node, TSNode call, alias_kind kind, int rid,
                        TSNode root)
{
    size_t len;
    const char *m = al_node_ptr(a->f->pf, al_node_field(attr_node, "attribute"), &len);
    if (in_list(META_METHODS, m, len))
        return make(EV_META, call);
    if (in_list(FULL_WRITE_METHODS, m, len)) {
        char what[64];
        snprintf(what, sizeof what, "`%.*s`", (int)(len < 40 ? len : 40), m);
        event e = make_write(a, write_region(a, kind, rid), false, call, what);
        TSNode args = al_node_field(call, "arguments");
        uint32_t nargs = ts_node_named_child_count(args);
        if (kind == AK_SAME &&
            ((len == 5 && !memcmp(m, "zero_", 5) && nargs == 0) ||
             (len == 5 && !memcmp(m, "fill_", 5) && nargs == 1 &&
              (al_node_text_eq(a->f->pf, ts_node_named_child(args, 0), "0") ||
               al_node_text_eq(a->f->pf, ts_node_named_child(args, 0), "0.0")))))
            e.zero_fill = true;
        return e;
    }
    if (in_list(PARTIAL_WRITE_METHODS, m, len)) {
        if (has_keyword(a, call, "reduce", NULL) || has_keyword(a, call, "accumulate", "True"))
            return make(EV_RMW, call);
        return make(EV_PARTIAL, call);
    }
    if (in_list(RESHAPE_METHODS, m, len))
        return use_of_value(a, call, kind == AK_SAME || kind == AK_RESHAPED ? AK_RESHAPED
                                                                           : AK_OPAQUE,
                            rid, root);
    if (in_list(SAME_METHODS, m, len))
        return use_of_value(a, call, kind, rid, root);
    if (in_list(OPAQUE_METHODS, m, len))
        return use_of_value(a, call, AK_OPAQUE, REGION_UNKNOWN, root);
    if (len > 1 && m[len - 1] == '_' && !(len > 2 && m[len - 2] == '_'))
        return make(EV_RMW, call);
    return make(EV_READ, call);
}

/* `mod.kernel` where `mod` is an imported module: a kernel launch
 * `mod.kernel[grid](...)`, unlike `self.table[key](...)`. */
static bool is_module_attribute(const fctx *f, TSNode attr)
{
    TSNode base = attr;
    while (al_node_is(base, "attribute"))
        base = al_node_field(base, "object");
    if (!al_node_is(base, "identifier"))
        return false;
    size_t len;
    const char *p = al_node_ptr(f->pf, base, &len);
    for (size_t i = 0; i < f->im->n; i++)
        if (strlen(f->im->items[i].local) == len && memcmp(f->im->items[i].local, p, len) == 0)
            return true;
    return false;
}

/* `kernel` in `kernel[grid](...)` is a Triton kernel: defined with a
 * triton decorator in this file, imported by name, or reached through an
 * imported module. Anything else (`handlers[key](...)`) is a lookup. */
static bool is_kernel_name(const fctx *f, TSNode n)
{
    if (al_node_is(n, "attribute"))
        return is_module_attribute(f, n);
    if (!al_node_is(n, "identifier"))
        return false;
    size_t len;
    const char *p = al_node_ptr(f->pf, n, &len);
    for (size_t i = 0; f->kernels && i < f->kernels->n; i++)
        if (strlen(f->kernels->names[i]) == len && memcmp(f->kernels->names[i], p, len) == 0)
            return true;
    for (size_t i = 0; i < f->im->n; i++)
        if (strlen(f->im->items[i].local) == len && memcmp(f->im->items[i].local, p, len) == 0)
            return true;
    return false;
}

static event arg_use(actx *a, TSNode call, int pos, TSNode kw, alias_kind kind, int rid)
{
    fctx *f = a->f;
    TSNode fn = al_node_field(call, "function");
    int wr = write_region(a, kind, rid);
    TSNode launched = al_node_field(fn, "value");
    bool launch = al_node_is(fn, "subscript") && is_kernel_name(f, launched);
    if (al_node_is(fn, "subscript") && !launch)
        return make(EV_ESCAPE, call); /* `table[key](buf)`: an unknown callable */
    if (launch) {
        char what[160];
        size_t len;
        TSNode kernel = launched;
        const char *p = al_node_ptr(f->pf, kernel, &len);
        for (size_t i = 0; f->atomic_kernels && i < f->atomic_kernels->n; i++)
            if (strlen(f->atomic_kernels->names[i]) == len &&
                memcmp(f->atomic_kernels->names[i], p, len) == 0)
                return make(EV_RMW, call); /* the kernel accumulates with atomics */
        /* A non-zero fill handed to a kernel is most likely an input. */
        if (!a->zero_fill || !ts_node_is_null(kw))
            return make(EV_ESCAPE, call);
        snprintf(what, sizeof what, "the Triton launch `%.*s[...]`", (int)(len < 80 ? len : 80),
                 p);
        event e = make_write(a, wr, true, call, what);
        e.evidence_kind = "kernel";
        return e;
    }
    char *q = al_imports_resolve(f->im, f->pf, fn);
    char *bare = NULL;
    if (!q && al_node_is(fn, "identifier")) {
        size_t len;
        const char *p = al_node_ptr(f->pf, fn, &len);
        bare = al_xstrndup(p, len);
    }
    const char *name = q ? q : bare;
    event e;
    size_t kwlen = 0;
    const char *kwp = ts_node_is_null(kw) ? NULL : al_node_ptr(f->pf, kw, &kwlen);
    const al_op_summary *op = name ? al_ops_find(f->ops, name) : NULL;
    const al_op_summary *out_op = name ? al_ops_find_output(f->ops, name, pos, kwp, kwlen) : NULL;
    if (name && in_list_z(META_FUNCS, name)) {
        e = make(EV_META, call);
    } else if (out_op) {
        op = out_op;
        char what[200];
        if (kwp)
            snprintf(what, sizeof what, "`%s(%.*s=...)`", name, (int)kwlen, kwp);
        else
            snprintf(what, sizeof what, "`%s` (argument %d)", name, pos);
        e = make_write(a, wr, !op->full_write, call, what);
        e.evidence_kind = op->full_write ? "op" : "kernel";
    } else if (op) {
        e = make(EV_READ, call);
    } else if (kwp && ((kwlen == 3 && memcmp(kwp, "out", 3) == 0) ||
                       (kwlen == 6 && memcmp(kwp, "output", 6) == 0) ||
                       (kwlen > 4 && memcmp(kwp + kwlen - 4, "_out", 4) == 0))) {
        char what[200];
        size_t fl;
        const char *fp = al_node_ptr(f->pf, fn, &fl);
        snprintf(what, sizeof what, "`%.*s=` of `%.*s`", (int)kwlen, kwp, (int)(fl < 80 ? fl : 80),
                 fp);
        e = make_write(a, wr, true, call, what);
        e.evidence_kind = "kernel";
    } else if (q && al_str_starts_with(q, "torch.ops.") && (!a->zero_fill || pos != 0)) {
        /* Without a schema, only the first argument of a custom op is
         * taken for its output (vLLM's and SGLang's `out`-first habit). */
        e = make(pos == 0 ? EV_ESCAPE : EV_READ, call);
    } else if (q && al_str_starts_with(q, "torch.ops.")) {
        char what[200];
        snprintf(what, sizeof what, "the custom op `%s`", q);
        e = make_write(a, wr, true, call, what);
        e.evidence_kind = "kernel";
    } else if (q && al_str_starts_with(q, "torch.")) {
        e = make(EV_READ, call);
    } else {
        e = make(EV_ESCAPE, call);
    }
    free(q);
    free(bare);
    return e;
}

static bool name_eq(TSNode id, const al_pyfile *pf, const char *name, size_t len)
{
    size_t l;
    const char *p = al_node_ptr(pf, id, &l);
    return l == len && memcmp(p, name, len) == 0;
}

static bool node_eq(TSNode a, TSNode b)
{
    return !ts_node_is_null(a) && !ts_node_is_null(b) && ts_node_eq(a, b);
}

static event use_of_value(actx *a, TSNode E, alias_kind kind, int rid, TSNode root)
{
    const al_pyfile *pf = a->f->pf;
    if (node_eq(E, root))
        return make(EV_READ, E);
    TSNode q = ts_node_parent(E);
    while (al_node_is(q, "parenthesized_expression") && !node_eq(q, root)) {
        E = q;
        q = ts_node_parent(q);
    }
    if (ts_node_is_null(q))
        return make(EV_READ, E);
    const char *type = ts_node_type(q);

    if (strcmp(type, "attribute") == 0 && node_eq(al_node_field(q, "object"), E)) {
        TSNode g = ts_node_parent(q);
        if (al_node_is(g, "call") && node_eq(al_node_field(g, "function"), q))
            return method_use(a, q, g, kind, rid, root);
        size_t len;
        const char *attr = al_node_ptr(pf, al_node_field(q, "attribute"), &len);
        if (in_list(META_ATTRS, attr, len))
            return make(EV_META, q);
        if ((len == 1 && attr[0] == 'T') || (len == 2 && memcmp(attr, "mT", 2) == 0))
            return use_of_value(a, q, kind == AK_SAME || kind == AK_RESHAPED ? AK_RESHAPED
                                                                            : AK_OPAQUE,
                                rid, root);
        if (len == 4 && memcmp(attr, "data", 4) == 0)
            return use_of_value(a, q, kind, rid, root);
        return make(EV_READ, q);
    }
    if (strcmp(type, "subscript") == 0 && node_eq(al_node_field(q, "value"), E)) {
        if (kind == AK_SAME) {
            region r = parse_subscript(a, q, NULL);
            if (r.unknown)
                return use_of_value(a, q, AK_OPAQUE, REGION_UNKNOWN, root);
            int id = region_id(a, r);
            return use_of_value(a, q, id == REGION_FULL ? AK_SAME : AK_REGION, id, root);
        }
        return use_of_value(a, q, AK_OPAQUE, REGION_UNKNOWN, root);
    }
    if (strcmp(type, "assignment") == 0) {
        if (node_eq(al_node_field(q, "left"), E)) {
            if (al_node_is(E, "identifier"))
                return make(EV_KILL, E);
            char *target = al_node_text_compact(pf, E);
            char what[128];
            if (strlen(target) > 60)
                snprintf(what, sizeof what, "an assignment to `%.57s...`", target);
            else
                snprintf(what, sizeof what, "`%s = ...`", target);
            free(target);
            return make_write(a, write_region(a, kind, rid), false, q, what);
        }
        if (node_eq(al_node_field(q, "right"), E)) {
            TSNode left = al_node_field(q, "left");
            if (al_node_is(left, "identifier")) {
                event e = make(EV_CREATE, q);
                e.target = al_node_ptr(pf, left, &e.target_len);
                e.akind = kind;
                e.aregion = rid;
                return e;
            }
            if (al_node_is(left, "pattern_list") || al_node_is(left, "tuple_pattern") ||
                al_node_is(left, "list_pattern"))
                return make(EV_READ, q); /* unpacking iterates the tensor */
            return make(EV_ESCAPE, q);   /* stored in an attribute or container */
        }
        return make(EV_READ, q);
    }
    if (strcmp(type, "augmented_assignment") == 0) {
        if (node_eq(al_node_field(q, "left"), E))
            return make(EV_RMW, q);
        return make(EV_READ, q);
    }
    if (strcmp(type, "argument_list") == 0) {
        TSNode call = ts_node_parent(q);
        if (!al_node_is(call, "call"))
            return make(EV_READ, q);
        int pos = 0;
        uint32_t k = ts_node_named_child_count(q);
        for (uint32_t i = 0; i < k; i++) {
            TSNode c = ts_node_named_child(q, i);
            if (node_eq(c, E))
                break;
            if (al_node_is(c, "list_splat") || al_node_is(c, "dictionary_splat")) {
                pos = -1000;
                continue;
            }
            if (!al_node_is(c, "keyword_argument") && !al_node_is(c, "comment"))
                pos++;
        }
        TSNode nokw = {0};
        return arg_use(a, call, pos < 0 ? -1 : pos, nokw, kind, rid);
    }
    if (strcmp(type, "keyword_argument") == 0 && node_eq(al_node_field(q, "value"), E)) {
        TSNode args = ts_node_parent(q);
        TSNode call = ts_node_parent(args);
        if (!al_node_is(call, "call"))
            return make(EV_READ, q);
        return arg_use(a, call, -1, al_node_field(q, "name"), kind, rid);
    }
    if (strcmp(type, "comparison_operator") == 0) {
        /* `x is None` reads no element. */
        bool identity = true;
        uint32_t k = ts_node_child_count(q);
        for (uint32_t i = 0; i < k; i++) {
            TSNode c = ts_node_child(q, i);
            if (!ts_node_is_named(c)) {
                const char *op = ts_node_type(c);
                if (strcmp(op, "is") && strcmp(op, "is not") && strcmp(op, "not"))
                    identity = false;
            }
        }
        return make(identity ? EV_META : EV_READ, q);
    }
    if (strcmp(type, "delete_statement") == 0)
        return make(al_node_is(E, "identifier") ? EV_KILL : EV_READ, q);
    if (strcmp(type, "global_statement") == 0 || strcmp(type, "nonlocal_statement") == 0)
        return make(EV_ESCAPE, q);
    if (in_list_z(ESCAPE_PARENTS, type))
        return make(EV_ESCAPE, q);
    if (strcmp(type, "as_pattern_target") == 0 || strcmp(type, "pattern_list") == 0 ||
        strcmp(type, "tuple_pattern") == 0 || strcmp(type, "list_pattern") == 0)
        return make(EV_KILL, E);
    return make(EV_READ, q);
}

/* Contexts inside a statement that change what a use means. */
static bool inside(TSNode id, TSNode root, const char *const *types)
{
    TSNode n = ts_node_parent(id);
    while (!ts_node_is_null(n)) {
        if (in_list_z(types, ts_node_type(n)))
            return true;
        if (node_eq(n, root))
            break;
        n = ts_node_parent(n);
    }
    return false;
}

static const char *const CAPTURING[] = {"lambda", NULL};
static const char *const COMPREHENSIONS[] = {
    "list_comprehension", "set_comprehension", "dictionary_comprehension",
    "generator_expression", NULL};
static const char *const CONDITIONAL[] = {"conditional_expression", "boolean_operator", NULL};

/* Whether n runs inside `with torch.cuda.graph(g):` or another capture
 * context: work there is recorded, not executed, until a replay. */
static bool in_graph_capture(const al_pyfile *pf, TSNode n)
{
    for (TSNode p = ts_node_parent(n); !ts_node_is_null(p); p = ts_node_parent(p)) {
        if (al_node_is(p, "function_definition") || al_node_is(p, "class_definition"))
            return false;
        if (!al_node_is(p, "with_statement"))
            continue;
        uint32_t k = ts_node_named_child_count(p);
        for (uint32_t i = 0; i < k; i++) {
            TSNode c = ts_node_named_child(p, i);
            if (!al_node_is(c, "with_clause"))
                continue;
            char *text = al_node_text_compact(pf, c);
            for (char *t = text; *t; t++)
                *t = (char)tolower((unsigned char)*t);
            bool capture = strstr(text, "graph") || strstr(text, "capture");
            free(text);
            if (capture)
                return true;
        }
    }
    return false;
}

static event classify(actx *a, const al_cfg_node *node, TSNode id, const alias *al)
{
    if (node->kind == AL_CFG_DEF)
        return make(EV_ESCAPE, id);
    if (node->kind == AL_CFG_FOR_TARGET) {
        event e = use_of_value(a, id, al->kind, al->region, node->eval);
        if (node_eq(id, node->eval) || e.kind == EV_KILL)
            return make(EV_KILL, id);
        return e.kind == EV_WRITE ? make(EV_PARTIAL, id) : e;
    }
    if (node->kind == AL_CFG_EXCEPT) {
        TSNode alias_node = al_node_field(node->eval, "alias");
        if (node_eq(alias_node, id))
            return make(EV_KILL, id);
    }
    if (inside(id, node->eval, CAPTURING))
        return make(EV_ESCAPE, id);
    if (inside(id, node->eval, COMPREHENSIONS))
        return make(EV_READ, id);
    event e = use_of_value(a, id, al->kind, al->region, node->eval);
    if (e.kind == EV_WRITE && in_graph_capture(a->f->pf, id)) {
        free(e.evidence);
        return make(EV_PARTIAL, id); /* recorded now, executed at replay */
    }
    if ((e.kind == EV_WRITE || e.kind == EV_CREATE) && inside(id, node->eval, CONDITIONAL)) {
        free(e.evidence);
        /* A write that may not happen proves nothing; it reads nothing either. */
        return make(e.kind == EV_WRITE ? EV_PARTIAL : EV_READ, id);
    }
    return e;
}

/* ------------------------------------------------------------------ */
/* Transfer                                                             */

static void block(actx *a, al_block_reason reason, size_t row)
{
    if (!a->blocked) {
        a->blocked = true;
        a->reason = reason;
        a->reason_row = row;
    }
}

static void apply_write(actx *a, bstate *s, int rid, const event *e)
{
    if (!s->pristine)
        return;
    bool present = false;
    for (int i = 0; i < s->ncov; i++)
        if (s->cov[i] == rid)
            present = true;
    if (!present) {
        if (s->ncov == MAX_COV)
            return; /* too many pieces to reason about: stays partial */
        s->cov[s->ncov++] = rid;
    }
    if (!coverage_full(a, s))
        return;
    bool unsafe = coverage_unsafe(a, s);
    if (unsafe && a->padded)
        block(a, AL_BLOCK_PADDED_KERNEL, e->row);
    if (unsafe)
        a->completed_unsafe = true;
    else
        a->completed_safe = true;
    if (!a->evidence && e->evidence) {
        a->evidence = al_xstrdup(e->evidence);
        a->evidence_row = e->row;
    }
    s->pristine = false;
    s->written = true;
    s->ncov = 0;
}


static void transfer(actx *a, int idx, const bstate *in, bstate *out)
{
    const al_cfg_node *node = &a->f->cfg.nodes[idx];
    *out = *in;
    if (idx == a->alloc_node) {
        /* A new buffer bound to the root; buffers made here on earlier
         * iterations stay reachable through their other aliases, which
         * become may-aliases of this site. */
        bstate old = *out;
        kill_alias(&old, a->root, a->root_len);
        memset(out, 0, sizeof *out);
        out->reached = true;
        out->pristine = true;
        out->al[0] = (alias){a->root, a->root_len, AK_SAME, REGION_FULL, true};
        out->nal = 1;
        out->written = old.written;
        if (old.pristine)
            for (int i = 0; i < old.nal; i++) {
                alias al = old.al[i];
                al.must = false;
                add_alias(out, al);
            }
        return;
    }
    const occlist *occ = &a->f->occ[idx];
    if (occ->n == 0 || in->nal == 0)
        return;
    event evs[64];
    int nev = 0;
    for (size_t i = 0; i < occ->n && nev < 64; i++) {
        for (int j = 0; j < in->nal; j++) {
            if (!name_eq(occ->ids[i], a->f->pf, in->al[j].name, in->al[j].len))
                continue;
            evs[nev] = classify(a, node, occ->ids[i], &in->al[j]);
            evs[nev].through_must = in->al[j].must;
            evs[nev].alias_name = in->al[j].name;
            evs[nev].alias_len = in->al[j].len;
            nev++;
            break;
        }
    }
    /* Python evaluates operands before the store or call that writes. */
    for (int i = 0; i < nev; i++) {
        event *e = &evs[i];
        if (e->kind == EV_RMW)
            a->accumulated = true, block(a, AL_BLOCK_ACCUMULATE, e->row);
        if (!out->pristine)
            continue;
        if (e->kind == EV_READ)
            block(a, AL_BLOCK_READ, e->row);
        else if (e->kind == EV_ESCAPE)
            block(a, AL_BLOCK_ESCAPE, e->row);
    }
    for (int i = 0; i < nev; i++) {
        event *e = &evs[i];
        if (e->kind == EV_WRITE && e->zero_fill && a->refill_at) {
            bool still_zero = out->pristine && !out->written && !out->dirty && out->ncov == 0 &&
                              nev == 1 && e->through_must;
            a->refill_at[idx] = still_zero && a->refill_at[idx] != 2 ? 1 : 2;
        }
        if (e->kind == EV_WRITE || e->kind == EV_PARTIAL || e->kind == EV_RMW)
            out->dirty = true;
        if (e->kind == EV_WRITE && e->through_must)
            apply_write(a, out, e->region, e);
        if ((e->kind == EV_WRITE || e->kind == EV_PARTIAL) && e->evidence_kind &&
            strcmp(e->evidence_kind, "kernel") == 0 && a->padded && out->pristine)
            block(a, AL_BLOCK_PADDED_KERNEL, e->row);
    }
    /* Kills, then new bindings: `x = x.view(-1)` rebinds x to an alias. */
    bool was_pristine = out->pristine;
    for (int i = 0; i < nev; i++)
        if (evs[i].kind == EV_KILL)
            kill_alias(out, evs[i].alias_name, evs[i].alias_len);
    /* An assignment to a tracked name that is not itself a use of the
     * buffer also rebinds it. */
    if (node->kind == AL_CFG_SIMPLE && al_node_is(node->eval, "expression_statement")) {
        TSNode asg = ts_node_named_child(node->eval, 0);
        while (al_node_is(asg, "assignment")) {
            TSNode left = al_node_field(asg, "left");
            if (al_node_is(left, "identifier")) {
                size_t len;
                const char *p = al_node_ptr(a->f->pf, left, &len);
                kill_alias(out, p, len);
            }
            asg = al_node_field(asg, "right");
        }
    }
    for (int i = 0; i < nev; i++) {
        event *e = &evs[i];
        if (e->kind == EV_CREATE && was_pristine) {
            alias al = {e->target, e->target_len, e->akind, e->aregion, e->through_must};
            add_alias(out, al);
        }
        free(e->evidence);
    }
    if (out->nal == 0)
        out->pristine = false; /* unreachable before anyone read it */
}

/* ------------------------------------------------------------------ */
/* Loops that cover a dimension: for i in range(n): buf[i] = ...        */

static bool has_jump(TSNode n, int depth)
{
    if (depth > 100)
        return true;
    const char *t = ts_node_type(n);
    if (!strcmp(t, "break_statement") || !strcmp(t, "continue_statement") ||
        !strcmp(t, "return_statement") || !strcmp(t, "yield"))
        return true;
    if (!strcmp(t, "function_definition") || !strcmp(t, "class_definition") ||
        !strcmp(t, "lambda"))
        return false;
    uint32_t k = ts_node_named_child_count(n);
    for (uint32_t i = 0; i < k; i++)
        if (has_jump(ts_node_named_child(n, i), depth + 1))
            return true;
    return false;
}

/* Whether a binding target (a name, or a tuple of them) binds `name`. */
static bool target_binds(const al_pyfile *pf, TSNode target, const char *name, size_t len)
{
    if (al_node_is(target, "identifier"))
        return name_eq(target, pf, name, len);
    if (al_node_is(target, "pattern_list") || al_node_is(target, "tuple_pattern") ||
        al_node_is(target, "list_pattern") || al_node_is(target, "list_splat_pattern") ||
        al_node_is(target, "parenthesized_expression")) {
        uint32_t k = ts_node_named_child_count(target);
        for (uint32_t i = 0; i < k; i++)
            if (target_binds(pf, ts_node_named_child(target, i), name, len))
                return true;
    }
    return false;
}

static bool assigns_name(const al_pyfile *pf, TSNode n, const char *name, size_t len, int depth)
{
    if (depth > 100)
        return true;
    const char *t = ts_node_type(n);
    if (!strcmp(t, "assignment") || !strcmp(t, "augmented_assignment") ||
        !strcmp(t, "for_statement") || !strcmp(t, "named_expression") ||
        !strcmp(t, "as_pattern_target")) {
        TSNode left = !strcmp(t, "as_pattern_target")  ? n
                      : !strcmp(t, "named_expression") ? al_node_field(n, "name")
                                                       : al_node_field(n, "left");
        if (!ts_node_is_null(left) && target_binds(pf, left, name, len))
            return true;
    }
    uint32_t k = ts_node_named_child_count(n);
    for (uint32_t i = 0; i < k; i++)
        if (assigns_name(pf, ts_node_named_child(n, i), name, len, depth + 1))
            return true;
    return false;
}

static size_t count_name(const al_pyfile *pf, TSNode n, const char *name, size_t len,
                         int depth)
{
    if (depth > 100)
        return 1000;
    if (al_node_is(n, "identifier"))
        return name_eq(n, pf, name, len) ? 1 : 0;
    if (al_node_is(n, "attribute"))
        return count_name(pf, al_node_field(n, "object"), name, len, depth + 1);
    size_t total = 0;
    uint32_t k = ts_node_named_child_count(n);
    for (uint32_t i = 0; i < k; i++)
        total += count_name(pf, ts_node_named_child(n, i), name, len, depth + 1);
    return total;
}

/* The region written by `for i in range(..)` over the whole loop for the
 * name `target`, or -1. */
static int loop_cover(actx *a, TSNode loop, const char *target, size_t tlen)
{
    const al_pyfile *pf = a->f->pf;
    TSNode left = al_node_field(loop, "left"), right = al_node_field(loop, "right");
    if (!al_node_is(left, "identifier") || !al_node_is(right, "call"))
        return -1;
    if (!al_node_text_eq(pf, al_node_field(right, "function"), "range"))
        return -1;
    TSNode args = al_node_field(right, "arguments");
    TSNode pos[3];
    int np = 0;
    uint32_t k = ts_node_named_child_count(args);
    for (uint32_t i = 0; i < k; i++) {
        TSNode c = ts_node_named_child(args, i);
        if (al_node_is(c, "comment"))
            continue;
        if (al_node_is(c, "keyword_argument") || al_node_is(c, "list_splat") || np == 3)
            return -1;
        pos[np++] = c;
    }
    loop_subst ls;
    memset(&ls, 0, sizeof ls);
    ls.var = al_node_ptr(pf, left, &ls.var_len);
    if (np == 1) {
        ls.lo = (sym){NULL, 0};
        ls.hi = parse_sym(a->f, pos[0]);
    } else if (np == 2) {
        ls.lo = parse_sym(a->f, pos[0]);
        ls.hi = parse_sym(a->f, pos[1]);
    } else {
        return -1;
    }
    TSNode body = al_node_field(loop, "body");
    if (has_jump(body, 0) || assigns_name(pf, body, ls.var, ls.var_len, 0))
        return -1;
    uint32_t n = ts_node_named_child_count(body);
    for (uint32_t i = 0; i < n; i++) {
        TSNode st = ts_node_named_child(body, i);
        if (!al_node_is(st, "expression_statement"))
            continue;
        TSNode e = ts_node_named_child(st, 0);
        TSNode sub = {0};
        if (al_node_is(e, "assignment") && al_node_is(al_node_field(e, "left"), "subscript")) {
            sub = al_node_field(e, "left");
        } else if (al_node_is(e, "call")) {
            TSNode fn = al_node_field(e, "function");
            if (al_node_is(fn, "attribute")) {
                size_t ml;
                const char *m = al_node_ptr(pf, al_node_field(fn, "attribute"), &ml);
                TSNode obj = al_node_field(fn, "object");
                if (in_list(FULL_WRITE_METHODS, m, ml) && al_node_is(obj, "subscript"))
                    sub = obj;
            }
        }
        if (ts_node_is_null(sub))
            continue;
        TSNode base = al_node_field(sub, "value");
        if (!al_node_is(base, "identifier") || !name_eq(base, pf, target, tlen))
            continue;
        /* `buf[i, i]` is a diagonal and `buf[i, idx[i]]` a scatter: the
         * loop variable must index exactly one dimension, bare. */
        if (count_name(pf, sub, ls.var, ls.var_len, 0) != 1)
            continue;
        ls.used = false;
        region r = parse_subscript(a, sub, &ls);
        if (!r.unknown && ls.used)
            return region_id(a, r);
    }
    return -1;
}

/* ------------------------------------------------------------------ */
/* Per-allocation analysis                                              */

static void propagate(actx *a, int from, const bstate *out, int *work, size_t *nwork,
                      bool *queued)
{
    const al_cfg_node *node = &a->f->cfg.nodes[from];
    for (size_t i = 0; i < node->n_succ; i++) {
        int to = node->succ[i];
        bstate edge = *out;
        /* The loop's exit edges (not the first, into the body) leave
         * after every iteration ran. */
        if (node->kind == AL_CFG_FOR_TARGET && i > 0 && edge.pristine) {
            for (int j = 0; j < edge.nal; j++) {
                if (!edge.al[j].must || edge.al[j].kind != AK_SAME)
                    continue;
                int rid = loop_cover(a, node->ast, edge.al[j].name, edge.al[j].len);
                if (rid >= 0) {
                    event ev = make(EV_WRITE, node->ast);
                    char what[64];
                    snprintf(what, sizeof what, "the loop over `range(...)`");
                    ev.evidence = what;
                    apply_write(a, &edge, rid, &ev);
                    break;
                }
            }
        }
        if (join(&a->in[to], &edge) && !queued[to]) {
            queued[to] = true;
            work[(*nwork)++] = to;
        }
    }
}

static void analyse_alloc(actx *a)
{
    fctx *f = a->f;
    size_t n = f->cfg.n;
    a->in = al_xcalloc(n, sizeof(bstate));
    if (a->refill_wanted)
        a->refill_at = al_xcalloc(n, 1);
    int *work = al_xmalloc(n * sizeof(int) * 2 + 16);
    bool *queued = al_xcalloc(n, sizeof(bool));
    size_t nwork = 0;
    for (size_t i = 0; i < f->nglobals; i++)
        if (strlen(f->globals[i]) == a->root_len &&
            memcmp(f->globals[i], a->root, a->root_len) == 0)
            block(a, AL_BLOCK_GLOBAL, 0);

    bstate out;
    bstate empty;
    memset(&empty, 0, sizeof empty);
    empty.reached = true;
    transfer(a, a->alloc_node, &empty, &out);
    propagate(a, a->alloc_node, &out, work, &nwork, queued);
    size_t steps = 0, limit = n * 64 + 1024;
    while (nwork > 0 && steps++ < limit) {
        int idx = work[--nwork];
        queued[idx] = false;
        transfer(a, idx, &a->in[idx], &out);
        propagate(a, idx, &out, work, &nwork, queued);
    }
    if (nwork > 0)
        block(a, AL_BLOCK_READ, 0); /* did not converge: prove nothing */
    free(work);
    free(queued);
    free(a->in);
    a->in = NULL;
}

/* ------------------------------------------------------------------ */
/* Finding allocations                                                  */

typedef struct {
    const char *suffix;
    al_factory factory;
} factory_name;

static const factory_name TORCH_FACTORIES[] = {
    {"zeros", AL_FACTORY_ZEROS},           {"ones", AL_FACTORY_ONES},
    {"full", AL_FACTORY_FULL},             {"zeros_like", AL_FACTORY_ZEROS_LIKE},
    {"ones_like", AL_FACTORY_ONES_LIKE},   {"full_like", AL_FACTORY_FULL_LIKE},
    {NULL, 0}};
static const factory_name METHOD_FACTORIES[] = {
    {"new_zeros", AL_FACTORY_NEW_ZEROS},
    {"new_ones", AL_FACTORY_NEW_ONES},
    {"new_full", AL_FACTORY_NEW_FULL},
    {NULL, 0}};

const char *al_factory_name(al_factory f)
{
    switch (f) {
    case AL_FACTORY_ZEROS: return "zeros";
    case AL_FACTORY_ONES: return "ones";
    case AL_FACTORY_FULL: return "full";
    case AL_FACTORY_ZEROS_LIKE: return "zeros_like";
    case AL_FACTORY_ONES_LIKE: return "ones_like";
    case AL_FACTORY_FULL_LIKE: return "full_like";
    case AL_FACTORY_NEW_ZEROS: return "new_zeros";
    case AL_FACTORY_NEW_ONES: return "new_ones";
    case AL_FACTORY_NEW_FULL: return "new_full";
    }
    return "?";
}

const char *al_block_reason_text(al_block_reason r)
{
    switch (r) {
    case AL_BLOCK_NONE: return "none";
    case AL_BLOCK_READ: return "read before a full write";
    case AL_BLOCK_ESCAPE: return "escapes before a full write";
    case AL_BLOCK_ACCUMULATE: return "accumulated into";
    case AL_BLOCK_PADDED_KERNEL: return "padded shape written by a kernel";
    case AL_BLOCK_GLOBAL: return "global or nonlocal name";
    }
    return "?";
}

typedef struct {
    TSNode pos[8];
    int npos;
    TSNode kw_size, kw_fill, kw_dtype, kw_out;
    TSNode all[32];
    int nall;
    bool splat;
} call_args;

static void read_args(const al_pyfile *pf, TSNode call, call_args *ca)
{
    memset(ca, 0, sizeof *ca);
    TSNode args = al_node_field(call, "arguments");
    uint32_t k = ts_node_named_child_count(args);
    for (uint32_t i = 0; i < k; i++) {
        TSNode c = ts_node_named_child(args, i);
        if (al_node_is(c, "comment"))
            continue;
        if (ca->nall < 32)
            ca->all[ca->nall++] = c;
        if (al_node_is(c, "keyword_argument")) {
            TSNode name = al_node_field(c, "name");
            if (al_node_text_eq(pf, name, "size"))
                ca->kw_size = c;
            else if (al_node_text_eq(pf, name, "fill_value"))
                ca->kw_fill = c;
            else if (al_node_text_eq(pf, name, "dtype"))
                ca->kw_dtype = c;
            else if (al_node_text_eq(pf, name, "out"))
                ca->kw_out = c;
        } else if (al_node_is(c, "list_splat") || al_node_is(c, "dictionary_splat")) {
            ca->splat = true;
        } else if (ca->npos < 8) {
            ca->pos[ca->npos++] = c;
        }
    }
}

static const char *const PAD_WORDS[] = {"round_up", "roundup", "cdiv", "align", "pad",
                                        "max_", "ceil", "//", NULL};

static bool looks_padded(const char *text)
{
    char low[512];
    size_t n = strlen(text);
    if (n >= sizeof low)
        n = sizeof low - 1;
    for (size_t i = 0; i < n; i++)
        low[i] = (char)tolower((unsigned char)text[i]);
    low[n] = '\0';
    for (int i = 0; PAD_WORDS[i]; i++)
        if (strstr(low, PAD_WORDS[i]))
            return true;
    /* `n + 128`: a constant added to a size. */
    for (size_t i = 0; i + 1 < n; i++)
        if (low[i] == '+' && isdigit((unsigned char)low[i + 1]))
            return true;
    return false;
}

static void read_shape(actx *a, TSNode size_expr, bool multiple, const call_args *ca,
                       int first)
{
    fctx *f = a->f;
    a->ndims = 0;
    a->rank_known = false;
    if (multiple) {
        /* zeros(a, b, c) */
        for (int i = first; i < ca->npos && a->ndims < MAX_DIMS; i++)
            a->shape[a->ndims++] = parse_sym(f, ca->pos[i]);
        a->rank_known = ca->npos - first <= MAX_DIMS && !ca->splat;
        return;
    }
    TSNode s = size_expr;
    while (al_node_is(s, "parenthesized_expression") && ts_node_named_child_count(s) == 1)
        s = ts_node_named_child(s, 0);
    if (al_node_is(s, "tuple") || al_node_is(s, "list")) {
        uint32_t k = ts_node_named_child_count(s);
        bool ok = true;
        for (uint32_t i = 0; i < k; i++) {
            TSNode c = ts_node_named_child(s, i);
            if (al_node_is(c, "comment"))
                continue;
            if (al_node_is(c, "list_splat") || a->ndims == MAX_DIMS) {
                ok = false;
                break;
            }
            a->shape[a->ndims++] = parse_sym(f, c);
        }
        a->rank_known = ok;
        return;
    }
    if (al_node_is(s, "integer") || al_node_is(s, "binary_operator")) {
        a->shape[0] = parse_sym(f, s);
        a->ndims = 1;
        a->rank_known = true;
        return;
    }
    if (al_node_is(s, "identifier") || al_node_is(s, "attribute")) {
        /* An int or a size tuple: as an int it is dim 0; as a tuple any
         * proof that uses it as dim 0 would have raised. */
        a->shape[0] = parse_sym(f, s);
        a->ndims = 1;
    }
}

static void delete_range_for(const call_args *ca, TSNode arg, size_t *start, size_t *end)
{
    int idx = -1;
    for (int i = 0; i < ca->nall; i++)
        if (ts_node_eq(ca->all[i], arg))
            idx = i;
    if (idx < 0) {
        *start = *end = 0;
        return;
    }
    if (idx + 1 < ca->nall) {
        *start = ts_node_start_byte(arg);
        *end = ts_node_start_byte(ca->all[idx + 1]);
    } else if (idx > 0) {
        *start = ts_node_end_byte(ca->all[idx - 1]);
        *end = ts_node_end_byte(arg);
    } else {
        *start = ts_node_start_byte(arg);
        *end = ts_node_end_byte(arg);
    }
}

static bool is_float_literal(const al_pyfile *pf, TSNode n)
{
    (void)pf;
    if (al_node_is(n, "unary_operator"))
        n = al_node_field(n, "argument");
    return al_node_is(n, "float");
}

static void consider_alloc(fctx *f, al_facts *facts, int node_idx)
{
    const al_pyfile *pf = f->pf;
    TSNode stmt = f->cfg.nodes[node_idx].eval;
    if (!al_node_is(stmt, "expression_statement") || ts_node_named_child_count(stmt) != 1)
        return;
    TSNode asg = ts_node_named_child(stmt, 0);
    if (!al_node_is(asg, "assignment"))
        return;
    TSNode left = al_node_field(asg, "left"), call = al_node_field(asg, "right");
    if (!al_node_is(left, "identifier") || !al_node_is(call, "call"))
        return;
    TSNode fn = al_node_field(call, "function");
    al_factory factory;
    bool found = false, bare = false, method = false;
    TSNode name_node = {0};
    if (al_node_is(fn, "attribute")) {
        name_node = al_node_field(fn, "attribute");
        size_t len;
        const char *m = al_node_ptr(pf, name_node, &len);
        for (int i = 0; METHOD_FACTORIES[i].suffix; i++)
            if (strlen(METHOD_FACTORIES[i].suffix) == len &&
                memcmp(METHOD_FACTORIES[i].suffix, m, len) == 0) {
                factory = METHOD_FACTORIES[i].factory;
                found = method = true;
            }
    }
    char *q = NULL;
    if (!found) {
        q = al_imports_resolve(f->im, pf, fn);
        if (!q)
            return;
        for (int i = 0; TORCH_FACTORIES[i].suffix; i++) {
            char full[64];
            snprintf(full, sizeof full, "torch.%s", TORCH_FACTORIES[i].suffix);
            if (strcmp(q, full) == 0) {
                factory = TORCH_FACTORIES[i].factory;
                found = true;
            }
        }
        if (!found) {
            free(q);
            return;
        }
        bare = al_node_is(fn, "identifier");
        name_node = bare ? fn : al_node_field(fn, "attribute");
    }
    call_args ca;
    read_args(pf, call, &ca);
    if (!ts_node_is_null(ca.kw_out) || ca.splat) {
        free(q);
        return;
    }

    actx a;
    memset(&a, 0, sizeof a);
    a.f = f;
    a.alloc_node = node_idx;
    a.root = al_node_ptr(pf, left, &a.root_len);
    a.zero_fill = factory == AL_FACTORY_ZEROS || factory == AL_FACTORY_ZEROS_LIKE ||
                  factory == AL_FACTORY_NEW_ZEROS;
    region unknown = {.unknown = true}, full = {0};
    AL_PUSH(a.regions, a.nreg, a.capreg, unknown);
    AL_PUSH(a.regions, a.nreg, a.capreg, full);

    TSNode fill = {0};
    bool like = factory == AL_FACTORY_ZEROS_LIKE || factory == AL_FACTORY_ONES_LIKE ||
                factory == AL_FACTORY_FULL_LIKE;
    if (!like) {
        bool is_full = factory == AL_FACTORY_FULL || factory == AL_FACTORY_NEW_FULL;
        TSNode size_expr = ca.npos > 0 ? ca.pos[0] : (ts_node_is_null(ca.kw_size)
                                                          ? (TSNode){0}
                                                          : al_node_field(ca.kw_size, "value"));
        bool multiple = !is_full && !method && ca.npos > 1;
        if (!ts_node_is_null(size_expr) || multiple)
            read_shape(&a, size_expr, multiple, &ca, 0);
        if (!ts_node_is_null(size_expr) || multiple) {
            char *text;
            if (multiple) {
                TSNode args = al_node_field(call, "arguments");
                text = al_node_text_compact(pf, args);
            } else {
                text = al_node_text_compact(pf, size_expr);
            }
            a.padded = looks_padded(text);
            free(text);
        }
        if (is_full)
            fill = ca.npos > 1 ? ca.pos[1] : ca.kw_fill;
    } else if (factory == AL_FACTORY_FULL_LIKE) {
        fill = ca.npos > 1 ? ca.pos[1] : ca.kw_fill;
    }
    if ((factory == AL_FACTORY_FULL || factory == AL_FACTORY_NEW_FULL ||
         factory == AL_FACTORY_FULL_LIKE) &&
        ts_node_is_null(fill)) {
        free(q);
        free(a.regions);
        return; /* not a call we understand */
    }

    a.refill_wanted = factory == AL_FACTORY_ZEROS || factory == AL_FACTORY_ZEROS_LIKE ||
                         factory == AL_FACTORY_NEW_ZEROS;
    analyse_alloc(&a);
    /* Escaped or accumulated into: someone else may have written it. */
    bool trust_zero = !(a.blocked && (a.reason == AL_BLOCK_ESCAPE || a.reason == AL_BLOCK_GLOBAL ||
                                      a.reason == AL_BLOCK_ACCUMULATE)) && !a.accumulated;
    for (size_t i = 0; trust_zero && a.refill_at && i < f->cfg.n; i++) {
        if (a.refill_at[i] != 1)
            continue;
        /* Only a statement that is the fill alone can go. */
        TSNode st = f->cfg.nodes[i].eval;
        TSNode fill = al_node_is(st, "expression_statement") && ts_node_named_child_count(st) == 1
                          ? ts_node_named_child(st, 0)
                          : (TSNode){0};
        if (!al_node_is(fill, "call"))
            continue;
        size_t ls = ts_node_start_byte(st), le = ts_node_end_byte(st);
        while (ls > 0 && pf->src->bytes[ls - 1] != '\n') {
            if (pf->src->bytes[ls - 1] != ' ' && pf->src->bytes[ls - 1] != '\t')
                break;
            ls--;
        }
        if (ls > 0 && pf->src->bytes[ls - 1] != '\n')
            continue; /* not alone on its line */
        while (le < pf->src->len && pf->src->bytes[le] != '\n')
            le++;
        if (le < pf->src->len)
            le++;
        TSNode block = ts_node_parent(st);
        uint32_t nstmt = 0, kk = ts_node_named_child_count(block);
        for (uint32_t j = 0; j < kk; j++)
            if (!al_node_is(ts_node_named_child(block, j), "comment"))
                nstmt++;
        if (nstmt < 2)
            continue; /* deleting it would leave an empty block */
        al_refill_fact rf;
        memset(&rf, 0, sizeof rf);
        rf.kind = AL_REFILL_ALREADY_ZERO;
        rf.start = ts_node_start_byte(fill);
        rf.end = ts_node_end_byte(fill);
        rf.factory = al_xstrdup(al_factory_name(factory));
        rf.fill_is_zero = true;
        rf.del_start = ls;
        rf.del_end = le;
        rf.row_fill = al_node_row(call);
        AL_PUSH(facts->refills, facts->n_refills, facts->cap_refills, rf);
    }
    free(a.refill_at);

    al_alloc_fact fact;
    memset(&fact, 0, sizeof fact);
    fact.factory = factory;
    if (method) {
        char buf[32];
        snprintf(buf, sizeof buf, ".%s", al_factory_name(factory));
        fact.qualified = al_xstrdup(buf);
    } else {
        fact.qualified = q;
        q = NULL;
    }
    fact.name = al_xstrndup(a.root, a.root_len);
    fact.call_start = ts_node_start_byte(call);
    fact.call_end = ts_node_end_byte(call);
    fact.callee_start = ts_node_start_byte(fn);
    fact.callee_end = ts_node_end_byte(fn);
    fact.callee_name_start = ts_node_start_byte(name_node);
    fact.callee_name_end = ts_node_end_byte(name_node);
    fact.callee_bare = bare;
    if (!ts_node_is_null(fill)) {
        TSNode whole = fill;
        if (!ts_node_is_null(ca.kw_fill) && ts_node_eq(fill, ca.kw_fill))
            fill = al_node_field(ca.kw_fill, "value");
        delete_range_for(&ca, whole, &fact.fill_start, &fact.fill_end);
        fact.fill_arg_start = ts_node_start_byte(whole);
        fact.fill_arg_end = ts_node_end_byte(whole);
        fact.fill_dtype = AL_FILL_DTYPE_SAME;
        if (factory == AL_FACTORY_FULL && ts_node_is_null(ca.kw_dtype)) {
            TSNode v = fill;
            if (al_node_is(v, "unary_operator"))
                v = al_node_field(v, "argument");
            if (is_float_literal(pf, fill) ||
                (al_node_is(v, "call") &&
                 al_node_text_eq(pf, al_node_field(v, "function"), "float")))
                fact.fill_dtype = AL_FILL_DTYPE_SAME;
            else if (al_node_is(v, "integer"))
                fact.fill_dtype = AL_FILL_DTYPE_INT64;
            else if (al_node_is(v, "true") || al_node_is(v, "false"))
                fact.fill_dtype = AL_FILL_DTYPE_BOOL;
            else
                fact.fill_dtype = AL_FILL_DTYPE_UNKNOWN;
        }
    }
    fact.padded_shape = a.padded;
    if (a.blocked) {
        fact.proof = AL_PROOF_BLOCKED;
        fact.block = a.reason;
        fact.block_row = a.reason_row;
    } else if (a.completed_unsafe) {
        fact.proof = AL_PROOF_OUTPUT_ONLY;
    } else if (a.completed_safe) {
        fact.proof = AL_PROOF_FULL_WRITE;
    } else {
        fact.proof = AL_PROOF_NONE;
    }
    fact.evidence = a.evidence;
    fact.evidence_row = a.evidence_row;
    AL_PUSH(facts->allocs, facts->n, facts->cap, fact);
    free(a.regions);
    free(q);
}

/* ------------------------------------------------------------------ */
/* Functions                                                            */

static void collect_ids(TSNode n, occlist *out, bool into_blocks, int depth)
{
    if (depth > 400)
        return;
    const char *t = ts_node_type(n);
    /* Blocks of clauses are nodes of their own in the graph. */
    if (!into_blocks && strcmp(t, "block") == 0)
        return;
    if (strcmp(t, "identifier") == 0) {
        AL_PUSH(out->ids, out->n, out->cap, n);
        return;
    }
    if (strcmp(t, "string") == 0 || strcmp(t, "comment") == 0 ||
        strcmp(t, "lambda_parameters") == 0 || strcmp(t, "dotted_name") == 0)
        return;
    /* Attribute names and keyword names are not variable references. */
    if (strcmp(t, "attribute") == 0) {
        collect_ids(al_node_field(n, "object"), out, into_blocks, depth + 1);
        return;
    }
    if (strcmp(t, "keyword_argument") == 0) {
        collect_ids(al_node_field(n, "value"), out, into_blocks, depth + 1);
        return;
    }
    uint32_t k = ts_node_named_child_count(n);
    for (uint32_t i = 0; i < k; i++)
        collect_ids(ts_node_named_child(n, i), out, into_blocks, depth + 1);
}

static void scan_function_facts(fctx *f, TSNode n, int depth)
{
    if (depth > 400)
        return;
    const char *t = ts_node_type(n);
    if (depth > 0 && (!strcmp(t, "function_definition") || !strcmp(t, "class_definition")))
        return;
    if (!strcmp(t, "assert_statement")) {
        /* assert d % 2 == 0 */
        TSNode c = ts_node_named_child(n, 0);
        if (al_node_is(c, "comparison_operator") && ts_node_named_child_count(c) == 2) {
            TSNode l = ts_node_named_child(c, 0), r = ts_node_named_child(c, 1);
            long v;
            if (al_node_is(l, "binary_operator") && parse_long(f->pf, r, &v) && v == 0 &&
                al_node_text_eq(f->pf, al_node_field(l, "operator"), "%") &&
                parse_long(f->pf, al_node_field(l, "right"), &v) && v == 2) {
                const char *e = intern_node(f, al_node_field(l, "left"));
                AL_PUSH(f->even, f->neven, f->capeven, e);
            }
        }
    }
    if (!strcmp(t, "global_statement") || !strcmp(t, "nonlocal_statement")) {
        uint32_t k = ts_node_named_child_count(n);
        for (uint32_t i = 0; i < k; i++) {
            TSNode c = ts_node_named_child(n, i);
            if (al_node_is(c, "identifier")) {
                size_t len;
                const char *p = al_node_ptr(f->pf, c, &len);
                const char *s = intern(f, p, len);
                AL_PUSH(f->globals, f->nglobals, f->capglobals, s);
            }
        }
    }
    uint32_t k = ts_node_named_child_count(n);
    for (uint32_t i = 0; i < k; i++)
        scan_function_facts(f, ts_node_named_child(n, i), depth + 1);
}

static bool mentions_factory(const al_pyfile *pf, TSNode body)
{
    size_t len;
    const char *p = al_node_ptr(pf, body, &len);
    static const char *const words[] = {"zeros", "ones", "full", NULL};
    for (int i = 0; words[i]; i++) {
        size_t wl = strlen(words[i]);
        for (size_t j = 0; j + wl <= len; j++)
            if (p[j] == words[i][0] && memcmp(p + j, words[i], wl) == 0)
                return true;
    }
    return false;
}

/* The deepest nesting under n, measured without recursion. */
static unsigned max_depth(TSNode n, unsigned limit)
{
    TSTreeCursor c = ts_tree_cursor_new(n);
    unsigned depth = 0, max = 0;
    for (;;) {
        if (depth > max)
            max = depth;
        if (max > limit)
            break;
        if (ts_tree_cursor_goto_first_child(&c)) {
            depth++;
            continue;
        }
        while (!ts_tree_cursor_goto_next_sibling(&c)) {
            if (depth == 0 || !ts_tree_cursor_goto_parent(&c)) {
                ts_tree_cursor_delete(&c);
                return max;
            }
            depth--;
        }
    }
    ts_tree_cursor_delete(&c);
    return max;
}

/* Functions nested deeper than this are not analysed: every walk below
 * stays far inside its own depth guard, so no use can be missed. */
#define MAX_FUNCTION_DEPTH 200

static void analyse_function(al_facts *facts, const al_pyfile *pf, const al_imports *im,
                             const al_op_table *ops, const namelist *atomic,
                             const namelist *kernels, TSNode func)
{
    TSNode body = al_node_field(func, "body");
    if (ts_node_is_null(body) || !mentions_factory(pf, body))
        return;
    fctx f;
    memset(&f, 0, sizeof f);
    f.pf = pf;
    f.im = im;
    f.ops = ops;
    f.atomic_kernels = atomic;
    f.kernels = kernels;
    f.func = func;
    al_cfg_build(&f.cfg, body);
    f.occ = al_xcalloc(f.cfg.n, sizeof(occlist));
    for (size_t i = 0; i < f.cfg.n; i++)
        if (!ts_node_is_null(f.cfg.nodes[i].eval))
            collect_ids(f.cfg.nodes[i].eval, &f.occ[i],
                        f.cfg.nodes[i].kind == AL_CFG_DEF, 0);
    scan_function_facts(&f, body, 1);
    for (size_t i = 0; i < f.cfg.n; i++)
        if (f.cfg.nodes[i].kind == AL_CFG_SIMPLE)
            consider_alloc(&f, facts, (int)i);
    facts->functions++;
    for (size_t i = 0; i < f.cfg.n; i++)
        free(f.occ[i].ids);
    free(f.occ);
    for (size_t i = 0; i < f.nstrs; i++)
        free(f.strs[i]);
    free(f.strs);
    free(f.even);
    free(f.globals);
    al_cfg_free(&f.cfg);
}

static int compare_allocs(const void *x, const void *y)
{
    const al_alloc_fact *a = x, *b = y;
    return a->call_start < b->call_start ? -1 : a->call_start > b->call_start;
}

static bool text_contains(const al_pyfile *pf, TSNode n, const char *needle)
{
    size_t len;
    const char *p = al_node_ptr(pf, n, &len);
    return memmem(p, len, needle, strlen(needle)) != NULL;
}

/* The one traversal of the file: imports, Triton kernels (and which use
 * atomics), functions, and the calls the pattern rules look at. Every
 * analysis after it works from these lists and the functions' graphs. */
typedef struct {
    TSNode *functions;
    size_t n_functions, cap_functions;
    TSNode *kernels; /* the function_definition of each triton kernel */
    size_t n_kernels, cap_kernels;
    TSNode *calls;
    size_t n_calls, cap_calls;
} file_index;

static bool is_triton_kernel(const al_pyfile *pf, TSNode decorated)
{
    uint32_t k = ts_node_named_child_count(decorated);
    for (uint32_t j = 0; j < k; j++) {
        TSNode d = ts_node_named_child(decorated, j);
        if (al_node_is(d, "decorator") && text_contains(pf, d, "triton"))
            return true;
    }
    return false;
}

static void index_file(const al_pyfile *pf, al_imports *im, file_index *ix, al_facts *facts)
{
    TSTreeCursor c = ts_tree_cursor_new(pf->root);
    unsigned depth = 0;
    for (;;) {
        TSNode n = ts_tree_cursor_current_node(&c);
        const char *t = ts_node_type(n);
        bool descend = ts_node_is_named(n);
        if (!strcmp(t, "import_statement") || !strcmp(t, "import_from_statement")) {
            al_imports_add_statement(im, pf, n);
            descend = false;
        } else if (!strcmp(t, "function_definition")) {
            AL_PUSH(ix->functions, ix->n_functions, ix->cap_functions, n);
        } else if (!strcmp(t, "decorated_definition")) {
            TSNode def = al_node_field(n, "definition");
            if (al_node_is(def, "function_definition") && is_triton_kernel(pf, n))
                AL_PUSH(ix->kernels, ix->n_kernels, ix->cap_kernels, def);
        } else if (!strcmp(t, "call") && al_patterns_call_wanted(pf, n)) {
            AL_PUSH(ix->calls, ix->n_calls, ix->cap_calls, n);
        } else if (!strcmp(t, "comment")) {
            al_comment cm = {ts_node_start_byte(n), ts_node_end_byte(n)};
            AL_PUSH(facts->comments, facts->n_comments, facts->cap_comments, cm);
            descend = false;
        } else if (!strcmp(t, "string")) {
            if (ts_node_start_point(n).row != ts_node_end_point(n).row) {
                al_comment ls = {ts_node_start_byte(n), ts_node_end_byte(n)};
                AL_PUSH(facts->long_strings, facts->n_long_strings, facts->cap_long_strings, ls);
            }
            descend = false;
        }
        if (descend && depth < 2000 && ts_tree_cursor_goto_first_child(&c)) {
            depth++;
            continue;
        }
        while (!ts_tree_cursor_goto_next_sibling(&c)) {
            if (depth == 0 || !ts_tree_cursor_goto_parent(&c)) {
                ts_tree_cursor_delete(&c);
                return;
            }
            depth--;
        }
    }
}

void al_facts_build(al_facts *facts, const al_pyfile *pf, const al_op_table *ops)
{
    memset(facts, 0, sizeof *facts);
    al_imports im;
    memset(&im, 0, sizeof im);
    file_index ix;
    memset(&ix, 0, sizeof ix);
    index_file(pf, &im, &ix, facts);
    const char *torch = al_imports_alias_for(&im, "torch");
    facts->torch_alias = torch ? al_xstrdup(torch) : NULL;

    namelist atomic = {0}, kernels = {0};
    char **keep = NULL;
    size_t nkeep = 0, capkeep = 0;
    for (size_t i = 0; i < ix.n_kernels; i++) {
        char *name = al_node_text_compact(pf, al_node_field(ix.kernels[i], "name"));
        AL_PUSH(keep, nkeep, capkeep, name);
        AL_PUSH(kernels.names, kernels.n, kernels.cap, name);
        if (text_contains(pf, al_node_field(ix.kernels[i], "body"), "atomic_"))
            AL_PUSH(atomic.names, atomic.n, atomic.cap, name);
    }
    for (size_t i = 0; i < ix.n_functions; i++) {
        TSNode fn = ix.functions[i];
        if (max_depth(fn, MAX_FUNCTION_DEPTH) > MAX_FUNCTION_DEPTH) {
            facts->skipped_deep++;
            continue;
        }
        analyse_function(facts, pf, &im, ops, &atomic, &kernels, fn);
        al_patterns_function(facts, pf, &im, fn);
    }
    for (size_t i = 0; i < ix.n_kernels; i++)
        if (max_depth(ix.kernels[i], MAX_FUNCTION_DEPTH) <= MAX_FUNCTION_DEPTH)
            al_patterns_kernel(facts, pf, &im, ix.kernels[i]);
    for (size_t i = 0; i < ix.n_calls; i++)
        al_patterns_call(facts, pf, &im, ix.calls[i]);

    if (facts->n > 1)
        qsort(facts->allocs, facts->n, sizeof *facts->allocs, compare_allocs);
    for (size_t i = 0; i < nkeep; i++)
        free(keep[i]);
    free(keep);
    free(atomic.names);
    free(kernels.names);
    free(ix.functions);
    free(ix.kernels);
    free(ix.calls);
    al_imports_free(&im);
}

void al_facts_free(al_facts *facts)
{
    for (size_t i = 0; i < facts->n; i++) {
        free(facts->allocs[i].qualified);
        free(facts->allocs[i].name);
        free(facts->allocs[i].evidence);
    }
    free(facts->allocs);
    free(facts->torch_alias);
    for (size_t i = 0; i < facts->n_refills; i++) {
        al_refill_fact *f = &facts->refills[i];
        free(f->factory), free(f->size), free(f->value), free(f->kwargs);
    }
    for (size_t i = 0; i < facts->n_tstores; i++) {
        al_tstore_fact *f = &facts->tstores[i];
        free(f->acc), free(f->a), free(f->b), free(f->extra), free(f->dtype), free(f->tl);
    }
    for (size_t i = 0; i < facts->n_catzeros; i++) {
        al_catzero_fact *f = &facts->catzeros[i];
        free(f->extent), free(f->other), free(f->dtype), free(f->device);
        free(f->cumsum_input), free(f->cumsum_dtype), free(f->target), free(f->indent);
        free(f->torch), free(f->functional);
    }
    for (size_t i = 0; i < facts->n_catloops; i++) {
        al_catloop_fact *f = &facts->catloops[i];
        free(f->name), free(f->rest_items), free(f->rest_args), free(f->parts);
        free(f->indent), free(f->torch);
    }
    for (size_t i = 0; i < facts->n_loopallocs; i++) {
        al_loopalloc_fact *f = &facts->loopallocs[i];
        free(f->name), free(f->call), free(f->indent), free(f->stmt_indent), free(f->refill);
    }
    for (size_t i = 0; i < facts->n_tinvariants; i++) {
        al_tinvariant_fact *f = &facts->tinvariants[i];
        free(f->expr), free(f->source), free(f->name), free(f->indent), free(f->occ_start),
            free(f->occ_end);
    }
    for (size_t i = 0; i < facts->n_inplaces; i++) {
        al_inplace_fact *f = &facts->inplaces[i];
        free(f->name), free(f->method), free(f->operand);
    }
    for (size_t i = 0; i < facts->n_moves; i++) {
        al_move_fact *f = &facts->moves[i];
        free(f->factory), free(f->device), free(f->dtype);
    }
    free(facts->refills), free(facts->tstores), free(facts->catzeros), free(facts->catloops);
    free(facts->loopallocs), free(facts->tinvariants), free(facts->inplaces), free(facts->moves);
    free(facts->comments);
    free(facts->long_strings);
    memset(facts, 0, sizeof *facts);
}
