#include "callers.h"

#include "call_args.h"
#include "../core/index.h"
#include "../../base/paths.h"
#include "../../base/util.h"

#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* More files naming the function than this, or more calls: its callers
 * are not read (a name that common is no one function's). */
#define MAX_FILES 8
#define MAX_CALLS 16

typedef enum { PLAIN, STATIC, CLASS, INSTANCE } def_kind;

typedef struct {
    const al_pyfile *pf;
    const char *name;
    def_kind kind;
    TSNode calls[MAX_CALLS];
    bool bound[MAX_CALLS];
    size_t n;
    TSNode other; /* a use of the name that is not a call of it, or null */
} occurrences;

/* How the def is called: a method taking self or cls, a static method, a
 * function; NO_KIND (returned as -1) for a decorator that may call it
 * itself or register it. */
static int kind_of(const al_pyfile *pf, TSNode func)
{
    TSNode parent = ts_node_parent(func);
    bool decorated = al_node_is(parent, "decorated_definition");
    TSNode owner = decorated ? ts_node_parent(parent) : parent;
    bool method = al_node_is(owner, "block") && al_node_is(ts_node_parent(owner), "class_definition");
    def_kind k = method ? INSTANCE : PLAIN;
    for (uint32_t i = 0; decorated && i < ts_node_named_child_count(parent); i++) {
        TSNode d = ts_node_named_child(parent, i);
        if (!al_node_is(d, "decorator"))
            continue;
        TSNode e = ts_node_named_child(d, 0);
        if (method && al_node_text_eq(pf, e, "staticmethod"))
            k = STATIC;
        else if (method && al_node_text_eq(pf, e, "classmethod"))
            k = CLASS;
        else if (!al_node_text_eq(pf, e, "torch.no_grad()") &&
                 !al_node_text_eq(pf, e, "torch.inference_mode()"))
            return -1;
    }
    return (int)k;
}

/* `Name.f(...)`: a class, by the convention that names classes in
 * capitals; an instance method so called takes its self explicitly. */
static bool names_class(const al_pyfile *pf, TSNode receiver)
{
    if (al_node_is(receiver, "attribute"))
        receiver = al_node_field(receiver, "attribute");
    if (!al_node_is(receiver, "identifier"))
        return false;
    size_t len;
    const char *s = al_node_ptr(pf, receiver, &len);
    return len && isupper((unsigned char)s[0]);
}

static void other_use(occurrences *o, TSNode n)
{
    if (ts_node_is_null(o->other))
        o->other = n;
}

static void add_call(occurrences *o, TSNode call, bool bound, TSNode at)
{
    if (o->n == MAX_CALLS) {
        other_use(o, at);
        return;
    }
    o->calls[o->n] = call;
    o->bound[o->n++] = bound;
}

static al_visit visit_name(TSNode n, void *arg)
{
    occurrences *o = arg;
    if (al_node_is(n, "string_content") && al_node_text_eq(o->pf, n, o->name)) {
        other_use(o, n); /* getattr(obj, "f"), a registry by name */
        return AL_VISIT_OVER;
    }
    if (!al_node_is(n, "identifier") || !al_node_text_eq(o->pf, n, o->name))
        return AL_VISIT_INTO;
    TSNode par = ts_node_parent(n);
    if ((al_node_is(par, "function_definition") || al_node_is(par, "class_definition")) &&
        ts_node_eq(al_node_field(par, "name"), n))
        return AL_VISIT_INTO;
    if (al_node_is(par, "keyword_argument") && ts_node_eq(al_node_field(par, "name"), n))
        return AL_VISIT_INTO;
    if (al_node_is(par, "dotted_name")) {
        /* `from m import f` binds f under its own name; `as g` does not. */
        TSNode up = ts_node_parent(par);
        if (al_node_is(up, "aliased_import"))
            other_use(o, n);
        return AL_VISIT_INTO;
    }
    if (al_node_is(par, "attribute") && ts_node_eq(al_node_field(par, "attribute"), n)) {
        TSNode call = ts_node_parent(par);
        if (!al_node_is(call, "call") || !ts_node_eq(al_node_field(call, "function"), par)) {
            other_use(o, n); /* `fn = self.f`: called under another name */
            return AL_VISIT_INTO;
        }
        TSNode receiver = al_node_field(par, "object");
        if (o->kind == INSTANCE && names_class(o->pf, receiver))
            other_use(o, n);
        else
            add_call(o, call, o->kind == INSTANCE || o->kind == CLASS, n);
        return AL_VISIT_INTO;
    }
    if (al_node_is(par, "call") && ts_node_eq(al_node_field(par, "function"), n)) {
        /* A bare name never reaches a method. */
        if (o->kind == PLAIN)
            add_call(o, par, false, n);
        return AL_VISIT_INTO;
    }
    other_use(o, n);
    return AL_VISIT_INTO;
}

/* The function around n, or null at module level or inside a lambda. */
static TSNode caller_of(TSNode n)
{
    for (TSNode p = ts_node_parent(n); !ts_node_is_null(p); p = ts_node_parent(p)) {
        if (al_node_is(p, "lambda"))
            return (TSNode){0};
        if (al_node_is(p, "function_definition"))
            return p;
    }
    return (TSNode){0};
}

/* acc replaced by a NO with this reason (fmt takes two strings). */
static al_own refuse(al_own *acc, const char *fmt, const char *a, const char *b)
{
    al_own_free(acc);
    char buf[600];
    snprintf(buf, sizeof buf, fmt, a, b);
    return (al_own){AL_OWN_NO, al_xstrdup(buf), NULL};
}

/* What the calls found so far hand the parameter. */
typedef struct {
    const al_pymodule *m;
    const char *name, *param, *from;
    def_kind kind;
    al_def d;
    al_strbuf calls; /* the first three, for the message */
    size_t total;
    al_own acc;
} survey;

static void refuse_at(survey *s, const char *where, size_t row, const char *what, const char *why)
{
    al_strbuf sb = {0};
    al_strbuf_printf(&sb, what, s->name, where, row, why);
    al_own_free(&s->acc);
    s->acc = (al_own){AL_OWN_NO, al_strbuf_detach(&sb), NULL};
}

/* The occurrences of the name in one file's view, and what each call
 * hands the parameter. */
static void survey_view(survey *s, const al_pysite *view)
{
    const al_pymodule *m = s->m;
    al_pymodule scoped = *view->mod;
    if (!scoped.index) {
        scoped.index = m->index;
        scoped.path = view->path;
    }
    if (!scoped.ops)
        scoped.ops = m->ops;
    occurrences o = {.pf = view->pf, .name = s->name, .kind = s->kind};
    al_node_preorder(view->pf->root, visit_name, &o);
    const char *where = al_path_shown(view->path, s->from, m->path);
    if (!ts_node_is_null(o.other)) {
        refuse_at(s, where, al_node_row(o.other), "`%s` is named other than in a call (%s:%zu)%s", "");
        return;
    }
    for (size_t i = 0; i < o.n && s->acc.kind != AL_OWN_NO; i++) {
        TSNode caller = caller_of(o.calls[i]);
        TSNode arg = al_call_argument_for(&scoped, o.calls[i], &s->d, o.bound[i], s->param);
        size_t row = al_node_row(o.calls[i]);
        if (ts_node_is_null(caller)) {
            refuse_at(s, where, row, "`%s` is called on %s:%zu at module level or in a lambda%s", "");
            return;
        }
        if (ts_node_is_null(arg)) {
            refuse_at(s, where, row,
                      "the call of `%s` on %s:%zu does not hand the parameter by name or position%s", "");
            return;
        }
        al_own a = al_handed_own(&scoped, caller, o.calls[i], arg);
        if (a.kind == AL_OWN_NO) {
            refuse_at(s, where, row, "the call of `%s` on %s:%zu: %s", a.why ? a.why : "not a new tensor");
            al_own_free(&a);
            return;
        }
        if (s->total++ < 3)
            al_strbuf_printf(&s->calls, "%s%s:%zu", s->total > 1 ? ", " : "", where, row);
        if (a.kind == AL_OWN_ASSUMED && !s->acc.why) {
            al_own_free(&s->acc);
            s->acc = a;
        } else {
            al_own_free(&a);
        }
    }
}

al_own al_param_callers_own(const al_pymodule *m, TSNode func, const char *param)
{
    al_own acc = {AL_OWN_FRESH, NULL, NULL};
    char *name = al_node_text(m->pf, al_node_field(func, "name"));
    int kind = kind_of(m->pf, func);
    if (!m->index || !m->path)
        acc = refuse(&acc, "the project of `%s` is not read%s", name, "");
    else if (!strcmp(name, "forward") || (name[0] == '_' && name[1] == '_'))
        acc = refuse(&acc, "`%s` is called through its object, not by its name%s", name, "");
    else if (kind < 0)
        acc = refuse(&acc, "`%s` is decorated: the decorator may call it or hand it on%s", name, "");
    if (acc.kind == AL_OWN_NO) {
        free(name);
        return acc;
    }
    char *self = al_path_real(m->path);
    survey s = {m, name, param, self ? self : m->path, (def_kind)kind,
                {m->path, m->pf, m, func, false, kind == INSTANCE || kind == CLASS},
                {0}, 0, acc};
    /* Its own file first, as the check parsed it: most functions fail
     * there, before anything more is read or parsed. A file parsed only
     * in parts is read again whole in the statements that name it. */
    al_pysite here = {m->path, m->pf, m};
    survey probe = s;
    probe.acc = (al_own){AL_OWN_FRESH, NULL, NULL};
    /* No call in its own file (the name spelled there once, by its def):
     * the project is not searched for callers elsewhere, which would read
     * every file of it for most functions a check meets. */
    if (al_source_count_word(m->pf->src, name, 2) <= 1)
        probe.acc = refuse(&probe.acc, "no call of `%s` in its own file (callers only in other "
                                       "files are not searched)%s",
                           name, "");
    else
        survey_view(&probe, &here);
    if (probe.acc.kind == AL_OWN_NO || !m->pf->partial) {
        al_own_free(&s.acc);
        s = probe;
    } else {
        al_own_free(&probe.acc);
        al_strbuf_free(&probe.calls);
    }
    for (int own = m->pf->partial; own >= 0 && s.acc.kind != AL_OWN_NO; own--) {
        if (!own && s.total == 0) {
            s.acc = refuse(&s.acc, "no call of `%s` in its own file (callers only in other files "
                                   "are not searched)%s",
                           name, "");
            break;
        }
        al_pysite views[MAX_FILES];
        size_t nv = al_index_name_views(m->index, m->path, name, own, views, MAX_FILES);
        if (nv == SIZE_MAX)
            s.acc = refuse(&s.acc, "more than %s files of the project name `%s`", "8", name);
        for (size_t v = 0; v < nv && nv != SIZE_MAX && s.acc.kind != AL_OWN_NO; v++)
            survey_view(&s, &views[v]);
    }
    acc = s.acc;
    if (acc.kind != AL_OWN_NO && s.total == 0)
        acc = refuse(&acc, "no call of `%s` is found in the project%s", name, "");
    if (acc.kind != AL_OWN_NO) {
        al_strbuf sb = {0};
        al_strbuf_printf(&sb,
                         "every call of `%s` in the project (%zu: %s%s) hands `%s` a new tensor not "
                         "read after the call%s%s; assumes no caller outside the project",
                         name, s.total, s.calls.data, s.total > 3 ? ", ..." : "", param,
                         acc.why ? ": " : "", acc.why ? acc.why : "");
        al_own_free(&acc);
        acc = (al_own){AL_OWN_ASSUMED, al_strbuf_detach(&sb), NULL};
    }
    al_strbuf_free(&s.calls);
    free(self);
    free(name);
    return acc;
}
