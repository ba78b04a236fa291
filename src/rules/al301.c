/* AL301 alloc-in-loop. GPU evidence (rules/AL301.md): with PyTorch's
 * caching allocator hoisting buys nothing measurable (0.83-1.01x); it
 * pays with cudaMallocAsync or without a cache. Off by default. */
#include "rules.h"

#include "../analysis/python/lifetime.h"
#include "../analysis/python/rebinding.h"
#include "../base/util.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* A loop-invariant allocation made every iteration. */
typedef struct {
    size_t start, end; /* the allocation call */
    char *name, *call, *indent, *stmt_indent, *refill;
    size_t stmt_line_start, stmt_line_end, loop_start, loop_row;
    bool body_has_other_statements;
    char *handed; /* a call handed the buffer that may keep it, or NULL */
    size_t handed_row;
} loopalloc;

static void report(al_pymodule *py, const loopalloc *f, al_findings *out)
{
    /* A zeros buffer fully overwritten every iteration needs no
     * re-zeroing once hoisted: the buffer facts say so. */
    bool overwritten = false;
    const al_buffers *buffers = al_proofs_of_module(py);
    for (size_t k = 0; k < buffers->n; k++)
        if (ts_node_start_byte(buffers->items[k].site.call) == f->start &&
            buffers->items[k].proof == AL_PROOF_FULL_WRITE)
            overwritten = true;
    const char *refill = overwritten ? NULL : f->refill;
    al_strbuf msg = {0};
    al_strbuf_printf(&msg, "`%s` is allocated on every iteration of the loop on line %zu "
                           "with the same shape, dtype and device, and does not outlive "
                           "the iteration: hoist it",
                     f->name, f->loop_row);
    /* Hoisted, one buffer serves every iteration. */
    al_strbuf_puts(&msg, " (unsafe: every iteration then writes the same buffer: assumes nothing "
                         "still reads the last one's when the next writes it, such as work queued "
                         "on another stream");
    if (f->handed)
        al_strbuf_printf(&msg, "; assumes `%s` on line %zu keeps no reference to it", f->handed,
                         f->handed_row);
    al_strbuf_putc(&msg, ')');
    al_fix *fix = NULL;
    if (refill || f->body_has_other_statements) {
        fix = al_fix_new(AL_FIX_UNSAFE, refill ? "Hoist the allocation and refill it in "
                                                 "the loop"
                                               : "Hoist the allocation before the loop");
        al_strbuf a = {0};
        al_strbuf_printf(&a, "%s = %s\n%s", f->name, f->call, f->indent);
        al_fix_add_edit(fix, f->loop_start, f->loop_start, a.data);
        if (refill) {
            al_strbuf r = {0};
            al_strbuf_printf(&r, "%s%s\n", f->stmt_indent ? f->stmt_indent : "", refill);
            al_fix_add_edit(fix, f->stmt_line_start, f->stmt_line_end, r.data);
            al_strbuf_free(&r);
        } else {
            al_fix_add_edit(fix, f->stmt_line_start, f->stmt_line_end, "");
        }
        al_strbuf_free(&a);
    }
    al_findings_add(out, "AL301", "alloc-in-loop", f->start, f->end, al_strbuf_detach(&msg),
                    fix);
}

/* The call that use is handed to as an argument (`layer.apply(x, tmp)`,
 * `f(out=tmp)`), or null. */
static TSNode handed_to(TSNode use)
{
    TSNode par = ts_node_parent(use);
    if (al_node_is(par, "keyword_argument") && ts_node_eq(al_node_field(par, "value"), use))
        par = ts_node_parent(par);
    if (!al_node_is(par, "argument_list"))
        return (TSNode){0};
    TSNode call = ts_node_parent(par);
    return al_node_is(call, "call") ? call : (TSNode){0};
}

/* Every use of `name` is inside the loop, after the allocation, and none
 * lets the value outlive the iteration; a call it is handed to that may
 * keep it is *handed (the first), an assumption of the fix. */
