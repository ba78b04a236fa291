#include "loops.h"

#include "rebinding.h"
#include "uses.h"
#include "values.h"
#include "../../base/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    const al_pyfile *pf;
    TSNode func, loop, body;
    const char *var;
    size_t var_len;
    TSNode stmt;        /* the statement that writes */
    al_strlist bound;   /* names the body binds */
} loopctx;

static bool text_is(const al_pyfile *pf, TSNode n, const char *s, size_t len)
{
    size_t l;
    const char *p = al_node_ptr(pf, n, &l);
    return l == len && !memcmp(p, s, len);
}

static bool is_var(const loopctx *lc, TSNode n)
{
    return al_node_is(n, "identifier") && text_is(lc->pf, n, lc->var, lc->var_len);
}

static bool bound_in_body(const loopctx *lc, const char *p, size_t len)
{
    return al_strlist_has(&lc->bound, p, len);
}

/* The statement of the body that binds name: `name = v` or `a, name = x, y`
 * before the write, and no other statement of the body binds it. Returns
 * the value, or a null node. */
static TSNode body_binding(const loopctx *lc, const char *name, size_t len)
{
    TSNode value = {0};
    int binders = 0;
    uint32_t n = ts_node_named_child_count(lc->body);
    for (uint32_t i = 0; i < n; i++) {
        TSNode st = ts_node_named_child(lc->body, i);
        if (!al_assigns_name(lc->pf, st, name, len))
            continue;
        binders++;
        if (ts_node_start_byte(st) >= ts_node_start_byte(lc->stmt))
            return (TSNode){0};
        TSNode asg = al_node_is(st, "expression_statement") ? ts_node_named_child(st, 0)
                                                           : (TSNode){0};
        if (ts_node_is_null(asg) || !al_node_is(asg, "assignment"))
            return (TSNode){0};
        TSNode left = al_node_field(asg, "left"), right = al_node_field(asg, "right");
        if (al_node_is(left, "identifier") && text_is(lc->pf, left, name, len)) {
            value = right;
        } else if ((al_node_is(left, "pattern_list") || al_node_is(left, "tuple_pattern")) &&
                   (al_node_is(right, "expression_list") || al_node_is(right, "tuple"))) {
            uint32_t k = ts_node_named_child_count(left);
            if (k != ts_node_named_child_count(right))
                return (TSNode){0};
            for (uint32_t j = 0; j < k; j++) {
                TSNode t = ts_node_named_child(left, j);
                if (al_node_is(t, "identifier") && text_is(lc->pf, t, name, len))
                    value = ts_node_named_child(right, j);
            }
        }
    }
    return binders == 1 ? value : (TSNode){0};
}

/* What an expression read by the write stands for: a name the body binds
 * once before it, its value (followed a few names deep); a null node when
 * the body binds it otherwise. */
static TSNode resolve(const loopctx *lc, TSNode n, int depth)
{
    n = al_py_unparen(n);
    if (!al_node_is(n, "identifier") || is_var(lc, n) || depth > 6)
        return n;
    size_t len;
    const char *p = al_node_ptr(lc->pf, n, &len);
    if (!bound_in_body(lc, p, len))
        return n;
    TSNode v = body_binding(lc, p, len);
    return ts_node_is_null(v) ? v : resolve(lc, v, depth + 1);
}

/* The same on every pass: no name the body binds, and no call but of
 * sizes and arithmetic. */
static bool invariant(const loopctx *lc, TSNode n)
{
    static const char *const pure[] = {"len", "min", "max", "abs", "int", "cdiv", "ceil_div",
                                       "next_power_of_2", "size", "dim", "numel", NULL};
    if (al_node_is(n, "identifier")) {
        size_t len;
        const char *p = al_node_ptr(lc->pf, n, &len);
        return !bound_in_body(lc, p, len) && !is_var(lc, n);
    }
    if (al_node_is(n, "call")) {
        size_t len;
        const char *name = al_py_last_name(lc->pf, al_node_field(n, "function"), &len);
        if (!len || !al_str_in_list(pure, name, len))
            return false;
    }
    if (al_node_is(n, "keyword_argument"))
        return invariant(lc, al_node_field(n, "value"));
    if (al_node_is(n, "attribute"))
        return invariant(lc, al_node_field(n, "object"));
    uint32_t k = ts_node_named_child_count(n);
    for (uint32_t i = 0; i < k; i++)
        if (!invariant(lc, ts_node_named_child(n, i)))
            return false;
    return true;
}

