/* Whose tensor a call's value is, for the calls whose callee is an object:
 * a module assigned to `self.<attr>` (its class's forward, followed
 * through the project's classes and their bases), and a method of an
 * object whose class alloclint does not know (the meet over the project's
 * methods of that name). The rest of the walk: fresh.c. */
#include "fresh_internal.h"
#include "call_args.h"
#include "../core/index.h"
#include "../../base/paths.h"
#include "../../base/util.h"
#include "../../front/pylex.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* `self.<attr>(...)`: the modules assigned to `self.<attr>` in the class
 * around func. */
typedef struct {
    const al_pymodule *m;
    const char *attr;
    al_fresh_walk w;
    al_own own;
    bool any;
    const al_pymodule *caller; /* where the call is: its arguments are read there */
    TSNode func, call;
    bool per_call; /* a forward returned its argument: the meet depends on the call */
} modules;

/* `self.<attr> = C(...)` with C a class of the project: what its forward
 * returns (its own, or the one it inherits). */
static bool class_forward_own(modules *s, TSNode cls, al_own *out)
{
    const al_pymodule *m = s->m;
    al_def d;
    al_pysite site = {m->path, m->pf, m};
    if (m->index && s->w.calls >= AL_FRESH_MAX_CALLS && (al_fresh_stopped(s->w), true))
        return false;
    if (!m->index ||
        !al_index_class_method(m->index, &site, cls, "forward", &d))
        return false;
    /* `self.forward = self.forward_cuda` in the class or a subclass: the
     * instance's attribute runs, not the method. */
    al_def defining;
    if (al_index_class_of(&d, &defining) &&
        al_index_attr_assigned(m->index, &defining, "forward", false))
        return false;
    al_own o = al_fresh_returns(&d, al_fresh_enter(s->w), m);
    bool through = o.param != NULL;
    if (through) {
        o = al_fresh_through_argument(s->caller, s->func, s->call, &d, true, o, s->w);
        s->per_call = true;
    }
    char *t = al_fresh_shown(m->pf, cls);
    /* An inherited forward: say whose. */
    TSNode owner = ts_node_parent(d.def);
    while (!ts_node_is_null(owner) && !al_node_is(owner, "class_definition"))
        owner = ts_node_parent(owner);
    char *base = ts_node_is_null(owner) ? NULL : al_node_text(d.pf, al_node_field(owner, "name"));
    const char *last = strrchr(t, '.') ? strrchr(t, '.') + 1 : t;
    al_strbuf whose = {0};
    if (base && strcmp(base, last))
        al_strbuf_printf(&whose, " (inherited from `%s`)", base);
    free(base);
    al_strbuf sb = {0};
    if (through && o.kind != AL_OWN_NO)
        al_strbuf_printf(&sb, "`self.%s` is `%s`, whose forward%s %s", s->attr, t,
                         whose.data ? whose.data : "", o.why ? o.why : "");
    else if (o.kind == AL_OWN_FRESH && s->w.elem >= 0)
        al_strbuf_printf(&sb, "`self.%s` is `%s`, whose forward%s returns a new tensor as element "
                              "%d on every path",
                         s->attr, t, whose.data ? whose.data : "", s->w.elem);
    else if (o.kind == AL_OWN_FRESH)
        al_strbuf_printf(&sb, "`self.%s` is `%s`, whose forward%s returns a new tensor on every path%s%s%s",
                         s->attr, t, whose.data ? whose.data : "", o.why ? " (" : "",
                         o.why ? o.why : "", o.why ? ")" : "");
    else
        al_strbuf_printf(&sb, "`self.%s` is `%s`; in its forward%s, %s", s->attr, t,
                         whose.data ? whose.data : "", o.why ? o.why : "the returns are not followed");
    al_strbuf_free(&whose);
    free(t);
    free(o.why);
    o.why = al_strbuf_detach(&sb);
    *out = o;
    return true;
}