static bool lives_in_iteration(const al_pymodule *m, TSNode func, TSNode loop, TSNode stmt,
                               TSNode target, const char *name, TSNode *handed)
{
    const al_pyfile *pf = m->pf;
    if (al_py_count_ident(pf, func, name) != al_py_count_ident(pf, loop, name))
        return false;
    bool ok = true;
    TSTreeCursor cur = ts_tree_cursor_new(loop);
    bool more = true;
    while (more && ok) {
        TSNode n = ts_tree_cursor_current_node(&cur);
        if (al_node_is(n, "identifier") && al_node_text_eq(pf, n, name)) {
            TSNode call;
            if (al_py_ident_is_label(n) || ts_node_eq(n, target)) {
                /* not a use of the value */
            } else if (ts_node_start_byte(n) < ts_node_start_byte(stmt)) {
                ok = false;
            } else if (al_use_escapes(pf, &m->imports, n)) {
                /* Only a call whose value is dropped: a result kept
                 * (`meta = make_meta(tmp)`) may hold it. */
                call = handed_to(n);
                if (ts_node_is_null(call) || al_use_surely_kept(pf, n) ||
                    /* a class built from it keeps it */
                    al_py_names_class(pf, al_node_field(call, "function")) ||
                    !al_node_is(ts_node_parent(call), "expression_statement"))
                    ok = false;
                else if (ts_node_is_null(*handed))
                    *handed = call;
            }
        }
        if (ts_tree_cursor_goto_first_child(&cur))
            continue;
        while (!ts_tree_cursor_goto_next_sibling(&cur)) {
            if (!ts_tree_cursor_goto_parent(&cur) ||
                ts_node_eq(ts_tree_cursor_current_node(&cur), loop)) {
                more = false;
                break;
            }
        }
    }
    ts_tree_cursor_delete(&cur);
    return ok;
}

/* What refills the hoisted buffer each iteration as the factory did. */
static char *refill_of(const al_pyfile *pf, const char *factory, const char *name, TSNode call)
{
    al_strbuf r = {0};
    if (strstr(factory, "zeros")) {
        al_strbuf_printf(&r, "%s.zero_()", name);
    } else if (strstr(factory, "ones")) {
        al_strbuf_printf(&r, "%s.fill_(1)", name);
    } else if (strstr(factory, "full")) {
        al_py_args a;
        al_py_args_read(call, &a);
        TSNode v = a.npos > 1 ? a.pos[1] : al_py_kwarg(pf, &a, "fill_value");
        if (!ts_node_is_null(v)) {
            char *vt = al_node_text(pf, v);
            al_strbuf_printf(&r, "%s.fill_(%s)", name, vt);
            free(vt);
        }
    }
    char *refill = r.len ? al_strbuf_detach(&r) : NULL;
    al_strbuf_free(&r);
    return refill;
}

/* How often name is the target of `name op= ...` in n. */
static size_t augmented(const al_pyfile *pf, TSNode n, const char *name, int depth)
{
    if (depth > AL_MAX_FUNCTION_DEPTH)
        return 0;
    size_t c = 0;
    if (al_node_is(n, "augmented_assignment")) {
        TSNode l = al_node_field(n, "left");
        c += al_node_is(l, "identifier") && al_node_text_eq(pf, l, name);
    }
    uint32_t k = ts_node_named_child_count(n);
    for (uint32_t i = 0; i < k; i++)
        c += augmented(pf, ts_node_named_child(n, i), name, depth + 1);
    return c;
}

/* `x += y` on a tensor updates it in place: its shape, dtype and device,
 * all that `torch.empty_like(x)` reads, stay. (On anything but a tensor
 * empty_like would fail.) Names bound only that way are dropped. */
