#include "form.h"

#include "../../base/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------ */
/* Linear forms: a sum of terms, each a coefficient times factors.      */

int al_tf_param_index(const al_tf_kernel *k, const char *p, size_t len)
{
    for (size_t i = 0; i < k->nparams; i++)
        if (strlen(k->params[i]) == len && !memcmp(k->params[i], p, len))
            return (int)i;
    return -1;
}

/* The qualified name of a callee, with re-exports of triton.language
 * (`from vllm.triton_utils import tl`: a binding ending in `.tl`) spelled
 * as triton.language itself. */
char *al_tf_resolve_tl(const al_tf_kernel *k, TSNode fn)
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

bool al_tf_is_tl(const al_tf_kernel *k, TSNode fn, const char *name)
{
    char want[64];
    snprintf(want, sizeof want, "triton.language.%s", name);
    char *q = al_tf_resolve_tl(k, fn);
    bool yes = q && !strcmp(q, want);
    free(q);
    return yes;
}

int al_tf_local_of(const al_tf_kernel *k, const char *p, size_t len)
{
    for (size_t i = 0; i < k->nlocals; i++)
        if (strlen(k->local_names[i]) == len && !memcmp(k->local_names[i], p, len))
            return (int)i;
    return -1;
}

static void note_local(al_tf_kernel *k, TSNode name, TSNode value, TSNode loop, int weight)
{
    size_t len;
    const char *p = al_node_ptr(k->pf, name, &len);
    int i = al_tf_local_of(k, p, len);
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

void al_tf_collect_locals(al_tf_kernel *k, TSNode n, int depth)
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
        int pi = lp ? al_tf_param_index(k, lp, len) : -1;
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
        al_tf_collect_locals(k, ts_node_named_child(n, i), depth + 1);
}

const char *al_tf_factor(al_tf_kernel *k, const char *fmt, const char *a)
{
    char buf[256];
    snprintf(buf, sizeof buf, fmt, a);
    return al_intern(&k->strs, buf, strlen(buf));
}

static int cmp_str(const void *x, const void *y)
{
    return strcmp(*(const char *const *)x, *(const char *const *)y);
}

static bool term_same(const al_tf_term *a, const al_tf_term *b)
{
    if (a->nf != b->nf)
        return false;
    for (int i = 0; i < a->nf; i++)
        if (a->f[i] != b->f[i])
            return false;
    return true;
}

static void add_term(al_tf_lin *l, al_tf_term t)
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

al_tf_lin al_tf_single(al_tf_kernel *k, const char *f, bool data)
{
    (void)k;
    al_tf_lin l = {data, 0, {{0}}};
    al_tf_term t = {1, 1, {f}};
    add_term(&l, t);
    return l;
}

static al_tf_lin constant(long v)
{
    al_tf_lin l = {false, 0, {{0}}};
    al_tf_term t = {v, 0, {NULL}};
    add_term(&l, t);
    return l;
}

al_tf_lin al_tf_sum(al_tf_lin a, const al_tf_lin *b, long sign)
{
    a.data |= b->data;
    for (int i = 0; i < b->n; i++) {
        al_tf_term t = b->t[i];
        t.coef *= sign;
        add_term(&a, t);
    }
    return a;
}

static al_tf_lin product(al_tf_kernel *k, const al_tf_lin *a, const al_tf_lin *b, TSNode at)
{
    al_tf_lin r = {a->data || b->data, 0, {{0}}};
    if (a->n * b->n > MAX_TERMS) {
        char *t = al_node_text_compact(k->pf, at);
        al_tf_lin o = al_tf_single(k, al_tf_factor(k, "?%s", t), r.data);
        free(t);
        return o;
    }
    for (int i = 0; i < a->n; i++)
        for (int j = 0; j < b->n; j++) {
            al_tf_term t = {a->t[i].coef * b->t[j].coef, 0, {NULL}};
            for (int x = 0; x < a->t[i].nf && t.nf < MAX_FACTORS; x++)
                t.f[t.nf++] = a->t[i].f[x];
            for (int x = 0; x < b->t[j].nf && t.nf < MAX_FACTORS; x++)
                t.f[t.nf++] = b->t[j].f[x];
            add_term(&r, t);
        }
    return r;
}

