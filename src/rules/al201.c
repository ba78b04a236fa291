/* AL201 cat-with-zeros. GPU evidence (rules/AL201.md): F.pad is not
 * faster than cat (0.81-1.15x); for a cumsum, writing it into an n + 1
 * buffer with element 0 zeroed is 1.2-1.6x faster than the cat and
 * 1.2-1.9x faster than F.pad, eager or replayed from a CUDA graph. The
 * fix follows that. */
#include "al201.h"
#include "rules.h"

#include "../analysis/python/dtype.h"
#include "../analysis/python/grad.h"
#include "../analysis/python/pad.h"
#include "../analysis/python/prefix.h"
#include "../analysis/python/values.h"
#include "../base/util.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

typedef enum { SIDE_BEFORE, SIDE_AFTER, SIDE_BOTH } pad_side;

/* torch.cat with freshly made zeros, or F.pad(cumsum, (1, 0)). */
typedef struct {
    size_t start, end;
    bool pad_call;   /* the finding is F.pad(torch.cumsum(...), (1, 0)) */
    pad_side side;
    char *extent[2]; /* the zero blocks' sizes along the cat dim; NULL unknown */
    int rank;        /* -1 unknown */
    int dim;         /* normalised; -1 unknown */
    char *other;     /* x */
    bool dtype_same; /* every zero block provably has x's dtype */
    char *dtype, *device; /* of the first zero block, NULL when absent */
    /* x = torch.cumsum(a, d, dtype=D) or a.cumsum(d, dtype=D) */
    bool cumsum;
    char *cumsum_input, *cumsum_dim, *cumsum_dtype;
    al_dtype cumsum_dt; /* what cumsum_dtype names */
    /* The dtype the fix sums in and makes the buffer with (the cumsum's,
     * or int64 assumed), and what that rests on when it is not proved;
     * NULL, NULL: no fix for the dtype. */
    char *sum_dtype, *assumption;
    /* x is a name bound by the statement just before, used nowhere else */
    size_t cumsum_stmt_start, cumsum_stmt_end;
    bool cumsum_stmt;
    /* `x = cumsum(...).to(D)`: summed in D only for an integer input */
    bool cumsum_cast;
    /* a zero block held in a name by the statement just before, read
     * nowhere else: that statement goes with the fix */
    char *zero_name;
    size_t zero_row, zero_stmt_start, zero_stmt_end;
    al201_target target; /* `target = <the call>` alone on its lines */
    const char *torch, *functional; /* local names; functional may be NULL */
} catzero;

static void catzero_free(catzero *f)
{
    free(f->extent[0]), free(f->extent[1]), free(f->other), free(f->dtype), free(f->device);
    free(f->cumsum_input), free(f->cumsum_dim), free(f->cumsum_dtype);
    free(f->sum_dtype), free(f->assumption), free(f->zero_name);
    al201_target_free(&f->target);
}

/* F.pad's tuple for the zero blocks along dim of a rank-r tensor: pairs
 * run from the last dim backwards. */
static char *pad_tuple(const catzero *f)
{
    if (f->rank < 1 || f->dim < 0 || f->dim >= f->rank)
        return NULL;
    const char *before = f->side == SIDE_AFTER ? "0" : f->extent[0];
    const char *after = f->side == SIDE_BEFORE ? "0" : f->extent[f->side == SIDE_BOTH];
    if (!before || !after)
        return NULL;
    al_strbuf sb = {0};
    al_strbuf_putc(&sb, '(');
    for (int d = f->rank - 1; d >= f->dim; d--) {
        if (d != f->rank - 1)
            al_strbuf_puts(&sb, ", ");
        if (d == f->dim)
            al_strbuf_printf(&sb, "%s, %s", before, after);
        else
            al_strbuf_puts(&sb, "0, 0");
    }
    al_strbuf_putc(&sb, ')');
    return al_strbuf_detach(&sb);
}

/* The buffer form: the cumsum written into an n + 1 buffer, element 0
 * set. The cat form is 1-D (its zero block is); F.pad pads the last dim
 * of any rank, so its form keeps the leading dims. */
