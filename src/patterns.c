#include "patterns.h"

#include "patterns_collect.h"
#include "util.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------ */
/* Helpers                                                              */

static char *text(const al_pyfile *pf, TSNode n)
{
    size_t len;
    const char *p = al_node_ptr(pf, n, &len);
    return al_xstrndup(p, len);
}

static bool text_is(const al_pyfile *pf, TSNode n, const char *s)
{
    return al_node_text_eq(pf, n, s);
}

static TSNode unparen(TSNode n)
{
    while (al_node_is(n, "parenthesized_expression") && ts_node_named_child_count(n) == 1)
        n = ts_node_named_child(n, 0);
    return n;
}

static size_t line_start(const al_pyfile *pf, size_t off)
{
    while (off > 0 && pf->src->bytes[off - 1] != '\n')
        off--;
    return off;
}

/* The line after the one holding `off` (or the end of the file). */
static size_t next_line(const al_pyfile *pf, size_t off)
{
    while (off < pf->src->len && pf->src->bytes[off] != '\n')
        off++;
    return off < pf->src->len ? off + 1 : off;
}

/* Leading blanks of the statement at n, if it starts its line. */
static char *indent_of(const al_pyfile *pf, TSNode n)
{
    size_t s = ts_node_start_byte(n), ls = line_start(pf, s);
    for (size_t i = ls; i < s; i++)
        if (pf->src->bytes[i] != ' ' && pf->src->bytes[i] != '\t')
            return NULL;
    return al_xstrndup(pf->src->bytes + ls, s - ls);
}

static char *qualified(const al_imports *im, const al_pyfile *pf, TSNode fn)
{
    return al_imports_resolve(im, pf, fn);
}

static const char *last_name(const al_pyfile *pf, TSNode fn, size_t *len)
{
    if (al_node_is(fn, "attribute"))
        fn = al_node_field(fn, "attribute");
    if (!al_node_is(fn, "identifier")) {
        *len = 0;
        return "";
    }
    return al_node_ptr(pf, fn, len);
}

static bool last_name_is(const al_pyfile *pf, TSNode fn, const char *name)
{
    size_t len;
    const char *p = last_name(pf, fn, &len);
    return strlen(name) == len && memcmp(p, name, len) == 0;
}

typedef struct {
    TSNode pos[16];
    int npos;
    TSNode kw[16];
    int nkw;
    bool splat;
} args_t;

static void args_of(TSNode call, args_t *a)
{
    memset(a, 0, sizeof *a);
    TSNode args = al_node_field(call, "arguments");
    if (!al_node_is(args, "argument_list")) {
        a->splat = true;
        return;
    }
    uint32_t k = ts_node_named_child_count(args);
    for (uint32_t i = 0; i < k; i++) {
        TSNode c = ts_node_named_child(args, i);
        if (al_node_is(c, "comment"))
            continue;
        if (al_node_is(c, "keyword_argument")) {
            if (a->nkw < 16)
                a->kw[a->nkw++] = c;
        } else if (al_node_is(c, "list_splat") || al_node_is(c, "dictionary_splat") ||
                   a->npos == 16) {
            a->splat = true;
        } else {
            a->pos[a->npos++] = c;
        }
    }
}

static TSNode kwarg(const al_pyfile *pf, const args_t *a, const char *name)
{
    for (int i = 0; i < a->nkw; i++)
        if (text_is(pf, al_node_field(a->kw[i], "name"), name))
            return al_node_field(a->kw[i], "value");
    return (TSNode){0};
}

/* ", k=v, k2=v2" of the keyword arguments, skipping `skip` (may be NULL). */
static char *kwargs_text(const al_pyfile *pf, const args_t *a, const char *skip)
{
    al_strbuf sb = {0};
    al_strbuf_puts(&sb, "");
    for (int i = 0; i < a->nkw; i++) {
        if (skip && text_is(pf, al_node_field(a->kw[i], "name"), skip))
            continue;
        char *t = text(pf, a->kw[i]);
        al_strbuf_printf(&sb, ", %s", t);
        free(t);
    }
    return al_strbuf_detach(&sb);
}

static int count_ident(const al_pyfile *pf, TSNode n, const char *name, int depth)
{
    if (depth > 200)
        return 1000;
    if (al_node_is(n, "identifier"))
        return text_is(pf, n, name) ? 1 : 0;
    if (al_node_is(n, "attribute"))
        return count_ident(pf, al_node_field(n, "object"), name, depth + 1);
    if (al_node_is(n, "keyword_argument"))
        return count_ident(pf, al_node_field(n, "value"), name, depth + 1);
    int total = 0;
    uint32_t k = ts_node_named_child_count(n);
    for (uint32_t i = 0; i < k; i++)
        total += count_ident(pf, ts_node_named_child(n, i), name, depth + 1);
    return total;
}

/* Names bound anywhere under n: assignment, for, with/except targets,
 * named expressions; nested definitions are skipped. */
static void bound_names(const al_pyfile *pf, TSNode n, char ***out, size_t *nout, size_t *cap,
                        int depth);

static void add_target(const al_pyfile *pf, TSNode t, char ***out, size_t *nout, size_t *cap)
{
    if (ts_node_is_null(t) || al_node_is(t, "subscript") || al_node_is(t, "attribute"))
        return; /* x[i] = ..., x.a = ...: a store, not a binding */
    if (al_node_is(t, "identifier")) {
        char *s = text(pf, t);
        AL_PUSH(*out, *nout, *cap, s);
        return;
    }
    uint32_t k = ts_node_named_child_count(t);
    for (uint32_t i = 0; i < k; i++) {
        TSNode c = ts_node_named_child(t, i);
        if (al_node_is(c, "identifier") || al_node_is(c, "pattern_list") ||
            al_node_is(c, "tuple_pattern") || al_node_is(c, "list_pattern") ||
            al_node_is(c, "list_splat_pattern") || al_node_is(c, "parenthesized_expression"))
            add_target(pf, c, out, nout, cap);
    }
}

static void bound_names(const al_pyfile *pf, TSNode n, char ***out, size_t *nout, size_t *cap,
                        int depth)
{
    if (depth > 200)
        return;
    const char *t = ts_node_type(n);
    if (!strcmp(t, "function_definition") || !strcmp(t, "class_definition") ||
        !strcmp(t, "lambda"))
        return;
    if (!strcmp(t, "assignment") || !strcmp(t, "augmented_assignment") ||
        !strcmp(t, "for_statement"))
        add_target(pf, al_node_field(n, "left"), out, nout, cap);
    if (!strcmp(t, "named_expression"))
        add_target(pf, al_node_field(n, "name"), out, nout, cap);
    if (!strcmp(t, "as_pattern_target"))
        add_target(pf, n, out, nout, cap);
    if (!strcmp(t, "except_clause"))
        add_target(pf, al_node_field(n, "alias"), out, nout, cap);
    uint32_t k = ts_node_named_child_count(n);
    for (uint32_t i = 0; i < k; i++)
        bound_names(pf, ts_node_named_child(n, i), out, nout, cap, depth + 1);
}

static void free_names(char **names, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(names[i]);
    free(names);
}

static bool in_names(char *const *names, size_t n, const char *p, size_t len)
{
    for (size_t i = 0; i < n; i++)
        if (strlen(names[i]) == len && memcmp(names[i], p, len) == 0)
            return true;
    return false;
}

/* Whether every name read in expr is outside `names`, and expr calls
 * nothing but .size()/.dim()/.numel(). */
static bool invariant(const al_pyfile *pf, TSNode expr, char *const *names, size_t n, int depth)
{
    if (depth > 100)
        return false;
    const char *t = ts_node_type(expr);
    if (!strcmp(t, "identifier")) {
        size_t len;
        const char *p = al_node_ptr(pf, expr, &len);
        return !in_names(names, n, p, len);
    }
    if (!strcmp(t, "attribute"))
        return invariant(pf, al_node_field(expr, "object"), names, n, depth + 1);
    if (!strcmp(t, "keyword_argument"))
        return invariant(pf, al_node_field(expr, "value"), names, n, depth + 1);
    if (!strcmp(t, "call")) {
        TSNode fn = al_node_field(expr, "function");
        if (!al_node_is(fn, "attribute"))
            return false;
        if (!last_name_is(pf, fn, "size") && !last_name_is(pf, fn, "dim") &&
            !last_name_is(pf, fn, "numel"))
            return false;
    }
    if (!strcmp(t, "lambda") || !strcmp(t, "list_comprehension") ||
        !strcmp(t, "generator_expression") || !strcmp(t, "await"))
        return false;
    uint32_t k = ts_node_named_child_count(expr);
    for (uint32_t i = 0; i < k; i++)
        if (!invariant(pf, ts_node_named_child(expr, i), names, n, depth + 1))
            return false;
    return true;
}

static const char *const TORCH_FACTORIES[] = {
    "zeros", "ones", "full", "empty", "zeros_like", "ones_like", "full_like", "empty_like",
    NULL};
static const char *const RANDOM_FACTORIES[] = {
    "rand", "randn", "randint", "randperm", "rand_like", "randn_like", "randint_like",
    "normal", "bernoulli", "multinomial", NULL};
/* Factories that take device= (torch.from_numpy does not). */
static const char *const OTHER_FACTORIES[] = {
    "arange", "tensor", "eye", "linspace", "logspace", "as_tensor", NULL};

static bool in_list(const char *const *list, const char *s)
{
    for (int i = 0; list[i]; i++)
        if (!strcmp(list[i], s))
            return true;
    return false;
}

