/* AL303 fill-loop: `for i in range(a, b): buf[i].zero_()` fills one index
 * per iteration, one kernel launch each; `buf[a:b].zero_()` is one. GPU
 * evidence in rules/AL303.md. Safe when the bounds are provably not
 * negative: a slice reads a negative bound from the end, an index wraps
 * element by element, and the two then differ. */
#include "rules.h"

#include "../analysis/python/alloc.h"
#include "../analysis/python/attrs.h"
#include "../base/util.h"

#include <stdlib.h>
#include <string.h>

/* A bound that cannot be negative: a non-negative int literal, len(...),
 * x.shape[k], x.size(k), x.numel(), or a sum or product of those. */
static bool non_negative(const al_pyfile *pf, TSNode n, int depth)
{
    n = al_py_unparen(n);
    long v;
    if (depth > 8)
        return false;
    if (al_py_parse_long(pf, n, &v))
        return v >= 0;
    if (al_node_is(n, "binary_operator")) {
        TSNode op = al_node_field(n, "operator");
        return (al_node_text_eq(pf, op, "+") || al_node_text_eq(pf, op, "*") ||
                al_node_text_eq(pf, op, "//")) &&
               non_negative(pf, al_node_field(n, "left"), depth + 1) &&
               non_negative(pf, al_node_field(n, "right"), depth + 1);
    }
    if (al_node_is(n, "call")) {
        TSNode fn = al_node_field(n, "function");
        if (al_node_is(fn, "identifier"))
            return al_node_text_eq(pf, fn, "len");
        return al_node_is(fn, "attribute") &&
               (al_py_last_name_is(pf, fn, "size") || al_py_last_name_is(pf, fn, "numel"));
    }
    if (al_node_is(n, "subscript")) {
        TSNode v2 = al_node_field(n, "value");
        TSNode idx[2];
        return al_node_is(v2, "attribute") && al_py_last_name_is(pf, v2, "shape") &&
               al_node_field_children(n, "subscript", idx, 2) == 1 &&
               al_py_parse_long(pf, idx[0], &v) && v >= 0;
    }
    return false;
}

/* Whether n holds an expression spelled as ref (`buf[0]` in a fill value
 * read while the loop writes buf). */
static bool mentions_buffer(const al_pyfile *pf, TSNode n, TSNode ref)
{
    if (al_py_same_text(pf, n, ref))
        return true;
    uint32_t k = ts_node_named_child_count(n);
    for (uint32_t j = 0; j < k; j++)
        if (mentions_buffer(pf, ts_node_named_child(n, j), ref))
            return true;
    return false;
}

/* `name.attr.attr`: evaluates to the same buffer every time. */
static bool plain_reference(TSNode n)
{
    while (al_node_is(n, "attribute"))
        n = al_node_field(n, "object");
    return al_node_is(n, "identifier");
}

/* `torch.Tensor` or `Tensor` as an annotation. */
static bool tensor_annotation(const al_pyfile *pf, TSNode type)
{
    return !ts_node_is_null(type) &&
           (al_node_text_eq(pf, type, "torch.Tensor") || al_node_text_eq(pf, type, "Tensor"));
}

/* A factory call of torch (zeros, empty, *_like...). */
static bool torch_made(const al_pymodule *m, TSNode v)
{
    return al_torch_factory(m->pf, &m->imports, al_py_unparen(v), NULL) != NULL;
}

/* Every assignment `<target text> = v` under n has a torch factory as v;
 * counts them. False on any other. */
static bool all_bindings_made(const al_pymodule *m, TSNode n, TSNode target, int *count, int depth)
{
    if (depth > AL_MAX_FUNCTION_DEPTH * 4)
        return false;
    if (al_node_is(n, "assignment") || al_node_is(n, "augmented_assignment")) {
        TSNode l = al_node_field(n, "left");
        if (al_py_same_text(m->pf, l, target)) {
            if (al_node_is(n, "augmented_assignment") || !torch_made(m, al_node_field(n, "right")))
                return false;
            (*count)++;
        }
    }
    uint32_t k = ts_node_named_child_count(n);
    for (uint32_t i = 0; i < k; i++)
        if (!all_bindings_made(m, ts_node_named_child(n, i), target, count, depth + 1))
            return false;
    return true;
}

/* The buffer is a tensor, not a list of them (`kv_buffer[layer]` is often
 * a list per layer, and a list has no zero_()): a parameter annotated as
 * a tensor, a local every binding of which is a torch factory, or an
 * attribute of `self` that the class binds only that way. */