/* Two loop-invariant expressions with one value. */
static bool same_value(const loopctx *lc, TSNode a, TSNode b)
{
    a = al_py_unparen(a);
    b = al_py_unparen(b);
    if (ts_node_is_null(a) || ts_node_is_null(b) || !invariant(lc, a) || !invariant(lc, b))
        return false;
    char *ta = al_value_text(lc->pf, lc->func, lc->loop, a);
    char *tb = al_value_text(lc->pf, lc->func, lc->loop, b);
    bool same = ta && tb && al_value_text_same(ta, tb);
    free(ta);
    free(tb);
    return same;
}

static bool binary(const loopctx *lc, TSNode n, const char *op, TSNode *l, TSNode *r)
{
    n = al_py_unparen(n);
    if (!al_node_is(n, "binary_operator") || !text_is(lc->pf, al_node_field(n, "operator"), op,
                                                      strlen(op)))
        return false;
    *l = al_py_unparen(al_node_field(n, "left"));
    *r = al_py_unparen(al_node_field(n, "right"));
    return true;
}

/* A call of one of names with exactly two positional arguments. */
static bool call2(const loopctx *lc, TSNode n, const char *const *names, TSNode *a, TSNode *b)
{
    n = al_py_unparen(n);
    if (!al_node_is(n, "call"))
        return false;
    size_t len;
    const char *name = al_py_last_name(lc->pf, al_node_field(n, "function"), &len);
    if (!len || !al_str_in_list(names, name, len))
        return false;
    al_py_args args;
    al_py_args_read(n, &args);
    if (args.splat || args.nkw || args.npos != 2)
        return false;
    *a = al_py_unparen(args.pos[0]);
    *b = al_py_unparen(args.pos[1]);
    return true;
}

/* `x + C` (either way round) where x passes is_x. */
static bool plus_chunk(const loopctx *lc, TSNode n, TSNode chunk,
                       bool (*is_x)(const loopctx *, TSNode, TSNode), TSNode arg)
{
    TSNode l, r;
    if (!binary(lc, resolve(lc, n, 0), "+", &l, &r))
        return false;
    return (is_x(lc, resolve(lc, l, 0), arg) && same_value(lc, r, chunk)) ||
           (is_x(lc, resolve(lc, r, 0), arg) && same_value(lc, l, chunk));
}

static bool var_x(const loopctx *lc, TSNode n, TSNode unused)
{
    (void)unused;
    return is_var(lc, n);
}

/* `c * C` or `C * c`. */
static bool chunk_start(const loopctx *lc, TSNode n, TSNode chunk)
{
    TSNode l, r;
    if (!binary(lc, resolve(lc, n, 0), "*", &l, &r))
        return false;
    return (is_var(lc, resolve(lc, l, 0)) && same_value(lc, r, chunk)) ||
           (is_var(lc, resolve(lc, r, 0)) && same_value(lc, l, chunk));
}

/* `(c + 1) * C`, `C * (c + 1)`, or a chunk's start plus C. */
static bool chunk_end(const loopctx *lc, TSNode n, TSNode chunk)
{
    TSNode l, r, a, b;
    n = resolve(lc, n, 0);
    if (binary(lc, n, "*", &l, &r)) {
        TSNode next = same_value(lc, r, chunk) ? l : same_value(lc, l, chunk) ? r : (TSNode){0};
        if (!ts_node_is_null(next) && binary(lc, resolve(lc, next, 0), "+", &a, &b)) {
            long one;
            return (is_var(lc, resolve(lc, a, 0)) && al_py_parse_long(lc->pf, b, &one) &&
                    one == 1) ||
                   (is_var(lc, resolve(lc, b, 0)) && al_py_parse_long(lc->pf, a, &one) &&
                    one == 1);
        }
        return false;
    }
    return plus_chunk(lc, n, chunk, chunk_start, chunk);
}

/* The end of a pass: `end` itself (a slice past the end stops there), or
 * min(end, n) / min(n, end). */