/* The factory a call makes ("zeros", "randn", ...) when it resolves to
 * torch.<name>, else NULL (pointer into the static lists). */
static const char *torch_factory(const al_imports *im, const al_pyfile *pf, TSNode call,
                                 bool *random)
{
    if (!al_node_is(call, "call"))
        return NULL;
    char *q = qualified(im, pf, al_node_field(call, "function"));
    if (!q || strncmp(q, "torch.", 6) != 0) {
        free(q);
        return NULL;
    }
    const char *name = q + 6;
    const char *hit = NULL;
    const char *const *lists[] = {TORCH_FACTORIES, RANDOM_FACTORIES, OTHER_FACTORIES};
    for (int l = 0; l < 3 && !hit; l++)
        for (int i = 0; lists[l][i]; i++)
            if (!strcmp(lists[l][i], name)) {
                hit = lists[l][i];
                if (random)
                    *random = l == 1;
            }
    free(q);
    return hit;
}

/* The size of zeros(a, b) / zeros((a, b)) / zeros(n) as tuple text
 * "(a, b)" / "(n,)", and its rank; NULL when it cannot be told. */
static char *size_tuple(const al_pyfile *pf, const args_t *a, int *rank)
{
    *rank = -1;
    TSNode size = {0};
    if (a->npos == 1)
        size = unparen(a->pos[0]);
    if (a->npos > 1) {
        al_strbuf sb = {0};
        al_strbuf_putc(&sb, '(');
        for (int i = 0; i < a->npos; i++) {
            char *t = text(pf, a->pos[i]);
            al_strbuf_printf(&sb, "%s%s", i ? ", " : "", t);
            free(t);
        }
        al_strbuf_putc(&sb, ')');
        *rank = a->npos;
        return al_strbuf_detach(&sb);
    }
    if (a->npos == 0) {
        TSNode kw = {0};
        (void)kw;
        return NULL;
    }
    if (al_node_is(size, "tuple") || al_node_is(size, "list")) {
        int r = 0;
        uint32_t k = ts_node_named_child_count(size);
        for (uint32_t i = 0; i < k; i++)
            if (!al_node_is(ts_node_named_child(size, i), "comment")) {
                if (al_node_is(ts_node_named_child(size, i), "list_splat"))
                    return NULL;
                r++;
            }
        *rank = r;
        char *t = text(pf, size);
        if (al_node_is(size, "list")) {
            /* full() takes a list as well as a tuple. */
            return t;
        }
        return t;
    }
    if (al_node_is(size, "integer") || al_node_is(size, "binary_operator")) {
        char *t = text(pf, size);
        al_strbuf sb = {0};
        al_strbuf_printf(&sb, "(%s,)", t);
        free(t);
        *rank = 1;
        return al_strbuf_detach(&sb);
    }
    return NULL; /* a name: an int or a tuple, cannot tell */
}

/* The i-th element of a shape given as positional args or one tuple. */
static TSNode shape_elem(const args_t *a, int i)
{
    if (a->npos > 1)
        return i < a->npos ? a->pos[i] : (TSNode){0};
    if (a->npos == 1) {
        TSNode s = unparen(a->pos[0]);
        if (al_node_is(s, "tuple") || al_node_is(s, "list")) {
            int k = 0;
            uint32_t n = ts_node_named_child_count(s);
            for (uint32_t j = 0; j < n; j++) {
                TSNode c = ts_node_named_child(s, j);
                if (al_node_is(c, "comment"))
                    continue;
                if (k++ == i)
                    return c;
            }
            return (TSNode){0};
        }
        return i == 0 ? s : (TSNode){0};
    }
    return (TSNode){0};
}

/* A literal fill value as a float literal ("1" -> "1.0"), so that
 * torch.full infers the default float dtype as torch.zeros had. */
static char *float_value(const al_pyfile *pf, TSNode v)
{
    TSNode inner = al_node_is(v, "unary_operator") ? al_node_field(v, "argument") : v;
    char *t = text(pf, v);
    if (al_node_is(inner, "float"))
        return t;
    if (al_node_is(inner, "integer")) {
        al_strbuf sb = {0};
        al_strbuf_printf(&sb, "%s.0", t);
        free(t);
        return al_strbuf_detach(&sb);
    }
    if (al_node_is(inner, "call") && text_is(pf, al_node_field(inner, "function"), "float"))
        return t;
    free(t);
    return NULL;
}

static bool is_zero_literal(const al_pyfile *pf, TSNode v)
{
    return text_is(pf, v, "0") || text_is(pf, v, "0.0") || text_is(pf, v, "0.") ||
           text_is(pf, v, "False");
}

/* ------------------------------------------------------------------ */
/* Calls: AL103 chained fills, AL201, AL501                              */

static const char *const CALL_NAMES[] = {"fill_", "zero_", "to", "cuda", "cat", "concat",
                                          "concatenate", NULL};

bool al_patterns_call_wanted(const al_pyfile *pf, TSNode call)
{
    size_t len;
    const char *p = last_name(pf, al_node_field(call, "function"), &len);
    for (int i = 0; CALL_NAMES[i]; i++)
        if (strlen(CALL_NAMES[i]) == len && memcmp(CALL_NAMES[i], p, len) == 0)
            return true;
    return false;
}

static void refill_chained(al_facts *facts, const al_pyfile *pf, const al_imports *im,
                           TSNode call)
{
    TSNode fn = al_node_field(call, "function");
    if (!al_node_is(fn, "attribute"))
        return;
    bool zero = last_name_is(pf, fn, "zero_");
    if (!zero && !last_name_is(pf, fn, "fill_"))
        return;
    TSNode inner = unparen(al_node_field(fn, "object"));
    const char *factory = torch_factory(im, pf, inner, NULL);
    if (!factory || !in_list(TORCH_FACTORIES, factory))
        return;
    args_t fa, fill;
    args_of(inner, &fa);
    args_of(call, &fill);
    if (fa.splat || fill.splat || (!zero && fill.npos != 1) || (zero && fill.npos != 0))
        return;
    if (!ts_node_is_null(kwarg(pf, &fa, "out")))
        return;
    al_refill_fact f;
    memset(&f, 0, sizeof f);
    f.kind = AL_REFILL_CHAINED;
    f.start = ts_node_start_byte(call);
    f.end = ts_node_end_byte(call);
    f.call_start = f.start;
    f.call_end = f.end;
    f.alloc_end = ts_node_end_byte(inner);
    f.name_start = ts_node_start_byte(al_node_field(inner, "function"));
    f.name_end = ts_node_end_byte(al_node_field(inner, "function"));
    f.factory = al_xstrdup(factory);
    f.like = strstr(factory, "_like") != NULL;
    f.fill_is_zero = zero || is_zero_literal(pf, fill.pos[0]);
    f.fill_is_one = !zero && (text_is(pf, fill.pos[0], "1") || text_is(pf, fill.pos[0], "1.0"));
    f.row_fill = al_node_row(fn);
    if (!strcmp(factory, "full") || !strcmp(factory, "full_like")) {
        free(f.factory); /* full().fill_(): AL103 leaves it (rare, dtype-laden) */
        return;
    }
    if (f.like) {
        f.size = fa.npos == 1 ? text(pf, fa.pos[0]) : NULL;
    } else {
        int rank;
        f.size = size_tuple(pf, &fa, &rank);
    }
    TSNode dtype = kwarg(pf, &fa, "dtype");
    if (zero)
        f.value = al_xstrdup("0");
    else if (f.like || !ts_node_is_null(dtype))
        f.value = text(pf, fill.pos[0]);
    else
        f.value = float_value(pf, fill.pos[0]);
    f.kwargs = kwargs_text(pf, &fa, NULL);
    AL_PUSH(facts->refills, facts->n_refills, facts->cap_refills, f);
}

