/* AL401 inplace-candidate: x = x - y (clamp, masked_fill...) on a fresh
 * local tensor. GPU evidence (rules/AL401.md): 0.99-1.03x, no time gain (masked_fill 1.3-1.5x);
 * it saves an allocation. Off by default; safe only with autograd off,
 * no alias, and shape and dtype proved kept. */
#include "rules.h"

#include "../analysis/python/alloc.h"
#include "../analysis/python/dtype.h"
#include "../analysis/python/fresh.h"
#include "../analysis/python/grad.h"
#include "../analysis/python/callers.h"
#include "../analysis/python/lifetime.h"
#include "../analysis/python/rebinding.h"
#include "../analysis/python/saved.h"
#include "../analysis/python/tensor_facts.h"
#include "../analysis/python/streams.h"
#include "../analysis/python/uses.h"
#include "../base/util.h"

#include <stdlib.h>
#include <string.h>

#include "al401.h"


static void report(TSNode asg, const char *name, const inplace *ip, bool fresh, const char *via,
                   const char *why, al_findings *out)
{
    size_t start = ts_node_start_byte(asg), end = ts_node_end_byte(asg);
    al_strbuf repl = {0};
    al_strbuf_printf(&repl, "%s.%s(%s)", name, ip->method, ip->args);
    al_strbuf msg = {0};
    al_strbuf_printf(&msg, "`%s` is %s rebound to a new one: `%s` would "
                           "reuse its memory, one allocation fewer (no speed gain measured)",
                     name, fresh ? "a fresh local tensor" : "a tensor", repl.data);
    if (why)
        al_strbuf_printf(&msg, " (unsafe: %s)", why);
    else
        al_strbuf_printf(&msg, "; proved: no autograd, no alias%s%s%s, same shape and dtype",
                         via ? " (" : "", via ? via : "", via ? ")" : "");
    al_strbuf fm = {0};
    al_strbuf_printf(&fm, "Replace with `%s`", repl.data);
    al_fix *fix = al_fix_new(why ? AL_FIX_UNSAFE : AL_FIX_SAFE, fm.data);
    al_fix_add_edit(fix, start, end, repl.data);
    al_findings_add(out, "AL401", "inplace-candidate", start, end, al_strbuf_detach(&msg), fix);
    al_strbuf_free(&repl);
    al_strbuf_free(&fm);
}

/* Whether the use at n may run before the statement asg and after the
 * binding `dom` that reaches asg on every path (null: from the function's
 * start): between the two in the text, or in a loop around asg that does
 * not also hold dom. */
static bool may_precede(TSNode func, TSNode asg, TSNode dom, TSNode n)
{
    if (ts_node_end_byte(n) <= ts_node_start_byte(asg))
        return ts_node_is_null(dom) || ts_node_start_byte(n) >= ts_node_end_byte(dom);
    /* After asg in the text: before the next pass's asg, through a loop
     * around both, unless that loop rebinds the name (dom) first. */
    for (TSNode loop = al_enclosing_loop(func, asg); !ts_node_is_null(loop);
         loop = al_enclosing_loop(func, ts_node_parent(loop))) {
        bool holds_n = ts_node_start_byte(n) >= ts_node_start_byte(loop) &&
                       ts_node_end_byte(n) <= ts_node_end_byte(loop);
        bool holds_dom = !ts_node_is_null(dom) &&
                         ts_node_start_byte(dom) >= ts_node_start_byte(loop) &&
                         ts_node_end_byte(dom) <= ts_node_end_byte(loop);
        if (holds_n)
            return !holds_dom;
    }
    return false;
}

/* A use that hands x to a call (`f(x)`, `f(out=x)`) rather than storing
 * or aliasing it: the callee may keep it, which is an assumption to name,
 * not a proof that someone does. */
static bool handed_to_call(const al_pyfile *pf, TSNode id, TSNode *call)
{
    TSNode p = ts_node_parent(id);
    while (al_node_is(p, "parenthesized_expression"))
        p = ts_node_parent(p);
    if (al_node_is(p, "keyword_argument"))
        p = ts_node_parent(p);
    if (!al_node_is(p, "argument_list") || !al_node_is(ts_node_parent(p), "call"))
        return false;
    *call = ts_node_parent(p);
    TSNode fn = al_node_field(*call, "function");
    /* A container's append or insert keeps it for sure. */
    static const char *const keeps[] = {"append", "extend", "insert", "add", "put", "setdefault",
                                        "register_buffer", "setattr", NULL};
    size_t len;
    const char *m = al_py_last_name(pf, fn, &len);
    return !(m && al_str_in_list(keeps, m, len));
}

