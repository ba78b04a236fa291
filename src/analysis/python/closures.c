#include "closures.h"
#include "../../front/pylex.h"

#include "../../base/util.h"

#include <stdlib.h>
#include <string.h>

/* Uses of `name` in one graph node's expression (not in its blocks,
 * which are nodes of their own): the direct calls, and whether any use is
 * something else or sits in a nested scope. */
typedef struct {
    const al_pyfile *pf;
    const char *name;
    TSNode calls[8];
    size_t ncalls;
    int uses;
    bool other;
} call_scan;

static void scan_direct_calls(call_scan *s, TSNode n, int depth)
{
    const char *t = ts_node_type(n);
    if (depth > 200) {
        s->other = true;
        return;
    }
    if (!strcmp(t, "block"))
        return;
    if (!strcmp(t, "lambda") || !strcmp(t, "function_definition") ||
        !strcmp(t, "class_definition") || !strcmp(t, "generator_expression")) {
        int inner = al_py_count_ident(s->pf, n, s->name);
        s->uses += inner;
        s->other |= inner > 0;
        return;
    }
    if (!strcmp(t, "attribute")) {
        scan_direct_calls(s, al_node_field(n, "object"), depth + 1);
        return;
    }
    if (!strcmp(t, "keyword_argument")) {
        scan_direct_calls(s, al_node_field(n, "value"), depth + 1);
        return;
    }
    if (!strcmp(t, "identifier")) {
        if (!al_node_text_eq(s->pf, n, s->name))
            return;
        s->uses++;
        TSNode p = ts_node_parent(n);
        if (al_node_is(p, "call") && ts_node_eq(al_node_field(p, "function"), n) && s->ncalls < 8)
            s->calls[s->ncalls++] = p;
        else
            s->other = true;
        return;
    }
    uint32_t k = ts_node_named_child_count(n);
    for (uint32_t i = 0; i < k; i++)
        scan_direct_calls(s, ts_node_named_child(n, i), depth + 1);
}

static bool captures(const al_pyfile *pf, const al_cfg *cfg, const al_closure *c, const char *name);

static bool declared(const char *const *globals, size_t n, const char *name)
{
    for (size_t i = 0; i < n; i++)
        if (!strcmp(globals[i], name))
            return true;
    return false;
}

/* Whether def (a DEF node's function) is a closure of func: its name's
 * one binding, every other use a direct call from func's own statements
 * (collected into out->calls, closure index k). */
static bool direct_only(const al_pyfile *pf, TSNode func, const al_cfg *cfg, int i,
                        const char *name, al_closures *out, int k)
{
    TSNode body = al_node_field(func, "body");
    al_strlist bound = {0};
    al_py_bound_names(pf, body, &bound);
    bool plain = !al_strlist_has(&bound, name, strlen(name)) && !al_py_is_param(pf, func, name);
    al_strlist_free(&bound);
    if (!plain)
        return false;
    size_t first = out->ncalls;
    int found = 1; /* the def's own name */
    for (size_t j = 0; j < cfg->n; j++) {
        TSNode e = cfg->nodes[j].eval;
        if (ts_node_is_null(e))
            continue;
        if (cfg->nodes[j].kind == AL_CFG_DEF) {
            /* Its own body (recursion), another definition naming it. */
            TSNode where = (int)j == i ? al_node_field(e, "body") : e;
            if (al_py_count_ident(pf, where, name) > 0 ||
                ((int)j != i && al_node_text_eq(pf, al_node_field(e, "name"), name)))
                goto refuse;
            continue;
        }
        call_scan s = {.pf = pf, .name = name};
        scan_direct_calls(&s, e, 0);
        if (s.other)
            goto refuse;
        found += s.uses;
        for (size_t c = 0; c < s.ncalls; c++) {
            al_closure_call cc = {(int)j, k, s.calls[c]};
            AL_PUSH(out->calls, out->ncalls, out->capcalls, cc);
        }
    }
    if (found == al_py_count_ident(pf, body, name))
        return true;
refuse:
    out->ncalls = first;
    return false;
}

/* Lambdas and generator expressions in one node's expression, and calls
 * that read locals by name (closure -1). */
static void scan_late(const al_pyfile *pf, TSNode n, int node, al_closures *out, int depth)
{
    if (depth > 200 || al_node_is(n, "block"))
        return;
    if (al_node_is(n, "call") && al_py_call_reads_locals(pf, n)) {
        al_closure_call cc = {node, -1, n};
        AL_PUSH(out->calls, out->ncalls, out->capcalls, cc);
    }
    if (al_node_is(n, "lambda") || al_node_is(n, "generator_expression")) {
        al_late_scope s = {n, -1};
        AL_PUSH(out->scopes, out->nscopes, out->capscopes, s);
        return;
    }
    uint32_t k = ts_node_named_child_count(n);
    for (uint32_t i = 0; i < k; i++)
        scan_late(pf, ts_node_named_child(n, i), node, out, depth + 1);
}

static int by_node(const void *x, const void *y)
{
    const al_closure_call *a = x, *b = y;
    if (a->node != b->node)
        return a->node < b->node ? -1 : 1;
    return ts_node_start_byte(a->call) < ts_node_start_byte(b->call)   ? -1
           : ts_node_start_byte(a->call) > ts_node_start_byte(b->call) ? 1
                                                                       : 0;
}

