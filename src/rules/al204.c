/* AL204 cat-of-results: `torch.cat([torch.cos(x), torch.sin(x)], dim=-1)`
 * makes each part, then copies them all into a new tensor. The ops can
 * write their slices of one output instead (`out=` a `narrow` of it): one
 * copy of the whole and a temporary per part fewer. GPU evidence
 * (rules/AL204.md) says what that buys. The parts are elementwise ops of
 * one tensor, so each slice is x's shape and the output's size along the
 * dim is k times x's. */
#include "rules.h"

#include "../analysis/python/dtype.h"
#include "../analysis/python/grad.h"
#include "../analysis/python/values.h"
#include "../base/util.h"

#include <stdlib.h>
#include <string.h>

#define MAX_PARTS 8

/* torch ops with `out=` whose result has its input's shape and, for a
 * floating input, its dtype. The prefilter's AL_TOK_ELEMWISE class must
 * name each (unit.prefilter checks). */
const char *const al_rule_al204_ops[] = {
    "sin",  "cos",  "tan",   "asin", "acos", "atan",    "sinh",       "cosh", "tanh",
    "exp",  "exp2", "expm1", "log",  "log2", "log10",   "log1p",      "sqrt", "rsqrt",
    "sigmoid", "erf", "erfc", "neg", "abs", "reciprocal", NULL};

typedef struct {
    const char *op[MAX_PARTS];
    int k;
    TSNode operand; /* x, the same name in every part */
    long dim;
} parts;

static const char *elementwise_op(const char *name, size_t len)
{
    for (int i = 0; al_rule_al204_ops[i]; i++)
        if (strlen(al_rule_al204_ops[i]) == len && !strncmp(al_rule_al204_ops[i], name, len))
            return al_rule_al204_ops[i];
    return NULL;
}

/* `torch.op(x)`, `x.op()` or `-x`: the op and x, or NULL. */
static const char *read_part(const al_pymodule *m, TSNode e, TSNode *operand)
{
    const al_pyfile *pf = m->pf;
    e = al_py_unparen(e);
    if (al_node_is(e, "unary_operator")) {
        TSNode op = ts_node_child(e, 0);
        if (!al_node_text_eq(pf, op, "-"))
            return NULL;
        *operand = al_py_unparen(al_node_field(e, "argument"));
        return "neg";
    }
    if (!al_node_is(e, "call"))
        return NULL;
    TSNode fn = al_node_field(e, "function");
    al_py_args a;
    al_py_args_read(e, &a);
    if (a.splat || a.nkw)
        return NULL;
    char *q = al_pymodule_resolve(m, fn);
    const char *op = NULL;
    if (q && !strncmp(q, "torch.", 6) && a.npos == 1) {
        op = elementwise_op(q + 6, strlen(q + 6));
        *operand = al_py_unparen(a.pos[0]);
    } else if (!q && al_node_is(fn, "attribute") && a.nall == 0) {
        char *owner = al_pymodule_resolve(m, al_node_field(fn, "object"));
        size_t len;
        const char *name = al_py_last_name(pf, fn, &len);
        if (!owner) /* a tensor's method, not a module's function */
            op = elementwise_op(name, len);
        free(owner);
        *operand = al_py_unparen(al_node_field(fn, "object"));
    }
    free(q);
    return op;
}

/* torch.cat([op1(x), op2(x), ...], dim) with every part an elementwise op
 * of the one name x. */
static bool read_cat(const al_pymodule *m, TSNode call, parts *p)
{
    const al_pyfile *pf = m->pf;
    bool cat = al_pymodule_calls_torch_cat(m, call);
    al_py_args a;
    al_py_args_read(call, &a);
    if (!cat || a.splat || a.npos < 1 || a.npos > 2 ||
        !al_py_kwargs_within(pf, &a, (const char *const[]){"dim", NULL}))
        return false;
    TSNode dim = a.npos == 2 ? a.pos[1] : al_py_kwarg(pf, &a, "dim");
    p->dim = 0;
    if (!ts_node_is_null(dim)) {
        char *d = al_node_text_compact(pf, dim);
        char *end;
        p->dim = strtol(d, &end, 10);
        bool number = *d && !*end && p->dim > -8 && p->dim < 8;
        free(d);
        if (!number)
            return false;
    }
    TSNode items[MAX_PARTS + 1];
    p->k = al_py_elements(a.pos[0], items, MAX_PARTS);
    if (p->k < 2)
        return false;
    bool named = false; /* one op called by name, not all `-x` */
    for (int i = 0; i < p->k; i++) {
        TSNode x = {0};
        p->op[i] = read_part(m, items[i], &x);
        named = named || !al_node_is(al_py_unparen(items[i]), "unary_operator");
        if (!p->op[i] || !al_node_is(x, "identifier"))
            return false;
        if (i == 0)
            p->operand = x;
        else if (!al_py_same_text(pf, x, p->operand))
            return false;
    }
    return named;
}

/* A name not mentioned in func nor written there by an earlier fix of
 * this rule: base, else base2, base3... */