static void catzero(al_facts *facts, const al_pyfile *pf, const al_imports *im, TSNode call)
{
    char *q = qualified(im, pf, al_node_field(call, "function"));
    bool cat = q && (!strcmp(q, "torch.cat") || !strcmp(q, "torch.concat") ||
                     !strcmp(q, "torch.concatenate"));
    free(q);
    if (!cat)
        return;
    args_t a;
    args_of(call, &a);
    if (a.splat || a.npos < 1 || a.npos > 2)
        return;
    TSNode seq = unparen(a.pos[0]);
    if (!al_node_is(seq, "list") && !al_node_is(seq, "tuple"))
        return;
    TSNode items[3];
    int n = 0;
    uint32_t k = ts_node_named_child_count(seq);
    for (uint32_t i = 0; i < k; i++) {
        TSNode c = ts_node_named_child(seq, i);
        if (al_node_is(c, "comment"))
            continue;
        if (n == 3)
            return;
        items[n++] = c;
    }
    if (n != 2)
        return;
    int zi = -1;
    TSNode zcall = {0};
    bool to_other = false;
    for (int i = 0; i < 2; i++) {
        TSNode z = unparen(items[i]);
        /* torch.zeros(...).to(x) */
        if (al_node_is(z, "call") && al_node_is(al_node_field(z, "function"), "attribute") &&
            last_name_is(pf, al_node_field(z, "function"), "to")) {
            args_t ta;
            args_of(z, &ta);
            TSNode obj = unparen(al_node_field(al_node_field(z, "function"), "object"));
            if (ta.npos == 1 && ta.nkw == 0 && al_node_is(obj, "call")) {
                char *t1 = al_node_text_compact(pf, ta.pos[0]);
                char *t2 = al_node_text_compact(pf, items[1 - i]);
                to_other = !strcmp(t1, t2);
                free(t1);
                free(t2);
                z = obj;
            }
        }
        const char *f = torch_factory(im, pf, z, NULL);
        bool new_zeros = al_node_is(z, "call") &&
                         al_node_is(al_node_field(z, "function"), "attribute") &&
                         last_name_is(pf, al_node_field(z, "function"), "new_zeros");
        if ((f && !strcmp(f, "zeros")) || new_zeros) {
            zi = i;
            zcall = z;
            break;
        }
        to_other = false;
    }
    if (zi < 0)
        return;
    args_t za;
    args_of(zcall, &za);
    al_catzero_fact f;
    memset(&f, 0, sizeof f);
    f.start = ts_node_start_byte(call);
    f.end = ts_node_end_byte(call);
    f.zeros_first = zi == 0;
    TSNode other = items[1 - zi];
    f.other = text(pf, other);
    free(size_tuple(pf, &za, &f.rank));
    f.dim = 0;
    TSNode dimn = a.npos == 2 ? a.pos[1] : kwarg(pf, &a, "dim");
    if (!ts_node_is_null(dimn)) {
        char *d = al_node_text_compact(pf, dimn);
        char *end;
        long v = strtol(d, &end, 10);
        if (*end || !*d)
            f.dim = -1;
        else if (v < 0)
            f.dim = f.rank > 0 ? (int)(v + f.rank) : -1;
        else
            f.dim = (int)v;
        free(d);
    }
    if (f.dim >= 0 && f.rank > 0 && f.dim < f.rank) {
        TSNode e = shape_elem(&za, f.dim);
        if (!ts_node_is_null(e))
            f.extent = text(pf, e);
    }
    TSNode dtype = kwarg(pf, &za, "dtype"), device = kwarg(pf, &za, "device");
    if (!ts_node_is_null(dtype))
        f.dtype = al_node_text_compact(pf, dtype);
    if (!ts_node_is_null(device))
        f.device = text(pf, device);
    char *other_c = al_node_text_compact(pf, other);
    al_strbuf want = {0};
    al_strbuf_printf(&want, "%s.dtype", other_c);
    f.dtype_same = to_other || (f.dtype && !strcmp(f.dtype, want.data)) ||
                   (zcall.id && al_node_is(al_node_field(zcall, "function"), "attribute") &&
                    last_name_is(pf, al_node_field(zcall, "function"), "new_zeros") &&
                    ts_node_is_null(dtype));
    al_strbuf_free(&want);
    /* x = torch.cumsum(a, 0, dtype=D): the buffer form of the fix. */
    TSNode o = unparen(other);
    char *oq = al_node_is(o, "call") ? qualified(im, pf, al_node_field(o, "function")) : NULL;
    if (oq && !strcmp(oq, "torch.cumsum")) {
        args_t ca;
        args_of(o, &ca);
        TSNode cdim = ca.npos > 1 ? ca.pos[1] : kwarg(pf, &ca, "dim");
        TSNode cdt = kwarg(pf, &ca, "dtype");
        TSNode in = ca.npos > 0 ? unparen(ca.pos[0]) : kwarg(pf, &ca, "input");
        if (!ts_node_is_null(cdim) && (text_is(pf, cdim, "0") || text_is(pf, cdim, "-1")) &&
            !ts_node_is_null(in) && (al_node_is(in, "identifier") || al_node_is(in, "attribute")) &&
            ca.nkw <= 2 && !ca.splat) {
            f.cumsum = true;
            f.cumsum_input = text(pf, in);
            if (!ts_node_is_null(cdt)) {
                f.cumsum_dtype = al_node_text_compact(pf, cdt);
                if (f.dtype && !strcmp(f.dtype, f.cumsum_dtype))
                    f.dtype_same = true;
            }
        }
    }
    free(oq);
    free(other_c);
    TSNode parent = ts_node_parent(call);
    if (al_node_is(parent, "assignment") && al_node_is(al_node_field(parent, "left"), "identifier") &&
        ts_node_is_null(al_node_field(parent, "type")) &&
        al_node_is(ts_node_parent(parent), "expression_statement")) {
        TSNode stmt = ts_node_parent(parent);
        f.indent = indent_of(pf, stmt);
        if (f.indent) {
            f.target = text(pf, al_node_field(parent, "left"));
            f.stmt_start = ts_node_start_byte(stmt);
            f.stmt_end = ts_node_end_byte(stmt);
        }
    }
    const char *t = al_imports_alias_for(im, "torch");
    f.torch = al_xstrdup(t ? t : "torch");
    const char *F = al_imports_alias_for(im, "torch.nn.functional");
    f.functional = F ? al_xstrdup(F) : NULL;
    AL_PUSH(facts->catzeros, facts->n_catzeros, facts->cap_catzeros, f);
}

/* A `.to(...)` argument that names a device, not a dtype or a tensor. */
static bool looks_like_device(const al_pyfile *pf, const al_imports *im, TSNode v)
{
    if (al_node_is(v, "string"))
        return true;
    if (al_node_is(v, "call")) {
        char *q = qualified(im, pf, al_node_field(v, "function"));
        bool yes = q && !strcmp(q, "torch.device");
        free(q);
        return yes;
    }
    size_t len;
    const char *p = last_name(pf, v, &len);
    if (!len)
        return false;
    char name[64];
    snprintf(name, sizeof name, "%.*s", (int)(len < 63 ? len : 63), p);
    return !strcmp(name, "device") || !strcmp(name, "dev") || al_str_ends_with(name, "_device") ||
           al_str_ends_with(name, "_dev");
}

static bool looks_like_dtype(const al_pyfile *pf, const al_imports *im, TSNode v)
{
    char *q = qualified(im, pf, v);
    bool yes = false;
    if (q) {
        static const char *const d[] = {"float", "half", "bfloat16", "int", "long", "bool",
                                        "uint8", "int8", "int16", "double", "float8", NULL};
        if (!strncmp(q, "torch.", 6))
            for (int i = 0; d[i]; i++)
                if (!strncmp(q + 6, d[i], strlen(d[i])))
                    yes = true;
    }
    free(q);
    size_t len;
    const char *p = last_name(pf, v, &len);
    if (len >= 5 && !memcmp(p + len - 5, "dtype", 5))
        yes = true;
    return yes;
}

static void move_to_device(al_facts *facts, const al_pyfile *pf, const al_imports *im,
                           TSNode call)
{
    TSNode fn = al_node_field(call, "function");
    if (!al_node_is(fn, "attribute"))
        return;
    bool to = last_name_is(pf, fn, "to"), cuda = last_name_is(pf, fn, "cuda");
    if (!to && !cuda)
        return;
    TSNode inner = unparen(al_node_field(fn, "object"));
    bool random = false;
    const char *factory = torch_factory(im, pf, inner, &random);
    /* zeros_like(x) is made where x lives: nothing was on the host. */
    if (!factory || strstr(factory, "_like"))
        return;
    args_t ma, fa;
    args_of(call, &ma);
    args_of(inner, &fa);
    if (ma.splat || fa.splat)
        return;
    al_move_fact f;
    memset(&f, 0, sizeof f);
    f.start = ts_node_start_byte(call);
    f.end = ts_node_end_byte(call);
    f.random = random;
    char *q = qualified(im, pf, al_node_field(inner, "function"));
    f.factory = q;
    TSNode args = al_node_field(inner, "arguments");
    f.insert_at = ts_node_end_byte(args) - 1;
    f.args_empty = fa.npos == 0 && fa.nkw == 0;
    f.has_device = !ts_node_is_null(kwarg(pf, &fa, "device"));
    f.move_start = ts_node_end_byte(inner);
    f.move_end = f.end;
    bool unknown = false;
    if (cuda) {
        if (ma.npos == 0)
            f.device = al_xstrdup("\"cuda\"");
        else
            unknown = true;
        for (int i = 0; i < ma.nkw; i++) {
            if (text_is(pf, al_node_field(ma.kw[i], "name"), "non_blocking"))
                f.non_blocking = true;
            else
                unknown = true;
        }
    } else {
        for (int i = 0; i < ma.npos; i++) {
            if (looks_like_device(pf, im, ma.pos[i]) && !f.device)
                f.device = text(pf, ma.pos[i]);
            else if (looks_like_dtype(pf, im, ma.pos[i]) && !f.dtype)
                f.dtype = text(pf, ma.pos[i]);
            else
                unknown = true;
        }
        for (int i = 0; i < ma.nkw; i++) {
            TSNode name = al_node_field(ma.kw[i], "name");
            if (text_is(pf, name, "device") && !f.device)
                f.device = text(pf, al_node_field(ma.kw[i], "value"));
            else if (text_is(pf, name, "dtype") && !f.dtype)
                f.dtype = text(pf, al_node_field(ma.kw[i], "value"));
            else if (text_is(pf, name, "non_blocking"))
                f.non_blocking = true;
            else
                unknown = true;
        }
    }
    if (!f.device || unknown) {
        /* Not a plain move to a device: .to(x), .to(dtype), .cuda(i). */
        free(f.device);
        free(f.dtype);
        free(f.factory);
        return;
    }
    if (f.dtype && !ts_node_is_null(kwarg(pf, &fa, "dtype"))) {
        free(f.dtype); /* two dtypes: leave it to the reader */
        f.dtype = NULL;
        f.has_device = true;
    }
    AL_PUSH(facts->moves, facts->n_moves, facts->cap_moves, f);
}

