/* Where autograd is off: torch's grad-mode contexts and decorators around
 * a statement, what in a function may turn autograd back on, and where a
 * tensor is used outside the region that turns it off. */
#include "grad.h"

#include "callers.h"
#include "values.h"

#include "../../base/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* What a `with` item or a decorator does to autograd: nothing torch
 * knows of; turns it off (`torch.no_grad()`, `torch.inference_mode()`,
 * with or without the call, no argument); anything else of torch's grad
 * modes (`enable_grad`, `set_grad_enabled(...)`, `inference_mode(False)`,
 * an argument not read), which may turn it on. */
typedef enum { GRAD_NONE, GRAD_OFF, GRAD_OTHER } grad_mode;

/* what: for GRAD_OTHER, how it is spelt, for a message; inference (may
 * be NULL): set when it is `inference_mode()` turning autograd off. */
static grad_mode grad_expr_mode(const al_pymodule *m, TSNode e, const char **what, bool *inference)
{
    e = al_py_unparen(e);
    bool args = false;
    if (al_node_is(e, "call")) {
        al_py_args a;
        al_py_args_read(e, &a);
        args = a.nall != 0;
        e = al_node_field(e, "function");
    }
    char *q = al_pymodule_resolve(m, e);
    grad_mode g = GRAD_NONE;
    if (q && al_str_starts_with(q, "torch.")) {
        const char *last = strrchr(q, '.') + 1;
        if (!strcmp(last, "no_grad") || !strcmp(last, "inference_mode")) {
            g = args ? GRAD_OTHER : GRAD_OFF;
            if (args)
                *what = "a grad-mode context with an argument";
            else if (inference && !strcmp(last, "inference_mode"))
                *inference = true;
        } else if (!strcmp(last, "enable_grad")) {
            g = GRAD_OTHER;
            *what = "`enable_grad`";
        } else if (!strcmp(last, "set_grad_enabled") || !strcmp(last, "_set_grad_enabled")) {
            g = GRAD_OTHER;
            *what = "`set_grad_enabled`";
        }
    }
    free(q);
    return g;
}

static grad_mode grad_expr(const al_pymodule *m, TSNode e, const char **what)
{
    return grad_expr_mode(m, e, what, NULL);
}

/* The first node in a function's body that may turn autograd back on:
 * a name `enable_grad` or `set_grad_enabled` anywhere (a call, an
 * alias, a decorator of a nested function), a grad-mode `with` item with
 * an argument. */
typedef struct {
    const al_pymodule *m;
    TSNode found;
    const char *what;
} grad_switch;

static al_visit find_grad_switch(TSNode n, void *arg)
{
    grad_switch *s = arg;
    if (!ts_node_is_null(s->found))
        return AL_VISIT_OVER;
    if (al_node_is(n, "identifier")) {
        static const char *const words[] = {"enable_grad", "set_grad_enabled", "_set_grad_enabled"};
        for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
            if (al_node_text_eq(s->m->pf, n, words[i])) {
                s->found = n;
                s->what = i == 0 ? "`enable_grad`" : i == 1 ? "`set_grad_enabled`" : "`_set_grad_enabled`";
            }
        return AL_VISIT_OVER;
    }
    if (al_node_is(n, "with_item") && grad_expr(s->m, al_node_field(n, "value"), &s->what) == GRAD_OTHER)
        s->found = n;
    return AL_VISIT_INTO;
}

/* The inference_mode() `with` statement around n in func, or null. */
static TSNode inference_block(const al_pymodule *m, TSNode func, TSNode n)
{
    const char *unused = NULL;
    for (TSNode p = ts_node_parent(n); !ts_node_is_null(p) && !ts_node_eq(p, func); p = ts_node_parent(p)) {
        TSNode clause = al_node_is(p, "with_statement") ? ts_node_named_child(p, 0) : (TSNode){0};
        for (uint32_t i = 0; !ts_node_is_null(clause) && i < ts_node_named_child_count(clause); i++) {
            TSNode item = ts_node_named_child(clause, i);
            bool inference = false;
            if (al_node_is(item, "with_item") &&
                grad_expr_mode(m, al_node_field(item, "value"), &unused, &inference) == GRAD_OFF &&
                inference)
                return p;
        }
    }
    return (TSNode){0};
}

