/* What a class declares its attributes to hold, from annotations and
 * the parameters its methods store (annotations.h). */
#include "annotations.h"

#include "../../base/util.h"

#include <stdlib.h>
#include <string.h>

/* The class a type annotation names, Optional or `| None` taken off. */
static TSNode annotated_class(const al_pyfile *pf, TSNode t, int depth)
{
    if (ts_node_is_null(t) || depth > 6)
        return (TSNode){0};
    if (al_node_is(t, "identifier") || al_node_is(t, "attribute"))
        return al_node_text_eq(pf, t, "None") ? (TSNode){0} : t;
    uint32_t k = ts_node_named_child_count(t);
    if (al_node_is(t, "type") || al_node_is(t, "type_parameter") ||
        al_node_is(t, "parenthesized_expression"))
        return k == 1 ? annotated_class(pf, ts_node_named_child(t, 0), depth + 1) : (TSNode){0};
    if (al_node_is(t, "binary_operator") && k == 2) {
        TSNode l = ts_node_named_child(t, 0), r = ts_node_named_child(t, 1);
        if (al_node_text_eq(pf, r, "None"))
            return annotated_class(pf, l, depth + 1);
        if (al_node_text_eq(pf, l, "None"))
            return annotated_class(pf, r, depth + 1);
        return (TSNode){0};
    }
    if ((al_node_is(t, "subscript") || al_node_is(t, "generic_type")) && k == 2) {
        TSNode head = ts_node_named_child(t, 0);
        if (al_node_text_eq(pf, head, "Optional") || al_node_text_eq(pf, head, "typing.Optional"))
            return annotated_class(pf, ts_node_named_child(t, 1), depth + 1);
    }
    return (TSNode){0};
}

typedef struct {
    TSNode found;
    bool conflict;
} attr_type;

/* An annotation declares the attribute's class; without one, what every
 * assignment gives it, when they agree, stands for it. */
typedef struct {
    const al_pyfile *pf;
    const char *attr;
    attr_type declared, inferred;
} attr_types;

/* The annotation of parameter `name` of def, or null. */
static TSNode param_annotation(const al_pyfile *pf, TSNode def, const char *name)
{
    TSNode params = al_node_field(def, "parameters");
    uint32_t k = ts_node_named_child_count(params);
    for (uint32_t i = 0; i < k; i++) {
        TSNode p = ts_node_named_child(params, i);
        if ((al_node_is(p, "typed_parameter") || al_node_is(p, "typed_default_parameter"))) {
            TSNode id = al_node_is(p, "typed_parameter") ? ts_node_named_child(p, 0)
                                                          : al_node_field(p, "name");
            if (al_node_is(id, "identifier") && al_node_text_eq(pf, id, name))
                return al_node_field(p, "type");
        }
    }
    return (TSNode){0};
}

/* `attr: T` in the class body, `self.attr: T = ...` in its methods, and
 * every other `self.attr = v` there: v a parameter annotated T, a call
 * `T(...)` of a class-like name, or None (the attribute unset); anything
 * else leaves the attribute's class unknown. */
static void note_annotation(attr_types *a, TSNode asg, TSNode method)
{
    bool in_method = !ts_node_is_null(method);
    TSNode left = al_node_field(asg, "left"), type = al_node_field(asg, "type");
    bool named = in_method ? al_node_is(left, "attribute") &&
                                 al_node_text_eq(a->pf, al_node_field(left, "object"), "self") &&
                                 al_node_text_eq(a->pf, al_node_field(left, "attribute"), a->attr)
                           : al_node_is(left, "identifier") && al_node_text_eq(a->pf, left, a->attr);
    if (!named)
        return;
    TSNode right = al_py_unparen(al_node_field(asg, "right"));
    if (ts_node_is_null(type) && !in_method)
        return; /* a class attribute's value: not the instance's */
    if (ts_node_is_null(type) && al_node_is(right, "none"))
        return;
    bool inferred = ts_node_is_null(type);
    if (inferred && al_node_is(right, "identifier")) {
        char *p = al_node_text(a->pf, right);
        if (al_py_is_param(a->pf, method, p))
            type = param_annotation(a->pf, method, p);
        free(p);
    } else if (inferred && al_node_is(right, "call") &&
               al_py_names_class(a->pf, al_node_field(right, "function"))) {
        type = al_node_field(right, "function");
    }
    attr_type *slot = inferred ? &a->inferred : &a->declared;
    TSNode cls = annotated_class(a->pf, type, 0);
    if (ts_node_is_null(cls)) {
        slot->conflict = true;
        return;
    }
    if (!ts_node_is_null(slot->found)) {
        char *x = al_node_text_compact(a->pf, slot->found), *y = al_node_text_compact(a->pf, cls);
        slot->conflict |= strcmp(x, y) != 0;
        free(x);
        free(y);
    }
    slot->found = cls;
}

static void scan_annotations(attr_types *a, TSNode n, TSNode method, int depth)
{
    if (depth > 60)
        return;
    if (al_node_is(n, "assignment"))
        note_annotation(a, n, method);
    if (al_node_is(n, "class_definition") && depth > 0)
        return;
    if (ts_node_is_null(method) && al_node_is(n, "function_definition"))
        method = n;
    uint32_t k = ts_node_named_child_count(n);
    for (uint32_t i = 0; i < k; i++)
        scan_annotations(a, ts_node_named_child(n, i), method, depth + 1);
}

TSNode al_py_attribute_type(const al_pyfile *pf, TSNode cls, const char *attr)
{
    attr_types a = {.pf = pf, .attr = attr};
    scan_annotations(&a, cls, (TSNode){0}, 0);
    const attr_type *t = ts_node_is_null(a.declared.found) && !a.declared.conflict ? &a.inferred
                                                                                   : &a.declared;
    return t->conflict ? (TSNode){0} : t->found;
}
