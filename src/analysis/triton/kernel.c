#include "kernel.h"
#include "region.h"

#include "form.h"
#include "tiles.h"
#include "modes.h"

#include "../python/extent.h"
#include "../python/module.h"
#include "../python/values.h"
#include "../../front/python/syntax.h"
#include "../../base/util.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void set_why(al_kparam *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void set_why(al_kparam *p, const char *fmt, ...)
{
    al_strbuf sb = {0};
    va_list ap;
    va_start(ap, fmt);
    char buf[1600];
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    al_strbuf_puts(&sb, buf);
    free(p->why);
    p->why = al_strbuf_detach(&sb);
}

/* for v in range(0, N, B) — or the grid-stride range(pid * B, N,
 * num_programs * B), axis set: the bound N; false for any other loop. */
static bool block_loop(al_tf_kernel *k, TSNode loop, const char *block, al_tf_lin *bound, int *axis)
{
    TSNode it = al_node_field(loop, "right");
    if (!al_node_is(it, "call") || !al_node_text_eq(k->pf, al_node_field(it, "function"), "range"))
        return false;
    al_py_args a;
    al_py_args_read(it, &a);
    if (a.npos != 3 || a.nkw || a.splat)
        return false;
    al_tf_lin start = al_tf_form(k, a.pos[0], 0), step = al_tf_form(k, a.pos[2], 0);
    *bound = al_tf_form(k, a.pos[1], 0);
    *axis = -1;
    if (start.n == 0 && !start.data)
        return al_node_text_eq(k->pf, al_py_unparen(a.pos[2]), block);
    const char *bp = al_tf_factor(k, "P:%s", block);
    for (int ax = 0; ax < 3; ax++) {
        char pid[8], np[8];
        snprintf(pid, sizeof pid, "PID%d", ax);
        snprintf(np, sizeof np, "NPROG%d", ax);
        const char *pf = al_intern(&k->strs, pid, strlen(pid));
        const char *nf = al_intern(&k->strs, np, strlen(np));
        if (start.n == 1 && al_tf_find_term(&start, pf, bp) == 0 && step.n == 1 &&
            al_tf_find_term(&step, nf, bp) == 0) {
            *axis = ax;
            return true;
        }
    }
    return false;
}

/* Whether an expression's value depends on a program id. */
static bool uses_pid(al_tf_kernel *k, TSNode n)
{
    al_tf_lin l = al_tf_form(k, n, 0);
    for (int i = 0; i < l.n; i++)
        for (int j = 0; j < l.t[i].nf; j++)
            if (!strncmp(l.t[i].f[j], "PID", 3))
                return true;
    return false;
}

/* A condition that compares one program id's value with another's
 * (`i < j`, `i_t <= i_s`): a tile structure (a triangle, a diagonal)
 * that leaves some tiles to no program by construction, unlike a guard
 * against a bound (`pid >= n`), which only trims the grid. */
static bool compares_pids(al_tf_kernel *k, TSNode cond, int depth)
{
    cond = al_py_unparen(cond);
    if (depth > 8 || ts_node_is_null(cond))
        return false;
    if (al_node_is(cond, "boolean_operator") || al_node_is(cond, "not_operator") ||
        (al_node_is(cond, "binary_operator") &&
         (al_node_text_eq(k->pf, al_node_field(cond, "operator"), "&") ||
          al_node_text_eq(k->pf, al_node_field(cond, "operator"), "|")))) {
        uint32_t m = ts_node_named_child_count(cond);
        for (uint32_t i = 0; i < m; i++)
            if (compares_pids(k, ts_node_named_child(cond, i), depth + 1))
                return true;
        return false;
    }
    if (!al_node_is(cond, "comparison_operator") || ts_node_named_child_count(cond) != 2)
        return false;
    return uses_pid(k, ts_node_named_child(cond, 0)) && uses_pid(k, ts_node_named_child(cond, 1));
}

/* What a condition around a store or an exit says of the elements left:
 * 3 the data chooses them (it reads memory), 2 the launch's mode does (it
 * is made of constexpr parameters alone), 1 a tile structure leaves them
 * (it compares program ids), 0 anything else (a guard, a flag). */
static int condition_rank(al_tf_kernel *k, TSNode cond)
{
    bool any = false;
    /* The data outranks the mode: `if IS_FP8:` around `if expert >= 0:`
     * is the data's choice whichever mode runs. */
    return al_tf_has_load(k, cond, 0)                         ? 3
           : compares_pids(k, cond, 0)                        ? 1
           : al_tf_mode_condition(k, cond, 0, &any) && any    ? 2
                                                              : 0;
}

static al_effect effect_of_rank(int rank)
{
    return rank >= 2 ? AL_EFFECT_SKIPS : rank == 1 ? AL_EFFECT_WRITES_PART : AL_EFFECT_WRITES_SOME;
}

/* `for j in range(..., f(pid))`: a loop whose end depends on the program
 * id (the lower triangle of a tiled solve). A grid-stride loop starts at
 * the program id and ends at a bound, and is not one. */
static bool triangular_loop(al_tf_kernel *k, TSNode loop)
{
    TSNode it = al_py_unparen(al_node_field(loop, "right"));
    if (!al_node_is(it, "call"))
        return false;
    TSNode fn = al_node_field(it, "function");
    if (!al_node_text_eq(k->pf, fn, "range") && !al_tf_is_tl(k, fn, "range"))
        return false;
    al_py_args a;
    al_py_args_read(it, &a);
    if (a.npos == 0)
        return false;
    return uses_pid(k, a.pos[a.npos == 1 ? 0 : 1]);
}

