#include "summary.h"

#include "index.h"
#include "languages.h"
#include "../../front/python/scopes.h"
#include "../../front/python/syntax.h"
#include "../../front/python/annotations.h"
#include "../../base/paths.h"
#include "../../base/util.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Helpers, ops and kernels followed from one allocation before a call
 * counts as unknown. */
#define MAX_CALL_DEPTH 6

void al_chain_add(al_chain *c, const char *path, size_t row, const char *fmt, ...)
{
    char buf[800];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    al_link l = {al_xstrdup(buf), path ? al_xstrdup(path) : NULL, row, false};
    AL_PUSH(c->items, c->n, c->cap, l);
}

void al_chain_append(al_chain *to, const al_chain *from)
{
    for (size_t i = 0; i < from->n; i++) {
        al_link l = {al_xstrdup(from->items[i].text),
                     from->items[i].path ? al_xstrdup(from->items[i].path) : NULL,
                     from->items[i].row, from->items[i].store};
        AL_PUSH(to->items, to->n, to->cap, l);
    }
}

void al_chain_mark_store(al_chain *c)
{
    if (c->n)
        c->items[c->n - 1].store = true;
}

const al_link *al_chain_store(const al_chain *c)
{
    for (size_t i = 0; i < c->n; i++)
        if (c->items[i].store)
            return &c->items[i];
    return NULL;
}

void al_chain_free(al_chain *c)
{
    for (size_t i = 0; i < c->n; i++) {
        free(c->items[i].text);
        free(c->items[i].path);
    }
    free(c->items);
    memset(c, 0, sizeof *c);
}

void al_call_effect_free(al_call_effect *e)
{
    free(e->callee);
    free(e->why);
    free(e->region);
    al_chain_free(&e->chain);
    memset(e, 0, sizeof *e);
}

static void effect_free(void *p)
{
    al_call_effect_free(p);
    free(p);
}

static void copy_effect(al_call_effect *to, const al_call_effect *from)
{
    *to = *from;
    to->callee = from->callee ? al_xstrdup(from->callee) : NULL;
    to->why = from->why ? al_xstrdup(from->why) : NULL;
    to->region = from->region ? al_xstrdup(from->region) : NULL;
    memset(&to->chain, 0, sizeof to->chain);
    al_chain_append(&to->chain, &from->chain);
}

const char *al_effect_name(al_effect e)
{
    switch (e) {
    case AL_EFFECT_UNUSED: return "unused";
    case AL_EFFECT_WRITES_ALL: return "writes-all";
    case AL_EFFECT_WRITES_SOME: return "writes-some";
    case AL_EFFECT_SKIPS: return "skips";
    case AL_EFFECT_WRITES_PART: return "writes-part";
    case AL_EFFECT_ACCUMULATES: return "accumulates";
    case AL_EFFECT_READS: return "reads-before-write";
    case AL_EFFECT_ESCAPES: return "escapes";
    case AL_EFFECT_UNKNOWN: return "unknown";
    case AL_EFFECT_RETURNS_ALIAS: return "returns-alias";
    case AL_EFFECT_UNREAD: return "unread";
    }
    return "?";
}

/* Stands in the memo while a summary is computed: meeting it again is a
 * cycle. */
static char computing;

static char *memo_key(char tag, const char *path, const al_pyfile *pf, TSNode def,
                      const char *extra)
{
    al_strbuf sb = {0};
    al_strbuf_printf(&sb, "%c|%s|%016llx|%llu|%u|%s", tag, path ? path : "-",
                     (unsigned long long)pf->src->hash, pf->memo_tag, ts_node_start_byte(def),
                     extra ? extra : "");
    return al_strbuf_detach(&sb);
}

static const void *kernel_of(al_index *ix, const al_def *d)
{
    char *key = memo_key('K', d->path, d->pf, d->def, NULL);
    void *k = al_index_memo_get(ix, key);
    if (!k) {
        k = al_language_table.triton.summarise(d->pf, d->mod, d->def);
        al_index_memo_put(ix, key, k, al_language_table.triton.free);
    }
    free(key);
    return k;
}

