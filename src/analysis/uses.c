#include "uses.h"

#include "../util.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const META_ATTRS[] = {
    "shape", "dtype", "device", "ndim", "is_cuda", "layout", "requires_grad", "is_leaf",
    "grad_fn", "names", "is_sparse", "is_quantized", "is_meta", "itemsize", "nbytes", NULL};
static const char *const META_METHODS[] = {
    "size", "dim", "numel", "nelement", "data_ptr", "stride", "element_size",
    "is_contiguous", "get_device", "storage_offset", "untyped_storage", "is_pinned",
    "is_floating_point", "is_complex", "type", "record_stream", "ndimension", NULL};
static const char *const PARTIAL_WRITE_METHODS[] = {
    "index_copy_", "index_fill_", "masked_fill_", "masked_scatter_", "scatter_",
    "index_put_", "put_", "fill_diagonal_", "tril_", "triu_", NULL};
static const char *const RESHAPE_METHODS[] = {
    "view", "reshape", "flatten", "view_as", "reshape_as", "unsqueeze", "squeeze",
    "permute", "transpose", "t", "unflatten", "movedim", "swapaxes", "swapdims", "ravel",
    NULL};
static const char *const SAME_METHODS[] = {"detach", "contiguous", "requires_grad_", NULL};
static const char *const OPAQUE_METHODS[] = {
    "expand", "expand_as", "as_strided", "narrow", "select", "diagonal", "chunk", "split",
    "unbind", "tensor_split", "unfold", "split_with_sizes", "__getitem__", NULL};
static const char *const META_FUNCS[] = {
    "len", "isinstance", "id", "type", "hasattr", "torch.is_tensor",
    "torch.is_floating_point", "torch.numel", NULL};
static const char *const ESCAPE_PARENTS[] = {
    "return_statement", "yield", "list", "tuple", "set", "dictionary", "pair",
    "expression_list", "list_splat", "dictionary_splat", "await", "named_expression",
    "raise_statement", NULL};

const char *const al_full_write_methods[] = {
    "copy_", "fill_", "zero_", "normal_", "uniform_", "random_", "bernoulli_",
    "exponential_", "geometric_", "cauchy_", "log_normal_", NULL};

static bool in_list_z(const char *const *list, const char *s)
{
    return al_str_in_list(list, s, strlen(s));
}

static int write_region(al_alias_kind kind, int rid)
{
    switch (kind) {
    case AL_ALIAS_SAME:
    case AL_ALIAS_REGION:
        return rid;
    case AL_ALIAS_RESHAPED:
        return AL_REGION_FULL;
    case AL_ALIAS_OPAQUE:
        return AL_REGION_UNKNOWN;
    }
    return AL_REGION_UNKNOWN;
}

static al_use make(al_use_kind kind, TSNode at)
{
    al_use e;
    memset(&e, 0, sizeof e);
    e.kind = kind;
    e.row = al_node_row(at);
    return e;
}

static al_use make_write(const al_use_ctx *c, int rid, bool unsafe, TSNode at, const char *what)
{
    al_use e = make(AL_USE_WRITE, at);
    if (rid == AL_REGION_UNKNOWN) {
        e.kind = AL_USE_PARTIAL;
        return e;
    }
    if (unsafe) {
        al_region r = c->extents->regions[rid];
        r.unsafe = true;
        rid = al_region_id(c->extents, r);
    }
    e.region = rid;
    e.unsafe = unsafe;
    e.evidence = al_xstrdup(what);
    return e;
}

static al_use use_of_value(const al_use_ctx *c, TSNode E, al_alias_kind kind, int rid,
                           TSNode root);

static bool has_keyword(const al_use_ctx *c, TSNode call, const char *kw, const char *value)
{
    TSNode args = al_node_field(call, "arguments");
    uint32_t k = ts_node_named_child_count(args);
    for (uint32_t i = 0; i < k; i++) {
        TSNode a = ts_node_named_child(args, i);
        if (al_node_is(a, "keyword_argument") &&
            al_node_text_eq(c->env->pf, al_node_field(a, "name"), kw) &&
            (!value || al_node_text_eq(c->env->pf, al_node_field(a, "value"), value)))
            return true;
    }
    return false;
}

static al_alias_kind view_kind(al_alias_kind kind)
{
    return kind == AL_ALIAS_SAME || kind == AL_ALIAS_RESHAPED ? AL_ALIAS_RESHAPED
                                                              : AL_ALIAS_OPAQUE;
}