/* `for v in range(a, b, ...)` whose start `a` is read from memory. */
static bool loaded_start(al_tf_kernel *k, TSNode loop)
{
    TSNode it = al_py_unparen(al_node_field(loop, "right"));
    if (!al_node_is(it, "call"))
        return false;
    al_py_args a;
    al_py_args_read(it, &a);
    if (a.npos < 2)
        return false;
    if (al_tf_has_load(k, a.pos[0], 0))
        return true;
    TSNode v = al_node_is(a.pos[0], "identifier") ? al_tf_value_before(k, a.pos[0], loop)
                                                  : (TSNode){0};
    return !ts_node_is_null(v) && al_tf_has_load(k, v, 0);
}

/* The one structure a store may sit in: loops over blocks whose variable
 * its offsets use. Any other (a condition, a loop from a loaded start or
 * up to the program id, a while loop) decides the parameter's effect and
 * reason: true when none does. Every enclosing structure is read and the
 * strongest reason kept: a branch on loaded data anywhere around the
 * store (outside a `if IS_FP8:` on a constexpr too) makes the data
 * choose. */
static bool store_context(al_tf_kernel *k, TSNode store, al_kparam *p)
{
    int best = -1;
    for (TSNode n = ts_node_parent(store); !ts_node_is_null(n) && !ts_node_eq(n, k->def);
         n = ts_node_parent(n)) {
        int rank;
        char *c = NULL;
        if (al_node_is(n, "if_statement") || al_node_is(n, "elif_clause") ||
            al_node_is(n, "else_clause")) {
            TSNode cond = al_node_field(al_node_is(n, "else_clause") ? ts_node_parent(n) : n,
                                        "condition");
            rank = condition_rank(k, cond);
            if (rank <= best)
                continue;
            c = al_node_text_compact(k->pf, cond);
            if (rank == 2)
                set_why(p, "stores only when `%s`, a mode its launch chooses (constexpr): "
                           "launched in another mode it leaves the buffer as it was, which "
                           "the caller may read", c);
            else if (rank == 3)
                set_why(p, "stores only when `%s`, which depends on loaded data: the elements "
                           "it leaves keep the fill by design", c);
            else if (rank == 1)
                set_why(p, "stores only when `%s`, which compares program ids: the tiles "
                           "where it fails are left to no program", c);
            else
                set_why(p, "stores only when `%s`", c);
        } else if (al_node_is(n, "while_statement")) {
            rank = 0;
            if (rank <= best)
                continue;
            set_why(p, "stores inside a while loop");
        } else if (al_node_is(n, "for_statement")) {
            /* `for i in range(start, end, B)` with the start loaded (a
             * cumsum's entries): the data sets where the stores reach. A
             * loop over the blocks of a loaded length from 0 is a
             * segment's, which cover_of_store judges. */
            if (al_tf_loaded_trip(k, n)) {
                if (3 <= best)
                    continue;
                c = al_node_text_compact(k->pf, al_node_field(n, "right"));
                set_why(p, "stores in a loop over `%s`, whose trip count is read from memory: "
                           "where it runs no pass the elements keep the fill by design", c);
                free(c);
                best = 3;
                continue;
            }
            bool data = loaded_start(k, n);
            if (!data && !triangular_loop(k, n))
                continue;
            rank = data ? 3 : 1;
            if (rank <= best)
                continue;
            c = al_node_text_compact(k->pf, al_node_field(n, "right"));
            if (data)
                set_why(p, "stores in a loop over `%s`, whose bounds are read from memory: the "
                           "elements past them keep the fill by design", c);
            else
                set_why(p, "stores in a loop over `%s`, bounded by the program id: the tiles "
                           "past the bound are left to no program", c);
        } else {
            continue;
        }
        free(c);
        best = rank;
    }
    if (best >= 0)
        p->effect = effect_of_rank(best);
    return best < 0;
}

/* The exits (return, break, continue) of the kernel, but a last
 * top-level return, which ends it anyway. */
static void find_exits(al_tf_kernel *k, TSNode n, TSNode *exits, size_t *nexits, size_t max, int depth)
{
    if (depth > 200 || *nexits >= max)
        return;
    if (depth > 0 && (al_node_is(n, "function_definition") || al_node_is(n, "lambda")))
        return;
    if (al_node_is(n, "return_statement") || al_node_is(n, "break_statement") ||
        al_node_is(n, "continue_statement")) {
        TSNode body = al_node_field(k->def, "body");
        bool last = ts_node_eq(ts_node_parent(n), body) &&
                    ts_node_eq(n, ts_node_named_child(body, ts_node_named_child_count(body) - 1));
        if (!last)
            exits[(*nexits)++] = n;
    }
    uint32_t m = ts_node_named_child_count(n);
    for (uint32_t i = 0; i < m; i++)
        find_exits(k, ts_node_named_child(n, i), exits, nexits, max, depth + 1);
}

/* The strongest condition an exit sits under (condition_rank), and that
 * condition (the innermost of that rank); -1 and a null node when it sits
 * under none. */
