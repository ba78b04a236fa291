/* AL201's NumPy spellings: a prefix sum with a leading zero in host code
 * that runs every step (schedulers, metadata builders),
 * `np.pad(np.cumsum(a), (1, 0))` or `np.concatenate([[0], np.cumsum(a)])`,
 * written into an n + 1 array instead (bench/numpy_twins.py: 2.1-4.7x
 * faster than np.pad, 1.3-1.5x than np.concatenate on the CPU).
 *
 * What makes it safe is the dtype. NumPy's cumsum sums in the input's
 * dtype (small ints and bools widened to int64); with `out=` and no
 * `dtype=` it sums in the promotion of the input's and out's dtypes
 * instead, and `np.concatenate` promotes with the zero's dtype (`[0]` is
 * int64). So the fix spells the dtype it sums in whenever that would
 * change, and is safe only when that dtype is known: `dtype=` on the
 * cumsum, or the input made in the function by a NumPy call that spells
 * it. Without that, integer sums still come out the same (two's
 * complement sums wrap alike in any width), so the fix is unsafe with
 * that condition named. */
#include "al201.h"

#include "../analysis/python/dtype.h"
#include "../analysis/python/pad.h"
#include "../analysis/python/values.h"
#include "../base/util.h"

#include <stdlib.h>
#include <string.h>

/* The dtypes whose promotions the fix reasons about; int_ is int64 (on
 * Linux, and everywhere since NumPy 2). */
typedef enum { DT_UNKNOWN, DT_BOOL, DT_I8, DT_I16, DT_I32, DT_I64, DT_F32, DT_F64 } np_dtype;

static const char *const DT_NAMES[] = {NULL, "bool_", "int8", "int16", "int32", "int64", "float32",
                                       "float64"};

static bool is_int(np_dtype d) { return d >= DT_I8 && d <= DT_I64; }
static bool is_float(np_dtype d) { return d == DT_F32 || d == DT_F64; }

/* What np.cumsum sums in by default. */
static np_dtype default_accumulator(np_dtype a)
{
    return a == DT_UNKNOWN ? DT_UNKNOWN : is_float(a) ? a : DT_I64;
}

/* np.result_type of two arrays (no value-based casting: both are arrays
 * of rank 1). */
static np_dtype promote(np_dtype x, np_dtype y)
{
    if (x == DT_UNKNOWN || y == DT_UNKNOWN)
        return DT_UNKNOWN;
    if (x == y || y == DT_BOOL)
        return x;
    if (x == DT_BOOL)
        return y;
    if (is_int(x) == is_int(y))
        return x > y ? x : y;
    np_dtype i = is_int(x) ? x : y, f = is_int(x) ? y : x;
    return f == DT_F64 || i >= DT_I32 ? DT_F64 : DT_F32;
}

/* Whether a ufunc's `out=` takes values of dtype from into to (casting
 * "same_kind"): never floats into ints. */
static bool out_casts(np_dtype from, np_dtype to)
{
    return !(is_float(from) && (is_int(to) || to == DT_BOOL));
}

/* The lattice's member for what n spells (float16 and the unsigned ints
 * are outside it: unknown). */
static np_dtype read_dtype(const al_pymodule *m, TSNode n)
{
    al_dtype d = al_dtype_read(m, n, AL_DTYPE_NUMPY);
    switch (d.kind) {
    case AL_DTYPE_BOOL:
        return DT_BOOL;
    case AL_DTYPE_SIGNED:
        return d.bits == 8 ? DT_I8 : d.bits == 16 ? DT_I16 : d.bits == 32 ? DT_I32 : DT_I64;
    case AL_DTYPE_FLOAT:
        return d.bits == 32 ? DT_F32 : d.bits == 64 ? DT_F64 : DT_UNKNOWN;
    default:
        return DT_UNKNOWN;
    }
}

typedef struct {
    TSNode value;   /* the statement's value: the pad/concatenate call, or its .astype(T) */
    bool concat;    /* np.concatenate, else np.pad */
    np_dtype zero;  /* the concatenated zero's dtype */
    TSNode input;   /* a, a name or an attribute */
    TSNode dtype;   /* the cumsum's `dtype=`, null when absent */
    TSNode astype;  /* T of `.astype(T)`, null when absent */
    bool held;      /* the cumsum is bound by the statement just before */
    size_t held_start, held_end;
    al201_target target;
} np_prefix;