/* Who may see x when it is updated: no view, alias or store of it that
 * may run before the rewritten statement (and after the binding that
 * reaches it), no capture, global or loop target anywhere; a call handed
 * x before is assumed to keep nothing. What runs after the update sees
 * the updated tensor either way. */
static al_own unaliased(const al_pymodule *m, TSNode func, TSNode asg, TSNode dom,
                        const char *name)
{
    const al_pyfile *pf = m->pf;
    al_own own = {AL_OWN_FRESH, NULL, NULL, 0, false};
    TSTreeCursor cur = ts_tree_cursor_new(func);
    bool more = ts_tree_cursor_goto_first_child(&cur);
    while (more && own.kind != AL_OWN_NO) {
        TSNode n = ts_tree_cursor_current_node(&cur);
        bool descend = true;
        const char *t = ts_node_type(n);
        bool no = false;
        if (!strcmp(t, "function_definition") || !strcmp(t, "class_definition") ||
            !strcmp(t, "lambda")) {
            no = al_py_count_ident(pf, n, name) > 0; /* captured */
            descend = false;
        } else if (!strcmp(t, "global_statement") || !strcmp(t, "nonlocal_statement")) {
            no = al_py_count_ident(pf, n, name) > 0;
        } else if (!strcmp(t, "call") && may_precede(func, asg, dom, n)) {
            /* eval("x"), locals()["x"]: a reference taken by name, unseen */
            no = al_py_call_reads_locals(pf, n);
        } else if (!strcmp(t, "for_statement")) {
            TSNode left = al_node_field(n, "left");
            no = !ts_node_is_null(left) && al_py_count_ident(pf, left, name);
        } else if (!strcmp(t, "with_item")) {
            no = al_py_count_ident(pf, n, name) &&
                 strstr(ts_node_type(al_node_field(n, "value")), "as_pattern");
        } else if (!strcmp(t, "assignment")) {
            TSNode left = al_node_field(n, "left");
            /* `a, x = ...`: a binding ownership reads when flat; nested or
             * starred, not followed */
            no = !al_node_is(left, "identifier") && al_py_count_ident(pf, left, name) &&
                 !al_node_is(left, "subscript") && al_unpacked_position(pf, left, name) < 0;
        } else if (!strcmp(t, "identifier") && al_node_text_eq(pf, n, name) &&
                   !(ts_node_start_byte(n) >= ts_node_start_byte(asg) &&
                     ts_node_end_byte(n) <= ts_node_end_byte(asg)) &&
                   may_precede(func, asg, dom, n)) {
            /* (the rewritten statement's own uses were checked by its form) */
            TSNode par = ts_node_parent(n);
            bool label = al_py_ident_is_label(n);
            bool bound = (al_node_is(par, "assignment") && ts_node_eq(al_node_field(par, "left"), n)) ||
                         ((al_node_is(par, "pattern_list") || al_node_is(par, "tuple_pattern")) &&
                          al_node_is(ts_node_parent(par), "assignment") &&
                          ts_node_eq(al_node_field(ts_node_parent(par), "left"), par));
            /* `x = x.reshape(...)`: the view takes the name the tensor had. */
            TSNode st = n;
            while (!ts_node_is_null(st) && !al_node_is(st, "assignment") &&
                   !al_node_is(st, "expression_statement"))
                st = ts_node_parent(st);
            if (al_node_is(st, "assignment") &&
                al_node_text_eq(pf, al_node_field(st, "left"), name) &&
                al_rebind_updates_itself(pf, al_node_field(st, "right"), name))
                bound = true;
            TSNode call;
            if (!label && !bound && al_use_escapes(pf, &m->imports, n) &&
                !al_node_is(par, "return_statement")) {
                if (handed_to_call(pf, n, &call)) {
                    if (own.kind == AL_OWN_FRESH) {
                        char *c = al_node_text_compact(pf, al_node_field(call, "function"));
                        al_strbuf sb = {0};
                        al_strbuf_printf(&sb, "assumes `%s(...)` on line %zu keeps no reference "
                                              "to `%s`",
                                         c, al_node_row(call), name);
                        free(c);
                        own = al_own_meet(own, (al_own){AL_OWN_ASSUMED, al_strbuf_detach(&sb), NULL, 0, false});
                    }
                } else {
                    no = true;
                }
            }
        }
        if (no)
            own = al_own_meet(own, (al_own){AL_OWN_NO, NULL, NULL, 0, false});
        if (descend && ts_tree_cursor_goto_first_child(&cur))
            continue;
        while (!(more = ts_tree_cursor_goto_next_sibling(&cur)))
            if (!ts_tree_cursor_goto_parent(&cur) ||
                ts_node_eq(ts_tree_cursor_current_node(&cur), func))
                break;
    }
    ts_tree_cursor_delete(&cur);
    return own;
}