static int exit_condition(al_tf_kernel *k, TSNode exit, TSNode *cond_out)
{
    int best = -1;
    for (TSNode q = ts_node_parent(exit); !ts_node_is_null(q) && !ts_node_eq(q, k->def);
         q = ts_node_parent(q)) {
        if (!al_node_is(q, "if_statement") && !al_node_is(q, "elif_clause") &&
            !al_node_is(q, "while_statement"))
            continue;
        TSNode cond = al_node_field(q, "condition");
        int rank = condition_rank(k, cond);
        if (rank > best) {
            best = rank;
            *cond_out = cond;
        }
    }
    return best;
}

/* The exits before a store decide it: one taken on loaded data or on a
 * constexpr mode may skip it (SKIPS), one on a comparison of program ids
 * leaves tiles out by construction (WRITES_PART), any other may
 * (WRITES_SOME). False when the kernel has no exit. */
static bool exit_verdict(al_tf_kernel *k, TSNode *exits, size_t nexits, al_kparam *p)
{
    if (!nexits)
        return false;
    /* The strongest reason wins: data, then tiles, then the first exit. */
    int best = -1;
    size_t pick = 0;
    TSNode cond = {0};
    for (size_t e = 0; e < nexits && best < 3; e++) {
        TSNode c = {0};
        int rank = exit_condition(k, exits[e], &c);
        if (rank < 0)
            rank = 0;
        if (rank > best) {
            best = rank;
            pick = e;
            cond = c;
        }
    }
    p->effect = effect_of_rank(best);
    char *c = ts_node_is_null(cond) ? al_xstrdup("...") : al_node_text_compact(k->pf, cond);
    if (best == 3)
        set_why(p, "exits early when `%s`, which depends on loaded data: the elements it "
                   "skips keep the fill by design", c);
    else if (best == 2)
        set_why(p, "exits early when `%s`, a mode its launch chooses (constexpr): launched "
                   "in that mode it leaves the buffer as it was, which the caller may read", c);
    else if (best == 1)
        set_why(p, "exits early when `%s`, which compares program ids: those programs' tiles "
                   "are left unwritten by construction", c);
    else
        set_why(p, "exits early when `%s`", c);
    p->row = al_node_row(exits[pick]);
    free(c);
    return true;
}

static const char *param_of_factor(const char *f)
{
    return !strncmp(f, "P:", 2) ? f + 2 : NULL;
}

/* A store that leaves elements out by its form, not for want of a proof:
 * a constant offset (`P + 1 + offs`), a stride (`P + 2 * offs`), or a
 * mask with a lower bound on the offsets (`offs >= start`). */
static void provable_gap(al_tf_kernel *k, const al_tf_lin *off, TSNode mask, const char *ptext, al_kparam *p)
{
    for (int i = 0; i < off->n; i++) {
        const al_tf_term *t = &off->t[i];
        if (t->nf == 0 && t->coef > 0) {
            p->effect = AL_EFFECT_WRITES_PART;
            set_why(p, "stores `%s`, %ld element%s past the start: the first keep their values",
                    ptext, t->coef, t->coef == 1 ? "" : "s");
            return;
        }
        if (t->nf == 1 && !strncmp(t->f[0], "AR(", 3) && t->coef >= 2) {
            p->effect = AL_EFFECT_WRITES_PART;
            set_why(p, "stores `%s`, one element in %ld only", ptext, t->coef);
            return;
        }
    }
    mask = al_py_unparen(mask);
    if (!al_node_is(mask, "binary_operator") ||
        !al_node_text_eq(k->pf, al_node_field(mask, "operator"), "&"))
        return;
    TSNode sides[2] = {al_py_unparen(al_node_field(mask, "left")),
                       al_py_unparen(al_node_field(mask, "right"))};
    for (int s = 0; s < 2; s++) {
        TSNode c = sides[s];
        if (!al_node_is(c, "comparison_operator") || ts_node_named_child_count(c) != 2)
            continue;
        const char *op = NULL;
        for (uint32_t i = 0; i < ts_node_child_count(c); i++)
            if (!ts_node_is_named(ts_node_child(c, i)))
                op = ts_node_type(ts_node_child(c, i));
        TSNode l = ts_node_named_child(c, 0), r = ts_node_named_child(c, 1);
        TSNode offs = op && (!strcmp(op, ">=") || !strcmp(op, ">"))   ? l
                      : op && (!strcmp(op, "<=") || !strcmp(op, "<")) ? r
                                                                       : (TSNode){0};
        if (ts_node_is_null(offs))
            continue;
        al_tf_lin o = al_tf_form(k, offs, 0);
        if (!al_tf_lin_eq(&o, off))
            continue;
        char *bound = al_node_text_compact(k->pf, al_py_node_eq(offs, l) ? r : l);
        p->effect = AL_EFFECT_WRITES_PART;
        set_why(p, "stores `%s` only at offsets from `%s` on: the ones below keep their values",
                ptext, bound);
        free(bound);
        return;
    }
}

/* A per-program load `LD(P@PIDa+c)` (form.c): its parameter, axis and
 * offset; false for any other factor. */
static bool loaded_at(const al_tf_kernel *k, const char *f, int *param, int *axis, long *plus)
{
    if (strncmp(f, "LD(", 3))
        return false;
    const char *at = strrchr(f, '@');
    if (!at || strncmp(at, "@PID", 4))
        return false;
    *param = al_tf_param_index(k, f + 3, (size_t)(at - f - 3));
    char *end = NULL;
    *axis = (int)strtol(at + 4, &end, 10);
    if (*param < 0 || !end || *end != '+')
        return false;
    *plus = strtol(end + 1, NULL, 10);
    return true;
}