static bool known_tensor(const al_pymodule *m, TSNode func, TSNode buf)
{
    const al_pyfile *pf = m->pf;
    int count = 0;
    if (al_node_is(buf, "identifier")) {
        TSNode params = al_node_field(func, "parameters");
        for (uint32_t i = 0; i < ts_node_named_child_count(params); i++) {
            TSNode p = ts_node_named_child(params, i);
            TSNode name = al_node_is(p, "typed_parameter") ? ts_node_named_child(p, 0)
                                                           : al_node_field(p, "name");
            if (!ts_node_is_null(name) && al_py_same_text(pf, name, buf))
                return tensor_annotation(pf, al_node_field(p, "type"));
        }
        return all_bindings_made(m, al_node_field(func, "body"), buf, &count, 0) && count > 0;
    }
    TSNode cls = al_self_attribute_class(pf, buf);
    al_pyfile_class_trimmed(pf, cls); /* every binding counts */
    /* (another method's `self` spells the same text) */
    return !ts_node_is_null(cls) && all_bindings_made(m, cls, buf, &count, 0) && count > 0;
}

/* A number (or bool) literal, signed or not: a fill value no view of the
 * buffer can be. */
static bool number_literal(TSNode v)
{
    v = al_py_unparen(v);
    if (!ts_node_is_null(v) && al_node_is(v, "unary_operator"))
        v = al_node_field(v, "argument");
    return al_node_is(v, "integer") || al_node_is(v, "float") || al_node_is(v, "true") ||
           al_node_is(v, "false");
}

/* `for idx in t: buf[idx].zero_()` (or `.fill_(v)`): one fill per
 * element of t, each a kernel launch, and for a tensor t on the GPU a
 * device-to-host read of each element to index with; `buf[t] = 0` is one
 * launch. The same only when t is a 1-D integer tensor or a list of ints
 * (a bool tensor selects by mask, a 2-D one indexes by rows, a tuple is
 * one index per dimension): nothing here proves what t is, so the fix is
 * unsafe and says that. */
static void index_fill_loop(al_rule_visit *w, TSNode func, TSNode loop, TSNode only, TSNode call,
                            TSNode buf, TSNode var, TSNode iter, bool zero)
{
    const al_pyfile *pf = w->in->py->pf;
    char *i = al_node_text(pf, var);
    al_py_args fa;
    al_py_args_read(call, &fa);
    bool value_ok = fa.nkw == 0 && !fa.splat && fa.npos == (zero ? 0 : 1) &&
                    (zero || number_literal(fa.pos[0]));
    bool ok = plain_reference(buf) && known_tensor(w->in->py, func, buf) &&
              !al_py_count_ident(pf, buf, i) && !al_py_count_ident(pf, iter, i) && value_ok;
    if (!ok) {
        if (w->in->declined) {
            const char *why = !plain_reference(buf) ? "the filled buffer is not a name or an attribute"
                              : !known_tensor(w->in->py, func, buf)
                                  ? "the buffer is not known to be a tensor (a list of tensors "
                                    "cannot be indexed by a tensor)"
                              : !value_ok ? "the fill value is not a number literal"
                                          : "the buffer's expression uses the loop variable";
            char *b = al_node_text(pf, buf);
            al_rule_decline(w->in, "AL303", "fill-loop", ts_node_start_byte(loop),
                            ts_node_end_byte(loop),
                            "a loop filling `%s` one element of an index at a time, left as it "
                            "is: %s", b, why);
            free(b);
        }
        free(i);
        return;
    }
    /* eval("i") reads it by name, unseen by the count */
    bool var_dead = al_py_count_ident(pf, func, i) == al_py_count_ident(pf, loop, i) &&
                    !al_py_reads_locals(pf, func);
    char *b = al_node_text(pf, buf), *t = al_node_text(pf, iter);
    char *v = zero ? al_xstrdup("0") : al_node_text(pf, fa.pos[0]);
    al_strbuf repl = {0}, msg = {0};
    al_strbuf_printf(&repl, "%s[%s] = %s", b, t, v);
    al_strbuf_printf(&msg, "a loop that fills `%s` at one element of `%s` per iteration, one "
                           "kernel launch each (and a read of each index to the host when it "
                           "is on the GPU): `%s` fills the same elements at once",
                     b, t, repl.data);
    al_fix *fix = NULL;
    if (!var_dead) {
        al_strbuf_printf(&msg, " (no fix: `%s` is read after the loop)", i);
    } else {
        al_strbuf_printf(&msg, " (unsafe: assumes `%s` is a 1-D integer tensor or a list of "
                               "ints; a bool tensor would select by mask, a 2-D one by rows, a "
                               "tuple one index per dimension)",
                         t);
        al_strbuf fm = {0};
        al_strbuf_printf(&fm, "Replace the loop with `%s`", repl.data);
        fix = al_fix_new(AL_FIX_UNSAFE, fm.data);
        al_fix_add_edit(fix, ts_node_start_byte(loop), ts_node_end_byte(only), repl.data);
        al_strbuf_free(&fm);
    }
    al_findings_add(w->out, "AL303", "fill-loop", ts_node_start_byte(call), ts_node_end_byte(call),
                    al_strbuf_detach(&msg), fix);
    al_strbuf_free(&repl);
    free(i), free(b), free(t), free(v);
}