static char *def_name(const al_def *d)
{
    return al_node_text(d->pf, al_node_field(d->def, "name"));
}

/* The callee parameter an argument lands in: a position (after `self`
 * for a method called through an object) or a keyword name; -1 when it
 * goes to *args, **kwargs, or nowhere. */
static int param_for(const al_pyfile *pf, const al_strlist *params, int pos, TSNode kw,
                     bool skip_self)
{
    if (pos >= 0) {
        int i = pos + (skip_self ? 1 : 0);
        for (int k = 0; k <= i && k < (int)params->n; k++)
            if (params->items[k][0] == '*')
                return -1;
        return i < (int)params->n ? i : -1;
    }
    if (ts_node_is_null(kw))
        return -1;
    for (size_t i = 0; i < params->n; i++)
        if (al_node_text_eq(pf, kw, params->items[i]))
            return (int)i;
    return -1;
}

/* The call-site argument bound to callee parameter i, or a null node. */
static TSNode argument_for(const al_pyfile *pf, TSNode call, const al_strlist *params, int i,
                           bool skip_self)
{
    al_py_args a;
    al_py_args_read(call, &a);
    int pos = i - (skip_self ? 1 : 0);
    bool positional = true;
    for (int k = 0; k <= i && k < (int)params->n; k++)
        if (params->items[k][0] == '*')
            positional = false;
    if (positional && pos >= 0 && pos < a.npos)
        return a.pos[pos];
    return al_py_kwarg(pf, &a, params->items[i]);
}

/* What a Python function does to its parameter `param` (cached), a
 * region it exports put in the terms of the caller at `call` (dropped
 * without one, and for a method). */
static bool helper_effect(const al_file_env *env, const al_def *d, int param, TSNode call,
                          al_call_effect *out)
{
    /* A decorator alloclint does not know may read or keep the argument
     * before the body runs, or never run it. */
    if (!al_py_decorators_transparent(d->pf, d->def))
        return false;
    al_strlist params = {0};
    al_py_param_names(d->pf, d->def, &params);
    if (param < 0 || param >= (int)params.n || params.items[param][0] == '*') {
        al_strlist_free(&params);
        return false;
    }
    char *key = memo_key('H', d->path, d->pf, d->def, params.items[param]);
    al_call_effect *cached = al_index_memo_get(env->index, key);
    if (cached == (void *)&computing) {
        memset(out, 0, sizeof *out);
        out->effect = AL_EFFECT_UNKNOWN;
        out->why = al_xstrdup("a recursive call");
    } else if (cached) {
        copy_effect(out, cached);
    } else {
        al_index_memo_put(env->index, key, &computing, NULL);
        al_file_env inner = {d->path, d->pf, d->mod, env->ops, env->index, env->depth + 1};
        al_call_effect *e = al_xcalloc(1, sizeof *e);
        al_language_table.python.param_effect(&inner, d->def, params.items[param], e);
        al_index_memo_put(env->index, key, e, effect_free);
        copy_effect(out, e);
    }
    free(key);
    al_strlist_free(&params);
    if (out->region) {
        char *r = ts_node_is_null(call) || d->method ? NULL
                  : al_language_table.python.region_at_call(env, call, d->pf, d->def, param,
                                                           out->region);
        free(out->region);
        out->region = r;
    }
    return true;
}

/* A helper's requirement names one of its parameters: at the call site
 * it is that parameter's argument. */
static void bind_requirement(const al_file_env *env, TSNode call, const al_def *d, bool skip_self,
                             al_call_effect *e)
{
    if ((e->effect != AL_EFFECT_WRITES_ALL && e->effect != AL_EFFECT_WRITES_SOME) ||
        e->req.kind == AL_REQ_NONE || e->req.param < 0)
        return;
    al_strlist params = {0};
    al_py_param_names(d->pf, d->def, &params);
    TSNode arg = e->req.param < (int)params.n
                     ? argument_for(env->pf, call, &params, e->req.param, skip_self)
                     : (TSNode){0};
    if (ts_node_is_null(arg) && e->effect == AL_EFFECT_WRITES_SOME) {
        /* Rows of an argument the call does not pass: not checkable. */
        e->effect = AL_EFFECT_WRITES_PART;
        e->req.kind = AL_REQ_NONE;
    } else if (ts_node_is_null(arg)) {
        /* The caller leaves it to a default: nothing to prove it with. */
        e->effect = AL_EFFECT_WRITES_SOME;
        e->req.kind = AL_REQ_NONE;
        free(e->why);
        e->why = al_xstrdup("its coverage depends on an argument the call does not pass");
    } else {
        e->req.node = arg;
    }
    al_strlist_free(&params);
}

