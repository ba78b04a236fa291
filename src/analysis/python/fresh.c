#include "fresh_internal.h"
#include "tensor_methods.h"

#include "lifetime.h"
#include "rebinding.h"
#include "call_args.h"
#include "extension.h"
#include "../core/index.h"
#include "../../base/util.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The walk stops here: say so to the summary being made. */
void al_fresh_stopped(al_fresh_walk w)
{
    if (w.cut)
        *w.cut = true;
}

#define MAX_HOPS 6

static al_fresh_walk hop(al_fresh_walk w)
{
    w.hops++;
    return w;
}

/* Asking about the whole value (an operand, a receiver), not an element. */
static al_fresh_walk whole(al_fresh_walk w)
{
    w.elem = -1;
    return w;
}

static al_fresh_walk element(al_fresh_walk w, int k)
{
    w.elem = k;
    return w;
}

al_fresh_walk al_fresh_enter(al_fresh_walk w)
{
    w.calls++;
    w.hops = 0;
    return w;
}

void al_own_free(al_own *o)
{
    free(o->why);
    free(o->param);
    o->why = NULL;
    o->param = NULL;
}

al_own al_own_meet(al_own a, al_own b)
{
    /* Returns of the same parameter stay one; any other weaker fact
     * beside it is the weaker fact alone. */
    bool same_param = a.param && b.param && !strcmp(a.param, b.param);
    /* Both weak, one only for returning its argument: the other's reason
     * is what stands in the way. */
    if (a.kind == AL_OWN_NO && b.kind == AL_OWN_NO && a.param && !b.param) {
        al_own t = a;
        a = b;
        b = t;
    }
    if (a.param && b.kind != AL_OWN_FRESH && !same_param) {
        free(a.param);
        a.param = NULL;
    }
    if (b.param && a.kind != AL_OWN_FRESH && !same_param) {
        free(b.param);
        b.param = NULL;
    }
    bool or_none = a.or_none || b.or_none;
    if (a.param && b.param && same_param && b.kept_row > a.kept_row)
        a.kept_row = b.kept_row;
    if (!a.param)
        a.kept_row = 0;
    if (!b.param)
        b.kept_row = 0;
    if (b.kind < a.kind || (b.kind == a.kind && !a.why && !a.param)) {
        al_own t = a;
        a = b;
        b = t;
    }
    al_own_free(&b);
    a.or_none = or_none;
    return a;
}

al_own al_fresh_make(al_own_kind kind, const char *fmt, ...)
{
    al_own o = {kind, NULL, NULL, 0, false};
    if (fmt) {
        char buf[512];
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(buf, sizeof buf, fmt, ap);
        va_end(ap);
        o.why = al_xstrdup(buf);
    }
    return o;
}

static al_own value_own(const al_pymodule *m, TSNode func, TSNode v, al_fresh_walk w);

/* The text of n for a message, shortened. */
char *al_fresh_shown(const al_pyfile *pf, TSNode n)
{
    char *t = al_node_text_compact(pf, n);
    if (strlen(t) > 60)
        strcpy(t + 57, "...");
    return t;
}

/* A fact whose reason names one expression: fmt has one %s, for n's
 * text. */
al_own al_fresh_make_about(const al_pyfile *pf, al_own_kind kind, const char *fmt, TSNode n)
{
    char *t = al_fresh_shown(pf, n);
    char buf[512];
    snprintf(buf, sizeof buf, fmt, t);
    free(t);
    return (al_own){kind, al_xstrdup(buf), NULL, 0, false};
}

static bool param_named(const al_pymodule *m, TSNode func, TSNode id)
{
    char *name = al_node_text(m->pf, id);
    bool yes = al_py_is_param(m->pf, func, name);
    free(name);
    return yes;
}

typedef struct {
    const al_pymodule *m;
    TSNode func;
    const char *name;
    al_fresh_walk w;
    al_own own;
    bool any;
    TSNode skip; /* `x = f(x)` asking what x is handed: this binding is
                  * what the answer gives, not an input to it */
} bindings;

static bool binds_name(const al_pyfile *pf, TSNode target, const char *name)
{
    return al_py_count_ident(pf, target, name) > 0;
}