#define MAX_CALLER_DEPTH 3
#define MAX_CALLS 8

static al_grad grad_at(const al_pymodule *m, TSNode func, TSNode stmt, int depth);

/* Autograd off at every call of func, a private function, in its file
 * (through private callers up to MAX_CALLER_DEPTH): g.off with g.assumed
 * naming the calls, since a file of the project may call it too. */
static void off_at_callers(const al_pymodule *m, TSNode func, int depth, al_grad *g)
{
    /* Only a private name's callers are read (al_private_calls says why
     * not otherwise); any spelling that resolves to either context names
     * it in the file (an import, an attribute): without one, no call there
     * is off. Both asked before anything is parsed. */
    size_t len;
    const char *name = al_node_ptr(m->pf, al_node_field(func, "name"), &len);
    if (depth >= MAX_CALLER_DEPTH || len < 2 || name[0] != '_' || name[1] == '_' ||
        (!al_source_count_word(m->pf->src, "no_grad", 1) &&
         !al_source_count_word(m->pf->src, "inference_mode", 1)))
        return;
    al_pysite view;
    TSNode calls[MAX_CALLS];
    char *why = NULL;
    size_t n = al_private_calls(m, func, &view, calls, MAX_CALLS, &why);
    free(why);
    al_pymodule scoped = al_pymodule_scoped(n ? view.mod : m, n ? view.path : m->path, m);
    bool inference = true;
    al_strbuf rows = {0}, deeper = {0};
    for (size_t i = 0; i < n; i++) {
        TSNode caller = al_enclosing_function(calls[i]);
        al_grad c = ts_node_is_null(caller) ? (al_grad){.off = false}
                                            : grad_at(&scoped, caller, calls[i], depth + 1);
        if (!c.off) {
            al_strbuf_free(&rows);
            al_strbuf_free(&deeper);
            return;
        }
        inference &= c.inference;
        if (!i || al_node_row(calls[i]) != al_node_row(calls[i - 1]))
            al_strbuf_printf(&rows, "%s%zu", i ? ", " : "", al_node_row(calls[i]));
        /* Off there only at its own callers: say so once. */
        if (c.assumed[0] && !deeper.len)
            al_strbuf_printf(&deeper, "; in turn, %.*s",
                             (int)(strstr(c.assumed, "; assumes") ? strstr(c.assumed, "; assumes") - c.assumed
                                                                  : (long)strlen(c.assumed)),
                             c.assumed);
    }
    if (n == 0)
        return;
    snprintf(g->assumed, sizeof g->assumed,
             "every call of `%.*s` in its file runs with autograd off (line%s %s)%s; assumes no "
             "other file calls %s",
             (int)len, name, strchr(rows.data, ',') ? "s" : "", rows.data,
             deeper.len ? deeper.data : "",
             deeper.len ? "them (their names are private)" : "it (its name is private)");
    al_strbuf_free(&rows);
    al_strbuf_free(&deeper);
    g->off = true;
    g->inference = inference;
    g->region = func;
}

al_grad al_grad_at(const al_pymodule *m, TSNode func, TSNode stmt)
{
    return grad_at(m, func, stmt, 0);
}