/* The assignments `target = value` under n (not in nested functions or
 * classes) whose target spells `want`: how many, and the last value. */
static void assignments_to(const al_pyfile *pf, TSNode n, const char *want, int *count,
                           TSNode *value, TSNode *at, int depth)
{
    if (depth > 200 || *count > 1)
        return;
    if (depth > 0 && (al_node_is(n, "function_definition") || al_node_is(n, "class_definition") ||
                      al_node_is(n, "lambda")) && !al_str_starts_with(want, "self."))
        return;
    if (al_node_is(n, "assignment") || al_node_is(n, "augmented_assignment") ||
        al_node_is(n, "for_statement") || al_node_is(n, "named_expression")) {
        TSNode left = al_node_is(n, "named_expression") ? al_node_field(n, "name")
                                                       : al_node_field(n, "left");
        char *t = al_node_text_compact(pf, left);
        if (!strcmp(t, want) && al_node_is(n, "assignment")) {
            (*count)++;
            *value = al_node_field(n, "right");
            *at = n;
        } else if (strstr(t, want)) {
            *count += 2; /* unpacked, augmented, a loop target: not one value */
        }
        free(t);
    }
    uint32_t k = ts_node_named_child_count(n);
    for (uint32_t i = 0; i < k; i++)
        assignments_to(pf, ts_node_named_child(n, i), want, count, value, at, depth + 1);
}

/* A callee in a package of the project built and installed apart from
 * the caller's (SGLang's sgl-kernel/ for python/sglang/): its source in
 * this tree proves what the version installed does only if they match,
 * which alloclint cannot see. A full write or an unread argument then
 * holds on that assumption. */
static void mark_apart(const al_file_env *env, const char *callee_path, al_call_effect *out)
{
    if (out->effect != AL_EFFECT_WRITES_ALL && out->effect != AL_EFFECT_UNREAD)
        return;
    const char *apart = al_index_apart(env->index, env->path, callee_path);
    if (!apart)
        return;
    al_strbuf sb = {0};
    al_strbuf_printf(&sb, "assumes the installed `%s/` package is the one in this tree, which "
                          "builds and installs it apart from this code",
                     apart);
    free(out->why);
    out->why = al_strbuf_detach(&sb);
    out->assumed = true;
}

/* What a launch's kernel expression stands for when it names no kernel
 * itself: a local assigned once (`kernel = _fwd_kernel`), or `self.k`
 * assigned once in its class (`self.k = _fwd_kernel` in __init__). A
 * parameter stands for whatever the caller passes: nothing. */
static bool kernel_value(const al_pyfile *pf, TSNode kernel, TSNode call, TSNode *value,
                         TSNode *at, bool *attribute)
{
    char *want = al_node_text_compact(pf, kernel);
    int count = 0;
    *attribute = al_str_starts_with(want, "self.") && !strchr(want + 5, '.');
    TSNode scope = {0};
    for (TSNode q = ts_node_parent(call); !ts_node_is_null(q); q = ts_node_parent(q))
        if ((*attribute && al_node_is(q, "class_definition")) ||
            (!*attribute && al_node_is(q, "function_definition"))) {
            scope = q;
            break;
        }
    /* `self.k = ...` may be in a method a partial parse left out. */
    if (*attribute)
        al_pyfile_class_trimmed(pf, scope);
    if (!ts_node_is_null(scope) && (*attribute || al_node_is(kernel, "identifier"))) {
        if (!*attribute &&
            al_py_count_ident(pf, al_node_field(scope, "parameters"), want) > 0)
            count = 2;
        else
            assignments_to(pf, al_node_field(scope, "body"), want, &count, value, at, 0);
    }
    free(want);
    return count == 1 && !ts_node_is_null(*value);
}

