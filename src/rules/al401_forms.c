#include "al401.h"

#include "../analysis/python/dtype.h"
#include "../analysis/python/uses.h"
#include "../base/util.h"

#include <stdlib.h>
#include <string.h>

typedef struct {
    const al_pyfile *pf;
    const char *name;
    bool other; /* a use of x that is not a metadata read */
} metadata_uses;

static al_visit visit_metadata_use(TSNode n, void *arg)
{
    metadata_uses *u = arg;
    if (al_node_is(n, "lambda"))
        u->other = true;
    if (u->other)
        return AL_VISIT_STOP;
    if (al_node_is(n, "identifier") && al_node_text_eq(u->pf, n, u->name)) {
        TSNode par = ts_node_parent(n);
        u->other = !(al_node_is(par, "attribute") && ts_node_eq(al_node_field(par, "object"), n) &&
                     al_use_reads_metadata(u->pf, par));
    }
    return AL_VISIT_INTO;
}

/* Whether every use of name in v reads only its metadata (`x.size(0)`,
 * `x.shape[0]`, `x.dtype`). */
static bool reads_only_metadata(const al_pyfile *pf, TSNode v, const char *name)
{
    metadata_uses u = {pf, name, false};
    al_node_preorder(v, visit_metadata_use, &u);
    return !u.other;
}

static operand_kind literal_kind(const al_pyfile *pf, TSNode n)
{
    n = al_py_unparen(n);
    if (al_node_is(n, "unary_operator"))
        n = al_node_field(n, "argument");
    if (al_node_is(n, "integer"))
        return OPERAND_INT;
    if (al_node_is(n, "float"))
        return OPERAND_FLOAT;
    (void)pf;
    return OPERAND_TENSOR;
}

/* `x < 0`, `x == -1.0`: a new bool tensor of x's shape. */
static bool own_mask(const al_pyfile *pf, TSNode mask, const char *name)
{
    mask = al_py_unparen(mask);
    if (!al_node_is(mask, "comparison_operator") || ts_node_named_child_count(mask) != 2)
        return false;
    TSNode l = ts_node_named_child(mask, 0), r = ts_node_named_child(mask, 1);
    return al_node_is(l, "identifier") && al_node_text_eq(pf, l, name) &&
           literal_kind(pf, r) != OPERAND_TENSOR;
}

/* Reductions whose keepdim result broadcasts into x's shape: those that
 * keep any dtype, and those that keep only a floating one (the sum of an
 * integer tensor is int64; its mean raises). */
static const char *const KEEP_DTYPE_REDUCTIONS[] = {"amax", "amin", NULL};
static const char *const FLOAT_REDUCTIONS[] = {"sum", "mean", "logsumexp", NULL};
static const char *const LIKE_FACTORIES[] = {"zeros_like", "ones_like", "full_like", NULL};
/* Along a dim they give (values, indices): the values keep x's dtype. */
static const char *const PAIR_REDUCTIONS[] = {"max", "min", NULL};

/* Whether v is a new tensor made from x alone with x's dtype and a shape
 * that broadcasts into x's: `x.amax(-1, keepdim=True)`, `torch.sum(x, 1,
 * keepdim=True)` (floating x only: *needs_float), `x.max(-1, keepdim=True)[0]`,
 * `torch.full_like(x, 2.0)`.
 * The in-place update reads it whole before writing x. */