static al_visit visit_module(TSNode n, void *arg)
{
    modules *s = arg;
    const al_pyfile *pf = s->m->pf;
    if (!al_node_is(n, "assignment"))
        return AL_VISIT_INTO;
    TSNode left = al_node_field(n, "left");
    if (!al_node_is(left, "attribute") ||
        !al_node_text_eq(pf, al_node_field(left, "object"), "self") ||
        !al_node_text_eq(pf, al_node_field(left, "attribute"), s->attr))
        return AL_VISIT_INTO;
    s->any = true;
    TSNode v = al_py_unparen(al_node_field(n, "right"));
    char *q = al_node_is(v, "call") ? al_pymodule_resolve(s->m, al_node_field(v, "function")) : NULL;
    /* What the op tables say calling the module returns (`nn.Linear`'s
     * forward makes its output; `nn.Dropout`'s may be its input). */
    al_strbuf key = {0};
    if (q)
        al_strbuf_printf(&key, "%s%s.forward", strncmp(q, "nn.", 3) ? "" : "torch.", q);
    const al_op_result *r = q ? al_ops_find_result(s->m->ops, key.data) : NULL;
    al_strbuf_free(&key);
    al_own o;
    if (r && r->returns == AL_RETURNS_NEW && !al_call_asked_in_place(pf, v))
        o = r->library ? al_fresh_make(AL_OWN_ASSUMED,
                              "assumes `self.%s` (`%s`) returns a new tensor, as its library "
                              "documents",
                              s->attr, q)
                       : al_fresh_make(AL_OWN_FRESH, "`self.%s` is `%s`, which returns a new tensor",
                              s->attr, q);
    else if (r && r->returns == AL_RETURNS_MAY_ALIAS)
        o = al_fresh_make(AL_OWN_ASSUMED, "assumes `self.%s` (`%s`) does not return its input", s->attr, q);
    else if (r)
        o = al_fresh_make(AL_OWN_NO, "`self.%s` is `%s`, which may return its input", s->attr, q);
    else if (al_node_is(v, "call") && class_forward_own(s, al_node_field(v, "function"), &o)) {
        /* a class of the project: its forward's returns */
    } else {
        char *t = al_node_is(v, "call") ? al_fresh_shown(pf, al_node_field(v, "function")) : al_fresh_shown(pf, v);
        o = al_fresh_make(AL_OWN_ASSUMED,
                 "assumes `self.%s(...)` returns a new tensor: it is `%s`, whose forward "
                 "alloclint does not follow",
                 s->attr, t);
        free(t);
    }
    free(q);
    s->own = al_own_meet(s->own, o);
    return AL_VISIT_OVER;
}

/* The assignments `self.<attr> = ...` under body, in order, found from
 * where the bytes spell attr rather than by a walk of every node (a call
 * `self.<attr>(...)` asks this of its whole class). An assignment inside
 * one already taken (`self.a = self.a = m`) is not taken again. */
static void visit_attr_assignments(modules *s, TSNode body)
{
    const al_pyfile *pf = s->m->pf;
    size_t len, alen = strlen(s->attr);
    const char *p = al_node_ptr(pf, body, &len), *end = p + len;
    uint32_t base = ts_node_start_byte(body), taken_to = 0;
    for (const char *q = p; alen && (q = memmem(q, (size_t)(end - q), s->attr, alen)) != NULL;
         q += alen) {
        uint32_t at = base + (uint32_t)(q - p);
        if (at < taken_to || (q > p && al_lex_ident_char((unsigned char)q[-1])) ||
            (q + alen < end && al_lex_ident_char((unsigned char)q[alen])))
            continue;
        TSNode id = ts_node_descendant_for_byte_range(body, at, at + (uint32_t)alen);
        TSNode attr = ts_node_parent(id);
        if (!al_node_is(id, "identifier") || !al_node_is(attr, "attribute") ||
            !ts_node_eq(al_node_field(attr, "attribute"), id))
            continue;
        TSNode asg = ts_node_parent(attr);
        if (al_node_is(asg, "assignment") && ts_node_eq(al_node_field(asg, "left"), attr)) {
            visit_module(asg, s);
            taken_to = ts_node_end_byte(asg);
        }
    }
}

/* Every assignment of `self.<attr>` in class cls and in its bases' lines
 * that the project holds. */
static void visit_class_modules(modules *s, const al_def *cls, int bases_up)
{
    al_pyfile_class_trimmed_assigns(cls->pf, cls->def, s->attr); /* every assignment counts */
    visit_attr_assignments(s, al_node_field(cls->def, "body"));
    const al_pymodule *m = s->m;
    if (!m->index || bases_up >= MAX_BASES)
        return;
    al_def bases[4];
    bool all;
    size_t n = al_index_class_bases(m->index, cls, bases, 4, &all);
    for (size_t i = 0; i < n; i++) {
        al_pymodule scoped = al_pymodule_scoped(bases[i].mod, bases[i].path, m);
        s->m = &scoped;
        visit_class_modules(s, &bases[i], bases_up + 1);
        s->m = m;
    }
}

