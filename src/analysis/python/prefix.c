#include "prefix.h"

#include "pad.h"
#include "values.h"

#include "../../base/util.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static char *say(const char *fmt, ...)
{
    char buf[600];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    return al_xstrdup(buf);
}

/* The statement holding n: the child of a block or module above it. */
static TSNode statement_of(TSNode n)
{
    while (!ts_node_is_null(n)) {
        TSNode p = ts_node_parent(n);
        if (ts_node_is_null(p) || al_node_is(p, "block") || al_node_is(p, "module"))
            return n;
        n = p;
    }
    return n;
}

bool al_cumsum_read(const al_pymodule *m, TSNode call, al_cumsum *out)
{
    const al_pyfile *pf = m->pf;
    memset(out, 0, sizeof *out);
    call = al_py_unparen(call);
    if (!al_node_is(call, "call"))
        return false;
    TSNode fn = al_node_field(call, "function");
    bool function = al_pymodule_resolves_to(m, fn, "torch.cumsum");
    bool method = false;
    if (!function && al_node_is(fn, "attribute") && al_py_last_name_is(pf, fn, "cumsum")) {
        /* a tensor's method, not a module's function */
        char *owner = al_pymodule_resolve(m, al_node_field(fn, "object"));
        method = owner == NULL;
        free(owner);
    }
    if (!function && !method)
        return false;
    al_py_args a;
    al_py_args_read(call, &a);
    int shift = method ? 1 : 0;
    out->dim = a.npos > 1 - shift ? a.pos[1 - shift] : al_py_kwarg(pf, &a, "dim");
    out->dtype = al_py_kwarg(pf, &a, "dtype");
    out->input = method ? al_py_unparen(al_node_field(fn, "object"))
                        : (a.npos > 0 ? al_py_unparen(a.pos[0]) : al_py_kwarg(pf, &a, "input"));
    static const char *const kws[] = {"dim", "dtype", "input", NULL};
    return !ts_node_is_null(out->dim) &&
           (al_node_text_eq(pf, out->dim, "0") || al_node_text_eq(pf, out->dim, "-1")) &&
           !ts_node_is_null(out->input) && a.npos <= 2 - shift && !a.splat &&
           al_py_kwargs_within(pf, &a, kws);
}

/* Whether n lies within [from, to) of the source. */
static bool within(TSNode n, uint32_t from, uint32_t to)
{
    return ts_node_start_byte(n) >= from && ts_node_end_byte(n) <= to;
}

/* A use of the tensor `id` that neither writes it nor makes an alias
 * that could: `id`, `id[...]` (any depth) read by `.item()`, `.tolist()`,
 * `.shape`, `.numel()`, `.size()`, `.sum()`, `int(...)` or `len(...)`. */
static bool plain_read(const al_pyfile *pf, TSNode id)
{
    TSNode n = id;
    TSNode p = ts_node_parent(n);
    while (al_node_is(p, "subscript") && ts_node_eq(al_node_field(p, "value"), n)) {
        n = p;
        p = ts_node_parent(n);
    }
    if (al_node_is(p, "attribute") && ts_node_eq(al_node_field(p, "object"), n)) {
        static const char *const reads[] = {"item", "tolist", "shape", "numel", "size", "sum", "dim",
                                            "dtype", "device", NULL};
        for (size_t i = 0; reads[i]; i++)
            if (al_py_last_name_is(pf, p, reads[i]))
                return true;
        return false;
    }
    if (al_node_is(p, "argument_list")) {
        TSNode call = ts_node_parent(p);
        TSNode fn = al_node_field(call, "function");
        return al_node_text_eq(pf, fn, "int") || al_node_text_eq(pf, fn, "len");
    }
    return false;
}

/* Every use of the name `id_text` in func within [from, to), but the
 * nodes in skip (the proof's own statements and the call), is a plain
 * read; else *why names the first other use. */
typedef struct {
    const al_pyfile *pf;
    const char *id;
    uint32_t from, to;
    const TSNode *skip;
    size_t nskip;
    char *why; /* the first use that is not a plain read */
} use_scan;

static al_visit scan_use(TSNode n, void *arg)
{
    use_scan *u = arg;
    for (size_t i = 0; i < u->nskip; i++)
        if (!ts_node_is_null(u->skip[i]) && ts_node_eq(n, u->skip[i]))
            return AL_VISIT_OVER;
    if (ts_node_end_byte(n) <= u->from || ts_node_start_byte(n) >= u->to)
        return AL_VISIT_OVER;
    if (!al_node_is(n, "identifier") || !al_node_text_eq(u->pf, n, u->id) || !within(n, u->from, u->to))
        return AL_VISIT_INTO;
    if (al_py_ident_is_label(n) || plain_read(u->pf, n))
        return AL_VISIT_INTO;
    u->why = say("`%s` is used on line %zu before the launch, in a way that may change it or keep "
                 "a view of it", u->id, al_node_row(n));
    return AL_VISIT_STOP;
}