static char *buffer_form(const catzero *f)
{
    const char *in = f->cumsum_input, *t = f->target.name;
    al_strbuf r = {0};
    if (f->pad_call)
        al_strbuf_printf(&r, "%s = %s.empty(*%s.shape[:-1], %s.shape[-1] + 1, dtype=%s", t,
                         f->torch, in, in, f->sum_dtype);
    else
        al_strbuf_printf(&r, "%s = %s.empty(%s.shape[0] + 1, dtype=%s", t, f->torch, in,
                         f->sum_dtype);
    if (f->device)
        al_strbuf_printf(&r, ", device=%s)\n", f->device);
    else
        al_strbuf_printf(&r, ", device=%s.device)\n", in);
    /* `buf[0] = 0` would copy a host scalar: 15 us eager, and an error
     * under CUDA-graph capture. zero_() on a slice is a device fill. */
    const char *head = f->pad_call ? "..., :1" : ":1", *tail = f->pad_call ? "..., 1:" : "1:";
    al_strbuf_printf(&r, "%s%s[%s].zero_()\n%s%s.cumsum(%s, %s, dtype=%s, out=%s[%s])", f->target.indent,
                     t, head, f->target.indent, f->torch, in, f->cumsum_dim, f->sum_dtype, t, tail);
    return al_strbuf_detach(&r);
}

static const char *why_no_buffer_fix(const catzero *f)
{
    if (!f->target.name)
        return "needs `name = ...` (or `obj.attr = ...`) as a statement of its own";
    /* The buffer is bound first and the cumsum then reads the name: it
     * would read the new, empty buffer. */
    if (al201_names_variable(f->cumsum_input, f->target.name) ||
        (f->device && al201_names_variable(f->device, f->target.name)))
        return "the cumsum reads the name the buffer would be bound to";
    if (!f->pad_call && (f->side != SIDE_BEFORE || !f->extent[0] || strcmp(f->extent[0], "1") ||
                         f->rank != 1 || f->dim != 0))
        return "needs a 1-element zero block first";
    if (!f->sum_dtype && !f->cumsum_dtype)
        return f->pad_call ? "the cumsum needs `dtype=`: without it its dtype is the input's "
                             "(int64 for any integer input), not known here"
                           : "the cumsum needs `dtype=`: without it its dtype is the input's "
                             "(int64 for any integer input), which `torch.cat` promotes with "
                             "the zeros'";
    if (!f->sum_dtype)
        return "needs the same `dtype=` spelled on the zeros and the cumsum";
    return NULL;
}