/* An in-place update of x as a statement: `x += y`, `x.mul_(s)`. */
static bool inplace_statement(const al_pyfile *pf, TSNode st, const char *name)
{
    if (!al_node_is(st, "expression_statement"))
        return false;
    TSNode e = ts_node_named_child(st, 0);
    if (al_node_is(e, "augmented_assignment"))
        return al_node_text_eq(pf, al_node_field(e, "left"), name);
    if (!al_node_is(e, "call") || !al_node_is(al_node_field(e, "function"), "attribute"))
        return false;
    TSNode fn = al_node_field(e, "function");
    size_t len;
    const char *m = al_node_ptr(pf, al_node_field(fn, "attribute"), &len);
    return al_node_text_eq(pf, al_node_field(fn, "object"), name) && len > 1 &&
           m[len - 1] == '_' && m[len - 2] != '_';
}

/* The row of an in-place update of x on every path from the function's
 * start to stmt: a statement of a block around stmt, before it (in the
 * same block, or before the branch, loop or `with` that holds it); or 0. */
static size_t updated_in_place_before(const al_pyfile *pf, TSNode func, TSNode stmt,
                                      const char *name)
{
    for (TSNode at = stmt; !ts_node_is_null(at) && !ts_node_eq(at, func); at = ts_node_parent(at)) {
        TSNode block = ts_node_parent(at);
        if (!al_node_is(block, "block"))
            continue;
        for (TSNode s = ts_node_prev_named_sibling(at); !ts_node_is_null(s);
             s = ts_node_prev_named_sibling(s))
            if (inplace_statement(pf, s, name))
                return al_node_row(s);
        /* Statements before the branch, loop or `with` around stmt run on
         * every path to it too (an update inside another branch is not
         * before it in a block around it). */
        if (ts_node_eq(ts_node_parent(block), func))
            break;
    }
    return 0;
}

typedef struct {
    TSNode *items;
    size_t n, cap;
} node_list;

static void push_binding(node_list *l, TSNode a)
{
    for (size_t i = 0; i < l->n; i++)
        if (ts_node_eq(l->items[i], a))
            return;
    AL_PUSH(l->items, l->n, l->cap, a);
}

typedef struct {
    const al_pyfile *pf;
    const char *name;
    node_list *out;
} binding_walk;

static al_visit visit_binding(TSNode n, void *arg)
{
    binding_walk *w = arg;
    if (al_node_is(n, "function_definition") || al_node_is(n, "class_definition") ||
        al_node_is(n, "lambda"))
        return AL_VISIT_OVER;
    if (al_node_is(n, "assignment") &&
        ((al_node_is(al_node_field(n, "left"), "identifier") &&
          al_node_text_eq(w->pf, al_node_field(n, "left"), w->name)) ||
         al_unpacked_position(w->pf, al_node_field(n, "left"), w->name) >= 0))
        push_binding(w->out, n);
    return AL_VISIT_INTO;
}

/* The assignment `name = v` or `name, other = v` a statement is, or a
 * null node. */
static TSNode binding_statement(const al_pyfile *pf, TSNode st, const char *name)
{
    TSNode a = al_py_name_assignment(st);
    if (!ts_node_is_null(a))
        return al_node_text_eq(pf, al_node_field(a, "left"), name) ? a : (TSNode){0};
    if (al_node_is(st, "expression_statement") && ts_node_named_child_count(st) == 1 &&
        al_node_is(ts_node_named_child(st, 0), "assignment") &&
        al_unpacked_position(pf, al_node_field(ts_node_named_child(st, 0), "left"), name) >= 0)
        return ts_node_named_child(st, 0);
    return (TSNode){0};
}

/* Whether binding a is `name = v` (not an unpacking). */
static bool plain_binding(TSNode a)
{
    return al_node_is(al_node_field(a, "left"), "identifier");
}

