/* AL104 triton-redundant-store. GPU evidence (rules/AL104.md): the zero
 * accumulator is folded by Triton (1.00x, readability); a dead store of
 * zeros costs up to 1.3x where the kernel is bandwidth bound. */
#include "rules.h"

#include "../base/util.h"

#include <stdlib.h>
#include <string.h>

typedef enum {
    TSTORE_ZERO_ACC,   /* acc = tl.zeros(...); acc += tl.dot(a, b) */
    TSTORE_DEAD_ZERO,  /* tl.store(p, zeros) later overwritten unconditionally */
    TSTORE_DEAD_LOOP,  /* a loop of zero stores repeated by the next loop */
    TSTORE_GUARD_LOOP, /* `if not computed:` loop of zero stores (display only) */
} tstore_kind;

typedef struct {
    tstore_kind kind;
    size_t start, end;
    char *acc, *a, *b, *extra; /* ZERO_ACC: names and the dot's other arguments */
    char *dtype;               /* ZERO_ACC: the zeros' dtype */
    const char *tl;            /* local name of triton.language */
    bool out_dtype_conflict;   /* the dot already names another out_dtype */
    bool out_dtype_same;       /* the dot already names the zeros' dtype */
    size_t del_start, del_end; /* statement(s) to delete */
    size_t row_other;          /* the store or loop that makes it redundant */
    char *loaded;              /* DEAD_ZERO/DEAD_LOOP: a pointer loaded between, which may
                                * overlap what the zeros were stored to (unsafe) */
} tstore;

typedef struct {
    const al_pymodule *m;
    const al_pyfile *pf;
    const char *tl; /* local name of triton.language */
    al_findings *out;
} kctx;

/* Whether dtype spells tl.float32, tl.float64 or tl.int32 (through the
 * module's name for triton.language). */
static bool accumulates_wide(const kctx *c, const char *dtype)
{
    static const char *const wide[] = {"float32", "float64", "int32"};
    size_t n = c->tl ? strlen(c->tl) : 0;
    if (!c->tl || strncmp(dtype, c->tl, n) || dtype[n] != '.')
        return false;
    for (size_t i = 0; i < sizeof wide / sizeof wide[0]; i++)
        if (!strcmp(dtype + n + 1, wide[i]))
            return true;
    return false;
}

static void report(kctx *c, tstore *f)
{
    al_findings *out = c->out;
    f->tl = c->tl;
    al_strbuf msg = {0};
    al_fix *fix = NULL;
    switch (f->kind) {
    case TSTORE_ZERO_ACC:
        al_strbuf_printf(&msg, "`%s` is made zero and then only gets one `tl.dot` added: "
                               "assign the dot directly (Triton folds this already; a "
                               "readability fix)",
                         f->acc);
        if (!f->out_dtype_conflict) {
            /* Without out_dtype the dot gives float32 (int32 for integer
             * inputs), and `+=` promotes the zeros to it: out_dtype= of a
             * narrower dtype would sum in that dtype instead. A float32,
             * float64 or int32 accumulator is what the sum was, or the
             * dot refuses the out_dtype when it compiles (int8 inputs into
             * float32). */
            bool same = f->out_dtype_same || accumulates_wide(c, f->dtype);
            al_strbuf repl = {0};
            al_strbuf_printf(&repl, "%s = %s.dot(%s, %s%s, out_dtype=%s)", f->acc, f->tl,
                             f->a, f->b, f->extra, f->dtype);
            if (!same)
                al_strbuf_printf(&msg, " (unsafe: `%s`'s dtype `%s` is not float32, float64 or "
                                       "int32: the dot without out_dtype gives float32 (int32 "
                                       "for integer inputs), to which `+=` promotes `%s`; with "
                                       "out_dtype=%s it sums in that dtype)",
                                 f->acc, f->dtype, f->acc, f->dtype);
            al_strbuf fm = {0};
            al_strbuf_printf(&fm, "Replace with `%s`", repl.data);
            fix = al_fix_new(same ? AL_FIX_SAFE : AL_FIX_UNSAFE, fm.data);
            al_fix_add_edit(fix, f->start, f->end, repl.data);
            al_strbuf_free(&fm);
            al_strbuf_free(&repl);
        } else {
            al_strbuf_puts(&msg, " (no fix: the dot names another out_dtype)");
        }
        break;
    case TSTORE_DEAD_ZERO:
    case TSTORE_DEAD_LOOP:
        if (f->kind == TSTORE_DEAD_ZERO)
            al_strbuf_printf(&msg, "this store of zeros is overwritten by the store to the same "
                                   "pointers on line %zu before anything reads it",
                             f->row_other);
        else
            al_strbuf_printf(&msg, "this loop stores zeros that the loop on line %zu overwrites "
                                   "with the same stores, unconditionally",
                             f->row_other);
        /* A load of another pointer reads the zeros when the launch hands
         * one tensor for both (an in-place call). */
        if (f->loaded)
            al_strbuf_printf(&msg, " (unsafe: assumes `%s`, loaded before the overwrite, does not "
                                   "overlap what the zeros are stored to: a launch that hands one "
                                   "tensor for both would read them)",
                             f->loaded);
        fix = al_fix_new(f->loaded ? AL_FIX_UNSAFE : AL_FIX_SAFE,
                         f->kind == TSTORE_DEAD_ZERO ? "Delete the dead store"
                                                     : "Delete the loop of dead stores");
        al_fix_add_edit(fix, f->del_start, f->del_end, "");
        break;
    case TSTORE_GUARD_LOOP:
        al_strbuf_printf(&msg, "this loop stores zeros to the pointers the loop on line %zu "
                               "stores; it runs only when that loop did not, so it is dead "
                               "if that loop always runs (not proved)",
                         f->row_other);
        break;
    }
    al_findings_add(out, "AL104", "triton-redundant-store", f->start, f->end,
                    al_strbuf_detach(&msg), fix);
    free(f->acc), free(f->a), free(f->b), free(f->extra), free(f->dtype);
}