static bool launch_effect(const al_file_env *env, TSNode call, TSNode kernel, int pos, TSNode kw,
                          al_call_effect *out)
{
    al_pysite site = {env->path, env->pf, env->mod};
    al_def d;
    TSNode value = {0}, at = {0};
    bool attribute = false, through = false;
    if (!al_index_resolve(env->index, &site, kernel, call, &d) || !d.kernel) {
        if (!kernel_value(env->pf, kernel, call, &value, &at, &attribute) ||
            !al_index_resolve(env->index, &site, al_py_unparen(value), at, &d) || !d.kernel)
            return false;
        through = true;
    }
    const void *k = kernel_of(env->index, &d);
    char *name = def_name(&d);
    al_strbuf who = {0};
    al_strbuf_printf(&who, "the Triton kernel `%s`", name);
    al_language_table.triton.launch(env, call, k, who.data, d.path, pos, kw, out);
    mark_apart(env, d.path, out);
    if (through) {
        char *via = al_node_text_compact(env->pf, kernel);
        al_chain tail = out->chain;
        memset(&out->chain, 0, sizeof out->chain);
        al_chain_add(&out->chain, env->path, al_node_row(at), "`%s` is %s", via, who.data);
        al_chain_append(&out->chain, &tail);
        al_chain_free(&tail);
        /* Another method, or a subclass, may bind the attribute to a
         * different kernel: what it writes is a bet. */
        if (attribute && out->effect == AL_EFFECT_WRITES_ALL) {
            out->effect = AL_EFFECT_WRITES_SOME;
            out->req.kind = AL_REQ_NONE;
            free(out->why);
            al_strbuf sb = {0};
            al_strbuf_printf(&sb, "%s is launched through `%s`, which a subclass or another "
                                  "method may bind to a different kernel",
                             who.data, via);
            out->why = al_strbuf_detach(&sb);
        }
        free(via);
    }
    al_strbuf_free(&who);
    free(name);
    return true;
}

/* torch.ops.ns.op(...): the Python or C++ function registered for it. */
static bool op_effect(const al_file_env *env, TSNode call, const char *op, int pos, TSNode kw,
                      al_call_effect *out)
{
    al_def d;
    if (al_index_python_op(env->index, env->path, op, &d)) {
        al_strlist params = {0};
        al_py_param_names(d.pf, d.def, &params);
        int param = param_for(env->pf, &params, pos, kw, false);
        al_strlist_free(&params);
        if (param < 0 || !helper_effect(env, &d, param, (TSNode){0}, out))
            return false;
        bind_requirement(env, call, &d, false, out);
        mark_apart(env, d.path, out);
        char *name = def_name(&d);
        al_strbuf who = {0};
        al_strbuf_printf(&who, "the custom op `%s` (implemented by `%s`)", op, name);
        free(out->callee);
        out->callee = al_strbuf_detach(&who);
        al_chain tail = out->chain;
        memset(&out->chain, 0, sizeof out->chain);
        al_chain_add(&out->chain, d.path, al_node_row(d.def), "`%s` implements `%s`", name, op);
        al_chain_append(&out->chain, &tail);
        al_chain_free(&tail);
        free(name);
        return true;
    }
    al_cxx_def cd;
    if (pos >= 0 && al_index_cxx_op(env->index, env->path, op, &cd)) {
        al_language_table.cxx.param_effect(env->index, &cd, pos, env->depth + 1, out);
        mark_apart(env, cd.path, out);
        if (out->chain.n) {
            al_strbuf impl = {0};
            al_strbuf_printf(&impl, "`%s` implements `%s`", cd.unit->functions[cd.function].name, op);
            free(out->chain.items[0].text);
            out->chain.items[0].text = al_strbuf_detach(&impl);
        }
        char *who = out->callee;
        al_strbuf sb = {0};
        al_strbuf_printf(&sb, "the custom op `%s` (%s)", op, who ? who : "C++");
        free(who);
        out->callee = al_strbuf_detach(&sb);
        return true;
    }
    return false;
}