/* The constant of a form, and the form without it. */
static long take_constant(al_tf_lin *l)
{
    for (int i = 0; i < l->n; i++)
        if (l->t[i].nf == 0) {
            long c = l->t[i].coef;
            *l = al_tf_without_term(*l, i);
            return c;
        }
    return 0;
}

/* Whether `for v in range(...)` steps over every block of the bound
 * (form `len`) with offsets `v * BLOCK + arange`: range(cdiv(n, B)),
 * range(0, cdiv(n, B)) or range((n + B - 1) // B), B spelled as the
 * arange's block. */
static bool blocks_of_bound(al_tf_kernel *k, TSNode loop, const char *block, const al_tf_lin *len)
{
    TSNode it = al_node_field(loop, "right");
    if (!al_node_is(it, "call") || !al_node_text_eq(k->pf, al_node_field(it, "function"), "range"))
        return false;
    al_py_args a;
    al_py_args_read(it, &a);
    if (a.nkw || a.splat || a.npos < 1 || a.npos > 2 ||
        (a.npos == 2 && !al_node_text_eq(k->pf, al_py_unparen(a.pos[0]), "0")))
        return false;
    TSNode n = al_py_unparen(a.pos[a.npos - 1]), x = {0}, b = {0};
    if (al_node_is(n, "call") && al_py_last_name_is(k->pf, al_node_field(n, "function"), "cdiv")) {
        al_py_args c;
        al_py_args_read(n, &c);
        if (c.npos != 2 || c.nkw)
            return false;
        x = c.pos[0];
        b = c.pos[1];
    } else if (al_node_is(n, "binary_operator") &&
               al_node_text_eq(k->pf, al_node_field(n, "operator"), "//")) {
        b = al_node_field(n, "right");
        al_tf_lin top = al_tf_form(k, al_node_field(n, "left"), 0);
        al_tf_lin want = *len;
        al_tf_lin bl = al_tf_form(k, b, 0);
        want = al_tf_sum(want, &bl, 1);
        al_tf_lin one = {false, 1, {{1, 0, {NULL}}}};
        want = al_tf_sum(want, &one, -1);
        if (!al_tf_lin_eq(&top, &want))
            return false;
    } else {
        return false;
    }
    if (!al_node_text_eq(k->pf, al_py_unparen(b), block))
        return false;
    if (!ts_node_is_null(x)) {
        al_tf_lin xl = al_tf_form(k, x, 0);
        if (!al_tf_lin_eq(&xl, len))
            return false;
    }
    return true;
}

/* Segments: off = LD(S@PIDa+0) + offs with mask `offs < n`, n =
 * LD(L@PIDa+0) or LD(S@PIDa+1) - LD(S@PIDa+0), offs stepping over every
 * block of n. True when the store has that shape (p's cover and effect
 * set: the cover, or a part left out by a constant in the start or the
 * bound). */
