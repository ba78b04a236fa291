#include "triton.h"

#include "extent.h"
#include "module.h"
#include "values.h"
#include "../python/syntax.h"
#include "../util.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------ */
/* Linear forms: a sum of terms, each a coefficient times factors.      */

#define MAX_TERMS 24
#define MAX_FACTORS 6

typedef struct {
    long coef;
    int nf;
    const char *f[MAX_FACTORS]; /* interned, sorted */
} term;

typedef struct {
    bool data; /* something loaded from memory is in it */
    int n;
    term t[MAX_TERMS];
} lin;

/* The facts about a kernel body that every form needs. */
typedef struct {
    const al_pyfile *pf;
    const al_pymodule *mod;
    TSNode def;
    al_interner strs;
    char **params;
    size_t nparams, capparams;
    TSNode *bumps;   /* per parameter: `P += e` once at the top level, or null */
    bool *bumped_twice;
    /* Locals: the value of each name assigned once (null when several). */
    const char **local_names;
    TSNode *local_values;
    int *local_counts;
    TSNode *local_loops; /* the for_statement binding it, or null */
    size_t nlocals, caplocals;
} kctx;

static int param_index(const kctx *k, const char *p, size_t len)
{
    for (size_t i = 0; i < k->nparams; i++)
        if (strlen(k->params[i]) == len && !memcmp(k->params[i], p, len))
            return (int)i;
    return -1;
}

/* The qualified name of a callee, with re-exports of triton.language
 * (`from vllm.triton_utils import tl`: a binding ending in `.tl`) spelled
 * as triton.language itself. */
static char *resolve_tl(const kctx *k, TSNode fn)
{
    char *q = al_imports_resolve(&k->mod->imports, k->pf, fn);
    if (!q || al_str_starts_with(q, "triton.language."))
        return q;
    TSNode base = fn;
    while (al_node_is(base, "attribute"))
        base = al_node_field(base, "object");
    size_t bl;
    const char *bp = al_node_ptr(k->pf, base, &bl);
    for (size_t i = 0; i < k->mod->imports.n; i++) {
        const al_import *im = &k->mod->imports.items[i];
        if (strlen(im->local) == bl && !memcmp(im->local, bp, bl) &&
            (al_str_ends_with(im->target, ".tl") || !strcmp(im->target, "tl"))) {
            size_t tl = strlen(im->target);
            if (strncmp(q, im->target, tl) == 0 && q[tl] == '.') {
                al_strbuf sb = {0};
                al_strbuf_printf(&sb, "triton.language%s", q + tl);
                free(q);
                return al_strbuf_detach(&sb);
            }
        }
    }
    return q;
}

static bool is_tl(const kctx *k, TSNode fn, const char *name)
{
    char want[64];
    snprintf(want, sizeof want, "triton.language.%s", name);
    char *q = resolve_tl(k, fn);
    bool yes = q && !strcmp(q, want);
    free(q);
    return yes;
}

static int local_of(const kctx *k, const char *p, size_t len)
{
    for (size_t i = 0; i < k->nlocals; i++)
        if (strlen(k->local_names[i]) == len && !memcmp(k->local_names[i], p, len))
            return (int)i;
    return -1;
}

static void note_local(kctx *k, TSNode name, TSNode value, TSNode loop, int weight)
{
    size_t len;
    const char *p = al_node_ptr(k->pf, name, &len);
    int i = local_of(k, p, len);
    if (i < 0) {
        const char *s = al_intern(&k->strs, p, len);
        TSNode none = {0};
        AL_PUSH(k->local_names, k->nlocals, k->caplocals, s);
        k->local_values = al_xrealloc(k->local_values, k->caplocals * sizeof(TSNode));
        k->local_counts = al_xrealloc(k->local_counts, k->caplocals * sizeof(int));
        k->local_loops = al_xrealloc(k->local_loops, k->caplocals * sizeof(TSNode));
        i = (int)k->nlocals - 1;
        k->local_values[i] = none;
        k->local_counts[i] = 0;
        k->local_loops[i] = none;
    }
    k->local_counts[i] += weight;
    k->local_values[i] = value;
    k->local_loops[i] = loop;
}