static bool is_tl(const kctx *c, TSNode fn, const char *name)
{
    char want[64];
    snprintf(want, sizeof want, "triton.language.%s", name);
    return al_pymodule_resolves_to(c->m, fn, want);
}

/* tl.store(P, V, mask=M): P, V and M (null when absent); false otherwise. */
static bool tl_store(const kctx *c, TSNode stmt, TSNode *p, TSNode *v, TSNode *m)
{
    TSNode call = al_py_statement_call(stmt);
    if (ts_node_is_null(call) || !is_tl(c, al_node_field(call, "function"), "store"))
        return false;
    al_py_args a;
    al_py_args_read(call, &a);
    if (a.splat || a.npos < 2)
        return false;
    *p = a.pos[0];
    *v = a.pos[1];
    *m = a.npos > 2 ? a.pos[2] : al_py_kwarg(c->pf, &a, "mask");
    /* cache or eviction hints: leave them be */
    if (!al_py_kwargs_within(c->pf, &a, (const char *const[]){"mask", NULL}))
        return false;
    return true;
}

static bool zero_value(const kctx *c, TSNode v)
{
    v = al_py_unparen(v);
    if (al_py_is_zero_literal(c->pf, v))
        return true;
    return al_node_is(v, "call") && (is_tl(c, al_node_field(v, "function"), "zeros") ||
                                     is_tl(c, al_node_field(v, "function"), "zeros_like"));
}

/* Only tl.* calls and assignments: nothing that could read memory we
 * are about to overwrite through another name. */
static bool harmless_between(const kctx *c, TSNode stmt, TSNode ptr, TSNode mask, TSNode *loaded)
{
    if (!al_node_is(stmt, "expression_statement"))
        return false;
    TSTreeCursor cur = ts_tree_cursor_new(stmt);
    bool ok = true, more = true;
    while (more && ok) {
        TSNode n = ts_tree_cursor_current_node(&cur);
        /* A name of the pointers or the mask bound again: the same text
         * then means other addresses or lanes. */
        if (al_node_is(n, "assignment") || al_node_is(n, "augmented_assignment") ||
            al_node_is(n, "named_expression")) {
            TSNode left = al_node_is(n, "named_expression") ? al_node_field(n, "name")
                                                            : al_node_field(n, "left");
            al_strlist names = {0};
            al_py_bound_names(c->pf, left, &names);
            if (al_node_is(left, "identifier")) {
                al_strlist_add(&names, al_node_text(c->pf, left));
            }
            for (size_t i = 0; ok && !ts_node_is_null(ptr) && i < names.n; i++)
                ok = !(al_py_count_ident(c->pf, ptr, names.items[i]) ||
                       (!ts_node_is_null(mask) && al_py_count_ident(c->pf, mask, names.items[i])));
            al_strlist_free(&names);
        }
        if (ok && al_node_is(n, "call")) {
            char *q = al_pymodule_resolve(c->m, al_node_field(n, "function"));
            if (!q || strncmp(q, "triton.language.", 16) != 0) {
                ok = false;
            } else if (!strcmp(q, "triton.language.load")) {
                al_py_args a;
                al_py_args_read(n, &a);
                if (a.npos == 0 || al_py_same_text(c->pf, a.pos[0], ptr))
                    ok = false;
                else if (loaded && ts_node_is_null(*loaded))
                    *loaded = a.pos[0];
            } else if (strstr(q, "atomic") || strstr(q, "barrier") || strstr(q, "store")) {
                ok = false;
            }
            free(q);
        }
        if (ts_tree_cursor_goto_first_child(&cur))
            continue;
        while (!ts_tree_cursor_goto_next_sibling(&cur))
            if (!ts_tree_cursor_goto_parent(&cur) ||
                ts_node_eq(ts_tree_cursor_current_node(&cur), stmt)) {
                more = false;
                break;
            }
    }
    ts_tree_cursor_delete(&cur);
    return ok;
}