static void report(const catzero *f, al_findings *out)
{
    al_strbuf msg = {0};
    al_fix *fix = NULL;
    const char *F = f->functional ? f->functional : "torch.nn.functional";
    if (f->cumsum) {
        if (f->pad_call)
            al_strbuf_puts(&msg, "a prefix sum padded with a leading zero: write the cumsum "
                                 "into an `n + 1` buffer with element 0 zeroed (`out=`), "
                                 "1.2-1.9x faster than `F.pad` on an H200");
        else
            al_strbuf_puts(&msg, "a prefix sum with a leading zero, concatenated: write the "
                                 "cumsum into an `n + 1` buffer with element 0 zeroed "
                                 "(`out=buf[1:]`), 1.2-1.6x faster on an H200");
        const char *why = why_no_buffer_fix(f);
        if (!why) {
            char *repl = buffer_form(f);
            /* An attribute is bound before its elements are written: a
             * property setter would be handed the empty buffer. */
            if (f->assumption && f->target.attribute)
                al_strbuf_printf(&msg, " (unsafe: %s; and `%s` is an attribute, bound before "
                                       "the cumsum writes it)",
                                 f->assumption, f->target.name);
            else if (f->assumption)
                al_strbuf_printf(&msg, " (unsafe: %s)", f->assumption);
            else if (f->target.attribute)
                al_strbuf_printf(&msg, " (unsafe: `%s` is an attribute, bound before the "
                                       "cumsum writes it; a property setter would see the "
                                       "empty buffer)",
                                 f->target.name);
            fix = al_fix_new(f->target.attribute || f->assumption ? AL_FIX_UNSAFE : AL_FIX_SAFE,
                             f->cumsum_stmt ? "Write the cumsum into an n + 1 "
                                                           "buffer (drop the separate cumsum)"
                                                         : "Write the cumsum into an n + 1 "
                                                           "buffer");
            if (f->cumsum_stmt)
                al_fix_add_edit(fix, f->cumsum_stmt_start, f->cumsum_stmt_end, "");
            if (f->zero_name)
                al_fix_add_edit(fix, f->zero_stmt_start, f->zero_stmt_end, "");
            al_fix_add_edit(fix, f->target.start, f->target.end, repl);
            free(repl);
        } else {
            al_strbuf_printf(&msg, " (no fix: %s)", why);
        }
    } else {
        char *pad = pad_tuple(f);
        const char *speed = f->side == SIDE_BOTH
                                ? "not faster on a GPU for all its saved allocations "
                                  "(0.81-1.15x), a readability change"
                                : "not faster on a GPU (0.86-0.98x), a readability change";
        if (pad)
            al_strbuf_printf(&msg, "`torch.cat` with freshly made zeros is `%s.pad(%s, %s)`; "
                                   "%s",
                             F, f->other, pad, speed);
        else
            al_strbuf_printf(&msg, "`torch.cat` with freshly made zeros could be "
                                   "`%s.pad(...)` (the zeros' size along the cat dim is not "
                                   "known); %s",
                             F, speed);
        if (pad) {
            al_strbuf repl = {0};
            al_strbuf_printf(&repl, "%s.pad(%s, %s)", F, f->other, pad);
            /* cat promotes dtypes, pad does not. */
            fix = al_fix_new(AL_FIX_DISPLAY_ONLY, repl.data);
            if (f->zero_name)
                al_fix_add_edit(fix, f->zero_stmt_start, f->zero_stmt_end, "");
            al_fix_add_edit(fix, f->start, f->end, repl.data);
            al_strbuf_free(&repl);
            if (!f->dtype_same)
                al_strbuf_puts(&msg, "; `torch.cat` promotes dtypes and `F.pad` does not");
        }
        free(pad);
    }
    if (f->zero_name)
        al_strbuf_printf(&msg, " (the zeros are `%s`, made on line %zu and read only here%s)",
                         f->zero_name, f->zero_row, fix ? ": the fix drops that line" : "");
    al_findings_add(out, "AL201", "cat-with-zeros", f->start, f->end, al_strbuf_detach(&msg),
                    fix);
}

/* A cumsum (prefix.h) of a name or an attribute, d 0 or -1 (0-D or
 * 1-D: the same). */
static bool read_cumsum_call(const al_pymodule *m, TSNode o, catzero *f)
{
    const al_pyfile *pf = m->pf;
    al_cumsum c;
    /* `cumsum(x, 0).to(torch.int32)`: an integer cast of a sum without
     * `dtype=`, which summing in that dtype matches (mod 2^bits) when x
     * holds integers; not for floats (the cast truncates the sums). */
    TSNode cast = {0};
    o = al_py_unparen(o);
    TSNode fn = al_node_is(o, "call") ? al_node_field(o, "function") : (TSNode){0};
    if (!ts_node_is_null(fn) && al_node_is(fn, "attribute") && al_py_last_name_is(pf, fn, "to")) {
        al_py_args ta;
        al_py_args_read(o, &ta);
        TSNode d = ta.npos == 1 && ta.nkw == 0 ? ta.pos[0]
                   : ta.npos == 0 && ta.nkw == 1 ? al_py_kwarg(pf, &ta, "dtype")
                                                 : (TSNode){0};
        al_dtype dt = al_dtype_read(m, d, AL_DTYPE_TORCH);
        if (ts_node_is_null(d) || ta.splat || dt.kind != AL_DTYPE_SIGNED)
            return false;
        cast = d;
        o = al_py_unparen(al_node_field(fn, "object"));
    }
    if (!al_cumsum_read(m, o, &c) ||
        !(al_node_is(c.input, "identifier") || al_node_is(c.input, "attribute")) ||
        (!ts_node_is_null(cast) && !ts_node_is_null(c.dtype)))
        return false;
    f->cumsum = true;
    f->cumsum_input = al_node_text(pf, c.input);
    f->cumsum_dim = al_node_text(pf, c.dim);
    if (!ts_node_is_null(cast))
        c.dtype = cast;
    f->cumsum_cast = !ts_node_is_null(cast);
    if (!ts_node_is_null(c.dtype))
        f->cumsum_dtype = al_node_text_compact(pf, c.dtype);
    f->cumsum_dt = al_dtype_read(m, c.dtype, AL_DTYPE_TORCH);
    return true;
}