static al_use method_use(const al_use_ctx *c, TSNode attr_node, TSNode call, al_alias_kind kind,
                         int rid, TSNode root)
{
    size_t len;
    const char *m = al_node_ptr(c->env->pf, al_node_field(attr_node, "attribute"), &len);
    if (al_str_in_list(META_METHODS, m, len))
        return make(AL_USE_META, call);
    if (al_str_in_list(al_full_write_methods, m, len)) {
        char what[64];
        snprintf(what, sizeof what, "`%.*s`", (int)(len < 40 ? len : 40), m);
        al_use e = make_write(c, write_region(kind, rid), false, call, what);
        TSNode args = al_node_field(call, "arguments");
        uint32_t nargs = ts_node_named_child_count(args);
        if (kind == AL_ALIAS_SAME &&
            ((len == 5 && !memcmp(m, "zero_", 5) && nargs == 0) ||
             (len == 5 && !memcmp(m, "fill_", 5) && nargs == 1 &&
              (al_node_text_eq(c->env->pf, ts_node_named_child(args, 0), "0") ||
               al_node_text_eq(c->env->pf, ts_node_named_child(args, 0), "0.0")))))
            e.zero_fill = true;
        return e;
    }
    if (al_str_in_list(PARTIAL_WRITE_METHODS, m, len)) {
        if (has_keyword(c, call, "reduce", NULL) || has_keyword(c, call, "accumulate", "True"))
            return make(AL_USE_RMW, call);
        return make(AL_USE_PARTIAL, call);
    }
    if (al_str_in_list(RESHAPE_METHODS, m, len))
        return use_of_value(c, call, view_kind(kind), rid, root);
    if (al_str_in_list(SAME_METHODS, m, len))
        return use_of_value(c, call, kind, rid, root);
    if (al_str_in_list(OPAQUE_METHODS, m, len))
        return use_of_value(c, call, AL_ALIAS_OPAQUE, AL_REGION_UNKNOWN, root);
    if (len > 1 && m[len - 1] == '_' && !(len > 2 && m[len - 2] == '_'))
        return make(AL_USE_RMW, call);
    return make(AL_USE_READ, call);
}

static bool is_imported_name(const al_use_ctx *c, const char *p, size_t len)
{
    for (size_t i = 0; i < c->env->im->n; i++)
        if (strlen(c->env->im->items[i].local) == len && memcmp(c->env->im->items[i].local, p, len) == 0)
            return true;
    return false;
}

/* `kernel` in `kernel[grid](...)` is a Triton kernel: defined with a
 * triton decorator in this file, imported by name, or reached through an
 * imported module (`mod.kernel[grid]`). Anything else (`handlers[key](...)`,
 * `self.table[key](...)`) is a lookup. */
static bool is_kernel_name(const al_use_ctx *c, TSNode n)
{
    size_t len;
    const char *p;
    if (al_node_is(n, "attribute")) {
        TSNode base = n;
        while (al_node_is(base, "attribute"))
            base = al_node_field(base, "object");
        if (!al_node_is(base, "identifier"))
            return false;
        p = al_node_ptr(c->env->pf, base, &len);
        return is_imported_name(c, p, len);
    }
    if (!al_node_is(n, "identifier"))
        return false;
    p = al_node_ptr(c->env->pf, n, &len);
    return (c->env->kernels && al_strlist_has(c->env->kernels, p, len)) || is_imported_name(c, p, len);
}

static bool is_out_keyword(const char *kw, size_t len)
{
    return (len == 3 && memcmp(kw, "out", 3) == 0) || (len == 6 && memcmp(kw, "output", 6) == 0) ||
           (len > 4 && memcmp(kw + len - 4, "_out", 4) == 0);
}

static al_use kernel_launch_use(const al_use_ctx *c, TSNode call, TSNode kernel, TSNode kw,
                                int wr)
{
    size_t len;
    const char *p = al_node_ptr(c->env->pf, kernel, &len);
    if (c->env->atomic_kernels && al_strlist_has(c->env->atomic_kernels, p, len))
        return make(AL_USE_RMW, call); /* the kernel accumulates with atomics */
    /* A non-zero fill handed to a kernel is most likely an input. */
    if (!c->zero_fill || !ts_node_is_null(kw))
        return make(AL_USE_ESCAPE, call);
    char what[160];
    snprintf(what, sizeof what, "the Triton launch `%.*s[...]`", (int)(len < 80 ? len : 80), p);
    al_use e = make_write(c, wr, true, call, what);
    e.evidence_kind = "kernel";
    return e;
}