static al_own module_call(const al_pymodule *m, TSNode func, TSNode call, const char *attr,
                              al_fresh_walk w)
{
    TSNode cls = al_py_enclosing_class(func);
    /* The meet over a class's modules is the same at every call of
     * `self.<attr>` in it, unless a forward hands back its argument: kept
     * for the run, as a function's returns are (al_fresh_returns), when no
     * limit cut it short. */
    char key[700];
    snprintf(key, sizeof key, "modules\n%s\n%016llx\n%llu\n%u\n%s\n%p\n%d",
             m->path ? m->path : "", (unsigned long long)m->pf->src->hash, m->pf->memo_tag,
             ts_node_is_null(cls) ? 0u : ts_node_start_byte(cls), attr, (const void *)m->ops,
             w.elem);
    al_own *memo = m->index && !ts_node_is_null(cls) ? al_index_memo_get(m->index, key) : NULL;
    if (memo)
        return al_fresh_own_copy(memo);
    bool cut = false;
    al_fresh_walk inner = w;
    inner.cut = &cut;
    modules s = {m, attr, inner, {AL_OWN_FRESH, NULL, NULL, 0, false}, false, m, func, call, false};
    if (!ts_node_is_null(cls)) {
        al_def d = {m->path, m->pf, m, cls, false, false};
        visit_class_modules(&s, &d, 0);
    }
    if (cut)
        al_fresh_stopped(w);
    if (s.any && !cut && !s.per_call && m->index) {
        al_own *box = al_xmalloc(sizeof *box);
        *box = al_fresh_own_copy(&s.own);
        al_index_memo_put(m->index, key, box, al_fresh_own_free_boxed);
    }
    if (!s.any) {
        al_own_free(&s.own);
        char *t = al_fresh_shown(m->pf, call);
        al_own o = al_fresh_make(AL_OWN_ASSUMED, "assumes `%s` returns a new tensor: alloclint does not "
                                        "see what `self.%s` is",
                        t, attr);
        free(t);
        return o;
    }
    return s.own;
}

#define MAX_MEET 4

/* `obj.meth(...)` on an object whose class alloclint does not know, and
 * no method torch.Tensor has by that name (`x.log()` is the tensor's,
 * whatever else the project calls `log`): the meet over the project's methods
 * named `meth` (at most MAX_MEET, abstract ones aside), assumed at best,
 * since an object of a class from elsewhere may be there. False when the
 * project defines none or too many. */
static bool method_meet(const al_pymodule *m, TSNode func, TSNode call, al_fresh_walk w, al_own *out)
{
    const al_pyfile *pf = m->pf;
    TSNode fn = al_node_field(call, "function");
    char *meth = al_node_text(pf, al_node_field(fn, "attribute"));
    size_t files = al_index_method_files(m->index, m->path, meth);
    if (files == 0 || files > MAX_MEET) {
        free(meth);
        return false;
    }
    al_def defs[MAX_MEET + 1];
    size_t n = al_index_methods(m->index, m->path, meth, NULL, defs, MAX_MEET + 1);
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        if (!al_py_is_abstract_def(defs[i].pf, defs[i].def))
            defs[k++] = defs[i];
    if (k == 0 || n > MAX_MEET) {
        free(meth);
        return false;
    }
    al_own o = al_fresh_make(AL_OWN_FRESH, NULL);
    for (size_t i = 0; i < k && o.kind != AL_OWN_NO; i++) {
        al_own r = al_fresh_returns(&defs[i], al_fresh_enter(w), m);
        if (r.param)
            r = al_fresh_through_argument(m, func, call, &defs[i], true, r, w);
        o = al_own_meet(o, r);
    }
    char *obj = al_fresh_shown(pf, al_node_field(fn, "object"));
    char *self = al_path_real(m->path);
    const char *where = al_path_shown(defs[0].path, self ? self : m->path, m->path);
    al_strbuf sb = {0};
    if (o.kind == AL_OWN_NO)
        al_strbuf_printf(&sb, "`%s.%s` is a method of the project (%s:%zu%s) that may not return "
                              "a new tensor: %s",
                         obj, meth, where, al_node_row(defs[0].def), k > 1 ? ", and others" : "",
                         o.why ? o.why : "?");
    else
        al_strbuf_printf(&sb, "assumes `%s` is an object of the project's class%s that define%s "
                              "`%s` (%s:%zu%s), whose `%s` returns a new tensor on every path%s%s",
                         obj, k > 1 ? "es" : "", k > 1 ? "" : "s", meth, where,
                         al_node_row(defs[0].def), k > 1 ? ", and others" : "", meth,
                         o.why ? ": " : "", o.why ? o.why : "");
    free(self);
    free(obj);
    free(meth);
    free(o.why);
    o.why = al_strbuf_detach(&sb);
    if (o.kind == AL_OWN_FRESH)
        o.kind = AL_OWN_ASSUMED;
    *out = o;
    return true;
}

const al_fresh_object_calls al_fresh_objects = {module_call, method_meet};