static al_visit visit_binding(TSNode n, void *arg)
{
    bindings *b = arg;
    const al_pyfile *pf = b->m->pf;
    if (al_node_is(n, "function_definition") || al_node_is(n, "class_definition") ||
        al_node_is(n, "lambda"))
        return AL_VISIT_OVER;
    if (al_node_is(n, "assignment") && ts_node_eq(n, b->skip))
        return AL_VISIT_INTO;
    if (al_node_is(n, "assignment")) {
        TSNode left = al_node_field(n, "left");
        /* `x = x * k`, `x = x.view(...)`: owned as x's value was */
        bool own_update = al_rebind_updates_itself(pf, al_node_field(n, "right"), b->name);
        if (al_node_is(left, "identifier") && al_node_text_eq(pf, left, b->name) && own_update) {
            b->any = true;
        } else if (al_node_is(left, "identifier") && al_node_text_eq(pf, left, b->name)) {
            b->any = true;
            b->own = al_own_meet(b->own, value_own(b->m, b->func, al_node_field(n, "right"),
                                                    hop(b->w)));
        } else if (!al_node_is(left, "subscript") && !al_node_is(left, "attribute") &&
                   binds_name(pf, left, b->name)) {
            /* `x, _ = proj(x)`: the element of what the call returns in
             * x's position. */
            TSNode right = al_py_unparen(al_node_field(n, "right"));
            int k = al_unpacked_position(pf, left, b->name);
            b->any = true;
            al_own o;
            if (!al_node_is(right, "call"))
                o = al_fresh_make(AL_OWN_NO, "`%s` is unpacked from a value", b->name);
            else if (k < 0 || b->w.elem >= 0)
                o = al_fresh_make(AL_OWN_ASSUMED, "assumes `%s`, unpacked from a call, is a new tensor "
                                         "(a nested or starred unpacking is not followed)",
                         b->name);
            else
                o = value_own(b->m, b->func, right, element(hop(b->w), k));
            b->own = al_own_meet(b->own, o);
        }
    } else if ((al_node_is(n, "for_statement") &&
                binds_name(pf, al_node_field(n, "left"), b->name)) ||
               (al_node_is(n, "named_expression") &&
                binds_name(pf, al_node_field(n, "name"), b->name))) {
        b->any = true;
        b->own = al_own_meet(b->own, al_fresh_make(AL_OWN_NO, "`%s` is bound by a loop or `:=`", b->name));
    }
    return AL_VISIT_INTO;
}

/* A local name of func at `at` (a return, or null): what its every
 * binding gives. */
static al_own name_own(const al_pymodule *m, TSNode func, const char *name, TSNode at, al_fresh_walk w,
                       TSNode skip)
{
    bool param = al_py_is_param(m->pf, func, name);
    bindings b = {m, func, name, w, {AL_OWN_FRESH, NULL, NULL, 0, false}, false, skip};
    al_node_preorder(al_node_field(func, "body"), visit_binding, &b);
    if (param && !b.any) {
        al_own_free(&b.own);
        al_own o = al_fresh_make(AL_OWN_NO, "returns its argument `%s`", name);
        o.param = al_xstrdup(name);
        return o;
    }
    /* A parameter rebound in the body is still the argument on a path
     * that skips every rebinding. */
    if (param && (ts_node_is_null(at) || ts_node_is_null(al_rebound_before(m->pf, func, at, name)))) {
        bool fresh_else = b.own.kind == AL_OWN_FRESH;
        al_own_free(&b.own);
        al_own o = al_fresh_make(AL_OWN_NO, "it may return its argument `%s`: line %zu returns it where not "
                                   "every path rebinds it first",
                        name, ts_node_is_null(at) ? al_node_row(func) : al_node_row(at));
        if (fresh_else)
            o.param = al_xstrdup(name);
        return o;
    }
    if (!b.any) {
        al_own_free(&b.own);
        return al_fresh_make(AL_OWN_NO, "`%s` is not bound in the function", name);
    }
    return b.own;
}

typedef struct {
    const al_pymodule *m;
    const char *name;
    uint32_t from; /* uses before this byte hold an older value */
    TSNode use;    /* the first use that lets it live on, or null */
    TSNode handed; /* the use the question is about (a call's argument), or null */
} kept;

static al_visit visit_kept(TSNode n, void *arg)
{
    kept *k = arg;
    if (!ts_node_is_null(k->use) || al_node_is(n, "return_statement"))
        return AL_VISIT_OVER;
    if (al_node_is(n, "identifier") && ts_node_start_byte(n) >= k->from &&
        al_node_text_eq(k->m->pf, n, k->name)) {
        TSNode par = ts_node_parent(n);
        bool bound = al_node_is(par, "assignment") && ts_node_eq(al_node_field(par, "left"), n);
        if (!bound && !ts_node_eq(n, k->handed) && !al_rebinding_reads_old(k->m->pf, n, k->name) &&
            !al_launch_argument(n) &&
            al_use_escapes(k->m->pf, &k->m->imports, n))
            k->use = n;
    }
    return AL_VISIT_INTO;
}

/* A local returned by its function: new when every binding is, and no
 * use but the return lets it live on (stored, aliased, handed to a call
 * that may keep it). */
static al_own returned_name_own(const al_pymodule *m, TSNode func, const char *name, TSNode ret,
                                al_fresh_walk w, TSNode handed)
{
    /* `x = f(x)`: the binding the handed x makes is not one of x's inputs. */
    TSNode skip = {0};
    if (!ts_node_is_null(handed) && al_rebinding_reads_old(m->pf, handed, name))
        for (skip = ts_node_parent(handed); !al_node_is(skip, "assignment");)
            skip = ts_node_parent(skip);
    al_own o = name_own(m, func, name, ret, w, skip);
    if (o.kind != AL_OWN_FRESH)
        return o;
    /* Past the last rebinding every path takes (outside a loop), the name
     * holds the returned value; before it, an older one. */
    TSNode last = ts_node_is_null(ret) ? ret : al_rebound_before(m->pf, func, ret, name);
    uint32_t from = !ts_node_is_null(last) && ts_node_is_null(al_enclosing_loop(func, last)) ? ts_node_start_byte(last) : 0;
    kept k = {m, name, from, {{0}, NULL, NULL}, handed};
    al_node_preorder(al_node_field(func, "body"), visit_kept, &k);
    if (ts_node_is_null(k.use))
        return o;
    TSNode st = k.use;
    while (!ts_node_is_null(ts_node_parent(st)) && !al_node_is(st, "expression_statement") &&
           !al_node_is(st, "assignment"))
        st = ts_node_parent(st);
    char *t = al_fresh_shown(m->pf, st);
    al_own a = al_use_surely_kept(m->pf, k.use)
                   ? al_fresh_make(AL_OWN_NO, "`%s` is kept (line %zu: `%s`)", name, al_node_row(k.use), t)
                   : al_fresh_make(AL_OWN_ASSUMED, "assumes nothing keeps `%s` (line %zu: `%s`)", name,
                          al_node_row(k.use), t);
    free(t);
    return a;
}