static int compare_def(const void *x, const void *y)
{
    const al_def *a = x, *b = y;
    int c = strcmp(a->path, b->path);
    return c ? c : (ts_node_start_byte(a->def) > ts_node_start_byte(b->def)) -
                       (ts_node_start_byte(a->def) < ts_node_start_byte(b->def));
}

/* Whether a method accepts the call's arguments: as many positions after
 * self, and every keyword (or **kwargs). */
static bool accepts(const al_pyfile *pf, const al_py_args *a, const al_strlist *params)
{
    bool star = false, kwargs = false;
    int positional = 0;
    for (size_t i = 1; i < params->n; i++) {
        if (!strcmp(params->items[i], "**"))
            kwargs = true;
        else if (params->items[i][0] == '*')
            star = true;
        else if (!star)
            positional++;
    }
    if (a->splat || (a->npos > positional && !star))
        return false;
    for (int i = 0; i < a->nkw; i++) {
        bool found = kwargs;
        for (size_t j = 1; j < params->n && !found; j++)
            found = al_node_text_eq(pf, al_node_field(a->kw[i], "name"), params->items[j]);
        if (!found)
            return false;
    }
    return true;
}

bool al_attribute_declared_type(const al_file_env *env, TSNode call, TSNode attr,
                                const al_pyfile **pf, const struct al_pymodule **mod, TSNode *type)
{
    TSNode cls = al_py_enclosing_class(call);
    *type = (TSNode){0};
    *pf = env->pf;
    *mod = env->mod;
    if (ts_node_is_null(cls))
        return false;
    char *name = al_node_text(env->pf, attr);
    /* A file parsed in parts may lack the methods that declare it: the
     * class is read again whole, from the statements that name it; with
     * no index, the run is asked to parse the class's dropped methods
     * that assign it (and is then made again with them). */
    if (env->pf->partial && !env->index) {
        al_pyfile_class_trimmed_assigns(env->pf, cls, name);
    } else if (env->pf->partial) {
        char *cname = al_node_text(env->pf, al_node_field(cls, "name"));
        al_pysite site;
        bool ok = env->path && al_index_own_view(env->index, env->path, name, &site);
        cls = ok ? al_py_top_class(site.pf, cname) : (TSNode){0};
        if (ok) {
            *pf = site.pf;
            *mod = site.mod;
        }
        free(cname);
    }
    *type = ts_node_is_null(cls) ? cls : al_py_attribute_type(*pf, cls, name);
    free(name);
    return !ts_node_is_null(*type);
}

/* The class `self.<attr>` is declared to hold in the class around call,
 * found in the project, or false. */
static bool declared_class(const al_file_env *env, TSNode call, TSNode attr, al_def *out)
{
    al_pysite site = {env->path, NULL, NULL};
    TSNode type;
    return al_attribute_declared_type(env, call, attr, &site.pf, &site.mod, &type) &&
           al_index_class_named(env->index, &site, type, out);
}

/* `self.<attr>.<method>(...)`: the object is chosen at run time, so the
 * effect is the meet over the project's classes whose `<method>` accepts
 * the call, and never more than an unsafe write (a class outside the
 * project may run instead). */