/* The bindings of x that may reach stmt, and *dom, the one that reaches
 * it on every path (a statement of a block around stmt, before it; its
 * own updates `x = x + y` pass the binding before them on), or a null
 * node when the function's start (a parameter) may reach it. */
/* tensor: x is known to be a tensor, so `x = x + y` makes a new one (for
 * a list it would make a list; its own updates are passed otherwise). */
static void reaching(const al_pyfile *pf, TSNode func, TSNode stmt, const char *name, bool tensor,
                     node_list *out, TSNode *dom)
{
    *dom = (TSNode){0};
    binding_walk w = {pf, name, out};
    TSNode at = stmt;
    while (ts_node_is_null(*dom)) {
        TSNode block = ts_node_parent(at);
        if (ts_node_is_null(block))
            break;
        if (al_node_is(block, "block")) {
            for (TSNode s = ts_node_prev_named_sibling(at); !ts_node_is_null(s) && ts_node_is_null(*dom);
                 s = ts_node_prev_named_sibling(s)) {
                TSNode a = binding_statement(pf, s, name);
                if (!ts_node_is_null(a) && plain_binding(a) &&
                    al_rebind_updates_itself(pf, al_node_field(a, "right"), name) &&
                    !(tensor && al_node_is(al_py_unparen(al_node_field(a, "right")),
                                           "binary_operator")))
                    continue;
                if (!ts_node_is_null(a)) {
                    push_binding(out, a);
                    *dom = a;
                } else {
                    al_node_preorder(s, visit_binding, &w);
                }
            }
            if (ts_node_eq(ts_node_parent(block), func))
                break;
        }
        at = block;
        while (!ts_node_is_null(at) && !ts_node_eq(at, func) &&
               !al_node_is(ts_node_parent(at), "block"))
            at = ts_node_parent(at);
        if (ts_node_is_null(at) || ts_node_eq(at, func))
            break;
    }
    /* A loop around stmt runs its later bindings before the next pass. */
    for (TSNode loop = al_enclosing_loop(func, stmt); !ts_node_is_null(loop);
         loop = al_enclosing_loop(func, ts_node_parent(loop))) {
        bool dom_inside = !ts_node_is_null(*dom) &&
                          ts_node_start_byte(*dom) >= ts_node_start_byte(loop) &&
                          ts_node_end_byte(*dom) <= ts_node_end_byte(loop);
        if (!dom_inside)
            al_node_preorder(loop, visit_binding, &w);
    }
}

/* Who else may hold x's tensor at stmt: the bindings of x that reach it
 * (but its own updates), and x as a parameter when the function's start
 * reaches it. */
/* The value of the last binding of name before stmt in the function, in
 * source order (in a branch or not: every binding is fresh, which
 * ownership checks, so whichever ran left a tensor no one else holds), or a
 * null node. */
static TSNode bound_before(const al_pyfile *pf, TSNode func, TSNode stmt, const char *name)
{
    return al_last_binding_before(pf, func, stmt, name, true, NULL);
}

