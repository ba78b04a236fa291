#include "dtype.h"

#include "values.h"

#include <stdlib.h>
#include <string.h>

typedef struct {
    const char *name;
    al_dtype_kind kind;
    int bits;
} spelling;

/* Names both libraries give the same meaning. */
static const spelling COMMON[] = {
    {"bool", AL_DTYPE_BOOL, 8},         {"int8", AL_DTYPE_SIGNED, 8},
    {"int16", AL_DTYPE_SIGNED, 16},     {"int32", AL_DTYPE_SIGNED, 32},
    {"int64", AL_DTYPE_SIGNED, 64},     {"uint8", AL_DTYPE_UNSIGNED, 8},
    {"uint16", AL_DTYPE_UNSIGNED, 16},  {"uint32", AL_DTYPE_UNSIGNED, 32},
    {"uint64", AL_DTYPE_UNSIGNED, 64},  {"float16", AL_DTYPE_FLOAT, 16},
    {"float32", AL_DTYPE_FLOAT, 32},    {"float64", AL_DTYPE_FLOAT, 64},
    {"double", AL_DTYPE_FLOAT, 64},     {"half", AL_DTYPE_FLOAT, 16},
    {"complex64", AL_DTYPE_COMPLEX, 64}, {"complex128", AL_DTYPE_COMPLEX, 128},
    {NULL, AL_DTYPE_UNKNOWN, 0},
};

/* torch's own aliases: `torch.int` is int32, `torch.float` float32. */
static const spelling TORCH[] = {
    {"int", AL_DTYPE_SIGNED, 32},     {"long", AL_DTYPE_SIGNED, 64},
    {"short", AL_DTYPE_SIGNED, 16},   {"float", AL_DTYPE_FLOAT, 32},
    {"bfloat16", AL_DTYPE_FLOAT, 16}, {"cfloat", AL_DTYPE_COMPLEX, 64},
    {"cdouble", AL_DTYPE_COMPLEX, 128}, {NULL, AL_DTYPE_UNKNOWN, 0},
};

/* NumPy's: the platform integer is int64 (Linux, and everywhere since
 * NumPy 2). */
static const spelling NUMPY[] = {
    {"bool_", AL_DTYPE_BOOL, 8},    {"int_", AL_DTYPE_SIGNED, 64},
    {"intp", AL_DTYPE_SIGNED, 64},  {"float_", AL_DTYPE_FLOAT, 64},
    {"single", AL_DTYPE_FLOAT, 32}, {NULL, AL_DTYPE_UNKNOWN, 0},
};

/* The builtins as dtypes mean the same to both: int64, float64, bool. */
static const spelling BUILTIN[] = {
    {"int", AL_DTYPE_SIGNED, 64},
    {"float", AL_DTYPE_FLOAT, 64},
    {"bool", AL_DTYPE_BOOL, 8},
    {NULL, AL_DTYPE_UNKNOWN, 0},
};

static bool look_up(const spelling *table, const char *name, al_dtype *out)
{
    for (; table->name; table++)
        if (!strcmp(table->name, name)) {
            *out = (al_dtype){table->kind, table->bits};
            return true;
        }
    return false;
}

static al_dtype named(const char *name, al_dtype_library lib)
{
    al_dtype d = {AL_DTYPE_UNKNOWN, 0};
    if (!look_up(COMMON, name, &d))
        look_up(lib == AL_DTYPE_TORCH ? TORCH : NUMPY, name, &d);
    return d;
}

al_dtype al_dtype_read(const al_pymodule *m, TSNode expr, al_dtype_library lib)
{
    al_dtype d = {AL_DTYPE_UNKNOWN, 0};
    expr = al_py_unparen(expr);
    if (ts_node_is_null(expr))
        return d;
    if (al_node_is(expr, "string")) {
        /* NumPy takes "int32"; torch takes no strings. */
        char *t = al_node_text(m->pf, expr);
        size_t len = strlen(t);
        if (lib == AL_DTYPE_NUMPY && len >= 2 && (t[0] == '"' || t[0] == '\'') &&
            t[len - 1] == t[0]) {
            t[len - 1] = '\0';
            d = named(t + 1, lib);
        }
        free(t);
        return d;
    }
    char *q = al_pymodule_resolve(m, expr);
    const char *prefix = lib == AL_DTYPE_TORCH ? "torch." : "numpy.";
    if (q && !strncmp(q, prefix, strlen(prefix))) {
        d = named(q + strlen(prefix), lib);
    } else if (!q && al_node_is(expr, "identifier")) {
        char *t = al_node_text(m->pf, expr);
        look_up(BUILTIN, t, &d);
        free(t);
    }
    free(q);
    return d;
}

