#include "requirement.h"

#include "contract.h"
#include "module.h"
#include "prefix.h"
#include "values.h"
#include "../core/index.h"
#include "../../base/util.h"
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* `a*b` of the dims, parenthesised as the value texts nest products. */
static char *dims_product(char *const *dims, int n)
{
    al_strbuf sb = {0};
    al_strbuf_puts(&sb, "");
    for (int i = 0; i < n; i++) {
        bool op = strpbrk(dims[i], "+-*/%") != NULL;
        if (i >= 2) {
            char *prev = al_strbuf_detach(&sb);
            al_strbuf_printf(&sb, "(%s)", prev);
            free(prev);
        }
        al_strbuf_printf(&sb, "%s%s%s%s", i ? "*" : "", op && n > 1 ? "(" : "", dims[i],
                         op && n > 1 ? ")" : "");
    }
    return al_strbuf_detach(&sb);
}

/* What the buffer's allocation says about its size, as value texts: the
 * tensor it is made like (or whose `.shape` it is made with) and its
 * dims when they are spelled out. */
typedef struct {
    char *like;
    char *dims[AL_MAX_DIMS];
    int ndims; /* -1 unknown */
} size_facts;

/* Whether a value text is an int, not a shape: `x.numel()`, `x.shape[0]`,
 * `len(x)`, a literal. */
static bool int_text(const char *t)
{
    if (!*t)
        return false;
    if (strspn(t, "0123456789") == strlen(t) || al_str_ends_with(t, ".numel()") ||
        al_str_starts_with(t, "len("))
        return true;
    const char *sh = strstr(t, ".shape[");
    return sh && al_str_ends_with(t, "]") && !strchr(sh + 7, '.') && !strchr(sh + 7, '(');
}

/* A name whose value is arithmetic on sizes (`rows = (n + 127) // 128 *
 * 128`): a number, not a shape (a tuple's text has a comma). */
static bool scalar_arithmetic(const al_pyfile *pf, TSNode name, const char *value)
{
    if (!al_node_is(name, "identifier") || al_node_text_eq(pf, name, value) || strchr(value, ','))
        return false;
    return strpbrk(value, "+-*/%") != NULL;
}

static void read_size(const al_use_ctx *c, size_facts *sf)
{
    memset(sf, 0, sizeof *sf);
    sf->ndims = -1;
    const al_alloc_site *site = c->buf ? c->buf->site : NULL;
    if (!site)
        return;
    const al_pyfile *pf = c->env->pf;
    TSNode func = c->buf->func;
    bool like = site->factory == AL_FACTORY_ZEROS_LIKE || site->factory == AL_FACTORY_ONES_LIKE ||
                site->factory == AL_FACTORY_FULL_LIKE;
    if (like) {
        if (site->args.npos > 0)
            sf->like = al_value_text(pf, func, site->stmt, site->args.pos[0]);
        return;
    }
    if (site->size_multiple) {
        for (int i = 0; i < site->args.npos && i < AL_MAX_DIMS; i++)
            sf->dims[sf->ndims = i, i] = al_value_text(pf, func, site->stmt, site->args.pos[i]);
        sf->ndims = site->args.npos <= AL_MAX_DIMS ? site->args.npos : -1;
        return;
    }
    if (ts_node_is_null(site->size_expr))
        return;
    TSNode s = al_py_unparen(site->size_expr);
    if (al_node_is(s, "tuple") || al_node_is(s, "list")) {
        TSNode e[AL_MAX_DIMS];
        int n = al_py_elements(s, e, AL_MAX_DIMS);
        for (int i = 0; i < n; i++)
            if (al_node_is(e[i], "list_splat"))
                n = -1;
        for (int i = 0; i < n; i++)
            sf->dims[i] = al_value_text(pf, func, site->stmt, e[i]);
        sf->ndims = n;
        return;
    }
    char *t = al_value_text(pf, func, site->stmt, s);
    if (al_str_ends_with(t, ".shape")) {
        t[strlen(t) - 6] = '\0'; /* zeros(x.shape): made like x */
        sf->like = t;
    } else if (al_node_is(s, "integer") || al_node_is(s, "binary_operator") || int_text(t) ||
               scalar_arithmetic(pf, s, t)) {
        sf->dims[0] = t;
        sf->ndims = 1;
    } else {
        free(t); /* a name: an int or a shape, cannot tell */
    }
}

static void size_free(size_facts *sf)
{
    free(sf->like);
    for (int i = 0; i < AL_MAX_DIMS; i++)
        free(sf->dims[i]);
}

static bool text_is_fmt(const char *text, const char *fmt, const char *a)
{
    char want[512];
    snprintf(want, sizeof want, fmt, a);
    return !strcmp(text, want);
}

/* Parameter mode: `v` names a parameter of the function (its value). */
static int param_named(const al_use_ctx *c, const char *v)
{
    const al_strlist *ps = c->buf ? c->buf->params : NULL;
    for (size_t i = 0; ps && i < ps->n; i++)
        if (!strcmp(ps->items[i], v) && strcmp(v, c->buf->name))
            return (int)i;
    return -1;
}