static bool clipped(const loopctx *lc, TSNode n, TSNode bound,
                    bool (*is_end)(const loopctx *, TSNode, TSNode), TSNode chunk)
{
    static const char *const mins[] = {"min", NULL};
    TSNode a, b;
    n = resolve(lc, n, 0);
    if (call2(lc, n, mins, &a, &b))
        return (same_value(lc, b, bound) && is_end(lc, a, chunk)) ||
               (same_value(lc, a, bound) && is_end(lc, b, chunk));
    return is_end(lc, n, chunk);
}

static bool var_plus_chunk(const loopctx *lc, TSNode n, TSNode chunk)
{
    return plus_chunk(lc, n, chunk, var_x, (TSNode){0});
}

/* K = cdiv(n, C): `cdiv(n, C)` (`triton.cdiv`, `ceil_div`), `(n + C - 1) // C`,
 * `(n + (C - 1)) // C`, `-(-n // C)`, `math.ceil(n / C)`. */
static bool is_cdiv(const loopctx *lc, TSNode k, TSNode *n, TSNode *c)
{
    static const char *const names[] = {"cdiv", "ceil_div", "ceildiv", "div_up", NULL};
    k = al_py_unparen(k);
    TSNode a, b, l, r;
    if (call2(lc, k, names, n, c))
        return true;
    if (binary(lc, k, "//", &a, &b)) {
        long one;
        /* (n + C - 1) // C */
        if (binary(lc, a, "-", &l, &r) && al_py_parse_long(lc->pf, r, &one) && one == 1) {
            TSNode x, y;
            if (binary(lc, l, "+", &x, &y) && same_value(lc, y, b)) {
                *n = x, *c = b;
                return true;
            }
        }
        /* (n + (C - 1)) // C */
        if (binary(lc, a, "+", &l, &r)) {
            TSNode x, y;
            if (binary(lc, r, "-", &x, &y) && al_py_parse_long(lc->pf, y, &one) && one == 1 &&
                same_value(lc, x, b)) {
                *n = l, *c = b;
                return true;
            }
        }
        return false;
    }
    /* -(-n // C) */
    if (al_node_is(k, "unary_operator") && text_is(lc->pf, al_node_field(k, "operator"), "-", 1)) {
        TSNode in = al_py_unparen(al_node_field(k, "argument"));
        if (binary(lc, in, "//", &a, &b) && al_node_is(a, "unary_operator") &&
            text_is(lc->pf, al_node_field(a, "operator"), "-", 1)) {
            *n = al_py_unparen(al_node_field(a, "argument")), *c = b;
            return true;
        }
    }
    /* math.ceil(n / C) */
    if (al_node_is(k, "call")) {
        size_t len;
        const char *name = al_py_last_name(lc->pf, al_node_field(k, "function"), &len);
        al_py_args args;
        al_py_args_read(k, &args);
        if (len == 4 && !memcmp(name, "ceil", 4) && args.npos == 1 && !args.nkw &&
            binary(lc, args.pos[0], "/", n, c))
            return true;
    }
    return false;
}

/* --- whether a chunk size is known not negative (zero raises). */
static bool module_literal(const al_pyfile *pf, const char *name, size_t len, long *v)
{
    /* A partial parse may have left the constant out: asking reads it all. */
    if (!al_pyfile_holds_all(pf))
        return false;
    int found = 0;
    uint32_t k = ts_node_named_child_count(pf->root);
    for (uint32_t i = 0; i < k; i++) {
        TSNode st = ts_node_named_child(pf->root, i);
        if (!al_assigns_name(pf, st, name, len))
            continue;
        TSNode asg = al_py_name_assignment(st);
        if (ts_node_is_null(asg) || !text_is(pf, al_node_field(asg, "left"), name, len) ||
            !al_py_parse_long(pf, al_node_field(asg, "right"), v))
            return false;
        found++;
    }
    return found == 1;
}

