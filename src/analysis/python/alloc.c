#include "alloc.h"

#include "../../base/util.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    const char *suffix;
    al_factory factory;
} factory_name;

static const factory_name TORCH_FACTORIES[] = {
    {"zeros", AL_FACTORY_ZEROS},         {"ones", AL_FACTORY_ONES},
    {"full", AL_FACTORY_FULL},           {"zeros_like", AL_FACTORY_ZEROS_LIKE},
    {"ones_like", AL_FACTORY_ONES_LIKE}, {"full_like", AL_FACTORY_FULL_LIKE},
    {NULL, 0}};
static const factory_name METHOD_FACTORIES[] = {
    {"new_zeros", AL_FACTORY_NEW_ZEROS},
    {"new_ones", AL_FACTORY_NEW_ONES},
    {"new_full", AL_FACTORY_NEW_FULL},
    {NULL, 0}};

const char *al_factory_name(al_factory f)
{
    switch (f) {
    case AL_FACTORY_ZEROS: return "zeros";
    case AL_FACTORY_ONES: return "ones";
    case AL_FACTORY_FULL: return "full";
    case AL_FACTORY_ZEROS_LIKE: return "zeros_like";
    case AL_FACTORY_ONES_LIKE: return "ones_like";
    case AL_FACTORY_FULL_LIKE: return "full_like";
    case AL_FACTORY_NEW_ZEROS: return "new_zeros";
    case AL_FACTORY_NEW_ONES: return "new_ones";
    case AL_FACTORY_NEW_FULL: return "new_full";
    }
    return "?";
}

bool al_factory_is_zeros(al_factory f)
{
    return f == AL_FACTORY_ZEROS || f == AL_FACTORY_ZEROS_LIKE || f == AL_FACTORY_NEW_ZEROS;
}

static bool is_like(al_factory f)
{
    return f == AL_FACTORY_ZEROS_LIKE || f == AL_FACTORY_ONES_LIKE || f == AL_FACTORY_FULL_LIKE;
}

static bool takes_fill(al_factory f)
{
    return f == AL_FACTORY_FULL || f == AL_FACTORY_NEW_FULL || f == AL_FACTORY_FULL_LIKE;
}

/* The keyword_argument node `name=...` itself, or a null node. */
static TSNode keyword_node(const al_pyfile *pf, const al_py_args *a, const char *name)
{
    for (int i = 0; i < a->nkw; i++)
        if (al_node_text_eq(pf, al_node_field(a->kw[i], "name"), name))
            return a->kw[i];
    return (TSNode){0};
}

static al_fill_dtype fill_dtype_of(const al_pyfile *pf, TSNode value)
{
    TSNode v = value;
    if (al_node_is(v, "unary_operator"))
        v = al_node_field(v, "argument");
    if (al_node_is(v, "float") ||
        (al_node_is(v, "call") && al_node_text_eq(pf, al_node_field(v, "function"), "float")))
        return AL_FILL_DTYPE_SAME;
    if (al_node_is(v, "integer"))
        return AL_FILL_DTYPE_INT64;
    if (al_node_is(v, "true") || al_node_is(v, "false"))
        return AL_FILL_DTYPE_BOOL;
    return AL_FILL_DTYPE_UNKNOWN;
}

/* The factory a callee names: `x.new_zeros` as a method, or what it
 * resolves to through the file's imports. */