/* `np.cumsum(a)` or `np.cumsum(a, dtype=D)`, axis absent or None (the
 * input flattened: the result is 1-D). */
static bool read_cumsum(const al_pymodule *m, TSNode v, np_prefix *f)
{
    const al_pyfile *pf = m->pf;
    v = al_py_unparen(v);
    if (!al_node_is(v, "call") ||
        !al_pymodule_resolves_to(m, al_node_field(v, "function"), "numpy.cumsum"))
        return false;
    al_py_args a;
    al_py_args_read(v, &a);
    if (a.splat || a.npos < 1 || a.npos > 2)
        return false;
    TSNode axis = a.npos == 2 ? a.pos[1] : al_py_kwarg(pf, &a, "axis");
    if (!ts_node_is_null(axis) && !al_node_is(axis, "none"))
        return false;
    if (!al_py_kwargs_within(pf, &a, (const char *const[]){"axis", "dtype", NULL}))
        return false;
    TSNode in = al_py_unparen(a.pos[0]);
    if (!al_node_is(in, "identifier") && !al_node_is(in, "attribute"))
        return false;
    f->input = in;
    f->dtype = al_py_kwarg(pf, &a, "dtype");
    return true;
}

/* `(1, 0)`, `[1, 0]` or `((1, 0),)` (one pair for the one axis) */
static bool one_before(const al_pyfile *pf, TSNode n)
{
    TSNode e[1];
    if (al_py_elements(n, e, 1) == 1)
        n = e[0];
    return al_pad_width_one_before(pf, n);
}

/* np.pad(x, (1, 0)) in constant mode with value 0: *x. */
static bool read_pad(const al_pymodule *m, TSNode call, TSNode *x)
{
    const al_pyfile *pf = m->pf;
    al_py_args a;
    al_py_args_read(call, &a);
    if (a.splat || a.npos < 1 || a.npos > 3)
        return false;
    TSNode width = a.npos > 1 ? a.pos[1] : al_py_kwarg(pf, &a, "pad_width");
    TSNode mode = a.npos > 2 ? a.pos[2] : al_py_kwarg(pf, &a, "mode");
    TSNode fill = al_py_kwarg(pf, &a, "constant_values");
    if (!al_py_kwargs_within(pf, &a,
                             (const char *const[]){"pad_width", "mode", "constant_values", NULL}))
        return false;
    if (ts_node_is_null(width) || !one_before(pf, width) ||
        (!ts_node_is_null(mode) && !al_node_text_eq(pf, mode, "\"constant\"") &&
         !al_node_text_eq(pf, mode, "'constant'")) ||
        (!ts_node_is_null(fill) && !al_py_is_zero_literal(pf, fill)))
        return false;
    *x = a.pos[0];
    return true;
}

/* One zero: `[0]`, `(0,)`, `np.array([0])`, `np.zeros(1)`, either with
 * `dtype=`. Its dtype, DT_UNKNOWN when it is not one. */
static bool read_zero(const al_pymodule *m, TSNode z, np_dtype *dt)
{
    const al_pyfile *pf = m->pf;
    TSNode e[1];
    z = al_py_unparen(z);
    if ((al_node_is(z, "list") || al_node_is(z, "tuple")) && al_py_elements(z, e, 1) == 1 &&
        al_node_is(e[0], "integer") && al_py_is_zero_literal(pf, e[0])) {
        *dt = DT_I64;
        return true;
    }
    if (!al_node_is(z, "call"))
        return false;
    char *q = al_pymodule_resolve(m, al_node_field(z, "function"));
    bool array = q && !strcmp(q, "numpy.array"), zeros = q && !strcmp(q, "numpy.zeros");
    free(q);
    al_py_args a;
    al_py_args_read(z, &a);
    if ((!array && !zeros) || a.splat || a.npos != 1 || a.nkw > 1)
        return false;
    TSNode dtype = al_py_kwarg(pf, &a, "dtype");
    if (a.nkw == 1 && ts_node_is_null(dtype))
        return false;
    long one;
    if (array ? !(al_py_elements(a.pos[0], e, 1) == 1 && al_node_is(e[0], "integer") &&
                  al_py_is_zero_literal(pf, e[0]))
              : !(al_py_parse_long(pf, a.pos[0], &one) && one == 1))
        return false;
    *dt = !ts_node_is_null(dtype) ? read_dtype(m, dtype) : array ? DT_I64 : DT_F64;
    return true;
}

