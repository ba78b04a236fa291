#include "kernel.h"

#include "../python/values.h"
#include "../../front/python/syntax.h"
#include "../../base/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------ */
/* Launches                                                             */

/* The argument node for kernel parameter i, or a null node. */
static TSNode arg_for(const al_pyfile *pf, const al_py_args *a, const al_kernel *k, size_t i)
{
    if ((int)i < a->npos)
        return a->pos[i];
    TSNode v = al_py_kwarg(pf, a, k->names[i]);
    return v;
}

/* The element on `axis` of a grid: a tuple or list, a lambda returning
 * one, or a local name bound once to either. */
static TSNode grid_element(const al_pyfile *pf, TSNode grid, int axis, TSNode func, bool *lambda)
{
    *lambda = false;
    grid = al_py_unparen(grid);
    for (int hop = 0; hop < 4 && al_node_is(grid, "identifier") && !ts_node_is_null(func); hop++) {
        /* grid = (...) or grid = lambda meta: (...) earlier in the function */
        TSNode found = {0};
        int count = 0;
        char *name = al_node_text(pf, grid);
        TSTreeCursor c = ts_tree_cursor_new(al_node_field(func, "body"));
        bool more = true;
        while (more) {
            TSNode n = ts_tree_cursor_current_node(&c);
            if (al_node_is(n, "assignment") && al_node_text_eq(pf, al_node_field(n, "left"), name)) {
                count++;
                found = al_node_field(n, "right");
            }
            if (ts_tree_cursor_goto_first_child(&c))
                continue;
            while (!ts_tree_cursor_goto_next_sibling(&c))
                if (!ts_tree_cursor_goto_parent(&c)) {
                    more = false;
                    break;
                }
        }
        ts_tree_cursor_delete(&c);
        free(name);
        if (count != 1)
            return (TSNode){0};
        grid = al_py_unparen(found);
    }
    if (al_node_is(grid, "lambda")) {
        *lambda = true;
        grid = al_py_unparen(al_node_field(grid, "body"));
    }
    if (!al_node_is(grid, "tuple") && !al_node_is(grid, "list"))
        return (TSNode){0};
    uint32_t m = ts_node_named_child_count(grid);
    int k = 0;
    for (uint32_t i = 0; i < m; i++) {
        TSNode e = ts_node_named_child(grid, i);
        if (al_node_is(e, "comment"))
            continue;
        if (k++ == axis)
            return e;
    }
    return (TSNode){0};
}

/* Whether `e` is cdiv(N, B): triton.cdiv(N, B), cdiv(N, B) or
 * (N + B - 1) // B, with N and B spelled as `n` and `block` (a lambda's
 * meta["BLOCK"] stands for the parameter `block_param`). */
static bool is_cdiv(const al_pyfile *pf, TSNode func, TSNode call, TSNode e, const char *n,
                    const char *block, const char *block_param)
{
    e = al_py_unparen(e);
    TSNode x = {0}, y = {0};
    if (al_node_is(e, "call") && al_py_last_name_is(pf, al_node_field(e, "function"), "cdiv")) {
        al_py_args a;
        al_py_args_read(e, &a);
        if (a.npos != 2)
            return false;
        x = a.pos[0];
        y = a.pos[1];
    } else if (al_node_is(e, "binary_operator") &&
               al_node_text_eq(pf, al_node_field(e, "operator"), "//")) {
        y = al_node_field(e, "right");
        TSNode l = al_py_unparen(al_node_field(e, "left"));
        char *want = NULL;
        char *yt = al_value_text(pf, func, call, y);
        al_strbuf sb = {0};
        al_strbuf_printf(&sb, "(%s+%s)-1", n, yt);
        want = al_strbuf_detach(&sb);
        char *lt = al_value_text(pf, func, call, l);
        bool ok = !strcmp(lt, want);
        free(want);
        free(lt);
        free(yt);
        if (!ok)
            return false;
        char *bt = al_value_text(pf, func, call, y);
        ok = block && !strcmp(bt, block);
        free(bt);
        return ok;
    } else {
        return false;
    }
    char *xt = al_value_text(pf, func, call, x);
    bool ok = !strcmp(xt, n);
    free(xt);
    if (!ok)
        return false;
    y = al_py_unparen(y);
    if (al_node_is(y, "subscript") && block_param) {
        /* meta["BLOCK"] in a grid lambda */
        TSNode key[1];
        if (al_node_field_children(y, "subscript", key, 1) == 1 && al_node_is(key[0], "string")) {
            char *kt = al_node_text(pf, key[0]);
            size_t kl = strlen(kt);
            ok = kl >= 2 && kl - 2 == strlen(block_param) && !strncmp(kt + 1, block_param, kl - 2);
            free(kt);
            return ok;
        }
    }
    char *yt = al_value_text(pf, func, call, y);
    ok = block && !strcmp(yt, block);
    free(yt);
    return ok;
}