static bool not_negative(const al_pyfile *pf, TSNode func, TSNode at, TSNode n, int depth)
{
    n = al_py_unparen(n);
    long v;
    if (depth > 8)
        return false;
    if (al_py_parse_long(pf, n, &v))
        return v >= 0;
    if (al_node_is(n, "identifier")) {
        TSNode value = al_value_single_binding(pf, func, at, n);
        if (!ts_node_is_null(value))
            return not_negative(pf, func, value, value, depth + 1);
        size_t len;
        const char *p = al_node_ptr(pf, n, &len);
        char *name = al_xstrndup(p, len);
        bool param = !ts_node_is_null(func) && al_py_is_param(pf, func, name);
        free(name);
        return !param && module_literal(pf, p, len, &v) && v >= 0;
    }
    if (al_node_is(n, "subscript")) {
        /* x.shape[i] */
        TSNode value = al_node_field(n, "value");
        return al_node_is(value, "attribute") &&
               al_py_last_name_is(pf, value, "shape");
    }
    if (al_node_is(n, "call")) {
        size_t len;
        const char *name = al_py_last_name(pf, al_node_field(n, "function"), &len);
        al_py_args args;
        al_py_args_read(n, &args);
        static const char *const sizes[] = {"len", "size", "numel", "dim", "next_power_of_2",
                                            NULL};
        if (len && al_str_in_list(sizes, name, len))
            return true;
        if (len == 3 && !memcmp(name, "max", 3)) {
            for (int i = 0; i < args.npos; i++)
                if (not_negative(pf, func, at, args.pos[i], depth + 1))
                    return true;
            return false;
        }
        static const char *const divs[] = {"cdiv", "ceil_div", "ceildiv", "div_up", "min", NULL};
        if (len && al_str_in_list(divs, name, len) && args.npos >= 1) {
            for (int i = 0; i < args.npos; i++)
                if (!not_negative(pf, func, at, args.pos[i], depth + 1))
                    return false;
            return true;
        }
        return false;
    }
    if (al_node_is(n, "binary_operator")) {
        TSNode op = al_node_field(n, "operator");
        if (!al_node_text_eq(pf, op, "*") && !al_node_text_eq(pf, op, "+") &&
            !al_node_text_eq(pf, op, "//") && !al_node_text_eq(pf, op, "<<"))
            return false;
        return not_negative(pf, func, at, al_node_field(n, "left"), depth + 1) &&
               not_negative(pf, func, at, al_node_field(n, "right"), depth + 1);
    }
    return false;
}

/* --- whether a bound is the buffer's extent along dim. */
static TSNode size_node(const al_alloc_site *site, int dim)
{
    if (!site)
        return (TSNode){0};
    if (site->size_multiple)
        return dim < site->args.npos ? site->args.pos[dim] : (TSNode){0};
    TSNode s = al_py_unparen(site->size_expr);
    if (ts_node_is_null(s))
        return s;
    if (al_node_is(s, "tuple") || al_node_is(s, "list")) {
        TSNode el[AL_MAX_DIMS];
        int n = al_py_elements(s, el, AL_MAX_DIMS);
        return dim < n ? el[dim] : (TSNode){0};
    }
    return dim == 0 ? s : (TSNode){0};
}

static bool like_factory(const al_alloc_site *site)
{
    return site && (site->factory == AL_FACTORY_ZEROS_LIKE ||
                    site->factory == AL_FACTORY_ONES_LIKE || site->factory == AL_FACTORY_FULL_LIKE);
}

/* The extent's symbol for bound when bound is the extent of dimension dim
 * (the buffer's extents learn it where they did not know it). */
static bool bound_is_extent(const loopctx *lc, al_extents *x, const al_alloc_site *site, int dim,
                            TSNode bound, al_sym *out)
{
    al_sym b = al_sym_parse(lc->pf, x->strs, bound);
    if (dim < x->ndims && al_sym_eq(b, x->shape[dim])) {
        *out = b;
        return true;
    }
    if (!invariant(lc, bound) || !site)
        return false;
    /* The size as it was at the allocation: not when a name it reads is
     * bound again after it (`n = n - 1`: the loop's n is another size). */
    TSNode made_of = like_factory(site) ? (site->args.npos >= 1 ? site->args.pos[0] : (TSNode){0})
                                        : site->size_multiple ? al_node_field(site->call, "arguments")
                                                              : site->size_expr;
    if (ts_node_is_null(made_of) ||
        !ts_node_is_null(al_rebound_after(lc->pf, lc->func, site->stmt, made_of)))
        return false;
    char *bt = al_value_text(lc->pf, lc->func, lc->loop, bound);
    bool same = false;
    TSNode sz = like_factory(site) ? (TSNode){0} : size_node(site, dim);
    if (!ts_node_is_null(sz)) {
        char *st = al_value_text(lc->pf, lc->func, site->stmt, sz);
        same = bt && st && al_value_text_same(bt, st);
        free(st);
    } else if (like_factory(site) && dim == 0 && site->args.npos >= 1 && bt) {
        /* `x.shape[0]` or `len(x)` of the input, or of what it took its
         * rows from. */
        char *rows[8];
        size_t nr = al_value_same_rows(lc->pf, lc->func, lc->loop, site->args.pos[0], rows, 8);
        for (size_t i = 0; i < nr; i++) {
            same |= al_value_is_first_dim_of(bt, rows[i], strlen(rows[i]));
            free(rows[i]);
        }
    }
    free(bt);
    if (!same)
        return false;
    if (dim < x->ndims) {
        *out = x->shape[dim];
    } else if (dim == x->ndims && dim < AL_MAX_DIMS) {
        x->shape[dim] = b;
        x->ndims = dim + 1;
        *out = b;
    } else {
        return false;
    }
    return true;
}