/* np.concatenate([zero, x]) along axis 0: *x and the zero's dtype. */
static bool read_concat(const al_pymodule *m, TSNode call, TSNode *x, np_dtype *zero)
{
    const al_pyfile *pf = m->pf;
    al_py_args a;
    al_py_args_read(call, &a);
    if (a.splat || a.npos < 1 || a.npos > 2)
        return false;
    TSNode axis = a.npos == 2 ? a.pos[1] : al_py_kwarg(pf, &a, "axis");
    /* not out=, dtype=, casting= */
    if (!al_py_kwargs_within(pf, &a, (const char *const[]){"axis", NULL}))
        return false;
    if (!ts_node_is_null(axis) && !al_node_text_eq(pf, axis, "0"))
        return false;
    TSNode items[2];
    if (al_py_elements(a.pos[0], items, 2) != 2 || !read_zero(m, items[0], zero))
        return false;
    *x = items[1];
    return true;
}

/* What the input is known to be where the cumsum reads it: an ndarray
 * (made in the function by a NumPy call that returns a new one), and its
 * dtype when that call spells `dtype=`. */
static const char *const ARRAY_MAKERS[] = {
    "array", "asarray", "ascontiguousarray", "zeros", "ones", "empty", "full", "arange",
    "zeros_like", "ones_like", "empty_like", "full_like", "fromiter", "frombuffer", "repeat",
    "concatenate", "cumsum", "diff", "minimum", "maximum", "clip", "where", NULL};

static bool input_facts(const al_pymodule *m, TSNode at, TSNode input, np_dtype *dt)
{
    *dt = DT_UNKNOWN;
    TSNode v = al_py_unparen(
        al_value_single_binding(m->pf, al_enclosing_function(at), at, input));
    if (!al_node_is(v, "call"))
        return false;
    char *q = al_pymodule_resolve(m, al_node_field(v, "function"));
    bool maker = false;
    for (int i = 0; q && !strncmp(q, "numpy.", 6) && ARRAY_MAKERS[i]; i++)
        maker = maker || !strcmp(q + 6, ARRAY_MAKERS[i]);
    free(q);
    if (!maker)
        return false;
    al_py_args a;
    al_py_args_read(v, &a);
    if (!a.splat)
        *dt = read_dtype(m, al_py_kwarg(m->pf, &a, "dtype"));
    return true;
}

/* `.astype(T)` around v: T, else a null node. */
static TSNode astype_of(const al_pyfile *pf, TSNode v, TSNode *outer)
{
    *outer = v;
    TSNode attr = ts_node_parent(v);
    TSNode call = ts_node_parent(attr);
    if (!al_node_is(attr, "attribute") || !al_node_is(call, "call") ||
        !al_py_node_eq(al_node_field(call, "function"), attr) ||
        !al_py_last_name_is(pf, attr, "astype"))
        return (TSNode){0};
    al_py_args a;
    al_py_args_read(call, &a);
    TSNode t = a.npos == 1 && a.nkw == 0 ? a.pos[0]
               : a.npos == 0 && a.nkw == 1 ? al_py_kwarg(pf, &a, "dtype")
                                           : (TSNode){0};
    if (!a.splat && !ts_node_is_null(t))
        *outer = call;
    return a.splat ? (TSNode){0} : t;
}

typedef struct {
    const char *why_not; /* no fix: why */
    char *unsafe;        /* an unsafe fix: the proofs missing */
    char *buffer_dtype;  /* text */
    char *sum_dtype;     /* the cumsum's `dtype=` in the fix, NULL: none */
    char *size;          /* the input's element count */
} np_fix_plan;

