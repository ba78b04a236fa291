/* AL302 triton-loop-invariant: tl.arange with loop-invariant bounds
 * inside a range loop of a kernel. GPU evidence (rules/AL302.md): the
 * compiler hoists it (0.99-1.11x); a readability fix, off by default. */
#include "rules.h"

#include "../analysis/python/lifetime.h"
#include "../base/util.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Equal tl.arange expressions hoisted out of one loop, or out of several
 * loops of one block into one name made before the first. */
typedef struct {
    size_t loop_start, loop_row;
    TSNode block;     /* the block holding the loop the name goes before */
    size_t last_loop_row; /* a later sibling loop sharing the name, or 0 */
    char *expr;   /* compact text, to group equal expressions */
    char *source; /* the first occurrence as written */
    char *name, *indent;
    size_t *occ_start, *occ_end;
    size_t n_occ;
} invariant;

typedef struct {
    invariant *items;
    size_t n, cap;
} invariants;

static bool is_tl(const al_pymodule *m, TSNode fn, const char *name)
{
    char want[64];
    snprintf(want, sizeof want, "triton.language.%s", name);
    return al_pymodule_resolves_to(m, fn, want);
}

static bool range_loop(const al_pymodule *m, TSNode loop)
{
    TSNode it = al_node_field(loop, "right");
    if (!al_node_is(it, "call"))
        return false;
    TSNode fn = al_node_field(it, "function");
    return al_node_text_eq(m->pf, fn, "range") || is_tl(m, fn, "range") ||
           is_tl(m, fn, "static_range");
}

/* A `tl.static_range` loop that may run no iteration: unrolled at compile
 * time, its body is not compiled at all then. Literal bounds giving one
 * iteration or more are not such a loop. */
static bool is_static(const al_pymodule *m, TSNode loop)
{
    TSNode it = al_node_field(loop, "right");
    if (!al_node_is(it, "call") || !is_tl(m, al_node_field(it, "function"), "static_range"))
        return false;
    al_py_args a;
    al_py_args_read(it, &a);
    long lo = 0, hi = 0;
    bool literal = a.nkw == 0 && (a.npos == 1 || a.npos == 2);
    for (int i = 0; literal && i < a.npos; i++) {
        literal = al_node_is(a.pos[i], "integer");
        if (literal) {
            char *t = al_node_text(m->pf, a.pos[i]);
            long v = strtol(t, NULL, 0);
            free(t);
            if (a.npos == 1 || i == 1)
                hi = v;
            else
                lo = v;
        }
    }
    return !(literal && hi > lo);
}

static void arange_calls(const al_pymodule *m, TSNode n, TSNode *out, size_t *nout, size_t max,
                         int depth)
{
    if (depth > 200 || *nout >= max)
        return;
    if (al_node_is(n, "call") && is_tl(m, al_node_field(n, "function"), "arange")) {
        out[(*nout)++] = n;
        return;
    }
    uint32_t k = ts_node_named_child_count(n);
    for (uint32_t i = 0; i < k; i++)
        arange_calls(m, ts_node_named_child(n, i), out, nout, max, depth + 1);
}

static bool branch(TSNode p)
{
    return al_node_is(p, "if_statement") || al_node_is(p, "conditional_expression") ||
           al_node_is(p, "try_statement") || al_node_is(p, "match_statement") ||
           al_node_is(p, "boolean_operator");
}

/* Whether the kernel compiles this tl.arange wherever it is put: its
 * bounds are integer literals whose span is a power of two, or the same
 * call stands outside every branch of the kernel (compiled on every
 * launch, so valid for every launch's constexprs). */