/* The loads in n: one of ptr's own text, false (it reads the zeros);
 * the first of another pointer, in *loaded (it may overlap them). */
static bool harmless_value(const kctx *c, TSNode n, TSNode ptr, TSNode *loaded)
{
    if (ts_node_is_null(n))
        return true;
    if (al_node_is(n, "call")) {
        char *q = al_pymodule_resolve(c->m, al_node_field(n, "function"));
        bool load = q && !strcmp(q, "triton.language.load");
        free(q);
        if (load) {
            al_py_args a;
            al_py_args_read(n, &a);
            if (a.npos == 0 || al_py_same_text(c->pf, a.pos[0], ptr))
                return false;
            if (ts_node_is_null(*loaded))
                *loaded = a.pos[0];
        }
    }
    uint32_t k = ts_node_named_child_count(n);
    for (uint32_t i = 0; i < k; i++)
        if (!harmless_value(c, ts_node_named_child(n, i), ptr, loaded))
            return false;
    return true;
}

/* The statements of a loop body that bind a name expr reads, as text, in
 * order; false when one binds it otherwise than `name = ...`. */
static bool bindings_of(const kctx *c, TSNode body, TSNode expr, al_strlist *out)
{
    uint32_t k = ts_node_named_child_count(body);
    for (uint32_t i = 0; i < k; i++) {
        TSNode st = ts_node_named_child(body, i);
        al_strlist names = {0};
        al_py_bound_names(c->pf, st, &names);
        bool reads = false;
        for (size_t j = 0; j < names.n && !reads; j++)
            reads = al_py_count_ident(c->pf, expr, names.items[j]) > 0;
        al_strlist_free(&names);
        if (!reads)
            continue;
        TSNode a = al_node_is(st, "expression_statement") ? ts_node_named_child(st, 0) : (TSNode){0};
        if (!al_node_is(a, "assignment") || !al_node_is(al_node_field(a, "left"), "identifier"))
            return false;
        al_strlist_add(out, al_node_text_compact(c->pf, st));
    }
    return true;
}

/* Whether the names the pointers and masks read are bound alike in both
 * loop bodies (the same text then means the same addresses and lanes). */
static bool bound_alike(const kctx *c, TSNode b1, TSNode b2, TSNode expr)
{
    al_strlist x = {0}, y = {0};
    bool same = !ts_node_is_null(expr) && bindings_of(c, b1, expr, &x) && bindings_of(c, b2, expr, &y) &&
                x.n == y.n;
    for (size_t i = 0; same && i < x.n; i++)
        same = !strcmp(x.items[i], y.items[i]);
    al_strlist_free(&x);
    al_strlist_free(&y);
    return same || ts_node_is_null(expr);
}

/* A statement (or loop) made dead by `other`: deleted with its lines. */
static bool report_dead(kctx *c, tstore_kind kind, TSNode dead, TSNode other, TSNode loaded)
{
    size_t ds, de;
    if (!al_py_statement_lines(c->pf, dead, &ds, &de))
        return false;
    tstore f;
    memset(&f, 0, sizeof f);
    f.kind = kind;
    f.loaded = ts_node_is_null(loaded) ? NULL : al_node_text(c->pf, loaded);
    f.start = ts_node_start_byte(dead);
    f.end = ts_node_end_byte(dead);
    f.del_start = ds;
    f.del_end = de;
    f.row_other = al_node_row(other);
    report(c, &f);
    free(f.loaded);
    return true;
}