typedef struct {
    const al_pymodule *m;
    TSNode func;
    al_fresh_walk w;
    al_own own;
    bool any;
    int values; /* returns of something other than None */
} returns;

static al_visit visit_return(TSNode n, void *arg)
{
    returns *r = arg;
    if (al_node_is(n, "function_definition") || al_node_is(n, "class_definition") ||
        al_node_is(n, "lambda"))
        return AL_VISIT_OVER;
    if (al_node_is(n, "yield")) {
        r->own = al_own_meet(r->own, al_fresh_make(AL_OWN_NO, "it is a generator"));
        return AL_VISIT_OVER;
    }
    if (!al_node_is(n, "return_statement"))
        return AL_VISIT_INTO;
    r->any = true;
    TSNode v = ts_node_named_child_count(n) ? ts_node_named_child(n, 0) : (TSNode){0};
    /* None is no tensor: whoever updates the value in place got one of
     * the other returns. */
    if (ts_node_is_null(v) || al_node_is(al_py_unparen(v), "none")) {
        r->own.or_none = true;
        return AL_VISIT_OVER;
    }
    r->values++;
    v = al_py_unparen(v);
    al_fresh_walk w = r->w;
    /* `return out, bias` and the caller takes element k: out. */
    if (w.elem >= 0 && (al_node_is(v, "tuple") || al_node_is(v, "expression_list")) &&
        (uint32_t)w.elem < ts_node_named_child_count(v) &&
        !al_node_is(ts_node_named_child(v, (uint32_t)w.elem), "list_splat")) {
        bool splat = false;
        for (uint32_t i = 0; i < (uint32_t)w.elem; i++)
            splat |= al_node_is(ts_node_named_child(v, i), "list_splat");
        if (!splat) {
            v = al_py_unparen(ts_node_named_child(v, (uint32_t)w.elem));
            w = whole(w);
        }
    }
    al_own o;
    if (al_node_is(v, "identifier")) {
        char *name = al_node_text(r->m->pf, v);
        o = returned_name_own(r->m, r->func, name, n, w, (TSNode){0});
        free(name);
    } else {
        o = value_own(r->m, r->func, v, w);
    }
    r->own = al_own_meet(r->own, o);
    return AL_VISIT_OVER;
}

al_own al_fresh_own_copy(const al_own *o)
{
    return (al_own){o->kind, o->why ? al_xstrdup(o->why) : NULL,
                    o->param ? al_xstrdup(o->param) : NULL, o->kept_row, o->or_none};
}

void al_fresh_own_free_boxed(void *p)
{
    al_own_free(p);
    free(p);
}

/* What a project function returns: the meet over its returns. Its module
 * (a view the index parsed) follows calls through the caller's index. */
al_own al_fresh_returns(const al_def *d, al_fresh_walk w, const al_pymodule *caller)
{
    if (!al_py_decorators_transparent(d->pf, d->def))
        return al_fresh_make(AL_OWN_NO, "it is decorated: the decorator may return something "
                                        "else (a cache gives every caller one tensor)");
    struct al_index *ix = caller->index;
    al_pymodule scoped = al_pymodule_scoped(d->mod, d->path, caller);
    /* What a call returns depends on the op tables, which a configuration
     * of the run may extend: one memo per table. A summary the depth limit
     * cut short depends on where the walk began: it is not kept, so that
     * what is kept is the same whichever file asked first. The bytes'
     * hash is in the key: a fix pass re-parses the file it changed, under
     * the same path. */
    char key[600];
    snprintf(key, sizeof key, "own\n%s\n%016llx\n%llu\n%u\n%p\n%d", d->path,
             (unsigned long long)d->pf->src->hash, d->pf->memo_tag, ts_node_start_byte(d->def),
             (const void *)scoped.ops, w.elem);
    al_own *memo = ix ? al_index_memo_get(ix, key) : NULL;
    if (memo)
        return al_fresh_own_copy(memo);
    bool cut = false;
    al_fresh_walk inner = w;
    inner.cut = &cut;
    returns r = {&scoped, d->def, inner, {AL_OWN_FRESH, NULL, NULL, 0, false}, false, 0};
    al_node_preorder(al_node_field(d->def, "body"), visit_return, &r);
    if (!r.any) {
        al_own_free(&r.own);
        r.own = al_fresh_make(AL_OWN_NO, "it returns nothing");
    } else if (!r.values) {
        al_own_free(&r.own);
        r.own = al_fresh_make(AL_OWN_NO, "it returns only None");
    }
    /* It returns its parameter: a use in it that lets the argument live on
     * (stored, appended, handed to a call that may keep it) means the
     * caller's new tensor is held there too. */
    if (r.own.param) {
        kept k = {&scoped, r.own.param, 0, {{0}, NULL, NULL}, {{0}, NULL, NULL}};
        al_node_preorder(al_node_field(d->def, "body"), visit_kept, &k);
        if (!ts_node_is_null(k.use)) {
            al_own o = al_fresh_make(AL_OWN_NO, "it may keep its argument `%s` (line %zu)", r.own.param,
                            al_node_row(k.use));
            /* Still its parameter's: a call that leaves it None gets the
             * function's own tensor back (through_argument). */
            o.param = r.own.param;
            o.kept_row = al_node_row(k.use);
            r.own.param = NULL;
            al_own_free(&r.own);
            r.own = o;
        }
    }
    if (cut)
        al_fresh_stopped(w);
    if (ix && !cut) {
        al_own *box = al_xmalloc(sizeof *box);
        *box = al_fresh_own_copy(&r.own);
        al_index_memo_put(ix, key, box, al_fresh_own_free_boxed);
    }
    return r.own;
}

