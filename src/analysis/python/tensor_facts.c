#include "tensor_facts.h"

#include "alloc.h"
#include "rebinding.h"
#include "../../base/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct {
    const char *name;
    al_tdtype dtype;
} DTYPES[] = {
    {"bool", AL_TDT_BOOL},         {"uint8", AL_TDT_UINT8},       {"int8", AL_TDT_INT8},
    {"int16", AL_TDT_INT16},       {"short", AL_TDT_INT16},       {"int32", AL_TDT_INT32},
    {"int", AL_TDT_INT32},         {"int64", AL_TDT_INT64},       {"long", AL_TDT_INT64},
    {"float16", AL_TDT_FLOAT16},   {"half", AL_TDT_FLOAT16},      {"bfloat16", AL_TDT_BFLOAT16},
    {"float32", AL_TDT_FLOAT32},   {"float", AL_TDT_FLOAT32},     {"float64", AL_TDT_FLOAT64},
    {"double", AL_TDT_FLOAT64},    {"complex64", AL_TDT_COMPLEX64},
    {"cfloat", AL_TDT_COMPLEX64},  {"complex128", AL_TDT_COMPLEX128},
    {"cdouble", AL_TDT_COMPLEX128},
};

/* The casting methods: `x.half()` is x as float16. */
static const struct {
    const char *method;
    al_tdtype dtype;
} CASTS[] = {
    {"bool", AL_TDT_BOOL},     {"byte", AL_TDT_UINT8},   {"char", AL_TDT_INT8},
    {"short", AL_TDT_INT16},   {"int", AL_TDT_INT32},    {"long", AL_TDT_INT64},
    {"half", AL_TDT_FLOAT16},  {"bfloat16", AL_TDT_BFLOAT16}, {"float", AL_TDT_FLOAT32},
    {"double", AL_TDT_FLOAT64},
};

const char *al_tdtype_name(al_tdtype d)
{
    for (size_t i = 0; i < sizeof DTYPES / sizeof *DTYPES; i++)
        if (DTYPES[i].dtype == d)
            return DTYPES[i].name;
    return d == AL_TDT_FLOAT_DEFAULT ? "floating (the default dtype)" : "not known";
}

/* `torch.float16` (through the imports) as a dtype. */
static al_tdtype dtype_named(const al_pymodule *m, TSNode n)
{
    if (ts_node_is_null(n))
        return AL_TDT_UNKNOWN;
    char *q = al_pymodule_resolve(m, n);
    al_tdtype d = AL_TDT_UNKNOWN;
    if (q && al_str_starts_with(q, "torch."))
        for (size_t i = 0; i < sizeof DTYPES / sizeof *DTYPES && !d; i++)
            if (!strcmp(q + 6, DTYPES[i].name))
                d = DTYPES[i].dtype;
    free(q);
    return d;
}

static al_tensor_facts unknown(void)
{
    al_tensor_facts f;
    memset(&f, 0, sizeof f);
    f.rank = -1;
    return f;
}

/* The last binding of name in func's body before stmt, when the function
 * binds name `bindings` times in all; null otherwise. */
static TSNode one_binding(const al_pyfile *pf, TSNode func, TSNode stmt, const char *name,
                          size_t bindings, TSNode *at)
{
    al_strlist bound = {0};
    al_py_bound_names(pf, al_node_field(func, "body"), &bound);
    size_t n = al_strlist_count(&bound, name);
    al_strlist_free(&bound);
    if (n != bindings)
        return (TSNode){0};
    return al_last_binding_before(pf, func, stmt, name, false, at);
}

/* Sizes given as positional arguments or one tuple or list, into f. */
static void read_sizes(const al_py_args *a, int first, al_tensor_facts *f)
{
    al_py_args rest = *a;
    rest.npos = a->npos - first;
    for (int i = 0; i < rest.npos; i++)
        rest.pos[i] = a->pos[i + first];
    if (rest.npos == 1) {
        TSNode s = al_py_unparen(rest.pos[0]);
        if (al_node_is(s, "tuple") || al_node_is(s, "list")) {
            TSNode e[AL_TENSOR_FACTS_MAX_RANK];
            int n = al_py_elements(s, e, AL_TENSOR_FACTS_MAX_RANK);
            if (n < 0)
                return;
            f->rank = n;
            for (int i = 0; i < n; i++)
                f->dims[i] = al_node_is(e[i], "integer") || al_node_is(e[i], "identifier") ||
                                     al_node_is(e[i], "attribute") || al_node_is(e[i], "subscript")
                                 ? e[i]
                                 : (TSNode){0};
            return;
        }
        /* One name may be a size or a whole shape (`torch.zeros(shape)`);
         * `x.shape` is a shape: neither is told. */
        if (!al_node_is(s, "integer"))
            return;
    }
    if (rest.npos > AL_TENSOR_FACTS_MAX_RANK || a->splat)
        return;
    f->rank = rest.npos;
    for (int i = 0; i < rest.npos; i++) {
        TSNode d = rest.pos[i];
        bool minus_one = al_node_is(d, "unary_operator");
        f->dims[i] = minus_one || al_node_is(d, "list_splat") ? (TSNode){0} : d;
    }
}