void al_triton_launch(const al_file_env *caller, TSNode call, const al_kernel *k,
                      const char *kernel, const char *path, int pos, TSNode kw,
                      al_call_effect *out)
{
    const al_pyfile *pf = caller->pf;
    memset(out, 0, sizeof *out);
    out->callee = al_xstrdup(kernel);
    int pi = -1;
    if (pos >= 0) {
        pi = pos < (int)k->n ? pos : -1;
    } else if (!ts_node_is_null(kw)) {
        for (size_t i = 0; i < k->n; i++)
            if (al_node_text_eq(pf, kw, k->names[i]))
                pi = (int)i;
    }
    if (pi < 0) {
        out->effect = AL_EFFECT_UNKNOWN;
        out->why = al_xstrdup("the argument matches no parameter of the kernel");
        return;
    }
    const al_kparam *p = &k->params[pi];
    out->effect = p->effect;
    if (p->why) {
        al_chain_add(&out->chain, path, p->row, "%s %s", kernel, p->why);
        if (p->effect == AL_EFFECT_WRITES_ALL)
            al_chain_mark_store(&out->chain);
        al_strbuf sb = {0};
        al_strbuf_printf(&sb, "%s %s", kernel, p->why);
        out->why = al_strbuf_detach(&sb);
    }
    if (p->effect != AL_EFFECT_WRITES_ALL)
        return;
    TSNode func = al_enclosing_function(call);
    al_py_args a;
    al_py_args_read(call, &a);
    TSNode n_arg = arg_for(pf, &a, k, (size_t)p->n);
    TSNode grid = al_node_field(al_node_field(call, "function"), "subscript");
    char *why = NULL;
    if (ts_node_is_null(n_arg) || a.splat) {
        al_strbuf sb = {0};
        al_strbuf_printf(&sb, "%s is launched without the bound of its mask in plain sight", kernel);
        why = al_strbuf_detach(&sb);
    } else if (p->cover == AL_TCOVER_GRID) {
        char *nt = al_value_text(pf, func, call, n_arg);
        TSNode b_arg = p->block >= 0 ? arg_for(pf, &a, k, (size_t)p->block) : (TSNode){0};
        char *bt = !ts_node_is_null(b_arg) ? al_value_text(pf, func, call, b_arg)
                                           : (p->block < 0 ? al_xstrdup(p->block_text) : NULL);
        bool lambda;
        TSNode g = grid_element(pf, grid, p->axis, func, &lambda);
        if (ts_node_is_null(g) ||
            !is_cdiv(pf, func, call, g, nt, bt, lambda && p->block >= 0 ? k->names[p->block] : NULL)) {
            char *gt = ts_node_is_null(grid) ? al_xstrdup("?") : al_node_text_compact(pf, grid);
            al_strbuf sb = {0};
            al_strbuf_printf(&sb, "%s runs on the grid `%s`, which alloclint could not prove "
                                  "launches cdiv(%s, %s) programs on axis %d",
                             kernel, gt, nt, bt ? bt : k->names[p->block >= 0 ? p->block : 0],
                             p->axis);
            why = al_strbuf_detach(&sb);
            free(gt);
        }
        free(nt);
        free(bt);
    } else if (p->cover == AL_TCOVER_ROWS) {
        TSNode s_arg = p->stride >= 0 ? arg_for(pf, &a, k, (size_t)p->stride) : (TSNode){0};
        bool lambda;
        TSNode g = grid_element(pf, grid, p->axis, func, &lambda);
        bool cols_ok = p->block_cols < 0;
        if (!cols_ok) {
            TSNode bn = arg_for(pf, &a, k, (size_t)p->block_cols);
            bn = al_py_unparen(bn);
            if (al_node_is(bn, "call") &&
                al_py_last_name_is(pf, al_node_field(bn, "function"), "next_power_of_2")) {
                al_py_args ba;
                al_py_args_read(bn, &ba);
                char *x = ba.npos == 1 ? al_value_text(pf, func, call, ba.pos[0]) : al_xstrdup("");
                char *nt = al_value_text(pf, func, call, n_arg);
                cols_ok = !strcmp(x, nt);
                free(x);
                free(nt);
            }
        }
        if (ts_node_is_null(g) || ts_node_is_null(s_arg) || lambda || !cols_ok) {
            al_strbuf sb = {0};
            al_strbuf_printf(&sb, "%s %s", kernel,
                             !cols_ok ? "covers every column only if its column block is "
                                        "`triton.next_power_of_2` of the column count, which "
                                        "alloclint could not prove"
                                      : "runs one program per row of a grid alloclint could not "
                                        "read");
            why = al_strbuf_detach(&sb);
        } else {
            out->req = (al_req){.kind = AL_REQ_ROWS, .param = -1, .node = g, .node2 = n_arg,
                                .node3 = s_arg};
        }
    }
    if (why) {
        out->effect = AL_EFFECT_WRITES_SOME;
        al_chain_add(&out->chain, caller->path, al_node_row(call), "%s", why);
        free(out->why);
        out->why = why;
        return;
    }
    char *gt = ts_node_is_null(grid) ? al_xstrdup("?") : al_node_text_compact(pf, grid);
    char *nt = al_node_text_compact(pf, n_arg);
    if (p->cover == AL_TCOVER_ROWS)
        al_chain_add(&out->chain, caller->path, al_node_row(call),
                     "the grid `%s` launches one program per row, each covering the `%s` columns",
                     gt, nt);
    else
        al_chain_add(&out->chain, caller->path, al_node_row(call),
                     "the grid `%s` launches every program the bound `%s` needs", gt, nt);
    free(gt);
    free(nt);
    if (out->req.kind == AL_REQ_NONE)
        out->req = (al_req){.kind = AL_REQ_NUMEL_IS_VALUE, .param = -1, .node = n_arg};
}