static void plan_free(np_fix_plan *p)
{
    free(p->buffer_dtype), free(p->sum_dtype), free(p->size), free(p->unsafe);
}

static char *spell(const char *np, np_dtype d)
{
    al_strbuf sb = {0};
    al_strbuf_printf(&sb, "%s.%s", np, DT_NAMES[d]);
    return al_strbuf_detach(&sb);
}

static void plan(const al_pymodule *m, const np_prefix *f, np_fix_plan *p)
{
    const al_pyfile *pf = m->pf;
    memset(p, 0, sizeof *p);
    const char *np = al_pymodule_alias_for(m, "numpy");
    char *input = al_node_text(pf, f->input);
    if (!f->target.name) {
        p->why_not = "needs `name = ...` (or `obj.attr = ...`) as a statement of its own";
    } else if (!np) {
        p->why_not = "numpy is not imported as a module (`import numpy as np`)";
    } else if (al201_names_variable(input, f->target.name)) {
        p->why_not = "the cumsum reads the name the array would be bound to";
    }
    np_dtype in_dt;
    bool ndarray = input_facts(m, f->value, f->input, &in_dt);
    np_dtype acc = !ts_node_is_null(f->dtype) ? read_dtype(m, f->dtype) : default_accumulator(in_dt);
    np_dtype T = ts_node_is_null(f->astype) ? DT_UNKNOWN : read_dtype(m, f->astype);
    /* What the original computes: sums in acc, then (concatenate) the
     * promotion with the zero, then .astype(T). */
    np_dtype joined = f->concat ? promote(f->zero, acc) : acc;
    np_dtype result = ts_node_is_null(f->astype) ? joined : T;
    if (!p->why_not) {
        bool spelled = !ts_node_is_null(f->dtype);
        if (!ts_node_is_null(f->astype) && T == DT_UNKNOWN)
            p->why_not = "the `.astype()` dtype is not one alloclint knows";
        else if (spelled && acc == DT_UNKNOWN && (f->concat || !ts_node_is_null(f->astype)))
            p->why_not = "the cumsum's `dtype=` is not one alloclint knows";
        else if (!spelled && acc == DT_UNKNOWN && !is_int(T))
            p->why_not = "the result's dtype follows the input's, which is not known here: "
                         "spell `dtype=` on the cumsum";
        else if (acc != DT_UNKNOWN && !out_casts(acc, result))
            p->why_not = "the cumsum sums floats and `out=` cannot cast them to ints";
        else if (acc != DT_UNKNOWN && !ts_node_is_null(f->astype) && f->concat &&
                 joined != acc && !(is_int(acc) && is_int(joined) && is_int(T)))
            p->why_not = "the concatenation promotes the sums before `.astype()`";
    }
    if (!p->why_not) {
        /* The buffer's dtype: T, the spelled cumsum dtype (np.pad keeps
         * it), or the promotion spelled out. */
        if (!ts_node_is_null(f->astype))
            p->buffer_dtype = al_node_text_compact(pf, f->astype);
        else if (!f->concat && !ts_node_is_null(f->dtype))
            p->buffer_dtype = al_node_text_compact(pf, f->dtype);
        else
            p->buffer_dtype = spell(np, result);
        /* The sums' dtype: with out= and no dtype= NumPy sums in the
         * promotion of the input's and out's dtypes. */
        if (!ts_node_is_null(f->dtype))
            p->sum_dtype = al_node_text_compact(pf, f->dtype);
        else if (acc != DT_UNKNOWN && promote(in_dt, result) != acc)
            p->sum_dtype = spell(np, acc);
        al_strbuf sb = {0};
        if (ndarray)
            al_strbuf_printf(&sb, "%s.size", input);
        else
            al_strbuf_printf(&sb, "%s.size(%s)", np, input);
        p->size = al_strbuf_detach(&sb);
        const char *missing[3];
        int n = 0;
        if (acc == DT_UNKNOWN && ts_node_is_null(f->dtype))
            missing[n++] = "the sums' dtype follows the input's, which is not known here: the "
                           "same result when it holds integers";
        if (!ndarray)
            missing[n++] = "the input is not known to be an array or a list (`np.size` of a "
                           "tensor is its method)";
        if (f->target.attribute)
            missing[n++] = "the target is an attribute, bound before the cumsum writes it; a "
                           "property setter would see the unset array";
        al_strbuf why = {0};
        for (int i = 0; i < n; i++)
            al_strbuf_printf(&why, "%s%s", i ? "; " : "", missing[i]);
        p->unsafe = n ? al_strbuf_detach(&why) : NULL;
    }
    free(input);
}

