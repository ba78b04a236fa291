/* AL201 cat-with-zeros. GPU evidence (rules/AL201.md): F.pad is never
 * faster than cat (0.82-0.99x); for a cumsum, writing it into an n + 1
 * buffer with element 0 set is 1.1-2.1x faster. The fix follows that. */
#include "rules.h"

#include "../util.h"

#include <stdlib.h>
#include <string.h>

/* torch.cat with a freshly made block of zeros. */
typedef struct {
    size_t start, end;
    bool zeros_first;
    char *extent; /* the zero block's size along the cat dim; NULL unknown */
    int rank;     /* -1 unknown */
    int dim;      /* normalised; -1 unknown */
    char *other;  /* x */
    bool dtype_same;
    char *dtype, *device; /* of the zero block, NULL when absent */
    /* x = torch.cumsum(a, 0, dtype=D) and `target = torch.cat(...)` alone */
    bool cumsum;
    char *cumsum_input, *cumsum_dtype;
    char *target, *indent;
    size_t stmt_start, stmt_end;
    const char *torch, *functional; /* local names; functional may be NULL */
} catzero;

/* F.pad's tuple for padding `extent` before or after dim of a rank-r
 * tensor: pairs run from the last dim backwards. */
static char *pad_tuple(const catzero *f)
{
    if (!f->extent || f->rank < 1 || f->dim < 0 || f->dim >= f->rank)
        return NULL;
    al_strbuf sb = {0};
    al_strbuf_putc(&sb, '(');
    for (int d = f->rank - 1; d >= f->dim; d--) {
        if (d != f->rank - 1)
            al_strbuf_puts(&sb, ", ");
        if (d == f->dim)
            al_strbuf_printf(&sb, f->zeros_first ? "%s, 0" : "0, %s", f->extent);
        else
            al_strbuf_puts(&sb, "0, 0");
    }
    al_strbuf_putc(&sb, ')');
    return al_strbuf_detach(&sb);
}

static void report(const catzero *f, al_findings *out)
{
    al_strbuf msg = {0};
    al_fix *fix = NULL;
    bool buffer_form = f->cumsum && f->zeros_first && f->extent &&
                       !strcmp(f->extent, "1") && f->rank == 1 && f->dim == 0 &&
                       f->target && f->cumsum_dtype && f->dtype_same;
    if (f->cumsum) {
        al_strbuf_printf(&msg, "a prefix sum with a leading zero, concatenated: write the "
                               "cumsum into an `n + 1` buffer with element 0 set "
                               "(`out=buf[1:]`), 1.1-2.1x faster on an H200");
        if (buffer_form) {
            const char *dev = f->device ? f->device : NULL;
            al_strbuf repl = {0};
            al_strbuf_printf(&repl, "%s = %s.empty(%s.shape[0] + 1, dtype=%s", f->target,
                             f->torch, f->cumsum_input, f->cumsum_dtype);
            if (dev)
                al_strbuf_printf(&repl, ", device=%s", dev);
            else
                al_strbuf_printf(&repl, ", device=%s.device", f->cumsum_input);
            al_strbuf_printf(&repl, ")\n%s%s[0] = 0\n%s%s.cumsum(%s, 0, dtype=%s, out=%s[1:])",
                             f->indent, f->target, f->indent, f->torch, f->cumsum_input,
                             f->cumsum_dtype, f->target);
            fix = al_fix_new(AL_FIX_SAFE, "Write the cumsum into an n + 1 buffer");
            al_fix_add_edit(fix, f->stmt_start, f->stmt_end, repl.data);
            al_strbuf_free(&repl);
        } else {
            al_strbuf_puts(&msg, " (no fix: needs `name = torch.cat(...)` on its own, a "
                                 "1-element zero block first, and the same `dtype=` spelled "
                                 "on both)");
        }
    } else {
        char *pad = pad_tuple(f);
        const char *F = f->functional ? f->functional : "torch.nn.functional";
        if (pad)
            al_strbuf_printf(&msg, "`torch.cat` with a freshly made zero block is "
                                   "`%s.pad(%s, %s)`; not faster on a GPU (0.82-0.99x), a "
                                   "readability change",
                             F, f->other, pad);
        else
            al_strbuf_printf(&msg, "`torch.cat` with a freshly made zero block could be "
                                   "`%s.pad(...)`; not faster on a GPU (0.82-0.99x)",
                             F);
        if (pad) {
            al_strbuf repl = {0};
            al_strbuf_printf(&repl, "%s.pad(%s, %s)", F, f->other, pad);
            /* cat promotes dtypes, pad does not; and pad is not faster. */
            fix = al_fix_new(AL_FIX_DISPLAY_ONLY, repl.data);
            al_fix_add_edit(fix, f->start, f->end, repl.data);
            al_strbuf_free(&repl);
            if (!f->dtype_same)
                al_strbuf_puts(&msg, "; `torch.cat` promotes dtypes and `F.pad` does not");
        }
        free(pad);
    }
    al_findings_add(out, "AL201", "cat-with-zeros", f->start, f->end, al_strbuf_detach(&msg),
                    fix);
}

