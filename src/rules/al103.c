/* AL103 redundant-fill: a fill that the allocation or another fill makes
 * redundant. GPU evidence (rules/AL103.md): dropping a redundant fill is
 * about 2x; empty().fill_(v) -> full(v) is the same kernel (1.00x). */
#include "rules.h"

#include "../base/util.h"

#include <stdlib.h>
#include <string.h>

typedef enum {
    REFILL_CHAINED,      /* torch.zeros(...).fill_(v) */
    REFILL_NEXT,         /* x = torch.zeros(...) then x.fill_(v) */
    REFILL_ALREADY_ZERO, /* x.zero_() on a buffer still all zeros */
} refill_kind;

typedef struct {
    refill_kind kind;
    size_t start, end;   /* what is reported */
    const char *factory; /* "zeros", "empty", "ones_like", ... (static) */
    bool like;           /* a *_like factory */
    bool fill_is_zero;   /* fill_(0) / zero_() */
    bool fill_is_one;    /* fill_(1) */
    size_t name_start, name_end; /* the factory's callee, e.g. `torch.empty` */
    char *size;  /* size as a tuple text, or the *_like input; NULL unknown */
    char *value; /* fill value text, float-normalised when needed; NULL unknown */
    char *kwargs; /* ", dtype=..., device=..." of the factory, or "" */
    char *written; /* the fill as the code spells it: `zero_()`, `fill_(0.0)` */
    size_t call_start, call_end; /* the factory call (or whole chain) to replace */
    size_t alloc_end;            /* CHAINED: where the factory call ends */
    size_t del_start, del_end;   /* a statement line to delete, or equal */
    size_t row_fill;
    bool shares_line; /* ALREADY_ZERO: other statements on its line, no fix */
} refill;

static const char *full_of(const char *factory)
{
    return strstr(factory, "_like") ? "full_like" : "full";
}

static void report(const char *torch, refill *f, al_findings *out)
{
    bool zeros = strstr(f->factory, "zeros") != NULL;
    bool empty = strstr(f->factory, "empty") != NULL;
    al_strbuf msg = {0};
    al_fix *fix = NULL;
    /* The redundant fill call goes; a rewrite as one factory removes the
     * factory's fill when it filled, nothing when it was empty. */
    al_removes removes = AL_REMOVES_FILL_CALL;
    if (f->kind == REFILL_ALREADY_ZERO || (zeros && f->fill_is_zero)) {
        al_strbuf_printf(&msg, "the buffer is still all zeros from `torch.%s` on line %zu: "
                               "this fill writes it again for nothing",
                         f->factory, f->row_fill);
        if (f->del_end > f->del_start) {
            fix = al_fix_new(AL_FIX_SAFE, "Delete the redundant fill");
            al_fix_add_edit(fix, f->del_start, f->del_end, "");
        } else if (f->kind == REFILL_CHAINED && f->alloc_end > f->call_start) {
            fix = al_fix_new(AL_FIX_SAFE, "Drop the redundant fill");
            al_fix_add_edit(fix, f->alloc_end, f->end, "");
        } else if (f->shares_line) {
            al_strbuf_puts(&msg, " (no fix: its line holds other statements)");
        }
    } else if (empty && (f->fill_is_zero || f->fill_is_one) && f->name_end > f->name_start) {
        /* torch.empty(...) + zero_() is torch.zeros(...): no size needed. */
        const char *to = f->fill_is_zero ? (f->like ? "zeros_like" : "zeros")
                                         : (f->like ? "ones_like" : "ones");
        removes = AL_REMOVES_NOTHING;
        al_strbuf_printf(&msg, "`torch.%s` followed by `%s` is `torch.%s` (a "
                               "simplification, not faster)",
                         f->factory, f->written ? f->written : "the fill", to);
        al_strbuf name = {0}, fm = {0};
        al_strbuf_printf(&name, "%s.%s", torch, to);
        al_strbuf_printf(&fm, "Replace with `%s`", name.data);
        fix = al_fix_new(AL_FIX_SAFE, fm.data);
        al_fix_add_edit(fix, f->name_start, f->name_end, name.data);
        if (f->kind == REFILL_CHAINED)
            al_fix_add_edit(fix, f->alloc_end, f->end, "");
        else
            al_fix_add_edit(fix, f->del_start, f->del_end, "");
        al_strbuf_free(&name);
        al_strbuf_free(&fm);
    } else {
        al_strbuf_printf(&msg, "`torch.%s` followed by `fill_(%s)` writes the buffer %s: "
                               "use `torch.%s`",
                         f->factory, f->value ? f->value : "...",
                         empty ? "once, as `torch.full` does (a simplification, not faster)"
                               : "twice",
                         full_of(f->factory));
        removes = empty ? AL_REMOVES_NOTHING : AL_REMOVES_FACTORY_FILL;
        if (f->size && f->value && f->kwargs) {
            al_strbuf repl = {0};
            al_strbuf_printf(&repl, "%s.%s(%s, %s%s)", torch, full_of(f->factory), f->size,
                             f->value, f->kwargs);
            al_strbuf fm = {0};
            al_strbuf_printf(&fm, "Replace with `%s`", repl.data);
            fix = al_fix_new(AL_FIX_SAFE, fm.data);
            al_strbuf_free(&fm);
            al_fix_add_edit(fix, f->call_start, f->call_end, repl.data);
            if (f->del_end > f->del_start)
                al_fix_add_edit(fix, f->del_start, f->del_end, "");
            al_strbuf_free(&repl);
        } else {
            al_strbuf_puts(&msg, " (no fix: the size or the fill value's dtype is not "
                                 "known)");
        }
    }
    al_findings_add(out, "AL103", "redundant-fill", f->start, f->end,
                    al_strbuf_detach(&msg), fix);
    al_findings_set_removes(out, removes);
    free(f->size);
    free(f->value);
    free(f->kwargs);
    free(f->written);
}