static al_grad grad_at(const al_pymodule *m, TSNode func, TSNode stmt, int depth)
{
    al_grad g = {.off = false};
    TSNode region = {0};
    bool inference = false; /* inference mode stays on under an inner no_grad() */
    /* The outermost block that turns it off: nothing in the function turns
     * it back on (below), so it is off from that block's start. */
    for (TSNode p = ts_node_parent(stmt); !ts_node_is_null(p) && !ts_node_eq(p, func);
         p = ts_node_parent(p)) {
        if (!al_node_is(p, "with_statement"))
            continue;
        TSNode clause = ts_node_named_child(p, 0);
        uint32_t k = ts_node_named_child_count(clause);
        for (uint32_t i = 0; i < k; i++) {
            TSNode item = ts_node_named_child(clause, i);
            grad_mode gm = al_node_is(item, "with_item")
                               ? grad_expr_mode(m, al_node_field(item, "value"), &g.spoiler, &inference)
                               : GRAD_NONE;
            if (gm == GRAD_OTHER) {
                g.spoiler_row = al_node_row(item);
                return g;
            }
            if (gm == GRAD_OFF)
                region = p;
        }
    }
    TSNode dec = ts_node_parent(func);
    for (uint32_t i = 0; al_node_is(dec, "decorated_definition") && i < ts_node_named_child_count(dec);
         i++) {
        TSNode d = ts_node_named_child(dec, i);
        grad_mode gm = al_node_is(d, "decorator")
                           ? grad_expr_mode(m, ts_node_named_child(d, 0), &g.spoiler, &inference)
                           : GRAD_NONE;
        if (gm == GRAD_OTHER) {
            g.spoiler_row = al_node_row(d);
            return g;
        }
        if (gm == GRAD_OFF)
            region = func;
    }
    if (!ts_node_is_null(region)) {
        g.off = true;
        g.region = region;
        g.inference = inference;
    } else {
        off_at_callers(m, func, depth, &g);
    }
    if (!g.off)
        return g;
    /* Turned back on anywhere in the function: where it runs again is not
     * read, so nothing is claimed. */
    grad_switch sw = {.m = m};
    al_node_preorder(al_node_field(func, "body"), find_grad_switch, &sw);
    if (!ts_node_is_null(sw.found)) {
        g = (al_grad){.off = false, .spoiler = sw.what, .spoiler_row = al_node_row(sw.found)};
        return g;
    }
    return g;
}

/* A mention of name in the function before region, or after it when a
 * loop may come back (an identifier, not an attribute's or a keyword's
 * name), or a null node. */
typedef struct {
    const al_pyfile *pf;
    const char *name;
    uint32_t from, to;
    bool looped; /* a loop of the function encloses the region */
    TSNode found;
} outside_mention;

static al_visit find_outside(TSNode n, void *arg)
{
    outside_mention *s = arg;
    if (!ts_node_is_null(s->found))
        return AL_VISIT_OVER;
    /* Inside the region, or after it with no loop to come back: what
     * reads the updated tensor there cannot have saved the old one. */
    if ((ts_node_start_byte(n) >= s->from && ts_node_end_byte(n) <= s->to) ||
        (ts_node_start_byte(n) >= s->to && !s->looped))
        return AL_VISIT_OVER;
    if (!al_node_is(n, "identifier") || !al_node_text_eq(s->pf, n, s->name))
        return AL_VISIT_INTO;
    if (al_py_ident_is_label(n))
        return AL_VISIT_INTO;
    s->found = n;
    return AL_VISIT_OVER;
}

TSNode al_grad_use_outside(const al_pyfile *pf, TSNode func, TSNode region, const char *name,
                           bool *looped)
{
    outside_mention s = {.pf = pf, .name = name, .from = ts_node_start_byte(region),
                         .to = ts_node_end_byte(region)};
    for (TSNode p = ts_node_parent(region); !ts_node_is_null(p) && !ts_node_eq(p, func);
         p = ts_node_parent(p))
        s.looped |= al_node_is(p, "for_statement") || al_node_is(p, "while_statement");
    al_node_preorder(func, find_outside, &s);
    *looped = !ts_node_is_null(s.found) && ts_node_start_byte(s.found) >= s.to;
    return s.found;
}

/* Whether v makes a tensor in the mode it runs in (an operator, a torch
 * function or a tensor method the op tables say returns a new tensor),
 * rather than handing back one made elsewhere, which may be an inference
 * tensor (a view, an alias, what a function returns). */
