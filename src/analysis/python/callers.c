#include "callers.h"

#include "call_args.h"
#include "../core/index.h"
#include "../../base/paths.h"
#include "../../base/util.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* More calls than this: its callers are not read. */
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
        /* `Name.f(obj, ...)`: an instance method so called takes its self
         * explicitly. */
        if (o->kind == INSTANCE && al_py_names_class(o->pf, receiver))
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

/* Whether n's text spells o's name. */
static bool spells(const occurrences *o, TSNode n)
{
    uint32_t a = ts_node_start_byte(n), b = ts_node_end_byte(n);
    return b <= o->pf->src->len && a < b &&
           al_bytes_count_word(o->pf->src->bytes + a, b - a, o->name, 1) > 0;
}

/* The occurrences under root: only the statements of the module, and of
 * its classes' bodies, that spell the name are walked. */
static void find_occurrences(occurrences *o, TSNode root)
{
    for (uint32_t i = 0; i < ts_node_named_child_count(root); i++) {
        TSNode st = ts_node_named_child(root, i);
        if (!spells(o, st))
            continue;
        TSNode cls = al_node_is(st, "decorated_definition") ? al_node_field(st, "definition") : st;
        if (!al_node_is(cls, "class_definition")) {
            al_node_preorder(st, visit_name, o);
            continue;
        }
        TSNode body = al_node_field(cls, "body");
        for (uint32_t k = 0; !ts_node_eq(st, cls) && k < ts_node_named_child_count(st); k++)
            if (!ts_node_eq(ts_node_named_child(st, k), cls))
                al_node_preorder(ts_node_named_child(st, k), visit_name, o); /* decorators */
        for (uint32_t k = 0; k < ts_node_named_child_count(cls); k++) {
            TSNode part = ts_node_named_child(cls, k);
            if (!ts_node_eq(part, body) && spells(o, part))
                al_node_preorder(part, visit_name, o); /* name, bases */
        }
        for (uint32_t k = 0; k < ts_node_named_child_count(body); k++)
            if (spells(o, ts_node_named_child(body, k)))
                al_node_preorder(ts_node_named_child(body, k), visit_name, o);
    }
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

/* acc replaced by a NO with this reason. */
static al_own refuse(al_own *acc, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static al_own refuse(al_own *acc, const char *fmt, ...)
{
    al_own_free(acc);
    char buf[600];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    return (al_own){AL_OWN_NO, al_xstrdup(buf), NULL, 0, false};
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

/* The occurrences of the name in one file's view, and what each call
 * hands the parameter. */
static void survey_view(survey *s, const al_pysite *view)
{
    const al_pymodule *m = s->m;
    al_pymodule scoped = al_pymodule_scoped(view->mod, view->path, m);
    occurrences o = {.pf = view->pf, .name = s->name, .kind = s->kind};
    find_occurrences(&o, view->pf->root);
    const char *where = al_path_shown(view->path, s->from, m->path);
    if (!ts_node_is_null(o.other)) {
        s->acc = refuse(&s->acc, "`%s` is named other than in a call (%s:%zu)", s->name,
                        where, al_node_row(o.other));
        return;
    }
    for (size_t i = 0; i < o.n && s->acc.kind != AL_OWN_NO; i++) {
        TSNode caller = caller_of(o.calls[i]);
        TSNode arg = al_call_argument_for(&scoped, o.calls[i], &s->d, o.bound[i], s->param);
        size_t row = al_node_row(o.calls[i]);
        if (ts_node_is_null(caller)) {
            s->acc = refuse(&s->acc, "`%s` is called on %s:%zu at module level or in a lambda",
                            s->name, where, row);
            return;
        }
        if (ts_node_is_null(arg)) {
            s->acc = refuse(&s->acc,
                            "the call of `%s` on %s:%zu does not hand the parameter by name or "
                            "position",
                            s->name, where, row);
            return;
        }
        al_own a = al_handed_own(&scoped, caller, o.calls[i], arg);
        if (a.kind == AL_OWN_NO) {
            s->acc = refuse(&s->acc, "the call of `%s` on %s:%zu: %s", s->name, where, row,
                            a.why ? a.why : "not a new tensor");
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

/* Whether the parts of pf that the check parsed hold every mention of
 * word in its file (a partial parse of its other statements then adds
 * nothing). */
static bool parsed_holds_all(const al_pyfile *pf, const char *word)
{
    if (!pf->partial)
        return true;
    uint32_t n = 0;
    TSRange *r = ts_tree_included_ranges(pf->tree, &n);
    size_t inside = 0;
    for (uint32_t i = 0; r && i < n; i++)
        if (r[i].start_byte < r[i].end_byte && r[i].end_byte <= pf->src->len)
            inside += al_bytes_count_word(pf->src->bytes + r[i].start_byte,
                                          r[i].end_byte - r[i].start_byte, word, SIZE_MAX);
    free(r);
    return inside == al_source_count_word(pf->src, word, SIZE_MAX);
}

/* Where the calls of a function named name (of kind kind, of m) are read: its file as
 * the check parsed it or, when some statement that names it was not
 * parsed, those statements, parsed now. NULL, or why they are not read
 * (caller frees): the project is not read, func is not called by its
 * name, or is public, or decorated, or named only once in its file. */
static char *private_view(const al_pymodule *m, const char *name, int kind, al_pysite *view)
{
    al_strbuf why = {0};
    if (!m->index || !m->path)
        al_strbuf_printf(&why, "the project of `%s` is not read", name);
    else if (!strcmp(name, "forward") || (name[0] == '_' && name[1] == '_'))
        al_strbuf_printf(&why, "`%s` is called through its object, not by its name", name);
    else if (name[0] != '_')
        /* Searching every file of the project for the callers of public
         * functions cost 4.5 % of a cold run over vLLM and SGLang for 3
         * findings (measured, issue 43): only a private one is taken. */
        al_strbuf_printf(&why, "`%s` is public: its callers in other files are not searched", name);
    else if (kind < 0)
        al_strbuf_printf(&why, "`%s` is decorated: the decorator may call it or hand it on", name);
    else if (al_source_count_word(m->pf->src, name, 2) <= 1)
        al_strbuf_printf(&why, "no call of `%s` in its file", name);
    if (why.len)
        return al_strbuf_detach(&why);
    *view = (al_pysite){m->path, m->pf, m};
    if (!parsed_holds_all(m->pf, name) && !al_index_own_view(m->index, m->path, name, view)) {
        al_strbuf_printf(&why, "the statements of its file that name `%s` could not be read", name);
        return al_strbuf_detach(&why);
    }
    return NULL;
}

al_own al_param_callers_own(const al_pymodule *m, TSNode func, const char *param)
{
    al_own acc = {AL_OWN_FRESH, NULL, NULL, 0, false};
    char *name = al_node_text(m->pf, al_node_field(func, "name"));
    int kind = kind_of(m->pf, func);
    al_pysite here;
    char *not_read = private_view(m, name, kind, &here);
    if (not_read) {
        acc = refuse(&acc, "%s", not_read);
        free(not_read);
        free(name);
        return acc;
    }
    char *self = al_path_real(m->path);
    survey s = {m, name, param, self ? self : m->path, (def_kind)kind,
                {m->path, m->pf, m, func, false, kind == INSTANCE || kind == CLASS},
                {0}, 0, acc};
    survey_view(&s, &here);
    acc = s.acc;
    if (acc.kind != AL_OWN_NO && s.total == 0)
        acc = refuse(&acc, "no call of `%s` in its file", name);
    if (acc.kind != AL_OWN_NO) {
        al_strbuf sb = {0};
        al_strbuf_printf(&sb,
                         "every call of `%s` in its file (%zu: %s%s) hands `%s` a new tensor not "
                         "read after the call%s%s; assumes no other file calls it (its name is "
                         "private)",
                         name, s.total, s.calls.data, s.total > 3 ? ", ..." : "", param,
                         acc.why ? ": " : "", acc.why ? acc.why : "");
        al_own_free(&acc);
        acc = (al_own){AL_OWN_ASSUMED, al_strbuf_detach(&sb), NULL, 0, false};
    }
    al_strbuf_free(&s.calls);
    free(self);
    free(name);
    return acc;
}

size_t al_private_calls(const al_pymodule *m, TSNode func, al_pysite *view, TSNode *calls,
                        size_t max, char **why)
{
    char *name = al_node_text(m->pf, al_node_field(func, "name"));
    int kind = kind_of(m->pf, func);
    *why = private_view(m, name, kind, view);
    al_strbuf sb = {0};
    occurrences o = {.pf = view->pf, .name = name, .kind = (def_kind)kind};
    if (!*why) {
        find_occurrences(&o, view->pf->root);
        if (!ts_node_is_null(o.other))
            al_strbuf_printf(&sb, "`%s` is named other than in a call (line %zu)", name,
                             al_node_row(o.other));
        else if (o.n == 0)
            al_strbuf_printf(&sb, "no call of `%s` in its file", name);
        else if (o.n > max)
            al_strbuf_printf(&sb, "more than %zu calls of `%s` in its file", max, name);
        for (size_t i = 0; !sb.len && i < o.n; i++)
            if (ts_node_is_null(caller_of(o.calls[i])))
                al_strbuf_printf(&sb, "`%s` is called on line %zu at module level or in a lambda",
                                 name, al_node_row(o.calls[i]));
        if (sb.len)
            *why = al_strbuf_detach(&sb);
    }
    free(name);
    if (*why)
        return 0;
    for (size_t i = 0; i < o.n; i++)
        calls[i] = o.calls[i];
    return o.n;
}