static al_own ownership(const al_pymodule *m, TSNode func, TSNode stmt, TSNode asg,
                        const char *name, bool param, bool follow, TSNode *dom)
{
    const al_pyfile *pf = m->pf;
    node_list bs = {0};
    /* A kept `x = x + y` of a tensor parameter made x a new tensor. */
    bool tensor = param && al_py_param_annotated_tensor(pf, func, name);
    reaching(pf, func, stmt, name, tensor, &bs, dom);
    al_own own = {AL_OWN_FRESH, NULL, NULL, 0, false};
    if (tensor && !ts_node_is_null(*dom) && plain_binding(*dom) &&
        al_rebind_updates_itself(pf, al_node_field(*dom, "right"), name)) {
        al_strbuf sb = {0};
        al_strbuf_printf(&sb, "line %zu's `%s = ...` of the tensor parameter made a new tensor",
                         al_node_row(*dom), name);
        own.why = al_strbuf_detach(&sb);
    }
    if (ts_node_is_null(*dom) && param) {
        size_t row = updated_in_place_before(pf, func, stmt, name);
        al_strbuf sb = {0};
        TSNode rebound = bound_before(pf, func, stmt, name);
        if (row)
            al_strbuf_printf(&sb, "`%s` is a parameter, already updated in place on line %zu: "
                                  "assumes no caller reads it after this call",
                             name, row);
        else if (!ts_node_is_null(rebound))
            al_strbuf_printf(&sb, "`%s` is a parameter of unstated type: line %zu's `%s = ...` "
                                  "is read as an update of the caller's value, not a new tensor "
                                  "(annotated `torch.Tensor`, it would be one)",
                             name, al_node_row(rebound), name);
        else
            al_strbuf_printf(&sb, "`%s` is a parameter (the caller's tensor), not updated in "
                                  "place before in this function",
                             name);
        own = (al_own){row ? AL_OWN_ASSUMED : AL_OWN_NO, al_strbuf_detach(&sb), NULL, 0, false};
        /* The callers the project has may each hand it a tensor of its
         * own making. */
        if (!row && follow) {
            al_own callers = al_param_callers_own(m, func, name);
            if (callers.kind != AL_OWN_NO) {
                al_own_free(&own);
                own = callers;
            } else {
                al_strbuf_printf(&sb, "%s; %s", own.why, callers.why ? callers.why : "");
                free(own.why);
                own.why = al_strbuf_detach(&sb);
                al_own_free(&callers);
            }
        }
    } else if (ts_node_is_null(*dom) && bs.n == 0) {
        own = (al_own){AL_OWN_NO, NULL, NULL, 0, false};
    }
    bool tensor_seen = false; /* some binding gives a tensor */
    for (size_t i = 0; i < bs.n && (own.kind != AL_OWN_NO || !tensor_seen); i++) {
        TSNode v = al_node_field(bs.items[i], "right");
        if (ts_node_eq(bs.items[i], asg))
            continue;
        al_own b = {AL_OWN_FRESH, NULL, NULL, 0, false};
        if (!plain_binding(bs.items[i]))
            b = al_value_own_element(m, func, v,
                                     al_unpacked_position(pf, al_node_field(bs.items[i], "left"), name),
                                     follow);
        else if (!al_rebind_updates_itself(pf, v, name))
            b = al_value_own(m, func, v, follow);
        tensor_seen |= b.kind != AL_OWN_NO && al_node_is(al_py_unparen(v), "call");
        own = al_own_meet(own, b);
    }
    free(bs.items);
    /* Updated in place on every path before (`x *= k`), and a tensor on
     * some binding: whoever else may hold its tensor has seen it change
     * already. Assumed, as for a parameter so updated. */
    size_t row;
    if (own.kind == AL_OWN_NO && tensor_seen && !ts_node_is_null(*dom) &&
        (row = updated_in_place_before(pf, func, stmt, name))) {
        al_strbuf sb = {0};
        al_strbuf_printf(&sb, "`%s` is already updated in place on line %zu on every path (%s): "
                              "assumes nothing else that holds its tensor reads it after",
                         name, row, own.why ? own.why : "one binding is not followed");
        al_own_free(&own);
        own = (al_own){AL_OWN_ASSUMED, al_strbuf_detach(&sb), NULL, 0, false};
    }
    return own;
}

/* x's dtype when its binding is a factory that spells it. */
static al_dtype known_dtype(const al_pymodule *m, TSNode value)
{
    if (ts_node_is_null(value) || !al_torch_factory(m->pf, &m->imports, value, NULL))
        return (al_dtype){AL_DTYPE_UNKNOWN, 0};
    al_py_args a;
    al_py_args_read(value, &a);
    return al_dtype_read(m, al_py_kwarg(m->pf, &a, "dtype"), AL_DTYPE_TORCH);
}

/* Why autograd may need x's old value at stmt, appended to why; nothing
 * when it is off there and x lives only where it is off: made, read and
 * updated inside one `no_grad()` / `inference_mode()` region (the
 * function, when its decorator turns autograd off), so that no graph
 * saved it; under no_grad() alone, not an inference tensor. param: the
 * caller's tensor reaches the update (its mode there is not known). dom:
 * the binding that reaches it on every path, or null. */