/* x is a cumsum, or a name the statement just before binds to one and
 * nothing else reads: that statement goes with the fix. */
static void read_cumsum(const al_pymodule *m, TSNode call, TSNode other, catzero *f)
{
    other = al_py_unparen(other);
    if (read_cumsum_call(m, other, f))
        return;
    size_t ds, de;
    TSNode held = al201_held_value(m->pf, call, other, f->target.name, &ds, &de);
    catzero probe;
    memset(&probe, 0, sizeof probe);
    if (!ts_node_is_null(held) && read_cumsum_call(m, held, &probe)) {
        f->cumsum = true;
        f->cumsum_input = probe.cumsum_input;
        f->cumsum_dim = probe.cumsum_dim;
        f->cumsum_dtype = probe.cumsum_dtype;
        f->cumsum_dt = probe.cumsum_dt;
        f->cumsum_cast = probe.cumsum_cast;
        f->cumsum_stmt = true;
        f->cumsum_stmt_start = ds;
        f->cumsum_stmt_end = de;
    } else {
        catzero_free(&probe);
    }
}

static int cat_dim(const al_pyfile *pf, const al_py_args *a, int rank)
{
    TSNode dimn = a->npos == 2 ? a->pos[1] : al_py_kwarg(pf, a, "dim");
    if (ts_node_is_null(dimn))
        return 0;
    char *d = al_node_text_compact(pf, dimn);
    char *end;
    long v = strtol(d, &end, 10);
    int dim;
    if (*end || !*d)
        dim = -1;
    else if (v < 0)
        dim = rank > 0 ? (int)(v + rank) : -1;
    else
        dim = (int)v;
    free(d);
    return dim;
}

/* The zero block's dtype is x's: `.to(x)`, `x.new_zeros` without dtype=,
 * `dtype=x.dtype`, or the cumsum's spelled dtype. */
static bool block_dtype_same(const al_pyfile *pf, const al_zero_block *z, const catzero *f)
{
    if (z->to_other || (z->like_other && ts_node_is_null(z->dtype)))
        return true;
    if (ts_node_is_null(z->dtype))
        return false;
    char *dt = al_node_text_compact(pf, z->dtype);
    al_strbuf want = {0};
    al_strbuf_printf(&want, "%s.dtype", f->other);
    bool same = !strcmp(dt, want.data) || (f->cumsum_dtype && !strcmp(dt, f->cumsum_dtype));
    al_strbuf_free(&want);
    free(dt);
    return same;
}

/* Which dtype the fix sums in. torch.cat promotes the zero block's dtype
 * (zero) with the cumsum's; the cumsum of any integer tensor without
 * `dtype=` is int64. Proved: the cumsum's spelled dtype when the zero
 * block's is the same or a narrower integer one. Assumed (unsafe): int64
 * for a cumsum without `dtype=` beside an integer zero block, which the
 * input's being integer makes true; the spelled dtype beside zeros whose
 * dtype is not known. F.pad keeps the cumsum's dtype. */