bool al_dtype_is_integer(al_dtype d)
{
    return d.kind == AL_DTYPE_SIGNED || d.kind == AL_DTYPE_UNSIGNED;
}

/* Results that are floating whatever the input's dtype (integers are
 * promoted to the default float dtype). */
static const char *const FLOAT_RESULTS[] = {
    "exp", "exp2", "expm1", "log", "log2", "log10", "log1p", "sin", "cos", "tan", "asin",
    "acos", "atan", "atan2", "sinh", "cosh", "tanh", "sigmoid", "sqrt", "rsqrt", "erf", "erfc",
    "erfinv", "reciprocal", "softmax", "log_softmax", "rand", "randn", "linspace", "logspace",
    "mean", NULL};
/* Results with their input's dtype (the first operand, or the object). */
static const char *const SAME_DTYPE[] = {
    "unsqueeze", "squeeze", "reshape", "expand", "expand_as", "repeat", "repeat_interleave",
    "contiguous", "clone", "detach", "flatten", "transpose", "permute", "t", "narrow", "flip",
    "roll", "cuda", "cpu", "neg", "abs", "clamp", "clamp_min", "clamp_max", "relu", "silu",
    "gelu", "cumsum", "sum", "select", "index_select", "gather", "chunk", NULL};
/* Results promoted from their operands: floating when one is. */
static const char *const PROMOTING[] = {"mul", "add", "sub", "div", "true_divide", "pow",
                                        "outer", "matmul", "mm", "bmm", "einsum", NULL};
/* Factories whose default dtype is the default float dtype. */
static const char *const FLOAT_FACTORIES[] = {"zeros", "ones", "empty", "rand", "randn", NULL};

static bool listed(const char *const *list, const char *name, size_t len)
{
    for (; *list; list++)
        if (strlen(*list) == len && !strncmp(*list, name, len))
            return true;
    return false;
}

#define FLOAT_DEPTH 8

static bool floating(const al_pymodule *m, TSNode func, TSNode stmt, TSNode e, int depth);

/* What a `.to(...)`/`.type(...)` or `.view(...)` call's arguments say of
 * the dtype: 1 floating, 0 another, -1 none named (device moves, shapes). */
static int dtype_argument(const al_pymodule *m, const al_py_args *a, bool positional_unknown_ok)
{
    TSNode d = al_py_kwarg(m->pf, a, "dtype");
    if (!ts_node_is_null(d)) {
        al_dtype t = al_dtype_read(m, d, AL_DTYPE_TORCH);
        return t.kind == AL_DTYPE_FLOAT ? 1 : 0;
    }
    for (int i = 0; i < a->npos; i++) {
        al_dtype t = al_dtype_read(m, a->pos[i], AL_DTYPE_TORCH);
        if (t.kind == AL_DTYPE_FLOAT)
            return 1;
        if (t.kind != AL_DTYPE_UNKNOWN)
            return 0;
        /* `x.to(y)` takes y's dtype; `x.to(dev)` keeps x's: text alone
         * cannot tell a device from a tensor or a dtype held in a name,
         * save a string or a tensor's `.device`. `x.view(n)` is a shape
         * unless its one argument may hold a dtype. */
        TSNode p = al_py_unparen(a->pos[i]);
        bool device = al_node_is(p, "string") ||
                      (al_node_is(p, "attribute") && al_py_last_name_is(m->pf, p, "device"));
        bool shape = al_node_is(p, "integer") || al_node_is(p, "unary_operator") ||
                     al_node_is(p, "binary_operator") || al_node_is(p, "subscript") ||
                     al_node_is(p, "tuple") || al_node_is(p, "list") || a->npos > 1;
        if (!(positional_unknown_ok ? shape : device))
            return 0;
    }
    return -1;
}