static bool dispatch_effect(const al_file_env *env, TSNode call, TSNode fn, int pos, TSNode kw,
                            al_call_effect *out)
{
    TSNode obj = al_node_field(fn, "object");
    if (!al_node_is(obj, "attribute") || !al_node_text_eq(env->pf, al_node_field(obj, "object"), "self"))
        return false;
    char *method = al_node_text(env->pf, al_node_field(fn, "attribute"));
    al_py_args a;
    al_py_args_read(call, &a);
    /* Files naming every keyword the call passes can define a match. */
    const char *words[9] = {0};
    char *owned[8] = {0};
    for (int i = 0; i < a.nkw && i < 8; i++)
        words[i] = owned[i] = al_node_text(env->pf, al_node_field(a.kw[i], "name"));
    al_def defs[64];
    size_t n = al_index_methods(env->index, env->path, method, words, defs, 64);
    for (int i = 0; i < 8; i++)
        free(owned[i]);
    qsort(defs, n, sizeof defs[0], compare_def);
    /* Declared `self.<attr>: Base`: Base's and its subclasses' methods
     * (looked for only when there are methods to choose among). */
    al_def type;
    bool typed = n > 0 && declared_class(env, call, al_node_field(obj, "attribute"), &type);
    size_t kept = 0;
    for (size_t i = 0; i < n; i++) {
        al_def cls;
        if (!typed || !al_index_class_of(&defs[i], &cls) || al_index_derives(env->index, &cls, &type, true))
            defs[kept++] = defs[i];
    }
    size_t others = n - kept;
    n = kept;
    char *via = al_node_text_compact(env->pf, fn);
    size_t matched = 0, writers = 0;
    al_call_effect worst = {0};
    const al_def *worst_def = NULL;
    for (size_t i = 0; i < n && !worst_def; i++) {
        if (al_py_is_abstract_def(defs[i].pf, defs[i].def))
            continue;
        al_strlist params = {0};
        al_py_param_names(defs[i].pf, defs[i].def, &params);
        int param = accepts(env->pf, &a, &params) ? param_for(env->pf, &params, pos, kw, true) : -1;
        al_strlist_free(&params);
        al_call_effect e;
        if (param < 0 || !helper_effect(env, &defs[i], param, (TSNode){0}, &e))
            continue;
        matched++;
        if (e.effect == AL_EFFECT_WRITES_ALL || e.effect == AL_EFFECT_WRITES_SOME) {
            writers++;
            al_call_effect_free(&e);
        } else {
            worst = e;
            worst_def = &defs[i];
        }
    }
    bool ok = matched > 0;
    if (worst_def) {
        *out = worst;
        char *name = def_name(worst_def);
        al_chain tail = out->chain;
        memset(&out->chain, 0, sizeof out->chain);
        al_chain_add(&out->chain, worst_def->path, al_node_row(worst_def->def),
                     "`%s` dispatches at run time; one of the project's `%s` methods it may reach "
                     "%s its argument", via, name,
                     out->effect == AL_EFFECT_SKIPS         ? "may skip"
                     : out->effect == AL_EFFECT_WRITES_PART ? "leaves part of"
                     : out->effect == AL_EFFECT_ACCUMULATES ? "accumulates into"
                     : out->effect == AL_EFFECT_READS       ? "reads"
                                                            : "keeps or hands on");
        al_chain_append(&out->chain, &tail);
        al_chain_free(&tail);
        free(name);
    } else if (ok) {
        out->effect = AL_EFFECT_WRITES_SOME;
        al_strbuf sb = {0};
        al_strbuf which = {0};
        if (writers == 1)
            al_strbuf_printf(&which, "the one `%s` method", method);
        else
            al_strbuf_printf(&which, "each of the %zu `%s` methods", writers, method);
        if (typed) {
            char *tn = al_node_text(type.pf, al_node_field(type.def, "name"));
            char *an = al_node_text(env->pf, al_node_field(obj, "attribute"));
            al_strbuf_printf(&sb, "`%s` dispatches at run time: `self.%s` is declared `%s`, and %s "
                                  "of it and its subclasses in the project writes it (%zu of other "
                                  "classes left out), but which runs, or whether a class from "
                                  "outside the project does, is not known (a declaration Python "
                                  "does not enforce)",
                             via, an, tn, which.data, others);
            free(an);
            free(tn);
        } else {
            al_strbuf_printf(&sb, "`%s` dispatches at run time: %s of the project it may reach "
                                  "writes it, but which runs, or whether a class from outside the "
                                  "project does, is not known",
                             via, which.data);
        }
        al_strbuf_free(&which);
        out->why = al_strbuf_detach(&sb);
        al_chain_add(&out->chain, env->path, al_node_row(call), "%s", out->why);
    }
    if (ok) {
        free(out->callee);
        al_strbuf who = {0};
        al_strbuf_printf(&who, "the dispatch `%s`", via);
        out->callee = al_strbuf_detach(&who);
    }
    free(via);
    free(method);
    return ok;
}

