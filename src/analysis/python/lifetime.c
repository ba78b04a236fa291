#include "lifetime.h"
#include "uses.h"

#include "../../base/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool in_list(const char *const *list, const char *s)
{
    return al_str_in_list(list, s, strlen(s));
}

TSNode al_enclosing_loop(TSNode func, TSNode n)
{
    for (TSNode c = n, p = ts_node_parent(n); !ts_node_is_null(p) && !ts_node_eq(p, func);
         c = p, p = ts_node_parent(p)) {
        if (al_node_is(p, "function_definition") || al_node_is(p, "lambda") ||
            al_node_is(p, "class_definition"))
            break;
        /* A loop's `else:` runs once, after the last pass: not in it. */
        if ((al_node_is(p, "for_statement") || al_node_is(p, "while_statement")) &&
            !al_node_is(c, "else_clause"))
            return p;
    }
    return (TSNode){0};
}

static bool invariant(const al_pyfile *pf, TSNode expr, const al_strlist *names, int depth)
{
    if (depth > 100)
        return false;
    const char *t = ts_node_type(expr);
    if (!strcmp(t, "identifier")) {
        size_t len;
        const char *p = al_node_ptr(pf, expr, &len);
        return !al_strlist_has(names, p, len);
    }
    if (!strcmp(t, "attribute"))
        return invariant(pf, al_node_field(expr, "object"), names, depth + 1);
    if (!strcmp(t, "keyword_argument"))
        return invariant(pf, al_node_field(expr, "value"), names, depth + 1);
    if (!strcmp(t, "call")) {
        TSNode fn = al_node_field(expr, "function");
        if (!al_node_is(fn, "attribute"))
            return false;
        if (!al_py_last_name_is(pf, fn, "size") && !al_py_last_name_is(pf, fn, "dim") &&
            !al_py_last_name_is(pf, fn, "numel"))
            return false;
    }
    if (!strcmp(t, "lambda") || !strcmp(t, "list_comprehension") ||
        !strcmp(t, "generator_expression") || !strcmp(t, "await"))
        return false;
    uint32_t k = ts_node_named_child_count(expr);
    for (uint32_t i = 0; i < k; i++)
        if (!invariant(pf, ts_node_named_child(expr, i), names, depth + 1))
            return false;
    return true;
}

bool al_loop_invariant(const al_pyfile *pf, TSNode expr, const al_strlist *names)
{
    return invariant(pf, expr, names, 0);
}

/* Tensor methods that read their argument and keep no reference to it. */
static const char *const READING_METHODS[] = {
    "add", "sub", "mul", "div", "matmul", "mm", "bmm", "expand_as", "view_as", "reshape_as",
    "type_as", "to", "eq", "ne", "lt", "gt", "le", "ge", "where", "masked_fill",
    "index_select", "gather", NULL};

static bool call_keeps_argument(const al_pyfile *pf, const al_imports *im, TSNode call)
{
    TSNode fn = al_node_field(call, "function");
    char *q = al_imports_resolve(im, pf, fn);
    bool torch = q && !strncmp(q, "torch.", 6) && strncmp(q, "torch.ops.", 10) != 0;
    free(q);
    if (torch)
        return false;
    /* x.add_(t), x.copy_(t), a.matmul(t): a tensor method reads its
     * argument; list.append(t), helper(t) may keep it. */
    if (al_node_is(fn, "attribute")) {
        size_t len;
        const char *m = al_py_last_name(pf, fn, &len);
        if (len > 1 && m[len - 1] == '_' && m[len - 2] != '_')
            return false;
        char name[64];
        snprintf(name, sizeof name, "%.*s", (int)(len < 63 ? len : 63), m);
        if (in_list(READING_METHODS, name))
            return false;
    }
    return true;
}

bool al_use_escapes(const al_pyfile *pf, const al_imports *im, TSNode id)
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
    /* `lambda t=x: ...`: the default holds x (the parameter's own name
     * holds nothing). */
    if (!strcmp(t, "default_parameter") || !strcmp(t, "typed_default_parameter"))
        return ts_node_eq(al_node_field(p, "value"), e);
    if (!strcmp(t, "assignment")) /* y = t (alias) or obj.a = t / d[k] = t (store) */
        return ts_node_eq(al_node_field(p, "right"), e);
    if (!strcmp(t, "attribute") && al_py_node_eq(al_node_field(p, "object"), e) &&
        al_use_reads_metadata(pf, p))
        return false; /* `n = t.shape[0]`, `t.size(1)`: a description, not t */
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
        const char *kw = al_node_ptr(pf, al_node_field(p, "name"), &len);
        if ((len == 3 && !memcmp(kw, "out", 3)) || (len == 6 && !memcmp(kw, "output", 6)) ||
            (len > 4 && !memcmp(kw + len - 4, "_out", 4)))
            return false;
    }
    if (!strcmp(t, "argument_list"))
        return call_keeps_argument(pf, im, ts_node_parent(p));
    if (!strcmp(t, "keyword_argument"))
        return call_keeps_argument(pf, im, ts_node_parent(ts_node_parent(p)));
    return false;
}