/* Parameter mode: `v` is `<param>` + suffix; the parameter's index. */
static int param_with(const al_use_ctx *c, const char *v, const char *suffix)
{
    const al_strlist *ps = c->buf ? c->buf->params : NULL;
    size_t vl = strlen(v), sl = strlen(suffix);
    if (vl <= sl || strcmp(v + vl - sl, suffix))
        return -1;
    for (size_t i = 0; ps && i < ps->n; i++)
        if (strlen(ps->items[i]) == vl - sl && !strncmp(ps->items[i], v, vl - sl))
            return (int)i;
    return -1;
}

static int export_dim(al_use_ctx *c, al_req_kind kind, int param, int dim)
{
    al_req r = {.kind = kind, .param = param, .dim = dim};
    al_buffer_desc *b = c->buf;
    if (b->exported.kind == AL_REQ_NONE)
        b->exported = r;
    else if (b->exported.kind != kind || b->exported.param != param || b->exported.dim != dim)
        b->conflict = true;
    return 2;
}

static int export(al_use_ctx *c, al_req_kind kind, int param)
{
    al_req r = {.kind = kind, .param = param};
    al_buffer_desc *b = c->buf;
    if (b->exported.kind == AL_REQ_NONE)
        b->exported = r;
    else if (b->exported.kind != kind || b->exported.param != param)
        b->conflict = true;
    return 2;
}

/* A one-dimensional buffer's size is the sum of the segment lengths a
 * launch proved its starts the prefix sum of (prefix.h). */
static bool size_is_sum(const al_use_ctx *c, TSNode call, const al_req *r, const size_facts *sf)
{
    const al_pyfile *pf = c->env->pf;
    TSNode func = c->buf->func;
    const al_alloc_site *site = c->buf->site;
    if (!site)
        return false;
    TSNode size_node = site->size_multiple && site->args.npos == 1 ? site->args.pos[0] : site->size_expr;
    if (ts_node_is_null(size_node) || (sf->ndims != 1 && (sf->ndims >= 0 || sf->like)))
        return false;
    char *own = sf->ndims == 1 ? al_xstrdup(sf->dims[0]) : al_value_text(pf, func, site->stmt, size_node);
    bool met = al_prefix_size_is_sum(pf, func, call, site->stmt, size_node, own, r->node, r->node2,
                                     r->node3, r->node4);
    free(own);
    return met;
}

/* Whether the buffer meets a callee's requirement at `call`: 1 yes, 0 not
 * proved, 2 yes if the function's caller proves it (exported). */