void al_patterns_call(al_facts *facts, const al_pyfile *pf, const al_imports *im, TSNode call)
{
    refill_chained(facts, pf, im, call);
    catzero(facts, pf, im, call);
    move_to_device(facts, pf, im, call);
}

/* ------------------------------------------------------------------ */
/* Functions: AL103 (next statement), AL202, AL301, AL401                */

typedef struct {
    const al_pyfile *pf;
    const al_imports *im;
    al_facts *facts;
    TSNode func;
    char **params;
    size_t nparams, capparams;
} fn_ctx;

static bool is_loop(TSNode n)
{
    return al_node_is(n, "for_statement") || al_node_is(n, "while_statement");
}

/* The innermost loop around n inside the function, or a null node. */
static TSNode enclosing_loop(const fn_ctx *c, TSNode n)
{
    for (TSNode p = ts_node_parent(n); !ts_node_is_null(p) && !ts_node_eq(p, c->func);
         p = ts_node_parent(p)) {
        if (al_node_is(p, "function_definition") || al_node_is(p, "lambda") ||
            al_node_is(p, "class_definition"))
            break;
        if (is_loop(p))
            return p;
    }
    return (TSNode){0};
}

/* x = FACTORY(...) as a whole statement: the call, else null. */
static TSNode alloc_call(const fn_ctx *c, TSNode stmt, TSNode *target, const char **factory)
{
    if (!al_node_is(stmt, "expression_statement") || ts_node_named_child_count(stmt) != 1)
        return (TSNode){0};
    TSNode asg = ts_node_named_child(stmt, 0);
    if (!al_node_is(asg, "assignment") || !al_node_is(al_node_field(asg, "left"), "identifier") ||
        !ts_node_is_null(al_node_field(asg, "type")))
        return (TSNode){0};
    TSNode call = al_node_field(asg, "right");
    bool random = false;
    const char *f = torch_factory(c->im, c->pf, call, &random);
    if (!f) {
        /* x.new_zeros(...) and friends */
        if (al_node_is(call, "call") && al_node_is(al_node_field(call, "function"), "attribute")) {
            static const char *const m[] = {"new_zeros", "new_ones", "new_full", "new_empty",
                                            NULL};
            for (int i = 0; m[i]; i++)
                if (last_name_is(c->pf, al_node_field(call, "function"), m[i]))
                    f = m[i];
        }
    }
    if (!f || random || !al_node_is(call, "call"))
        return (TSNode){0};
    *target = al_node_field(asg, "left");
    *factory = f;
    return call;
}

static bool is_method_call_on(const fn_ctx *c, TSNode stmt, const char *name, const char *method,
                              TSNode *call_out)
{
    if (!al_node_is(stmt, "expression_statement") || ts_node_named_child_count(stmt) != 1)
        return false;
    TSNode call = ts_node_named_child(stmt, 0);
    if (!al_node_is(call, "call"))
        return false;
    TSNode fn = al_node_field(call, "function");
    if (!al_node_is(fn, "attribute") || !last_name_is(c->pf, fn, method))
        return false;
    TSNode obj = al_node_field(fn, "object");
    if (!al_node_is(obj, "identifier") || !text_is(c->pf, obj, name))
        return false;
    *call_out = call;
    return true;
}

/* The statement's whole line(s), when it stands alone on them. */
static bool statement_lines(const al_pyfile *pf, TSNode stmt, size_t *start, size_t *end)
{
    char *ind = indent_of(pf, stmt);
    if (!ind)
        return false;
    free(ind);
    size_t e = ts_node_end_byte(stmt);
    size_t k = e;
    while (k < pf->src->len && (pf->src->bytes[k] == ' ' || pf->src->bytes[k] == '\t'))
        k++;
    if (k < pf->src->len && pf->src->bytes[k] != '\n' && pf->src->bytes[k] != '\r' &&
        pf->src->bytes[k] != '#')
        return false; /* `a; b` on one line */
    *start = line_start(pf, ts_node_start_byte(stmt));
    *end = next_line(pf, e);
    return true;
}

/* The index of the next statement after i in a block (comments are
 * named children too), or the child count. */
static uint32_t next_statement(TSNode block, uint32_t i)
{
    uint32_t k = ts_node_named_child_count(block);
    for (uint32_t j = i + 1; j < k; j++)
        if (!al_node_is(ts_node_named_child(block, j), "comment"))
            return j;
    return k;
}

static int named_statements(TSNode block)
{
    int n = 0;
    uint32_t k = ts_node_named_child_count(block);
    for (uint32_t i = 0; i < k; i++)
        if (!al_node_is(ts_node_named_child(block, i), "comment"))
            n++;
    return n;
}

static void refill_next(fn_ctx *c, TSNode block)
{
    uint32_t k = ts_node_named_child_count(block);
    for (uint32_t i = 0; i < k; i++) {
        uint32_t j = next_statement(block, i);
        if (j >= k)
            break;
        TSNode s1 = ts_node_named_child(block, i), s2 = ts_node_named_child(block, j);
        TSNode target;
        const char *factory;
        TSNode call = alloc_call(c, s1, &target, &factory);
        if (ts_node_is_null(call) || !in_list(TORCH_FACTORIES, factory) ||
            !strcmp(factory, "full") || !strcmp(factory, "full_like"))
            continue;
        bool zeros = strstr(factory, "zeros") != NULL;
        char *name = text(c->pf, target);
        TSNode fill;
        bool zero = is_method_call_on(c, s2, name, "zero_", &fill);
        bool filled = zero || is_method_call_on(c, s2, name, "fill_", &fill);
        args_t fa, fl;
        args_of(call, &fa);
        if (filled)
            args_of(fill, &fl);
        size_t ds, de;
        /* zeros then zero_(): the dataflow reports it as already zero. */
        if (filled && zeros && (zero || (fl.npos == 1 && is_zero_literal(c->pf, fl.pos[0])))) {
            free(name);
            continue;
        }
        if (!filled || fa.splat || (!zero && (fl.npos != 1 || fl.nkw)) ||
            !ts_node_is_null(kwarg(c->pf, &fa, "out")) || !statement_lines(c->pf, s2, &ds, &de) ||
            count_ident(c->pf, fill, name, 0) != 1) {
            free(name);
            continue;
        }
        al_refill_fact f;
        memset(&f, 0, sizeof f);
        f.kind = AL_REFILL_NEXT;
        f.start = ts_node_start_byte(fill);
        f.end = ts_node_end_byte(fill);
        f.factory = al_xstrdup(factory);
        f.like = strstr(factory, "_like") != NULL;
        f.fill_is_zero = zero || is_zero_literal(c->pf, fl.pos[0]);
        f.fill_is_one = !zero && (text_is(c->pf, fl.pos[0], "1") || text_is(c->pf, fl.pos[0], "1.0"));
        f.name_start = ts_node_start_byte(al_node_field(call, "function"));
        f.name_end = ts_node_end_byte(al_node_field(call, "function"));
        f.call_start = ts_node_start_byte(call);
        f.call_end = ts_node_end_byte(call);
        f.del_start = ds;
        f.del_end = de;
        f.row_fill = al_node_row(s2);
        if (f.like) {
            f.size = fa.npos == 1 ? text(c->pf, fa.pos[0]) : NULL;
        } else {
            int rank;
            f.size = size_tuple(c->pf, &fa, &rank);
        }
        if (zero)
            f.value = al_xstrdup("0");
        else if (f.like || !ts_node_is_null(kwarg(c->pf, &fa, "dtype")))
            f.value = text(c->pf, fl.pos[0]);
        else
            f.value = float_value(c->pf, fl.pos[0]);
        f.kwargs = kwargs_text(c->pf, &fa, NULL);
        AL_PUSH(c->facts->refills, c->facts->n_refills, c->facts->cap_refills, f);
        free(name);
    }
}