static void zero_acc(kctx *c, TSNode s1, TSNode s2)
{
    if (!al_node_is(s1, "expression_statement") || !al_node_is(s2, "expression_statement"))
        return;
    TSNode a1 = ts_node_named_child(s1, 0), a2 = ts_node_named_child(s2, 0);
    if (!al_node_is(a1, "assignment") || !al_node_is(a2, "augmented_assignment"))
        return;
    TSNode acc = al_node_field(a1, "left"), acc2 = al_node_field(a2, "left");
    if (!al_node_is(acc, "identifier") || !al_py_same_text(c->pf, acc, acc2) ||
        !al_node_text_eq(c->pf, al_node_field(a2, "operator"), "+="))
        return;
    TSNode z = al_node_field(a1, "right"), d = al_node_field(a2, "right");
    if (!al_node_is(z, "call") || !is_tl(c, al_node_field(z, "function"), "zeros") ||
        !al_node_is(d, "call") || !is_tl(c, al_node_field(d, "function"), "dot"))
        return;
    al_py_args za, da;
    al_py_args_read(z, &za);
    al_py_args_read(d, &da);
    TSNode dtype = za.npos > 1 ? za.pos[1] : al_py_kwarg(c->pf, &za, "dtype");
    char *accname = al_node_text(c->pf, acc);
    if (za.splat || da.splat || da.npos != 2 || ts_node_is_null(dtype) ||
        !ts_node_is_null(al_py_kwarg(c->pf, &da, "acc")) || al_py_count_ident(c->pf, d, accname)) {
        free(accname);
        return;
    }
    tstore f;
    memset(&f, 0, sizeof f);
    f.kind = TSTORE_ZERO_ACC;
    f.start = ts_node_start_byte(s1);
    f.end = ts_node_end_byte(s2);
    f.acc = accname;
    f.a = al_node_text(c->pf, da.pos[0]);
    f.b = al_node_text(c->pf, da.pos[1]);
    f.extra = al_py_kwargs_text(c->pf, &da, "out_dtype");
    f.dtype = al_node_text(c->pf, dtype);
    TSNode od = al_py_kwarg(c->pf, &da, "out_dtype");
    f.out_dtype_conflict = !ts_node_is_null(od) && !al_py_same_text(c->pf, od, dtype);
    f.out_dtype_same = !ts_node_is_null(od) && al_py_same_text(c->pf, od, dtype);
    f.row_other = al_node_row(s2);
    report(c, &f);
}

static void dead_zero_store(kctx *c, TSNode block, uint32_t i)
{
    TSNode s = ts_node_named_child(block, i), p, v, m;
    if (!tl_store(c, s, &p, &v, &m) || !zero_value(c, v))
        return;
    uint32_t k = ts_node_named_child_count(block);
    TSNode loaded = {0};
    for (uint32_t j = i + 1; j < k; j++) {
        TSNode t = ts_node_named_child(block, j), p2, v2, m2;
        if (al_node_is(t, "comment"))
            continue;
        if (tl_store(c, t, &p2, &v2, &m2) && al_py_same_text(c->pf, p, p2) &&
            al_py_same_text(c->pf, m, m2)) {
            /* What the overwrite stores is read before it writes. */
            if (!harmless_value(c, v2, p, &loaded))
                return;
            report_dead(c, TSTORE_DEAD_ZERO, s, t, loaded);
            return;
        }
        if (!harmless_between(c, t, p, m, &loaded))
            return;
    }
}

/* The zero stores of a loop body, and whether it holds anything else. */
static int zero_stores(kctx *c, TSNode body, TSNode *ptrs, TSNode *masks, int max, bool *only)
{
    int n = 0;
    *only = true;
    uint32_t k = ts_node_named_child_count(body);
    for (uint32_t i = 0; i < k; i++) {
        TSNode s = ts_node_named_child(body, i), p, v, m;
        if (al_node_is(s, "comment"))
            continue;
        if (tl_store(c, s, &p, &v, &m) && zero_value(c, v) && n < max) {
            ptrs[n] = p;
            masks[n++] = m;
        } else if (!(al_node_is(s, "expression_statement") &&
                     al_node_is(ts_node_named_child(s, 0), "assignment") &&
                     harmless_between(c, s, (TSNode){0}, (TSNode){0}, NULL))) {
            *only = false;
        }
    }
    return n;
}

/* Whether the loop body `body` stores to every pointer of the zero loop
 * `zeros` under the same mask, its names bound alike, and reads none of
 * them first; *loaded: a pointer it loads, which may overlap them. */