static bool segment_cover(al_tf_kernel *k, const al_tf_lin *off, TSNode mask, const char *ptext,
                          al_kparam *p)
{
    int si = -1, start = -1, axis = -1;
    for (int i = 0; i < off->n; i++) {
        int param, ax;
        long plus;
        if (off->t[i].nf == 1 && off->t[i].coef == 1 &&
            loaded_at(k, off->t[i].f[0], &param, &ax, &plus) && plus == 0) {
            if (si >= 0)
                return false;
            si = i;
            start = param;
            axis = ax;
        }
    }
    al_tf_lin lhs, rhs;
    if (si < 0 || ts_node_is_null(mask) || !al_tf_bound_of(k, mask, &lhs, &rhs))
        return false;
    al_tf_lin offs = al_tf_without_term(*off, si);
    long skip = take_constant(&offs);
    /* The mask may compare the offsets with or without the start. */
    al_tf_lin start_only = al_tf_single(k, off->t[si].f[0], true);
    if (al_tf_find_term(&lhs, off->t[si].f[0], NULL) >= 0) {
        lhs = al_tf_sum(lhs, &start_only, -1);
        rhs = al_tf_sum(rhs, &start_only, -1);
    }
    take_constant(&lhs);
    long shortfall = -take_constant(&rhs);
    if (!al_tf_lin_eq(&lhs, &offs))
        return false;
    /* The length: one per-program load of another parameter, or the
     * difference of the starts. */
    int len_param = -1;
    if (rhs.n == 1 && rhs.t[0].nf == 1 && rhs.t[0].coef == 1) {
        int param, ax;
        long plus;
        if (!loaded_at(k, rhs.t[0].f[0], &param, &ax, &plus) || ax != axis || plus != 0 || param == start)
            return false;
        len_param = param;
    } else if (rhs.n == 2) {
        for (int i = 0; i < 2; i++) {
            int param, ax;
            long plus;
            if (rhs.t[i].nf != 1 || !loaded_at(k, rhs.t[i].f[0], &param, &ax, &plus) ||
                param != start || ax != axis || rhs.t[i].coef != (plus == 1 ? 1 : -1))
                return false;
        }
    } else {
        return false;
    }
    /* offs = arange(B) + v (range(0, n, B)) or arange(B) + v * B. */
    int ai = -1;
    for (int i = 0; i < offs.n; i++)
        if (offs.t[i].nf == 1 && offs.t[i].coef == 1 && !strncmp(offs.t[i].f[0], "AR(", 3) &&
            !strchr(offs.t[i].f[0], '@'))
            ai = i;
    if (ai < 0 || offs.n != 2)
        return false;
    const char *ar = offs.t[ai].f[0];
    char block[200];
    snprintf(block, sizeof block, "%.*s", (int)(strlen(ar) - 4), ar + 3);
    const al_tf_term *step = &offs.t[1 - ai];
    const char *var = NULL;
    bool scaled;
    long bv = 0;
    bool numeric = sscanf(block, "%ld", &bv) == 1;
    const char *bp = al_tf_factor(k, "P:%s", block);
    if (step->nf == 1 && step->coef == 1) {
        var = step->f[0];
        scaled = false;
    } else if (step->nf == 2 && step->coef == 1 && (step->f[0] == bp || step->f[1] == bp)) {
        var = step->f[0] == bp ? step->f[1] : step->f[0];
        scaled = true;
    } else if (step->nf == 1 && numeric && step->coef == bv) {
        var = step->f[0];
        scaled = true;
    } else {
        return false;
    }
    int li = al_tf_local_of(k, var, strlen(var));
    if (li < 0 || ts_node_is_null(k->local_loops[li]) || k->local_counts[li] != 1)
        return false;
    al_tf_lin len = rhs;
    if (scaled) {
        if (!blocks_of_bound(k, k->local_loops[li], block, &len))
            return false;
    } else {
        al_tf_lin bound;
        int ax;
        if (!block_loop(k, k->local_loops[li], block, &bound, &ax) || ax >= 0 ||
            !al_tf_lin_eq(&bound, &len))
            return false;
    }
    if (skip > 0 || shortfall > 0) {
        p->effect = AL_EFFECT_WRITES_PART;
        if (skip > 0)
            set_why(p, "stores `%s` from %ld element%s past each segment's start: the first "
                       "keep their values", ptext, skip, skip == 1 ? "" : "s");
        else
            set_why(p, "stores %ld element%s fewer than each segment's length: the last keep "
                       "their values", shortfall, shortfall == 1 ? "" : "s");
        return true;
    }
    if (skip < 0 || shortfall < 0)
        return false;
    p->cover = AL_TCOVER_SEGMENT;
    p->axis = axis;
    p->seg_start = start;
    p->seg_len = len_param;
    p->n = start;
    return true;
}