/* What the argument arg of call, in func, hands its callee: a new tensor
 * the caller does not read again (a temporary, or a local name not read
 * after the call, outside a loop, that nothing keeps), or why not. */
static al_own handed_own(const al_pymodule *m, TSNode func, TSNode call, TSNode arg, al_fresh_walk w)
{
    arg = al_py_unparen(arg);
    if (!al_node_is(arg, "identifier"))
        return value_own(m, func, arg, whole(hop(w)));
    al_own a;
    char *name = al_node_text(m->pf, arg);
    /* `x = f(x)`: what x held dies at the rebinding. */
    bool rebound = al_rebinding_reads_old(m->pf, arg, name);
    TSNode later = rebound || ts_node_is_null(func) ? (TSNode){0} : al_read_after(m->pf, func, call, name);
    if (ts_node_is_null(func)) {
        a = al_fresh_make(AL_OWN_NO, "`%s` is a name of the module", name);
    } else if (al_py_is_param(m->pf, func, name)) {
        a = al_fresh_make(AL_OWN_NO, "`%s` is a parameter", name);
    } else if (!ts_node_is_null(later)) {
        a = al_fresh_make(AL_OWN_NO, "`%s` is read again on line %zu", name, al_node_row(later));
    } else if (!rebound && !ts_node_is_null(al_enclosing_loop(func, call))) {
        a = al_fresh_make(AL_OWN_NO, "`%s` is handed on in a loop", name);
    } else {
        /* Its bindings, and no use before the call that keeps it. */
        a = returned_name_own(m, func, name, (TSNode){0}, hop(w), arg);
    }
    free(name);
    return a;
}

al_own al_handed_own(const al_pymodule *m, TSNode func, TSNode call, TSNode arg)
{
    al_fresh_walk w = {0, 0, -1, NULL};
    return handed_own(m, func, call, arg, w);
}

/* o: d returns its parameter o.param on some path, new tensors on the
 * others. The call's value is then what the caller hands it there, when
 * that is a new tensor the caller does not read again: no one else holds
 * what comes back. */
al_own al_fresh_through_argument(const al_pymodule *m, TSNode func, TSNode call, const al_def *d,
                               bool bound, al_own o, al_fresh_walk w)
{
    TSNode arg = al_call_argument_for(m, call, d, bound, o.param);
    if (ts_node_is_null(arg) && al_call_leaves_none(m, call, d, bound, o.param)) {
        /* Where it returns the parameter, it returns None: no tensor. What
         * it binds the name to instead is its own, but may be kept where
         * the parameter would be. */
        al_own r = o.kept_row
                       ? al_fresh_make(AL_OWN_ASSUMED, "returns its argument `%s` or a new tensor; line %zu "
                                              "leaves `%s` None (its default), so a tensor it "
                                              "returns is its own; assumes the use on line %zu "
                                              "keeps nothing",
                              o.param, al_node_row(call), o.param, o.kept_row)
                       : al_fresh_make(AL_OWN_FRESH, "returns its argument `%s` or a new tensor; line %zu "
                                            "leaves `%s` None (its default), so a tensor it "
                                            "returns is new",
                              o.param, al_node_row(call), o.param);
        al_own_free(&o);
        return r;
    }
    if (o.kept_row) {
        free(o.param);
        o.param = NULL;
        o.kept_row = 0;
        return o;
    }
    if (ts_node_is_null(arg))
        return o;
    arg = al_py_unparen(arg);
    al_own a = handed_own(m, func, call, arg, w);
    if (a.kind == AL_OWN_NO) {
        al_own_free(&a);
        return o;
    }
    char *t = al_fresh_shown(m->pf, arg);
    char *p = o.param;
    o.param = NULL;
    al_own_free(&o);
    /* Said after the callee's name: "`f` returns ...". */
    al_own r = al_fresh_make(a.kind, a.kind == AL_OWN_FRESH
                                ? "returns its argument `%s` or a new tensor; line %zu hands it `%s`, "
                                  "a new tensor not read after the call"
                                : "returns its argument `%s` or a new tensor; line %zu hands it `%s`: %s",
                    p, al_node_row(call), t, a.why ? a.why : "");
    free(p);
    free(t);
    al_own_free(&a);
    return r;
}

