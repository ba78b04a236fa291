/* What AL201's two spellings (al201.c, al201_numpy.c) read the same way:
 * the statement a padded prefix sum is bound by, and the name just before
 * it that holds an operand. Both call here; nothing here calls them. */
#include "al201.h"

#include "../analysis/python/values.h"
#include "../base/util.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

/* `name.attr.attr` */
static bool attribute_chain(TSNode n)
{
    if (!al_node_is(n, "attribute"))
        return false;
    while (al_node_is(n, "attribute"))
        n = al_node_field(n, "object");
    return al_node_is(n, "identifier");
}

void al201_target_read(const al_pyfile *pf, TSNode value, al201_target *t)
{
    memset(t, 0, sizeof *t);
    TSNode parent = ts_node_parent(value);
    TSNode left = al_node_is(parent, "assignment") ? al_node_field(parent, "left") : (TSNode){0};
    if (!al_node_is(parent, "assignment") ||
        !(al_node_is(left, "identifier") || attribute_chain(left)) ||
        !ts_node_is_null(al_node_field(parent, "type")) ||
        !al_node_is(ts_node_parent(parent), "expression_statement"))
        return;
    TSNode stmt = ts_node_parent(parent);
    t->indent = al_py_indent_of(pf, stmt);
    if (t->indent) {
        t->name = al_node_text(pf, left);
        t->attribute = al_node_is(left, "attribute");
        t->start = ts_node_start_byte(stmt);
        t->end = ts_node_end_byte(stmt);
    }
}

void al201_target_free(al201_target *t)
{
    free(t->name), free(t->indent);
    memset(t, 0, sizeof *t);
}

bool al201_names_variable(const char *text, const char *name)
{
    size_t n = strlen(name);
    for (const char *p = strstr(text, name); p; p = strstr(p + 1, name)) {
        bool start = p == text || !(isalnum((unsigned char)p[-1]) || p[-1] == '_' || p[-1] == '.');
        bool end = !(isalnum((unsigned char)p[n]) || p[n] == '_');
        if (start && end)
            return true;
    }
    return false;
}

/* The statement before stmt in its block, comments skipped. */
TSNode al201_previous_statement(TSNode stmt)
{
    TSNode p = ts_node_prev_named_sibling(stmt);
    while (!ts_node_is_null(p) && al_node_is(p, "comment"))
        p = ts_node_prev_named_sibling(p);
    return p;
}

TSNode al201_held_value(const al_pyfile *pf, TSNode value, TSNode other, const char *target,
                        size_t *start, size_t *end)
{
    other = al_py_unparen(other);
    if (!al_node_is(other, "identifier"))
        return (TSNode){0};
    /* The statement of value: `x = value`, `return value`, ... */
    TSNode stmt = value;
    while (!ts_node_is_null(ts_node_parent(stmt)) && !al_node_is(ts_node_parent(stmt), "block") &&
           !al_node_is(ts_node_parent(stmt), "module"))
        stmt = ts_node_parent(stmt);
    TSNode prev = al201_previous_statement(stmt);
    TSNode func = al_enclosing_function(value);
    TSNode asg = ts_node_is_null(prev) ? prev : al_py_name_assignment(prev);
    if (ts_node_is_null(asg) || ts_node_is_null(func) ||
        !ts_node_is_null(al_node_field(asg, "type")) ||
        !al_py_same_text(pf, al_node_field(asg, "left"), other) ||
        !al_py_statement_lines(pf, prev, start, end))
        return (TSNode){0};
    char *name = al_node_text(pf, other);
    /* Rebound by value's statement: the held value dies there. Otherwise
     * the binding and value are its only mentions. */
    bool dies = target && !strcmp(name, target) && al_py_count_ident(pf, value, name) == 1;
    bool only = al_py_count_ident(pf, func, name) == 2 && !al_py_reads_locals(pf, func);
    free(name);
    return dies || only ? al_node_field(asg, "right") : (TSNode){0};
}