/* What a torch.full spelling of the allocation and its fill needs: the
 * size, the value (a float literal where the factory's default dtype must
 * stay) and the factory's keyword arguments. fill is the fill_(v) call's
 * arguments, NULL for zero_(). */
static void describe(const al_pyfile *pf, refill *f, const char *factory, const al_py_args *fa,
                     const al_py_args *fill, size_t fill_row)
{
    bool zero = fill == NULL;
    f->factory = factory;
    f->like = strstr(factory, "_like") != NULL;
    f->fill_is_zero = zero || al_py_is_zero_literal(pf, fill->pos[0]);
    f->fill_is_one = !zero && (al_node_text_eq(pf, fill->pos[0], "1") ||
                               al_node_text_eq(pf, fill->pos[0], "1.0"));
    f->row_fill = fill_row;
    if (f->like) {
        f->size = fa->npos == 1 ? al_node_text(pf, fa->pos[0]) : NULL;
    } else {
        int rank;
        f->size = al_py_size_tuple(pf, fa, &rank);
    }
    if (zero)
        f->value = al_xstrdup("0");
    else if (f->like || !ts_node_is_null(al_py_kwarg(pf, fa, "dtype")))
        f->value = al_node_text(pf, fill->pos[0]);
    else
        f->value = al_py_float_value(pf, fill->pos[0]);
    f->kwargs = al_py_kwargs_text(pf, fa, NULL);
    if (zero) {
        f->written = al_xstrdup("zero_()");
    } else {
        char *v = al_node_text_compact(pf, fill->pos[0]);
        al_strbuf sb = {0};
        al_strbuf_printf(&sb, "fill_(%s)", v);
        f->written = al_strbuf_detach(&sb);
        free(v);
    }
}

/* `x.zero_()` where the dataflow proved x still holds the zeros of its
 * allocation on every path: deleted with its line. */
static void already_zero(const al_rule_input *in, const char *torch, al_findings *out)
{
    const al_pyfile *pf = in->py->pf;
    const al_buffers *buffers = al_proofs_of_module(in->py);
    for (size_t b = 0; b < buffers->n; b++) {
        const al_buffer *buf = &buffers->items[b];
        for (size_t i = 0; i < buf->n_zero_refills; i++) {
            /* Only a statement that is the fill alone can go. */
            TSNode st = buf->zero_refills[i];
            TSNode fill = al_py_statement_call(st);
            if (ts_node_is_null(fill))
                continue;
            const char *bytes = pf->src->bytes;
            size_t ls = ts_node_start_byte(st), le = ts_node_end_byte(st);
            while (ls > 0 && bytes[ls - 1] != '\n') {
                if (bytes[ls - 1] != ' ' && bytes[ls - 1] != '\t')
                    break;
                ls--;
            }
            /* The line must hold the fill alone (`x.zero_(); y = 1` does
             * not), and its block must keep a statement. */
            bool alone = ls == 0 || bytes[ls - 1] == '\n';
            size_t after = le;
            while (after < pf->src->len && (bytes[after] == ' ' || bytes[after] == '\t'))
                after++;
            alone &= after >= pf->src->len || strchr("\r\n#", bytes[after]) != NULL;
            if (al_py_named_statements(ts_node_parent(st)) < 2)
                continue; /* deleting it would leave an empty block */
            le = alone ? al_py_next_line(pf, le) : ls;
            refill f;
            memset(&f, 0, sizeof f);
            f.kind = REFILL_ALREADY_ZERO;
            f.start = ts_node_start_byte(fill);
            f.end = ts_node_end_byte(fill);
            f.factory = al_factory_name(buf->site.factory);
            f.fill_is_zero = true;
            f.del_start = ls;
            f.del_end = le;
            f.row_fill = al_node_row(buf->site.call);
            f.shares_line = !alone;
            report(torch, &f, out);
        }
    }
}

/* `name.method(...)` as a whole statement: the call. */
static bool method_call_on(const al_pyfile *pf, TSNode stmt, const char *name, const char *method,
                           TSNode *call_out)
{
    TSNode call = al_py_statement_call(stmt);
    if (ts_node_is_null(call))
        return false;
    TSNode fn = al_node_field(call, "function");
    if (!al_node_is(fn, "attribute") || !al_py_last_name_is(pf, fn, method))
        return false;
    TSNode obj = al_node_field(fn, "object");
    if (!al_node_is(obj, "identifier") || !al_node_text_eq(pf, obj, name))
        return false;
    *call_out = call;
    return true;
}