/* What op table t (the project's schemas, or the op tables) says a call of
 * q returns; false when it says nothing.
 * `of` is what an alias would be of: a method's receiver, a function's
 * first argument. */
static bool table_own(const al_pymodule *m, TSNode func, TSNode call, const al_op_table *t,
                      bool schema, const char *q, TSNode of, bool method, al_fresh_walk w, al_own *out)
{
    const al_pyfile *pf = m->pf;
    const al_op_result *r = al_ops_find_result(t, q);
    if (!r)
        return false;
    TSNode given = method || schema ? (TSNode){0} : al_call_output_handed(m, call, q);
    if (!ts_node_is_null(given)) {
        *out = al_fresh_make_about(pf, AL_OWN_NO, "it returns the output it is handed, `%s`", given);
        return true;
    }
    al_op_returns returns = al_call_asked_in_place(pf, call) ? AL_RETURNS_ALIAS : r->returns;
    const char *name = method                           ? strrchr(q, '.') + 1
                       : al_str_starts_with(q, "builtins.") ? q + 9
                                                            : q;
    if (returns == AL_RETURNS_NEW) {
        const char *table = r->origin && strrchr(r->origin, '/') ? strrchr(r->origin, '/') + 1
                                                                 : r->origin;
        if (r->library)
            *out = al_fresh_make(AL_OWN_ASSUMED, "assumes `%s` returns a new tensor, as its library documents "
                                        "(its entry in %s)", q, table ? table : "the op tables");
        else if (schema)
            *out = al_fresh_make(AL_OWN_FRESH, "`%s` returns a new tensor (its schema's result has no alias "
                                      "annotation)", q);
        else
            *out = al_fresh_make(AL_OWN_FRESH, NULL);
        return true;
    }
    if (schema) {
        *out = al_fresh_make(AL_OWN_NO, "`%s` returns one of its arguments (its schema's result is "
                               "annotated as an alias)", q);
        return true;
    }
    if (returns == AL_RETURNS_NOT_TENSOR) {
        *out = al_fresh_make(AL_OWN_NO, "`%s%s(...)` does not return a tensor", method ? "." : "", name);
        return true;
    }
    if (returns == AL_RETURNS_SHARED_VIEW) {
        *out = al_fresh_make(AL_OWN_NO, "`%s%s(...)` gives a view whose elements may share memory: "
                                        "an in-place update of it raises",
                             method ? "." : "", name);
        return true;
    }
    of = al_py_unparen(of);
    if (!ts_node_is_null(of) && !al_node_is(of, "identifier") && !al_node_is(of, "attribute")) {
        *out = value_own(m, func, of, whole(hop(w))); /* a new value's view stays new */
        return true;
    }
    char *o = ts_node_is_null(of) ? al_xstrdup("its argument") : al_fresh_shown(pf, of);
    /* A cast of a tensor that may already have the dtype is that tensor
     * (issue 57.3): not a new one, whatever an unsafe fix would hope. */
    if (returns == AL_RETURNS_MAY_ALIAS)
        *out = al_fresh_make(AL_OWN_NO, "`%s%s(...)` returns `%s` itself when it already has "
                                        "that dtype and device",
                             method ? "." : "", name, o);
    else
        *out = al_fresh_make(AL_OWN_NO, "it is a view of `%s`", o);
    /* A view of a parameter that is the argument (or a new tensor): what
     * the argument is, the caller knows (through_argument). */
    if (returns != AL_RETURNS_MAY_ALIAS && !ts_node_is_null(of) && al_node_is(of, "identifier") &&
        al_py_is_param(pf, func, o)) {
        al_own p = name_own(m, func, o, (TSNode){0}, hop(w), (TSNode){0});
        out->param = p.param;
        p.param = NULL;
        al_own_free(&p);
    }
    free(o);
    return true;
}

/* `self.m(...)`: what the project's subclasses' overrides of m return,
 * met with o (what the method the call names returns). */
static al_own overrides_own(const al_pymodule *m, TSNode func, TSNode call, const al_def *d, al_fresh_walk w,
                            al_own o)
{
    const al_pyfile *pf = m->pf;
    TSNode fn = al_node_field(call, "function");
    TSNode obj = al_node_is(fn, "attribute") ? al_node_field(fn, "object") : (TSNode){0};
    if (ts_node_is_null(obj) || !(al_node_text_eq(pf, obj, "self") || al_node_text_eq(pf, obj, "cls")))
        return o;
    TSNode c = al_py_enclosing_class(call);
    if (ts_node_is_null(c))
        return o;
    al_def here = {m->path, pf, m, c, false, false};
    char *meth = al_node_text(pf, al_node_field(fn, "attribute"));
    al_def defs[16];
    bool complete;
    size_t n = al_index_overrides(m->index, &here, meth, d, defs, 16, &complete);
    if (!complete) {
        o = al_own_meet(o, al_fresh_make(AL_OWN_NO, "`self.%s` may run an override of a subclass: "
                                                    "the project defines `%s` in too many files "
                                                    "to read them all",
                                         meth, meth));
    }
    for (size_t i = 0; i < n && o.kind != AL_OWN_NO; i++) {
        al_own r = al_fresh_returns(&defs[i], al_fresh_enter(w), m);
        if (r.param)
            r = al_fresh_through_argument(m, func, call, &defs[i], true, r, w);
        if (r.kind == AL_OWN_NO) {
            al_def cls;
            al_index_class_of(&defs[i], &cls);
            char *sub = al_node_text(cls.pf, al_node_field(cls.def, "name"));
            al_own why = al_fresh_make(AL_OWN_NO, "`self.%s` runs `%s.%s` when self is a `%s` (a "
                                                  "subclass in the project), which may not return "
                                                  "a new tensor: %s",
                                       meth, sub, meth, sub, r.why ? r.why : "?");
            free(sub);
            al_own_free(&r);
            r = why;
        }
        o = al_own_meet(o, r);
    }
    free(meth);
    return o;
}