/* Every use of the name `id_text` in func within [from, to), but the
 * nodes in skip (the proof's own statements and the call), is a plain
 * read; else *why names the first other use. */
static bool unchanged(const al_pyfile *pf, TSNode func, const char *id_text, uint32_t from,
                      uint32_t to, const TSNode *skip, size_t nskip, char **why)
{
    use_scan u = {pf, id_text, from, to, skip, nskip, NULL};
    al_node_preorder(func, scan_use, &u);
    if (!u.why)
        return true;
    free(*why);
    *why = u.why;
    return false;
}

/* The end of the region a use could reach the call from: the call
 * itself, or the end of the outermost loop around it that does not hold
 * `from` (a later iteration runs what follows the call first). */
static uint32_t reach_end(TSNode call, uint32_t from)
{
    uint32_t end = ts_node_start_byte(call);
    for (TSNode n = ts_node_parent(call); !ts_node_is_null(n); n = ts_node_parent(n)) {
        if ((al_node_is(n, "for_statement") || al_node_is(n, "while_statement")) &&
            ts_node_start_byte(n) > from && ts_node_end_byte(n) > end)
            end = ts_node_end_byte(n);
        if (al_node_is(n, "function_definition"))
            break;
    }
    return end;
}

/* `name[1:] = <cumsum>` as a whole statement, in a block around the call
 * and between from and the call: the cumsum, or a null node. */
static bool tail_fill(const al_pymodule *m, TSNode call, const char *name, uint32_t from,
                      TSNode *stmt_out, al_cumsum *sum)
{
    const al_pyfile *pf = m->pf;
    TSNode cstmt = statement_of(call);
    for (TSNode cur = cstmt; !ts_node_is_null(cur);) {
        for (TSNode s = ts_node_prev_named_sibling(cur); !ts_node_is_null(s);
             s = ts_node_prev_named_sibling(s)) {
            if (ts_node_start_byte(s) < from)
                return false;
            if (!al_node_is(s, "expression_statement") || ts_node_named_child_count(s) != 1)
                continue;
            TSNode as = ts_node_named_child(s, 0);
            if (!al_node_is(as, "assignment"))
                continue;
            TSNode left = al_node_field(as, "left");
            TSNode sub[2];
            if (!al_node_is(left, "subscript") ||
                !al_node_text_eq(pf, al_node_field(left, "value"), name) ||
                al_node_field_children(left, "subscript", sub, 2) != 1 || !al_node_is(sub[0], "slice"))
                continue;
            TSNode parts[3];
            if (!al_py_slice_parts(sub[0], parts) || ts_node_is_null(parts[0]) ||
                !al_node_text_eq(pf, parts[0], "1") || !ts_node_is_null(parts[1]) ||
                !ts_node_is_null(parts[2]))
                continue;
            if (al_cumsum_read(m, al_node_field(as, "right"), sum)) {
                *stmt_out = s;
                return true;
            }
        }
        /* Up to the statement holding this block. */
        TSNode block = ts_node_parent(cur);
        if (ts_node_is_null(block) || !al_node_is(block, "block"))
            break;
        cur = statement_of(ts_node_parent(block));
        if (al_node_is(cur, "function_definition"))
            break;
    }
    return false;
}

/* Whether `name` is a parameter of func or bound in it. */
static bool is_local(const al_pyfile *pf, TSNode func, const char *name)
{
    al_strlist names = {0};
    al_py_param_names(pf, func, &names);
    al_py_bound_names(pf, al_node_field(func, "body"), &names);
    bool yes = false;
    for (size_t i = 0; i < names.n && !yes; i++)
        yes = !strcmp(names.items[i], name);
    al_strlist_free(&names);
    return yes;
}

/* The local variables named in e (attribute and keyword names aside),
 * at most max; caller frees each. */
static size_t locals_in(const al_pyfile *pf, TSNode func, TSNode e, char **out, size_t max, int depth)
{
    if (depth > 40)
        return 0;
    size_t n = 0;
    if (al_node_is(e, "identifier")) {
        if (al_py_ident_is_label(e))
            return 0;
        char *t = al_node_text(pf, e);
        if (max > 0 && is_local(pf, func, t)) {
            out[n++] = t;
            return n;
        }
        free(t);
        return 0;
    }
    uint32_t m = ts_node_named_child_count(e);
    for (uint32_t i = 0; i < m && n < max; i++)
        n += locals_in(pf, func, ts_node_named_child(e, i), out + n, max - n, depth + 1);
    return n;
}