/* AL202 */
static void cat_in_loop(fn_ctx *c, TSNode stmt)
{
    if (!al_node_is(stmt, "expression_statement") || ts_node_named_child_count(stmt) != 1)
        return;
    TSNode asg = ts_node_named_child(stmt, 0);
    if (!al_node_is(asg, "assignment") || !al_node_is(al_node_field(asg, "left"), "identifier"))
        return;
    TSNode call = al_node_field(asg, "right");
    if (!al_node_is(call, "call"))
        return;
    char *q = qualified(c->im, c->pf, al_node_field(call, "function"));
    bool cat = q && (!strcmp(q, "torch.cat") || !strcmp(q, "torch.concat") ||
                     !strcmp(q, "torch.concatenate"));
    bool stack = q && !strcmp(q, "torch.stack");
    free(q);
    if (!cat && !stack)
        return;
    args_t a;
    args_of(call, &a);
    if (a.splat || a.npos < 1)
        return;
    TSNode seq = unparen(a.pos[0]);
    if (!al_node_is(seq, "list") && !al_node_is(seq, "tuple"))
        return;
    TSNode items[16];
    int n = 0;
    uint32_t k = ts_node_named_child_count(seq);
    for (uint32_t i = 0; i < k && n < 16; i++) {
        TSNode ch = ts_node_named_child(seq, i);
        if (al_node_is(ch, "comment"))
            continue;
        if (al_node_is(ch, "list_splat"))
            return;
        items[n++] = ch;
    }
    TSNode target = al_node_field(asg, "left");
    char *name = text(c->pf, target);
    if (n < 2 || !al_node_is(items[0], "identifier") || !text_is(c->pf, items[0], name)) {
        free(name);
        return;
    }
    TSNode loop = enclosing_loop(c, stmt);
    if (ts_node_is_null(loop)) {
        free(name);
        return;
    }
    /* It grows only if it carries over from one iteration to the next:
     * the cat must be its only binding in the loop. */
    char **bound = NULL;
    size_t nb = 0, cb = 0;
    bound_names(c->pf, loop, &bound, &nb, &cb, 0);
    int binds = 0;
    for (size_t i = 0; i < nb; i++)
        if (!strcmp(bound[i], name))
            binds++;
    free_names(bound, nb);
    if (binds != 1) {
        free(name);
        return;
    }
    al_catloop_fact f;
    memset(&f, 0, sizeof f);
    f.start = ts_node_start_byte(stmt);
    f.end = ts_node_end_byte(stmt);
    f.name = name;
    f.stack = stack;
    al_strbuf items_text = {0};
    for (int i = 1; i < n; i++) {
        char *t = text(c->pf, items[i]);
        al_strbuf_printf(&items_text, "%s%s", i > 1 ? ", " : "", t);
        free(t);
        if (count_ident(c->pf, items[i], name, 0))
            f.used_elsewhere = true; /* cat([x, f(x)]) */
    }
    f.rest_items = al_strbuf_detach(&items_text);
    f.multiple_items = n > 2;
    al_strbuf rest = {0};
    for (int i = 1; i < a.npos; i++) {
        char *t = text(c->pf, a.pos[i]);
        al_strbuf_printf(&rest, ", %s", t);
        free(t);
    }
    char *kw = kwargs_text(c->pf, &a, NULL);
    al_strbuf_puts(&rest, kw);
    free(kw);
    f.rest_args = al_strbuf_detach(&rest);
    int in_loop = count_ident(c->pf, loop, name, 0);
    if (in_loop - 2 > 0)
        f.used_elsewhere = true;
    al_strbuf parts = {0};
    al_strbuf_printf(&parts, "%s_parts", name);
    for (int i = 2; count_ident(c->pf, c->func, parts.data, 0) > 0 && i < 100; i++) {
        parts.len = 0;
        al_strbuf_printf(&parts, "%s_parts%d", name, i);
    }
    f.parts = al_strbuf_detach(&parts);
    f.indent = indent_of(c->pf, loop);
    f.loop_start = ts_node_start_byte(loop);
    f.loop_end = ts_node_end_byte(loop);
    f.loop_row = al_node_row(loop);
    const char *t = al_imports_alias_for(c->im, "torch");
    f.torch = al_xstrdup(t ? t : "torch");
    AL_PUSH(c->facts->catloops, c->facts->n_catloops, c->facts->cap_catloops, f);
}

/* Whether the use of name at id lets the value outlive the iteration. */
static bool escapes(const fn_ctx *c, TSNode id)
{
    TSNode e = id, p = ts_node_parent(id);
    while (al_node_is(p, "parenthesized_expression")) {
        e = p;
        p = ts_node_parent(p);
    }
    const char *t = ts_node_type(p);
    static const char *const keep[] = {"return_statement", "yield", "list", "tuple", "set",
                                       "dictionary", "pair", "expression_list", "lambda",
                                       "list_splat", "named_expression", NULL};
    if (in_list(keep, t))
        return true;
    if (!strcmp(t, "assignment")) /* y = t (alias) or obj.a = t / d[k] = t (store) */
        return ts_node_eq(al_node_field(p, "right"), e);
    if (!strcmp(t, "subscript") || !strcmp(t, "attribute")) {
        /* t[...] / t.view(...) bound to a name is an alias too. */
        TSNode q = ts_node_parent(p);
        if (al_node_is(q, "call"))
            q = ts_node_parent(q);
        return al_node_is(q, "assignment") && !ts_node_eq(al_node_field(q, "left"), p);
    }
    if (!strcmp(t, "keyword_argument")) {
        /* out=t: an output argument is written, not kept. */
        size_t len;
        const char *kw = al_node_ptr(c->pf, al_node_field(p, "name"), &len);
        if ((len == 3 && !memcmp(kw, "out", 3)) || (len == 6 && !memcmp(kw, "output", 6)) ||
            (len > 4 && !memcmp(kw + len - 4, "_out", 4)))
            return false;
    }
    if (!strcmp(t, "argument_list") || !strcmp(t, "keyword_argument")) {
        TSNode call = !strcmp(t, "argument_list") ? ts_node_parent(p)
                                                  : ts_node_parent(ts_node_parent(p));
        TSNode fn = al_node_field(call, "function");
        char *q = qualified(c->im, c->pf, fn);
        bool torch = q && !strncmp(q, "torch.", 6) && strncmp(q, "torch.ops.", 10) != 0;
        free(q);
        if (torch)
            return false;
        /* x.add_(t), x.copy_(t), a.matmul(t): a tensor method reads its
         * argument; list.append(t), helper(t) may keep it. */
        static const char *const reads[] = {"add", "sub", "mul", "div", "matmul", "mm", "bmm",
                                            "expand_as", "view_as", "reshape_as", "type_as",
                                            "to", "eq", "ne", "lt", "gt", "le", "ge", "where",
                                            "masked_fill", "index_select", "gather", NULL};
        if (al_node_is(fn, "attribute")) {
            size_t len;
            const char *m = last_name(c->pf, fn, &len);
            if (len > 1 && m[len - 1] == '_' && m[len - 2] != '_')
                return false;
            char name[64];
            snprintf(name, sizeof name, "%.*s", (int)(len < 63 ? len : 63), m);
            if (in_list(reads, name))
                return false;
        }
        return true;
    }
    return false;
}

/* AL301 */
static void alloc_in_loop(fn_ctx *c, TSNode stmt)
{
    TSNode target;
    const char *factory;
    TSNode call = alloc_call(c, stmt, &target, &factory);
    /* arange/tensor/eye carry content a hoisted buffer could lose to an
     * in-place update; zeros/ones/full are refilled, empty needs nothing. */
    if (ts_node_is_null(call) || (!in_list(TORCH_FACTORIES, factory) &&
                                  strncmp(factory, "new_", 4) != 0))
        return;
    TSNode loop = enclosing_loop(c, stmt);
    if (ts_node_is_null(loop))
        return;
    char *name = text(c->pf, target);
    char **bound = NULL;
    size_t nb = 0, cb = 0;
    bound_names(c->pf, loop, &bound, &nb, &cb, 0);
    int binds = 0;
    for (size_t i = 0; i < nb; i++)
        if (!strcmp(bound[i], name))
            binds++;
    /* x.new_empty(...) takes its dtype and device from x: x counts too. */
    TSNode fn = al_node_field(call, "function");
    bool ok = binds == 1 && invariant(c->pf, al_node_field(call, "arguments"), bound, nb, 0) &&
              (!al_node_is(fn, "attribute") ||
               invariant(c->pf, al_node_field(fn, "object"), bound, nb, 0));
    /* Every use of the name is inside this loop, after the allocation,
     * and none lets the value outlive the iteration. */
    if (ok && count_ident(c->pf, c->func, name, 0) != count_ident(c->pf, loop, name, 0))
        ok = false;
    if (ok) {
        TSTreeCursor cur = ts_tree_cursor_new(loop);
        bool more = true;
        while (more && ok) {
            TSNode n = ts_tree_cursor_current_node(&cur);
            if (al_node_is(n, "identifier") && text_is(c->pf, n, name)) {
                TSNode par = ts_node_parent(n);
                bool is_attr_name = al_node_is(par, "attribute") &&
                                    ts_node_eq(al_node_field(par, "attribute"), n);
                bool is_kw_name = al_node_is(par, "keyword_argument") &&
                                  ts_node_eq(al_node_field(par, "name"), n);
                if (!is_attr_name && !is_kw_name && !ts_node_eq(n, target)) {
                    if (ts_node_start_byte(n) < ts_node_start_byte(stmt) || escapes(c, n))
                        ok = false;
                }
            }
            if (ts_tree_cursor_goto_first_child(&cur))
                continue;
            while (!ts_tree_cursor_goto_next_sibling(&cur)) {
                if (!ts_tree_cursor_goto_parent(&cur) ||
                    ts_node_eq(ts_tree_cursor_current_node(&cur), loop)) {
                    more = false;
                    break;
                }
            }
        }
        ts_tree_cursor_delete(&cur);
    }
    size_t ls, le;
    char *indent = ok ? indent_of(c->pf, loop) : NULL;
    if (!ok || !indent || !statement_lines(c->pf, stmt, &ls, &le)) {
        free(indent);
        free(name);
        free_names(bound, nb);
        return;
    }
    al_loopalloc_fact f;
    memset(&f, 0, sizeof f);
    f.start = ts_node_start_byte(call);
    f.end = ts_node_end_byte(call);
    f.name = name;
    f.call = text(c->pf, call);
    f.indent = indent;
    f.stmt_indent = indent_of(c->pf, stmt);
    f.stmt_line_start = ls;
    f.stmt_line_end = le;
    f.loop_start = ts_node_start_byte(loop);
    f.loop_row = al_node_row(loop);
    f.body_has_other_statements = named_statements(ts_node_parent(stmt)) > 1;
    al_strbuf r = {0};
    if (strstr(factory, "zeros"))
        al_strbuf_printf(&r, "%s.zero_()", name);
    else if (strstr(factory, "ones"))
        al_strbuf_printf(&r, "%s.fill_(1)", name);
    else if (strstr(factory, "full")) {
        args_t a;
        args_of(call, &a);
        TSNode v = a.npos > 1 ? a.pos[1] : kwarg(c->pf, &a, "fill_value");
        if (!ts_node_is_null(v)) {
            char *vt = text(c->pf, v);
            al_strbuf_printf(&r, "%s.fill_(%s)", name, vt);
            free(vt);
        }
    }
    f.refill = r.len ? al_strbuf_detach(&r) : NULL;
    al_strbuf_free(&r);
    AL_PUSH(c->facts->loopallocs, c->facts->n_loopallocs, c->facts->cap_loopallocs, f);
    free_names(bound, nb);
}