static al_own call_own(const al_pymodule *m, TSNode func, TSNode call, al_fresh_walk w)
{
    const al_pyfile *pf = m->pf;
    TSNode fn = al_node_field(call, "function");
    al_own o;
    char *q = al_pymodule_resolve(m, fn);
    if (q) {
        /* A function of an imported module: what the op tables, or a
         * registered op's schema, say it returns. */
        al_py_args a;
        al_py_args_read(call, &a);
        TSNode first = a.npos ? a.pos[0] : (TSNode){0};
        const al_op_table *schemas =
            !strncmp(q, "torch.ops.", 10) && m->index ? al_index_schemas(m->index, m->path) : NULL;
        bool said = table_own(m, func, call, m->ops, false, q, first, false, w, &o) ||
                    (schemas && table_own(m, func, call, schemas, true, q, first, false, w, &o)) ||
                    al_extension_call_own(m, q, &o);
        free(q);
        if (said)
            return o;
    } else if (al_node_is(fn, "attribute")) {
        /* A method: of a module (`self.proj.forward(...)`), else as a
         * tensor's (`.view` is a view of its receiver, `.to` may be it). */
        TSNode obj = al_node_field(fn, "object");
        if (al_node_is(obj, "attribute") && al_node_text_eq(pf, al_node_field(obj, "object"), "self") &&
            al_node_text_eq(pf, al_node_field(fn, "attribute"), "forward")) {
            char *a = al_node_text(pf, al_node_field(obj, "attribute"));
            o = al_fresh_objects.module_call(m, func, call, a, w);
            free(a);
            return o;
        }
        /* A literal's method (`", ".join(...)`, `"{}".format(...)`) gives a
         * string or a number. */
        TSNode lit = al_py_unparen(obj);
        if (al_node_is(lit, "string") || al_node_is(lit, "concatenated_string") ||
            al_node_is(lit, "integer") || al_node_is(lit, "float"))
            return al_fresh_make_about(pf, AL_OWN_NO, "`%s(...)` is a method of a literal, not a tensor", fn);
        /* `self.double(...)` is a module's attribute, not Tensor.double. */
        bool tensor = !al_node_text_eq(pf, obj, "self") && !al_node_text_eq(pf, obj, "cls");
        al_strbuf key = {0};
        size_t len;
        const char *meth = al_node_ptr(pf, al_node_field(fn, "attribute"), &len);
        al_strbuf_printf(&key, "torch.Tensor.%.*s", (int)len, meth);
        bool said = tensor && table_own(m, func, call, m->ops, false, key.data, obj, true, w, &o);
        al_strbuf_free(&key);
        if (said)
            return o;
    }
    /* A project function: its returns. */
    al_def d;
    al_pysite site = {m->path, pf, m};
    /* Past the depth followed, nothing is resolved (that is the cost the
     * limit saves): a call there is assumed, and says so. */
    if (m->index && w.calls >= AL_FRESH_MAX_CALLS && (al_fresh_stopped(w), !al_node_is(fn, "attribute")))
        return al_fresh_make_about(pf, AL_OWN_ASSUMED,
                          "assumes `%s(...)` returns a new tensor: it is past the depth "
                          "alloclint follows",
                          fn);
    bool found = m->index && w.calls < AL_FRESH_MAX_CALLS &&
                 al_index_resolve(m->index, &site, fn, call, &d) && !d.kernel;
    if (found) {
        o = al_fresh_returns(&d, al_fresh_enter(w), m);
        bool through = o.param != NULL;
        if (through) {
            o = al_fresh_through_argument(m, func, call, &d, d.method && al_node_is(fn, "attribute"), o, w);
            char *t = al_fresh_shown(pf, fn);
            al_strbuf sb = {0};
            al_strbuf_printf(&sb, "`%s` %s", t, o.why ? o.why : "");
            free(t);
            free(o.why);
            o.why = al_strbuf_detach(&sb);
        }
        if (d.method && o.kind != AL_OWN_NO)
            o = overrides_own(m, func, call, &d, w, o);
        if (o.kind == AL_OWN_FRESH && w.calls == 0 && w.hops == 0 && !through) {
            char *t = al_fresh_shown(pf, fn);
            free(o.why);
            al_strbuf sb = {0};
            if (w.elem >= 0)
                al_strbuf_printf(&sb, "`%s` returns a new tensor as element %d on every path", t,
                                 w.elem);
            else if (o.or_none)
                al_strbuf_printf(&sb, "`%s` returns a new tensor on every path that returns one "
                                      "(None on the others, which no update gets past)", t);
            else
                al_strbuf_printf(&sb, "`%s` returns a new tensor on every path", t);
            o.why = al_strbuf_detach(&sb);
            free(t);
        }
        if (o.kind == AL_OWN_NO) {
            char *t = al_fresh_shown(pf, fn);
            char *why = o.why;
            o.why = NULL;
            al_strbuf sb = {0};
            al_strbuf_printf(&sb, "`%s` may not return a new tensor: %s", t, why ? why : "?");
            o.why = al_strbuf_detach(&sb);
            free(why);
            free(t);
        }
        return o;
    }
    if (al_node_is(fn, "attribute") && m->index && w.calls < AL_FRESH_MAX_CALLS &&
        !al_node_text_eq(pf, al_node_field(fn, "object"), "self") &&
        !al_node_text_eq(pf, al_node_field(fn, "object"), "cls") &&
        !al_call_tensor_evidence(m, fn) && al_fresh_objects.method_meet(m, func, call, w, &o))
        return o;
    /* `self.<attr>(...)`: a module. */
    if (al_node_is(fn, "attribute") && al_node_text_eq(pf, al_node_field(fn, "object"), "self")) {
        char *a = al_node_text(pf, al_node_field(fn, "attribute"));
        o = al_fresh_objects.module_call(m, func, call, a, w);
        free(a);
        return o;
    }
    /* A callable handed in: anything, its argument included. */
    if (al_node_is(fn, "identifier") && param_named(m, func, fn))
        return al_fresh_make_about(pf, AL_OWN_NO, "`%s` is a parameter: what it returns may be its input", fn);
    /* A builtin (`len`, `int`): the tables say what it gives. */
    if (al_node_is(fn, "identifier")) {
        al_strbuf key = {0};
        size_t len;
        const char *name = al_node_ptr(pf, fn, &len);
        al_strbuf_printf(&key, "builtins.%.*s", (int)len, name);
        bool said = table_own(m, func, call, m->ops, false, key.data, (TSNode){0}, false, w, &o);
        al_strbuf_free(&key);
        if (said)
            return o;
    }
    /* Nothing that alloclint read says it returns a tensor. Assumed only
     * where something does: a function of torch's, or a method that
     * torch.Tensor has (on a value not known to be anything else); not a
     * library outside torch (numpy, mlx, pathlib), `config.get(...)`,
     * `getattr(...)` or a tokenizer's `encode(...)`. */
    if (!al_call_tensor_evidence(m, fn))
        return al_fresh_make_about(pf, AL_OWN_NO,
                          "`%s(...)` is not known to return a tensor (not torch's, not a tensor "
                          "method, not a function of the project)",
                          fn);
    return al_fresh_make_about(pf, AL_OWN_ASSUMED,
                      "assumes `%s(...)` returns a new tensor that nothing else holds: alloclint "
                      "does not follow it",
                      fn);
}