static bool floating_call(const al_pymodule *m, TSNode func, TSNode stmt, TSNode call, int depth)
{
    const al_pyfile *pf = m->pf;
    TSNode fn = al_node_field(call, "function");
    al_py_args a;
    al_py_args_read(call, &a);
    if (a.splat)
        return false;
    char *q = al_pymodule_resolve(m, fn);
    bool yes = false;
    if (q) {
        const char *name = NULL;
        if (!strncmp(q, "torch.nn.functional.", 20))
            name = q + 20;
        else if (!strncmp(q, "torch.", 6) && !strchr(q + 6, '.'))
            name = q + 6;
        else if (!strncmp(q, "math.", 5))
            yes = true; /* math's functions return Python floats */
        if (name) {
            size_t len = strlen(name);
            TSNode dt = al_py_kwarg(pf, &a, "dtype");
            if (!ts_node_is_null(dt))
                yes = al_dtype_read(m, dt, AL_DTYPE_TORCH).kind == AL_DTYPE_FLOAT;
            else if (listed(FLOAT_RESULTS, name, len) || listed(FLOAT_FACTORIES, name, len))
                yes = true;
            else if (listed(SAME_DTYPE, name, len) && a.npos >= 1)
                yes = floating(m, func, stmt, a.pos[0], depth + 1);
            else if (listed(PROMOTING, name, len))
                for (int i = 0; i < a.npos && !yes; i++)
                    yes = floating(m, func, stmt, a.pos[i], depth + 1);
        }
        free(q);
        return yes;
    }
    if (!al_node_is(fn, "attribute"))
        return false;
    size_t len;
    const char *method = al_py_last_name(pf, fn, &len);
    TSNode obj = al_node_field(fn, "object");
    if (listed((const char *const[]){"float", "double", "half", "bfloat16", NULL}, method, len))
        return a.nall == 0;
    if (listed(FLOAT_RESULTS, method, len))
        return true;
    if (listed((const char *const[]){"to", "type", NULL}, method, len)) {
        int said = dtype_argument(m, &a, false);
        return said == 1 || (said == -1 && floating(m, func, stmt, obj, depth + 1));
    }
    if (listed((const char *const[]){"view", NULL}, method, len)) {
        /* x.view(torch.int32) reinterprets the bytes */
        int said = dtype_argument(m, &a, true);
        return said == 1 || (said == -1 && floating(m, func, stmt, obj, depth + 1));
    }
    if (listed(SAME_DTYPE, method, len))
        return floating(m, func, stmt, obj, depth + 1);
    if (listed(PROMOTING, method, len)) {
        if (floating(m, func, stmt, obj, depth + 1))
            return true;
        for (int i = 0; i < a.npos; i++)
            if (floating(m, func, stmt, a.pos[i], depth + 1))
                return true;
    }
    return false;
}

static bool floating(const al_pymodule *m, TSNode func, TSNode stmt, TSNode e, int depth)
{
    const al_pyfile *pf = m->pf;
    e = al_py_unparen(e);
    if (ts_node_is_null(e) || depth > FLOAT_DEPTH)
        return false;
    if (al_node_is(e, "float"))
        return true;
    if (al_node_is(e, "unary_operator"))
        return floating(m, func, stmt, al_node_field(e, "argument"), depth + 1);
    if (al_node_is(e, "binary_operator")) {
        TSNode op = al_node_field(e, "operator");
        if (al_node_text_eq(pf, op, "/"))
            return true;
        if (al_node_text_eq(pf, op, "//") || al_node_text_eq(pf, op, "&") ||
            al_node_text_eq(pf, op, "|") || al_node_text_eq(pf, op, "^") ||
            al_node_text_eq(pf, op, "<<") || al_node_text_eq(pf, op, ">>"))
            return false;
        return floating(m, func, stmt, al_node_field(e, "left"), depth + 1) ||
               floating(m, func, stmt, al_node_field(e, "right"), depth + 1);
    }
    if (al_node_is(e, "conditional_expression"))
        return ts_node_named_child_count(e) == 3 &&
               floating(m, func, stmt, ts_node_named_child(e, 0), depth + 1) &&
               floating(m, func, stmt, ts_node_named_child(e, 2), depth + 1);
    if (al_node_is(e, "subscript"))
        return floating(m, func, stmt, al_node_field(e, "value"), depth + 1);
    if (al_node_is(e, "call"))
        return floating_call(m, func, stmt, e, depth);
    if (al_node_is(e, "attribute")) {
        char *q = al_pymodule_resolve(m, e);
        bool yes = q && (!strcmp(q, "math.pi") || !strcmp(q, "math.e") ||
                         !strcmp(q, "math.tau") || !strcmp(q, "math.inf"));
        free(q);
        return yes;
    }
    if (al_node_is(e, "identifier")) {
        TSNode v = al_value_reaching_binding(pf, func, stmt, e);
        if (ts_node_is_null(v))
            return false;
        TSNode at = ts_node_parent(ts_node_parent(v)); /* value -> assignment -> statement */
        return floating(m, func, at, v, depth + 1);
    }
    return false;
}

bool al_dtype_floating(const al_pymodule *m, TSNode func, TSNode stmt, TSNode expr)
{
    return floating(m, func, stmt, expr, 0);
}