static al_use arg_use(const al_use_ctx *c, TSNode call, int pos, TSNode kw, al_alias_kind kind,
                      int rid)
{
    TSNode fn = al_node_field(call, "function");
    int wr = write_region(kind, rid);
    TSNode launched = al_node_field(fn, "value");
    if (al_node_is(fn, "subscript")) {
        if (is_kernel_name(c, launched))
            return kernel_launch_use(c, call, launched, kw, wr);
        return make(AL_USE_ESCAPE, call); /* `table[key](buf)`: an unknown callable */
    }
    char *q = al_imports_resolve(c->env->im, c->env->pf, fn);
    char *bare = NULL;
    if (!q && al_node_is(fn, "identifier"))
        bare = al_node_text(c->env->pf, fn);
    const char *name = q ? q : bare;
    al_use e;
    size_t kwlen = 0;
    const char *kwp = ts_node_is_null(kw) ? NULL : al_node_ptr(c->env->pf, kw, &kwlen);
    const al_op_summary *op = name ? al_ops_find(c->env->ops, name) : NULL;
    const al_op_summary *out_op = name ? al_ops_find_output(c->env->ops, name, pos, kwp, kwlen) : NULL;
    char what[200];
    if (name && in_list_z(META_FUNCS, name)) {
        e = make(AL_USE_META, call);
    } else if (out_op) {
        if (kwp)
            snprintf(what, sizeof what, "`%s(%.*s=...)`", name, (int)kwlen, kwp);
        else
            snprintf(what, sizeof what, "`%s` (argument %d)", name, pos);
        e = make_write(c, wr, !out_op->full_write, call, what);
        e.evidence_kind = out_op->full_write ? "op" : "kernel";
    } else if (op) {
        e = make(AL_USE_READ, call);
    } else if (kwp && is_out_keyword(kwp, kwlen)) {
        size_t fl;
        const char *fp = al_node_ptr(c->env->pf, fn, &fl);
        snprintf(what, sizeof what, "`%.*s=` of `%.*s`", (int)kwlen, kwp, (int)(fl < 80 ? fl : 80),
                 fp);
        e = make_write(c, wr, true, call, what);
        e.evidence_kind = "kernel";
    } else if (q && al_str_starts_with(q, "torch.ops.") && (!c->zero_fill || pos != 0)) {
        /* Without a schema, only the first argument of a custom op is
         * taken for its output (vLLM's and SGLang's `out`-first habit). */
        e = make(pos == 0 ? AL_USE_ESCAPE : AL_USE_READ, call);
    } else if (q && al_str_starts_with(q, "torch.ops.")) {
        snprintf(what, sizeof what, "the custom op `%s`", q);
        e = make_write(c, wr, true, call, what);
        e.evidence_kind = "kernel";
    } else if (q && al_str_starts_with(q, "torch.")) {
        e = make(AL_USE_READ, call);
    } else {
        e = make(AL_USE_ESCAPE, call);
    }
    free(q);
    free(bare);
    return e;
}

static al_use attribute_use(const al_use_ctx *c, TSNode q, al_alias_kind kind, int rid,
                            TSNode root)
{
    TSNode g = ts_node_parent(q);
    if (al_node_is(g, "call") && al_py_node_eq(al_node_field(g, "function"), q))
        return method_use(c, q, g, kind, rid, root);
    size_t len;
    const char *attr = al_node_ptr(c->env->pf, al_node_field(q, "attribute"), &len);
    if (al_str_in_list(META_ATTRS, attr, len))
        return make(AL_USE_META, q);
    if ((len == 1 && attr[0] == 'T') || (len == 2 && memcmp(attr, "mT", 2) == 0))
        return use_of_value(c, q, view_kind(kind), rid, root);
    if (len == 4 && memcmp(attr, "data", 4) == 0)
        return use_of_value(c, q, kind, rid, root);
    return make(AL_USE_READ, q);
}