/* The cover a single, unconditional store proves, or why it does not. */
static void cover_of_store(al_tf_kernel *k, TSNode call, al_kparam *p)
{
    al_py_args a;
    al_py_args_read(call, &a);
    TSNode ptr = a.npos > 0 ? a.pos[0] : al_py_kwarg(k->pf, &a, "pointer");
    TSNode mask = a.npos > 2 ? a.pos[2] : al_py_kwarg(k->pf, &a, "mask");
    al_tf_lin pl = al_tf_form(k, ptr, 0);
    int bt = -1;
    al_tf_base_param(k, &pl, &bt);
    al_tf_lin off = al_tf_without_term(pl, bt);
    char *ptext = al_node_text_compact(k->pf, ptr);
    TSNode shown = al_tf_through_locals(k, mask);
    char *mtext = ts_node_is_null(mask) ? al_xstrdup("(none)") : al_node_text_compact(k->pf, shown);
    p->effect = AL_EFFECT_WRITES_SOME;
    set_why(p, "stores `%s` under mask `%s`; could not prove the stores cover the buffer", ptext,
            mtext);
    al_tf_lin lhs, rhs;
    if (off.data && segment_cover(k, &off, mask, ptext, p)) {
        if (p->effect == AL_EFFECT_WRITES_PART) {
            free(ptext);
            free(mtext);
            return;
        }
    } else if (!ts_node_is_null(mask) && al_tf_has_load(k, mask, 0)) {
        /* A mask computed from loaded values writes the elements the data
         * selects: the others keep the fill, which is their default. */
        p->effect = AL_EFFECT_SKIPS;
        set_why(p, "stores `%s` only where `%s`, which depends on loaded data: the elements "
                   "it leaves keep the fill by design", ptext, mtext);
    } else if (off.data) {
        /* Offsets read from memory (a compaction, a scatter): which
         * elements are written is decided by the data. */
        p->effect = AL_EFFECT_SKIPS;
        set_why(p, "stores `%s` at offsets read from memory: which elements it writes depends "
                   "on the data, and the others keep the fill", ptext);
    } else if (!ts_node_is_null(mask) && al_tf_bound_of(k, mask, &lhs, &rhs) && al_tf_lone_param(k, &rhs) >= 0) {
        int n = al_tf_lone_param(k, &rhs);
        /* Which arange, on which axis: find an AR factor in off. */
        for (int i = 0; i < off.n && p->cover == AL_TCOVER_NONE; i++) {
            if (off.t[i].nf != 1 || off.t[i].coef != 1 || strncmp(off.t[i].f[0], "AR(", 3) ||
                strchr(off.t[i].f[0], '@'))
                continue;
            const char *ar = off.t[i].f[0];
            char block[200];
            snprintf(block, sizeof block, "%.*s", (int)(strlen(ar) - 4), ar + 3);
            const char *bp = al_tf_factor(k, "P:%s", block);
            al_tf_lin rest = al_tf_without_term(off, i);
            bool block_is_param = al_tf_param_index(k, block, strlen(block)) >= 0;
            /* grid blocks: off = pid * BLOCK + arange(BLOCK), mask off < n */
            for (int ax = 0; ax < 3 && rest.n == 1 && al_tf_lin_eq(&lhs, &off); ax++) {
                char pid[8];
                snprintf(pid, sizeof pid, "PID%d", ax);
                const char *pf = al_intern(&k->strs, pid, strlen(pid));
                long bv;
                bool const_block = !block_is_param && sscanf(block, "%ld", &bv) == 1;
                if ((block_is_param && al_tf_find_term(&rest, pf, bp) == 0) ||
                    (const_block && rest.t[0].nf == 1 && rest.t[0].f[0] == pf && rest.t[0].coef == bv)) {
                    p->cover = AL_TCOVER_GRID;
                    p->axis = ax;
                    p->n = n;
                    p->block = block_is_param ? al_tf_param_index(k, block, strlen(block)) : -1;
                    p->block_text = al_xstrdup(block);
                }
            }
            /* a loop over blocks: off = start + arange(BLOCK) */
            if (p->cover == AL_TCOVER_NONE && rest.n == 1 && rest.t[0].nf == 1 &&
                rest.t[0].coef == 1 && al_tf_lin_eq(&lhs, &off)) {
                size_t vl = strlen(rest.t[0].f[0]);
                int li = al_tf_local_of(k, rest.t[0].f[0], vl);
                al_tf_lin bound;
                int axis;
                if (li >= 0 && !ts_node_is_null(k->local_loops[li]) &&
                    block_loop(k, k->local_loops[li], block, &bound, &axis) &&
                    al_tf_lin_eq(&bound, &rhs)) {
                    p->cover = AL_TCOVER_LOOP;
                    p->n = n;
                }
            }
            /* rows: off = pid * stride + arange(BLOCK_N) (+ a column loop), mask cols < n */
            for (int ax = 0; ax < 3 && p->cover == AL_TCOVER_NONE; ax++) {
                char pid[8];
                snprintf(pid, sizeof pid, "PID%d", ax);
                const char *pf = al_intern(&k->strs, pid, strlen(pid));
                for (int j = 0; j < rest.n; j++) {
                    const al_tf_term *t = &rest.t[j];
                    if (t->coef != 1 || t->nf != 2)
                        continue;
                    const char *other = t->f[0] == pf ? t->f[1] : t->f[1] == pf ? t->f[0] : NULL;
                    const char *sp = other ? param_of_factor(other) : NULL;
                    if (!sp)
                        continue;
                    al_tf_lin cols = al_tf_without_term(rest, j);
                    al_tf_lin ar_only = al_tf_single(k, ar, false);
                    cols = al_tf_sum(cols, &ar_only, 1);
                    if (!al_tf_lin_eq(&lhs, &cols))
                        continue;
                    bool loop = cols.n == 2;
                    if (loop) {
                        int ci = cols.t[0].f[0] == ar ? 1 : 0;
                        int li = cols.t[ci].nf == 1 ? al_tf_local_of(k, cols.t[ci].f[0], strlen(cols.t[ci].f[0])) : -1;
                        al_tf_lin bound;
                        int axis;
                        if (li < 0 || ts_node_is_null(k->local_loops[li]) ||
                            !block_loop(k, k->local_loops[li], block, &bound, &axis) || axis >= 0 ||
                            !al_tf_lin_eq(&bound, &rhs))
                            continue;
                    } else if (cols.n != 1 || !block_is_param) {
                        continue;
                    }
                    p->cover = AL_TCOVER_ROWS;
                    p->axis = ax;
                    p->n = n;
                    p->stride = al_tf_param_index(k, sp, strlen(sp));
                    p->block_cols = loop ? -1 : al_tf_param_index(k, block, strlen(block));
                    break;
                }
            }
        }
    }
    if (p->cover == AL_TCOVER_NONE)
        al_tf_tile_cover(k, call, off, mask, p);
    if (p->cover == AL_TCOVER_NONE && !off.data)
        provable_gap(k, &off, shown, ptext, p);
    if (p->cover == AL_TCOVER_TILES) {
        p->effect = AL_EFFECT_WRITES_ALL;
        char *dims = al_tf_describe_tiles(k, p);
        set_why(p, "stores `%s` under mask `%s`, one tile per program: %s", ptext, mtext, dims);
        free(dims);
    } else if (p->cover != AL_TCOVER_NONE) {
        p->effect = AL_EFFECT_WRITES_ALL;
        set_why(p, "stores `%s` under mask `%s`: %s", ptext, mtext,
                p->cover == AL_TCOVER_GRID      ? "one block of the bound per program"
                : p->cover == AL_TCOVER_LOOP    ? "every block of the bound, in a loop"
                : p->cover == AL_TCOVER_SEGMENT ? "one segment per program, every block of its length"
                                                : "one row per program, every column");
    }
    free(ptext);
    free(mtext);
}

typedef struct {
    int stores, atomics, loads, other, block_stores;
    TSNode store, first;
    TSNode data_store; /* a store whose mask or offsets are read from memory */
} uses_of;

/* The parameter a block pointer is made from: `p = tl.make_block_ptr(P,
 * ...)` (a local assigned once), or -1. */
