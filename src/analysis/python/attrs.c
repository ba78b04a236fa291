#include "attrs.h"

#include "alloc.h"
#include "../core/index.h"
#include "pad.h"
#include "../core/summary.h"
#include "../../base/util.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    const al_pymodule *m;
    const al_pyfile *pf;
    const char *attr;
    al_attr_head *out;
} attr_walk;

/* Methods that make a new tensor and neither write their receiver nor
 * return a view of it. */
static const char *const READ_METHODS[] = {
    "clone", "tolist", "item", "sum", "max", "min", "mean", "cumsum", "eq", "ne", "lt", "le",
    "gt", "ge", "any", "all", "nonzero", "argmax", "argmin", "count_nonzero", "equal", NULL};
/* Metadata: no element is read or written. */
static const char *const META[] = {
    "shape", "dtype", "device", "size", "numel", "dim", "ndim", "data_ptr", "stride",
    "is_contiguous", "element_size", "nelement", "is_cuda", NULL};
/* torch functions that return a view of an argument. */
static const char *const VIEW_FUNCTIONS[] = {
    "narrow", "select", "as_strided", "reshape", "view_as_real", "view_as_complex", "flatten",
    "squeeze", "unsqueeze", "transpose", "t", "permute", "split", "chunk", "unbind",
    "tensor_split", "movedim", "diagonal", "expand_as", "broadcast_to", "swapaxes", NULL};