/* AL401 */
static const char *const FRESH_OPS[] = {
    "zeros", "ones", "full", "empty", "zeros_like", "ones_like", "full_like", "empty_like",
    "arange", "rand", "randn", "randint", "tensor", "cat", "stack", "matmul", "mm", "bmm",
    "add", "sub", "mul", "div", "exp", "log", "sqrt", "rsqrt", "softmax", "log_softmax",
    "where", "clamp", "sum", "mean", "cumsum", "abs", "neg", "sigmoid", "tanh", "einsum",
    "gather", "index_select", "masked_fill", "pow", "maximum", "minimum", NULL};

static bool has_torch_call(const fn_ctx *c, TSNode n, int depth)
{
    if (depth > 100)
        return false;
    if (al_node_is(n, "call")) {
        char *q = qualified(c->im, c->pf, al_node_field(n, "function"));
        bool yes = q && !strncmp(q, "torch.", 6);
        free(q);
        if (yes)
            return true;
    }
    uint32_t k = ts_node_named_child_count(n);
    for (uint32_t i = 0; i < k; i++)
        if (has_torch_call(c, ts_node_named_child(n, i), depth + 1))
            return true;
    return false;
}

static bool fresh_value(const fn_ctx *c, TSNode v)
{
    v = unparen(v);
    /* `a * b` is a new tensor only if it is a tensor at all: `owner *
     * base` may be two ints. Ask for a torch call inside it. */
    if (al_node_is(v, "binary_operator"))
        return has_torch_call(c, v, 0);
    if (!al_node_is(v, "call"))
        return false;
    char *q = qualified(c->im, c->pf, al_node_field(v, "function"));
    bool yes = q && !strncmp(q, "torch.", 6) && in_list(FRESH_OPS, q + 6);
    free(q);
    if (!yes && al_node_is(al_node_field(v, "function"), "attribute") &&
        last_name_is(c->pf, al_node_field(v, "function"), "clone"))
        yes = true;
    return yes;
}

static void inplace_candidate(fn_ctx *c, TSNode stmt)
{
    if (!al_node_is(stmt, "expression_statement") || ts_node_named_child_count(stmt) != 1)
        return;
    TSNode asg = ts_node_named_child(stmt, 0);
    if (!al_node_is(asg, "assignment") || !al_node_is(al_node_field(asg, "left"), "identifier") ||
        !ts_node_is_null(al_node_field(asg, "type")))
        return;
    char *name = text(c->pf, al_node_field(asg, "left"));
    TSNode rhs = unparen(al_node_field(asg, "right"));
    const char *method = NULL;
    TSNode operand = {0};
    char *extra = NULL;
    if (al_node_is(rhs, "binary_operator")) {
        TSNode l = al_node_field(rhs, "left"), r = al_node_field(rhs, "right");
        TSNode op = al_node_field(rhs, "operator");
        bool lx = al_node_is(l, "identifier") && text_is(c->pf, l, name);
        bool rx = al_node_is(r, "identifier") && text_is(c->pf, r, name);
        if (text_is(c->pf, op, "-") && lx)
            method = "sub_", operand = r;
        else if (text_is(c->pf, op, "+") && (lx || rx))
            method = "add_", operand = lx ? r : l;
        else if (text_is(c->pf, op, "*") && (lx || rx))
            method = "mul_", operand = lx ? r : l;
        else if (text_is(c->pf, op, "/") && lx)
            method = "div_", operand = r;
    } else if (al_node_is(rhs, "call")) {
        char *q = qualified(c->im, c->pf, al_node_field(rhs, "function"));
        args_t a;
        args_of(rhs, &a);
        static const char *const ops[][2] = {{"torch.add", "add_"}, {"torch.sub", "sub_"},
                                             {"torch.mul", "mul_"}, {"torch.div", "div_"}};
        for (int i = 0; q && i < 4; i++)
            if (!strcmp(q, ops[i][0]) && a.npos == 2 && !a.splat &&
                al_node_is(a.pos[0], "identifier") && text_is(c->pf, a.pos[0], name) &&
                ts_node_is_null(kwarg(c->pf, &a, "out"))) {
                method = ops[i][1];
                operand = a.pos[1];
                extra = kwargs_text(c->pf, &a, NULL);
            }
        free(q);
    }
    if (!method || count_ident(c->pf, operand, name, 0) > 0) {
        free(name);
        free(extra);
        return;
    }
    /* A parameter is caller-owned. */
    bool ok = true;
    for (size_t i = 0; i < c->nparams; i++)
        if (!strcmp(c->params[i], name))
            ok = false;
    /* Fresh: every binding of the name in the function makes a new
     * tensor; unaliased: no view, alias, store or unknown call sees it. */
    TSTreeCursor cur = ts_tree_cursor_new(c->func);
    bool more = ts_tree_cursor_goto_first_child(&cur);
    while (more && ok) {
        TSNode n = ts_tree_cursor_current_node(&cur);
        bool descend = true;
        const char *t = ts_node_type(n);
        if (!strcmp(t, "function_definition") || !strcmp(t, "class_definition") ||
            !strcmp(t, "lambda")) {
            if (count_ident(c->pf, n, name, 0))
                ok = false; /* captured */
            descend = false;
        } else if (!strcmp(t, "global_statement") || !strcmp(t, "nonlocal_statement")) {
            if (count_ident(c->pf, n, name, 0))
                ok = false;
        } else if (!strcmp(t, "for_statement") || !strcmp(t, "with_item") ||
                   !strcmp(t, "except_clause")) {
            TSNode left = al_node_field(n, !strcmp(t, "for_statement") ? "left" : "value");
            if (!strcmp(t, "except_clause"))
                left = al_node_field(n, "alias");
            if (!ts_node_is_null(left) && !strcmp(t, "for_statement") &&
                count_ident(c->pf, left, name, 0))
                ok = false;
            if (!strcmp(t, "with_item") && count_ident(c->pf, n, name, 0) &&
                strstr(ts_node_type(al_node_field(n, "value")), "as_pattern"))
                ok = false;
        } else if (!strcmp(t, "assignment")) {
            TSNode left = al_node_field(n, "left");
            if (al_node_is(left, "identifier") && text_is(c->pf, left, name)) {
                if (!ts_node_eq(n, asg) && !fresh_value(c, al_node_field(n, "right")))
                    ok = false;
            } else if (count_ident(c->pf, left, name, 0) && !al_node_is(left, "subscript")) {
                ok = false; /* a, x = ... */
            }
        } else if (!strcmp(t, "identifier") && text_is(c->pf, n, name)) {
            TSNode par = ts_node_parent(n);
            bool meta = al_node_is(par, "attribute") &&
                        ts_node_eq(al_node_field(par, "attribute"), n);
            bool kwname = al_node_is(par, "keyword_argument") &&
                          ts_node_eq(al_node_field(par, "name"), n);
            if (!meta && !kwname && escapes(c, n) && !al_node_is(par, "return_statement"))
                ok = false;
        }
        if (descend && ts_tree_cursor_goto_first_child(&cur))
            continue;
        while (!(more = ts_tree_cursor_goto_next_sibling(&cur)))
            if (!ts_tree_cursor_goto_parent(&cur) ||
                ts_node_eq(ts_tree_cursor_current_node(&cur), c->func))
                break;
    }
    ts_tree_cursor_delete(&cur);
    /* The name must be bound before, in this function, by a fresh value. */
    if (ok) {
        bool bound_before = false;
        char **names = NULL;
        size_t nn = 0, cn = 0;
        (void)names;
        TSNode body = al_node_field(c->func, "body");
        uint32_t k = ts_node_named_child_count(body);
        for (uint32_t i = 0; i < k; i++) {
            TSNode s = ts_node_named_child(body, i);
            if (ts_node_start_byte(s) >= ts_node_start_byte(stmt))
                break;
            if (al_node_is(s, "expression_statement") &&
                al_node_is(ts_node_named_child(s, 0), "assignment")) {
                TSNode l = al_node_field(ts_node_named_child(s, 0), "left");
                if (al_node_is(l, "identifier") && text_is(c->pf, l, name))
                    bound_before = true;
            }
        }
        (void)nn;
        (void)cn;
        if (!bound_before)
            ok = false;
    }
    if (!ok) {
        free(name);
        free(extra);
        return;
    }
    al_inplace_fact f;
    memset(&f, 0, sizeof f);
    f.start = ts_node_start_byte(asg);
    f.end = ts_node_end_byte(asg);
    f.name = name;
    f.method = al_xstrdup(method);
    char *op = text(c->pf, operand);
    al_strbuf sb = {0};
    al_strbuf_printf(&sb, "%s%s", op, extra ? extra : "");
    free(op);
    free(extra);
    f.operand = al_strbuf_detach(&sb);
    AL_PUSH(c->facts->inplaces, c->facts->n_inplaces, c->facts->cap_inplaces, f);
}