/* `x.float()`, `x.to(dtype).view(n, -1)`: a Tensor method the op tables
 * say returns a copy or x itself, or a view of one. A tensor either way,
 * so an operator on it gives a new one. */
static bool tensor_cast(const al_pymodule *m, TSNode call)
{
    const al_pyfile *pf = m->pf;
    for (int depth = 0; depth < 8 && al_node_is(call, "call"); depth++) {
        TSNode fn = al_node_field(call, "function");
        if (!al_node_is(fn, "attribute"))
            return false;
        TSNode obj = al_py_unparen(al_node_field(fn, "object"));
        if (al_py_is_receiver(pf, obj) ||
            !(al_node_is(obj, "identifier") || al_node_is(obj, "attribute") ||
              al_node_is(obj, "call") || al_node_is(obj, "subscript")))
            return false;
        size_t len;
        const char *meth = al_node_ptr(pf, al_node_field(fn, "attribute"), &len);
        al_strbuf key = {0};
        al_strbuf_printf(&key, "torch.Tensor.%.*s", (int)len, meth);
        const al_op_result *r = al_ops_find_result(m->ops, key.data);
        al_strbuf_free(&key);
        if (r && r->returns == AL_RETURNS_MAY_ALIAS)
            return true;
        if (!r || r->returns != AL_RETURNS_ALIAS)
            return false;
        call = obj; /* a view: of what? */
    }
    return false;
}