static void collect_locals(kctx *k, TSNode n, int depth)
{
    if (depth > 200)
        return;
    const char *t = ts_node_type(n);
    if (depth > 0 && (!strcmp(t, "function_definition") || !strcmp(t, "lambda")))
        return;
    TSNode none = {0};
    if (!strcmp(t, "assignment") || !strcmp(t, "augmented_assignment")) {
        TSNode left = al_node_field(n, "left"), right = al_node_field(n, "right");
        int weight = !strcmp(t, "augmented_assignment") ? 2 : 1;
        size_t len;
        const char *lp = al_node_is(left, "identifier") ? al_node_ptr(k->pf, left, &len) : NULL;
        int pi = lp ? param_index(k, lp, len) : -1;
        /* `Y += row * stride` at the top level: the pointer moves once. */
        if (pi >= 0 && weight == 2 && al_node_text_eq(k->pf, al_node_field(n, "operator"), "+=") &&
            ts_node_eq(ts_node_parent(ts_node_parent(n)), al_node_field(k->def, "body"))) {
            if (!ts_node_is_null(k->bumps[pi]))
                k->bumped_twice[pi] = true;
            k->bumps[pi] = right;
        } else if (al_node_is(left, "identifier")) {
            note_local(k, left, right, none, weight);
        } else if (al_node_is(left, "pattern_list") || al_node_is(left, "tuple_pattern")) {
            TSNode r = al_py_unparen(right);
            bool pairs = (al_node_is(r, "expression_list") || al_node_is(r, "tuple")) &&
                         ts_node_named_child_count(r) == ts_node_named_child_count(left);
            uint32_t m = ts_node_named_child_count(left);
            for (uint32_t i = 0; i < m; i++) {
                TSNode e = ts_node_named_child(left, i);
                if (al_node_is(e, "identifier"))
                    note_local(k, e, pairs ? ts_node_named_child(r, i) : none, none, pairs ? 1 : 2);
            }
        }
    } else if (!strcmp(t, "for_statement")) {
        TSNode left = al_node_field(n, "left");
        if (al_node_is(left, "identifier"))
            note_local(k, left, none, n, 1);
    }
    uint32_t m = ts_node_named_child_count(n);
    for (uint32_t i = 0; i < m; i++)
        collect_locals(k, ts_node_named_child(n, i), depth + 1);
}

static const char *factor(kctx *k, const char *fmt, const char *a)
{
    char buf[256];
    snprintf(buf, sizeof buf, fmt, a);
    return al_intern(&k->strs, buf, strlen(buf));
}

static int cmp_str(const void *x, const void *y)
{
    return strcmp(*(const char *const *)x, *(const char *const *)y);
}

static bool term_same(const term *a, const term *b)
{
    if (a->nf != b->nf)
        return false;
    for (int i = 0; i < a->nf; i++)
        if (a->f[i] != b->f[i])
            return false;
    return true;
}

static void add_term(lin *l, term t)
{
    if (t.coef == 0)
        return;
    qsort(t.f, (size_t)t.nf, sizeof t.f[0], cmp_str);
    for (int i = 0; i < l->n; i++)
        if (term_same(&l->t[i], &t)) {
            l->t[i].coef += t.coef;
            if (l->t[i].coef == 0)
                l->t[i] = l->t[--l->n];
            return;
        }
    if (l->n < MAX_TERMS)
        l->t[l->n++] = t;
}

static lin single(kctx *k, const char *f, bool data)
{
    (void)k;
    lin l = {data, 0, {{0}}};
    term t = {1, 1, {f}};
    add_term(&l, t);
    return l;
}

static lin constant(long v)
{
    lin l = {false, 0, {{0}}};
    term t = {v, 0, {NULL}};
    add_term(&l, t);
    return l;
}

static lin sum(lin a, const lin *b, long sign)
{
    a.data |= b->data;
    for (int i = 0; i < b->n; i++) {
        term t = b->t[i];
        t.coef *= sign;
        add_term(&a, t);
    }
    return a;
}

static lin product(kctx *k, const lin *a, const lin *b, TSNode at)
{
    lin r = {a->data || b->data, 0, {{0}}};
    if (a->n * b->n > MAX_TERMS) {
        char *t = al_node_text_compact(k->pf, at);
        lin o = single(k, factor(k, "?%s", t), r.data);
        free(t);
        return o;
    }
    for (int i = 0; i < a->n; i++)
        for (int j = 0; j < b->n; j++) {
            term t = {a->t[i].coef * b->t[j].coef, 0, {NULL}};
            for (int x = 0; x < a->t[i].nf && t.nf < MAX_FACTORS; x++)
                t.f[t.nf++] = a->t[i].f[x];
            for (int x = 0; x < b->t[j].nf && t.nf < MAX_FACTORS; x++)
                t.f[t.nf++] = b->t[j].f[x];
            add_term(&r, t);
        }
    return r;
}

static bool lin_eq(const lin *a, const lin *b)
{
    if (a->n != b->n)
        return false;
    for (int i = 0; i < a->n; i++) {
        bool found = false;
        for (int j = 0; j < b->n && !found; j++)
            found = term_same(&a->t[i], &b->t[j]) && a->t[i].coef == b->t[j].coef;
        if (!found)
            return false;
    }
    return true;
}

static bool has_load(const kctx *k, TSNode n, int depth);

static lin form(kctx *k, TSNode n, int depth);

/* An expression the forms do not understand: one opaque factor. */
static lin opaque(kctx *k, TSNode n)
{
    char *t = al_node_text_compact(k->pf, n);
    lin l = single(k, factor(k, "?%s", t), has_load(k, n, 0));
    free(t);
    return l;
}