static bool stores_all(kctx *c, TSNode zeros, TSNode body, TSNode *ptrs, TSNode *masks, int n,
                       TSNode *loaded)
{
    for (int z = 0; z < n; z++) {
        bool found = false;
        uint32_t k = ts_node_named_child_count(body);
        for (uint32_t i = 0; i < k && !found; i++) {
            TSNode p, v, m;
            if (tl_store(c, ts_node_named_child(body, i), &p, &v, &m) &&
                al_py_same_text(c->pf, p, ptrs[z]) && al_py_same_text(c->pf, m, masks[z]))
                found = true;
        }
        if (!found || !harmless_value(c, body, ptrs[z], loaded) ||
            !bound_alike(c, zeros, body, ptrs[z]) || !bound_alike(c, zeros, body, masks[z]))
            return false;
    }
    return n > 0;
}

static bool same_header(const kctx *c, TSNode a, TSNode b)
{
    return al_py_same_text(c->pf, al_node_field(a, "left"), al_node_field(b, "left")) &&
           al_py_same_text(c->pf, al_node_field(a, "right"), al_node_field(b, "right"));
}

static void dead_zero_loops(kctx *c, TSNode block, uint32_t i)
{
    TSNode l1 = ts_node_named_child(block, i);
    if (!al_node_is(l1, "for_statement"))
        return;
    uint32_t k = ts_node_named_child_count(block);
    TSNode ptrs[16], masks[16];
    bool only;
    int n = zero_stores(c, al_node_field(l1, "body"), ptrs, masks, 16, &only);
    uint32_t next = al_py_next_statement(block, i);
    if (n > 0 && only && next < k) {
        /* Zeros first, then the same stores unconditionally: dead. */
        TSNode l2 = ts_node_named_child(block, next);
        TSNode loaded = {0};
        if (al_node_is(l2, "for_statement") && same_header(c, l1, l2) &&
            stores_all(c, al_node_field(l1, "body"), al_node_field(l2, "body"), ptrs, masks, n,
                       &loaded) &&
            report_dead(c, TSTORE_DEAD_LOOP, l1, l2, loaded))
            return;
    }
    /* A main loop, then `if not computed:` with a loop of zero stores to
     * the same pointers: redundant only if the main loop always runs. */
    for (uint32_t j = i + 1; j < k; j++) {
        TSNode s = ts_node_named_child(block, j);
        if (!al_node_is(s, "if_statement"))
            continue;
        TSNode body = al_node_field(s, "consequence");
        if (al_py_named_statements(body) != 1)
            continue;
        TSNode l2 = ts_node_named_child(body, 0);
        if (!al_node_is(l2, "for_statement") || !same_header(c, l1, l2))
            continue;
        int n2 = zero_stores(c, al_node_field(l2, "body"), ptrs, masks, 16, &only);
        TSNode alts[1];
        TSNode loaded = {0};
        if (n2 > 0 && only &&
            stores_all(c, al_node_field(l2, "body"), al_node_field(l1, "body"), ptrs, masks, n2,
                       &loaded) &&
            al_node_field_children(s, "alternative", alts, 1) == 0) {
            tstore f;
            memset(&f, 0, sizeof f);
            f.kind = TSTORE_GUARD_LOOP;
            f.start = ts_node_start_byte(s);
            f.end = ts_node_end_byte(s);
            f.row_other = al_node_row(l1);
            report(c, &f);
        }
    }
}

static void kernel_blocks(kctx *c, TSNode n, int depth)
{
    if (depth > 200)
        return;
    if (al_node_is(n, "block")) {
        uint32_t k = ts_node_named_child_count(n);
        for (uint32_t i = 0; i < k; i++) {
            TSNode s = ts_node_named_child(n, i);
            uint32_t j = al_py_next_statement(n, i);
            if (j < k)
                zero_acc(c, s, ts_node_named_child(n, j));
            dead_zero_store(c, n, i);
            dead_zero_loops(c, n, i);
        }
    }
    uint32_t k = ts_node_named_child_count(n);
    for (uint32_t i = 0; i < k; i++) {
        TSNode ch = ts_node_named_child(n, i);
        if (al_node_is(ch, "function_definition") || al_node_is(ch, "decorated_definition"))
            continue;
        kernel_blocks(c, ch, depth + 1);
    }
}

void al_rule_al104(const al_rule_input *in, al_findings *out)
{
    const char *tl = al_pymodule_alias_for(in->py, "triton.language");
    kctx c = {in->py, in->py->pf, tl ? tl : "triton.language", out};
    for (size_t i = 0; i < in->py->n_kernels; i++)
        kernel_blocks(&c, al_node_field(in->py->kernels[i], "body"), 0);
}