static bool own_operand(const al_pymodule *m, TSNode v, const char *name, bool *needs_float)
{
    const al_pyfile *pf = m->pf;
    v = al_py_unparen(v);
    /* `x.max(-1, keepdim=True)[0]` or `.values`: the maxima, of x's dtype
     * (the indices are int64). */
    bool values = false;
    if (al_node_is(v, "subscript")) {
        TSNode idx = al_node_field(v, "subscript");
        values = al_node_is(idx, "integer") && al_node_text_eq(pf, idx, "0");
        v = values ? al_py_unparen(al_node_field(v, "value")) : v;
    } else if (al_node_is(v, "attribute") &&
               al_node_text_eq(pf, al_node_field(v, "attribute"), "values")) {
        values = true;
        v = al_py_unparen(al_node_field(v, "object"));
    }
    if (!al_node_is(v, "call"))
        return false;
    TSNode fn = al_node_field(v, "function");
    al_py_args a;
    al_py_args_read(v, &a);
    if (a.splat || !ts_node_is_null(al_py_kwarg(pf, &a, "dtype")) ||
        !ts_node_is_null(al_py_kwarg(pf, &a, "out")))
        return false;
    char *q = al_pymodule_resolve(m, fn);
    const char *op = NULL;
    int x_at = -1; /* the argument that is x: -1 for a method's receiver */
    if (q && !strncmp(q, "torch.", 6)) {
        op = q + 6;
        x_at = 0;
    } else if (!q && al_node_is(fn, "attribute")) {
        TSNode obj = al_node_field(fn, "object");
        if (al_node_is(obj, "identifier") && al_node_text_eq(pf, obj, name)) {
            size_t len;
            const char *meth = al_node_ptr(pf, al_node_field(fn, "attribute"), &len);
            for (const char *const *r = values ? PAIR_REDUCTIONS : KEEP_DTYPE_REDUCTIONS; *r && !op;
                 r++)
                op = strlen(*r) == len && !memcmp(*r, meth, len) ? *r : NULL;
            for (const char *const *r = FLOAT_REDUCTIONS; *r && !op && !values; r++)
                op = strlen(*r) == len && !memcmp(*r, meth, len) ? *r : NULL;
        }
    }
    bool yes = false;
    if (op && x_at >= 0 && (a.npos < 1 || !al_node_is(a.pos[0], "identifier") ||
                            !al_node_text_eq(pf, a.pos[0], name)))
        op = NULL;
    /* x named nowhere else among the arguments */
    int mentions = 0;
    for (int i = 0; op && i < a.nall; i++)
        mentions += al_py_count_ident(pf, a.all[i], name);
    if (op && mentions == (x_at >= 0 ? 1 : 0)) {
        bool like = !values && al_str_in_list(LIKE_FACTORIES, op, strlen(op));
        bool keep = al_str_in_list(values ? PAIR_REDUCTIONS : KEEP_DTYPE_REDUCTIONS, op,
                                   strlen(op));
        bool flt = !values && al_str_in_list(FLOAT_REDUCTIONS, op, strlen(op));
        /* keepdim=True, by keyword or right after the dim */
        TSNode kd = al_py_kwarg(pf, &a, "keepdim");
        int kd_at = x_at + 2;
        if (ts_node_is_null(kd) && kd_at < a.npos)
            kd = a.pos[kd_at];
        bool keepdim = !ts_node_is_null(kd) && al_node_text_eq(pf, kd, "True");
        yes = like || ((keep || flt) && keepdim);
        *needs_float = flt;
    }
    free(q);
    return yes;
}

static const char *const METHODS[] = {"add", "sub", "mul", "div", "clamp", "clamp_min",
                                      "clamp_max", "masked_fill", "masked_scatter", NULL};