static al_own value_own(const al_pymodule *m, TSNode func, TSNode v, al_fresh_walk w)
{
    const al_pyfile *pf = m->pf;
    v = al_py_unparen(v);
    if (w.hops > MAX_HOPS && (al_fresh_stopped(w), true))
        return al_fresh_make(AL_OWN_ASSUMED, "assumes the value is a new tensor (too deep to follow)");
    if (al_node_is(v, "conditional_expression") && ts_node_named_child_count(v) == 3)
        return al_own_meet(value_own(m, func, ts_node_named_child(v, 0), hop(w)),
                           value_own(m, func, ts_node_named_child(v, 2), hop(w)));
    /* An operator expression with a torch call in it (`owner * base` may
     * be two ints); a call is what the op tables or its callee say. */
    if (al_node_is(v, "binary_operator") && al_call_has_torch(pf, &m->imports, v, 0))
        return al_fresh_make(AL_OWN_FRESH, NULL);
    if (al_node_is(v, "call"))
        return call_own(m, func, v, w);
    /* `x.topk(k)[1]`, `f(...)[0]`: an element or a view of what the call
     * returns, held by no one else when that is. */
    if (al_node_is(v, "subscript") && al_node_is(al_py_unparen(al_node_field(v, "value")), "call")) {
        TSNode ix = al_node_field(v, "subscript");
        int k = -1;
        if (w.elem < 0 && al_node_is(ix, "integer")) {
            char *t = al_node_text(pf, ix);
            char *end;
            long l = strtol(t, &end, 10);
            if (!*end && l >= 0 && l < 64)
                k = (int)l;
            free(t);
        }
        return value_own(m, func, al_node_field(v, "value"), element(hop(w), k));
    }
    /* `a * b` is a new value; a tensor when an operand is one: a call that
     * gives one (not `len(x) * 2`; `owner * base` may be two ints). An
     * operand only assumed to be a tensor leaves the whole assumed (`path
     * = get_root() / name` may be a path). */
    if (al_node_is(v, "binary_operator") && w.hops >= MAX_HOPS)
        al_fresh_stopped(w); /* its operands are not read */
    else if (al_node_is(v, "binary_operator")) {
        al_own assumed = {AL_OWN_NO, NULL, NULL, 0, false};
        static const char *const builtins[] = {"len", "int", "float", "min", "max", "sum", "abs",
                                               "round", "divmod", NULL};
        for (int side = 0; side < 2; side++) {
            TSNode o = al_py_unparen(side ? al_node_field(v, "right") : al_node_field(v, "left"));
            /* `sigma * eta` of a parameter annotated a tensor. */
            if (al_node_is(o, "identifier") && !ts_node_is_null(func)) {
                char *name = al_node_text(pf, o);
                bool tensor = al_py_param_annotated_tensor(pf, func, name);
                if (tensor) { /* and never rebound */
                    al_strlist bound = {0};
                    al_py_bound_names(pf, al_node_field(func, "body"), &bound);
                    tensor = al_strlist_count(&bound, name) == 0;
                    al_strlist_free(&bound);
                }
                free(name);
                if (tensor) {
                    al_own_free(&assumed);
                    return al_fresh_make(AL_OWN_FRESH, NULL);
                }
            }
            if (!al_node_is(o, "call"))
                continue;
            char *fn = al_node_text_compact(pf, al_node_field(o, "function"));
            bool builtin = al_str_in_list(builtins, fn, strlen(fn)) || !strncmp(fn, "math.", 5);
            free(fn);
            if (builtin)
                continue;
            al_own so = tensor_cast(m, o) ? al_fresh_make(AL_OWN_FRESH, NULL)
                                          : call_own(m, func, o, whole(hop(w)));
            if (so.kind == AL_OWN_FRESH) {
                al_own_free(&so);
                al_own_free(&assumed);
                return al_fresh_make(AL_OWN_FRESH, NULL);
            }
            if (so.kind == AL_OWN_ASSUMED && assumed.kind == AL_OWN_NO) {
                al_own_free(&assumed);
                assumed = so;
            } else {
                al_own_free(&so);
            }
        }
        if (assumed.kind == AL_OWN_ASSUMED)
            return assumed;
    }
    /* `(torch.tanh(x), bias)` and the caller takes element 0. */
    if ((al_node_is(v, "tuple") || al_node_is(v, "expression_list")) && w.elem >= 0 &&
        (uint32_t)w.elem < ts_node_named_child_count(v)) {
        bool plain = true;
        for (uint32_t i = 0; i <= (uint32_t)w.elem; i++)
            plain &= !al_node_is(ts_node_named_child(v, i), "list_splat");
        TSNode e = al_py_unparen(ts_node_named_child(v, (uint32_t)w.elem));
        if (plain && !al_node_is(e, "identifier"))
            return value_own(m, func, e, whole(hop(w)));
    }
    /* `return out, bias`: which element the caller takes is not followed. */
    if (al_node_is(v, "tuple") || al_node_is(v, "expression_list"))
        return al_fresh_make_about(pf, AL_OWN_ASSUMED,
                          "it returns a tuple (`%s`): assumes the element taken is a new tensor", v);
    return al_fresh_make_about(pf, AL_OWN_NO,
                      al_node_is(v, "identifier") && param_named(m, func, v) ? "`%s` is a parameter"
                                                                           : "`%s` is not a new tensor",
                      v);
}

al_own al_value_own(const al_pymodule *m, TSNode func, TSNode value, bool follow)
{
    /* The name is bound to the tuple itself (`shape = (a, b)`), not to
     * an element a caller takes of what a helper returns. */
    TSNode v = al_py_unparen(value);
    if (al_node_is(v, "tuple") || al_node_is(v, "expression_list"))
        return al_fresh_make_about(m->pf, AL_OWN_NO, "`%s` is a tuple, not a tensor", v);
    /* Not following: start where the call limit stops the index. */
    al_fresh_walk w = {follow ? 0 : AL_FRESH_MAX_CALLS, 0, -1, NULL};
    return value_own(m, func, value, w);
}

al_own al_value_own_element(const al_pymodule *m, TSNode func, TSNode value, int elem,
                            bool follow)
{
    TSNode v = al_py_unparen(value);
    if (!al_node_is(v, "call"))
        return al_fresh_make_about(m->pf, AL_OWN_NO, "it is unpacked from `%s`, not from a call", v);
    al_fresh_walk w = {follow ? 0 : AL_FRESH_MAX_CALLS, 0, elem, NULL};
    return value_own(m, func, v, w);
}