/* Whether `len(seq)` is the buffer's extent along dim: its size, or for a
 * *_like factory its input's rows, spelled so. */
static bool len_is_extent(const loopctx *lc, al_extents *x, const al_alloc_site *site, int dim,
                          TSNode seq, al_sym *out)
{
    if (!invariant(lc, seq) || !site || like_factory(site))
        return false;
    TSNode sz = size_node(site, dim);
    if (ts_node_is_null(sz) || !ts_node_is_null(al_rebound_after(lc->pf, lc->func, site->stmt,
                                                                 site->size_multiple
                                                                     ? al_node_field(site->call,
                                                                                     "arguments")
                                                                     : site->size_expr)))
        return false;
    char *st = al_value_text(lc->pf, lc->func, site->stmt, sz);
    char *q = al_value_text(lc->pf, lc->func, lc->loop, seq);
    bool same = st && q && al_value_is_first_dim_of(st, q, strlen(q));
    /* The value texts may follow a name to its value in one place only:
     * the name as written, when not bound again since the allocation. */
    char *raw = al_node_text_compact(lc->pf, seq);
    same |= st && ts_node_is_null(al_rebound_after(lc->pf, lc->func, site->stmt, seq)) &&
            al_value_is_first_dim_of(st, raw, strlen(raw));
    free(raw);
    free(q);
    free(st);
    if (!same)
        return false;
    al_sym b = al_sym_parse(lc->pf, x->strs, sz);
    if (dim < x->ndims && !al_sym_eq(b, x->shape[dim]))
        return false;
    if (dim >= x->ndims) {
        if (dim != x->ndims || dim >= AL_MAX_DIMS)
            return false;
        x->shape[dim] = b;
        x->ndims = dim + 1;
    }
    *out = x->shape[dim];
    return true;
}

/* Whether seq is known to be a sequence whose len() counts what it
 * yields: a literal list or tuple, a comprehension, list(...), tuple(...),
 * sorted(...), range(...), a torch tensor, or a parameter annotated so. */
static bool sized_sequence(const al_pyfile *pf, TSNode func, TSNode at, TSNode seq)
{
    static const char *const makers[] = {"list", "tuple", "sorted", "range", NULL};
    static const char *const types[] = {"list", "List", "tuple", "Tuple", "str", "torch.Tensor",
                                        "Tensor", NULL};
    seq = al_py_unparen(seq);
    if (al_node_is(seq, "list") || al_node_is(seq, "tuple") ||
        al_node_is(seq, "list_comprehension") || al_node_is(seq, "string"))
        return true;
    if (al_node_is(seq, "call")) {
        size_t len;
        const char *name = al_py_last_name(pf, al_node_field(seq, "function"), &len);
        TSNode fn = al_node_field(seq, "function");
        return (al_node_is(fn, "identifier") && len && al_str_in_list(makers, name, len));
    }
    if (!al_node_is(seq, "identifier"))
        return false;
    TSNode v = al_value_single_binding(pf, func, at, seq);
    if (!ts_node_is_null(v))
        return sized_sequence(pf, func, v, v);
    TSNode params = ts_node_is_null(func) ? (TSNode){0} : al_node_field(func, "parameters");
    for (uint32_t i = 0; !ts_node_is_null(params) && i < ts_node_named_child_count(params); i++) {
        TSNode p = ts_node_named_child(params, i);
        if (!al_node_is(p, "typed_parameter") && !al_node_is(p, "typed_default_parameter"))
            continue;
        TSNode id = al_node_is(p, "typed_parameter") ? ts_node_named_child(p, 0)
                                                     : al_node_field(p, "name");
        if (!al_node_is(id, "identifier") || !al_py_same_text(pf, id, seq))
            continue;
        char *t = al_node_text_compact(pf, al_node_field(p, "type"));
        size_t k = strcspn(t, "[|");
        bool yes = al_str_in_list(types, t, k);
        free(t);
        return yes;
    }
    return false;
}