static void grad_unproved(const al_pymodule *m, TSNode func, TSNode stmt, const char *name,
                          bool param, TSNode dom, al_strbuf *why)
{
    const char *sep = why->len ? "; " : "";
    al_grad g = al_grad_at(m, func, stmt);
    if (!g.off && g.spoiler) {
        al_strbuf_printf(why, "%sautograd may need the old value: %s on line %zu may turn "
                              "autograd back on",
                         sep, g.spoiler, g.spoiler_row);
        return;
    }
    if (!g.off) {
        al_strbuf_printf(why, "%sautograd may be on (no `torch.inference_mode()` or `no_grad()` "
                              "around it, no `inference = true`): assumes nothing that took "
                              "`%s` before saved it for a backward (no op of this function did)",
                         sep, name);
        return;
    }
    if (param) {
        al_strbuf_printf(why, "%sautograd may need the old value: `%s` is a parameter, which "
                              "the caller may have made or used with autograd on",
                         sep, name);
        return;
    }
    if (!g.inference) {
        const char *what = NULL;
        TSNode src = al_grad_inference_source(m, func, al_py_name_assignment(stmt), name, dom, &what);
        if (!ts_node_is_null(src)) {
            al_strbuf_printf(why, "%s`no_grad()` turns autograd off but not inference mode: `%s` "
                                  "on line %zu is %s, and an in-place update of an inference "
                                  "tensor raises outside inference mode",
                             sep, name, al_node_row(src), what);
            return;
        }
    }
    if (ts_node_eq(g.region, func)) {
        if (g.assumed[0])
            al_strbuf_printf(why, "%sassumes autograd is off: %s", sep, g.assumed);
        return;
    }
    bool looped = false;
    TSNode use = al_grad_use_outside(m->pf, func, g.region, name, &looped);
    if (!ts_node_is_null(use))
        al_strbuf_printf(why, "%sautograd may need the old value: `%s` is used on line %zu, "
                              "%s the block that turns autograd off (lines %zu-%zu), where a "
                              "graph may have saved it",
                         sep, name, al_node_row(use), looped ? "in a loop around" : "before",
                         al_node_row(g.region), (size_t)ts_node_end_point(g.region).row + 1);
}

/* Why the rewrite is not proved safe, or NULL. */
static char *unproved(const al_rule_input *in, TSNode func, TSNode stmt, const inplace *ip,
                      al_dtype dtype, const char *name, bool param, TSNode dom)
{
    al_strbuf why = {0};
    if (!in->inference)
        grad_unproved(in->py, func, stmt, name, param, dom, &why);
    TSNode block, use = al_stream_use(in->py, func, stmt, name, &block);
    if (!ts_node_is_null(use))
        al_strbuf_printf(&why, "%s`%s` is read on line %zu %s (line %zu): work queued there may "
                               "still read it when the update writes it in place",
                         why.len ? "; " : "", name, al_node_row(use),
                         al_node_is(block, "with_statement")
                             ? "in a block that switches CUDA streams"
                             : "after `torch.cuda.set_stream(...)` switches CUDA streams",
                         al_node_row(block));
    bool floating = dtype.kind == AL_DTYPE_FLOAT;
    al_strbuf shape = {0};
    switch (ip->kind) {
    case OPERAND_TENSOR:
        if (ip->legal == AL_INPLACE_SAME)
            break;
        if (ip->legal_why[0]) {
            al_strbuf_puts(&shape, ip->legal_why);
        } else {
            char *t = ts_node_is_null(ip->operand) ? al_xstrdup(ip->args)
                                                   : al_node_text(in->py->pf, ip->operand);
            al_strbuf_printf(&shape, "`%s` may broadcast `%s` larger or promote its dtype "
                                     "(neither's dtype and shape are both stated)",
                             t, name);
            free(t);
        }
        break;
    case OPERAND_BROADCASTS:
        if (ip->legal != AL_INPLACE_SAME)
            al_strbuf_printf(&shape, "the mask may broadcast `%s` larger", name);
        break;
    case OPERAND_FLOAT:
        if (!floating)
            al_strbuf_printf(&shape, "`%s` is not known to be floating (a float operand "
                                     "promotes an integer tensor)",
                             name);
        break;
    case OPERAND_INT:
        /* clamp keeps any dtype; arithmetic turns bool into int64 */
        if (al_str_starts_with(ip->method, "clamp"))
            break;
        if (dtype.kind == AL_DTYPE_BOOL)
            al_strbuf_printf(&shape, "`%s` is bool: an int operand promotes it to int64", name);
        else if (dtype.kind == AL_DTYPE_UNKNOWN)
            al_strbuf_printf(&shape, "`%s`'s dtype is not known (an int operand promotes a "
                                     "bool tensor)",
                             name);
        break;
    case OPERAND_OWN_MASK:
        break;
    case OPERAND_OWN:
        if (ip->own_needs_float && !floating)
            al_strbuf_printf(&shape, "`%s` is not known to be floating (`%s` of an integer "
                                     "tensor is int64)",
                             name, ip->args);
        break;
    }
    if (!shape.len && ip->needs_float && !floating)
        al_strbuf_printf(&shape, "`%s` is not known to be floating (true division promotes "
                                 "an integer tensor)",
                         name);
    if (shape.len)
        al_strbuf_printf(&why, "%s%s", why.len ? "; " : "", shape.data);
    al_strbuf_free(&shape);
    return why.len ? al_strbuf_detach(&why) : NULL;
}