bool al_tf_lin_eq(const al_tf_lin *a, const al_tf_lin *b)
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

/* An expression the forms do not understand: one opaque factor. */
static al_tf_lin opaque(al_tf_kernel *k, TSNode n)
{
    char *t = al_node_text_compact(k->pf, n);
    al_tf_lin l = al_tf_single(k, al_tf_factor(k, "?%s", t), al_tf_has_load(k, n, 0));
    free(t);
    return l;
}

/* One element of a parameter per program, `tl.load(P + pid)` or
 * `tl.load(P + pid + 1)` with nothing else passed, is the factor
 * `LD(P@PIDa+c)`, so that a segment's start and length can be matched
 * term by term; any other load is one opaque value. Both are data. */
static al_tf_lin load_form(al_tf_kernel *k, const al_py_args *a, int depth)
{
    al_tf_lin loaded = al_tf_single(k, al_tf_factor(k, "%s", "LOADED"), true);
    if (a->npos != 1 || a->nkw || a->splat)
        return loaded;
    al_tf_lin l = al_tf_form(k, a->pos[0], depth + 1);
    int bt = -1;
    int base = al_tf_base_param(k, &l, &bt);
    if (base < 0 || l.data)
        return loaded;
    l = al_tf_without_term(l, bt);
    long c = 0;
    const char *pid = NULL;
    for (int i = 0; i < l.n; i++) {
        const al_tf_term *t = &l.t[i];
        if (t->nf == 0)
            c += t->coef;
        else if (t->nf == 1 && t->coef == 1 && !pid && !strncmp(t->f[0], "PID", 3))
            pid = t->f[0];
        else
            return loaded;
    }
    if (!pid || c < 0 || c > 1)
        return loaded;
    char buf[300];
    snprintf(buf, sizeof buf, "LD(%s@%s+%ld)", k->params[base], pid, c);
    return al_tf_single(k, al_intern(&k->strs, buf, strlen(buf)), true);
}

static al_tf_lin call_form(al_tf_kernel *k, TSNode n, int depth)
{
    TSNode fn = al_node_field(n, "function");
    al_py_args a;
    al_py_args_read(n, &a);
    if (al_tf_is_tl(k, fn, "program_id") || al_tf_is_tl(k, fn, "num_programs")) {
        TSNode axis = a.npos > 0 ? a.pos[0] : al_py_kwarg(k->pf, &a, "axis");
        long v = 0;
        if (!ts_node_is_null(axis) && !al_py_parse_long(k->pf, axis, &v))
            return opaque(k, n);
        char num[8];
        snprintf(num, sizeof num, "%ld", v);
        return al_tf_single(k, al_tf_factor(k, al_tf_is_tl(k, fn, "program_id") ? "PID%s" : "NPROG%s", num), false);
    }
    if (al_tf_is_tl(k, fn, "arange") && a.npos == 2 && al_node_text_eq(k->pf, a.pos[0], "0")) {
        char *hi = al_node_text_compact(k->pf, a.pos[1]);
        al_tf_lin l = al_tf_single(k, al_tf_factor(k, "AR(%s)", hi), false);
        free(hi);
        return l;
    }
    if (al_tf_is_tl(k, fn, "load"))
        return load_form(k, &a, depth);
    /* Hints and casts keep the value: x.to(...), tl.multiple_of(x, ...). */
    if ((al_tf_is_tl(k, fn, "multiple_of") || al_tf_is_tl(k, fn, "max_contiguous")) && a.npos >= 1)
        return al_tf_form(k, a.pos[0], depth + 1);
    if (al_node_is(fn, "attribute") && al_py_last_name_is(k->pf, fn, "to"))
        return al_tf_form(k, al_node_field(fn, "object"), depth + 1);
    return opaque(k, n);
}