static int block_base(al_tf_kernel *k, TSNode ptr)
{
    ptr = al_py_unparen(ptr);
    if (al_node_is(ptr, "identifier")) {
        size_t len;
        const char *p = al_node_ptr(k->pf, ptr, &len);
        int li = al_tf_local_of(k, p, len);
        if (li < 0 || k->local_counts[li] != 1 || ts_node_is_null(k->local_values[li]))
            return -1;
        ptr = al_py_unparen(k->local_values[li]);
    }
    if (!al_node_is(ptr, "call") || !al_tf_is_tl(k, al_node_field(ptr, "function"), "make_block_ptr"))
        return -1;
    al_py_args a;
    al_py_args_read(ptr, &a);
    TSNode base = a.npos > 0 ? a.pos[0] : al_py_kwarg(k->pf, &a, "base");
    if (ts_node_is_null(base))
        return -1;
    al_tf_lin l = al_tf_form(k, base, 0);
    int bt;
    return al_tf_base_param(k, &l, &bt);
}

static bool builtin_of_numbers(const al_tf_kernel *k, TSNode fn)
{
    static const char *const names[] = {"range", "min", "max", "len", "int", "float", NULL};
    size_t len;
    const char *p = al_node_ptr(k->pf, fn, &len);
    return al_str_in_list(names, p, len);
}

/* Every call in the kernel that touches a parameter's memory. */
static void scan_calls(al_tf_kernel *k, TSNode n, uses_of *u, int depth)
{
    if (depth > 200)
        return;
    if (depth > 0 && (al_node_is(n, "function_definition") || al_node_is(n, "lambda")))
        return;
    if (al_node_is(n, "call")) {
        TSNode fn = al_node_field(n, "function");
        al_py_args a;
        al_py_args_read(n, &a);
        const char *kind = NULL;
        if (al_tf_is_tl(k, fn, "store"))
            kind = "store";
        else if (al_tf_is_tl(k, fn, "load"))
            kind = "load";
        else if (al_node_is(fn, "identifier") && builtin_of_numbers(k, fn))
            kind = NULL; /* `range(0, N)` takes a number, not memory */
        else {
            char *q = al_tf_resolve_tl(k, fn);
            if (q && al_str_starts_with(q, "triton.language.atomic_"))
                kind = "atomic";
            else if (!q || !al_str_starts_with(q, "triton.language."))
                kind = "call";
            free(q);
        }
        /* Through a block pointer: attributed to the parameter it wraps. */
        int bb = -1;
        if (kind && (!strcmp(kind, "store") || !strcmp(kind, "load") || !strcmp(kind, "atomic")) &&
            a.npos > 0 && (bb = block_base(k, a.pos[0])) >= 0) {
            uses_of *x = &u[bb];
            if (!strcmp(kind, "store"))
                x->block_stores++;
            else if (!strcmp(kind, "load"))
                x->loads++;
            else
                x->atomics++;
            if (ts_node_is_null(x->first))
                x->first = n;
            kind = NULL;
        }
        if (kind) {
            int nargs = !strcmp(kind, "call") ? a.nall : (a.npos > 0 ? 1 : 0);
            for (int i = 0; i < nargs; i++) {
                TSNode arg = !strcmp(kind, "call") ? a.all[i] : a.pos[0];
                if (al_node_is(arg, "keyword_argument"))
                    arg = al_node_field(arg, "value");
                al_tf_lin l = al_tf_form(k, arg, 0);
                int bt;
                for (size_t pi = 0; pi < k->nparams; pi++) {
                    int base = al_tf_base_param(k, &l, &bt);
                    if (base != (int)pi)
                        continue;
                    uses_of *x = &u[pi];
                    if (!strcmp(kind, "store")) {
                        x->stores++;
                        x->store = n;
                        TSNode mask = a.npos > 2 ? a.pos[2] : al_py_kwarg(k->pf, &a, "mask");
                        if (ts_node_is_null(x->data_store) &&
                            (l.data || (!ts_node_is_null(mask) && al_tf_has_load(k, mask, 0))))
                            x->data_store = n;
                    } else if (!strcmp(kind, "load")) {
                        x->loads++;
                    } else if (!strcmp(kind, "atomic")) {
                        x->atomics++;
                    } else {
                        x->other++;
                    }
                    if (ts_node_is_null(x->first))
                        x->first = n;
                }
            }
        }
    }
    uint32_t m = ts_node_named_child_count(n);
    for (uint32_t i = 0; i < m; i++)
        scan_calls(k, ts_node_named_child(n, i), u, depth + 1);
}

/* The parameters by position, as callers bind them: comments between
 * them (`out_ptr,  # [batch, len]`) are not parameters. */
static void read_params(al_tf_kernel *k)
{
    al_strlist names = {0};
    al_py_param_names(k->pf, k->def, &names);
    for (size_t i = 0; i < names.n; i++) {
        AL_PUSH(k->params, k->nparams, k->capparams, names.items[i]);
        names.items[i] = NULL;
    }
    al_strlist_free(&names);
}