static char *fresh_name(const al_pyfile *pf, TSNode func, const char *base,
                        const al_findings *found, al_applicability tier)
{
    for (int i = 1; i < 10; i++) {
        al_strbuf sb = {0};
        al_strbuf_puts(&sb, base);
        if (i > 1)
            al_strbuf_printf(&sb, "%d", i);
        char *name = al_strbuf_detach(&sb);
        if (al_py_count_ident(pf, func, name) == 0 &&
            !al_rule_name_taken(found, "AL204", ts_node_start_byte(func), ts_node_end_byte(func),
                                name, tier))
            return name;
        free(name);
    }
    return NULL;
}

/* `(*x.shape[:d], k * x.shape[d], *x.shape[d + 1:])`, d as written. */
static void output_shape(const char *x, long d, int k, al_strbuf *sb)
{
    al_strbuf_putc(sb, '(');
    if (d != 0)
        al_strbuf_printf(sb, "*%s.shape[:%ld], ", x, d);
    al_strbuf_printf(sb, "%d * %s.shape[%ld]", k, x, d);
    if (d != -1)
        al_strbuf_printf(sb, ", *%s.shape[%ld:]", x, d + 1);
    al_strbuf_putc(sb, ')');
}

/* The statements that replace the cat's: out made, each op writing its
 * narrow of it, then `final` (`x = out`, `return out`) when given. */
static char *rewrite(const parts *p, const char *torch, const char *x, const char *out,
                     const char *indent, const char *final)
{
    al_strbuf sb = {0};
    al_strbuf_printf(&sb, "%s = %s.new_empty(", out, x);
    output_shape(x, p->dim, p->k, &sb);
    al_strbuf_putc(&sb, ')');
    for (int i = 0; i < p->k; i++) {
        al_strbuf_printf(&sb, "\n%s%s.%s(%s, out=%s.narrow(%ld, ", indent, torch, p->op[i], x,
                         out, p->dim);
        if (i == 0)
            al_strbuf_puts(&sb, "0");
        else if (i == 1)
            al_strbuf_printf(&sb, "%s.shape[%ld]", x, p->dim);
        else
            al_strbuf_printf(&sb, "%d * %s.shape[%ld]", i, x, p->dim);
        al_strbuf_printf(&sb, ", %s.shape[%ld]))", x, p->dim);
    }
    if (final)
        al_strbuf_printf(&sb, "\n%s%s", indent, final);
    return al_strbuf_detach(&sb);
}

typedef struct {
    al_fix *fix;
    char *no_fix; /* why there is none */
} fix_result;

/* The value the statement is made of: the cat itself, or a chain of
 * method calls on it (`torch.cat(...).to(dtype)`, `.contiguous()`), which
 * evaluates the cat first, as the fix does. */
static TSNode chain_head_value(TSNode call)
{
    TSNode v = call;
    for (;;) {
        TSNode attr = ts_node_parent(v);
        TSNode next = ts_node_parent(attr);
        if (!al_node_is(attr, "attribute") || !al_py_node_eq(al_node_field(attr, "object"), v) ||
            !al_node_is(next, "call") || !al_py_node_eq(al_node_field(next, "function"), attr))
            return v;
        v = next;
    }
}

/* The fix for `target = <value>` or `return <value>`, the value the cat
 * or a chain of calls on it, and its tier's reasons. */