static void fill_loop(TSNode func, TSNode loop, void *arg)
{
    al_rule_visit *w = arg;
    const al_pyfile *pf = w->in->py->pf;
    if (!al_node_is(loop, "for_statement") || !ts_node_is_null(al_node_field(loop, "alternative")))
        return;
    TSNode var = al_node_field(loop, "left"), iter = al_node_field(loop, "right");
    TSNode body = al_node_field(loop, "body");
    bool ranged = al_node_is(iter, "call") &&
                  al_node_text_eq(pf, al_node_field(iter, "function"), "range");
    /* `for idx in t:` over the elements of an index tensor (or a list of
     * them): one fill by advanced indexing, `buf[t] = 0`. */
    bool indexed = !ranged && (al_node_is(iter, "identifier") || al_node_is(iter, "attribute") ||
                               al_node_is(iter, "subscript") || al_node_is(iter, "call"));
    if (!al_node_is(var, "identifier") || (!ranged && !indexed) ||
        al_py_named_statements(body) != 1)
        return;
    /* buf[i].zero_() / buf[i].fill_(v); the fix replaces the loop up to
     * the end of that statement, so a comment may follow it, not lead it */
    TSNode only = {0};
    for (uint32_t k = 0; k < ts_node_named_child_count(body); k++)
        if (!al_node_is(ts_node_named_child(body, k), "comment"))
            only = ts_node_named_child(body, k);
        else if (ts_node_is_null(only))
            return;
    TSNode call = al_py_statement_call(only);
    if (ts_node_is_null(call))
        return;
    TSNode fn = al_node_field(call, "function");
    bool zero = al_py_last_name_is(pf, fn, "zero_"), fill = al_py_last_name_is(pf, fn, "fill_");
    TSNode sub = al_node_is(fn, "attribute") ? al_node_field(fn, "object") : (TSNode){0};
    TSNode idx[2];
    if ((!zero && !fill) || !al_node_is(sub, "subscript") ||
        al_node_field_children(sub, "subscript", idx, 2) != 1 || !al_node_is(idx[0], "identifier") ||
        !al_py_same_text(pf, idx[0], var))
        return;
    TSNode buf = al_node_field(sub, "value");
    if (indexed) {
        index_fill_loop(w, func, loop, only, call, buf, var, iter, zero);
        return;
    }
    char *i = al_node_text(pf, var);
    al_py_args fa, ra;
    al_py_args_read(call, &fa);
    al_py_args_read(iter, &ra);
    bool shape_ok = plain_reference(buf) && known_tensor(w->in->py, func, buf) &&
                    !al_py_count_ident(pf, buf, i) && !fa.splat &&
                    fa.nkw == 0 && fa.npos == (fill ? 1 : 0) &&
                    (!fill || (!al_py_count_ident(pf, fa.pos[0], i) &&
                               !mentions_buffer(pf, fa.pos[0], buf))) &&
                    !ra.splat &&
                    ra.nkw == 0 && ra.npos >= 1 && ra.npos <= 3;
    if (!shape_ok) {
        if (w->in->declined) {
            const char *why =
                !plain_reference(buf) ? "the filled buffer is not a name or an attribute"
                : !known_tensor(w->in->py, func, buf)
                    ? "the buffer is not known to be a tensor (no torch call or annotation binds "
                      "it in this function)"
                : al_py_count_ident(pf, buf, i) ? "the buffer's expression uses the loop variable"
                : fa.splat || fa.nkw || fa.npos != (fill ? 1 : 0)
                    ? "the fill's arguments are not the one value AL303 reads"
                : fill && (al_py_count_ident(pf, fa.pos[0], i) || mentions_buffer(pf, fa.pos[0], buf))
                    ? "the fill value depends on the index or reads the buffer"
                    : "the loop's `range(...)` is not given plain start, stop and step";
            char *b = al_node_text(pf, buf);
            al_rule_decline(w->in, "AL303", "fill-loop", ts_node_start_byte(loop),
                            ts_node_end_byte(loop),
                            "a loop filling `%s` one index at a time, left as it is: %s", b, why);
            free(b);
        }
        free(i);
        return;
    }
    TSNode start = ra.npos >= 2 ? ra.pos[0] : (TSNode){0};
    TSNode stop = ra.npos >= 2 ? ra.pos[1] : ra.pos[0];
    TSNode step = ra.npos == 3 ? ra.pos[2] : (TSNode){0};
    long sv = 1;
    bool step_ok = ts_node_is_null(step) || (al_py_parse_long(pf, step, &sv) && sv > 0);
    bool bounds_ok = (ts_node_is_null(start) || non_negative(pf, start, 0)) &&
                     non_negative(pf, stop, 0);
    /* A tensor fill value may be a view of the buffer, read while the one
     * fill writes it; a number cannot. */
    bool value_ok = !fill || number_literal(fa.pos[0]);
    /* Python keeps the loop variable after the loop. */
    /* eval("i") reads it by name, unseen by the count */
    bool var_dead = al_py_count_ident(pf, func, i) == al_py_count_ident(pf, loop, i) &&
                    !al_py_reads_locals(pf, func);
    char *b = al_node_text(pf, buf), *st = ts_node_is_null(start) ? NULL : al_node_text(pf, start);
    char *sp = al_node_text(pf, stop), *se = ts_node_is_null(step) ? NULL : al_node_text(pf, step);
    char *v = fill ? al_node_text(pf, fa.pos[0]) : NULL;
    al_strbuf repl = {0}, msg = {0};
    al_strbuf_printf(&repl, "%s[%s:%s%s%s].%s(%s)", b, st ? st : "", sp, se ? ":" : "",
                     se ? se : "", zero ? "zero_" : "fill_", v ? v : "");
    al_strbuf_printf(&msg, "a loop that fills `%s` one index per iteration, one kernel launch "
                           "each: `%s` fills the same elements at once",
                     b, repl.data);
    al_fix *fix = NULL;
    if (!var_dead) {
        al_strbuf_printf(&msg, " (no fix: `%s` is read after the loop)", i);
    } else if (!step_ok) {
        al_strbuf_puts(&msg, " (no fix: the step is not a positive literal)");
    } else {
        if (!bounds_ok)
            al_strbuf_puts(&msg, " (unsafe: a bound may be negative, and a slice reads a "
                                 "negative bound from the end where an index wraps one "
                                 "element)");
        else if (!value_ok)
            al_strbuf_puts(&msg, " (unsafe: the fill value is not a number and may be a view "
                                 "of the buffer)");
        al_strbuf fm = {0};
        al_strbuf_printf(&fm, "Replace the loop with `%s`", repl.data);
        fix = al_fix_new(bounds_ok && value_ok ? AL_FIX_SAFE : AL_FIX_UNSAFE, fm.data);
        al_fix_add_edit(fix, ts_node_start_byte(loop), ts_node_end_byte(only), repl.data);
        al_strbuf_free(&fm);
    }
    al_findings_add(w->out, "AL303", "fill-loop", ts_node_start_byte(call),
                    ts_node_end_byte(call), al_strbuf_detach(&msg), fix);
    al_strbuf_free(&repl);
    free(i), free(b), free(st), free(sp), free(se), free(v);
}

static void loops_of_block(TSNode func, TSNode block, void *arg)
{
    uint32_t k = ts_node_named_child_count(block);
    for (uint32_t i = 0; i < k; i++)
        fill_loop(func, ts_node_named_child(block, i), arg);
}

void al_rule_al303(const al_rule_input *in, al_findings *out)
{
    al_rule_visit w = {in, out};
    al_pymodule_walk_where(in->py, in->region_needs, &(al_py_walker){loops_of_block, NULL, &w});
}