static al_tensor_facts facts(const al_pymodule *m, TSNode func, TSNode stmt, TSNode expr,
                             size_t bindings, int depth);

static al_tensor_facts factory_facts(const al_pymodule *m, TSNode func, TSNode stmt, TSNode call,
                                     const char *factory, int depth)
{
    al_tensor_facts f = unknown();
    al_py_args a;
    al_py_args_read(call, &a);
    if (a.splat)
        return f;
    TSNode dt = al_py_kwarg(m->pf, &a, "dtype");
    bool like = al_str_ends_with(factory, "_like");
    if (like && a.npos >= 1) {
        f = facts(m, func, stmt, a.pos[0], 1, depth + 1);
        f.expanded = (TSNode){0};
    }
    if (!ts_node_is_null(dt)) {
        f.dtype = dtype_named(m, dt);
    } else if (!like) {
        static const char *const FLOATS[] = {"zeros", "ones", "empty", "rand", "randn", NULL};
        for (int i = 0; FLOATS[i]; i++)
            if (!strcmp(factory, FLOATS[i]))
                f.dtype = AL_TDT_FLOAT_DEFAULT;
        if (!strcmp(factory, "randint"))
            f.dtype = AL_TDT_INT64;
        if (!strcmp(factory, "full") && a.npos >= 2) {
            TSNode v = al_py_unparen(a.pos[1]);
            f.dtype = al_node_is(v, "float")                            ? AL_TDT_FLOAT_DEFAULT
                      : al_node_is(v, "integer")                        ? AL_TDT_INT64
                      : al_node_is(v, "true") || al_node_is(v, "false") ? AL_TDT_BOOL
                                                                        : AL_TDT_UNKNOWN;
        }
    }
    if (!like) {
        static const char *const SIZED[] = {"zeros", "ones", "empty", "rand", "randn", NULL};
        for (int i = 0; SIZED[i]; i++)
            if (!strcmp(factory, SIZED[i]))
                read_sizes(&a, 0, &f);
        if (!strcmp(factory, "full") && a.npos >= 1) {
            al_py_args one = a;
            one.npos = 1;
            one.nall = 1;
            read_sizes(&one, 0, &f);
        }
    }
    return f;
}

static al_tensor_facts method_facts(const al_pymodule *m, TSNode func, TSNode stmt, TSNode call,
                                    int depth)
{
    const al_pyfile *pf = m->pf;
    TSNode fn = al_node_field(call, "function");
    TSNode obj = al_node_field(fn, "object");
    char *method = al_node_text(pf, al_node_field(fn, "attribute"));
    al_py_args a;
    al_py_args_read(call, &a);
    al_tensor_facts f = unknown();
    /* `self.expand(h)` calls a submodule named like a tensor method. */
    bool on_module = al_py_is_receiver(pf, obj);
    if (a.splat || on_module) {
        free(method);
        return f;
    }
    for (size_t i = 0; i < sizeof CASTS / sizeof *CASTS; i++)
        if (!strcmp(method, CASTS[i].method) && a.nall == 0) {
            f = facts(m, func, stmt, obj, 1, depth + 1);
            f.dtype = CASTS[i].dtype;
        }
    if (!strcmp(method, "to")) {
        TSNode dt = al_py_kwarg(pf, &a, "dtype");
        al_tdtype d = !ts_node_is_null(dt) ? dtype_named(m, dt) : AL_TDT_UNKNOWN;
        for (int i = 0; i < a.npos && !d; i++)
            d = dtype_named(m, a.pos[i]);
        f = facts(m, func, stmt, obj, 1, depth + 1);
        if (d)
            f.dtype = d;
        else if (a.npos > 0 && al_node_is(al_py_unparen(a.pos[0]), "identifier"))
            f.dtype = AL_TDT_UNKNOWN; /* `.to(other)`: other's dtype, not known */
    } else if (!strcmp(method, "view") || !strcmp(method, "reshape")) {
        TSNode first = a.npos > 0 ? al_py_unparen(a.pos[0]) : (TSNode){0};
        bool dtype_view = !ts_node_is_null(first) && dtype_named(m, first) != AL_TDT_UNKNOWN;
        f = facts(m, func, stmt, obj, 1, depth + 1);
        f.rank = -1;
        memset(f.dims, 0, sizeof f.dims);
        if (dtype_view)
            f.dtype = AL_TDT_UNKNOWN; /* `x.view(torch.int32)`: its bytes as another dtype */
        else
            read_sizes(&a, 0, &f);
    } else if (!strcmp(method, "expand") || !strcmp(method, "expand_as")) {
        f = facts(m, func, stmt, obj, 1, depth + 1);
        f.rank = -1;
        memset(f.dims, 0, sizeof f.dims);
        if (!strcmp(method, "expand"))
            read_sizes(&a, 0, &f);
        f.expanded = call;
    } else if (!strcmp(method, "contiguous") || !strcmp(method, "clone")) {
        f = facts(m, func, stmt, obj, 1, depth + 1);
        f.expanded = (TSNode){0};
    } else if (!strcmp(method, "detach")) {
        f = facts(m, func, stmt, obj, 1, depth + 1);
    }
    free(method);
    return f;
}

