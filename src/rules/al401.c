/* AL401 inplace-candidate: x = x - y on a fresh local tensor. GPU
 * evidence (rules/AL401.md): 0.99-1.04x, no gain. Off by default and
 * always unsafe (views, autograd, broadcasting, dtype promotion). */
#include "rules.h"

#include "../analysis/lifetime.h"
#include "../util.h"

#include <stdlib.h>
#include <string.h>

static void report(TSNode asg, const char *name, const char *method, const char *operand,
                   al_findings *out)
{
    size_t start = ts_node_start_byte(asg), end = ts_node_end_byte(asg);
    al_strbuf repl = {0};
    al_strbuf_printf(&repl, "%s.%s(%s)", name, method, operand);
    al_strbuf msg = {0};
    al_strbuf_printf(&msg, "`%s` is a fresh local tensor rebound to a new one: `%s` would "
                           "reuse its memory (no speed gain measured; unsafe under autograd, "
                           "broadcasting or dtype promotion)",
                     name, repl.data);
    al_strbuf fm = {0};
    al_strbuf_printf(&fm, "Replace with `%s`", repl.data);
    al_fix *fix = al_fix_new(AL_FIX_UNSAFE, fm.data);
    al_fix_add_edit(fix, start, end, repl.data);
    al_findings_add(out, "AL401", "inplace-candidate", start, end, al_strbuf_detach(&msg), fix);
    al_strbuf_free(&repl);
    al_strbuf_free(&fm);
}

/* The in-place method that `name = <rhs>` can become, and its operand
 * (plus extra keyword text, owned), or NULL. */
static const char *inplace_form(const al_pymodule *m, TSNode rhs, const char *name,
                                TSNode *operand, char **extra)
{
    const al_pyfile *pf = m->pf;
    rhs = al_py_unparen(rhs);
    if (al_node_is(rhs, "binary_operator")) {
        TSNode l = al_node_field(rhs, "left"), r = al_node_field(rhs, "right");
        TSNode op = al_node_field(rhs, "operator");
        bool lx = al_node_is(l, "identifier") && al_node_text_eq(pf, l, name);
        bool rx = al_node_is(r, "identifier") && al_node_text_eq(pf, r, name);
        if (al_node_text_eq(pf, op, "-") && lx)
            return *operand = r, "sub_";
        if (al_node_text_eq(pf, op, "+") && (lx || rx))
            return *operand = lx ? r : l, "add_";
        if (al_node_text_eq(pf, op, "*") && (lx || rx))
            return *operand = lx ? r : l, "mul_";
        if (al_node_text_eq(pf, op, "/") && lx)
            return *operand = r, "div_";
        return NULL;
    }
    if (!al_node_is(rhs, "call"))
        return NULL;
    char *q = al_pymodule_resolve(m, al_node_field(rhs, "function"));
    al_py_args a;
    al_py_args_read(rhs, &a);
    static const char *const ops[][2] = {{"torch.add", "add_"}, {"torch.sub", "sub_"},
                                         {"torch.mul", "mul_"}, {"torch.div", "div_"}};
    const char *method = NULL;
    for (int i = 0; q && i < 4; i++)
        if (!strcmp(q, ops[i][0]) && a.npos == 2 && !a.splat &&
            al_node_is(a.pos[0], "identifier") && al_node_text_eq(pf, a.pos[0], name) &&
            ts_node_is_null(al_py_kwarg(pf, &a, "out"))) {
            method = ops[i][1];
            *operand = a.pos[1];
            free(*extra);
            *extra = al_py_kwargs_text(pf, &a, NULL);
        }
    free(q);
    return method;
}

/* Fresh: every binding of the name in the function makes a new tensor;
 * unaliased: no view, alias, store or unknown call sees it. */