/* Whether n's bytes (a graph node's; with scopes, a whole body) spell a
 * word of what the scan looks for: a lambda, a generator's `for`, `eval`,
 * `exec`, `locals`, `vars`, and with scopes a nested `def` or `class`.
 * Most functions and statements hold none and need no walk; a word in a
 * string or a comment only costs the walk. */
static bool names_late(const al_pyfile *pf, TSNode n, bool scopes)
{
    size_t len;
    const char *p = al_node_ptr(pf, n, &len), *end = p + len;
    while (p < end) {
        if (!al_lex_ident_start((unsigned char)*p)) {
            p++;
            continue;
        }
        const char *w = p;
        while (w < end && al_lex_ident_char((unsigned char)*w))
            w++;
        size_t k = (size_t)(w - p);
        if (al_lex_word_is(p, k, "for") || al_lex_word_is(p, k, "lambda") ||
            al_lex_word_is(p, k, "eval") || al_lex_word_is(p, k, "exec") ||
            al_lex_word_is(p, k, "locals") || al_lex_word_is(p, k, "vars") ||
            (scopes && (al_lex_word_is(p, k, "def") || al_lex_word_is(p, k, "class"))))
            return true;
        p = w;
    }
    return false;
}

void al_closures_find(const al_pyfile *pf, TSNode func, const al_cfg *cfg,
                      const char *const *globals, size_t nglobals, al_closures *out)
{
    memset(out, 0, sizeof *out);
    if (!names_late(pf, al_node_field(func, "body"), true))
        return;
    for (size_t i = 0; i < cfg->n; i++) {
        TSNode e = cfg->nodes[i].eval;
        if (ts_node_is_null(e))
            continue;
        if (cfg->nodes[i].kind != AL_CFG_DEF) {
            if (names_late(pf, e, false))
                scan_late(pf, e, (int)i, out, 0);
            continue;
        }
        al_late_scope s = {e, -1};
        if (al_node_is(e, "function_definition")) {
            char *name = al_node_text(pf, al_node_field(e, "name"));
            if (!declared(globals, nglobals, name) &&
                direct_only(pf, func, cfg, (int)i, name, out, (int)out->n)) {
                al_closure c = {(int)i, name};
                AL_PUSH(out->items, out->n, out->cap, c);
                s.closure = (int)out->n - 1;
            } else {
                free(name);
            }
        }
        AL_PUSH(out->scopes, out->nscopes, out->capscopes, s);
    }
    if (out->ncalls > 1)
        qsort(out->calls, out->ncalls, sizeof *out->calls, by_node);
}

void al_closures_free(al_closures *c)
{
    for (size_t i = 0; i < c->n; i++)
        free(c->items[i].name);
    free(c->items);
    free(c->calls);
    free(c->scopes);
    memset(c, 0, sizeof *c);
}

const al_closure *al_closure_at(const al_closures *c, const al_cfg *cfg, int node)
{
    (void)cfg;
    for (size_t i = 0; i < c->n; i++)
        if (c->items[i].def_node == node)
            return &c->items[i];
    return NULL;
}

bool al_closures_called_at(const al_closures *c, int node)
{
    for (size_t i = 0; i < c->ncalls && c->calls[i].node <= node; i++)
        if (c->calls[i].node == node)
            return true;
    return false;
}

bool al_closure_names(const al_pyfile *pf, const al_cfg *cfg, const al_closure *c,
                      const char *name_bytes, size_t len)
{
    if (!c)
        return false;
    char *name = al_xstrndup(name_bytes, len);
    bool yes = captures(pf, cfg, c, name);
    free(name);
    return yes;
}

const char *al_late_scope_kind(TSNode scope)
{
    return al_node_is(scope, "lambda")                ? "a lambda"
           : al_node_is(scope, "generator_expression") ? "a generator expression"
                                                       : "a nested definition";
}

static bool captures(const al_pyfile *pf, const al_cfg *cfg, const al_closure *c, const char *name)
{
    TSNode def = cfg->nodes[c->def_node].eval;
    TSNode body = al_node_field(def, "body");
    if (al_py_count_ident(pf, body, name) == 0 || al_py_is_param(pf, def, name))
        return false;
    al_strlist bound = {0};
    al_py_bound_names(pf, body, &bound);
    bool local = al_strlist_has(&bound, name, strlen(name));
    al_strlist_free(&bound);
    return !local;
}

/* Whether code at byte `at` may run before statement st: it comes first
 * in the function, or a loop around st holds it. */
static bool may_run_before(TSNode func, TSNode st, uint32_t at)
{
    if (at < ts_node_start_byte(st))
        return true;
    for (TSNode p = ts_node_parent(st); !ts_node_is_null(p) && !ts_node_eq(p, func);
         p = ts_node_parent(p))
        if ((al_node_is(p, "for_statement") || al_node_is(p, "while_statement")) &&
            at >= ts_node_start_byte(p) && at < ts_node_end_byte(p))
            return true;
    return false;
}

TSNode al_closures_captured_before(const al_closures *c, const al_pyfile *pf, const al_cfg *cfg,
                                   TSNode func, TSNode st, const char *name)
{
    for (size_t i = 0; i < c->nscopes; i++) {
        const al_late_scope *s = &c->scopes[i];
        if (s->closure >= 0 && captures(pf, cfg, &c->items[s->closure], name))
            continue; /* it runs at its calls, which the walk meets */
        if (may_run_before(func, st, ts_node_start_byte(s->node)) &&
            al_py_count_ident(pf, s->node, name) > 0)
            return s->node;
    }
    return (TSNode){0};
}