static al_tf_lin identifier_form(al_tf_kernel *k, TSNode n, int depth)
{
    size_t len;
    const char *p = al_node_ptr(k->pf, n, &len);
    int li = al_tf_local_of(k, p, len);
    if (li >= 0) {
        if (!ts_node_is_null(k->local_loops[li]) && k->local_counts[li] == 1)
            return al_tf_single(k, al_intern(&k->strs, p, len), false); /* a loop variable */
        if (k->local_counts[li] == 1 && !ts_node_is_null(k->local_values[li]))
            return al_tf_form(k, k->local_values[li], depth + 1);
        return opaque(k, n);
    }
    int pi = al_tf_param_index(k, p, len);
    if (pi >= 0 && k->bumped_twice[pi])
        return opaque(k, n);
    if (pi >= 0) {
        al_tf_lin l = al_tf_single(k, al_tf_factor(k, "P:%s", k->params[pi]), false);
        if (!ts_node_is_null(k->bumps[pi])) {
            al_tf_lin b = al_tf_form(k, k->bumps[pi], depth + 1);
            l = al_tf_sum(l, &b, 1);
        }
        return l;
    }
    return opaque(k, n);
}

/* x[:, None] / x[None, :]: the aranges in x become rows or columns. */
static al_tf_lin broadcast_form(al_tf_kernel *k, TSNode n, int depth)
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
    return al_tf_retag(k, al_tf_form(k, al_node_field(n, "value"), depth + 1), tag);
}

TSNode al_tf_through_locals(const al_tf_kernel *k, TSNode n)
{
    n = al_py_unparen(n);
    for (int hop = 0; hop < 4 && al_node_is(n, "identifier"); hop++) {
        size_t len;
        const char *p = al_node_ptr(k->pf, n, &len);
        int li = al_tf_local_of(k, p, len);
        if (li < 0 || k->local_counts[li] != 1 || ts_node_is_null(k->local_values[li]) ||
            !ts_node_is_null(k->local_loops[li]))
            break;
        n = al_py_unparen(k->local_values[li]);
    }
    return n;
}

/* The parameter an expression names, itself or through locals; NULL for
 * anything else. */
static const char *param_named(const al_tf_kernel *k, TSNode n)
{
    n = al_tf_through_locals(k, n);
    if (!al_node_is(n, "identifier"))
        return NULL;
    size_t len;
    const char *p = al_node_ptr(k->pf, n, &len);
    int pi = al_tf_param_index(k, p, len);
    return pi >= 0 && !k->bumped_twice[pi] && ts_node_is_null(k->bumps[pi]) ? k->params[pi] : NULL;
}

/* Whether g (through locals) is the tile count cdiv(N, B) of two
 * parameters, `tl.cdiv(N, B)` or `(N + B - 1) // B`: their names. */
static bool cdiv_of(al_tf_kernel *k, TSNode g, int depth, const char **n_out, const char **b_out)
{
    g = al_tf_through_locals(k, g);
    if (al_node_is(g, "call") && al_tf_is_tl(k, al_node_field(g, "function"), "cdiv")) {
        al_py_args ga;
        al_py_args_read(g, &ga);
        if (ga.npos != 2 || ga.nkw || ga.splat)
            return false;
        *n_out = param_named(k, ga.pos[0]);
        *b_out = param_named(k, ga.pos[1]);
        return *n_out && *b_out;
    }
    if (!al_node_is(g, "binary_operator") || !al_node_text_eq(k->pf, al_node_field(g, "operator"), "//"))
        return false;
    const char *b = param_named(k, al_node_field(g, "right"));
    al_tf_lin top = al_tf_form(k, al_node_field(g, "left"), depth + 1);
    if (!b || top.data || top.n != 3)
        return false;
    long minus_one = 0;
    const char *other = NULL;
    for (int i = 0; i < top.n; i++) {
        const al_tf_term *t = &top.t[i];
        if (t->nf == 0)
            minus_one = t->coef;
        else if (t->nf == 1 && t->coef == 1 && !strncmp(t->f[0], "P:", 2) && strcmp(t->f[0] + 2, b))
            other = t->f[0] + 2;
    }
    if (minus_one != -1 || !other || al_tf_find_term(&top, al_tf_factor(k, "P:%s", b), NULL) < 0)
        return false;
    *n_out = other;
    *b_out = b;
    return true;
}