static bool valid_anywhere(const al_pymodule *m, TSNode func, TSNode call)
{
    al_py_args a;
    al_py_args_read(call, &a);
    if (a.npos == 2 && a.nkw == 0 && al_node_is(a.pos[0], "integer") && al_node_is(a.pos[1], "integer")) {
        char *lo = al_node_text(m->pf, a.pos[0]), *hi = al_node_text(m->pf, a.pos[1]);
        long span = strtol(hi, NULL, 0) - strtol(lo, NULL, 0);
        free(lo);
        free(hi);
        if (span > 0 && (span & (span - 1)) == 0)
            return true;
    }
    TSNode calls[256];
    size_t n = 0;
    arange_calls(m, al_node_field(func, "body"), calls, &n, 256, 0);
    char *text = al_node_text_compact(m->pf, call);
    bool twin = false;
    for (size_t i = 0; i < n && !twin; i++) {
        char *t = al_node_text_compact(m->pf, calls[i]);
        bool same = !strcmp(t, text);
        free(t);
        if (!same)
            continue;
        twin = true;
        for (TSNode p = ts_node_parent(calls[i]); twin && !ts_node_eq(p, func); p = ts_node_parent(p))
            twin = !branch(p) && !(al_node_is(p, "for_statement") && is_static(m, p));
    }
    free(text);
    return twin;
}

/* The outermost enclosing range loop of the kernel that the call's bounds
 * do not depend on, or a null node. */
static TSNode hoist_target(const al_pymodule *m, TSNode func, TSNode call)
{
    TSNode target = {0};
    int valid = -1; /* valid_anywhere, once asked */
    for (TSNode p = ts_node_parent(call); !ts_node_is_null(p) && !ts_node_eq(p, func);
         p = ts_node_parent(p)) {
        /* Out of a branch the call would run where the branch does not: a
         * branch on a constexpr is not even compiled, and its tl.arange
         * may be invalid where it is not taken (`if HAS_TAIL:` with
         * TAIL = 0). So may a static_range loop that runs no time. */
        if (al_node_is(p, "while_statement"))
            break;
        if ((branch(p) || (al_node_is(p, "for_statement") && is_static(m, p))) &&
            !(valid < 0 ? (valid = valid_anywhere(m, func, call)) : valid))
            break;
        if (!al_node_is(p, "for_statement") || !range_loop(m, p))
            continue;
        al_strlist bound = {0};
        al_py_bound_names(m->pf, p, &bound);
        bool inv = al_loop_invariant(m->pf, al_node_field(call, "arguments"), &bound);
        al_strlist_free(&bound);
        if (!inv)
            break;
        target = p;
    }
    return target;
}

/* offs_0_BLOCK from tl.arange(0, BLOCK), made unique in the function. */
/* Whether an earlier hoist in func took name: --fix applies it in an
 * earlier pass, then picks the next free name, so the report does too. */
static bool name_hoisted(const invariants *list, TSNode func, const char *name)
{
    for (size_t j = 0; j < list->n; j++)
        if (list->items[j].loop_start >= ts_node_start_byte(func) &&
            list->items[j].loop_start < ts_node_end_byte(func) && !strcmp(list->items[j].name, name))
            return true;
    return false;
}

static char *hoisted_name(const al_pyfile *pf, TSNode func, TSNode call, const invariants *list)
{
    al_strbuf base = {0};
    al_strbuf_puts(&base, "arange");
    al_py_args a;
    al_py_args_read(call, &a);
    for (int k = 0; k < a.npos; k++) {
        char *t = al_node_text_compact(pf, a.pos[k]);
        al_strbuf_putc(&base, '_');
        for (char *q = t; *q; q++)
            al_strbuf_putc(&base, isalnum((unsigned char)*q) ? *q : '_');
        free(t);
    }
    al_strbuf name = {0};
    al_strbuf_puts(&name, base.data);
    for (int k = 2; k < 100 && (al_py_count_ident(pf, func, name.data) > 0 ||
                                name_hoisted(list, func, name.data));
         k++) {
        name.len = 0;
        al_strbuf_printf(&name, "%s_%d", base.data, k);
    }
    al_strbuf_free(&base);
    return al_strbuf_detach(&name);
}

/* Whether the call's arguments keep their values through the function:
 * no name of them is bound in its body, so a name made before one loop
 * holds the value every later loop of that block computes again. */
static bool fixed_in_function(const al_pymodule *m, TSNode func, TSNode call)
{
    al_strlist bound = {0};
    al_py_bound_names(m->pf, al_node_field(func, "body"), &bound);
    bool fixed = al_loop_invariant(m->pf, al_node_field(call, "arguments"), &bound);
    al_strlist_free(&bound);
    return fixed;
}

