#include "impls.h"

#include "ops.h"
#include "../../front/python/syntax.h"
#include "../../base/util.h"

#include <stdlib.h>
#include <string.h>

/* A plain string literal's value (no f-string), or NULL. */
static char *string_value(const al_pyfile *pf, TSNode n)
{
    if (!al_node_is(n, "string"))
        return NULL;
    char *t = al_node_text(pf, n);
    size_t len = strlen(t);
    if (len < 2 || (t[0] != '"' && t[0] != '\'') || t[len - 1] != t[0] || strchr(t, '{')) {
        free(t);
        return NULL;
    }
    char *v = al_xstrndup(t + 1, len - 2);
    free(t);
    return v;
}

static void add_op(al_impls *ops, const char *name, const char *path, char *func)
{
    /* "ns::op" names its namespace; a bare name registers into a library
     * chosen at run time: match it by name ("*." prefix). */
    al_strbuf key = {0};
    if (strstr(name, "::"))
        al_strbuf_puts(&key, name);
    else
        al_strbuf_printf(&key, "*.%s", name);
    al_impl b = {al_op_key(key.data), al_xstrdup(path), func};
    al_strbuf_free(&key);
    AL_PUSH(ops->items, ops->n, ops->cap, b);
}

void al_impls_read_python(const char *path, const al_pyfile *pf, al_impls *ops)
{
    TSTreeCursor c = ts_tree_cursor_new(pf->root);
    unsigned depth = 0;
    for (;;) {
        TSNode n = ts_tree_cursor_current_node(&c);
        if (al_node_is(n, "call")) {
            TSNode fn = al_node_field(n, "function");
            if (al_py_last_name_is(pf, fn, "impl") && al_node_is(fn, "attribute")) {
                /* Library("ns", ...).impl("op", fn, "CUDA") and
                 * torch.library.impl("ns::op", "CUDA", fn): the op's
                 * name as a literal, the function by name. */
                al_py_args a;
                al_py_args_read(n, &a);
                char *op = a.npos > 0 ? string_value(pf, a.pos[0]) : NULL;
                TSNode func = al_py_kwarg(pf, &a, "func");
                if (ts_node_is_null(func))
                    func = a.npos > 2 && !al_node_is(a.pos[1], "identifier") ? a.pos[2]
                           : a.npos > 1                                     ? a.pos[1]
                                                                           : func;
                if (op && al_node_is(func, "identifier"))
                    add_op(ops, op, path, al_node_text(pf, func));
                free(op);
            } else if (al_py_last_name_is(pf, fn, "direct_register_custom_op")) {
                al_py_args a;
                al_py_args_read(n, &a);
                TSNode name = a.npos > 0 ? a.pos[0] : al_py_kwarg(pf, &a, "op_name");
                TSNode func = a.npos > 1 ? a.pos[1] : al_py_kwarg(pf, &a, "op_func");
                char *op = string_value(pf, name);
                if (op && al_node_is(func, "identifier"))
                    add_op(ops, op, path, al_node_text(pf, func));
                free(op);
            }
        } else if (al_node_is(n, "decorated_definition")) {
            TSNode def = al_node_field(n, "definition");
            uint32_t k = ts_node_named_child_count(n);
            for (uint32_t i = 0; i < k && al_node_is(def, "function_definition"); i++) {
                TSNode d = ts_node_named_child(n, i);
                TSNode call = al_node_is(d, "decorator") ? ts_node_named_child(d, 0) : (TSNode){0};
                if (!al_node_is(call, "call"))
                    continue;
                TSNode fn = al_node_field(call, "function");
                /* @torch.library.impl("ns::op", "CUDA"), @lib.impl("op"):
                 * the decorated function implements the op. */
                bool impl = al_py_last_name_is(pf, fn, "impl");
                if (!impl && !al_py_last_name_is(pf, fn, "custom_op") &&
                    !al_py_last_name_is(pf, fn, "register_custom_op"))
                    continue;
                al_py_args a;
                al_py_args_read(call, &a);
                char *op = a.npos > 0 ? string_value(pf, a.pos[0]) : NULL;
                if (!op)
                    op = string_value(pf, al_py_kwarg(pf, &a, "op_name"));
                char *fname = al_node_text(pf, al_node_field(def, "name"));
                if (op || !impl)
                    add_op(ops, op ? op : fname, path, fname);
                free(op);
            }
        }
        if (depth < 200 && ts_tree_cursor_goto_first_child(&c)) {
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

const al_impl *al_impls_find(const al_impls *ops, const char *op)
{
    char *key = al_op_key(op);
    const al_impl *hit = NULL;
    bool ambiguous = false;
    for (size_t i = 0; i < ops->n; i++)
        if (al_op_key_matches(ops->items[i].op, key)) {
            if (hit && (strcmp(hit->func, ops->items[i].func) || strcmp(hit->path, ops->items[i].path)))
                ambiguous = true;
            hit = &ops->items[i];
        }
    free(key);
    return ambiguous ? NULL : hit;
}

void al_impls_free(al_impls *ops)
{
    for (size_t i = 0; i < ops->n; i++) {
        free(ops->items[i].op);
        free(ops->items[i].path);
        free(ops->items[i].func);
    }
    free(ops->items);
    memset(ops, 0, sizeof *ops);
}