/* The subscript a statement of the body writes through: `x[...] = ...` or
 * `x[...].copy_(...)` (a method that writes all of its object); or an
 * if/elif/else, with an else, each of whose branches holds such a
 * statement of its own writing the same subscript (the first branch's is
 * returned: every pass takes one branch, and each writes). */
static TSNode written_subscript(const al_pyfile *pf, TSNode st, int depth)
{
    if (al_node_is(st, "if_statement") && depth < 4) {
        size_t nalts = al_node_field_children(st, "alternative", NULL, 0);
        TSNode alts[16];
        if (nalts == 0 || nalts > 16)
            return (TSNode){0};
        al_node_field_children(st, "alternative", alts, nalts);
        if (!al_node_is(alts[nalts - 1], "else_clause"))
            return (TSNode){0};
        TSNode blocks[17];
        blocks[0] = al_node_field(st, "consequence");
        for (size_t i = 0; i < nalts; i++)
            blocks[i + 1] = al_node_is(alts[i], "else_clause") ? al_node_field(alts[i], "body")
                                                               : al_node_field(alts[i], "consequence");
        TSNode first = {0};
        char *want = NULL;
        bool all = true;
        for (size_t b = 0; b <= nalts && all; b++) {
            TSNode found = {0};
            uint32_t k = ts_node_named_child_count(blocks[b]);
            for (uint32_t i = 0; i < k && ts_node_is_null(found); i++)
                found = written_subscript(pf, ts_node_named_child(blocks[b], i), depth + 1);
            if (ts_node_is_null(found) || al_py_has_jump(blocks[b])) {
                all = false;
                break;
            }
            char *t = al_node_text_compact(pf, found);
            if (!want) {
                want = t;
                first = found;
            } else {
                all = !strcmp(t, want);
                free(t);
            }
        }
        free(want);
        return all ? first : (TSNode){0};
    }
    if (!al_node_is(st, "expression_statement"))
        return (TSNode){0};
    TSNode e = ts_node_named_child(st, 0);
    if (al_node_is(e, "assignment") && al_node_is(al_node_field(e, "left"), "subscript"))
        return al_node_field(e, "left");
    if (al_node_is(e, "call")) {
        TSNode fn = al_node_field(e, "function");
        if (al_node_is(fn, "attribute")) {
            size_t ml;
            const char *m = al_node_ptr(pf, al_node_field(fn, "attribute"), &ml);
            TSNode obj = al_node_field(fn, "object");
            if (al_str_in_list(al_full_write_methods, m, ml) && al_node_is(obj, "subscript"))
                return obj;
        }
    }
    return (TSNode){0};
}

typedef enum { PLAIN, STEPPED, CDIV, ENUMERATE } loop_form;

static const char LOOP_PLAIN[] = "the loop over `range(...)`";
static const char LOOP_STEPPED[] = "the chunk loop over `range(start, n, C)`";
static const char LOOP_CDIV[] = "the chunk loop over `range(cdiv(n, C))`";
static const char LOOP_ENUMERATE[] = "the loop over `enumerate(...)`";

bool al_evidence_is_loop(const char *evidence)
{
    return evidence && (!strcmp(evidence, LOOP_PLAIN) || !strcmp(evidence, LOOP_STEPPED) ||
                        !strcmp(evidence, LOOP_CDIV) || !strcmp(evidence, LOOP_ENUMERATE));
}

typedef struct {
    loop_form form;
    TSNode lo, bound, chunk; /* range's start (may be null), n and C */
    TSNode seq;              /* enumerate's sequence */
} loop_shape;