void al_triton_summarise(const al_pyfile *pf, const al_pymodule *mod, TSNode def, al_kernel *out)
{
    memset(out, 0, sizeof *out);
    al_tf_kernel k;
    memset(&k, 0, sizeof k);
    k.pf = pf;
    k.mod = mod;
    k.def = def;
    read_params(&k);
    k.bumps = al_xcalloc(k.nparams ? k.nparams : 1, sizeof(TSNode));
    k.bumped_twice = al_xcalloc(k.nparams ? k.nparams : 1, sizeof(bool));
    TSNode body = al_node_field(def, "body");
    al_tf_collect_locals(&k, body, 0);
    uses_of *u = al_xcalloc(k.nparams ? k.nparams : 1, sizeof *u);
    signed char *want = al_xcalloc(k.nparams ? k.nparams : 1, sizeof *want);
    scan_calls(&k, body, u, 0);
    TSNode exits[32];
    size_t nexits = 0;
    find_exits(&k, body, exits, &nexits, 32, 0);
    out->n = k.nparams;
    out->names = k.params;
    out->params = al_xcalloc(k.nparams ? k.nparams : 1, sizeof *out->params);
    for (size_t i = 0; i < k.nparams; i++) {
        al_kparam *p = &out->params[i];
        p->block = p->stride = p->block_cols = p->n = p->seg_start = p->seg_len = -1;
        uses_of *x = &u[i];
        TSNode at = ts_node_is_null(x->first) ? def : x->first;
        p->row = al_node_row(at);
        p->stored = x->stores || x->atomics || x->other || x->block_stores;
        size_t len;
        const char *pname = k.params[i];
        int li = al_tf_local_of(&k, pname, strlen(pname));
        (void)len;
        if (x->atomics) {
            p->effect = AL_EFFECT_ACCUMULATES;
            set_why(p, "updates `%s` with atomics", pname);
        } else if (x->loads) {
            p->effect = AL_EFFECT_READS;
            set_why(p, "loads from `%s`", pname);
        } else if (x->other) {
            p->effect = AL_EFFECT_UNKNOWN;
            set_why(p, "hands `%s` to a call it does not follow", pname);
        } else if (x->block_stores) {
            p->effect = AL_EFFECT_WRITES_SOME;
            set_why(p, "stores through a block pointer (`tl.make_block_ptr`) on `%s`; its "
                       "tiles' coverage is not proved", pname);
            if (!exit_verdict(&k, exits, nexits, p) && store_context(&k, x->first, p) &&
                x->block_stores == 1 && !x->stores && al_tf_block_tile_cover(&k, x->first, p)) {
                p->effect = AL_EFFECT_WRITES_ALL;
                p->row = al_node_row(x->first);
                char *dims = al_tf_describe_tiles(&k, p);
                set_why(p, "stores through the block pointer on `%s`, one tile per program: %s",
                        pname, dims);
                free(dims);
            }
        } else if (!x->stores) {
            p->effect = AL_EFFECT_UNUSED;
        } else if (li >= 0 || k.bumped_twice[i]) {
            p->effect = AL_EFFECT_WRITES_SOME;
            set_why(p, "moves the pointer `%s` before storing through it", pname);
        } else if (x->stores > 1 && !ts_node_is_null(x->data_store)) {
            /* One of several stores the data chooses: the elements none
             * writes keep the fill (a sentinel past the valid entries). */
            p->effect = AL_EFFECT_SKIPS;
            p->row = al_node_row(x->data_store);
            set_why(p, "stores to `%s` in %d places, one of them where the data says (its mask "
                       "or offsets are read from memory): the elements left keep the fill by "
                       "design", pname, x->stores);
        } else if (x->stores > 1) {
            p->effect = AL_EFFECT_WRITES_SOME;
            set_why(p, "stores to `%s` in %d places", pname, x->stores);
        } else {
            p->row = al_node_row(x->store);
            if (!exit_verdict(&k, exits, nexits, p) && store_context(&k, x->store, p))
                cover_of_store(&k, x->store, p);
        }
        if (p->effect != AL_EFFECT_UNUSED && p->effect != AL_EFFECT_READS &&
            al_tf_reset_to_zero(&k, pname)) {
            p->effect = AL_EFFECT_SKIPS;
            set_why(p, "is autotuned with `reset_to_zero` naming `%s`: it is zeroed before "
                       "every run, so the kernel relies on its zeros", pname);
        }
        /* A store that leaves elements out, or loads: where exactly, for a
         * second launch's reads to be compared with the first's writes. */
        bool plain = !x->atomics && !x->other && !x->block_stores;
        want[i] = plain && x->stores == 1 && !x->loads && p->effect != AL_EFFECT_WRITES_ALL ? 1
                  : plain && !x->stores && p->effect == AL_EFFECT_READS                   ? -1
                                                                                          : 0;
        p->region_writes = want[i] > 0;
    }
    char **regions = al_xcalloc(k.nparams ? k.nparams : 1, sizeof *regions);
    al_tregion_templates(&k, want, regions);
    for (size_t i = 0; i < k.nparams; i++)
        out->params[i].region = regions[i];
    free(regions);
    free(want);
    free(u);
    free(k.bumps);
    free(k.bumped_twice);
    al_interner_free(&k.strs);
    free(k.local_names);
    free(k.local_values);
    free(k.local_counts);
    free(k.local_loops);
}

void al_kernel_free(al_kernel *k)
{
    for (size_t i = 0; i < k->n; i++) {
        free(k->names[i]);
        free(k->params[i].why);
        free(k->params[i].block_text);
        free(k->params[i].region);
        for (int t = 0; t < k->params[i].ntiles; t++)
            free(k->params[i].tiles[t].block_text);
    }
    free(k->names);
    free(k->params);
    memset(k, 0, sizeof *k);
}

