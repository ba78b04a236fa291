#include "callsites.h"

#include "../../base/util.h"
#include "../../front/python/syntax.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

size_t al_py_def_row(TSNode fn)
{
    return ts_node_start_point(fn).row + 1;
}

/* A code object's first line: its first decorator's, where it has one. */
static size_t first_row(TSNode def)
{
    TSNode p = ts_node_parent(def);
    if (!ts_node_is_null(p) && al_node_is(p, "decorated_definition"))
        return ts_node_start_point(p).row + 1;
    return ts_node_start_point(def).row + 1;
}

typedef struct {
    const al_pyfile *pf;
    size_t line;
    const char *name;
    uint32_t type;      /* the node type sought for <lambda> and comprehensions; 0: a def */
    TSNode exact, within;
    size_t within_span; /* rows of the innermost container so far */
} frame_search;

static al_visit find_frame(TSNode n, void *arg)
{
    frame_search *s = arg;
    size_t top = ts_node_start_point(n).row + 1, bottom = ts_node_end_point(n).row + 1;
    bool holds = s->line >= top && s->line <= bottom;
    if (s->type) {
        if (holds && al_node_has_type(n, s->type) && top == s->line && ts_node_is_null(s->exact))
            s->exact = n;
        return holds ? AL_VISIT_INTO : AL_VISIT_OVER;
    }
    /* A decorated def's first line is above its node, inside its parent's. */
    if (al_node_is(n, "function_definition") || al_node_is(n, "class_definition")) {
        TSNode name = al_node_field(n, "name");
        if (!ts_node_is_null(name) && al_node_text_eq(s->pf, name, s->name)) {
            if (first_row(n) == s->line && ts_node_is_null(s->exact))
                s->exact = n;
            else if (holds && (ts_node_is_null(s->within) || bottom - top < s->within_span)) {
                s->within = n;
                s->within_span = bottom - top;
            }
        }
    }
    return holds ? AL_VISIT_INTO : AL_VISIT_OVER;
}

bool al_py_frame_function(const al_pyfile *pf, size_t line, const char *name, TSNode *out,
                          bool *exact)
{
    *exact = false;
    if (!strcmp(name, "<module>")) {
        *out = pf->root;
        *exact = true;
        return true;
    }
    frame_search s;
    memset(&s, 0, sizeof s);
    s.pf = pf;
    s.line = line;
    s.name = name;
    if (!strcmp(name, "<lambda>"))
        s.type = al_py_type_id("lambda");
    else if (!strcmp(name, "<listcomp>"))
        s.type = al_py_type_id("list_comprehension");
    else if (!strcmp(name, "<dictcomp>"))
        s.type = al_py_type_id("dictionary_comprehension");
    else if (!strcmp(name, "<setcomp>"))
        s.type = al_py_type_id("set_comprehension");
    else if (!strcmp(name, "<genexpr>"))
        s.type = al_py_type_id("generator_expression");
    else if (name[0] == '<')
        return false;
    al_node_preorder(pf->root, find_frame, &s);
    if (!ts_node_is_null(s.exact)) {
        *out = s.exact;
        *exact = true;
        return true;
    }
    if (!ts_node_is_null(s.within)) {
        *out = s.within;
        return true;
    }
    return false;
}

typedef struct {
    size_t line;
    TSNode found;
} function_search;

static al_visit find_function(TSNode n, void *arg)
{
    function_search *s = arg;
    size_t top = ts_node_start_point(n).row + 1, bottom = ts_node_end_point(n).row + 1;
    if (s->line < top || s->line > bottom)
        return AL_VISIT_OVER;
    if (al_node_is(n, "function_definition"))
        s->found = n;
    return AL_VISIT_INTO;
}

TSNode al_py_function_at(const al_pyfile *pf, size_t line)
{
    function_search s = {line, pf->root};
    al_node_preorder(pf->root, find_function, &s);
    return s.found;
}

typedef struct {
    const al_pyfile *pf;
    al_callsites *out;
    int depth;
} collect;