static char *format(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static char *format(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    char *s = al_xmalloc((size_t)n + 1);
    va_start(ap, fmt);
    vsnprintf(s, (size_t)n + 1, fmt, ap);
    va_end(ap);
    return s;
}

static void set_breaker(attr_walk *w, TSNode at, char *why)
{
    if (w->out->breaker) {
        free(why);
        return;
    }
    w->out->breaker = why;
    w->out->breaker_row = al_node_row(at);
}

static char *callee_text(const al_pyfile *pf, TSNode call)
{
    return al_node_text(pf, al_node_field(call, "function"));
}

/* An element-0-safe method call on the buffer (or its head slice): copy_
 * of a zero-headed value, zero_(), fill_(0), or a method that reads. */
static bool head_safe_method(attr_walk *w, TSNode call, const char *method)
{
    al_py_args a;
    al_py_args_read(call, &a);
    TSNode rest;
    if (!strcmp(method, "copy_"))
        return a.npos >= 1 && al_zero_head_value(w->m, a.pos[0], &rest, NULL);
    if (!strcmp(method, "zero_"))
        return a.npos == 0;
    if (!strcmp(method, "fill_"))
        return a.npos == 1 && al_py_is_zero_literal(w->pf, a.pos[0]);
    return al_str_in_list(READ_METHODS, method, strlen(method));
}

/* The buffer (or a slice holding element 0) is an argument of call. */
static void passed_to(attr_walk *w, TSNode use, TSNode call, int pos, TSNode kw)
{
    const al_pyfile *pf = w->pf;
    char *callee = callee_text(pf, call);
    if (!ts_node_is_null(kw) && al_node_text_eq(pf, al_node_field(kw, "name"), "out")) {
        set_breaker(w, use, format("is the `out=` of `%s`", callee));
        free(callee);
        return;
    }
    char *q = al_pymodule_resolve(w->m, al_node_field(call, "function"));
    if (q && !strncmp(q, "torch.", 6) && !strchr(q + 6, '.') && q[strlen(q) - 1] != '_' &&
        !al_str_in_list(VIEW_FUNCTIONS, q + 6, strlen(q + 6))) {
        /* A torch function without out=: it makes a new tensor. */
        al_py_args a;
        al_py_args_read(call, &a);
        if (ts_node_is_null(al_py_kwarg(pf, &a, "out"))) {
            free(q);
            free(callee);
            return;
        }
    }
    free(q);
    al_file_env env = {w->m->path, pf, w->m, w->m->ops, w->m->index, 0};
    al_call_effect e;
    memset(&e, 0, sizeof e);
    if (al_callee_effect(&env, call, pos, kw, &e)) {
        if (e.effect != AL_EFFECT_UNUSED)
            set_breaker(w, use, format("is passed to %s, which %s it",
                                                 e.callee ? e.callee : callee,
                                                 al_effect_name(e.effect)));
    } else {
        set_breaker(w, use, format("is passed to `%s`, which alloclint cannot follow",
                                             callee));
    }
    al_call_effect_free(&e);
    free(callee);
}

/* What is done with v, an expression that may reach element 0: the
 * buffer itself or a slice of it from 0. */
static void value_use(attr_walk *w, TSNode v)
{
    const al_pyfile *pf = w->pf;
    TSNode p = ts_node_parent(v);
    while (al_node_is(p, "parenthesized_expression")) {
        v = p;
        p = ts_node_parent(p);
    }
    if (al_node_is(p, "attribute") && ts_node_eq(al_node_field(p, "object"), v)) {
        TSNode name = al_node_field(p, "attribute");
        size_t len;
        const char *s = al_node_ptr(pf, name, &len);
        char *method = al_xstrndup(s, len);
        TSNode call = ts_node_parent(p);
        if (al_str_in_list(META, method, len)) {
            /* metadata */
        } else if (al_node_is(call, "call") && ts_node_eq(al_node_field(call, "function"), p)) {
            if (!head_safe_method(w, call, method))
                set_breaker(w, v, format("is changed or viewed by `.%s()`", method));
        } else {
            set_breaker(w, v, format("is used through `.%s`", method));
        }
        free(method);
        return;
    }
    if ((al_node_is(p, "assignment") || al_node_is(p, "augmented_assignment")) &&
        ts_node_eq(al_node_field(p, "left"), v)) {
        TSNode r = al_node_field(p, "right");
        if (!al_node_is(p, "assignment") || !al_py_is_zero_literal(pf, r))
            set_breaker(w, v, al_xstrdup("is assigned to"));
        return;
    }
    if (al_node_is(p, "argument_list") || al_node_is(p, "keyword_argument")) {
        TSNode kw = al_node_is(p, "keyword_argument") ? p : (TSNode){0};
        TSNode args = ts_node_is_null(kw) ? p : ts_node_parent(p);
        TSNode call = ts_node_parent(args);
        if (!al_node_is(call, "call")) {
            set_breaker(w, v, al_xstrdup("is used where alloclint cannot follow it"));
            return;
        }
        int pos = -1;
        if (ts_node_is_null(kw)) {
            al_py_args a;
            al_py_args_read(call, &a);
            for (int i = 0; i < a.npos; i++)
                if (ts_node_eq(a.pos[i], v))
                    pos = i;
        }
        passed_to(w, v, call, pos, kw);
        return;
    }
    if (al_node_is(p, "binary_operator") || al_node_is(p, "comparison_operator") ||
        al_node_is(p, "unary_operator") || al_node_is(p, "boolean_operator") ||
        al_node_is(p, "not_operator"))
        return; /* a read, into a new value */
    if (al_node_is(p, "subscript") && ts_node_eq(al_node_field(p, "value"), v)) {
        value_use(w, p); /* an element or slice of it: what is done with that */
        return;
    }
    set_breaker(w, v, al_xstrdup("is kept or handed on: stored, returned or aliased"));
}

/* A slice or index that starts at 1 or later: nothing done through it
 * reaches element 0. */
static bool tail_index(const al_pyfile *pf, TSNode sub)
{
    TSNode idx[2], parts[3];
    if (al_node_field_children(sub, "subscript", idx, 2) != 1)
        return false;
    long v;
    if (al_py_parse_long(pf, idx[0], &v))
        return v >= 1;
    return al_node_is(idx[0], "slice") && al_py_slice_parts(idx[0], parts) &&
           al_py_parse_long(pf, parts[0], &v) && v >= 1;
}

static void binding(attr_walk *w, TSNode a, TSNode asg)
{
    const al_pyfile *pf = w->pf;
    TSNode r = al_py_unparen(al_node_field(asg, "right"));
    const char *f = al_torch_factory(pf, &w->m->imports, r, NULL);
    TSNode fn = al_node_is(r, "call") ? al_node_field(r, "function") : (TSNode){0};
    bool new_zeros = !f && !ts_node_is_null(fn) && al_node_is(fn, "attribute") &&
                     al_py_last_name_is(pf, fn, "new_zeros");
    if (!(f && (!strcmp(f, "zeros") || !strcmp(f, "zeros_like"))) && !new_zeros) {
        set_breaker(w, a, al_xstrdup("is bound to a value not made by a zeros factory"));
        return;
    }
    int rank = -1;
    if (!f || strcmp(f, "zeros_like")) {
        al_py_args za;
        al_py_args_read(r, &za);
        free(al_py_size_tuple(pf, &za, &rank));
    }
    if (!w->out->made_row) {
        w->out->made_zero = true;
        w->out->made_row = al_node_row(a);
        w->out->rank = rank;
    } else if (w->out->rank != rank) {
        w->out->rank = -1;
    }
}

/* Whether a names b among its bases (text match on the last name). */
static bool derives(const al_pyfile *pf, TSNode a, TSNode b)
{
    TSNode bases = al_node_field(a, "superclasses");
    TSNode name = al_node_field(b, "name");
    if (ts_node_is_null(bases) || ts_node_is_null(name))
        return false;
    size_t blen, nlen;
    const char *bt = al_node_ptr(pf, bases, &blen), *nt = al_node_ptr(pf, name, &nlen);
    for (const char *p = bt; (p = memmem(p, blen - (size_t)(p - bt), nt, nlen)) != NULL; p++) {
        bool left = p == bt || !(p[-1] == '_' || (p[-1] >= '0' && p[-1] <= '9') ||
                                 ((p[-1] | 32) >= 'a' && (p[-1] | 32) <= 'z'));
        char r = p + nlen < bt + blen ? p[nlen] : ')';
        bool right = !(r == '_' || (r >= '0' && r <= '9') || ((r | 32) >= 'a' && (r | 32) <= 'z'));
        if (left && right)
            return true;
    }
    return false;
}

static bool related(const al_pyfile *pf, TSNode a, TSNode b)
{
    return derives(pf, a, b) || derives(pf, b, a);
}

/* One `<obj>.attr` of the file. */
static void attribute_use(attr_walk *w, TSNode cls, TSNode a)
{
    const al_pyfile *pf = w->pf;
    TSNode owner = al_self_attribute_class(pf, a);
    bool on_self = !ts_node_is_null(owner);
    /* Another class's own attribute of the same name is another buffer,
     * unless one class derives from the other. */
    if (on_self && !ts_node_eq(owner, cls) && !related(pf, owner, cls))
        return;
    if (!on_self) {
        set_breaker(w, a, al_xstrdup("is named on another object (code outside the class "
                                     "may write it)"));
        return;
    }
    TSNode p = ts_node_parent(a);
    if (al_node_is(p, "assignment") && ts_node_eq(al_node_field(p, "left"), a)) {
        binding(w, a, p);
        return;
    }
    if (al_node_is(p, "subscript") && ts_node_eq(al_node_field(p, "value"), a) &&
        tail_index(pf, p))
        return;
    value_use(w, a);
}

static void walk(attr_walk *w, TSNode cls, TSNode n, int depth)
{
    if (depth > AL_MAX_FUNCTION_DEPTH * 4)
        return;
    if (al_node_is(n, "attribute") && al_node_text_eq(w->pf, al_node_field(n, "attribute"), w->attr))
        attribute_use(w, cls, n);
    uint32_t k = ts_node_named_child_count(n);
    for (uint32_t i = 0; i < k; i++)
        walk(w, cls, ts_node_named_child(n, i), depth + 1);
}

void al_attr_head_facts(const al_pymodule *m, TSNode cls, const char *attr, al_attr_head *out)
{
    al_pyfile_holds_all(m->pf); /* every use in the file counts (subclasses too) */
    memset(out, 0, sizeof *out);
    out->rank = -1;
    attr_walk w = {m, m->pf, attr, out};
    walk(&w, cls, ts_tree_root_node(m->pf->tree), 0);
    if (!out->breaker && m->index && m->path) {
        const char *other = al_index_attribute_elsewhere(m->index, m->path, attr);
        if (other) {
            out->breaker = al_xstrdup("is named in another file (code outside the class may "
                                      "write it)");
            out->breaker_path = al_xstrdup(other);
            out->breaker_row = 0;
        }
    }
}

void al_attr_head_free(al_attr_head *h)
{
    free(h->breaker);
    free(h->breaker_path);
}

TSNode al_enclosing_method_class(const al_pyfile *pf, TSNode n, char **self_name)
{
    *self_name = NULL;
    TSNode method = {0};
    for (TSNode p = ts_node_parent(n); !ts_node_is_null(p); p = ts_node_parent(p)) {
        if (al_node_is(p, "function_definition"))
            method = p;
        if (al_node_is(p, "class_definition")) {
            if (ts_node_is_null(method))
                return (TSNode){0};
            /* The outermost function inside the class is the method. */
            TSNode up = ts_node_parent(method);
            if (al_node_is(up, "decorated_definition"))
                up = ts_node_parent(up);
            if (!al_node_is(up, "block") || !ts_node_eq(ts_node_parent(up), p))
                return (TSNode){0};
            al_strlist params = {0};
            al_py_param_names(pf, method, &params);
            if (params.n)
                *self_name = al_xstrdup(params.items[0]);
            al_strlist_free(&params);
            return *self_name ? p : (TSNode){0};
        }
    }
    return (TSNode){0};
}

TSNode al_self_attribute_class(const al_pyfile *pf, TSNode attr)
{
    if (!al_node_is(attr, "attribute"))
        return (TSNode){0};
    char *self = NULL;
    TSNode cls = al_enclosing_method_class(pf, attr, &self);
    TSNode obj = al_node_field(attr, "object");
    bool on_self = !ts_node_is_null(cls) && self && al_node_is(obj, "identifier") &&
                   al_node_text_eq(pf, obj, self);
    free(self);
    return on_self ? cls : (TSNode){0};
}