static void drop_in_place_updates(const al_pyfile *pf, TSNode loop, al_strlist *bound)
{
    al_strlist drop = {0};
    for (size_t i = 0; i < bound->n; i++) {
        const char *name = bound->items[i];
        if (!al_strlist_has(&drop, name, strlen(name)) &&
            al_strlist_count(bound, name) == augmented(pf, loop, name, 0))
            al_strlist_add(&drop, al_xstrdup(name));
    }
    for (size_t i = 0; i < drop.n; i++)
        al_strlist_remove(bound, drop.items[i]);
    al_strlist_free(&drop);
}

/* Occurrences of x under n that read only what an in-place update keeps:
 * `x.shape`, `x.dtype`, `x.device`, `x.size(...)`, `x.dim()`. */
static int metadata_reads(const al_pyfile *pf, TSNode n, const char *x, int depth)
{
    if (depth > AL_MAX_FUNCTION_DEPTH)
        return 0;
    if (al_node_is(n, "attribute") && al_node_is(al_node_field(n, "object"), "identifier") &&
        al_node_text_eq(pf, al_node_field(n, "object"), x)) {
        static const char *const keep[] = {"shape", "dtype", "device", "size", "dim", NULL};
        for (size_t i = 0; keep[i]; i++)
            if (al_py_last_name_is(pf, n, keep[i]))
                return 1;
        return 0;
    }
    int c = 0;
    for (uint32_t i = 0; i < ts_node_named_child_count(n); i++)
        c += metadata_reads(pf, ts_node_named_child(n, i), x, depth + 1);
    return c;
}

/* `x.new_empty(x.shape)` with x only updated in place in the loop (`x +=
 * y`): the receiver is a tensor (it has new_empty), and the sizes read
 * only its shape, which the update keeps. Drops x from bound then. */
static void drop_updated_receiver(const al_pyfile *pf, TSNode loop, TSNode call, al_strlist *bound)
{
    TSNode obj = al_node_field(al_node_field(call, "function"), "object");
    if (!al_node_is(obj, "identifier"))
        return;
    char *x = al_node_text(pf, obj);
    TSNode args = al_node_field(call, "arguments");
    size_t n = al_strlist_count(bound, x);
    if (n > 0 && n == (size_t)augmented(pf, loop, x, 0) &&
        al_py_count_ident(pf, args, x) == metadata_reads(pf, args, x, 0))
        al_strlist_remove(bound, x);
    free(x);
}

static bool within(TSNode outer, TSNode n)
{
    return !ts_node_is_null(outer) && ts_node_start_byte(n) >= ts_node_start_byte(outer) &&
           ts_node_end_byte(n) <= ts_node_end_byte(outer);
}

/* n and the allocation sit in two branches of one `if` inside the loop:
 * they never run in the same iteration (x's first value, made where the
 * allocation is skipped). */
static bool other_branch(TSNode loop, TSNode n, TSNode alloc)
{
    for (TSNode p = ts_node_parent(n); !ts_node_is_null(p) && !ts_node_eq(p, loop);
         p = ts_node_parent(p)) {
        if (!al_node_is(p, "if_statement"))
            continue;
        TSNode cons = al_node_field(p, "consequence");
        TSNode alts[8];
        size_t k = al_node_field_children(p, "alternative", alts, 8);
        bool n_in_cons = within(cons, n), a_in_cons = within(cons, alloc);
        bool n_in_alt = false, a_in_alt = false;
        for (size_t i = 0; i < k; i++) {
            n_in_alt = n_in_alt || within(alts[i], n);
            a_in_alt = a_in_alt || within(alts[i], alloc);
        }
        if ((n_in_cons && a_in_alt) || (n_in_alt && a_in_cons))
            return true;
    }
    return false;
}

/* The bindings of x in the loop, each `x = t` (the new buffer takes x's
 * place: a swap), `x op= ...` (in place) or made in another branch of an
 * `if` than the allocation (x's first value). Counts the swaps. */