/* Every local that e names keeps its value from `from` through the call. */
static bool locals_unchanged(const al_pyfile *pf, TSNode func, TSNode e, uint32_t from, TSNode call,
                             char **why)
{
    char *names[8];
    size_t n = locals_in(pf, func, e, names, 8, 0);
    bool ok = true;
    TSNode skip[1] = {call};
    for (size_t i = 0; i < n; i++) {
        if (ok)
            ok = unchanged(pf, func, names[i], from, reach_end(call, from), skip, 1, why);
        free(names[i]);
    }
    return ok;
}

/* Whether the text of n, read in func, is x's length plus one. */
static bool one_more_than(const al_pyfile *pf, TSNode func, TSNode n, TSNode x)
{
    char *nt = al_value_text(pf, func, n, n), *xt = al_value_text(pf, func, x, x);
    /* `lens + 1` and the like have lens's shape. */
    size_t xl = strlen(xt), digits = 0;
    while (digits < xl && isdigit((unsigned char)xt[xl - 1 - digits]))
        digits++;
    size_t core = digits && digits < xl && strchr("+-*", xt[xl - 1 - digits]) ? xl - 1 - digits : xl;
    /* Not x.numel() + 1: a (1, k) x has k elements and passes. */
    size_t nl = strlen(nt);
    bool yes = nl > 2 && !strcmp(nt + nl - 2, "+1");
    if (yes) {
        nt[nl - 2] = '\0';
        yes = al_value_is_first_dim_of(nt, xt, core);
    }
    free(nt);
    free(xt);
    return yes;
}

bool al_prefix_sum_at(const al_pymodule *m, TSNode func, TSNode call, TSNode name,
                      al_prefix_sum *out, char **why)
{
    const al_pyfile *pf = m->pf;
    memset(out, 0, sizeof *out);
    *why = NULL;
    name = al_py_unparen(name);
    if (!al_node_is(name, "identifier") || ts_node_is_null(func)) {
        char *t = al_node_text_compact(pf, name);
        *why = say("`%s` is not a local tensor of the caller whose prefix sum alloclint could read", t);
        free(t);
        return false;
    }
    char *id = al_node_text(pf, name);
    TSNode value = al_value_reaching_binding(pf, func, statement_of(call), name);
    if (ts_node_is_null(value)) {
        *why = say("alloclint could not find the one binding of `%s` that reaches the launch, to "
                   "prove it the exclusive prefix sum of the lengths", id);
        free(id);
        return false;
    }
    TSNode bind_stmt = statement_of(value);
    uint32_t from = ts_node_end_byte(bind_stmt);
    TSNode fill_stmt = {0}, x = {0}, rest;
    al_zero_block zb;
    al_cumsum sum;
    TSNode v = al_py_unparen(value);
    bool one = false;
    if (al_pymodule_calls_torch_cat(m, v)) {
        /* cat([zeros(1), cumsum(x)]): a cat with a 1-D block makes the
         * cumsum, and so x, one-dimensional. */
        if (al_zero_head_value(m, v, &rest, NULL) && al_cumsum_read(m, rest, &sum))
            x = sum.input;
    } else if (al_zero_block_read(m, v, (TSNode){0}, &zb) && zb.rank == 1 && !zb.literal &&
               !ts_node_is_null(out->entries = al_zero_block_extent(&zb, 0, &one)) &&
               tail_fill(m, call, id, from, &fill_stmt, &sum)) {
        /* p[1:] = cumsum(x, dim=0) takes a (1, n) x too, its leading 1
         * dropped, and then is no prefix sum: dim=0 needs p's n + 1
         * entries spelled from x's length, where torch's shape check
         * leaves only a 1-D x. dim=-1 sums along the one axis the
         * assignment keeps. */
        if (al_node_text_eq(pf, sum.dim, "-1") || one_more_than(pf, func, out->entries, sum.input))
            x = sum.input;
        else {
            char *st = al_node_text_compact(pf, sum.dim);
            *why = say("`%s[1:] = cumsum(..., dim=%s)` is a prefix sum only of a one-dimensional "
                       "tensor, and `%s`'s entries (line %zu) are not spelled from the lengths' "
                       "count to show it", id, st, id, al_node_row(value));
            free(st);
            free(id);
            return false;
        }
    }
    if (ts_node_is_null(x)) {
        *why = say("alloclint could not prove `%s` (line %zu) to be the exclusive prefix sum of the "
                   "segments' lengths (`torch.zeros(n + 1)` then `%s[1:] = torch.cumsum(lengths, "
                   "dim=0)`, or `torch.cat` of a one-element zero and that cumsum)",
                   id, al_node_row(value), id);
        out->entries = (TSNode){0};
        free(id);
        return false;
    }
    out->sums = x;
    TSNode done = ts_node_is_null(fill_stmt) ? bind_stmt : fill_stmt;
    out->done = done;
    out->row = al_node_row(done);
    /* Neither p nor x may change between the prefix sum and the launch. */
    uint32_t end = reach_end(call, from);
    TSNode skip[2] = {call, fill_stmt};
    bool ok = unchanged(pf, func, id, from, end, skip, 2, why);
    if (ok)
        ok = locals_unchanged(pf, func, x, ts_node_end_byte(done), call, why);
    free(id);
    return ok;
}

