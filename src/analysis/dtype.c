#include "dtype.h"

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