/* The zero block of `torch.cat([a, b])`: items[zi] is torch.zeros(...),
 * `x.new_zeros(...)`, or either `.to(other)`. Returns zi or -1. */
static int zero_block(const al_pymodule *m, const TSNode items[2], TSNode *zcall, bool *to_other)
{
    const al_pyfile *pf = m->pf;
    for (int i = 0; i < 2; i++) {
        *to_other = false;
        TSNode z = al_py_unparen(items[i]);
        /* torch.zeros(...).to(x) */
        if (al_node_is(z, "call") && al_node_is(al_node_field(z, "function"), "attribute") &&
            al_py_last_name_is(pf, al_node_field(z, "function"), "to")) {
            al_py_args ta;
            al_py_args_read(z, &ta);
            TSNode obj = al_py_unparen(al_node_field(al_node_field(z, "function"), "object"));
            if (ta.npos == 1 && ta.nkw == 0 && al_node_is(obj, "call")) {
                *to_other = al_py_same_text(pf, ta.pos[0], items[1 - i]);
                z = obj;
            }
        }
        const char *f = al_torch_factory(pf, &m->imports, z, NULL);
        bool new_zeros = al_node_is(z, "call") &&
                         al_node_is(al_node_field(z, "function"), "attribute") &&
                         al_py_last_name_is(pf, al_node_field(z, "function"), "new_zeros");
        if ((f && !strcmp(f, "zeros")) || new_zeros) {
            *zcall = z;
            return i;
        }
    }
    *to_other = false;
    return -1;
}