static void settle_sum_dtype(catzero *f, al_dtype zero)
{
    const char *d = f->cumsum_dtype;
    if (f->pad_call || (d && f->dtype_same)) {
        if (d)
            f->sum_dtype = al_xstrdup(d);
        return;
    }
    al_dtype D = f->cumsum_dt;
    bool narrower = zero.kind == AL_DTYPE_BOOL ||
                    (zero.kind == AL_DTYPE_SIGNED && zero.bits <= D.bits) ||
                    (zero.kind == AL_DTYPE_UNSIGNED && zero.bits < D.bits);
    al_strbuf why = {0};
    if (d && D.kind == AL_DTYPE_SIGNED && narrower) {
        f->sum_dtype = al_xstrdup(d); /* torch.cat promotes to d */
    } else if (d && D.kind == AL_DTYPE_SIGNED && zero.kind == AL_DTYPE_UNKNOWN && f->dtype) {
        f->sum_dtype = al_xstrdup(d);
        al_strbuf_printf(&why, "the zeros' dtype `%s` is not known to be an integer dtype no "
                               "wider than `%s`, which `torch.cat` would promote to",
                         f->dtype, d);
        f->assumption = al_strbuf_detach(&why);
    } else if (!d && (zero.kind == AL_DTYPE_BOOL || al_dtype_is_integer(zero))) {
        al_strbuf_printf(&why, "%s.int64", f->torch);
        f->sum_dtype = al_strbuf_detach(&why);
        al_strbuf_printf(&why, "`%s`'s dtype is not known here: the same result when it holds "
                               "integers (their cumsum is int64), not when it holds floats",
                         f->cumsum_input);
        f->assumption = al_strbuf_detach(&why);
    }
    al_strbuf_free(&why);
}

/* `cumsum(x, 0).to(D)` summed in D: the same only for integer x. */
static void settle_cast(catzero *f)
{
    if (!f->cumsum_cast || !f->sum_dtype)
        return;
    al_strbuf why = {0};
    al_strbuf_printf(&why, "%s%s`%s` holds integers: summed in `%s` they are the sums cast to it "
                           "(mod 2^bits); the cast of float sums truncates them instead",
                     f->assumption ? f->assumption : "", f->assumption ? "; " : "", f->cumsum_input,
                     f->sum_dtype);
    free(f->assumption);
    f->assumption = al_strbuf_detach(&why);
}

/* The buffer form sums with `out=`, which raises when the input requires
 * grad; F.pad and cat do not. An integer sum has no gradient either way
 * (torch refuses it: the original raises too), so only a floating or
 * unknown sum dtype needs autograd off around the statement. */
static void settle_autograd(const al_rule_input *in, TSNode call, catzero *f)
{
    if (!f->cumsum || !f->sum_dtype || in->inference)
        return;
    bool integer = f->cumsum_dtype && !strcmp(f->sum_dtype, f->cumsum_dtype)
                       ? al_dtype_is_integer(f->cumsum_dt) || f->cumsum_dt.kind == AL_DTYPE_BOOL
                       : !f->cumsum_dtype; /* the int64 sum of integers, assumed above */
    if (integer)
        return;
    TSNode func = al_enclosing_function(call);
    al_grad g = ts_node_is_null(func) ? (al_grad){.off = false} : al_grad_at(in->py, func, call);
    if (g.off && !g.assumed[0])
        return;
    al_strbuf why = {0};
    if (f->assumption)
        al_strbuf_printf(&why, "%s; ", f->assumption);
    if (g.off)
        al_strbuf_printf(&why, "assumes autograd is off (the cumsum with `out=` raises when `%s` "
                               "requires grad; a `%s` sum has a gradient): %s",
                         f->cumsum_input, f->sum_dtype, g.assumed);
    else if (g.spoiler)
        al_strbuf_printf(&why, "autograd may be on (the cumsum with `out=` raises when `%s` "
                               "requires grad; a `%s` sum has a gradient): %s on line %zu may "
                               "turn it back on",
                         f->cumsum_input, f->sum_dtype, g.spoiler, g.spoiler_row);
    else
        al_strbuf_printf(&why, "autograd may be on (the cumsum with `out=` raises when `%s` "
                               "requires grad; a `%s` sum has a gradient): no "
                               "`torch.inference_mode()` or `no_grad()` around it, no "
                               "`inference = true`",
                         f->cumsum_input, f->sum_dtype);
    free(f->assumption);
    f->assumption = al_strbuf_detach(&why);
}