static void walk_statements(fn_ctx *c, TSNode n, int depth)
{
    if (depth > 200)
        return;
    uint32_t k = ts_node_named_child_count(n);
    if (al_node_is(n, "block"))
        refill_next(c, n);
    for (uint32_t i = 0; i < k; i++) {
        TSNode s = ts_node_named_child(n, i);
        const char *t = ts_node_type(s);
        if (!strcmp(t, "function_definition") || !strcmp(t, "class_definition") ||
            !strcmp(t, "decorated_definition"))
            continue; /* analysed as functions of their own */
        if (!strcmp(t, "expression_statement")) {
            cat_in_loop(c, s);
            alloc_in_loop(c, s);
            inplace_candidate(c, s);
            continue;
        }
        walk_statements(c, s, depth + 1);
    }
}

void al_patterns_function(al_facts *facts, const al_pyfile *pf, const al_imports *im,
                          TSNode func)
{
    fn_ctx c = {pf, im, facts, func, NULL, 0, 0};
    TSNode params = al_node_field(func, "parameters");
    uint32_t k = ts_node_named_child_count(params);
    for (uint32_t i = 0; i < k; i++) {
        TSNode p = ts_node_named_child(params, i);
        TSNode id = p;
        while (!ts_node_is_null(id) && !al_node_is(id, "identifier"))
            id = ts_node_named_child_count(id) ? ts_node_named_child(id, 0) : (TSNode){0};
        if (!ts_node_is_null(id)) {
            char *s = text(pf, id);
            AL_PUSH(c.params, c.nparams, c.capparams, s);
        }
    }
    walk_statements(&c, al_node_field(func, "body"), 0);
    free_names(c.params, c.nparams);
}

/* ------------------------------------------------------------------ */
/* Triton kernels: AL104, AL302                                         */

typedef struct {
    const al_pyfile *pf;
    const al_imports *im;
    al_facts *facts;
    TSNode func;
    const char *tl; /* local name of triton.language */
} k_ctx;

static bool is_tl(const k_ctx *c, TSNode fn, const char *name)
{
    char *q = qualified(c->im, c->pf, fn);
    al_strbuf want = {0};
    al_strbuf_printf(&want, "triton.language.%s", name);
    bool yes = q && !strcmp(q, want.data);
    al_strbuf_free(&want);
    free(q);
    return yes;
}

static TSNode stmt_call(TSNode stmt)
{
    if (!al_node_is(stmt, "expression_statement") || ts_node_named_child_count(stmt) != 1)
        return (TSNode){0};
    TSNode e = ts_node_named_child(stmt, 0);
    return al_node_is(e, "call") ? e : (TSNode){0};
}

/* tl.store(P, V, mask=M): P, V and M (null when absent); false otherwise. */
static bool tl_store(const k_ctx *c, TSNode stmt, TSNode *p, TSNode *v, TSNode *m)
{
    TSNode call = stmt_call(stmt);
    if (ts_node_is_null(call) || !is_tl(c, al_node_field(call, "function"), "store"))
        return false;
    args_t a;
    args_of(call, &a);
    if (a.splat || a.npos < 2)
        return false;
    *p = a.pos[0];
    *v = a.pos[1];
    *m = a.npos > 2 ? a.pos[2] : kwarg(c->pf, &a, "mask");
    for (int i = 0; i < a.nkw; i++)
        if (!text_is(c->pf, al_node_field(a.kw[i], "name"), "mask"))
            return false; /* cache or eviction hints: leave them be */
    return true;
}

static bool zero_value(const k_ctx *c, TSNode v)
{
    v = unparen(v);
    if (is_zero_literal(c->pf, v))
        return true;
    return al_node_is(v, "call") && (is_tl(c, al_node_field(v, "function"), "zeros") ||
                                     is_tl(c, al_node_field(v, "function"), "zeros_like"));
}

static bool same_text(const al_pyfile *pf, TSNode a, TSNode b)
{
    if (ts_node_is_null(a) || ts_node_is_null(b))
        return ts_node_is_null(a) && ts_node_is_null(b);
    char *x = al_node_text_compact(pf, a), *y = al_node_text_compact(pf, b);
    bool eq = !strcmp(x, y);
    free(x);
    free(y);
    return eq;
}

/* Only tl.* calls and assignments: nothing that could read memory we
 * are about to overwrite through another name. */
static bool harmless_between(const k_ctx *c, TSNode stmt, TSNode ptr)
{
    if (!al_node_is(stmt, "expression_statement"))
        return false;
    TSTreeCursor cur = ts_tree_cursor_new(stmt);
    bool ok = true, more = true;
    while (more && ok) {
        TSNode n = ts_tree_cursor_current_node(&cur);
        if (al_node_is(n, "call")) {
            TSNode fn = al_node_field(n, "function");
            char *q = qualified(c->im, c->pf, fn);
            if (!q || strncmp(q, "triton.language.", 16) != 0)
                ok = false;
            else if (!strcmp(q, "triton.language.load")) {
                args_t a;
                args_of(n, &a);
                if (a.npos == 0 || same_text(c->pf, a.pos[0], ptr))
                    ok = false;
            } else if (strstr(q, "atomic") || strstr(q, "barrier") || strstr(q, "store")) {
                ok = false;
            }
            free(q);
        }
        if (ts_tree_cursor_goto_first_child(&cur))
            continue;
        while (!ts_tree_cursor_goto_next_sibling(&cur))
            if (!ts_tree_cursor_goto_parent(&cur) ||
                ts_node_eq(ts_tree_cursor_current_node(&cur), stmt)) {
                more = false;
                break;
            }
    }
    ts_tree_cursor_delete(&cur);
    return ok;
}

static void push_tstore(k_ctx *c, al_tstore_fact *f)
{
    f->tl = al_xstrdup(c->tl);
    AL_PUSH(c->facts->tstores, c->facts->n_tstores, c->facts->cap_tstores, *f);
}

/* A statement (or loop) made dead by `other`: deleted with its lines. */
static bool push_dead(k_ctx *c, al_tstore_kind kind, TSNode dead, TSNode other)
{
    size_t ds, de;
    if (!statement_lines(c->pf, dead, &ds, &de))
        return false;
    al_tstore_fact f;
    memset(&f, 0, sizeof f);
    f.kind = kind;
    f.start = ts_node_start_byte(dead);
    f.end = ts_node_end_byte(dead);
    f.del_start = ds;
    f.del_end = de;
    f.row_other = al_node_row(other);
    push_tstore(c, &f);
    return true;
}

static void zero_acc(k_ctx *c, TSNode s1, TSNode s2)
{
    if (!al_node_is(s1, "expression_statement") || !al_node_is(s2, "expression_statement"))
        return;
    TSNode a1 = ts_node_named_child(s1, 0), a2 = ts_node_named_child(s2, 0);
    if (!al_node_is(a1, "assignment") || !al_node_is(a2, "augmented_assignment"))
        return;
    TSNode acc = al_node_field(a1, "left"), acc2 = al_node_field(a2, "left");
    if (!al_node_is(acc, "identifier") || !same_text(c->pf, acc, acc2) ||
        !text_is(c->pf, al_node_field(a2, "operator"), "+="))
        return;
    TSNode z = al_node_field(a1, "right"), d = al_node_field(a2, "right");
    if (!al_node_is(z, "call") || !is_tl(c, al_node_field(z, "function"), "zeros") ||
        !al_node_is(d, "call") || !is_tl(c, al_node_field(d, "function"), "dot"))
        return;
    args_t za, da;
    args_of(z, &za);
    args_of(d, &da);
    TSNode dtype = za.npos > 1 ? za.pos[1] : kwarg(c->pf, &za, "dtype");
    char *accname = text(c->pf, acc);
    if (za.splat || da.splat || da.npos != 2 || ts_node_is_null(dtype) ||
        !ts_node_is_null(kwarg(c->pf, &da, "acc")) || count_ident(c->pf, d, accname, 0)) {
        free(accname);
        return;
    }
    al_tstore_fact f;
    memset(&f, 0, sizeof f);
    f.kind = AL_TSTORE_ZERO_ACC;
    f.start = ts_node_start_byte(s1);
    f.end = ts_node_end_byte(s2);
    f.acc = accname;
    f.a = text(c->pf, da.pos[0]);
    f.b = text(c->pf, da.pos[1]);
    f.extra = kwargs_text(c->pf, &da, "out_dtype");
    f.dtype = text(c->pf, dtype);
    TSNode od = kwarg(c->pf, &da, "out_dtype");
    f.out_dtype_conflict = !ts_node_is_null(od) && !same_text(c->pf, od, dtype);
    f.row_other = al_node_row(s2);
    push_tstore(c, &f);
}

static void dead_zero_store(k_ctx *c, TSNode block, uint32_t i)
{
    TSNode s = ts_node_named_child(block, i), p, v, m;
    if (!tl_store(c, s, &p, &v, &m) || !zero_value(c, v))
        return;
    uint32_t k = ts_node_named_child_count(block);
    for (uint32_t j = i + 1; j < k; j++) {
        TSNode t = ts_node_named_child(block, j), p2, v2, m2;
        if (al_node_is(t, "comment"))
            continue;
        if (tl_store(c, t, &p2, &v2, &m2) && same_text(c->pf, p, p2) && same_text(c->pf, m, m2)) {
            push_dead(c, AL_TSTORE_DEAD_ZERO, s, t);
            return;
        }
        if (!harmless_between(c, t, p))
            return;
    }
}