static al_tensor_facts facts(const al_pymodule *m, TSNode func, TSNode stmt, TSNode expr,
                             size_t bindings, int depth)
{
    const al_pyfile *pf = m->pf;
    expr = al_py_unparen(expr);
    if (ts_node_is_null(expr) || depth > 4)
        return unknown();
    if (al_node_is(expr, "identifier")) {
        char *name = al_node_text(pf, expr);
        TSNode at = {0};
        TSNode v = one_binding(pf, func, stmt, name, bindings, &at);
        free(name);
        return ts_node_is_null(v) ? unknown() : facts(m, func, at, v, 1, depth + 1);
    }
    if (al_node_is(expr, "comparison_operator")) {
        al_tensor_facts f = unknown();
        f.dtype = AL_TDT_BOOL;
        return f;
    }
    if (!al_node_is(expr, "call"))
        return unknown();
    const char *factory = al_torch_factory(pf, &m->imports, expr, NULL);
    if (factory)
        return factory_facts(m, func, stmt, expr, factory, depth);
    TSNode fn = al_node_field(expr, "function");
    char *q = al_pymodule_resolve(m, fn);
    bool module_fn = q != NULL;
    al_tensor_facts f = unknown();
    if (q && !strcmp(q, "torch.broadcast_to")) {
        f.expanded = expr;
    } else if (!module_fn && al_node_is(fn, "attribute")) {
        f = method_facts(m, func, stmt, expr, depth);
    }
    free(q);
    return f;
}

al_tensor_facts al_tensor_facts_of(const al_pymodule *m, TSNode func, TSNode stmt, TSNode expr,
                                   size_t bindings)
{
    return facts(m, func, stmt, expr, bindings, 0);
}

/* 0 bool, 1 integer, 2 floating, 3 complex; -1 unknown. */
static int category(al_tdtype d)
{
    switch (d) {
    case AL_TDT_UNKNOWN:
        return -1;
    case AL_TDT_BOOL:
        return 0;
    case AL_TDT_UINT8:
    case AL_TDT_INT8:
    case AL_TDT_INT16:
    case AL_TDT_INT32:
    case AL_TDT_INT64:
        return 1;
    case AL_TDT_COMPLEX64:
    case AL_TDT_COMPLEX128:
        return 3;
    default:
        return 2;
    }
}

/* torch.promote_types within one category; AL_TDT_UNKNOWN where the
 * default float dtype takes part (float32 unless the program set it). */
static al_tdtype promote(al_tdtype a, al_tdtype b)
{
    if (a == b)
        return a;
    if (a == AL_TDT_FLOAT_DEFAULT || b == AL_TDT_FLOAT_DEFAULT)
        return AL_TDT_UNKNOWN;
    if ((a == AL_TDT_FLOAT16 && b == AL_TDT_BFLOAT16) ||
        (a == AL_TDT_BFLOAT16 && b == AL_TDT_FLOAT16))
        return AL_TDT_FLOAT32;
    if ((a == AL_TDT_UINT8 && b == AL_TDT_INT8) || (a == AL_TDT_INT8 && b == AL_TDT_UINT8))
        return AL_TDT_INT16;
    return a > b ? a : b; /* the enum runs narrow to wide within a category */
}

static bool literal_int(const al_pyfile *pf, TSNode n, long *v)
{
    if (ts_node_is_null(n) || !al_node_is(n, "integer"))
        return false;
    char *t = al_node_text(pf, n);
    char *end;
    *v = strtol(t, &end, 0);
    bool ok = *end == '\0';
    free(t);
    return ok;
}