/* The zero block's dtype: spelled; int64 for torch.tensor([0]); the
 * default (float) for zeros without `dtype=`. */
static al_dtype zero_dtype(const al_pymodule *m, const al_zero_block *z)
{
    if (!ts_node_is_null(z->dtype))
        return al_dtype_read(m, z->dtype, AL_DTYPE_TORCH);
    if (z->literal && !z->like_other)
        return (al_dtype){AL_DTYPE_SIGNED, 64};
    return (al_dtype){z->like_other || z->to_other ? AL_DTYPE_UNKNOWN : AL_DTYPE_FLOAT, 0};
}

/* For explain: the end element of a `torch.cat` list that is a name bound
 * to a zero block by a statement before the cat's, in its block, which the
 * rule did not take (not the statement just before, or read again). */
static void decline_named_zeros(const al_rule_input *in, TSNode call, const TSNode *items, int n)
{
    const al_pymodule *m = in->py;
    const al_pyfile *pf = m->pf;
    TSNode stmt = call;
    while (!ts_node_is_null(ts_node_parent(stmt)) && !al_node_is(ts_node_parent(stmt), "block") &&
           !al_node_is(ts_node_parent(stmt), "module"))
        stmt = ts_node_parent(stmt);
    for (int end = 0; end < 2; end++) {
        TSNode e = al_py_unparen(items[end ? n - 1 : 0]);
        if (!al_node_is(e, "identifier"))
            continue;
        for (TSNode p = al201_previous_statement(stmt); !ts_node_is_null(p); p = al201_previous_statement(p)) {
            TSNode asg = al_py_name_assignment(p);
            if (ts_node_is_null(asg) || !al_py_same_text(pf, al_node_field(asg, "left"), e))
                continue;
            al_zero_block z;
            if (al_zero_block_read(m, al_node_field(asg, "right"), items[end ? 0 : n - 1], &z)) {
                char *name = al_node_text(pf, e);
                al_rule_decline(in, "AL201", "cat-with-zeros", ts_node_start_byte(call),
                                ts_node_end_byte(call),
                                "`%s` is a zero block made on line %zu and then concatenated; "
                                "AL201 reads a named zero block only when the statement just "
                                "before the `torch.cat` makes it and nothing else reads it",
                                name, al_node_row(p));
                free(name);
                return;
            }
            break; /* the nearest binding decides */
        }
    }
}