/* The program-id factor a node's form is (`PIDa`), or NULL. */
static const char *lone_pid(al_tf_kernel *k, TSNode n, int depth)
{
    al_tf_lin a = al_tf_form(k, n, depth + 1);
    return !a.data && a.n == 1 && a.t[0].coef == 1 && a.t[0].nf == 1 && !strncmp(a.t[0].f[0], "PID", 3)
               ? a.t[0].f[0]
               : NULL;
}

/* `pid // g` and `pid % g` with pid a program id and g the tile count
 * cdiv(N, B) of two parameters: the row and the column of a tile when one
 * axis enumerates a grid of tiles row by row. The factor `Q(PIDa|N|B)` or
 * `R(PIDa|N|B)`; NULL for any other. */
static const char *split_pid(al_tf_kernel *k, TSNode n, int depth)
{
    TSNode op = al_node_field(n, "operator");
    bool quotient = al_node_text_eq(k->pf, op, "//");
    if (!quotient && !al_node_text_eq(k->pf, op, "%"))
        return NULL;
    const char *pid = lone_pid(k, al_node_field(n, "left"), depth);
    const char *xn, *yn;
    if (!pid || !cdiv_of(k, al_node_field(n, "right"), depth, &xn, &yn))
        return NULL;
    char buf[300];
    snprintf(buf, sizeof buf, "%c(%s|%s|%s)", quotient ? 'Q' : 'R', pid, xn, yn);
    return al_intern(&k->strs, buf, strlen(buf));
}

/* The binary operation n is (through locals), its operands in l and r. */
static bool binary(const al_tf_kernel *k, TSNode n, const char *op, TSNode *l, TSNode *r)
{
    n = al_tf_through_locals(k, n);
    if (!al_node_is(n, "binary_operator") || !al_node_text_eq(k->pf, al_node_field(n, "operator"), op))
        return false;
    *l = al_node_field(n, "left");
    *r = al_node_field(n, "right");
    return true;
}

/* The parts of the grouped tile order of Triton's matmul tutorial, each
 * checked to be the one it must be:
 *   num_pid_in_group = GROUP * cdiv(N, BN)      (g)
 *   group_id = pid // num_pid_in_group
 *   first_pid_m = group_id * GROUP              (first)
 *   group_size_m = min(cdiv(M, BM) - first_pid_m, GROUP)
 *   pid_m = first_pid_m + ((pid % num_pid_in_group) % group_size_m)
 *   pid_n = (pid % num_pid_in_group) // group_size_m
 * For pid in [0, cdiv(M, BM) * cdiv(N, BN)) this is a bijection onto the
 * tiles. grouped_* fill `what` with "PIDa|M|BM|N|BN|GROUP". */
typedef struct {
    const char *pid, *group, *n, *bn;
} grouping;

/* A product `P * e` or `e * P` (through locals) with P a parameter: P's
 * name, and e in *other; NULL for anything else. */
static const char *param_times(al_tf_kernel *k, TSNode n, TSNode *other)
{
    TSNode l, r;
    if (!binary(k, n, "*", &l, &r))
        return NULL;
    const char *p = param_named(k, r);
    *other = l;
    if (!p) {
        p = param_named(k, l);
        *other = r;
    }
    return p;
}

/* `GROUP * cdiv(N, BN)` (either order). */
static bool group_count(al_tf_kernel *k, TSNode g, int depth, grouping *out)
{
    TSNode count;
    out->group = param_times(k, g, &count);
    return out->group && cdiv_of(k, count, depth, &out->n, &out->bn);
}

/* `pid % num_pid_in_group` */
static bool within_group(al_tf_kernel *k, TSNode n, int depth, grouping *out)
{
    TSNode l, r;
    return binary(k, n, "%", &l, &r) && (out->pid = lone_pid(k, l, depth)) != NULL &&
           group_count(k, r, depth, out);
}

/* `(pid // num_pid_in_group) * GROUP` (either order), for the same pid,
 * GROUP and count as g. */