static lin call_form(kctx *k, TSNode n, int depth)
{
    TSNode fn = al_node_field(n, "function");
    al_py_args a;
    al_py_args_read(n, &a);
    if (is_tl(k, fn, "program_id") || is_tl(k, fn, "num_programs")) {
        TSNode axis = a.npos > 0 ? a.pos[0] : al_py_kwarg(k->pf, &a, "axis");
        long v = 0;
        if (!ts_node_is_null(axis) && !al_py_parse_long(k->pf, axis, &v))
            return opaque(k, n);
        char num[8];
        snprintf(num, sizeof num, "%ld", v);
        return single(k, factor(k, is_tl(k, fn, "program_id") ? "PID%s" : "NPROG%s", num), false);
    }
    if (is_tl(k, fn, "arange") && a.npos == 2 && al_node_text_eq(k->pf, a.pos[0], "0")) {
        char *hi = al_node_text_compact(k->pf, a.pos[1]);
        lin l = single(k, factor(k, "AR(%s)", hi), false);
        free(hi);
        return l;
    }
    if (is_tl(k, fn, "load"))
        return single(k, factor(k, "%s", "LOADED"), true);
    /* Hints and casts keep the value: x.to(...), tl.multiple_of(x, ...). */
    if ((is_tl(k, fn, "multiple_of") || is_tl(k, fn, "max_contiguous")) && a.npos >= 1)
        return form(k, a.pos[0], depth + 1);
    if (al_node_is(fn, "attribute") && al_py_last_name_is(k->pf, fn, "to"))
        return form(k, al_node_field(fn, "object"), depth + 1);
    return opaque(k, n);
}

static lin identifier_form(kctx *k, TSNode n, int depth)
{
    size_t len;
    const char *p = al_node_ptr(k->pf, n, &len);
    int li = local_of(k, p, len);
    if (li >= 0) {
        if (!ts_node_is_null(k->local_loops[li]) && k->local_counts[li] == 1)
            return single(k, al_intern(&k->strs, p, len), false); /* a loop variable */
        if (k->local_counts[li] == 1 && !ts_node_is_null(k->local_values[li]))
            return form(k, k->local_values[li], depth + 1);
        return opaque(k, n);
    }
    int pi = param_index(k, p, len);
    if (pi >= 0 && k->bumped_twice[pi])
        return opaque(k, n);
    if (pi >= 0) {
        lin l = single(k, factor(k, "P:%s", k->params[pi]), false);
        if (!ts_node_is_null(k->bumps[pi])) {
            lin b = form(k, k->bumps[pi], depth + 1);
            l = sum(l, &b, 1);
        }
        return l;
    }
    return opaque(k, n);
}

/* x[:, None] / x[None, :]: the aranges in x become rows or columns. */
static lin broadcast_form(kctx *k, TSNode n, int depth)
{
    TSNode subs[2];
    size_t ns = al_node_field_children(n, "subscript", subs, 2);
    if (ns != 2)
        return opaque(k, n);
    const char *tag = NULL;
    if (al_node_is(subs[0], "slice") && al_node_is(subs[1], "none"))
        tag = "@r";
    else if (al_node_is(subs[0], "none") && al_node_is(subs[1], "slice"))
        tag = "@c";
    if (!tag)
        return opaque(k, n);
    lin l = form(k, al_node_field(n, "value"), depth + 1);
    for (int i = 0; i < l.n; i++)
        for (int j = 0; j < l.t[i].nf; j++)
            if (!strncmp(l.t[i].f[j], "AR(", 3)) {
                char buf[256];
                snprintf(buf, sizeof buf, "%s%s", l.t[i].f[j], tag);
                l.t[i].f[j] = al_intern(&k->strs, buf, strlen(buf));
            }
    return l;
}

static lin form(kctx *k, TSNode n, int depth)
{
    n = al_py_unparen(n);
    if (depth > 24)
        return opaque(k, n);
    long v;
    if (al_py_parse_long(k->pf, n, &v))
        return constant(v);
    if (al_node_is(n, "identifier"))
        return identifier_form(k, n, depth);
    if (al_node_is(n, "call"))
        return call_form(k, n, depth);
    if (al_node_is(n, "subscript"))
        return broadcast_form(k, n, depth);
    if (al_node_is(n, "unary_operator") &&
        al_node_text_eq(k->pf, al_node_field(n, "operator"), "-")) {
        lin a = form(k, al_node_field(n, "argument"), depth + 1);
        return sum(constant(0), &a, -1);
    }
    if (al_node_is(n, "binary_operator")) {
        TSNode op = al_node_field(n, "operator");
        lin a = form(k, al_node_field(n, "left"), depth + 1);
        lin b = form(k, al_node_field(n, "right"), depth + 1);
        if (al_node_text_eq(k->pf, op, "+"))
            return sum(a, &b, 1);
        if (al_node_text_eq(k->pf, op, "-"))
            return sum(a, &b, -1);
        if (al_node_text_eq(k->pf, op, "*"))
            return product(k, &a, &b, n);
    }
    return opaque(k, n);
}