al_inplace_verdict al_inplace_judge(const al_pyfile *pf, const al_tensor_facts *x,
                                    const al_tensor_facts *y, const char *xname,
                                    const char *yname, bool dtype_matters, char *why,
                                    size_t cap)
{
    why[0] = '\0';
    if (!ts_node_is_null(x->expanded)) {
        snprintf(why, cap, "`%s` is an expanded view (line %zu), whose elements share memory: "
                           "an in-place update of it raises", xname, al_node_row(x->expanded));
        return AL_INPLACE_RAISES;
    }
    bool dtype_same = !dtype_matters;
    char dtype_why[256] = "";
    if (dtype_matters && x->dtype && y->dtype) {
        int cx = category(x->dtype), cy = category(y->dtype);
        al_tdtype r = cy == cx ? promote(x->dtype, y->dtype) : AL_TDT_UNKNOWN;
        if (cy > cx) {
            snprintf(why, cap, "`%s` is %s and `%s` %s: the original promotes to `%s`'s kind, "
                               "which an in-place update of `%s` cannot hold (it raises)",
                     yname, al_tdtype_name(y->dtype), xname, al_tdtype_name(x->dtype), yname,
                     xname);
            return AL_INPLACE_RAISES;
        }
        if (cy < cx || r == x->dtype) {
            dtype_same = true;
        } else if (r != AL_TDT_UNKNOWN && y->rank > 0) {
            snprintf(why, cap, "`%s` is %s and `%s` %s: the original gives %s, the in-place "
                               "update rounds to %s",
                     yname, al_tdtype_name(y->dtype), xname, al_tdtype_name(x->dtype),
                     al_tdtype_name(r), al_tdtype_name(x->dtype));
            return AL_INPLACE_DIFFERS;
        } else if (r != AL_TDT_UNKNOWN && y->rank != 0) {
            snprintf(dtype_why, sizeof dtype_why,
                     "assumes `%s` (%s) is 0-dim: otherwise the original gives %s and the "
                     "in-place update rounds to %s",
                     yname, al_tdtype_name(y->dtype), al_tdtype_name(r),
                     al_tdtype_name(x->dtype));
        } else if (r != AL_TDT_UNKNOWN) {
            dtype_same = true; /* a 0-dim operand of the same kind keeps x's dtype */
        }
    }
    bool shape_same = false;
    char shape_why[256] = "";
    if (x->rank >= 0 && y->rank >= 0) {
        if (y->rank > x->rank) {
            snprintf(why, cap, "`%s` has %d dimensions and `%s` %d: the original broadcasts to "
                               "a larger shape, which an in-place update of `%s` raises on",
                     yname, y->rank, xname, x->rank, xname);
            return AL_INPLACE_RAISES;
        }
        shape_same = true;
        for (int i = 1; i <= y->rank; i++) {
            TSNode xd = x->dims[x->rank - i], yd = y->dims[y->rank - i];
            long xv = 0, yv = 0;
            bool xl = literal_int(pf, xd, &xv), yl = literal_int(pf, yd, &yv);
            if (yl && yv == 1)
                continue;
            if (!ts_node_is_null(xd) && !ts_node_is_null(yd) && al_py_same_text(pf, xd, yd))
                continue;
            if (xl && yl && xv != yv) {
                snprintf(why, cap, "dimension %d of `%s` is %ld and of `%s` %ld: the original "
                                   "broadcasts to a larger shape, which an in-place update of "
                                   "`%s` raises on",
                         y->rank - i, yname, yv, xname, xv, xname);
                return AL_INPLACE_RAISES;
            }
            if (shape_same) {
                char *xt = ts_node_is_null(xd) ? al_xstrdup("not stated") : al_node_text(pf, xd);
                char *yt = ts_node_is_null(yd) ? al_xstrdup("not stated") : al_node_text(pf, yd);
                snprintf(shape_why, sizeof shape_why,
                         "assumes dimension %d of `%s` (%s) broadcasts into `%s`'s (%s)",
                         y->rank - i, yname, yt, xname, xt);
                free(xt);
                free(yt);
            }
            shape_same = false;
        }
    } else {
        char unstated[160];
        if (x->rank < 0 && y->rank < 0)
            snprintf(unstated, sizeof unstated, "neither's shape is stated");
        else
            snprintf(unstated, sizeof unstated, "`%s`'s shape is not stated",
                     x->rank < 0 ? xname : yname);
        snprintf(shape_why, sizeof shape_why, "assumes `%s` broadcasts into `%s`'s shape (%s)",
                 yname, xname, unstated);
    }
    if (dtype_same && shape_same)
        return AL_INPLACE_SAME;
    if (!dtype_same && !dtype_why[0])
        snprintf(dtype_why, sizeof dtype_why, "assumes `%s` does not promote `%s`'s dtype (%s)",
                 yname, xname,
                 !x->dtype && !y->dtype ? "neither's dtype is stated"
                 : !y->dtype            ? "its dtype is not stated"
                 : !x->dtype            ? "that dtype is not stated"
                                        : "the default float dtype takes part");
    snprintf(why, cap, "%s%s%s", dtype_same ? "" : dtype_why,
             !dtype_same && !shape_same ? "; " : "", shape_same ? "" : shape_why);
    return AL_INPLACE_UNKNOWN;
}