static void catzero_call(const al_rule_input *in, TSNode call, al_findings *out)
{
    const al_pymodule *m = in->py;
    const al_pyfile *pf = m->pf;
    catzero f;
    memset(&f, 0, sizeof f);
    f.start = ts_node_start_byte(call);
    f.end = ts_node_end_byte(call);
    f.torch = m->torch ? m->torch : "torch";
    f.functional = al_pymodule_alias_for(m, "torch.nn.functional");
    TSNode padded;
    if (al_pad_one_before(m, call, &padded)) {
        /* Only the cumsum form: F.pad of anything else is already the
         * spelling this rule would suggest. */
        f.pad_call = true;
        al201_target_read(pf, call, &f.target);
        read_cumsum(m, call, padded, &f);
        if (f.cumsum) {
            settle_sum_dtype(&f, (al_dtype){AL_DTYPE_UNKNOWN, 0});
            settle_cast(&f);
            settle_autograd(in, call, &f);
            f.other = al_node_text(pf, padded);
            report(&f, out);
        }
        catzero_free(&f);
        return;
    }
    bool cat = al_pymodule_calls_torch_cat(m, call);
    al_py_args a;
    al_py_args_read(call, &a);
    /* `torch.cat(tensors=[...], dim=0)` too */
    TSNode list = a.npos >= 1 ? a.pos[0] : al_py_kwarg(pf, &a, "tensors");
    /* `out=`: the result goes where F.pad cannot put it. */
    if (!cat || a.splat || ts_node_is_null(list) || a.npos > 2 ||
        !ts_node_is_null(al_py_kwarg(pf, &a, "out")))
        return;
    TSNode items[3];
    int n = al_py_elements(list, items, 3);
    al201_target_read(pf, call, &f.target);
    /* `padding = torch.zeros(...)` just before, read only by the cat: the
     * block it holds. */
    for (int end = 0; end < 2 && (n == 2 || n == 3) && !f.zero_name; end++) {
        int k = end ? n - 1 : 0;
        size_t zs, ze;
        TSNode held = al201_held_value(pf, call, items[k], f.target.name, &zs, &ze);
        al_zero_block probe;
        if (ts_node_is_null(held) || !al_zero_block_read(m, held, items[n - 1 - k], &probe))
            continue;
        f.zero_name = al_node_text(pf, items[k]);
        f.zero_row = al_node_row(held);
        f.zero_stmt_start = zs;
        f.zero_stmt_end = ze;
        items[k] = held;
    }
    /* [z, x], [x, z] or [z, x, z] */
    al_zero_block z[2];
    int nz = 0;
    TSNode other;
    if (n == 3) {
        other = items[1];
        al_zero_block middle;
        if (!al_zero_block_read(m, items[0], other, &z[0]) ||
            !al_zero_block_read(m, items[2], other, &z[1]) ||
            al_zero_block_read(m, items[1], (TSNode){0}, &middle)) {
            catzero_free(&f);
            return;
        }
        nz = 2;
        f.side = SIDE_BOTH;
    } else if (n == 2) {
        if (al_zero_block_read(m, items[0], items[1], &z[0])) {
            other = items[1];
            f.side = SIDE_BEFORE;
        } else if (al_zero_block_read(m, items[1], items[0], &z[0])) {
            other = items[0];
            f.side = SIDE_AFTER;
        } else {
            if (in->declined)
                decline_named_zeros(in, call, items, n);
            catzero_free(&f);
            return;
        }
        nz = 1;
    } else {
        catzero_free(&f);
        return;
    }
    f.other = al_node_text_compact(pf, other);
    f.rank = z[0].rank;
    if (nz == 2 && z[1].rank != f.rank)
        f.rank = -1;
    f.dim = cat_dim(pf, &a, f.rank);
    for (int i = 0; i < nz; i++) {
        bool one;
        TSNode e = al_zero_block_extent(&z[i], f.dim, &one);
        f.extent[i] = one ? al_xstrdup("1") : ts_node_is_null(e) ? NULL : al_node_text(pf, e);
    }
    if (!ts_node_is_null(z[0].dtype))
        f.dtype = al_node_text_compact(pf, z[0].dtype);
    if (!ts_node_is_null(z[0].device))
        f.device = al_node_text(pf, z[0].device);
    read_cumsum(m, call, other, &f);
    f.dtype_same = true;
    for (int i = 0; i < nz; i++)
        f.dtype_same = f.dtype_same && block_dtype_same(pf, &z[i], &f);
    if (f.cumsum && f.side != SIDE_BEFORE)
        f.cumsum = false; /* a trailing zero after a prefix sum: plain padding */
    if (f.cumsum)
        settle_sum_dtype(&f, zero_dtype(m, &z[0]));
    settle_cast(&f);
    settle_autograd(in, call, &f);
    if (!f.cumsum) {
        free(f.other);
        f.other = al_node_text(pf, other);
    }
    report(&f, out);
    catzero_free(&f);
}

void al_rule_al201(const al_rule_input *in, al_findings *out)
{
    for (size_t i = 0; i < in->py->n_calls; i++) {
        catzero_call(in, in->py->calls[i], out);
        al201_numpy_call(in->py, in->py->calls[i], out);
    }
}