static bool swap_bindings(const al_pyfile *pf, TSNode loop, TSNode alloc, TSNode n,
                          const char *x, const char *t, int *swaps, int depth)
{
    if (depth > AL_MAX_FUNCTION_DEPTH)
        return false;
    if (al_node_is(n, "function_definition") || al_node_is(n, "class_definition") ||
        al_node_is(n, "lambda"))
        return al_py_count_ident(pf, n, x) == 0;
    if (al_node_is(n, "assignment")) {
        TSNode l = al_node_field(n, "left");
        if (al_py_count_ident(pf, l, x) && !(al_node_is(l, "subscript") ||
                                             al_node_is(l, "attribute"))) {
            TSNode r = al_node_field(n, "right");
            if (al_node_is(l, "identifier") && al_node_is(r, "identifier") &&
                al_node_text_eq(pf, r, t))
                (*swaps)++;
            else if (!(al_node_is(l, "identifier") && other_branch(loop, n, alloc)))
                return false;
        }
    } else if (al_node_is(n, "for_statement") &&
               al_py_count_ident(pf, al_node_field(n, "left"), x)) {
        return false;
    }
    uint32_t k = ts_node_named_child_count(n);
    for (uint32_t i = 0; i < k; i++)
        if (!swap_bindings(pf, loop, alloc, ts_node_named_child(n, i), x, t, swaps, depth + 1))
            return false;
    return true;
}

/* `t = torch.empty_like(x)` in a loop that ends with `x = t`: the buffer
 * outlives the iteration as the next one's x, so it cannot be hoisted,
 * but two buffers swapped each iteration would do. Returns x (owned) when
 * x's bindings in the loop are all swaps, in-place updates or its first
 * value, NULL otherwise. */
static char *swapped_template(const al_pyfile *pf, TSNode loop, TSNode call, const char *factory,
                              const char *name)
{
    al_py_args a;
    al_py_args_read(call, &a);
    if (!al_str_ends_with(factory, "_like") || a.npos < 1 || !al_node_is(a.pos[0], "identifier"))
        return NULL;
    char *x = al_node_text(pf, a.pos[0]);
    int swaps = 0;
    if (swap_bindings(pf, loop, call, loop, x, name, &swaps, 0) && swaps > 0)
        return x;
    free(x);
    return NULL;
}

static void report_swap(TSNode loop, TSNode call, const char *name, const char *x,
                        al_findings *out)
{
    al_strbuf msg = {0};
    al_strbuf_printf(&msg, "`%s` is allocated on every iteration of the loop on line %zu with "
                           "the shape of `%s`, which it then replaces: two buffers swapped "
                           "each iteration would do (no fix: the swap is not proved; no gain "
                           "measured under the caching allocator)",
                     name, al_node_row(loop), x);
    al_findings_add(out, "AL301", "alloc-in-loop", ts_node_start_byte(call),
                    ts_node_end_byte(call), al_strbuf_detach(&msg), NULL);
}

/* Whether a size the factory is given is the literal 0: a tensor of no
 * elements, for which no memory is allocated, so hoisting it saves
 * nothing. */
static bool zero_sized(const al_pyfile *pf, TSNode call, const char *factory)
{
    if (al_str_ends_with(factory, "_like"))
        return false; /* the shape is the template's */
    al_py_args a;
    al_py_args_read(call, &a);
    /* full(size, fill_value): the fill is no size. */
    int npos = strstr(factory, "full") && a.npos > 1 ? 1 : a.npos;
    TSNode sizes[16];
    int n = 0;
    for (int i = 0; i < npos && n < 16; i++) {
        TSNode p = al_py_unparen(a.pos[i]);
        if (al_node_is(p, "tuple") || al_node_is(p, "list")) {
            for (uint32_t k = 0; k < ts_node_named_child_count(p) && n < 16; k++)
                sizes[n++] = ts_node_named_child(p, k);
        } else {
            sizes[n++] = p;
        }
    }
    for (int i = 0; i < n; i++)
        if (al_node_is(sizes[i], "integer") && al_node_text_eq(pf, sizes[i], "0"))
            return true;
    return false;
}