static al_use assignment_use(const al_use_ctx *c, TSNode q, TSNode E, al_alias_kind kind,
                             int rid)
{
    if (al_py_node_eq(al_node_field(q, "left"), E)) {
        if (al_node_is(E, "identifier"))
            return make(AL_USE_KILL, E);
        char *target = al_node_text_compact(c->env->pf, E);
        char what[128];
        if (strlen(target) > 60)
            snprintf(what, sizeof what, "an assignment to `%.57s...`", target);
        else
            snprintf(what, sizeof what, "`%s = ...`", target);
        free(target);
        return make_write(c, write_region(kind, rid), false, q, what);
    }
    if (al_py_node_eq(al_node_field(q, "right"), E)) {
        TSNode left = al_node_field(q, "left");
        if (al_node_is(left, "identifier")) {
            al_use e = make(AL_USE_CREATE, q);
            e.target = al_node_ptr(c->env->pf, left, &e.target_len);
            e.akind = kind;
            e.aregion = rid;
            return e;
        }
        if (al_node_is(left, "pattern_list") || al_node_is(left, "tuple_pattern") ||
            al_node_is(left, "list_pattern"))
            return make(AL_USE_READ, q); /* unpacking iterates the tensor */
        return make(AL_USE_ESCAPE, q);   /* stored in an attribute or container */
    }
    return make(AL_USE_READ, q);
}

static al_use argument_list_use(const al_use_ctx *c, TSNode q, TSNode E, al_alias_kind kind,
                                int rid)
{
    TSNode call = ts_node_parent(q);
    if (!al_node_is(call, "call"))
        return make(AL_USE_READ, q);
    int pos = 0;
    uint32_t k = ts_node_named_child_count(q);
    for (uint32_t i = 0; i < k; i++) {
        TSNode a = ts_node_named_child(q, i);
        if (al_py_node_eq(a, E))
            break;
        if (al_node_is(a, "list_splat") || al_node_is(a, "dictionary_splat")) {
            pos = -1000;
            continue;
        }
        if (!al_node_is(a, "keyword_argument") && !al_node_is(a, "comment"))
            pos++;
    }
    TSNode nokw = {0};
    return arg_use(c, call, pos < 0 ? -1 : pos, nokw, kind, rid);
}

/* `x is None` reads no element. */
static al_use comparison_use(TSNode q)
{
    bool identity = true;
    uint32_t k = ts_node_child_count(q);
    for (uint32_t i = 0; i < k; i++) {
        TSNode ch = ts_node_child(q, i);
        if (!ts_node_is_named(ch)) {
            const char *op = ts_node_type(ch);
            if (strcmp(op, "is") && strcmp(op, "is not") && strcmp(op, "not"))
                identity = false;
        }
    }
    return make(identity ? AL_USE_META : AL_USE_READ, q);
}

static al_use use_of_value(const al_use_ctx *c, TSNode E, al_alias_kind kind, int rid,
                           TSNode root)
{
    if (al_py_node_eq(E, root))
        return make(AL_USE_READ, E);
    TSNode q = ts_node_parent(E);
    while (al_node_is(q, "parenthesized_expression") && !al_py_node_eq(q, root)) {
        E = q;
        q = ts_node_parent(q);
    }
    if (ts_node_is_null(q))
        return make(AL_USE_READ, E);
    const char *type = ts_node_type(q);

    if (strcmp(type, "attribute") == 0 && al_py_node_eq(al_node_field(q, "object"), E))
        return attribute_use(c, q, kind, rid, root);
    if (strcmp(type, "subscript") == 0 && al_py_node_eq(al_node_field(q, "value"), E)) {
        if (kind == AL_ALIAS_SAME) {
            al_region r = al_extents_subscript(c->extents, q, NULL);
            if (r.unknown)
                return use_of_value(c, q, AL_ALIAS_OPAQUE, AL_REGION_UNKNOWN, root);
            int id = al_region_id(c->extents, r);
            return use_of_value(c, q, id == AL_REGION_FULL ? AL_ALIAS_SAME : AL_ALIAS_REGION, id,
                                root);
        }
        return use_of_value(c, q, AL_ALIAS_OPAQUE, AL_REGION_UNKNOWN, root);
    }
    if (strcmp(type, "assignment") == 0)
        return assignment_use(c, q, E, kind, rid);
    if (strcmp(type, "augmented_assignment") == 0)
        return make(al_py_node_eq(al_node_field(q, "left"), E) ? AL_USE_RMW : AL_USE_READ, q);
    if (strcmp(type, "argument_list") == 0)
        return argument_list_use(c, q, E, kind, rid);
    if (strcmp(type, "keyword_argument") == 0 && al_py_node_eq(al_node_field(q, "value"), E)) {
        TSNode call = ts_node_parent(ts_node_parent(q));
        if (!al_node_is(call, "call"))
            return make(AL_USE_READ, q);
        return arg_use(c, call, -1, al_node_field(q, "name"), kind, rid);
    }
    if (strcmp(type, "comparison_operator") == 0)
        return comparison_use(q);
    if (strcmp(type, "delete_statement") == 0)
        return make(al_node_is(E, "identifier") ? AL_USE_KILL : AL_USE_READ, q);
    if (strcmp(type, "global_statement") == 0 || strcmp(type, "nonlocal_statement") == 0)
        return make(AL_USE_ESCAPE, q);
    if (in_list_z(ESCAPE_PARENTS, type))
        return make(AL_USE_ESCAPE, q);
    if (strcmp(type, "as_pattern_target") == 0 || strcmp(type, "pattern_list") == 0 ||
        strcmp(type, "tuple_pattern") == 0 || strcmp(type, "list_pattern") == 0)
        return make(AL_USE_KILL, E);
    return make(AL_USE_READ, q);
}