static const char *effect_verb(al_effect e);

/* `self.m(...)` runs the override of `m` when self is an instance of a
 * subclass: the project's subclasses of the class around the call that
 * define `m` are met with d's effect (out). 1: an override's effect
 * replaced it (*who: its name, to free); 0: d's stands; -1: they cannot
 * all be read (the name is defined in too many files), no effect known. */
static int overrides_effect(const al_file_env *env, TSNode call, TSNode fn, int pos, TSNode kw,
                            const al_def *d, al_call_effect *out, char **who)
{
    al_effect own = out->effect;
    if (own == AL_EFFECT_READS || own == AL_EFFECT_ESCAPES || own == AL_EFFECT_SKIPS ||
        own == AL_EFFECT_ACCUMULATES || own == AL_EFFECT_WRITES_PART)
        return 0; /* d itself already keeps the fill */
    TSNode c = al_py_enclosing_class(call);
    if (ts_node_is_null(c))
        return 0;
    al_def here = {env->path, env->pf, env->mod, c, false, false};
    char *method = al_node_text(env->pf, al_node_field(fn, "attribute"));
    al_def defs[64];
    bool complete;
    size_t n = al_index_overrides(env->index, &here, method, d, defs, 64, &complete);
    if (!complete) {
        al_call_effect_free(out);
        free(method);
        return -1;
    }
    for (size_t i = 0; i < n; i++) {
        al_def cls;
        al_index_class_of(&defs[i], &cls);
        al_strlist params = {0};
        al_py_param_names(defs[i].pf, defs[i].def, &params);
        int param = param_for(env->pf, &params, pos, kw, true);
        al_strlist_free(&params);
        al_call_effect e;
        if (param < 0 || !helper_effect(env, &defs[i], param, (TSNode){0}, &e)) {
            memset(&e, 0, sizeof e);
            e.effect = AL_EFFECT_ESCAPES;
        }
        if (e.effect == AL_EFFECT_WRITES_ALL || e.effect == own) {
            al_call_effect_free(&e);
            continue;
        }
        char *sub = al_node_text(cls.pf, al_node_field(cls.def, "name"));
        char *base = al_node_text(env->pf, al_node_field(c, "name"));
        al_strbuf nb = {0};
        al_strbuf_printf(&nb, "%s.%s", sub, method);
        char *name = al_strbuf_detach(&nb);
        al_call_effect_free(out);
        *out = e;
        al_chain tail = out->chain;
        memset(&out->chain, 0, sizeof out->chain);
        al_chain_add(&out->chain, defs[i].path, al_node_row(defs[i].def),
                     "`self.%s` runs `%s` when self is a `%s`, a subclass of `%s` of the project, "
                     "and it %s its argument",
                     method, name, sub, base, effect_verb(e.effect));
        free(sub);
        free(base);
        al_chain_append(&out->chain, &tail);
        al_chain_free(&tail);
        *who = name;
        free(method);
        return 1;
    }
    free(method);
    return 0;
}

