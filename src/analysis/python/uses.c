#include "uses.h"
#include "requirement.h"
#include "contract.h"

#include "module.h"
#include "prefix.h"
#include "values.h"
#include "../core/index.h"
#include "../../base/util.h"

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
    "is_floating_point", "is_complex", "type", "record_stream", "ndimension", "new_empty",
    "new_zeros", "new_ones", "new_full", "new_tensor", NULL}; /* new_*: its dtype, device */
static const char *const PARTIAL_WRITE_METHODS[] = {"index_copy_", "index_fill_",
    "masked_fill_", "masked_scatter_", "scatter_", "index_put_", "put_", "fill_diagonal_",
    "tril_", "triu_", NULL};
static const char *const RESHAPE_METHODS[] = {
    "view", "reshape", "flatten", "view_as", "reshape_as", "unsqueeze", "squeeze", "permute",
    "transpose", "t", "unflatten", "movedim", "swapaxes", "swapdims", "ravel", NULL};
static const char *const SAME_METHODS[] = {"detach", "contiguous", "requires_grad_", NULL};
/* The last four share memory with another library: `buf.numpy()[:] = 1` writes buf. */
static const char *const OPAQUE_METHODS[] = {
    "expand", "expand_as", "as_strided", "narrow", "select", "diagonal", "chunk", "split",
    "unbind", "tensor_split", "unfold", "split_with_sizes", "__getitem__", "hsplit", "vsplit",
    "dsplit", "conj", "adjoint", "numpy", "storage", "__array__", "__dlpack__", NULL};
static const char *const META_FUNCS[] = {"len", "isinstance", "id", "type", "hasattr",
    "torch.is_tensor", "torch.is_floating_point", "torch.numel", NULL};
/* Factories that take their first argument's metadata, none of its values. */
static const char *const LIKE_FUNCS[] = {"torch.empty_like", "torch.zeros_like", "torch.ones_like",
    "torch.full_like", "torch.rand_like", "torch.randn_like", "torch.randint_like", NULL};
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
    e.at = at;
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