/* Contexts inside a statement that change what a use means. */
static bool inside(TSNode id, TSNode root, const char *const *types)
{
    TSNode n = ts_node_parent(id);
    while (!ts_node_is_null(n)) {
        if (in_list_z(types, ts_node_type(n)))
            return true;
        if (al_py_node_eq(n, root))
            break;
        n = ts_node_parent(n);
    }
    return false;
}

static const char *const CAPTURING[] = {"lambda", NULL};
static const char *const COMPREHENSIONS[] = {
    "list_comprehension", "set_comprehension", "dictionary_comprehension",
    "generator_expression", NULL};
static const char *const CONDITIONAL[] = {"conditional_expression", "boolean_operator", NULL};

/* Whether n runs inside `with torch.cuda.graph(g):` or another capture
 * context: work there is recorded, not executed, until a replay. */
static bool in_graph_capture(const al_pyfile *pf, TSNode n)
{
    for (TSNode p = ts_node_parent(n); !ts_node_is_null(p); p = ts_node_parent(p)) {
        if (al_node_is(p, "function_definition") || al_node_is(p, "class_definition"))
            return false;
        if (!al_node_is(p, "with_statement"))
            continue;
        uint32_t k = ts_node_named_child_count(p);
        for (uint32_t i = 0; i < k; i++) {
            TSNode ch = ts_node_named_child(p, i);
            if (!al_node_is(ch, "with_clause"))
                continue;
            char *text = al_node_text_compact(pf, ch);
            for (char *t = text; *t; t++)
                *t = (char)tolower((unsigned char)*t);
            bool capture = strstr(text, "graph") || strstr(text, "capture");
            free(text);
            if (capture)
                return true;
        }
    }
    return false;
}

al_use al_use_classify(const al_use_ctx *c, const al_cfg_node *node, TSNode id,
                       al_alias_kind kind, int region)
{
    if (node->kind == AL_CFG_DEF)
        return make(AL_USE_ESCAPE, id);
    if (node->kind == AL_CFG_FOR_TARGET) {
        al_use e = use_of_value(c, id, kind, region, node->eval);
        if (al_py_node_eq(id, node->eval) || e.kind == AL_USE_KILL) {
            free(e.evidence);
            return make(AL_USE_KILL, id);
        }
        if (e.kind == AL_USE_WRITE) {
            free(e.evidence);
            return make(AL_USE_PARTIAL, id);
        }
        return e;
    }
    if (node->kind == AL_CFG_EXCEPT) {
        TSNode alias_node = al_node_field(node->eval, "alias");
        if (al_py_node_eq(alias_node, id))
            return make(AL_USE_KILL, id);
    }
    if (inside(id, node->eval, CAPTURING))
        return make(AL_USE_ESCAPE, id);
    if (inside(id, node->eval, COMPREHENSIONS))
        return make(AL_USE_READ, id);
    al_use e = use_of_value(c, id, kind, region, node->eval);
    if (e.kind == AL_USE_WRITE && in_graph_capture(c->env->pf, id)) {
        free(e.evidence);
        return make(AL_USE_PARTIAL, id); /* recorded now, executed at replay */
    }
    if ((e.kind == AL_USE_WRITE || e.kind == AL_USE_CREATE) && inside(id, node->eval, CONDITIONAL)) {
        free(e.evidence);
        /* A write that may not happen proves nothing; it reads nothing either. */
        return make(e.kind == AL_USE_WRITE ? AL_USE_PARTIAL : AL_USE_READ, id);
    }
    return e;
}