/* A CuTe DSL kernel or JIT function (`@cute.kernel`, `@cute.jit`), or a
 * function nested in one: its values are DSL scalars and register
 * fragments (`cutlass.Int32(...)`), traced, not torch tensors. */
static bool in_cute_function(const al_pymodule *m, TSNode func)
{
    for (TSNode f = func; !ts_node_is_null(f); f = ts_node_parent(f)) {
        TSNode dec = ts_node_parent(f);
        if (!al_node_is(f, "function_definition") || !al_node_is(dec, "decorated_definition"))
            continue;
        uint32_t k = ts_node_named_child_count(dec);
        for (uint32_t i = 0; i < k; i++) {
            TSNode d = ts_node_named_child(dec, i);
            if (!al_node_is(d, "decorator"))
                continue;
            TSNode e = al_py_unparen(ts_node_named_child(d, 0));
            if (al_node_is(e, "call"))
                e = al_node_field(e, "function");
            char *q = al_pymodule_resolve(m, e);
            bool cute = q && al_str_starts_with(q, "cutlass.cute.");
            free(q);
            if (cute)
                return true;
        }
    }
    return false;
}

/* A Triton or CuTe DSL kernel's values are blocks in registers: nothing
 * to reuse. */
static bool is_kernel(const al_pymodule *m, TSNode func)
{
    for (size_t i = 0; i < m->n_kernels; i++)
        if (ts_node_eq(m->kernels[i], func))
            return true;
    return in_cute_function(m, func);
}

/* explain: why the update at asg gets no finding. */
#define decline(in, asg, ...)                                                                    \
    al_rule_decline((in), "AL401", "inplace-candidate", ts_node_start_byte(asg),               \
                    ts_node_end_byte(asg), __VA_ARGS__)