/* x = torch.cumsum(a, 0, dtype=D): the buffer form of the fix. */
static void read_cumsum(const al_pymodule *m, TSNode other, catzero *f)
{
    const al_pyfile *pf = m->pf;
    TSNode o = al_py_unparen(other);
    if (!al_node_is(o, "call") || !al_pymodule_resolves_to(m, al_node_field(o, "function"),
                                                           "torch.cumsum"))
        return;
    al_py_args ca;
    al_py_args_read(o, &ca);
    TSNode cdim = ca.npos > 1 ? ca.pos[1] : al_py_kwarg(pf, &ca, "dim");
    TSNode cdt = al_py_kwarg(pf, &ca, "dtype");
    TSNode in = ca.npos > 0 ? al_py_unparen(ca.pos[0]) : al_py_kwarg(pf, &ca, "input");
    if (ts_node_is_null(cdim) || !(al_node_text_eq(pf, cdim, "0") || al_node_text_eq(pf, cdim, "-1")) ||
        ts_node_is_null(in) || !(al_node_is(in, "identifier") || al_node_is(in, "attribute")) ||
        ca.nkw > 2 || ca.splat)
        return;
    f->cumsum = true;
    f->cumsum_input = al_node_text(pf, in);
    if (!ts_node_is_null(cdt)) {
        f->cumsum_dtype = al_node_text_compact(pf, cdt);
        if (f->dtype && !strcmp(f->dtype, f->cumsum_dtype))
            f->dtype_same = true;
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

static void catzero_call(const al_pymodule *m, TSNode call, al_findings *out)
{
    const al_pyfile *pf = m->pf;
    char *q = al_pymodule_resolve(m, al_node_field(call, "function"));
    bool cat = q && (!strcmp(q, "torch.cat") || !strcmp(q, "torch.concat") ||
                     !strcmp(q, "torch.concatenate"));
    free(q);
    if (!cat)
        return;
    al_py_args a;
    al_py_args_read(call, &a);
    if (a.splat || a.npos < 1 || a.npos > 2)
        return;
    TSNode seq = al_py_unparen(a.pos[0]);
    if (!al_node_is(seq, "list") && !al_node_is(seq, "tuple"))
        return;
    TSNode items[3];
    int n = 0;
    uint32_t k = ts_node_named_child_count(seq);
    for (uint32_t i = 0; i < k; i++) {
        TSNode c = ts_node_named_child(seq, i);
        if (al_node_is(c, "comment"))
            continue;
        if (n == 3)
            return;
        items[n++] = c;
    }
    if (n != 2)
        return;
    TSNode zcall = {0};
    bool to_other = false;
    int zi = zero_block(m, items, &zcall, &to_other);
    if (zi < 0)
        return;
    al_py_args za;
    al_py_args_read(zcall, &za);
    catzero f;
    memset(&f, 0, sizeof f);
    f.start = ts_node_start_byte(call);
    f.end = ts_node_end_byte(call);
    f.zeros_first = zi == 0;
    TSNode other = items[1 - zi];
    f.other = al_node_text(pf, other);
    free(al_py_size_tuple(pf, &za, &f.rank));
    f.dim = cat_dim(pf, &a, f.rank);
    if (f.dim >= 0 && f.rank > 0 && f.dim < f.rank) {
        TSNode e = al_py_shape_elem(&za, f.dim);
        if (!ts_node_is_null(e))
            f.extent = al_node_text(pf, e);
    }
    TSNode dtype = al_py_kwarg(pf, &za, "dtype"), device = al_py_kwarg(pf, &za, "device");
    if (!ts_node_is_null(dtype))
        f.dtype = al_node_text_compact(pf, dtype);
    if (!ts_node_is_null(device))
        f.device = al_node_text(pf, device);
    char *other_c = al_node_text_compact(pf, other);
    al_strbuf want = {0};
    al_strbuf_printf(&want, "%s.dtype", other_c);
    f.dtype_same = to_other || (f.dtype && !strcmp(f.dtype, want.data)) ||
                   (al_py_last_name_is(pf, al_node_field(zcall, "function"), "new_zeros") &&
                    al_node_is(al_node_field(zcall, "function"), "attribute") &&
                    ts_node_is_null(dtype));
    al_strbuf_free(&want);
    free(other_c);
    read_cumsum(m, other, &f);
    TSNode parent = ts_node_parent(call);
    if (al_node_is(parent, "assignment") && al_node_is(al_node_field(parent, "left"), "identifier") &&
        ts_node_is_null(al_node_field(parent, "type")) &&
        al_node_is(ts_node_parent(parent), "expression_statement")) {
        TSNode stmt = ts_node_parent(parent);
        f.indent = al_py_indent_of(pf, stmt);
        if (f.indent) {
            f.target = al_node_text(pf, al_node_field(parent, "left"));
            f.stmt_start = ts_node_start_byte(stmt);
            f.stmt_end = ts_node_end_byte(stmt);
        }
    }
    f.torch = m->torch ? m->torch : "torch";
    f.functional = al_pymodule_alias_for(m, "torch.nn.functional");
    report(&f, out);
    free(f.extent), free(f.other), free(f.dtype), free(f.device);
    free(f.cumsum_input), free(f.cumsum_dtype), free(f.target), free(f.indent);
}

void al_rule_al201(const al_rule_input *in, al_findings *out)
{
    for (size_t i = 0; i < in->py->n_calls; i++)
        catzero_call(in->py, in->py->calls[i], out);
}