static void collect(const al_pymodule *m, TSNode func, invariants *list)
{
    TSNode calls[256];
    size_t n = 0;
    arange_calls(m, al_node_field(func, "body"), calls, &n, 256, 0);
    for (size_t i = 0; i < n; i++) {
        TSNode target = hoist_target(m, func, calls[i]);
        if (ts_node_is_null(target))
            continue;
        char *expr = al_node_text_compact(m->pf, calls[i]);
        invariant *f = NULL;
        for (size_t j = 0; j < list->n && !f; j++) {
            invariant *g = &list->items[j];
            if (g->loop_start == ts_node_start_byte(target) && !strcmp(g->expr, expr))
                f = g;
        }
        /* The same expression hoisted out of a later loop of the same
         * block: one name, made before the first. */
        for (size_t j = 0; j < list->n && !f; j++) {
            invariant *g = &list->items[j];
            if (!strcmp(g->expr, expr) && ts_node_eq(g->block, ts_node_parent(target)) &&
                g->loop_start < ts_node_start_byte(target) && fixed_in_function(m, func, calls[i])) {
                f = g;
                f->last_loop_row = al_node_row(target);
            }
        }
        if (!f) {
            char *indent = al_py_indent_of(m->pf, target);
            if (!indent) {
                free(expr);
                continue;
            }
            invariant nf;
            memset(&nf, 0, sizeof nf);
            nf.loop_start = ts_node_start_byte(target);
            nf.loop_row = al_node_row(target);
            nf.block = ts_node_parent(target);
            nf.expr = expr;
            nf.source = al_node_text(m->pf, calls[i]);
            expr = NULL;
            nf.indent = indent;
            nf.name = hoisted_name(m->pf, func, calls[i], list);
            AL_PUSH(list->items, list->n, list->cap, nf);
            f = &list->items[list->n - 1];
        }
        free(expr);
        f->occ_start = al_xrealloc(f->occ_start, (f->n_occ + 1) * sizeof(size_t));
        f->occ_end = al_xrealloc(f->occ_end, (f->n_occ + 1) * sizeof(size_t));
        f->occ_start[f->n_occ] = ts_node_start_byte(calls[i]);
        f->occ_end[f->n_occ] = ts_node_end_byte(calls[i]);
        f->n_occ++;
    }
}

static void report(const invariant *f, al_findings *out)
{
    al_fix *fix = al_fix_new(AL_FIX_SAFE, "Hoist it into a name before the loop");
    al_strbuf a = {0};
    al_strbuf_printf(&a, "%s = %s\n%s", f->name, f->source, f->indent);
    al_fix_add_edit(fix, f->loop_start, f->loop_start, a.data);
    for (size_t k = 0; k < f->n_occ; k++)
        al_fix_add_edit(fix, f->occ_start[k], f->occ_end[k], f->name);
    al_strbuf_free(&a);
    al_strbuf msg = {0};
    char loops[64];
    if (f->last_loop_row)
        snprintf(loops, sizeof loops, "the loops on lines %zu to %zu", f->loop_row,
                 f->last_loop_row);
    else
        snprintf(loops, sizeof loops, "the loop on line %zu", f->loop_row);
    al_strbuf_printf(&msg, "`%s` does not change across %s%s: hoist it "
                           "(Triton hoists it too; a readability fix)",
                     f->source, loops, f->n_occ > 1 ? " and is computed more than once" : "");
    al_findings_add(out, "AL302", "triton-loop-invariant", f->occ_start[0], f->occ_end[0],
                    al_strbuf_detach(&msg), fix);
}

void al_rule_al302(const al_rule_input *in, al_findings *out)
{
    invariants list = {0};
    for (size_t i = 0; i < in->py->n_kernels; i++)
        collect(in->py, in->py->kernels[i], &list);
    for (size_t i = 0; i < list.n; i++) {
        invariant *f = &list.items[i];
        report(f, out);
        free(f->expr), free(f->source), free(f->name), free(f->indent);
        free(f->occ_start), free(f->occ_end);
    }
    free(list.items);
}