static void add_site(collect *c, TSNode node, const char *kind, size_t klen, bool straight)
{
    if (!klen)
        return;
    al_callsite s;
    memset(&s, 0, sizeof s);
    snprintf(s.kind, sizeof s.kind, "%.*s", (int)(klen < 63 ? klen : 63), kind);
    s.node = node;
    s.start = ts_node_start_byte(node);
    s.end = ts_node_end_byte(node);
    s.row = ts_node_start_point(node).row + 1;
    s.straight = straight;
    AL_PUSH(c->out->items, c->out->n, c->out->cap, s);
}

static void visit(collect *c, TSNode n, bool straight);

static void visit_children(collect *c, TSNode n, bool straight)
{
    uint32_t k = ts_node_named_child_count(n);
    for (uint32_t i = 0; i < k; i++)
        visit(c, ts_node_named_child(n, i), straight);
}

static void visit_call(collect *c, TSNode n, bool straight)
{
    TSNode fn = al_node_field(n, "function");
    /* `a.b(x).c(y)`: the object's calls run first, then the arguments. */
    if (al_node_is(fn, "attribute"))
        visit(c, al_node_field(fn, "object"), straight);
    else if (!al_node_is(fn, "identifier"))
        visit(c, fn, straight);
    visit(c, al_node_field(n, "arguments"), straight);
    size_t len = 0;
    const char *name = al_py_last_name(c->pf, fn, &len);
    add_site(c, n, name, len, straight);
}

static void visit(collect *c, TSNode n, bool straight)
{
    if (ts_node_is_null(n) || c->depth > 300)
        return;
    c->depth++;
    if (al_node_is(n, "function_definition") || al_node_is(n, "class_definition") ||
        al_node_is(n, "decorated_definition") || al_node_is(n, "lambda")) {
        /* Frames of their own. */
    } else if (al_node_is(n, "call")) {
        visit_call(c, n, straight);
    } else if (al_node_is(n, "assignment")) {
        visit(c, al_node_field(n, "right"), straight);
        TSNode left = al_node_field(n, "left");
        visit(c, left, straight);
        if (al_node_is(left, "subscript"))
            add_site(c, n, AL_CALLSITE_SETITEM, strlen(AL_CALLSITE_SETITEM), straight);
    } else if (al_node_is(n, "augmented_assignment")) {
        TSNode left = al_node_field(n, "left");
        visit(c, left, straight);
        visit(c, al_node_field(n, "right"), straight);
        TSNode op = al_node_field(n, "operator");
        if (!ts_node_is_null(op)) {
            size_t len = ts_node_end_byte(op) - ts_node_start_byte(op);
            add_site(c, n, c->pf->src->bytes + ts_node_start_byte(op), len, straight);
        }
        if (al_node_is(left, "subscript"))
            add_site(c, n, AL_CALLSITE_SETITEM, strlen(AL_CALLSITE_SETITEM), straight);
    } else if (al_node_is(n, "if_statement")) {
        visit(c, al_node_field(n, "condition"), straight);
        uint32_t k = ts_node_named_child_count(n);
        for (uint32_t i = 1; i < k; i++)
            visit(c, ts_node_named_child(n, i), false);
    } else if (al_node_is(n, "for_statement")) {
        visit(c, al_node_field(n, "right"), straight);
        visit(c, al_node_field(n, "left"), false);
        visit(c, al_node_field(n, "body"), false);
        visit(c, al_node_field(n, "alternative"), false);
    } else if (al_node_is(n, "while_statement") || al_node_is(n, "match_statement") ||
               al_node_is(n, "except_clause") || al_node_is(n, "except_group_clause") ||
               al_node_is(n, "finally_clause") || al_node_is(n, "else_clause") ||
               al_node_is(n, "assert_statement")) {
        visit_children(c, n, false);
    } else if (al_node_is(n, "conditional_expression")) {
        /* `a if cond else b`: cond first, then one of the two. */
        TSNode a = ts_node_named_child(n, 0), cond = ts_node_named_child(n, 1),
               b = ts_node_named_child(n, 2);
        visit(c, cond, straight);
        visit(c, a, false);
        visit(c, b, false);
    } else if (al_node_is(n, "boolean_operator")) {
        visit(c, al_node_field(n, "left"), straight);
        visit(c, al_node_field(n, "right"), false);
    } else if (al_node_is(n, "list_comprehension") || al_node_is(n, "set_comprehension") ||
               al_node_is(n, "dictionary_comprehension") ||
               al_node_is(n, "generator_expression")) {
        /* The first iterable is evaluated here; the rest runs per item
         * (inlined since Python 3.12; a frame of its own before, and
         * always for a generator). */
        uint32_t k = ts_node_named_child_count(n);
        for (uint32_t i = 0; i < k; i++) {
            TSNode ch = ts_node_named_child(n, i);
            if (al_node_is(ch, "for_in_clause") && i == 1) {
                visit(c, al_node_field(ch, "right"), straight);
                visit(c, al_node_field(ch, "left"), false);
            } else if (!al_node_is(n, "generator_expression")) {
                visit(c, ch, false);
            }
        }
    } else {
        visit_children(c, n, straight);
    }
    c->depth--;
}