/* Whether n reads memory: a tl.load in it, or in a local it names. */
static bool has_load(const kctx *k, TSNode n, int depth)
{
    if (depth > 60)
        return true;
    if (al_node_is(n, "call") && is_tl(k, al_node_field(n, "function"), "load"))
        return true;
    if (al_node_is(n, "identifier")) {
        size_t len;
        const char *p = al_node_ptr(k->pf, n, &len);
        int li = local_of(k, p, len);
        if (li >= 0 && !ts_node_is_null(k->local_values[li]))
            return has_load(k, k->local_values[li], depth + 1);
        return false;
    }
    uint32_t m = ts_node_named_child_count(n);
    for (uint32_t i = 0; i < m; i++)
        if (has_load(k, ts_node_named_child(n, i), depth + 1))
            return true;
    return false;
}

/* ------------------------------------------------------------------ */
/* Accesses of a parameter                                              */

/* The parameter a pointer form is based on: the one term that is a lone
 * parameter with coefficient 1. -1 when there is none (or two). */
static int base_param(const kctx *k, const lin *l, int *term_index)
{
    int found = -1;
    for (int i = 0; i < l->n; i++)
        if (l->t[i].coef == 1 && l->t[i].nf == 1 && !strncmp(l->t[i].f[0], "P:", 2)) {
            if (found >= 0)
                return -1;
            found = param_index(k, l->t[i].f[0] + 2, strlen(l->t[i].f[0] + 2));
            *term_index = i;
        }
    return found;
}

static lin without_term(lin l, int i)
{
    l.t[i] = l.t[--l.n];
    return l;
}

/* The term whose factors are exactly {a} or {a, b} (b may be NULL). */
static int find_term(const lin *l, const char *a, const char *b)
{
    for (int i = 0; i < l->n; i++) {
        const term *t = &l->t[i];
        if (t->coef != 1)
            continue;
        if (!b && t->nf == 1 && t->f[0] == a)
            return i;
        if (b && t->nf == 2 && ((t->f[0] == a && t->f[1] == b) || (t->f[0] == b && t->f[1] == a)))
            return i;
    }
    return -1;
}

/* The parameter a lone-parameter form names, or -1. */
static int lone_param(const kctx *k, const lin *l)
{
    if (l->n != 1 || l->t[0].coef != 1 || l->t[0].nf != 1 || strncmp(l->t[0].f[0], "P:", 2))
        return -1;
    return param_index(k, l->t[0].f[0] + 2, strlen(l->t[0].f[0] + 2));
}