/* x = torch.FACTORY(...) followed by x.fill_(v) or x.zero_(). */
static void refill_next(TSNode func, TSNode block, void *arg)
{
    al_rule_visit *w = arg;
    const al_pyfile *pf = w->in->py->pf;
    const char *torch = w->in->py->torch ? w->in->py->torch : "torch";
    (void)func;
    uint32_t k = ts_node_named_child_count(block);
    for (uint32_t i = 0; i < k; i++) {
        uint32_t j = al_py_next_statement(block, i);
        if (j >= k)
            break;
        TSNode s1 = ts_node_named_child(block, i), s2 = ts_node_named_child(block, j);
        TSNode target;
        const char *factory;
        TSNode call = al_factory_statement(pf, &w->in->py->imports, s1, &target, &factory);
        if (ts_node_is_null(call) || !al_factory_is_constant(factory) || !strcmp(factory, "full") ||
            !strcmp(factory, "full_like"))
            continue;
        bool zeros = strstr(factory, "zeros") != NULL;
        char *name = al_node_text(pf, target);
        TSNode fill;
        bool zero = method_call_on(pf, s2, name, "zero_", &fill);
        bool filled = zero || method_call_on(pf, s2, name, "fill_", &fill);
        al_py_args fa, fl;
        al_py_args_read(call, &fa);
        if (filled)
            al_py_args_read(fill, &fl);
        size_t ds, de;
        /* zeros then zero_(): the dataflow reports it as already zero. */
        bool skip = filled && zeros && (zero || (fl.npos == 1 && al_py_is_zero_literal(pf, fl.pos[0])));
        if (skip || !filled || fa.splat || (!zero && (fl.npos != 1 || fl.nkw)) ||
            !ts_node_is_null(al_py_kwarg(pf, &fa, "out")) || !al_py_statement_lines(pf, s2, &ds, &de) ||
            al_py_count_ident(pf, fill, name) != 1) {
            free(name);
            continue;
        }
        free(name);
        refill f;
        memset(&f, 0, sizeof f);
        f.kind = REFILL_NEXT;
        f.start = ts_node_start_byte(fill);
        f.end = ts_node_end_byte(fill);
        f.name_start = ts_node_start_byte(al_node_field(call, "function"));
        f.name_end = ts_node_end_byte(al_node_field(call, "function"));
        f.call_start = ts_node_start_byte(call);
        f.call_end = ts_node_end_byte(call);
        f.del_start = ds;
        f.del_end = de;
        describe(pf, &f, factory, &fa, zero ? NULL : &fl, al_node_row(s2));
        report(torch, &f, w->out);
    }
}

/* torch.FACTORY(...).fill_(v) / .zero_() */
static void refill_chained(const al_rule_input *in, const char *torch, TSNode call,
                           al_findings *out)
{
    const al_pyfile *pf = in->py->pf;
    TSNode fn = al_node_field(call, "function");
    if (!al_node_is(fn, "attribute"))
        return;
    bool zero = al_py_last_name_is(pf, fn, "zero_");
    if (!zero && !al_py_last_name_is(pf, fn, "fill_"))
        return;
    TSNode inner = al_py_unparen(al_node_field(fn, "object"));
    const char *factory = al_torch_factory(pf, &in->py->imports, inner, NULL);
    /* full().fill_(): AL103 leaves it (rare, dtype-laden). */
    if (!factory || !al_factory_is_constant(factory) || !strcmp(factory, "full") ||
        !strcmp(factory, "full_like"))
        return;
    al_py_args fa, fill;
    al_py_args_read(inner, &fa);
    al_py_args_read(call, &fill);
    if (fa.splat || fill.splat || (!zero && fill.npos != 1) || (zero && fill.npos != 0))
        return;
    if (!ts_node_is_null(al_py_kwarg(pf, &fa, "out")))
        return;
    refill f;
    memset(&f, 0, sizeof f);
    f.kind = REFILL_CHAINED;
    f.start = ts_node_start_byte(call);
    f.end = ts_node_end_byte(call);
    f.call_start = f.start;
    f.call_end = f.end;
    f.alloc_end = ts_node_end_byte(inner);
    f.name_start = ts_node_start_byte(al_node_field(inner, "function"));
    f.name_end = ts_node_end_byte(al_node_field(inner, "function"));
    describe(pf, &f, factory, &fa, zero ? NULL : &fill, al_node_row(fn));
    report(torch, &f, out);
}

void al_rule_al103(const al_rule_input *in, al_findings *out)
{
    const char *torch = in->py->torch ? in->py->torch : "torch";
    already_zero(in, torch, out);
    al_rule_visit w = {in, out};
    al_pymodule_walk_where(in->py, in->region_needs, &(al_py_walker){refill_next, NULL, &w});
    for (size_t i = 0; i < in->py->n_calls; i++)
        refill_chained(in, torch, in->py->calls[i], out);
}