static bool fresh_and_unaliased(const al_pymodule *m, TSNode func, TSNode asg, const char *name)
{
    const al_pyfile *pf = m->pf;
    bool ok = true;
    TSTreeCursor cur = ts_tree_cursor_new(func);
    bool more = ts_tree_cursor_goto_first_child(&cur);
    while (more && ok) {
        TSNode n = ts_tree_cursor_current_node(&cur);
        bool descend = true;
        const char *t = ts_node_type(n);
        if (!strcmp(t, "function_definition") || !strcmp(t, "class_definition") ||
            !strcmp(t, "lambda")) {
            if (al_py_count_ident(pf, n, name))
                ok = false; /* captured */
            descend = false;
        } else if (!strcmp(t, "global_statement") || !strcmp(t, "nonlocal_statement")) {
            if (al_py_count_ident(pf, n, name))
                ok = false;
        } else if (!strcmp(t, "for_statement")) {
            TSNode left = al_node_field(n, "left");
            if (!ts_node_is_null(left) && al_py_count_ident(pf, left, name))
                ok = false;
        } else if (!strcmp(t, "with_item")) {
            if (al_py_count_ident(pf, n, name) &&
                strstr(ts_node_type(al_node_field(n, "value")), "as_pattern"))
                ok = false;
        } else if (!strcmp(t, "assignment")) {
            TSNode left = al_node_field(n, "left");
            if (al_node_is(left, "identifier") && al_node_text_eq(pf, left, name)) {
                if (!ts_node_eq(n, asg) && !al_fresh_value(pf, &m->imports, al_node_field(n, "right")))
                    ok = false;
            } else if (al_py_count_ident(pf, left, name) && !al_node_is(left, "subscript")) {
                ok = false; /* a, x = ... */
            }
        } else if (!strcmp(t, "identifier") && al_node_text_eq(pf, n, name)) {
            TSNode par = ts_node_parent(n);
            bool meta = al_node_is(par, "attribute") &&
                        ts_node_eq(al_node_field(par, "attribute"), n);
            bool kwname = al_node_is(par, "keyword_argument") &&
                          ts_node_eq(al_node_field(par, "name"), n);
            if (!meta && !kwname && al_use_escapes(pf, &m->imports, n) &&
                !al_node_is(par, "return_statement"))
                ok = false;
        }
        if (descend && ts_tree_cursor_goto_first_child(&cur))
            continue;
        while (!(more = ts_tree_cursor_goto_next_sibling(&cur)))
            if (!ts_tree_cursor_goto_parent(&cur) ||
                ts_node_eq(ts_tree_cursor_current_node(&cur), func))
                break;
    }
    ts_tree_cursor_delete(&cur);
    return ok;
}

/* The name is bound before stmt at the top level of the function body. */
static bool bound_before(const al_pyfile *pf, TSNode func, TSNode stmt, const char *name)
{
    TSNode body = al_node_field(func, "body");
    uint32_t k = ts_node_named_child_count(body);
    for (uint32_t i = 0; i < k; i++) {
        TSNode s = ts_node_named_child(body, i);
        if (ts_node_start_byte(s) >= ts_node_start_byte(stmt))
            break;
        if (al_node_is(s, "expression_statement") &&
            al_node_is(ts_node_named_child(s, 0), "assignment")) {
            TSNode l = al_node_field(ts_node_named_child(s, 0), "left");
            if (al_node_is(l, "identifier") && al_node_text_eq(pf, l, name))
                return true;
        }
    }
    return false;
}

/* A parameter is caller-owned. */
static bool is_parameter(const al_pyfile *pf, TSNode func, const char *name)
{
    TSNode params = al_node_field(func, "parameters");
    uint32_t k = ts_node_named_child_count(params);
    for (uint32_t i = 0; i < k; i++) {
        TSNode id = ts_node_named_child(params, i);
        while (!ts_node_is_null(id) && !al_node_is(id, "identifier"))
            id = ts_node_named_child_count(id) ? ts_node_named_child(id, 0) : (TSNode){0};
        if (!ts_node_is_null(id) && al_node_text_eq(pf, id, name))
            return true;
    }
    return false;
}

static void inplace_candidate(TSNode func, TSNode stmt, void *arg)
{
    al_rule_visit *w = arg;
    const al_pymodule *m = w->in->py;
    const al_pyfile *pf = m->pf;
    TSNode asg = al_py_name_assignment(stmt);
    if (ts_node_is_null(asg) || !ts_node_is_null(al_node_field(asg, "type")))
        return;
    char *name = al_node_text(pf, al_node_field(asg, "left"));
    TSNode operand = {0};
    char *extra = NULL;
    const char *method = inplace_form(m, al_node_field(asg, "right"), name, &operand, &extra);
    /* Not a parameter; bound before, in this function, by a fresh value. */
    bool ok = method && al_py_count_ident(pf, operand, name) == 0 &&
              !is_parameter(pf, func, name) &&
              fresh_and_unaliased(m, func, asg, name) && bound_before(pf, func, stmt, name);
    if (ok) {
        char *op = al_node_text(pf, operand);
        al_strbuf sb = {0};
        al_strbuf_printf(&sb, "%s%s", op, extra ? extra : "");
        free(op);
        report(asg, name, method, sb.data, w->out);
        al_strbuf_free(&sb);
    }
    free(name);
    free(extra);
}

void al_rule_al401(const al_rule_input *in, al_findings *out)
{
    al_rule_visit w = {in, out};
    al_pymodule_walk(in->py, &(al_py_walker){NULL, inplace_candidate, &w});
}