static void set_why(al_kparam *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void set_why(al_kparam *p, const char *fmt, ...)
{
    al_strbuf sb = {0};
    va_list ap;
    va_start(ap, fmt);
    char buf[600];
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    al_strbuf_puts(&sb, buf);
    free(p->why);
    p->why = al_strbuf_detach(&sb);
}

/* `mask=A < N` (or a local assigned it once): the forms of A and N. */
static bool bound_of(kctx *k, TSNode mask, lin *lhs, lin *rhs)
{
    mask = al_py_unparen(mask);
    for (int hop = 0; hop < 4 && al_node_is(mask, "identifier"); hop++) {
        size_t len;
        const char *p = al_node_ptr(k->pf, mask, &len);
        int li = local_of(k, p, len);
        if (li < 0 || k->local_counts[li] != 1 || ts_node_is_null(k->local_values[li]))
            return false;
        mask = al_py_unparen(k->local_values[li]);
    }
    if (!al_node_is(mask, "comparison_operator") || ts_node_named_child_count(mask) != 2)
        return false;
    uint32_t nc = ts_node_child_count(mask);
    const char *op = NULL;
    for (uint32_t i = 0; i < nc; i++)
        if (!ts_node_is_named(ts_node_child(mask, i)))
            op = ts_node_type(ts_node_child(mask, i));
    TSNode l = ts_node_named_child(mask, 0), r = ts_node_named_child(mask, 1);
    if (op && !strcmp(op, "<")) {
        *lhs = form(k, l, 0);
        *rhs = form(k, r, 0);
        return true;
    }
    if (op && !strcmp(op, ">")) {
        *lhs = form(k, r, 0);
        *rhs = form(k, l, 0);
        return true;
    }
    return false;
}

/* for v in range(0, N, B) — or the grid-stride range(pid * B, N,
 * num_programs * B), axis set: the bound N; false for any other loop. */
static bool block_loop(kctx *k, TSNode loop, const char *block, lin *bound, int *axis)
{
    TSNode it = al_node_field(loop, "right");
    if (!al_node_is(it, "call") || !al_node_text_eq(k->pf, al_node_field(it, "function"), "range"))
        return false;
    al_py_args a;
    al_py_args_read(it, &a);
    if (a.npos != 3 || a.nkw || a.splat)
        return false;
    lin start = form(k, a.pos[0], 0), step = form(k, a.pos[2], 0);
    *bound = form(k, a.pos[1], 0);
    *axis = -1;
    if (start.n == 0 && !start.data)
        return al_node_text_eq(k->pf, al_py_unparen(a.pos[2]), block);
    const char *bp = factor(k, "P:%s", block);
    for (int ax = 0; ax < 3; ax++) {
        char pid[8], np[8];
        snprintf(pid, sizeof pid, "PID%d", ax);
        snprintf(np, sizeof np, "NPROG%d", ax);
        const char *pf = al_intern(&k->strs, pid, strlen(pid));
        const char *nf = al_intern(&k->strs, np, strlen(np));
        if (start.n == 1 && find_term(&start, pf, bp) == 0 && step.n == 1 &&
            find_term(&step, nf, bp) == 0) {
            *axis = ax;
            return true;
        }
    }
    return false;
}

/* The one structure a store may sit in: loops over blocks whose variable
 * its offsets use. Conditions and other loops make it partial. */
static bool store_context(kctx *k, TSNode store, al_kparam *p, bool *skips)
{
    for (TSNode n = ts_node_parent(store); !ts_node_is_null(n) && !ts_node_eq(n, k->def);
         n = ts_node_parent(n)) {
        if (al_node_is(n, "if_statement") || al_node_is(n, "elif_clause") ||
            al_node_is(n, "else_clause")) {
            TSNode cond = al_node_field(al_node_is(n, "else_clause") ? ts_node_parent(n) : n,
                                        "condition");
            char *c = al_node_text_compact(k->pf, cond);
            if (has_load(k, cond, 0)) {
                *skips = true;
                set_why(p, "stores only when `%s`, which depends on loaded data", c);
            } else {
                set_why(p, "stores only when `%s`", c);
            }
            free(c);
            return false;
        }
        if (al_node_is(n, "while_statement")) {
            set_why(p, "stores inside a while loop");
            return false;
        }
    }
    return true;
}

/* The exits (return, break, continue) of the kernel, but a last
 * top-level return, which ends it anyway. */
static void find_exits(kctx *k, TSNode n, TSNode *exits, size_t *nexits, size_t max, int depth)
{
    if (depth > 200 || *nexits >= max)
        return;
    if (depth > 0 && (al_node_is(n, "function_definition") || al_node_is(n, "lambda")))
        return;
    if (al_node_is(n, "return_statement") || al_node_is(n, "break_statement") ||
        al_node_is(n, "continue_statement")) {
        TSNode body = al_node_field(k->def, "body");
        bool last = ts_node_eq(ts_node_parent(n), body) &&
                    ts_node_eq(n, ts_node_named_child(body, ts_node_named_child_count(body) - 1));
        if (!last)
            exits[(*nexits)++] = n;
    }
    uint32_t m = ts_node_named_child_count(n);
    for (uint32_t i = 0; i < m; i++)
        find_exits(k, ts_node_named_child(n, i), exits, nexits, max, depth + 1);
}

/* Whether an exit may be taken on loaded data: an `if` around it whose
 * condition reads memory. */
static bool exit_on_data(const kctx *k, TSNode exit, char **cond_text)
{
    for (TSNode q = ts_node_parent(exit); !ts_node_is_null(q) && !ts_node_eq(q, k->def);
         q = ts_node_parent(q)) {
        if (!al_node_is(q, "if_statement") && !al_node_is(q, "elif_clause") &&
            !al_node_is(q, "while_statement"))
            continue;
        TSNode cond = al_node_field(q, "condition");
        if (!*cond_text)
            *cond_text = al_node_text_compact(k->pf, cond);
        if (has_load(k, cond, 0)) {
            free(*cond_text);
            *cond_text = al_node_text_compact(k->pf, cond);
            return true;
        }
    }
    return false;
}

static const char *param_of_factor(const char *f)
{
    return !strncmp(f, "P:", 2) ? f + 2 : NULL;
}

/* The cover a single, unconditional store proves, or why it does not. */
static void cover_of_store(kctx *k, TSNode call, al_kparam *p)
{
    al_py_args a;
    al_py_args_read(call, &a);
    TSNode ptr = a.npos > 0 ? a.pos[0] : al_py_kwarg(k->pf, &a, "pointer");
    TSNode mask = a.npos > 2 ? a.pos[2] : al_py_kwarg(k->pf, &a, "mask");
    lin pl = form(k, ptr, 0);
    int bt = -1;
    base_param(k, &pl, &bt);
    lin off = without_term(pl, bt);
    char *ptext = al_node_text_compact(k->pf, ptr);
    TSNode shown = al_py_unparen(mask);
    for (int hop = 0; hop < 4 && al_node_is(shown, "identifier"); hop++) {
        size_t len;
        const char *mp = al_node_ptr(k->pf, shown, &len);
        int li = local_of(k, mp, len);
        if (li < 0 || k->local_counts[li] != 1 || ts_node_is_null(k->local_values[li]))
            break;
        shown = al_py_unparen(k->local_values[li]);
    }
    char *mtext = ts_node_is_null(mask) ? al_xstrdup("(none)") : al_node_text_compact(k->pf, shown);
    p->effect = AL_EFFECT_WRITES_SOME;
    set_why(p, "stores `%s` under mask `%s`; could not prove the stores cover the buffer", ptext,
            mtext);
    lin lhs, rhs;
    if (off.data || (!ts_node_is_null(mask) && has_load(k, mask, 0))) {
        set_why(p, "stores `%s` under mask `%s`, at offsets or under a bound read from memory",
                ptext, mtext);
    } else if (!ts_node_is_null(mask) && bound_of(k, mask, &lhs, &rhs) && lone_param(k, &rhs) >= 0) {
        int n = lone_param(k, &rhs);
        /* Which arange, on which axis: find an AR factor in off. */
        for (int i = 0; i < off.n && p->cover == AL_TCOVER_NONE; i++) {
            if (off.t[i].nf != 1 || off.t[i].coef != 1 || strncmp(off.t[i].f[0], "AR(", 3) ||
                strchr(off.t[i].f[0], '@'))
                continue;
            const char *ar = off.t[i].f[0];
            char block[200];
            snprintf(block, sizeof block, "%.*s", (int)(strlen(ar) - 4), ar + 3);
            const char *bp = factor(k, "P:%s", block);
            lin rest = without_term(off, i);
            bool block_is_param = param_index(k, block, strlen(block)) >= 0;
            /* grid blocks: off = pid * BLOCK + arange(BLOCK), mask off < n */
            for (int ax = 0; ax < 3 && rest.n == 1 && lin_eq(&lhs, &off); ax++) {
                char pid[8];
                snprintf(pid, sizeof pid, "PID%d", ax);
                const char *pf = al_intern(&k->strs, pid, strlen(pid));
                long bv;
                bool const_block = !block_is_param && sscanf(block, "%ld", &bv) == 1;
                if ((block_is_param && find_term(&rest, pf, bp) == 0) ||
                    (const_block && rest.t[0].nf == 1 && rest.t[0].f[0] == pf && rest.t[0].coef == bv)) {
                    p->cover = AL_TCOVER_GRID;
                    p->axis = ax;
                    p->n = n;
                    p->block = block_is_param ? param_index(k, block, strlen(block)) : -1;
                    p->block_text = al_xstrdup(block);
                }
            }
            /* a loop over blocks: off = start + arange(BLOCK) */
            if (p->cover == AL_TCOVER_NONE && rest.n == 1 && rest.t[0].nf == 1 &&
                rest.t[0].coef == 1 && lin_eq(&lhs, &off)) {
                size_t vl = strlen(rest.t[0].f[0]);
                int li = local_of(k, rest.t[0].f[0], vl);
                lin bound;
                int axis;
                if (li >= 0 && !ts_node_is_null(k->local_loops[li]) &&
                    block_loop(k, k->local_loops[li], block, &bound, &axis) &&
                    lin_eq(&bound, &rhs)) {
                    p->cover = AL_TCOVER_LOOP;
                    p->n = n;
                }
            }
            /* rows: off = pid * stride + arange(BLOCK_N) (+ a column loop), mask cols < n */
            for (int ax = 0; ax < 3 && p->cover == AL_TCOVER_NONE; ax++) {
                char pid[8];
                snprintf(pid, sizeof pid, "PID%d", ax);
                const char *pf = al_intern(&k->strs, pid, strlen(pid));
                for (int j = 0; j < rest.n; j++) {
                    const term *t = &rest.t[j];
                    if (t->coef != 1 || t->nf != 2)
                        continue;
                    const char *other = t->f[0] == pf ? t->f[1] : t->f[1] == pf ? t->f[0] : NULL;
                    const char *sp = other ? param_of_factor(other) : NULL;
                    if (!sp)
                        continue;
                    lin cols = without_term(rest, j);
                    lin ar_only = single(k, ar, false);
                    cols = sum(cols, &ar_only, 1);
                    if (!lin_eq(&lhs, &cols))
                        continue;
                    bool loop = cols.n == 2;
                    if (loop) {
                        int ci = cols.t[0].f[0] == ar ? 1 : 0;
                        int li = cols.t[ci].nf == 1 ? local_of(k, cols.t[ci].f[0], strlen(cols.t[ci].f[0])) : -1;
                        lin bound;
                        int axis;
                        if (li < 0 || ts_node_is_null(k->local_loops[li]) ||
                            !block_loop(k, k->local_loops[li], block, &bound, &axis) || axis >= 0 ||
                            !lin_eq(&bound, &rhs))
                            continue;
                    } else if (cols.n != 1 || !block_is_param) {
                        continue;
                    }
                    p->cover = AL_TCOVER_ROWS;
                    p->axis = ax;
                    p->n = n;
                    p->stride = param_index(k, sp, strlen(sp));
                    p->block_cols = loop ? -1 : param_index(k, block, strlen(block));
                    break;
                }
            }
        }
    }
    if (p->cover != AL_TCOVER_NONE) {
        p->effect = AL_EFFECT_WRITES_ALL;
        set_why(p, "stores `%s` under mask `%s`: %s", ptext, mtext,
                p->cover == AL_TCOVER_GRID ? "one block of the bound per program"
                : p->cover == AL_TCOVER_LOOP ? "every block of the bound, in a loop"
                                             : "one row per program, every column");
    }
    free(ptext);
    free(mtext);
}

typedef struct {
    int stores, atomics, loads, other, block_stores;
    TSNode store, first;
} uses_of;

/* The parameter a block pointer is made from: `p = tl.make_block_ptr(P,
 * ...)` (a local assigned once), or -1. */
static int block_base(kctx *k, TSNode ptr)
{
    ptr = al_py_unparen(ptr);
    if (al_node_is(ptr, "identifier")) {
        size_t len;
        const char *p = al_node_ptr(k->pf, ptr, &len);
        int li = local_of(k, p, len);
        if (li < 0 || k->local_counts[li] != 1 || ts_node_is_null(k->local_values[li]))
            return -1;
        ptr = al_py_unparen(k->local_values[li]);
    }
    if (!al_node_is(ptr, "call") || !is_tl(k, al_node_field(ptr, "function"), "make_block_ptr"))
        return -1;
    al_py_args a;
    al_py_args_read(ptr, &a);
    TSNode base = a.npos > 0 ? a.pos[0] : al_py_kwarg(k->pf, &a, "base");
    if (ts_node_is_null(base))
        return -1;
    lin l = form(k, base, 0);
    int bt;
    return base_param(k, &l, &bt);
}

/* Every call in the kernel that touches a parameter's memory. */
static void scan_calls(kctx *k, TSNode n, uses_of *u, int depth)
{
    if (depth > 200)
        return;
    if (depth > 0 && (al_node_is(n, "function_definition") || al_node_is(n, "lambda")))
        return;
    if (al_node_is(n, "call")) {
        TSNode fn = al_node_field(n, "function");
        al_py_args a;
        al_py_args_read(n, &a);
        const char *kind = NULL;
        if (is_tl(k, fn, "store"))
            kind = "store";
        else if (is_tl(k, fn, "load"))
            kind = "load";
        else {
            char *q = resolve_tl(k, fn);
            if (q && al_str_starts_with(q, "triton.language.atomic_"))
                kind = "atomic";
            else if (!q || !al_str_starts_with(q, "triton.language."))
                kind = "call";
            free(q);
        }
        /* Through a block pointer: attributed to the parameter it wraps. */
        int bb = -1;
        if (kind && (!strcmp(kind, "store") || !strcmp(kind, "load") || !strcmp(kind, "atomic")) &&
            a.npos > 0 && (bb = block_base(k, a.pos[0])) >= 0) {
            uses_of *x = &u[bb];
            if (!strcmp(kind, "store"))
                x->block_stores++;
            else if (!strcmp(kind, "load"))
                x->loads++;
            else
                x->atomics++;
            if (ts_node_is_null(x->first))
                x->first = n;
            kind = NULL;
        }
        if (kind) {
            int nargs = !strcmp(kind, "call") ? a.nall : (a.npos > 0 ? 1 : 0);
            for (int i = 0; i < nargs; i++) {
                TSNode arg = !strcmp(kind, "call") ? a.all[i] : a.pos[0];
                if (al_node_is(arg, "keyword_argument"))
                    arg = al_node_field(arg, "value");
                lin l = form(k, arg, 0);
                int bt;
                for (size_t pi = 0; pi < k->nparams; pi++) {
                    int base = base_param(k, &l, &bt);
                    if (base != (int)pi)
                        continue;
                    uses_of *x = &u[pi];
                    if (!strcmp(kind, "store")) {
                        x->stores++;
                        x->store = n;
                    } else if (!strcmp(kind, "load")) {
                        x->loads++;
                    } else if (!strcmp(kind, "atomic")) {
                        x->atomics++;
                    } else {
                        x->other++;
                    }
                    if (ts_node_is_null(x->first))
                        x->first = n;
                }
            }
        }
    }
    uint32_t m = ts_node_named_child_count(n);
    for (uint32_t i = 0; i < m; i++)
        scan_calls(k, ts_node_named_child(n, i), u, depth + 1);
}

static void read_params(kctx *k)
{
    TSNode params = al_node_field(k->def, "parameters");
    uint32_t m = ts_node_named_child_count(params);
    for (uint32_t i = 0; i < m; i++) {
        TSNode p = ts_node_named_child(params, i);
        TSNode id = p;
        if (!al_node_is(id, "identifier"))
            id = al_node_is(p, "typed_parameter") ? ts_node_named_child(p, 0) : al_node_field(p, "name");
        char *name = ts_node_is_null(id) ? al_xstrdup("?") : al_node_text(k->pf, id);
        AL_PUSH(k->params, k->nparams, k->capparams, name);
    }
}

void al_triton_summarise(const al_pyfile *pf, const al_pymodule *mod, TSNode def, al_kernel *out)
{
    memset(out, 0, sizeof *out);
    kctx k;
    memset(&k, 0, sizeof k);
    k.pf = pf;
    k.mod = mod;
    k.def = def;
    read_params(&k);
    k.bumps = al_xcalloc(k.nparams ? k.nparams : 1, sizeof(TSNode));
    k.bumped_twice = al_xcalloc(k.nparams ? k.nparams : 1, sizeof(bool));
    TSNode body = al_node_field(def, "body");
    collect_locals(&k, body, 0);
    uses_of *u = al_xcalloc(k.nparams ? k.nparams : 1, sizeof *u);
    scan_calls(&k, body, u, 0);
    TSNode exits[32];
    size_t nexits = 0;
    find_exits(&k, body, exits, &nexits, 32, 0);
    out->n = k.nparams;
    out->names = k.params;
    out->params = al_xcalloc(k.nparams ? k.nparams : 1, sizeof *out->params);
    for (size_t i = 0; i < k.nparams; i++) {
        al_kparam *p = &out->params[i];
        p->block = p->stride = p->block_cols = p->n = -1;
        uses_of *x = &u[i];
        TSNode at = ts_node_is_null(x->first) ? def : x->first;
        p->row = al_node_row(at);
        size_t len;
        const char *pname = k.params[i];
        int li = local_of(&k, pname, strlen(pname));
        (void)len;
        if (x->atomics) {
            p->effect = AL_EFFECT_ACCUMULATES;
            set_why(p, "updates `%s` with atomics", pname);
        } else if (x->loads) {
            p->effect = AL_EFFECT_READS;
            set_why(p, "loads from `%s`", pname);
        } else if (x->other) {
            p->effect = AL_EFFECT_UNKNOWN;
            set_why(p, "hands `%s` to a call it does not follow", pname);
        } else if (x->block_stores) {
            p->effect = AL_EFFECT_WRITES_SOME;
            set_why(p, "stores through a block pointer (`tl.make_block_ptr`) on `%s`; its "
                       "tiles' coverage is not proved", pname);
        } else if (!x->stores) {
            p->effect = AL_EFFECT_UNUSED;
        } else if (li >= 0 || k.bumped_twice[i]) {
            p->effect = AL_EFFECT_WRITES_SOME;
            set_why(p, "moves the pointer `%s` before storing through it", pname);
        } else if (x->stores > 1) {
            p->effect = AL_EFFECT_WRITES_SOME;
            set_why(p, "stores to `%s` in %d places", pname, x->stores);
        } else {
            bool skips = false;
            p->row = al_node_row(x->store);
            if (nexits) {
                /* Any exit taken on loaded data may skip the store. */
                size_t pick = 0;
                char *c = NULL;
                bool data = false;
                for (size_t e = 0; e < nexits && !data; e++) {
                    char *t = NULL;
                    data = exit_on_data(&k, exits[e], &t);
                    if (data || !c) {
                        free(c);
                        c = t;
                        pick = e;
                    } else {
                        free(t);
                    }
                }
                p->effect = data ? AL_EFFECT_SKIPS : AL_EFFECT_WRITES_SOME;
                if (data)
                    set_why(p, "exits early when `%s`, which depends on loaded data", c ? c : "...");
                else
                    set_why(p, "exits early when `%s`", c ? c : "...");
                p->row = al_node_row(exits[pick]);
                free(c);
            } else if (!store_context(&k, x->store, p, &skips)) {
                p->effect = skips ? AL_EFFECT_SKIPS : AL_EFFECT_WRITES_SOME;
            } else {
                cover_of_store(&k, x->store, p);
            }
        }
    }
    free(u);
    free(k.bumps);
    free(k.bumped_twice);
    al_interner_free(&k.strs);
    free(k.local_names);
    free(k.local_values);
    free(k.local_counts);
    free(k.local_loops);
}

void al_kernel_free(al_kernel *k)
{
    for (size_t i = 0; i < k->n; i++) {
        free(k->names[i]);
        free(k->params[i].why);
        free(k->params[i].block_text);
    }
    free(k->names);
    free(k->params);
    memset(k, 0, sizeof *k);
}