static fix_result make_fix(const al_rule_input *in, TSNode func, TSNode call, const parts *p,
                           const char *x, al_strbuf *unsafe, const al_findings *found)
{
    const al_pymodule *m = in->py;
    const al_pyfile *pf = m->pf;
    fix_result r = {NULL, NULL};
    TSNode value = chain_head_value(call);
    TSNode stmt = ts_node_parent(value);
    TSNode target = {0};
    bool returned = al_node_is(stmt, "return_statement");
    if (al_node_is(stmt, "assignment") && ts_node_is_null(al_node_field(stmt, "type")) &&
        al_node_is(al_node_field(stmt, "left"), "identifier") &&
        al_py_node_eq(al_node_field(stmt, "right"), value)) {
        target = al_node_field(stmt, "left");
        stmt = ts_node_parent(stmt);
        if (!al_node_is(stmt, "expression_statement") || ts_node_named_child_count(stmt) != 1)
            target = (TSNode){0};
    }
    char *indent = ts_node_is_null(target) && !returned ? NULL : al_py_indent_of(pf, stmt);
    size_t start, end;
    if (!indent || !al_py_statement_lines(pf, stmt, &start, &end)) {
        r.no_fix = al_xstrdup("needs `name = torch.cat(...)` or `return torch.cat(...)` (or a "
                              "chain of calls on it) as a statement of its own");
    } else if (!m->torch) {
        r.no_fix = al_xstrdup("no `import torch` to spell the ops with `out=`");
    } else {
        char *name = ts_node_is_null(target) ? NULL : al_node_text(pf, target);
        char *out = NULL, *final = NULL;
        if (name && strcmp(name, x) != 0 && al_py_node_eq(value, call)) {
            out = al_xstrdup(name);
        } else {
            /* x is still read while the output is written, or the value
             * goes on past the cat: a new name, which the statement then
             * reads in the cat's place */
            al_strbuf sb = {0};
            al_strbuf_printf(&sb, "%s_cat", x);
            out = fresh_name(pf, func, sb.data, found,
                             unsafe->len ? AL_FIX_UNSAFE : AL_FIX_SAFE);
            al_strbuf_free(&sb);
            if (out) {
                size_t s0 = ts_node_start_byte(stmt), c0 = ts_node_start_byte(call);
                size_t c1 = ts_node_end_byte(call), s1 = ts_node_end_byte(stmt);
                al_strbuf_append(&sb, pf->src->bytes + s0, c0 - s0);
                al_strbuf_puts(&sb, out);
                al_strbuf_append(&sb, pf->src->bytes + c1, s1 - c1);
                final = al_strbuf_detach(&sb);
            }
        }
        if (!out) {
            al_strbuf sb = {0};
            al_strbuf_printf(&sb, "no free name for the output beside `%s`", x);
            r.no_fix = al_strbuf_detach(&sb);
        } else {
            char *repl = rewrite(p, m->torch, x, out, indent, final);
            r.fix = al_fix_new(unsafe->len ? AL_FIX_UNSAFE : AL_FIX_SAFE,
                               "Let the ops write their slices of one output (`out=`)");
            al_fix_add_edit(r.fix, ts_node_start_byte(stmt), ts_node_end_byte(stmt), repl);
            free(repl);
        }
        free(name), free(out), free(final);
    }
    free(indent);
    return r;
}

static void cat_of_results(const al_rule_input *in, TSNode call, al_findings *out)
{
    const al_pymodule *m = in->py;
    const al_pyfile *pf = m->pf;
    parts p;
    if (!read_cat(m, call, &p))
        return;
    TSNode func = al_enclosing_function(call);
    if (ts_node_is_null(func))
        return; /* module-level code runs once */
    TSNode stmt = call;
    while (!ts_node_is_null(stmt) && !al_node_is(ts_node_parent(stmt), "block"))
        stmt = ts_node_parent(stmt);
    if (ts_node_is_null(stmt))
        return; /* not in a block: a parse that recovered from an error */
    char *x = al_node_text(pf, p.operand);
    al_strbuf unsafe = {0};
    /* The output takes x's dtype, the ops' result dtype only for a real
     * floating x: an integer x's cos is float (out= refuses it), a
     * complex x's abs is real (out= would keep it complex). */
    if (!al_dtype_floating(m, func, stmt, p.operand))
        al_strbuf_printf(&unsafe, "`%s` is not known to be floating (the output is made with "
                                  "`%s`'s dtype, the ops' result dtype only for a floating "
                                  "tensor)",
                         x, x);
    al_grad grad = in->inference ? (al_grad){.off = true} : al_grad_at(m, func, stmt);
    if (!grad.off && grad.spoiler)
        al_strbuf_printf(&unsafe, "%sautograd may be on (ops with `out=` raise when `%s` "
                                  "requires grad): %s on line %zu may turn it back on",
                         unsafe.len ? "; " : "", x, grad.spoiler, grad.spoiler_row);
    else if (!grad.off)
        al_strbuf_printf(&unsafe, "%sautograd may be on (ops with `out=` raise when `%s` "
                                  "requires grad): no `torch.inference_mode()` or `no_grad()` "
                                  "around it, no `inference = true`",
                         unsafe.len ? "; " : "", x);
    else if (grad.assumed[0])
        al_strbuf_printf(&unsafe, "%sassumes autograd is off (ops with `out=` raise when `%s` "
                                  "requires grad): %s",
                         unsafe.len ? "; " : "", x, grad.assumed);
    fix_result r = make_fix(in, func, call, &p, x, &unsafe, out);
    al_strbuf msg = {0};
    al_strbuf_printf(&msg, "`torch.cat` copies %d results of elementwise ops on `%s` into a new "
                           "tensor: the ops can write their slices of one output (`out=`), a "
                           "copy and %d temporaries fewer, 1.03-2.06x faster on an H200",
                     p.k, x, p.k);
    if (r.no_fix)
        al_strbuf_printf(&msg, " (no fix: %s)", r.no_fix);
    else if (unsafe.len)
        al_strbuf_printf(&msg, " (unsafe: %s)", unsafe.data);
    else
        al_strbuf_printf(&msg, "; proved: `%s` floating, no autograd", x);
    al_findings_add(out, "AL204", "cat-of-results", ts_node_start_byte(call),
                    ts_node_end_byte(call), al_strbuf_detach(&msg), r.fix);
    free(r.no_fix);
    al_strbuf_free(&unsafe);
    free(x);
}

void al_rule_al204(const al_rule_input *in, al_findings *out)
{
    for (size_t i = 0; i < in->py->n_calls; i++)
        cat_of_results(in, in->py->calls[i], out);
}