static bool read_loop(const loopctx *lc, TSNode right, loop_shape *s)
{
    memset(s, 0, sizeof *s);
    if (!al_node_is(right, "call"))
        return false;
    al_py_args args;
    al_py_args_read(right, &args);
    if (al_node_text_eq(lc->pf, al_node_field(right, "function"), "enumerate")) {
        if (args.splat || args.nkw || args.npos != 1)
            return false; /* enumerate(seq, start) is not the rows from 0 */
        s->form = ENUMERATE;
        s->seq = al_py_unparen(args.pos[0]);
        return true;
    }
    if (!al_node_text_eq(lc->pf, al_node_field(right, "function"), "range"))
        return false;
    if (args.splat || args.nkw || args.npos < 1 || args.npos > 3)
        return false;
    if (args.npos == 3) {
        s->form = STEPPED;
        s->lo = args.pos[0], s->bound = args.pos[1], s->chunk = args.pos[2];
        return true;
    }
    TSNode k = args.pos[args.npos - 1];
    if (args.npos == 2)
        s->lo = args.pos[0];
    long zero;
    if (is_cdiv(lc, k, &s->bound, &s->chunk) &&
        (ts_node_is_null(s->lo) || (al_py_parse_long(lc->pf, s->lo, &zero) && zero == 0))) {
        s->form = CDIV;
        return true;
    }
    s->form = PLAIN;
    s->bound = k;
    return true;
}

/* The dimension of sub that a pass's write covers, and its slice or index
 * node: the one element of the subscript that reads the loop's variable
 * (through the body's bindings), the others the same on every pass. */
static int pass_dim(const loopctx *lc, TSNode sub, const loop_shape *s, TSNode *spec)
{
    TSNode specs[AL_MAX_DIMS + 1];
    size_t total = al_node_field_children(sub, "subscript", specs, AL_MAX_DIMS + 1);
    if (total > AL_MAX_DIMS)
        return -1;
    int found = -1;
    for (size_t i = 0; i < total; i++) {
        TSNode sp = specs[i];
        if (al_node_is(sp, "ellipsis"))
            return -1; /* which dimension it is would depend on the rank */
        bool moves = false;
        if (s->form == PLAIN || s->form == ENUMERATE) {
            moves = al_count_name(lc->pf, sp, lc->var, lc->var_len) > 0;
            if (moves && !is_var(lc, al_py_unparen(sp)))
                return -1; /* `buf[i + 1]`, `buf[idx[i]]`: not the loop's range */
        } else if (al_node_is(sp, "slice")) {
            moves = !invariant(lc, sp);
        } else {
            moves = !invariant(lc, sp);
            if (moves)
                return -1;
        }
        if (!moves)
            continue;
        if (found >= 0)
            return -1;
        found = (int)i;
        *spec = sp;
    }
    return found;
}

/* Whether a stepped or cdiv loop's slice is one chunk: [s : s + C] or
 * [c * C : (c + 1) * C], each end maybe clipped at n. */
static bool chunk_slice(const loopctx *lc, TSNode slice, const loop_shape *s)
{
    TSNode parts[3];
    if (!al_node_is(slice, "slice") || !al_py_slice_parts(slice, parts) ||
        !ts_node_is_null(parts[2]) || ts_node_is_null(parts[0]) || ts_node_is_null(parts[1]))
        return false;
    if (s->form == STEPPED)
        return is_var(lc, resolve(lc, parts[0], 0)) &&
               clipped(lc, parts[1], s->bound, var_plus_chunk, s->chunk);
    return chunk_start(lc, parts[0], s->chunk) &&
           clipped(lc, parts[1], s->bound, chunk_end, s->chunk);
}