static bool factory_of(const al_pyfile *pf, const al_imports *im, TSNode fn, al_alloc_site *s)
{
    if (al_node_is(fn, "attribute")) {
        s->callee_name = al_node_field(fn, "attribute");
        size_t len;
        const char *m = al_node_ptr(pf, s->callee_name, &len);
        for (int i = 0; METHOD_FACTORIES[i].suffix; i++)
            if (strlen(METHOD_FACTORIES[i].suffix) == len &&
                memcmp(METHOD_FACTORIES[i].suffix, m, len) == 0) {
                s->factory = METHOD_FACTORIES[i].factory;
                s->method = true;
                char buf[32];
                snprintf(buf, sizeof buf, ".%s", METHOD_FACTORIES[i].suffix);
                s->qualified = al_xstrdup(buf);
                return true;
            }
    }
    char *q = al_imports_resolve(im, pf, fn);
    if (!q)
        return false;
    /* The ATen op a compiled graph calls (`torch.ops.aten.full.default`,
     * or its overload packet `torch.ops.aten.zeros`): the same factory,
     * named by the packet's attribute. */
    if (al_str_starts_with(q, "torch.ops.aten.") && al_node_is(fn, "attribute")) {
        bool overload = al_str_ends_with(q, ".default");
        size_t n = strlen(q + 15) - (overload ? 8 : 0);
        TSNode packet = overload ? al_node_field(fn, "object") : fn;
        for (int i = 0; TORCH_FACTORIES[i].suffix && al_node_is(packet, "attribute"); i++)
            if (strlen(TORCH_FACTORIES[i].suffix) == n &&
                !strncmp(q + 15, TORCH_FACTORIES[i].suffix, n)) {
                s->factory = TORCH_FACTORIES[i].factory;
                s->qualified = q;
                s->callee_bare = false;
                s->callee_name = al_node_field(packet, "attribute");
                s->callee_overload = overload ? al_node_field(fn, "attribute") : (TSNode){0};
                return true;
            }
    }
    for (int i = 0; TORCH_FACTORIES[i].suffix; i++)
        if (al_str_starts_with(q, "torch.") && strcmp(q + 6, TORCH_FACTORIES[i].suffix) == 0) {
            s->factory = TORCH_FACTORIES[i].factory;
            s->qualified = q;
            s->callee_bare = al_node_is(fn, "identifier");
            s->callee_name = s->callee_bare ? fn : al_node_field(fn, "attribute");
            return true;
        }
    free(q);
    return false;
}

bool al_alloc_site_match(const al_pyfile *pf, const al_imports *im, TSNode stmt,
                         al_alloc_site *out)
{
    memset(out, 0, sizeof *out);
    TSNode asg = al_py_name_assignment(stmt);
    if (ts_node_is_null(asg))
        return false;
    TSNode left = al_node_field(asg, "left"), call = al_node_field(asg, "right");
    /* A conditional allocation: the tensor, or None. Its buffer is the one
     * the tensor's branch makes; uses are read where it exists. */
    TSNode guard = {0};
    bool guard_true = false;
    if (al_node_is(call, "conditional_expression") && ts_node_named_child_count(call) == 3) {
        TSNode a = al_py_unparen(ts_node_named_child(call, 0));
        TSNode c = ts_node_named_child(call, 1), b = al_py_unparen(ts_node_named_child(call, 2));
        if (al_node_is(b, "none") && al_node_is(a, "call"))
            call = a, guard = c, guard_true = true;
        else if (al_node_is(a, "none") && al_node_is(b, "call"))
            call = b, guard = c, guard_true = false;
        else
            return false;
    }
    if (!al_alloc_call_match(pf, im, call, out))
        return false;
    out->guard = guard;
    out->guard_true = guard_true;
    out->stmt = stmt;
    out->target = left;
    out->name = al_node_text(pf, left);
    return true;
}

bool al_alloc_call_match(const al_pyfile *pf, const al_imports *im, TSNode call,
                         al_alloc_site *out)
{
    memset(out, 0, sizeof *out);
    if (!al_node_is(call, "call"))
        return false;
    TSNode fn = al_node_field(call, "function");
    if (!factory_of(pf, im, fn, out))
        return false;
    al_py_args_read(call, &out->args);
    const al_py_args *a = &out->args;
    TSNode kw_fill = keyword_node(pf, a, "fill_value");
    /* `torch.zeros(*shape, dtype=...)`: the size is the splat's, not
     * known; `**kwargs` may hold `out=`, and a fill's position is not
     * known after a splat. */
    bool shape_splat = a->splat && !takes_fill(out->factory) && !is_like(out->factory);
    for (int i = 0; i < a->nall && shape_splat; i++)
        if (!al_node_is(a->all[i], "list_splat") && !al_node_is(a->all[i], "keyword_argument") &&
            i >= a->npos + a->nkw + 1)
            shape_splat = false;
    for (int i = 0; i < a->nall && shape_splat; i++)
        if (al_node_is(a->all[i], "dictionary_splat"))
            shape_splat = false;
    if (!ts_node_is_null(al_py_kwarg(pf, a, "out")) || (a->splat && !shape_splat) ||
        a->nall >= 32 || a->npos >= 16) {
        al_alloc_site_free(out);
        return false;
    }
    out->call = call;
    out->callee = fn;
    if (shape_splat) {
        /* size unknown: no size_expr */
    } else if (!is_like(out->factory)) {
        out->size_expr = a->npos > 0 ? a->pos[0] : al_py_kwarg(pf, a, "size");
        out->size_multiple = !takes_fill(out->factory) && !out->method && a->npos > 1;
    }
    if (takes_fill(out->factory)) {
        out->fill_arg = a->npos > 1 ? a->pos[1] : kw_fill;
        if (ts_node_is_null(out->fill_arg)) {
            al_alloc_site_free(out);
            return false; /* not a call we understand */
        }
        out->fill_dtype = AL_FILL_DTYPE_SAME;
        if (out->factory == AL_FACTORY_FULL && ts_node_is_null(al_py_kwarg(pf, a, "dtype"))) {
            TSNode value = al_node_is(out->fill_arg, "keyword_argument")
                               ? al_node_field(out->fill_arg, "value")
                               : out->fill_arg;
            out->fill_dtype = fill_dtype_of(pf, value);
        }
    }
    return true;
}