bool al_use_reads_metadata(const al_pyfile *pf, TSNode attr)
{
    size_t len;
    const char *a = al_node_ptr(pf, al_node_field(attr, "attribute"), &len);
    TSNode g = ts_node_parent(attr);
    bool called = al_node_is(g, "call") && al_py_node_eq(al_node_field(g, "function"), attr);
    if (!called)
        return al_str_in_list(META_ATTRS, a, len);
    /* a data pointer or the storage hands out the elements themselves */
    return al_str_in_list(META_METHODS, a, len) && !(len == 8 && !memcmp(a, "data_ptr", 8)) &&
           !(len == 15 && !memcmp(a, "untyped_storage", 15));
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
    if (al_str_in_list(META_METHODS, m, len)) {
        /* A data pointer or the storage compared is metadata; handed on,
         * it lets anyone read or write the elements. */
        bool pointer = (len == 8 && !memcmp(m, "data_ptr", 8)) ||
                       (len == 15 && !memcmp(m, "untyped_storage", 15));
        TSNode parent = ts_node_parent(call);
        /* `x.untyped_storage().data_ptr()`: the chain's outer call. */
        while (al_node_is(parent, "attribute") && al_node_is(ts_node_parent(parent), "call"))
            parent = ts_node_parent(ts_node_parent(parent));
        if (pointer && !al_node_is(parent, "comparison_operator"))
            return make(AL_USE_ESCAPE, call);
        return make(AL_USE_META, call);
    }
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
    const al_imports *im = &c->env->mod->imports;
    for (size_t i = 0; i < im->n; i++)
        if (strlen(im->items[i].local) == len && memcmp(im->items[i].local, p, len) == 0)
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
    return al_strlist_has(&c->env->mod->kernel_names, p, len) || is_imported_name(c, p, len);
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
    if (al_strlist_has(&c->env->mod->atomic_kernel_names, p, len))
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

/* ------------------------------------------------------------------ */
/* Callee summaries at a call                                           */

/* Whether text names identifier `name` (a whole word, not an attribute's). */
static bool names(const char *text, const char *name)
{
    size_t n = strlen(name);
    for (const char *p = strstr(text, name); n && p; p = strstr(p + 1, name)) {
        bool left = p == text || !(isalnum((unsigned char)p[-1]) || p[-1] == '_' || p[-1] == '.');
        bool right = !(isalnum((unsigned char)p[n]) || p[n] == '_');
        if (left && right)
            return true;
    }
    return false;
}

static void padding_use(const al_use_ctx *c, TSNode call, const al_call_effect *e, al_use *u,
                        const char *fmt, const char *a, const char *b)
{
    al_use_free(u);
    *u = make(AL_USE_NEEDED, call);
    al_chain_add(&u->chain, c->env->path, al_node_row(call), fmt, e->callee, a, b);
    al_chain_append(&u->chain, &e->chain);
}

/* Whether the buffer's count pads past the count `covered` (at call)
 * stands for; then *u keeps the fill and fmt says so. */
static bool padded_by(const al_use_ctx *c, TSNode call, const al_call_effect *e, al_use *u,
                      TSNode covered, const char *fmt)
{
    char *text = al_value_text(c->env->pf, c->buf->func, call, covered);
    char *padded = al_padded_past(c, text);
    if (padded)
        padding_use(c, call, e, u, fmt, text, padded);
    free(text);
    free(padded);
    return padded != NULL;
}

/* A write not proved to cover the buffer, where the buffer's size says why
 * (no words: how it relates to what the writer covers):
 * - its count is built from the bound the writer covers, or from a
 *   dimension of the launch grid, and is not it (`n + 1`, rounded up):
 *   the rest is padding;
 * - segments whose lengths are data, in a buffer sized by a value that
 *   none of those names (a capacity): the tail past their sum keeps it.
 * Replaces *u with the use that keeps the fill, and says so. */
static bool padding_left(const al_use_ctx *c, TSNode call, const al_call_effect *e, al_use *u)
{
    if (!c->buf || !c->buf->site)
        return false;
    const al_pyfile *pf = c->env->pf;
    TSNode func = c->buf->func;
    if (e->req.kind == AL_REQ_NUMEL_IS_VALUE && !ts_node_is_null(e->req.node) &&
        padded_by(c, call, e, u, e->req.node,
                  "%s writes `%s` elements of a buffer of `%s`: the rest is padding that keeps "
                  "its fill"))
        return true;
    if (e->req.kind == AL_REQ_NUMEL_IS_SUM && !ts_node_is_null(c->buf->site->size_expr)) {
        char *size = al_value_text(pf, func, c->buf->site->stmt, c->buf->site->size_expr);
        bool related = false;
        const TSNode of[] = {e->req.node, e->req.node2, e->req.node3};
        for (int i = 0; i < 3 && !related; i++)
            if (!ts_node_is_null(of[i])) {
                char *t = al_node_text_compact(pf, of[i]);
                related = names(size, t);
                free(t);
            }
        if (!related) {
            char *lens = ts_node_is_null(e->req.node) ? al_xstrdup("?")
                                                      : al_node_text_compact(pf, e->req.node);
            padding_use(c, call, e, u, "%s writes segments of the lengths in `%s`, into a buffer "
                                       "sized `%s`, which none of them names: a capacity whose "
                                       "tail keeps its fill",
                        lens, size);
            free(lens);
        }
        free(size);
        if (!related)
            return true;
    }
    /* `kernel[grid](...)`: a count built from a dimension of the grid. */
    TSNode fn = al_node_field(call, "function");
    TSNode grid = al_node_is(fn, "subscript") ? al_py_unparen(al_node_field(fn, "subscript"))
                                               : (TSNode){0};
    if (ts_node_is_null(grid) || (!al_node_is(grid, "tuple") && !al_node_is(grid, "list")))
        return false;
    TSNode dims[AL_MAX_DIMS];
    int n = al_py_elements(grid, dims, AL_MAX_DIMS);
    for (int i = 0; i < n; i++)
        if (padded_by(c, call, e, u, dims[i],
                      "%s runs on a grid of `%s` programs, and the buffer has `%s` elements, "
                      "built from it: the rest is padding that keeps its fill"))
            return true;
    return false;
}

static const char *requirement_text(al_req_kind k)
{
    switch (k) {
    case AL_REQ_NUMEL_IS_VALUE: return "its bound equals the buffer's numel";
    case AL_REQ_NUMEL_IS_NUMEL: return "the buffer has as many elements as its argument";
    case AL_REQ_SHAPE_IS_SHAPE: return "the buffer has its argument's shape";
    case AL_REQ_ROWS: return "its rows and columns are the buffer's own";
    case AL_REQ_ROWS_OF: return "the buffer has as many rows as the contract writes";
    case AL_REQ_NUMEL_IS_SUM: return "the buffer holds the sum of the segments' lengths";
    case AL_REQ_SHAPE_DIMS: return "the buffer's shape is the extents its tiles span";
    case AL_REQ_NONE: break;
    }
    return "";
}

/* `y = helper(buf)` where helper returns its argument untouched: y is a
 * new alias (a view of every element when `whole`, else of an unknown
 * part). A result dropped is no use; one used any other way escapes. */
static al_use returned_alias(const al_use_ctx *c, TSNode call, al_alias_kind kind, int rid,
                             bool whole, const char *callee)
{
    TSNode parent = ts_node_parent(call);
    while (al_node_is(parent, "parenthesized_expression"))
        parent = ts_node_parent(parent);
    if (al_node_is(parent, "expression_statement"))
        return make(AL_USE_META, call);
    if (al_node_is(parent, "assignment") && al_py_node_eq(al_py_unparen(al_node_field(parent, "right")),
                                                           call)) {
        TSNode left = al_node_field(parent, "left");
        if (al_node_is(left, "identifier")) {
            al_use e = make(AL_USE_CREATE, parent);
            e.target = al_node_ptr(c->env->pf, left, &e.target_len);
            e.evidence = al_xstrdup(callee);
            if (!whole || kind == AL_ALIAS_OPAQUE) {
                e.akind = AL_ALIAS_OPAQUE;
                e.aregion = AL_REGION_UNKNOWN;
            } else {
                e.akind = kind == AL_ALIAS_REGION ? AL_ALIAS_REGION : AL_ALIAS_RESHAPED;
                e.aregion = rid;
            }
            return e;
        }
    }
    return make(AL_USE_ESCAPE, call);
}

/* The use that a callee's summary makes of the call. */
static al_use effect_use(const al_use_ctx *c, TSNode call, al_alias_kind kind, int wr,
                         al_call_effect *e, const char *step)
{
    al_use u;
    switch (e->effect) {
    case AL_EFFECT_WRITES_ALL: {
        bool whole = kind == AL_ALIAS_SAME || kind == AL_ALIAS_RESHAPED;
        int met = whole || e->req.kind == AL_REQ_NONE ? al_requirement_met(c, call, &e->req) : 0;
        u = make_write(c, wr, met == 0 || e->assumed, call, e->callee);
        if (met != 0 && e->assumed && e->why)
            u.why = al_xstrdup(e->why);
        if (met == 0 && padding_left(c, call, e, &u))
            return u;
        if (met == 0) {
            char *v = al_requirement_shown(c->env->pf, &e->req);
            al_strbuf sb = {0};
            if (e->req.kind == AL_REQ_NUMEL_IS_SUM && c->buf && c->buf->site &&
                !ts_node_is_null(c->buf->site->size_expr)) {
                char *size = al_node_text_compact(c->env->pf, c->buf->site->size_expr);
                al_strbuf_printf(&sb, "%s writes every element only if the buffer holds the sum of "
                                      "`%s`, which alloclint could not prove of its size `%s`",
                                 e->callee, v, size);
                free(size);
            } else {
                al_strbuf_printf(&sb, "%s writes every element only if %s (`%s`), which alloclint "
                                      "could not prove",
                                 e->callee, requirement_text(e->req.kind), v);
            }
            u.why = al_strbuf_detach(&sb);
            free(v);
        }
        u.evidence_kind = met == 0 ? "kernel" : "op";
        break;
    }
    case AL_EFFECT_WRITES_SOME:
        /* A contract on trust that covers rows: a buffer not shown to be
         * exactly those rows may be larger, and its zeros read. */
        if (e->req.kind != AL_REQ_NONE &&
            ((kind != AL_ALIAS_SAME && kind != AL_ALIAS_RESHAPED) ||
             al_requirement_met(c, call, &e->req) == 0)) {
            u = make(AL_USE_NEEDED, call);
            char *v = ts_node_is_null(e->req.node) ? al_xstrdup("?")
                                                   : al_node_text_compact(c->env->pf, e->req.node);
            al_chain_add(&u.chain, c->env->path, al_node_row(call),
                         "%s writes as many rows as `%s` has; the buffer is not shown to have "
                         "exactly that many",
                         e->callee, v);
            free(v);
            al_chain_append(&u.chain, &e->chain);
            return u;
        }
        u = make_write(c, wr, true, call, e->callee);
        if (padding_left(c, call, e, &u))
            return u;
        u.evidence_kind = "kernel";
        if (e->why)
            u.why = al_xstrdup(e->why);
        break;
    case AL_EFFECT_SKIPS:
    case AL_EFFECT_WRITES_PART:
        u = make(AL_USE_NEEDED, call);
        break;
    case AL_EFFECT_ACCUMULATES:
        u = make(AL_USE_RMW, call);
        break;
    case AL_EFFECT_READS:
        u = make(AL_USE_READ, call);
        break;
    case AL_EFFECT_UNUSED:
        u = make(AL_USE_META, call);
        break;
    case AL_EFFECT_UNREAD:
        u = make(AL_USE_UNREAD, call);
        u.evidence = al_xstrdup(e->callee);
        u.unsafe = e->assumed;
        if (e->assumed && e->why)
            u.why = al_xstrdup(e->why);
        break;
    case AL_EFFECT_RETURNS_ALIAS:
        u = returned_alias(c, call, kind, wr, e->returns_whole, e->callee);
        break;
    default:
        u = make(AL_USE_ESCAPE, call);
        break;
    }
    if (e->region && (u.kind == AL_USE_NEEDED || u.kind == AL_USE_READ))
        u.stored = al_xstrdup(e->region), u.stores = e->region_writes, u.evidence = al_xstrdup(e->callee);
    al_chain_add(&u.chain, c->env->path, al_node_row(call), step, e->callee);
    al_chain_append(&u.chain, &e->chain);
    return u;
}

al_use al_use_of_closure_call(const al_use_ctx *c, TSNode call, al_alias_kind kind, int region,
                              al_call_effect *e)
{
    return effect_use(c, call, kind, write_region(kind, region), e,
                      "calls %s here, which names the buffer");
}

/* elem: the buffer is that element of the list or tuple handed as the
 * argument (`out=[attn, lse]`), or -1. */
static al_use arg_use(const al_use_ctx *c, TSNode call, int pos, TSNode kw, al_alias_kind kind,
                      int rid, int elem)
{
    TSNode fn = al_node_field(call, "function");
    int wr = write_region(kind, rid);
    /* With the repo index: the callee's own summary first. What it cannot
     * find is no write, but for ops an op summary describes. */
    bool indexed = c->env->index != NULL;
    if (indexed && elem < 0) {
        al_call_effect e;
        if (al_callee_effect(c->env, call, pos, kw, &e)) {
            al_use u = effect_use(c, call, kind, wr, &e, "handed to %s here");
            al_call_effect_free(&e);
            return u;
        }
    }
    TSNode launched = al_node_field(fn, "value");
    if (al_node_is(fn, "subscript")) {
        if (!indexed && is_kernel_name(c, launched))
            return kernel_launch_use(c, call, launched, kw, wr);
        return make(AL_USE_ESCAPE, call); /* `table[key](buf)`, or a kernel not found */
    }
    char *q = al_imports_resolve(&c->env->mod->imports, c->env->pf, fn);
    bool typed = !q && (q = al_contract_method_name(c->env, call)) != NULL; /* an object's method */
    char *bare = NULL;
    if (!q && al_node_is(fn, "identifier"))
        bare = al_node_text(c->env->pf, fn);
    const char *name = q ? q : bare;
    al_use e;
    size_t kwlen = 0;
    const char *kwp = ts_node_is_null(kw) ? NULL : al_node_ptr(c->env->pf, kw, &kwlen);
    const al_op_summary *op = name ? al_ops_find(c->env->ops, name) : NULL;
    const al_op_summary *out_op =
        !name       ? NULL
        : elem >= 0 ? al_ops_find_output_element(c->env->ops, name, pos, kwp, kwlen, elem)
                    : al_ops_find_output(c->env->ops, name, pos, kwp, kwlen);
    /* A run over one file has not read the project's C++ schemas: the
     * index has, so that `check FILE` and `explain` judge as `check .`. */
    if (!out_op && elem < 0 && name && !strncmp(name, "torch.ops.", 10) && c->env->index) {
        const al_op_table *schemas = al_index_schemas(c->env->index, c->env->path);
        out_op = schemas ? al_ops_find_output(schemas, name, pos, kwp, kwlen) : NULL;
    }
    char what[200];
    if (name && (in_list_z(META_FUNCS, name) || (pos == 0 && !kwp && in_list_z(LIKE_FUNCS, name)))) {
        e = make(AL_USE_META, call);
    } else if (out_op) {
        if (kwp)
            snprintf(what, sizeof what, "`%s(%.*s=...)`", name, (int)kwlen, kwp);
        else
            snprintf(what, sizeof what, "`%s` (argument %d)", name, pos);
        char out_pos[32];
        snprintf(out_pos, sizeof out_pos, "argument %d", out_op->out_position);
        const char *out_name = out_op->out_keyword ? out_op->out_keyword : out_pos;
        if (out_op->writes == AL_OP_MUTATES) {
            /* `Tensor!` is mutable, not written: its values may be read.
             * The index names files by absolute path: the file's name
             * says enough. */
            const char *origin = out_op->origin ? out_op->origin : "its op summary";
            if (origin[0] == '/' && strrchr(origin, '/')[1])
                origin = strrchr(origin, '/') + 1;
            e = make(AL_USE_NEEDED, call);
            al_chain_add(&e.chain, c->env->path, al_node_row(call),
                         "`%s` may change %s%s%s (`Tensor!` in its schema, %s), which says "
                         "nothing of writing it before reading it; its implementation was "
                         "not found",
                         name, out_op->out_keyword ? "`" : "", out_name,
                         out_op->out_keyword ? "`" : "", origin);
            goto done;
        }
        char given[64], unless[96] = "";
        const char *voided = al_contract_voided(c->env->pf, call, out_op, given, sizeof given);
        if (voided)
            snprintf(unless, sizeof unless, " when handed `%s`", voided);
        if (out_op->writes == AL_OP_ACCUMULATES || out_op->writes == AL_OP_WRITES_PART || voided) {
            /* What the op leaves, or adds to, is the buffer's fill. */
            e = make(out_op->writes == AL_OP_ACCUMULATES ? AL_USE_RMW : AL_USE_NEEDED, call);
            al_chain_add(&e.chain, c->env->path, al_node_row(call), "`%s` %s %s%s%s%s (%s)", name,
                         out_op->writes == AL_OP_ACCUMULATES ? "adds into"
                                                             : "leaves part of",
                         out_op->out_keyword ? "`" : "", out_name,
                         out_op->out_keyword ? "`" : "", unless,
                         out_op->origin ? out_op->origin : "its op summary");
            goto done;
        }
        if (out_op->writes == AL_OP_WRITES_ROWS) {
            /* Every row of the output for the rows of another argument:
             * all of the buffer exactly when it has that many rows. */
            TSNode arg = al_contract_argument(c->env->pf, call, out_op, out_op->rows_param);
            al_req r = {.kind = AL_REQ_ROWS_OF, .node = arg, .dim = out_op->rows_dim};
            bool whole = kind == AL_ALIAS_SAME || kind == AL_ALIAS_RESHAPED;
            if (!whole || al_requirement_met(c, call, &r) == 0) {
                e = make(AL_USE_NEEDED, call);
                char *v = ts_node_is_null(arg) ? al_xstrdup(out_op->rows_param)
                                                : al_node_text_compact(c->env->pf, arg);
                al_chain_add(&e.chain, c->env->path, al_node_row(call),
                             "`%s` writes the rows of `%s` for the %d-th dimension of `%s` "
                             "(%s); the buffer is not shown to have exactly that many rows",
                             name, out_name, out_op->rows_dim, v,
                             out_op->origin ? out_op->origin : "its op summary");
                free(v);
                goto done;
            }
            e = make_write(c, wr, true, call, what);
            e.evidence_kind = "kernel";
            if (e.kind == AL_USE_WRITE)
                e.why = al_contract_why(out_op, name);
            goto done;
        }
        /* A library outside the project is at most likely to write it all. */
        bool proved = out_op->full_write && !out_op->library;
        e = make_write(c, wr, !proved, call, what);
        e.evidence_kind = proved ? "op" : "kernel";
        if (!proved && e.kind == AL_USE_WRITE)
            e.why = al_contract_why(out_op, name);
    } else if (op) {
        e = make(AL_USE_READ, call);
    } else if (!indexed && kwp && is_out_keyword(kwp, kwlen)) {
        size_t fl;
        const char *fp = al_node_ptr(c->env->pf, fn, &fl);
        snprintf(what, sizeof what, "`%.*s=` of `%.*s`", (int)kwlen, kwp, (int)(fl < 80 ? fl : 80),
                 fp);
        e = make_write(c, wr, true, call, what);
        e.evidence_kind = "kernel";
    } else if (q && al_str_starts_with(q, "torch.ops.") && (indexed || !c->zero_fill || pos != 0)) {
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
        /* Neither the project's nor an op alloclint has a summary of: it
         * may read the buffer, keep it or leave it. Said as it is. */
        e = make(AL_USE_ESCAPE, call);
        e.not_found = true;
        char *shown = al_node_text_compact(c->env->pf, fn);
        if (q && strcmp(q, shown))
            al_chain_add(&e.chain, c->env->path, al_node_row(call),
                         "`%s` (`%s`) is not found in the project and has no op summary: "
                         "alloclint cannot tell whether it reads, keeps or writes it",
                         shown, q);
        else if (q || !indexed)
            al_chain_add(&e.chain, c->env->path, al_node_row(call),
                         "`%s` is not found in the project and has no op summary: alloclint "
                         "cannot tell whether it reads, keeps or writes it",
                         shown);
        else
            al_chain_add(&e.chain, c->env->path, al_node_row(call),
                         "`%s` is a value, not a function alloclint can find (a parameter, a "
                         "local or an attribute): not followed",
                         shown);
        free(shown);
    }
done:
    if (typed)
        al_contract_method_note(c->env, call, &e.chain);
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
    if ((len == 1 && attr[0] == 'H') || (len == 2 && memcmp(attr, "mH", 2) == 0) ||
        (len == 4 && (!memcmp(attr, "real", 4) || !memcmp(attr, "imag", 4))))
        return use_of_value(c, q, AL_ALIAS_OPAQUE, AL_REGION_UNKNOWN, root);
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
    return arg_use(c, call, pos < 0 ? -1 : pos, nokw, kind, rid, -1);
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

/* `op(..., out=[buf, lse])`: E is an element of the list handed to a
 * call as an argument, and an op summary names that element as an
 * output. False when nothing says so (the list then holds E: an escape). */
static bool listed_output_use(const al_use_ctx *c, TSNode list, TSNode E, al_alias_kind kind,
                              int rid, al_use *out)
{
    TSNode p = ts_node_parent(list), call, kw = {0};
    int pos = -1;
    if (al_node_is(p, "keyword_argument") && al_py_node_eq(al_node_field(p, "value"), list)) {
        kw = al_node_field(p, "name");
        call = ts_node_parent(ts_node_parent(p));
    } else if (al_node_is(p, "argument_list")) {
        int k = 0;
        for (uint32_t i = 0; i < ts_node_named_child_count(p) && pos < 0; i++) {
            TSNode a = ts_node_named_child(p, i);
            if (al_py_node_eq(a, list))
                pos = k;
            else if (!al_node_is(a, "keyword_argument") && !al_node_is(a, "comment"))
                k++;
        }
        call = ts_node_parent(p);
    } else {
        return false;
    }
    if (!al_node_is(call, "call") || (ts_node_is_null(kw) && pos < 0))
        return false;
    int elem = -1;
    for (uint32_t i = 0, k = 0; i < ts_node_named_child_count(list); i++) {
        TSNode a = ts_node_named_child(list, i);
        if (al_node_is(a, "comment"))
            continue;
        if (al_node_is(a, "list_splat"))
            return false;
        if (al_py_node_eq(a, E))
            elem = (int)k;
        k++;
    }
    char *q = al_imports_resolve(&c->env->mod->imports, c->env->pf, al_node_field(call, "function"));
    size_t kwlen = 0;
    const char *kwp = ts_node_is_null(kw) ? NULL : al_node_ptr(c->env->pf, kw, &kwlen);
    bool said = q && al_ops_find_output_element(c->env->ops, q, pos, kwp, kwlen, elem);
    free(q);
    if (said)
        *out = arg_use(c, call, pos, kw, kind, rid, elem);
    return said;
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
        return arg_use(c, call, -1, al_node_field(q, "name"), kind, rid, -1);
    }
    if (strcmp(type, "comparison_operator") == 0)
        return comparison_use(q);
    if (strcmp(type, "delete_statement") == 0)
        return make(al_node_is(E, "identifier") ? AL_USE_KILL : AL_USE_READ, q);
    if (strcmp(type, "global_statement") == 0 || strcmp(type, "nonlocal_statement") == 0)
        return make(AL_USE_ESCAPE, q);
    /* A summarised function that returns its parameter (or a view of it)
     * hands the caller an alias, not an escape. */
    if (strcmp(type, "return_statement") == 0 && c->buf && !c->buf->site) {
        al_use e = make(AL_USE_RETURN, q);
        e.akind = kind;
        e.aregion = rid;
        return e;
    }
    if (strcmp(type, "list") == 0 || strcmp(type, "tuple") == 0) {
        al_use u;
        if (listed_output_use(c, q, E, kind, rid, &u))
            return u;
    }
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
/* `python -O` drops asserts: what one writes may not happen. */
static const char *const CONDITIONAL[] = {"conditional_expression", "boolean_operator",
                                          "assert_statement", NULL};

/* Whether a `with` around n, inside n's function, has a clause for which
 * test holds. */
static bool under_with(const al_use_ctx *c, TSNode n,
                       bool (*test)(const al_use_ctx *c, TSNode clause))
{
    for (TSNode p = ts_node_parent(n); !ts_node_is_null(p); p = ts_node_parent(p)) {
        if (al_node_is(p, "function_definition") || al_node_is(p, "class_definition"))
            return false;
        if (!al_node_is(p, "with_statement"))
            continue;
        uint32_t k = ts_node_named_child_count(p);
        for (uint32_t i = 0; i < k; i++) {
            TSNode ch = ts_node_named_child(p, i);
            if (al_node_is(ch, "with_clause") && test(c, ch))
                return true;
        }
    }
    return false;
}

/* `with torch.cuda.graph(g):` or another capture context: work there is
 * recorded, not executed, until a replay. */
static bool capture_clause(const al_use_ctx *c, TSNode clause)
{
    char *text = al_node_text_compact(c->env->pf, clause);
    for (char *t = text; *t; t++)
        *t = (char)tolower((unsigned char)*t);
    bool capture = strstr(text, "graph") || strstr(text, "capture");
    free(text);
    return capture;
}

/* `with contextlib.suppress(...):`: an exception there (a copy of the
 * wrong shape) skips the rest of the block and goes on after it, so a
 * write there may not happen. */
static bool suppress_clause(const al_use_ctx *c, TSNode clause)
{
    uint32_t m = ts_node_named_child_count(clause);
    for (uint32_t j = 0; j < m; j++) {
        TSNode v = al_node_field(ts_node_named_child(clause, j), "value");
        if (al_node_is(v, "as_pattern"))
            v = ts_node_named_child(v, 0);
        if (!al_node_is(v, "call"))
            continue;
        char *q = al_imports_resolve(&c->env->mod->imports, c->env->pf, al_node_field(v, "function"));
        bool suppress = q && !strcmp(q, "contextlib.suppress");
        free(q);
        if (suppress)
            return true;
    }
    return false;
}

static bool in_graph_capture(const al_use_ctx *c, TSNode n)
{
    return under_with(c, n, capture_clause);
}

static bool in_suppressing_with(const al_use_ctx *c, TSNode n)
{
    if (c->buf && !ts_node_is_null(c->buf->func)) {
        size_t len;
        const char *p = al_node_ptr(c->env->pf, c->buf->func, &len);
        if (!memmem(p, len, "suppress", 8))
            return false; /* no `suppress` in the function's bytes */
    }
    return under_with(c, n, suppress_clause);
}

al_use al_use_reads_locals(const al_use_ctx *c, TSNode call)
{
    al_use u = make(AL_USE_ESCAPE, call);
    char *t = al_node_text_compact(c->env->pf, al_node_field(call, "function"));
    al_chain_add(&u.chain, c->env->path, al_node_row(call),
                 "`%s(...)` can read any local name, the buffer's too", t);
    free(t);
    return u;
}

void al_use_free(al_use *u)
{
    free(u->evidence);
    free(u->why);
    free(u->stored);
    al_chain_free(&u->chain);
    u->evidence = u->why = u->stored = NULL;
}

al_use al_use_classify(const al_use_ctx *c, const al_cfg_node *node, TSNode id,
                       al_alias_kind kind, int region)
{
    if (node->kind == AL_CFG_DEF)
        return make(AL_USE_ESCAPE, id);
    if (node->kind == AL_CFG_FOR_TARGET) {
        al_use e = use_of_value(c, id, kind, region, node->eval);
        if (al_py_node_eq(id, node->eval) || e.kind == AL_USE_KILL) {
            al_use_free(&e);
            return make(AL_USE_KILL, id);
        }
        if (e.kind == AL_USE_WRITE) {
            al_use_free(&e);
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
    if (e.kind == AL_USE_WRITE && in_suppressing_with(c, id)) {
        al_use_free(&e);
        return make(AL_USE_PARTIAL, id); /* skipped when it raises */
    }
    if (e.kind == AL_USE_WRITE && in_graph_capture(c, id)) {
        al_use_free(&e);
        return make(AL_USE_PARTIAL, id); /* recorded now, executed at replay */
    }
    if ((e.kind == AL_USE_WRITE || e.kind == AL_USE_CREATE) && inside(id, node->eval, CONDITIONAL)) {
        al_use_free(&e);
        /* A write that may not happen proves nothing; it reads nothing either. */
        return make(e.kind == AL_USE_WRITE ? AL_USE_PARTIAL : AL_USE_READ, id);
    }
    return e;
}