static bool made_here(const al_pymodule *m, TSNode v)
{
    v = al_py_unparen(v);
    if (al_node_is(v, "binary_operator") || al_node_is(v, "unary_operator"))
        return true;
    if (!al_node_is(v, "call"))
        return false;
    TSNode fn = al_node_field(v, "function");
    char *q = al_pymodule_resolve(m, fn);
    if (!q && al_node_is(fn, "attribute")) {
        char *meth = al_node_text(m->pf, al_node_field(fn, "attribute"));
        al_strbuf k = {0};
        al_strbuf_printf(&k, "torch.Tensor.%s", meth);
        q = al_strbuf_detach(&k);
        free(meth);
    }
    const al_op_result *r = q && al_str_starts_with(q, "torch.") ? al_ops_find_result(m->ops, q) : NULL;
    free(q);
    if (r && r->returns == AL_RETURNS_NEW)
        return true;
    /* A view or `.to()` of a tensor made here is that tensor or a new one:
     * made in this mode either way. */
    return r && r->returns != AL_RETURNS_NOT_TENSOR && al_node_is(fn, "attribute") &&
           made_here(m, al_node_field(fn, "object"));
}

typedef struct {
    const al_pymodule *m;
    TSNode func, stmt;
    const char *name;
    TSNode only; /* the one binding that reaches stmt, when known */
    TSNode found;
    const char *why;
} inference_source;

static al_visit find_inference_source(TSNode n, void *arg)
{
    inference_source *s = arg;
    if (!ts_node_is_null(s->found))
        return AL_VISIT_OVER;
    if (al_node_is(n, "function_definition") || al_node_is(n, "class_definition") ||
        al_node_is(n, "lambda"))
        return ts_node_eq(n, s->func) ? AL_VISIT_INTO : AL_VISIT_OVER;
    bool binds = false;
    TSNode value = {0};
    if (al_node_is(n, "assignment") || al_node_is(n, "augmented_assignment") ||
        al_node_is(n, "named_expression")) {
        TSNode left = al_node_is(n, "named_expression") ? al_node_field(n, "name")
                                                        : al_node_field(n, "left");
        binds = al_node_is(left, "identifier") ? al_node_text_eq(s->m->pf, left, s->name)
                                               : al_py_count_ident(s->m->pf, left, s->name) > 0;
        value = al_node_field(n, "value");
        if (ts_node_is_null(value))
            value = al_node_field(n, "right");
        if (binds && !al_node_is(left, "identifier") && !al_node_is(n, "augmented_assignment"))
            value = (TSNode){0}; /* unpacked: what the element is, is not read */
    } else if (al_node_is(n, "for_statement") || al_node_is(n, "for_in_clause") ||
               al_node_is(n, "as_pattern")) {
        TSNode left = al_node_is(n, "as_pattern") ? al_node_field(n, "alias") : al_node_field(n, "left");
        binds = !ts_node_is_null(left) && al_py_count_ident(s->m->pf, left, s->name) > 0;
    }
    if (!binds || ts_node_eq(n, s->stmt) || (!ts_node_is_null(s->only) && !ts_node_eq(n, s->only)))
        return AL_VISIT_INTO;
    TSNode block = inference_block(s->m, s->func, n);
    if (!ts_node_is_null(block) && !(ts_node_start_byte(s->stmt) >= ts_node_start_byte(block) &&
                                     ts_node_end_byte(s->stmt) <= ts_node_end_byte(block))) {
        s->found = n;
        s->why = "made inside an `inference_mode()` block that the update is not in";
    } else if (!al_node_is(n, "augmented_assignment") &&
               (ts_node_is_null(value) || !made_here(s->m, value))) {
        s->found = n;
        s->why = "bound to a value not made on that line (a view, an element, what a call "
                 "returns), which may be an inference tensor";
    }
    return AL_VISIT_INTO;
}

TSNode al_grad_inference_source(const al_pymodule *m, TSNode func, TSNode stmt, const char *name,
                                TSNode dom, const char **why)
{
    inference_source s = {.m = m, .func = func, .stmt = stmt, .name = name, .only = dom};
    al_node_preorder(func, find_inference_source, &s);
    *why = s.why;
    return s.found;
}