static void alloc_in_loop(TSNode func, TSNode stmt, void *arg)
{
    al_rule_visit *w = arg;
    al_pymodule *m = w->in->py;
    const al_pyfile *pf = m->pf;
    TSNode target;
    const char *factory;
    TSNode call = al_factory_statement(pf, &m->imports, stmt, &target, &factory);
    /* arange/tensor/eye carry content a hoisted buffer could lose to an
     * in-place update; zeros/ones/full are refilled, empty needs nothing. */
    if (ts_node_is_null(call) ||
        (!al_factory_is_constant(factory) && strncmp(factory, "new_", 4) != 0))
        return;
    TSNode loop = al_enclosing_loop(func, stmt);
    if (ts_node_is_null(loop))
        return;
    if (zero_sized(pf, call, factory)) {
        al_rule_decline(w->in, "AL301", "alloc-in-loop", ts_node_start_byte(call),
                        ts_node_end_byte(call),
                        "a size of this factory is 0: the tensor has no elements and its "
                        "storage 0 bytes (no buffer is allocated), so hoisting it saves nothing");
        return;
    }
    char *name = al_node_text(pf, target);
    al_strlist bound = {0};
    al_py_bound_names(pf, loop, &bound);
    size_t binds = al_strlist_count(&bound, name);
    if (al_str_ends_with(factory, "_like"))
        drop_in_place_updates(pf, loop, &bound);
    else if (!strncmp(factory, "new_", 4))
        drop_updated_receiver(pf, loop, call, &bound);
    /* A template swapped for the new buffer keeps its shape: not a change. */
    char *swapped = swapped_template(pf, loop, call, factory, name);
    if (swapped)
        al_strlist_remove(&bound, swapped);
    /* x.new_empty(...) takes its dtype and device from x: x counts too. */
    TSNode fn = al_node_field(call, "function");
    bool ok = binds == 1 && al_loop_invariant(pf, al_node_field(call, "arguments"), &bound) &&
              (!al_node_is(fn, "attribute") ||
               al_loop_invariant(pf, al_node_field(fn, "object"), &bound));
    al_strlist_free(&bound);
    TSNode handed = {0};
    if (ok && !lives_in_iteration(m, func, loop, stmt, target, name, &handed)) {
        ok = false;
        if (swapped)
            report_swap(loop, call, name, swapped, w->out);
    }
    free(swapped);
    size_t ls, le;
    char *indent = ok ? al_py_indent_of(pf, loop) : NULL;
    if (!ok || !indent || !al_py_statement_lines(pf, stmt, &ls, &le)) {
        free(indent);
        free(name);
        return;
    }
    loopalloc f;
    memset(&f, 0, sizeof f);
    f.start = ts_node_start_byte(call);
    f.end = ts_node_end_byte(call);
    f.name = name;
    f.call = al_node_text(pf, call);
    f.indent = indent;
    f.stmt_indent = al_py_indent_of(pf, stmt);
    f.stmt_line_start = ls;
    f.stmt_line_end = le;
    f.loop_start = ts_node_start_byte(loop);
    f.loop_row = al_node_row(loop);
    f.body_has_other_statements = al_py_named_statements(ts_node_parent(stmt)) > 1;
    f.refill = refill_of(pf, factory, name, call);
    if (!ts_node_is_null(handed)) {
        char *fn = al_node_text_compact(pf, al_node_field(handed, "function"));
        al_strbuf h = {0};
        al_strbuf_printf(&h, "%s(...)", fn);
        free(fn);
        f.handed = al_strbuf_detach(&h);
        f.handed_row = al_node_row(handed);
    }
    report(m, &f, w->out);
    free(f.name), free(f.call), free(f.indent), free(f.stmt_indent), free(f.refill), free(f.handed);
}

void al_rule_al301(const al_rule_input *in, al_findings *out)
{
    al_rule_visit w = {in, out};
    al_pymodule_walk_where(in->py, in->region_needs, &(al_py_walker){NULL, alloc_in_loop, &w});
}