static bool callee_effect(const al_file_env *env, TSNode call, int pos, TSNode kw,
                          al_call_effect *out)
{
    memset(out, 0, sizeof *out);
    if (!env->index || env->depth >= MAX_CALL_DEPTH)
        return false;
    TSNode fn = al_node_field(call, "function");
    if (al_node_is(fn, "subscript"))
        return launch_effect(env, call, al_node_field(fn, "value"), pos, kw, out);
    char *q = al_imports_resolve(al_language_table.python.imports(env->mod), env->pf, fn);
    if (q && al_str_starts_with(q, "torch.ops.")) {
        bool ok = op_effect(env, call, q, pos, kw, out);
        free(q);
        return ok;
    }
    free(q);
    al_pysite site = {env->path, env->pf, env->mod};
    al_def d;
    if (!al_index_resolve(env->index, &site, fn, call, &d))
        return al_node_is(fn, "attribute") && dispatch_effect(env, call, fn, pos, kw, out);
    if (d.kernel)
        return false;
    bool skip_self = d.method && al_node_is(fn, "attribute");
    al_strlist params = {0};
    al_py_param_names(d.pf, d.def, &params);
    int param = param_for(env->pf, &params, pos, kw, skip_self);
    al_strlist_free(&params);
    if (param < 0 || !helper_effect(env, &d, param, skip_self ? (TSNode){0} : call, out))
        return false;
    TSNode obj = al_node_is(fn, "attribute") ? al_node_field(fn, "object") : (TSNode){0};
    char *over = NULL;
    int replaced = d.method && !ts_node_is_null(obj) &&
                           (al_node_text_eq(env->pf, obj, "self") || al_node_text_eq(env->pf, obj, "cls"))
                       ? overrides_effect(env, call, fn, pos, kw, &d, out, &over)
                       : 0;
    if (replaced < 0)
        return false;
    if (replaced) {
        al_strbuf who = {0};
        al_strbuf_printf(&who, "`%s`", over);
        free(out->callee);
        out->callee = al_strbuf_detach(&who);
        free(over);
        return true;
    }
    bind_requirement(env, call, &d, skip_self, out);
    mark_apart(env, d.path, out);
    char *name = def_name(&d);
    al_strbuf who = {0};
    al_strbuf_printf(&who, "`%s`", name);
    /* `fill(out)` with `fill = self.pick()`: say how fill is that. */
    char *local = al_node_is(fn, "identifier") && !al_node_text_eq(env->pf, fn, name)
                      ? al_node_text(env->pf, fn)
                      : NULL;
    TSNode made = local ? al_py_sole_call_binding(env->pf, call, local) : (TSNode){0};
    free(local);
    if (!ts_node_is_null(made)) {
        char *m = al_node_text_compact(env->pf, made);
        al_strbuf_printf(&who, " (what `%.60s` returns)", m);
        free(m);
    }
    free(out->callee);
    out->callee = al_strbuf_detach(&who);
    al_chain tail = out->chain;
    memset(&out->chain, 0, sizeof out->chain);
    al_chain_add(&out->chain, d.path, al_node_row(d.def), "`%s` %s its argument%s", name,
                 effect_verb(out->effect),
                 out->effect == AL_EFFECT_WRITES_ALL && out->req.kind != AL_REQ_NONE
                     ? " when its size matches the call's other arguments"
                 : out->effect == AL_EFFECT_WRITES_SOME && out->req.kind == AL_REQ_ROWS_OF
                     ? " (the rows of another argument, by an op contract)"
                     : "");
    al_chain_append(&out->chain, &tail);
    al_chain_free(&tail);
    free(name);
    return true;
}

/* An index's files, their lazily built facts and the memo may be shared
 * by threads (run/jobs.c gives each worker one of its own, so there the
 * lock is never contended): one summary is computed at a time (the lock
 * is recursive, for the calls summaries make into each other), and a
 * memo entry marked as being computed can only be this thread's own
 * cycle. */
bool al_callee_effect(const al_file_env *env, TSNode call, int pos, TSNode kw,
                      al_call_effect *out)
{
    if (!env->index) {
        memset(out, 0, sizeof *out);
        return false;
    }
    al_index_lock(env->index);
    bool ok = callee_effect(env, call, pos, kw, out);
    al_index_unlock(env->index);
    return ok;
}

static const char *effect_verb(al_effect e)
{
    return e == AL_EFFECT_WRITES_ALL    ? "writes every element of"
           : e == AL_EFFECT_WRITES_SOME ? "writes, without a proof that it covers,"
           : e == AL_EFFECT_SKIPS       ? "may skip"
           : e == AL_EFFECT_WRITES_PART ? "leaves part of"
           : e == AL_EFFECT_ACCUMULATES ? "accumulates into"
           : e == AL_EFFECT_READS       ? "reads"
           : e == AL_EFFECT_UNREAD      ? "never reads the values of"
                                        : "keeps or hands on";
}