static bool first_row(al_tf_kernel *k, TSNode n, int depth, const grouping *g)
{
    TSNode q, ql, qr;
    const char *group = param_times(k, n, &q);
    grouping h = {0};
    return group && !strcmp(group, g->group) && binary(k, q, "//", &ql, &qr) &&
           (h.pid = lone_pid(k, ql, depth)) != NULL && h.pid == g->pid &&
           group_count(k, qr, depth, &h) && !strcmp(h.group, g->group) && !strcmp(h.n, g->n) &&
           !strcmp(h.bn, g->bn);
}

/* `min(cdiv(M, BM) - first_pid_m, GROUP)`: M and BM. */
static bool group_rows(al_tf_kernel *k, TSNode n, int depth, const grouping *g, const char **m,
                       const char **bm)
{
    n = al_tf_through_locals(k, n);
    if (!al_node_is(n, "call") || !al_node_text_eq(k->pf, al_node_field(n, "function"), "min"))
        return false;
    al_py_args a;
    al_py_args_read(n, &a);
    TSNode l, r;
    const char *group = a.npos == 2 ? param_named(k, a.pos[1]) : NULL;
    return !a.nkw && !a.splat && group && !strcmp(group, g->group) &&
           binary(k, a.pos[0], "-", &l, &r) && cdiv_of(k, l, depth, m, bm) &&
           first_row(k, r, depth, g);
}

/* pid_m or pid_n of the grouped order: the factor `GQ(PIDa|M|BM|N|BN|GROUP)`
 * or `GR(...)`, or NULL. */
static const char *grouped_pid(al_tf_kernel *k, TSNode n, int depth)
{
    TSNode l, r, il, ir;
    grouping g = {0};
    const char *m = NULL, *bm = NULL;
    bool row;
    if (binary(k, n, "+", &l, &r)) {
        /* first_pid_m + ((pid % num_pid_in_group) % group_size_m) */
        row = true;
        if (!binary(k, r, "%", &il, &ir) || !within_group(k, il, depth, &g) ||
            !first_row(k, l, depth, &g) || !group_rows(k, ir, depth, &g, &m, &bm))
            return NULL;
    } else if (binary(k, n, "//", &l, &r)) {
        /* (pid % num_pid_in_group) // group_size_m */
        row = false;
        if (!within_group(k, l, depth, &g) || !group_rows(k, r, depth, &g, &m, &bm))
            return NULL;
    } else {
        return NULL;
    }
    char buf[400];
    snprintf(buf, sizeof buf, "G%c(%s|%s|%s|%s|%s|%s)", row ? 'Q' : 'R', g.pid, m, bm, g.n, g.bn,
             g.group);
    return al_intern(&k->strs, buf, strlen(buf));
}

al_tf_lin al_tf_retag(al_tf_kernel *k, al_tf_lin l, const char *tag)
{
    for (int i = 0; i < l.n; i++)
        for (int j = 0; j < l.t[i].nf; j++)
            if (!strncmp(l.t[i].f[j], "AR(", 3) && !strchr(l.t[i].f[j], '@')) {
                char buf[256];
                snprintf(buf, sizeof buf, "%s%s", l.t[i].f[j], tag);
                l.t[i].f[j] = al_intern(&k->strs, buf, strlen(buf));
            }
    return l;
}

al_tf_lin al_tf_times(al_tf_kernel *k, al_tf_lin l, const char *const *factors, int n)
{
    al_tf_lin r = {l.data, 0, {{0}}};
    (void)k;
    for (int i = 0; i < l.n; i++) {
        al_tf_term t = l.t[i];
        for (int j = 0; j < n && t.nf < MAX_FACTORS; j++)
            t.f[t.nf++] = factors[j];
        add_term(&r, t);
    }
    return r;
}

al_tf_lin al_tf_form(al_tf_kernel *k, TSNode n, int depth)
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
        al_tf_lin a = al_tf_form(k, al_node_field(n, "argument"), depth + 1);
        return al_tf_sum(constant(0), &a, -1);
    }
    if (al_node_is(n, "binary_operator")) {
        /* A program id's row or column of tiles (`//`, `%`, the grouped
         * order's `+`), else a linear form; any other operator is opaque. */
        TSNode op = al_node_field(n, "operator");
        bool plus = al_node_text_eq(k->pf, op, "+"), minus = al_node_text_eq(k->pf, op, "-"),
             times = al_node_text_eq(k->pf, op, "*");
        const char *pid = grouped_pid(k, n, depth);
        if (!pid && !plus && !minus && !times)
            pid = split_pid(k, n, depth);
        if (pid)
            return al_tf_single(k, pid, false);
        if (plus || minus || times) {
            al_tf_lin a = al_tf_form(k, al_node_field(n, "left"), depth + 1);
            al_tf_lin b = al_tf_form(k, al_node_field(n, "right"), depth + 1);
            return times ? product(k, &a, &b, n) : al_tf_sum(a, &b, plus ? 1 : -1);
        }
    }
    return opaque(k, n);
}

