#include "modes.h"

#include "../../front/python/syntax.h"
#include "../../base/util.h"

#include <stdlib.h>
#include <string.h>

/* Whether name is a parameter of the kernel annotated `tl.constexpr`. */
static bool constexpr_param(const al_tf_kernel *k, TSNode name)
{
    TSNode params = al_node_field(k->def, "parameters");
    for (uint32_t i = 0; i < ts_node_named_child_count(params); i++) {
        TSNode q = ts_node_named_child(params, i);
        if (!al_node_is(q, "typed_parameter") && !al_node_is(q, "typed_default_parameter"))
            continue;
        TSNode id = al_node_is(q, "typed_parameter") ? ts_node_named_child(q, 0)
                                                     : al_node_field(q, "name");
        char *want = al_node_text(k->pf, name);
        bool same = al_node_is(id, "identifier") && al_node_text_eq(k->pf, id, want);
        free(want);
        if (!same)
            continue;
        char *t = al_node_text_compact(k->pf, al_node_field(q, "type"));
        size_t n = strlen(t);
        bool c = n >= 9 && !strcmp(t + n - 9, "constexpr");
        free(t);
        return c;
    }
    return false;
}

/* A condition made of the kernel's constexpr parameters alone (`if
 * REDUCTION_NONE:`, `if not HAS_BIAS and IS_FP8:`): the mode a launch
 * chooses. */
bool al_tf_mode_condition(const al_tf_kernel *k, TSNode cond, int depth, bool *any)
{
    if (depth > 50)
        return false;
    cond = al_py_unparen(cond);
    if (al_node_is(cond, "identifier")) {
        *any = true;
        return constexpr_param(k, cond);
    }
    if (al_node_is(cond, "not_operator") || al_node_is(cond, "boolean_operator")) {
        for (uint32_t i = 0; i < ts_node_named_child_count(cond); i++)
            if (!al_tf_mode_condition(k, ts_node_named_child(cond, i), depth + 1, any))
                return false;
        return true;
    }
    return false;
}

/* The value of the last `name = v` on every path before at (a statement
 * of its block, or of a block around it), or a null node. A name bound
 * twice in a kernel (`start = tl.load(...)`, later `start = pid * n`)
 * has no one value; the loop sees the binding before it. */
TSNode al_tf_value_before(const al_tf_kernel *k, TSNode name, TSNode at)
{
    char *want = al_node_text(k->pf, name);
    TSNode v = {0};
    for (TSNode n = at; ts_node_is_null(v) && !ts_node_is_null(n) && !ts_node_eq(n, k->def);
         n = ts_node_parent(n)) {
        if (!al_node_is(ts_node_parent(n), "block"))
            continue;
        for (TSNode s = ts_node_prev_named_sibling(n); !ts_node_is_null(s) && ts_node_is_null(v);
             s = ts_node_prev_named_sibling(s)) {
            TSNode asg = al_py_name_assignment(s);
            if (!ts_node_is_null(asg) && al_node_text_eq(k->pf, al_node_field(asg, "left"), want))
                v = al_node_field(asg, "right");
        }
    }
    free(want);
    return v;
}

/* `for _ in range(0, tl.where(c, 1, 0))` around a store that does not use
 * the loop's variable: a trip count read from memory decides whether the
 * store is made. (A loop whose variable the store's offsets use walks a
 * segment of a loaded length, which cover_of_store judges.) */
bool al_tf_loaded_trip(const al_tf_kernel *k, TSNode loop)
{
    TSNode it = al_py_unparen(al_node_field(loop, "right"));
    TSNode var = al_node_field(loop, "left");
    if (!al_node_is(it, "call") || !al_node_is(var, "identifier"))
        return false;
    al_py_args a;
    al_py_args_read(it, &a);
    if (a.npos == 0)
        return false;
    TSNode end = a.pos[a.npos == 1 ? 0 : 1];
    bool loaded = al_tf_has_load(k, end, 0);
    if (!loaded && al_node_is(end, "identifier")) {
        TSNode v = al_tf_value_before(k, end, loop);
        loaded = !ts_node_is_null(v) && al_tf_has_load(k, v, 0);
    }
    if (!loaded)
        return false;
    char *name = al_node_text(k->pf, var);
    /* Used in the body at all (`offs = i * BLOCK + ...`): a walk. */
    bool used = al_py_count_ident(k->pf, al_node_field(loop, "body"), name) > 0;
    free(name);
    return !used;
}

/* Whether `@triton.autotune(..., reset_to_zero=[...])` on the kernel names
 * the parameter: autotuning runs it several times and zeroes those
 * arguments before each run, so the kernel relies on their zeros. */
bool al_tf_reset_to_zero(const al_tf_kernel *k, const char *param)
{
    TSNode dd = ts_node_parent(k->def);
    if (!al_node_is(dd, "decorated_definition"))
        return false;
    for (uint32_t i = 0; i < ts_node_named_child_count(dd); i++) {
        TSNode d = ts_node_named_child(dd, i);
        if (!al_node_is(d, "decorator"))
            continue;
        TSNode call = al_py_unparen(ts_node_named_child(d, 0));
        if (!al_node_is(call, "call"))
            continue;
        char *fn = al_node_text_compact(k->pf, al_node_field(call, "function"));
        size_t n = strlen(fn);
        bool autotune = n >= 8 && !strcmp(fn + n - 8, "autotune");
        free(fn);
        if (!autotune)
            continue;
        al_py_args a;
        al_py_args_read(call, &a);
        TSNode names = al_py_unparen(al_py_kwarg(k->pf, &a, "reset_to_zero"));
        if (ts_node_is_null(names))
            continue;
        bool one = al_node_is(names, "string");
        uint32_t count = one ? 1 : ts_node_named_child_count(names);
        for (uint32_t j = 0; j < count; j++) {
            TSNode e = one ? names : ts_node_named_child(names, j);
            if (!al_node_is(e, "string"))
                continue;
            char *t = al_node_text(k->pf, e);
            size_t tl = strlen(t);
            bool same = tl >= 2 && strlen(param) == tl - 2 && !strncmp(t + 1, param, tl - 2);
            free(t);
            if (same)
                return true;
        }
    }
    return false;
}