void al_alloc_site_free(al_alloc_site *site)
{
    free(site->qualified);
    free(site->name);
    site->qualified = site->name = NULL;
}

static const char *const CONSTANT_FACTORIES[] = {
    "zeros", "ones", "full", "empty", "zeros_like", "ones_like", "full_like", "empty_like",
    NULL};
static const char *const RANDOM_FACTORIES[] = {
    "rand", "randn", "randint", "randperm", "rand_like", "randn_like", "randint_like",
    "normal", "bernoulli", "multinomial", NULL};
/* Factories that take device= (torch.from_numpy does not). */
static const char *const OTHER_FACTORIES[] = {
    "arange", "tensor", "eye", "linspace", "logspace", "as_tensor", NULL};

bool al_factory_is_constant(const char *name)
{
    return al_str_in_list(CONSTANT_FACTORIES, name, strlen(name));
}

const char *al_torch_factory(const al_pyfile *pf, const al_imports *im, TSNode call,
                             bool *random)
{
    if (!al_node_is(call, "call"))
        return NULL;
    char *q = al_imports_resolve(im, pf, al_node_field(call, "function"));
    if (!q || strncmp(q, "torch.", 6) != 0) {
        free(q);
        return NULL;
    }
    const char *name = q + 6;
    const char *hit = NULL;
    const char *const *lists[] = {CONSTANT_FACTORIES, RANDOM_FACTORIES, OTHER_FACTORIES};
    for (int l = 0; l < 3 && !hit; l++)
        for (int i = 0; lists[l][i]; i++)
            if (!strcmp(lists[l][i], name)) {
                hit = lists[l][i];
                if (random)
                    *random = l == 1;
            }
    free(q);
    return hit;
}

TSNode al_factory_statement(const al_pyfile *pf, const al_imports *im, TSNode stmt,
                            TSNode *target, const char **factory)
{
    TSNode asg = al_py_name_assignment(stmt);
    if (ts_node_is_null(asg) || !ts_node_is_null(al_node_field(asg, "type")))
        return (TSNode){0};
    TSNode call = al_node_field(asg, "right");
    bool random = false;
    const char *f = al_torch_factory(pf, im, call, &random);
    if (!f && al_node_is(call, "call") && al_node_is(al_node_field(call, "function"), "attribute")) {
        static const char *const m[] = {"new_zeros", "new_ones", "new_full", "new_empty", NULL};
        for (int i = 0; m[i]; i++)
            if (al_py_last_name_is(pf, al_node_field(call, "function"), m[i]))
                f = m[i];
    }
    if (!f || random || !al_node_is(call, "call"))
        return (TSNode){0};
    *target = al_node_field(asg, "left");
    *factory = f;
    return call;
}

static bool bytes_mention(const char *p, size_t len, const char *word)
{
    size_t wl = strlen(word);
    for (size_t j = 0; j + wl <= len; j++)
        if (p[j] == word[0] && memcmp(p + j, word, wl) == 0)
            return true;
    return false;
}

/* A cheap test before the dataflow: the body names a factory, directly or
 * under a from-import alias (`from torch import zeros as tz`). */
bool al_alloc_body_names_factory(const al_pyfile *pf, const al_imports *im, TSNode body)
{
    size_t len;
    const char *p = al_node_ptr(pf, body, &len);
    static const char *const words[] = {"zeros", "ones", "full", NULL};
    for (int i = 0; words[i]; i++)
        if (bytes_mention(p, len, words[i]))
            return true;
    for (size_t i = 0; i < im->n; i++) {
        const char *t = im->items[i].target;
        if (!strncmp(t, "torch.", 6) &&
            (strstr(t, "zeros") || strstr(t, "ones") || strstr(t, "full")) &&
            bytes_mention(p, len, im->items[i].local))
            return true;
    }
    return false;
}