static bool size_sound(const al_pyfile *pf, TSNode func, TSNode stmt, TSNode size,
                       const char *p_name, TSNode sums, TSNode done, TSNode call, int depth)
{
    if (depth > 4)
        return false;
    char *names[8];
    size_t n = locals_in(pf, func, size, names, 8, 0);
    bool ok = true;
    for (size_t i = 0; i < n; i++) {
        char *why = NULL;
        if (!ok) {
        } else if (!strcmp(names[i], p_name)) {
            ok = ts_node_start_byte(stmt) >= ts_node_end_byte(done);
        } else if (al_py_count_ident(pf, sums, names[i]) > 0) {
            ok = unchanged(pf, func, names[i], ts_node_end_byte(stmt),
                           reach_end(call, ts_node_end_byte(stmt)), &call, 1, &why);
        } else {
            TSNode id = al_py_first_ident(pf, size, names[i]);
            TSNode v = ts_node_is_null(id) ? id : al_value_reaching_binding(pf, func, stmt, id);
            if (!ts_node_is_null(v))
                ok = size_sound(pf, func, statement_of(v), v, p_name, sums, done, call, depth + 1);
        }
        free(why);
        free(names[i]);
    }
    return ok;
}

bool al_prefix_size_sound(const al_pyfile *pf, TSNode func, TSNode alloc_stmt, TSNode size,
                          TSNode p, TSNode sums, TSNode done, TSNode call)
{
    char *pn = al_node_text(pf, p);
    bool ok = size_sound(pf, func, alloc_stmt, size, pn, sums, done, call, 0);
    free(pn);
    return ok;
}

/* t without the wrappers that keep a count's value: `int(...)`,
 * `...item()`; caller frees. */
static char *count_core(const char *t)
{
    char *s = al_xstrdup(t);
    for (;;) {
        size_t n = strlen(s);
        if (al_str_starts_with(s, "int(") && n > 5 && s[n - 1] == ')') {
            memmove(s, s + 4, n - 4);
            s[n - 5] = '\0';
        } else if (al_str_ends_with(s, ".item()")) {
            s[n - 7] = '\0';
        } else {
            return s;
        }
    }
}

bool al_prefix_size_is_sum(const al_pyfile *pf, TSNode func, TSNode call, TSNode alloc_stmt,
                           TSNode size, const char *size_text, TSNode sums, TSNode starts,
                           TSNode grid, TSNode done)
{
    if (!al_prefix_size_sound(pf, func, alloc_stmt, size, starts, sums, done, call))
        return false;
    char *core = count_core(size_text);
    char *x = al_value_text(pf, func, sums, sums);
    /* The starts by name and by value: a size read after `p[1:] = ...`
     * keeps the name, one read at the call may have its value. */
    char *ps[2] = {al_node_text(pf, starts), al_value_text(pf, func, call, starts)};
    char *g = al_value_text(pf, func, call, grid);
    char want[600];
    snprintf(want, sizeof want, "%s.sum()", x);
    bool met = !strcmp(core, want);
    snprintf(want, sizeof want, "torch.sum(%s)", x);
    met = met || !strcmp(core, want);
    for (int i = 0; i < 2 && !met; i++) {
        snprintf(want, sizeof want, "%s[-1]", ps[i]);
        met = !strcmp(core, want);
        snprintf(want, sizeof want, "%s[%s]", ps[i], g);
        met = met || !strcmp(core, want);
    }
    free(ps[0]);
    free(ps[1]);
    free(core);
    free(x);
    free(g);
    return met;
}