/* x.<method>(args) or torch.<method>(x, args): the in-place form. */
static bool call_form(const al_pymodule *m, TSNode rhs, const char *name, inplace *ip)
{
    const al_pyfile *pf = m->pf;
    TSNode fn = al_node_field(rhs, "function");
    al_py_args a;
    al_py_args_read(rhs, &a);
    if (a.splat || !ts_node_is_null(al_py_kwarg(pf, &a, "out")))
        return false;
    const char *method = NULL;
    int first = 0; /* the first argument that is not x */
    char *q = al_pymodule_resolve(m, fn);
    /* `torch.minimum(x, c)` is `x.clamp_(max=c)` in place (maximum: min=),
     * either argument x; c a tensor, so it may broadcast or promote. */
    bool lesser = q && !strcmp(q, "torch.minimum"), greater = q && !strcmp(q, "torch.maximum");
    if ((lesser || greater) && a.npos == 2 && a.nall == 2) {
        int xi = al_node_is(a.pos[0], "identifier") && al_node_text_eq(pf, a.pos[0], name) ? 0
                 : al_node_is(a.pos[1], "identifier") && al_node_text_eq(pf, a.pos[1], name) ? 1
                                                                                           : -1;
        free(q);
        if (xi < 0 || al_py_count_ident(pf, a.pos[1 - xi], name))
            return false;
        char *c = al_node_text(pf, a.pos[1 - xi]);
        ip->operand = a.pos[1 - xi];
        al_strbuf sb = {0};
        al_strbuf_printf(&sb, "%s=%s", lesser ? "max" : "min", c);
        free(c);
        ip->args = al_strbuf_detach(&sb);
        ip->method = "clamp_";
        ip->kind = OPERAND_TENSOR;
        return true;
    }
    if (q && !strncmp(q, "torch.", 6)) {
        for (int i = 0; METHODS[i] && !method; i++)
            if (!strcmp(q + 6, METHODS[i]) && strncmp(METHODS[i], "masked", 6) != 0)
                method = METHODS[i];
        if (!method || a.npos < 1 || !al_node_is(a.pos[0], "identifier") ||
            !al_node_text_eq(pf, a.pos[0], name))
            method = NULL;
        first = 1;
    } else if (!q && al_node_is(fn, "attribute")) {
        TSNode obj = al_node_field(fn, "object");
        for (int i = 0; METHODS[i] && !method; i++)
            if (al_py_last_name_is(pf, fn, METHODS[i]))
                method = METHODS[i];
        if (!al_node_is(obj, "identifier") || !al_node_text_eq(pf, obj, name))
            method = NULL;
    }
    free(q);
    if (!method || a.nall - first < 1)
        return false;
    bool masked_fill = !strcmp(method, "masked_fill");
    /* Arguments are evaluated before the update, but a view of x among
     * them would be read while it is written: only masked_fill's own
     * comparison mask, or the one operand of arithmetic when it is a new
     * tensor made from x (a keepdim reduction), may name x. */
    bool arithmetic = !strcmp(method, "add") || !strcmp(method, "sub") ||
                      !strcmp(method, "mul") || !strcmp(method, "div");
    bool own = false;
    for (int i = first; i < a.nall; i++)
        if (al_py_count_ident(pf, a.all[i], name)) {
            if (masked_fill && i == first && own_mask(pf, a.all[i], name))
                continue;
            if (arithmetic && a.npos == a.nall && a.nall - first == 1 &&
                own_operand(m, a.all[i], name, &ip->own_needs_float)) {
                own = true;
                continue;
            }
            return false;
        }
    al_strbuf sb = {0};
    for (int i = first; i < a.nall; i++) {
        char *t = al_node_text(pf, a.all[i]);
        al_strbuf_printf(&sb, "%s%s", i > first ? ", " : "", t);
        free(t);
    }
    ip->args = al_strbuf_detach(&sb);
    ip->method = !strcmp(method, "add")         ? "add_"
                 : !strcmp(method, "sub")       ? "sub_"
                 : !strcmp(method, "mul")       ? "mul_"
                 : !strcmp(method, "div")       ? "div_"
                 : !strcmp(method, "clamp")     ? "clamp_"
                 : !strcmp(method, "clamp_min") ? "clamp_min_"
                 : !strcmp(method, "clamp_max") ? "clamp_max_"
                 : masked_fill                  ? "masked_fill_"
                                                : "masked_scatter_";
    ip->needs_float = !strcmp(method, "div") && a.nall - first == 1;
    if (own) {
        ip->kind = OPERAND_OWN;
    } else if (!strcmp(method, "masked_scatter")) {
        ip->kind = OPERAND_BROADCASTS;
        ip->operand = a.all[first];
    } else if (masked_fill) {
        ip->operand = a.all[first];
        ip->kind = a.nall - first == 2 && own_mask(pf, a.all[first], name) &&
                           literal_kind(pf, a.all[first + 1]) != OPERAND_TENSOR
                       ? OPERAND_OWN_MASK
                       : OPERAND_BROADCASTS;
    } else {
        /* Every bound a literal (or None): the widest literal decides. */
        ip->kind = OPERAND_INT;
        for (int i = first; i < a.nall; i++) {
            TSNode v = al_node_is(a.all[i], "keyword_argument") ? al_node_field(a.all[i], "value")
                                                                : a.all[i];
            if (al_node_is(a.all[i], "keyword_argument") &&
                al_node_text_eq(pf, al_node_field(a.all[i], "name"), "alpha"))
                continue;
            operand_kind k = al_node_is(v, "none") ? OPERAND_INT : literal_kind(pf, v);
            if (k == OPERAND_TENSOR || (k == OPERAND_FLOAT && ip->kind == OPERAND_INT))
                ip->kind = k;
            if (k == OPERAND_TENSOR)
                ip->operand = v;
            if (k == OPERAND_TENSOR)
                break;
        }
    }
    return true;
}

/* The in-place form of `name = <rhs>`, or false. */
bool al401_inplace_form(const al_pymodule *m, TSNode rhs, const char *name, inplace *ip)
{
    const al_pyfile *pf = m->pf;
    rhs = al_py_unparen(rhs);
    if (al_node_is(rhs, "call"))
        return call_form(m, rhs, name, ip);
    if (!al_node_is(rhs, "binary_operator"))
        return false;
    TSNode l = al_node_field(rhs, "left"), r = al_node_field(rhs, "right");
    TSNode op = al_node_field(rhs, "operator");
    bool lx = al_node_is(l, "identifier") && al_node_text_eq(pf, l, name);
    bool rx = al_node_is(r, "identifier") && al_node_text_eq(pf, r, name);
    TSNode operand;
    if (al_node_text_eq(pf, op, "-") && lx)
        ip->method = "sub_", operand = r;
    else if (al_node_text_eq(pf, op, "+") && (lx || rx))
        ip->method = "add_", operand = lx ? r : l;
    else if (al_node_text_eq(pf, op, "*") && (lx || rx))
        ip->method = "mul_", operand = lx ? r : l;
    else if (al_node_text_eq(pf, op, "/") && lx)
        ip->method = "div_", operand = r, ip->needs_float = true;
    else
        return false;
    /* `w.view(x.size(0), -1, 1)` reads only x's shape, which the update
     * leaves as it was: an operand like any other. */
    bool own = al_py_count_ident(pf, operand, name) > 0 && !reads_only_metadata(pf, operand, name);
    if (own && !own_operand(m, operand, name, &ip->own_needs_float))
        return false;
    ip->args = al_node_text(pf, operand);
    ip->kind = own ? OPERAND_OWN : literal_kind(pf, operand);
    ip->operand = operand;
    return true;
}