/* The zero stores of a loop body, and whether it holds anything else. */
static int zero_stores(k_ctx *c, TSNode body, TSNode *ptrs, TSNode *masks, int max, bool *only)
{
    int n = 0;
    *only = true;
    uint32_t k = ts_node_named_child_count(body);
    for (uint32_t i = 0; i < k; i++) {
        TSNode s = ts_node_named_child(body, i), p, v, m;
        if (al_node_is(s, "comment"))
            continue;
        if (tl_store(c, s, &p, &v, &m) && zero_value(c, v) && n < max) {
            ptrs[n] = p;
            masks[n++] = m;
        } else if (!(al_node_is(s, "expression_statement") &&
                     al_node_is(ts_node_named_child(s, 0), "assignment") &&
                     harmless_between(c, s, (TSNode){0}))) {
            *only = false;
        }
    }
    return n;
}

static bool stores_all(k_ctx *c, TSNode body, TSNode *ptrs, TSNode *masks, int n)
{
    for (int z = 0; z < n; z++) {
        bool found = false;
        uint32_t k = ts_node_named_child_count(body);
        for (uint32_t i = 0; i < k && !found; i++) {
            TSNode p, v, m;
            if (tl_store(c, ts_node_named_child(body, i), &p, &v, &m) &&
                same_text(c->pf, p, ptrs[z]) && same_text(c->pf, m, masks[z]))
                found = true;
        }
        if (!found)
            return false;
    }
    return n > 0;
}

static bool same_header(const k_ctx *c, TSNode a, TSNode b)
{
    return same_text(c->pf, al_node_field(a, "left"), al_node_field(b, "left")) &&
           same_text(c->pf, al_node_field(a, "right"), al_node_field(b, "right"));
}

static void dead_zero_loops(k_ctx *c, TSNode block, uint32_t i)
{
    TSNode l1 = ts_node_named_child(block, i);
    if (!al_node_is(l1, "for_statement"))
        return;
    uint32_t k = ts_node_named_child_count(block);
    TSNode ptrs[16], masks[16];
    bool only;
    int n = zero_stores(c, al_node_field(l1, "body"), ptrs, masks, 16, &only);
    uint32_t next = next_statement(block, i);
    if (n > 0 && only && next < k) {
        /* Zeros first, then the same stores unconditionally: dead. */
        TSNode l2 = ts_node_named_child(block, next);
        if (al_node_is(l2, "for_statement") && same_header(c, l1, l2) &&
            stores_all(c, al_node_field(l2, "body"), ptrs, masks, n) &&
            push_dead(c, AL_TSTORE_DEAD_LOOP, l1, l2))
            return;
    }
    /* A main loop, then `if not computed:` with a loop of zero stores to
     * the same pointers: redundant only if the main loop always runs. */
    for (uint32_t j = i + 1; j < k; j++) {
        TSNode s = ts_node_named_child(block, j);
        if (!al_node_is(s, "if_statement"))
            continue;
        TSNode body = al_node_field(s, "consequence");
        if (named_statements(body) != 1)
            continue;
        TSNode l2 = ts_node_named_child(body, 0);
        if (!al_node_is(l2, "for_statement") || !same_header(c, l1, l2))
            continue;
        int n2 = zero_stores(c, al_node_field(l2, "body"), ptrs, masks, 16, &only);
        TSNode alts[1];
        if (n2 > 0 && only && stores_all(c, al_node_field(l1, "body"), ptrs, masks, n2) &&
            al_node_field_children(s, "alternative", alts, 1) == 0) {
            al_tstore_fact f;
            memset(&f, 0, sizeof f);
            f.kind = AL_TSTORE_GUARD_LOOP;
            f.start = ts_node_start_byte(s);
            f.end = ts_node_end_byte(s);
            f.row_other = al_node_row(l1);
            push_tstore(c, &f);
        }
    }
}

static void kernel_blocks(k_ctx *c, TSNode n, int depth)
{
    if (depth > 200)
        return;
    if (al_node_is(n, "block")) {
        uint32_t k = ts_node_named_child_count(n);
        for (uint32_t i = 0; i < k; i++) {
            TSNode s = ts_node_named_child(n, i);
            uint32_t j = next_statement(n, i);
            if (j < k)
                zero_acc(c, s, ts_node_named_child(n, j));
            dead_zero_store(c, n, i);
            dead_zero_loops(c, n, i);
        }
    }
    uint32_t k = ts_node_named_child_count(n);
    for (uint32_t i = 0; i < k; i++) {
        TSNode ch = ts_node_named_child(n, i);
        if (al_node_is(ch, "function_definition") || al_node_is(ch, "decorated_definition"))
            continue;
        kernel_blocks(c, ch, depth + 1);
    }
}

/* AL302 */
static bool range_loop(const k_ctx *c, TSNode loop)
{
    TSNode it = al_node_field(loop, "right");
    if (!al_node_is(it, "call"))
        return false;
    TSNode fn = al_node_field(it, "function");
    return text_is(c->pf, fn, "range") || is_tl(c, fn, "range") || is_tl(c, fn, "static_range");
}

static void arange_calls(const k_ctx *c, TSNode n, TSNode *out, size_t *nout, size_t max, int depth)
{
    if (depth > 200 || *nout >= max)
        return;
    if (al_node_is(n, "call") && is_tl(c, al_node_field(n, "function"), "arange")) {
        out[(*nout)++] = n;
        return;
    }
    uint32_t k = ts_node_named_child_count(n);
    for (uint32_t i = 0; i < k; i++)
        arange_calls(c, ts_node_named_child(n, i), out, nout, max, depth + 1);
}

static void loop_invariants(k_ctx *c)
{
    TSNode calls[256];
    size_t n = 0;
    arange_calls(c, al_node_field(c->func, "body"), calls, &n, 256, 0);
    for (size_t i = 0; i < n; i++) {
        /* The outermost enclosing range loop the bounds do not depend on. */
        TSNode target = {0};
        for (TSNode p = ts_node_parent(calls[i]); !ts_node_is_null(p) && !ts_node_eq(p, c->func);
             p = ts_node_parent(p)) {
            if (al_node_is(p, "while_statement"))
                break;
            if (!al_node_is(p, "for_statement") || !range_loop(c, p))
                continue;
            char **bound = NULL;
            size_t nb = 0, cb = 0;
            bound_names(c->pf, p, &bound, &nb, &cb, 0);
            bool inv = invariant(c->pf, al_node_field(calls[i], "arguments"), bound, nb, 0);
            free_names(bound, nb);
            if (!inv)
                break;
            target = p;
        }
        if (ts_node_is_null(target))
            continue;
        char *expr = al_node_text_compact(c->pf, calls[i]);
        al_tinvariant_fact *f = NULL;
        for (size_t j = 0; j < c->facts->n_tinvariants; j++) {
            al_tinvariant_fact *g = &c->facts->tinvariants[j];
            if (g->loop_start == ts_node_start_byte(target) && !strcmp(g->expr, expr))
                f = g;
        }
        if (!f) {
            char *indent = indent_of(c->pf, target);
            if (!indent) {
                free(expr);
                continue;
            }
            al_tinvariant_fact nf;
            memset(&nf, 0, sizeof nf);
            nf.loop_start = ts_node_start_byte(target);
            nf.loop_row = al_node_row(target);
            nf.expr = expr;
            nf.source = text(c->pf, calls[i]);
            expr = NULL;
            nf.indent = indent;
            /* offs_0_BLOCK from tl.arange(0, BLOCK) */
            al_strbuf name = {0};
            al_strbuf_puts(&name, "arange");
            args_t a;
            args_of(calls[i], &a);
            for (int k = 0; k < a.npos; k++) {
                char *t = al_node_text_compact(c->pf, a.pos[k]);
                al_strbuf_putc(&name, '_');
                for (char *q = t; *q; q++)
                    al_strbuf_putc(&name, isalnum((unsigned char)*q) ? *q : '_');
                free(t);
            }
            for (int k = 2; count_ident(c->pf, c->func, name.data, 0) > 0 && k < 100; k++)
                al_strbuf_printf(&name, "_%d", k);
            nf.name = al_strbuf_detach(&name);
            AL_PUSH(c->facts->tinvariants, c->facts->n_tinvariants, c->facts->cap_tinvariants, nf);
            f = &c->facts->tinvariants[c->facts->n_tinvariants - 1];
        }
        free(expr);
        f->occ_start = al_xrealloc(f->occ_start, (f->n_occ + 1) * sizeof(size_t));
        f->occ_end = al_xrealloc(f->occ_end, (f->n_occ + 1) * sizeof(size_t));
        f->occ_start[f->n_occ] = ts_node_start_byte(calls[i]);
        f->occ_end[f->n_occ] = ts_node_end_byte(calls[i]);
        f->n_occ++;
    }
}

void al_patterns_kernel(al_facts *facts, const al_pyfile *pf, const al_imports *im, TSNode func)
{
    const char *tl = al_imports_alias_for(im, "triton.language");
    k_ctx c = {pf, im, facts, func, tl ? tl : "triton.language"};
    kernel_blocks(&c, al_node_field(func, "body"), 0);
    loop_invariants(&c);
}