/* Whether n reads memory: a tl.load in it, or in a local it names. */
bool al_tf_has_load(const al_tf_kernel *k, TSNode n, int depth)
{
    if (depth > 60)
        return true;
    if (al_node_is(n, "call") && al_tf_is_tl(k, al_node_field(n, "function"), "load"))
        return true;
    if (al_node_is(n, "identifier")) {
        size_t len;
        const char *p = al_node_ptr(k->pf, n, &len);
        int li = al_tf_local_of(k, p, len);
        if (li >= 0 && !ts_node_is_null(k->local_values[li]))
            return al_tf_has_load(k, k->local_values[li], depth + 1);
        return false;
    }
    uint32_t m = ts_node_named_child_count(n);
    for (uint32_t i = 0; i < m; i++)
        if (al_tf_has_load(k, ts_node_named_child(n, i), depth + 1))
            return true;
    return false;
}

/* ------------------------------------------------------------------ */
/* Accesses of a parameter                                              */

/* The parameter a pointer form is based on: the one al_tf_term that is a lone
 * parameter with coefficient 1. -1 when there is none (or two). */
int al_tf_base_param(const al_tf_kernel *k, const al_tf_lin *l, int *term_index)
{
    int found = -1;
    for (int i = 0; i < l->n; i++)
        if (l->t[i].coef == 1 && l->t[i].nf == 1 && !strncmp(l->t[i].f[0], "P:", 2)) {
            if (found >= 0)
                return -1;
            found = al_tf_param_index(k, l->t[i].f[0] + 2, strlen(l->t[i].f[0] + 2));
            *term_index = i;
        }
    return found;
}

al_tf_lin al_tf_without_term(al_tf_lin l, int i)
{
    l.t[i] = l.t[--l.n];
    return l;
}

/* The al_tf_term whose factors are exactly {a} or {a, b} (b may be NULL). */
int al_tf_find_term(const al_tf_lin *l, const char *a, const char *b)
{
    for (int i = 0; i < l->n; i++) {
        const al_tf_term *t = &l->t[i];
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
int al_tf_lone_param(const al_tf_kernel *k, const al_tf_lin *l)
{
    if (l->n != 1 || l->t[0].coef != 1 || l->t[0].nf != 1 || strncmp(l->t[0].f[0], "P:", 2))
        return -1;
    return al_tf_param_index(k, l->t[0].f[0] + 2, strlen(l->t[0].f[0] + 2));
}

/* `mask=A < N` (or a local assigned it once): the forms of A and N. */
bool al_tf_bound_of(al_tf_kernel *k, TSNode mask, al_tf_lin *lhs, al_tf_lin *rhs)
{
    mask = al_tf_through_locals(k, mask);
    if (!al_node_is(mask, "comparison_operator") || ts_node_named_child_count(mask) != 2)
        return false;
    uint32_t nc = ts_node_child_count(mask);
    const char *op = NULL;
    for (uint32_t i = 0; i < nc; i++)
        if (!ts_node_is_named(ts_node_child(mask, i)))
            op = ts_node_type(ts_node_child(mask, i));
    TSNode l = ts_node_named_child(mask, 0), r = ts_node_named_child(mask, 1);
    if (op && !strcmp(op, "<")) {
        *lhs = al_tf_form(k, l, 0);
        *rhs = al_tf_form(k, r, 0);
        return true;
    }
    if (op && !strcmp(op, ">")) {
        *lhs = al_tf_form(k, r, 0);
        *rhs = al_tf_form(k, l, 0);
        return true;
    }
    return false;
}