static void report(const al_pymodule *m, const np_prefix *f, TSNode at, al_findings *out)
{
    const al_pyfile *pf = m->pf;
    np_fix_plan p;
    plan(m, f, &p);
    al_strbuf msg = {0};
    if (f->concat)
        al_strbuf_puts(&msg, "a NumPy prefix sum with a leading zero, concatenated: write the "
                             "cumsum into an `n + 1` array with element 0 set (`out=`), "
                             "1.3-1.5x faster on the CPU");
    else
        al_strbuf_puts(&msg, "a NumPy prefix sum padded with a leading zero: write the cumsum "
                             "into an `n + 1` array with element 0 set (`out=`), 2.1-4.7x "
                             "faster than `np.pad` on the CPU");
    al_fix *fix = NULL;
    if (p.why_not) {
        al_strbuf_printf(&msg, " (no fix: %s)", p.why_not);
    } else {
        const char *np = al_pymodule_alias_for(m, "numpy");
        const char *t = f->target.name, *ind = f->target.indent;
        char *input = al_node_text(pf, f->input);
        al_strbuf r = {0};
        al_strbuf_printf(&r, "%s = %s.empty(%s + 1, dtype=%s)\n%s%s[0] = 0\n%s%s.cumsum(%s, ", t,
                         np, p.size, p.buffer_dtype, ind, t, ind, np, input);
        if (p.sum_dtype)
            al_strbuf_printf(&r, "dtype=%s, ", p.sum_dtype);
        al_strbuf_printf(&r, "out=%s[1:])", t);
        free(input);
        if (p.unsafe)
            al_strbuf_printf(&msg, " (unsafe: %s)", p.unsafe);
        fix = al_fix_new(p.unsafe ? AL_FIX_UNSAFE : AL_FIX_SAFE,
                         f->held ? "Write the cumsum into an n + 1 array (drop the separate "
                                   "cumsum)"
                                 : "Write the cumsum into an n + 1 array");
        if (f->held)
            al_fix_add_edit(fix, f->held_start, f->held_end, "");
        al_fix_add_edit(fix, f->target.start, f->target.end, r.data);
        al_strbuf_free(&r);
    }
    al_findings_add(out, "AL201", "cat-with-zeros", ts_node_start_byte(at), ts_node_end_byte(at),
                    al_strbuf_detach(&msg), fix);
    plan_free(&p);
}

void al201_numpy_call(const al_pymodule *m, TSNode call, al_findings *out)
{
    const al_pyfile *pf = m->pf;
    np_prefix f;
    memset(&f, 0, sizeof f);
    TSNode fn = al_node_field(call, "function");
    TSNode x;
    if (al_pymodule_resolves_to(m, fn, "numpy.pad")) {
        if (!read_pad(m, call, &x))
            return;
    } else if (al_pymodule_resolves_to(m, fn, "numpy.concatenate")) {
        if (!read_concat(m, call, &x, &f.zero))
            return;
        f.concat = true;
    } else {
        return;
    }
    f.astype = astype_of(pf, call, &f.value);
    al201_target_read(pf, f.value, &f.target);
    if (!read_cumsum(m, x, &f)) {
        TSNode held = al201_held_value(pf, f.value, x, f.target.name, &f.held_start, &f.held_end);
        f.held = !ts_node_is_null(held) && read_cumsum(m, held, &f);
        if (!f.held) {
            al201_target_free(&f.target);
            return;
        }
    }
    report(m, &f, call, out);
    al201_target_free(&f.target);
}