int al_requirement_met(const al_use_ctx *c, TSNode call, const al_req *r)
{
    if (r->kind == AL_REQ_NONE)
        return 1;
    if (!c->buf || ts_node_is_null(r->node) || !ts_node_is_null(c->buf->size_moved))
        return 0;
    al_use_ctx *mc = (al_use_ctx *)c;
    const al_pyfile *pf = c->env->pf;
    const char *name = c->buf->name;
    TSNode func = c->buf->func;
    size_facts sf;
    read_size(c, &sf);
    char *v = al_value_text(pf, func, call, r->node);
    int met = 0, q;
    char *product = sf.ndims > 0 ? dims_product(sf.dims, sf.ndims) : NULL;
    switch (r->kind) {
    case AL_REQ_NONE:
        met = 1;
        break;
    case AL_REQ_NUMEL_IS_VALUE:
        if (text_is_fmt(v, "%s.numel()", name) || (sf.like && text_is_fmt(v, "%s.numel()", sf.like)) ||
            (product && !strcmp(v, product)))
            met = 1;
        else if (!c->buf->site && (q = param_named(c, v)) >= 0)
            met = export(mc, AL_REQ_NUMEL_IS_VALUE, q);
        else if (!c->buf->site && (q = param_with(c, v, ".numel()")) >= 0)
            met = export(mc, AL_REQ_NUMEL_IS_NUMEL, q);
        break;
    case AL_REQ_NUMEL_IS_NUMEL:
    case AL_REQ_SHAPE_IS_SHAPE:
        if (!strcmp(v, name) || (sf.like && !strcmp(v, sf.like)))
            met = 1;
        else if (!c->buf->site && (q = param_named(c, v)) >= 0)
            met = export(mc, r->kind, q);
        break;
    case AL_REQ_NUMEL_IS_SUM:
        met = size_is_sum(c, call, r, &sf) ? 1 : 0;
        break;
    case AL_REQ_ROWS_OF: {
        /* The buffer's first dimension: its own, and as it was made. */
        char own[512];
        snprintf(own, sizeof own, "%s.shape[0]", sf.like ? sf.like : name);
        const char *mine[2] = {own, sf.ndims >= 1 ? sf.dims[0] : NULL};
        if (al_value_rows_match(pf, func, call, r->node, r->dim, mine, 2))
            met = 1;
        else if (!c->buf->site && (q = param_named(c, v)) >= 0)
            met = export_dim(mc, AL_REQ_ROWS_OF, q, r->dim);
        break;
    }
    case AL_REQ_SHAPE_DIMS: {
        /* Each extent is one of the buffer's dimensions, and it has no
         * other: the sizes a fresh allocation was made with, or `t.shape[i]`
         * unpacked from a shape of exactly that many dimensions (`M, N =
         * t.shape`: the arity is in the value text; `t.shape[0]` alone says
         * nothing of a third dimension), t the buffer itself or the tensor
         * `zeros_like` copied. Strides that are products of the extents
         * inside them span only a dense buffer's storage (a fresh one);
         * mixed with the buffer's own (`buf.stride(0)` beside an implied
         * 1), only a row-major one's, which `zeros_like` of a permuted
         * tensor is not. */
        bool fresh = c->buf->site != NULL;
        TSNode ext[3] = {r->node, r->node2, r->node3};
        if (r->dim < 1 || r->dim > 3 || (r->products && !fresh) || (r->contiguous && sf.like))
            break;
        met = 1;
        for (int i = 0; i < r->dim && met; i++) {
            char *e = i == 0 ? al_xstrdup(v) : al_value_text(pf, func, call, ext[i]);
            char own[600], like[600];
            snprintf(own, sizeof own, "%s.shape[%dof%d]", name, i, r->dim);
            snprintf(like, sizeof like, "%s.shape[%dof%d]", sf.like ? sf.like : "", i, r->dim);
            met = !strcmp(e, own) ||
                  (fresh && sf.ndims == r->dim && al_value_text_same(e, sf.dims[i])) ||
                  (fresh && sf.like && !strcmp(e, like));
            free(e);
        }
        break;
    }
    case AL_REQ_ROWS: {
        char *cols = al_value_text(pf, func, call, r->node2);
        char *stride = al_value_text(pf, func, call, r->node3);
        bool flat = !strcmp(stride, cols); /* row stride = row length: [0, rows * cols) */
        char rows_of[512], cols_of[512];
        const char *who = sf.like ? sf.like : name;
        snprintf(rows_of, sizeof rows_of, "%s.shape[0of2]", who);
        snprintf(cols_of, sizeof cols_of, "%s.shape[1of2]", who);
        bool fresh_2d = sf.ndims == 2 && !strcmp(v, sf.dims[0]) && !strcmp(cols, sf.dims[1]);
        if (flat && (fresh_2d || (!strcmp(v, rows_of) && !strcmp(cols, cols_of))))
            met = 1;
        else if (fresh_2d && text_is_fmt(stride, "%s.stride(0)", name))
            met = 1; /* a fresh zeros((M, N)) is contiguous */
        else if (flat && !c->buf->site && (q = param_with(c, v, ".shape[0of2]")) >= 0 &&
                 param_with(c, cols, ".shape[1of2]") == q)
            met = export(mc, AL_REQ_NUMEL_IS_NUMEL, q);
        free(cols);
        free(stride);
        break;
    }
    }
    free(product);
    free(v);
    size_free(&sf);
    return met;
}

/* Whether the buffer's element count, as its dims spell it, is built from
 * the count a writer covers and is not that count (`head_dim + 1` against
 * `head_dim`, `(n + 127) // 128 * 128` against `n`): the writer leaves the
 * rest, a padding whose fill the code keeps on purpose. NULL, or the
 * buffer's count (the caller frees it). */
char *al_padded_past(const al_use_ctx *c, const char *covered)
{
    size_facts sf;
    read_size(c, &sf);
    char *product = sf.ndims > 0 ? dims_product(sf.dims, sf.ndims) : NULL;
    size_free(&sf);
    if (!product || !strcmp(product, covered) || !*covered) {
        free(product);
        return NULL;
    }
    size_t n = strlen(covered);
    for (const char *p = strstr(product, covered); p; p = strstr(p + 1, covered)) {
        bool left = p == product || !(isalnum((unsigned char)p[-1]) || p[-1] == '_' || p[-1] == '.');
        bool right = !(isalnum((unsigned char)p[n]) || p[n] == '_' || p[n] == '.' || p[n] == '(' ||
                       p[n] == '[');
        if (left && right)
            return product;
    }
    free(product);
    return NULL;
}

char *al_requirement_shown(const al_pyfile *pf, const al_req *r)
{
    if (r->kind != AL_REQ_SHAPE_DIMS)
        return ts_node_is_null(r->node) ? al_xstrdup("?") : al_node_text_compact(pf, r->node);
    al_strbuf ext = {0};
    const TSNode of[] = {r->node, r->node2, r->node3};
    for (int i = 0; i < r->dim && i < 3; i++) {
        char *t = ts_node_is_null(of[i]) ? al_xstrdup("?") : al_node_text_compact(pf, of[i]);
        al_strbuf_printf(&ext, "%s%s", i ? ", " : "", t);
        free(t);
    }
    return ext.data ? al_strbuf_detach(&ext) : al_xstrdup("?");
}