bool al_loop_covers(const al_pyfile *pf, TSNode func, al_extents *x, const al_alloc_site *site,
                    TSNode loop, const char *target, size_t tlen, al_loop_cover *out)
{
    memset(out, 0, sizeof *out);
    out->region = -1;
    TSNode left = al_node_field(loop, "left"), right = al_node_field(loop, "right");
    TSNode body = al_node_field(loop, "body");
    /* `for i, item in enumerate(seq)`: the index is the loop's variable. */
    TSNode item = {0};
    if ((al_node_is(left, "pattern_list") || al_node_is(left, "tuple_pattern")) &&
        ts_node_named_child_count(left) == 2 && al_node_is(right, "call") &&
        al_node_text_eq(pf, al_node_field(right, "function"), "enumerate")) {
        item = ts_node_named_child(left, 1);
        left = ts_node_named_child(left, 0);
    }
    if (!al_node_is(left, "identifier") || ts_node_is_null(body) || al_py_has_jump(body))
        return false;
    loopctx lc;
    memset(&lc, 0, sizeof lc);
    lc.pf = pf;
    lc.func = func;
    lc.loop = loop;
    lc.body = body;
    lc.var = al_node_ptr(pf, left, &lc.var_len);
    loop_shape s;
    if (!read_loop(&lc, right, &s) || al_assigns_name(pf, body, lc.var, lc.var_len) ||
        (s.form == ENUMERATE && ts_node_is_null(item)))
        return false;
    al_py_bound_names(pf, body, &lc.bound);
    bool found = false;
    uint32_t n = ts_node_named_child_count(body);
    for (uint32_t i = 0; i < n && !found; i++) {
        lc.stmt = ts_node_named_child(body, i);
        TSNode sub = written_subscript(pf, lc.stmt, 0);
        if (ts_node_is_null(sub))
            continue;
        TSNode base = al_node_field(sub, "value");
        if (!al_node_is(base, "identifier") || !text_is(pf, base, target, tlen))
            continue;
        TSNode spec = {0};
        int dim = pass_dim(&lc, sub, &s, &spec);
        bool indexed = s.form == PLAIN || s.form == ENUMERATE;
        if (dim < 0 || (!indexed && !chunk_slice(&lc, spec, &s)))
            continue;
        if (!indexed && !ts_node_is_null(s.lo) && !invariant(&lc, s.lo))
            continue;
        al_loop_subst ls;
        memset(&ls, 0, sizeof ls);
        ls.var = lc.var;
        ls.var_len = lc.var_len;
        ls.spec = spec;
        ls.lo = ts_node_is_null(s.lo) ? (al_sym){NULL, 0} : al_sym_parse(pf, x->strs, s.lo);
        if (s.form == ENUMERATE) {
            /* Rows 0 to len(seq): only a buffer that long is covered. */
            if (!len_is_extent(&lc, x, site, dim, s.seq, &ls.hi))
                continue;
        } else if (!bound_is_extent(&lc, x, site, dim, s.bound, &ls.hi)) {
            ls.hi = al_sym_parse(pf, x->strs, s.bound);
        }
        al_region r = al_extents_subscript(x, sub, &ls);
        if (r.unknown || !ls.used)
            continue;
        al_sym size = !indexed ? al_sym_parse(pf, x->strs, s.chunk) : (al_sym){NULL, 1};
        if (!size.base && size.off < 0)
            continue; /* a negative literal: no pass runs, the zeros stay */
        if (!indexed && !not_negative(pf, func, loop, s.chunk, 0)) {
            /* A negative chunk size runs no pass. */
            r.unsafe = true;
            al_strbuf why = {0};
            char *c = al_node_text(pf, s.chunk);
            al_strbuf_printf(&why, "assumes the chunk size `%s` is positive: with a negative one "
                                   "the loop runs no pass and the zeros stay",
                             c);
            free(c);
            out->assumes = al_strbuf_detach(&why);
        }
        if (s.form == ENUMERATE && !sized_sequence(pf, func, loop, s.seq)) {
            r.unsafe = true;
            char *q = al_node_text(pf, s.seq);
            al_strbuf why = {0};
            al_strbuf_printf(&why, "assumes `%s` is a sequence whose len() counts the items it "
                                   "yields (a list, tuple, range or tensor): another iterable's "
                                   "may not",
                             q);
            free(q);
            free(out->assumes);
            out->assumes = al_strbuf_detach(&why);
        }
        out->region = al_region_id(x, r);
        out->form = s.form == PLAIN      ? LOOP_PLAIN
                    : s.form == STEPPED  ? LOOP_STEPPED
                    : s.form == CDIV     ? LOOP_CDIV
                                         : LOOP_ENUMERATE;
        if (!indexed) {
            out->chunk = al_node_text(pf, sub);
            out->size = al_node_text(pf, s.chunk);
        }
        found = true;
    }
    al_strlist_free(&lc.bound);
    return found;
}

void al_loop_cover_free(al_loop_cover *c)
{
    free(c->assumes);
    free(c->chunk);
    free(c->size);
    memset(c, 0, sizeof *c);
}