static al_visit find_suspension(TSNode n, void *arg)
{
    if (al_node_is(n, "function_definition") || al_node_is(n, "class_definition") ||
        al_node_is(n, "lambda"))
        return AL_VISIT_OVER;
    if (al_node_is(n, "yield") || al_node_is(n, "await")) {
        *(bool *)arg = true;
        return AL_VISIT_STOP;
    }
    return AL_VISIT_INTO;
}

void al_py_callsites(const al_pyfile *pf, TSNode fn, al_callsites *out)
{
    memset(out, 0, sizeof *out);
    collect c = {pf, out, 0};
    TSNode body = fn;
    if (al_node_is(fn, "function_definition") || al_node_is(fn, "class_definition"))
        body = al_node_field(fn, "body");
    else if (al_node_is(fn, "lambda"))
        body = al_node_field(fn, "body");
    if (ts_node_is_null(body))
        return;
    /* A generator or coroutine resumes in a new frame each time: no call
     * of it runs its body straight through. */
    bool suspends = false;
    if (!al_node_is(fn, "module"))
        al_node_preorder(body, find_suspension, &suspends);
    if (al_node_is(fn, "list_comprehension") || al_node_is(fn, "set_comprehension") ||
        al_node_is(fn, "dictionary_comprehension") || al_node_is(fn, "generator_expression"))
        visit_children(&c, fn, false);
    else
        visit(&c, body, !suspends);
}

void al_callsites_free(al_callsites *s)
{
    free(s->items);
    memset(s, 0, sizeof *s);
}

static void put_kind(char *kind, size_t size, const char *s, size_t len)
{
    if (!size)
        return;
    if (len >= size)
        len = size - 1;
    memcpy(kind, s, len);
    kind[len] = '\0';
}

void al_callsite_kind_of_frame(const char *frame, char *kind, size_t size)
{
    static const char *const prefixes[] = {"<built-in method ", "<built-in function ",
                                           "<method '", NULL};
    for (int i = 0; prefixes[i]; i++) {
        size_t pl = strlen(prefixes[i]);
        if (strncmp(frame, prefixes[i], pl))
            continue;
        const char *name = frame + pl;
        size_t len = strcspn(name, " '>");
        put_kind(kind, size, name, len);
        return;
    }
    /* `path(line): name` */
    const char *colon = strstr(frame, "): ");
    if (colon) {
        put_kind(kind, size, colon + 3, strlen(colon + 3));
        return;
    }
    put_kind(kind, size, frame, strlen(frame));
}

void al_callsite_kind_of_op(const char *op, char *kind, size_t size)
{
    static const char *const setitem[] = {"aten::copy_", "aten::fill_", "aten::index_put_",
                                          "aten::masked_fill_", "aten::index_fill_", NULL};
    static const char *const augmented[][2] = {{"aten::add_", "+="}, {"aten::sub_", "-="},
                                               {"aten::mul_", "*="}, {"aten::div_", "/="},
                                               {NULL, NULL}};
    for (int i = 0; setitem[i]; i++)
        if (!strcmp(op, setitem[i])) {
            put_kind(kind, size, AL_CALLSITE_SETITEM, strlen(AL_CALLSITE_SETITEM));
            return;
        }
    for (int i = 0; augmented[i][0]; i++)
        if (!strcmp(op, augmented[i][0])) {
            put_kind(kind, size, augmented[i][1], strlen(augmented[i][1]));
            return;
        }
    put_kind(kind, size, op, strlen(op));
}