static void inplace_candidate(TSNode func, TSNode stmt, void *arg)
{
    al_rule_visit *w = arg;
    const al_pymodule *m = w->in->py;
    const al_pyfile *pf = m->pf;
    TSNode asg = al_py_name_assignment(stmt);
    if (ts_node_is_null(asg) || !ts_node_is_null(al_node_field(asg, "type")))
        return;
    char *name = al_node_text(pf, al_node_field(asg, "left"));
    inplace ip;
    memset(&ip, 0, sizeof ip);
    if (is_kernel(m, func)) {
        if (w->in->declined && al401_inplace_form(m, al_node_field(asg, "right"), name, &ip))
            decline(w->in, asg, "`%s` is a value of a Triton kernel or CuTe DSL function (a block "
                                "in registers, not a torch tensor)", name);
        free(ip.args);
        free(name);
        return;
    }
    /* Bound before, in this function, by values no one else holds (or a
     * parameter this code already updates in place); no alias of it made
     * before the update. */
    bool param = al_py_is_param(pf, func, name);
    TSNode before = {0}, dom = {0};
    bool form = al401_inplace_form(m, al_node_field(asg, "right"), name, &ip);
    if (form && !param && ts_node_is_null(before = bound_before(pf, func, stmt, name)))
        decline(w->in, asg, "`%s` is not bound before this line in the function (a global, or a "
                            "name of an enclosing scope): not known to be a tensor of its own",
                name);
    if (form && (param || !ts_node_is_null(before))) {
        /* Callees are followed always (memoised): an unsafe fix may rest
         * on autograd being off, never on a callee that returns its input. */
        al_own own = ownership(m, func, stmt, asg, name, param, true, &dom);
        if (own.kind != AL_OWN_NO)
            own = al_own_meet(own, unaliased(m, func, asg, dom, name));
        if (own.kind == AL_OWN_NO)
            decline(w->in, asg, "the update could be `%s.%s(%s)`, but `%s` may not be a tensor "
                                "of its own: %s",
                    name, ip.method, ip.args ? ip.args : "", name,
                    own.why ? own.why : "a binding that reaches this line is not a new tensor");
        /* Autograd may be on: an op that saved x for its backward (its
         * result, an operand) makes that backward() raise once x is
         * updated in place (issue 57.3): no fix, not even unsafe. */
        if (own.kind != AL_OWN_NO && !w->in->inference && !al_grad_at(m, func, stmt).off) {
            al_saved sv = al_saved_before(m, func, stmt, name);
            if (!ts_node_is_null(sv.op)) {
                decline(w->in, asg, "autograd may be on here, and `%s` on line %zu saves `%s` "
                                    "(its %s) for its backward%s: updating `%s` in place makes "
                                    "that backward() raise",
                        sv.name, al_node_row(sv.op), name, sv.as,
                        sv.later_in_loop ? " on the loop's earlier iteration" : "", name);
                al_own_free(&own);
                own = (al_own){.kind = AL_OWN_NO};
            }
        }
        /* The dtypes and shapes the code states for x and the operand:
         * an update they show raising or rounding differently gets no
         * fix (issue 57.2); shown the same, no caveat. */
        if (own.kind != AL_OWN_NO) {
            al_tensor_facts xf = al_tensor_facts_of(m, func, stmt, al_node_field(asg, "left"), 2);
            al_tensor_facts of = ts_node_is_null(ip.operand)
                                     ? (al_tensor_facts){.rank = -1}
                                     : al_tensor_facts_of(m, func, stmt, ip.operand, 1);
            char *on = ts_node_is_null(ip.operand) ? al_xstrdup("the operand")
                                                   : al_node_text(pf, ip.operand);
            if (ip.kind == OPERAND_TENSOR || ip.kind == OPERAND_BROADCASTS)
                ip.legal = al_inplace_judge(pf, &xf, &of, name, on, ip.kind == OPERAND_TENSOR,
                                            ip.legal_why, sizeof ip.legal_why);
            else if (!ts_node_is_null(xf.expanded))
                ip.legal = al_inplace_judge(pf, &xf, &xf, name, name, false, ip.legal_why,
                                            sizeof ip.legal_why);
            else
                ip.legal = AL_INPLACE_UNKNOWN;
            free(on);
            if (ip.legal == AL_INPLACE_RAISES || ip.legal == AL_INPLACE_DIFFERS) {
                decline(w->in, asg, "`%s.%s(%s)` is not the same update: %s", name, ip.method,
                        ip.args ? ip.args : "", ip.legal_why);
                al_own_free(&own);
                own = (al_own){.kind = AL_OWN_NO};
            }
        }
        /* What else an unsafe fix rests on (autograd, streams, dtype) is
         * asked only of an update that gets a finding: most get none. */
        char *other = NULL;
        if (own.kind != AL_OWN_NO) {
            /* The dtype of the binding is x's only if no other binding (an
             * `if` branch) can reach the rewrite. */
            al_strlist bound = {0};
            al_py_bound_names(pf, al_node_field(func, "body"), &bound);
            al_dtype dtype = !param && al_strlist_count(&bound, name) == 2
                                 ? known_dtype(m, before)
                                 : (al_dtype){AL_DTYPE_UNKNOWN, 0};
            al_strlist_free(&bound);
            /* `x = y.float()`, `.to(torch.float32)`, a float factory or true
             * division reaching the update: floating whatever else it is. */
            if (dtype.kind == AL_DTYPE_UNKNOWN &&
                al_dtype_floating(m, func, stmt, al_node_field(asg, "left")))
                dtype = (al_dtype){AL_DTYPE_FLOAT, 0};
            /* The caller's tensor reaches the update unless a binding in the
             * function comes first on every path. */
            other = unproved(w->in, func, stmt, &ip, dtype, name, param && ts_node_is_null(dom), dom);
        }
        if (own.kind != AL_OWN_NO) {
            bool fresh = own.kind == AL_OWN_FRESH;
            /* What is assumed about who holds x comes first. */
            al_strbuf why = {0};
            if (!fresh)
                al_strbuf_puts(&why, own.why);
            if (other)
                al_strbuf_printf(&why, "%s%s", why.len ? "; " : "", other);
            report(asg, name, &ip, fresh, fresh ? own.why : NULL, why.len ? why.data : NULL,
                   w->out);
            al_strbuf_free(&why);
        }
        free(other);
        al_own_free(&own);
    }
    free(ip.args);
    free(name);
}

void al_rule_al401(const al_rule_input *in, al_findings *out)
{
    al_rule_visit w = {in, out};
    al_pymodule_walk_where(in->py, in->region_needs, &(al_py_walker){NULL, inplace_candidate, &w});
}
