#include "syntax.h"

#include "../../base/util.h"

#include <stdlib.h>
#include <string.h>

void al_py_args_read(TSNode call, al_py_args *a)
{
    memset(a, 0, sizeof *a);
    TSNode args = al_node_field(call, "arguments");
    if (!al_node_is(args, "argument_list")) {
        a->splat = true; /* f(x for x in y) */
        return;
    }
    uint32_t k = ts_node_named_child_count(args);
    for (uint32_t i = 0; i < k; i++) {
        TSNode c = ts_node_named_child(args, i);
        if (al_node_is(c, "comment"))
            continue;
        if (a->nall < 32)
            a->all[a->nall++] = c;
        if (al_node_is(c, "keyword_argument")) {
            if (a->nkw < 16)
                a->kw[a->nkw++] = c;
        } else if (al_node_is(c, "list_splat") || al_node_is(c, "dictionary_splat") ||
                   a->npos == 16) {
            a->splat = true;
        } else {
            a->pos[a->npos++] = c;
        }
    }
}

TSNode al_py_kwarg(const al_pyfile *pf, const al_py_args *a, const char *name)
{
    for (int i = 0; i < a->nkw; i++)
        if (al_node_text_eq(pf, al_node_field(a->kw[i], "name"), name))
            return al_node_field(a->kw[i], "value");
    return (TSNode){0};
}

bool al_py_kwargs_within(const al_pyfile *pf, const al_py_args *a, const char *const *names)
{
    for (int i = 0; i < a->nkw; i++) {
        TSNode name = al_node_field(a->kw[i], "name");
        bool known = false;
        for (const char *const *n = names; *n && !known; n++)
            known = al_node_text_eq(pf, name, *n);
        if (!known)
            return false;
    }
    return true;
}

char *al_py_kwargs_text(const al_pyfile *pf, const al_py_args *a, const char *skip)
{
    al_strbuf sb = {0};
    al_strbuf_puts(&sb, "");
    for (int i = 0; i < a->nkw; i++) {
        if (skip && al_node_text_eq(pf, al_node_field(a->kw[i], "name"), skip))
            continue;
        char *t = al_node_text(pf, a->kw[i]);
        al_strbuf_printf(&sb, ", %s", t);
        free(t);
    }
    return al_strbuf_detach(&sb);
}

void al_py_arg_delete_range(const al_py_args *a, TSNode arg, size_t *start, size_t *end)
{
    int idx = -1;
    for (int i = 0; i < a->nall; i++)
        if (ts_node_eq(a->all[i], arg))
            idx = i;
    if (idx < 0) {
        *start = *end = 0;
        return;
    }
    if (idx + 1 < a->nall) {
        *start = ts_node_start_byte(arg);
        *end = ts_node_start_byte(a->all[idx + 1]);
    } else if (idx > 0) {
        *start = ts_node_end_byte(a->all[idx - 1]);
        *end = ts_node_end_byte(arg);
    } else {
        *start = ts_node_start_byte(arg);
        *end = ts_node_end_byte(arg);
    }
}

TSNode al_py_unparen(TSNode n)
{
    while (al_node_is(n, "parenthesized_expression") && ts_node_named_child_count(n) == 1)
        n = ts_node_named_child(n, 0);
    return n;
}

const char *al_py_last_name(const al_pyfile *pf, TSNode fn, size_t *len)
{
    if (al_node_is(fn, "attribute"))
        fn = al_node_field(fn, "attribute");
    if (!al_node_is(fn, "identifier")) {
        *len = 0;
        return "";
    }
    return al_node_ptr(pf, fn, len);
}

bool al_py_last_name_is(const al_pyfile *pf, TSNode fn, const char *name)
{
    size_t len;
    const char *p = al_py_last_name(pf, fn, &len);
    return strlen(name) == len && memcmp(p, name, len) == 0;
}

bool al_py_same_text(const al_pyfile *pf, TSNode a, TSNode b)
{
    if (ts_node_is_null(a) || ts_node_is_null(b))
        return ts_node_is_null(a) && ts_node_is_null(b);
    char *x = al_node_text_compact(pf, a), *y = al_node_text_compact(pf, b);
    bool eq = !strcmp(x, y);
    free(x);
    free(y);
    return eq;
}

bool al_py_node_eq(TSNode a, TSNode b)
{
    return !ts_node_is_null(a) && !ts_node_is_null(b) && ts_node_eq(a, b);
}

bool al_py_parse_long(const al_pyfile *pf, TSNode n, long *out)
{
    if (!al_node_is(n, "integer"))
        return false;
    size_t len;
    const char *p = al_node_ptr(pf, n, &len);
    if (len == 0 || len > 18)
        return false;
    char buf[24];
    size_t k = 0;
    for (size_t i = 0; i < len; i++)
        if (p[i] != '_')
            buf[k++] = p[i];
    buf[k] = '\0';
    char *end;
    long v = strtol(buf, &end, 0);
    if (*end)
        return false;
    *out = v;
    return true;
}

bool al_py_is_zero_literal(const al_pyfile *pf, TSNode v)
{
    return al_node_text_eq(pf, v, "0") || al_node_text_eq(pf, v, "0.0") ||
           al_node_text_eq(pf, v, "0.") || al_node_text_eq(pf, v, "False");
}

char *al_py_float_value(const al_pyfile *pf, TSNode v)
{
    TSNode inner = al_node_is(v, "unary_operator") ? al_node_field(v, "argument") : v;
    char *t = al_node_text(pf, v);
    if (al_node_is(inner, "float"))
        return t;
    if (al_node_is(inner, "integer")) {
        al_strbuf sb = {0};
        al_strbuf_printf(&sb, "%s.0", t);
        free(t);
        return al_strbuf_detach(&sb);
    }
    if (al_node_is(inner, "call") && al_node_text_eq(pf, al_node_field(inner, "function"), "float"))
        return t;
    free(t);
    return NULL;
}

char *al_py_size_tuple(const al_pyfile *pf, const al_py_args *a, int *rank)
{
    *rank = -1;
    if (a->npos == 0)
        return NULL;
    if (a->npos > 1) {
        al_strbuf sb = {0};
        al_strbuf_putc(&sb, '(');
        for (int i = 0; i < a->npos; i++) {
            char *t = al_node_text(pf, a->pos[i]);
            al_strbuf_printf(&sb, "%s%s", i ? ", " : "", t);
            free(t);
        }
        al_strbuf_putc(&sb, ')');
        *rank = a->npos;
        return al_strbuf_detach(&sb);
    }
    TSNode size = al_py_unparen(a->pos[0]);
    if (al_node_is(size, "tuple") || al_node_is(size, "list")) {
        /* full() takes a list as well as a tuple: the text serves as is. */
        int r = 0;
        uint32_t k = ts_node_named_child_count(size);
        for (uint32_t i = 0; i < k; i++)
            if (!al_node_is(ts_node_named_child(size, i), "comment")) {
                if (al_node_is(ts_node_named_child(size, i), "list_splat"))
                    return NULL;
                r++;
            }
        *rank = r;
        return al_node_text(pf, size);
    }
    if (al_node_is(size, "integer") || al_node_is(size, "binary_operator")) {
        char *t = al_node_text(pf, size);
        al_strbuf sb = {0};
        al_strbuf_printf(&sb, "(%s,)", t);
        free(t);
        *rank = 1;
        return al_strbuf_detach(&sb);
    }
    return NULL; /* a name: an int or a tuple, cannot tell */
}

TSNode al_py_shape_elem(const al_py_args *a, int i)
{
    if (a->npos > 1)
        return i < a->npos ? a->pos[i] : (TSNode){0};
    if (a->npos == 1) {
        TSNode s = al_py_unparen(a->pos[0]), e[64];
        if (al_node_is(s, "tuple") || al_node_is(s, "list")) {
            int n = al_py_elements(s, e, 64);
            return i >= 0 && i < n ? e[i] : (TSNode){0};
        }
        return i == 0 ? s : (TSNode){0};
    }
    return (TSNode){0};
}

int al_py_elements(TSNode seq, TSNode *out, int max)
{
    seq = al_py_unparen(seq);
    if (!al_node_is(seq, "list") && !al_node_is(seq, "tuple"))
        return -1;
    int n = 0;
    uint32_t k = ts_node_named_child_count(seq);
    for (uint32_t i = 0; i < k; i++) {
        TSNode c = ts_node_named_child(seq, i);
        if (al_node_is(c, "comment"))
            continue;
        if (n == max)
            return -1;
        out[n++] = c;
    }
    return n;
}

bool al_py_slice_parts(TSNode slice, TSNode parts[3])
{
    memset(parts, 0, 3 * sizeof *parts);
    int slot = 0;
    uint32_t k = ts_node_child_count(slice);
    for (uint32_t i = 0; i < k; i++) {
        TSNode c = ts_node_child(slice, i);
        if (!ts_node_is_named(c)) {
            if (strcmp(ts_node_type(c), ":") == 0)
                slot++;
            continue;
        }
        if (al_node_is(c, "comment"))
            continue;
        if (slot > 2)
            return false;
        parts[slot] = c;
    }
    return true;
}

size_t al_py_line_start(const al_pyfile *pf, size_t off)
{
    while (off > 0 && pf->src->bytes[off - 1] != '\n')
        off--;
    return off;
}

size_t al_py_next_line(const al_pyfile *pf, size_t off)
{
    while (off < pf->src->len && pf->src->bytes[off] != '\n')
        off++;
    return off < pf->src->len ? off + 1 : off;
}

char *al_py_indent_of(const al_pyfile *pf, TSNode n)
{
    size_t s = ts_node_start_byte(n), ls = al_py_line_start(pf, s);
    for (size_t i = ls; i < s; i++)
        if (pf->src->bytes[i] != ' ' && pf->src->bytes[i] != '\t')
            return NULL;
    return al_xstrndup(pf->src->bytes + ls, s - ls);
}

bool al_py_statement_lines(const al_pyfile *pf, TSNode stmt, size_t *start, size_t *end)
{
    char *ind = al_py_indent_of(pf, stmt);
    if (!ind)
        return false;
    free(ind);
    size_t e = ts_node_end_byte(stmt);
    size_t k = e;
    while (k < pf->src->len && (pf->src->bytes[k] == ' ' || pf->src->bytes[k] == '\t'))
        k++;
    if (k < pf->src->len && pf->src->bytes[k] != '\n' && pf->src->bytes[k] != '\r' &&
        pf->src->bytes[k] != '#')
        return false; /* `a; b` on one line */
    *start = al_py_line_start(pf, ts_node_start_byte(stmt));
    *end = al_py_next_line(pf, e);
    return true;
}

uint32_t al_py_next_statement(TSNode block, uint32_t i)
{
    uint32_t k = ts_node_named_child_count(block);
    for (uint32_t j = i + 1; j < k; j++)
        if (!al_node_is(ts_node_named_child(block, j), "comment"))
            return j;
    return k;
}

int al_py_named_statements(TSNode block)
{
    int n = 0;
    uint32_t k = ts_node_named_child_count(block);
    for (uint32_t i = 0; i < k; i++)
        if (!al_node_is(ts_node_named_child(block, i), "comment"))
            n++;
    return n;
}

TSNode al_py_name_assignment(TSNode stmt)
{
    if (!al_node_is(stmt, "expression_statement") || ts_node_named_child_count(stmt) != 1)
        return (TSNode){0};
    TSNode asg = ts_node_named_child(stmt, 0);
    if (!al_node_is(asg, "assignment") || !al_node_is(al_node_field(asg, "left"), "identifier"))
        return (TSNode){0};
    return asg;
}

TSNode al_py_statement_call(TSNode stmt)
{
    if (!al_node_is(stmt, "expression_statement") || ts_node_named_child_count(stmt) != 1)
        return (TSNode){0};
    TSNode e = ts_node_named_child(stmt, 0);
    return al_node_is(e, "call") ? e : (TSNode){0};
}

/* Visits the blocks under a function's body and the expression statements
 * of its own code (nested definitions are theirs), in document order, to
 * the depth guard of 200. One cursor: ts_node_named_child(n, i) walks the
 * children from the first, which made this quadratic in long bodies. */
static void walk(TSNode func, TSNode body, const al_py_walker *w)
{
    if (w->on_block && al_node_is(body, "block"))
        w->on_block(func, body, w->arg);
    TSTreeCursor c = ts_tree_cursor_new(body);
    unsigned depth = 0; /* of the cursor's node below body */
    bool more = ts_tree_cursor_goto_first_child(&c);
    if (more)
        depth = 1;
    while (more) {
        TSNode s = ts_tree_cursor_current_node(&c);
        bool descend = false;
        if (ts_node_is_named(s) && !al_node_is(s, "function_definition") &&
            !al_node_is(s, "class_definition") && !al_node_is(s, "decorated_definition")) {
            if (al_node_is(s, "expression_statement")) {
                if (w->on_statement)
                    w->on_statement(func, s, w->arg);
            } else if (depth <= 200) {
                if (w->on_block && al_node_is(s, "block"))
                    w->on_block(func, s, w->arg);
                descend = true;
            }
        }
        if (descend && ts_tree_cursor_goto_first_child(&c)) {
            depth++;
            continue;
        }
        while (!(more = ts_tree_cursor_goto_next_sibling(&c)) && depth > 1 &&
               ts_tree_cursor_goto_parent(&c))
            depth--;
    }
    ts_tree_cursor_delete(&c);
}

void al_py_walk_function(TSNode func, const al_py_walker *w)
{
    walk(func, al_node_field(func, "body"), w);
}

static int count_ident(const al_pyfile *pf, TSNode n, const char *name, int depth)
{
    if (depth > 200)
        return 1000;
    if (al_node_is(n, "identifier"))
        return al_node_text_eq(pf, n, name) ? 1 : 0;
    if (al_node_is(n, "attribute"))
        return count_ident(pf, al_node_field(n, "object"), name, depth + 1);
    if (al_node_is(n, "keyword_argument"))
        return count_ident(pf, al_node_field(n, "value"), name, depth + 1);
    int total = 0;
    uint32_t k = ts_node_named_child_count(n);
    for (uint32_t i = 0; i < k; i++)
        total += count_ident(pf, ts_node_named_child(n, i), name, depth + 1);
    return total;
}

int al_py_count_ident(const al_pyfile *pf, TSNode n, const char *name)
{
    return count_ident(pf, n, name, 0);
}

typedef struct {
    const al_pyfile *pf;
    const char *name;
    TSNode found;
} first_ident;

static al_visit find_first_ident(TSNode n, void *arg)
{
    first_ident *f = arg;
    if (!al_node_is(n, "identifier") || !al_node_text_eq(f->pf, n, f->name) ||
        al_py_ident_is_label(n))
        return AL_VISIT_INTO;
    f->found = n;
    return AL_VISIT_STOP;
}

TSNode al_py_first_ident(const al_pyfile *pf, TSNode n, const char *name)
{
    first_ident f = {.pf = pf, .name = name};
    al_node_preorder(n, find_first_ident, &f);
    return f.found;
}

bool al_py_ident_is_label(TSNode id)
{
    TSNode p = ts_node_parent(id);
    return (al_node_is(p, "attribute") && ts_node_eq(al_node_field(p, "attribute"), id)) ||
           (al_node_is(p, "keyword_argument") && ts_node_eq(al_node_field(p, "name"), id));
}

static void add_target(const al_pyfile *pf, TSNode t, al_strlist *out)
{
    if (ts_node_is_null(t) || al_node_is(t, "subscript") || al_node_is(t, "attribute"))
        return; /* x[i] = ..., x.a = ...: a store, not a binding */
    if (al_node_is(t, "identifier")) {
        char *s = al_node_text(pf, t);
        al_strlist_add(out, s);
        return;
    }
    uint32_t k = ts_node_named_child_count(t);
    for (uint32_t i = 0; i < k; i++) {
        TSNode c = ts_node_named_child(t, i);
        if (al_node_is(c, "identifier") || al_node_is(c, "pattern_list") ||
            al_node_is(c, "tuple_pattern") || al_node_is(c, "list_pattern") ||
            al_node_is(c, "list_splat_pattern") || al_node_is(c, "parenthesized_expression"))
            add_target(pf, c, out);
    }
}

static void bound_names(const al_pyfile *pf, TSNode n, al_strlist *out, int depth)
{
    if (depth > 200)
        return;
    const char *t = ts_node_type(n);
    if (!strcmp(t, "function_definition") || !strcmp(t, "class_definition") ||
        !strcmp(t, "lambda"))
        return;
    if (!strcmp(t, "assignment") || !strcmp(t, "augmented_assignment") ||
        !strcmp(t, "for_statement"))
        add_target(pf, al_node_field(n, "left"), out);
    if (!strcmp(t, "named_expression"))
        add_target(pf, al_node_field(n, "name"), out);
    if (!strcmp(t, "as_pattern_target"))
        add_target(pf, n, out);
    if (!strcmp(t, "except_clause"))
        add_target(pf, al_node_field(n, "alias"), out);
    uint32_t k = ts_node_named_child_count(n);
    for (uint32_t i = 0; i < k; i++)
        bound_names(pf, ts_node_named_child(n, i), out, depth + 1);
}

void al_py_bound_names(const al_pyfile *pf, TSNode n, al_strlist *out)
{
    bound_names(pf, n, out, 0);
}

void al_py_param_names(const al_pyfile *pf, TSNode def, al_strlist *out)
{
    TSNode params = al_node_field(def, "parameters");
    uint32_t k = ts_node_named_child_count(params);
    for (uint32_t i = 0; i < k; i++) {
        TSNode p = ts_node_named_child(params, i);
        if (al_node_is(p, "identifier")) {
            al_strlist_add(out, al_node_text(pf, p));
        } else if (al_node_is(p, "typed_parameter")) {
            TSNode id = ts_node_named_child(p, 0);
            if (al_node_is(id, "identifier"))
                al_strlist_add(out, al_node_text(pf, id));
            else
                al_strlist_add(out, al_xstrdup(al_node_is(id, "dictionary_splat_pattern") ? "**" : "*"));
        } else if (al_node_is(p, "default_parameter") || al_node_is(p, "typed_default_parameter")) {
            al_strlist_add(out, al_node_text(pf, al_node_field(p, "name")));
        } else if (al_node_is(p, "list_splat_pattern") || al_node_is(p, "keyword_separator")) {
            al_strlist_add(out, al_xstrdup("*"));
        } else if (al_node_is(p, "dictionary_splat_pattern")) {
            al_strlist_add(out, al_xstrdup("**"));
        }
    }
}

bool al_py_is_param(const al_pyfile *pf, TSNode def, const char *name)
{
    TSNode params = al_node_field(def, "parameters");
    uint32_t k = ts_node_named_child_count(params);
    for (uint32_t i = 0; i < k; i++) {
        TSNode id = ts_node_named_child(params, i);
        while (!ts_node_is_null(id) && !al_node_is(id, "identifier"))
            id = ts_node_named_child_count(id) ? ts_node_named_child(id, 0) : (TSNode){0};
        if (!ts_node_is_null(id) && al_node_text_eq(pf, id, name))
            return true;
    }
    return false;
}

bool al_py_param_annotated_tensor(const al_pyfile *pf, TSNode def, const char *name)
{
    static const char *const tensor_types[] = {
        "torch.Tensor",           "Tensor",           "Optional[torch.Tensor]",
        "Optional[Tensor]",       "torch.Tensor|None", "Tensor|None",
        "None|torch.Tensor",      "None|Tensor",      "typing.Optional[torch.Tensor]",
        NULL};
    TSNode params = al_node_field(def, "parameters");
    for (uint32_t i = 0; i < ts_node_named_child_count(params); i++) {
        TSNode p = ts_node_named_child(params, i);
        TSNode id = al_node_is(p, "typed_parameter")           ? ts_node_named_child(p, 0)
                    : al_node_is(p, "typed_default_parameter") ? al_node_field(p, "name")
                                                               : (TSNode){0};
        if (ts_node_is_null(id) || !al_node_is(id, "identifier") || !al_node_text_eq(pf, id, name))
            continue;
        TSNode type = al_node_field(p, "type");
        if (ts_node_is_null(type))
            return false;
        char *t = al_node_text(pf, type);
        size_t k = 0;
        for (size_t j = 0; t[j]; j++)
            if (t[j] != ' ' && t[j] != '\t' && t[j] != '\n' && t[j] != '\r')
                t[k++] = t[j];
        t[k] = 0;
        bool yes = al_str_in_list(tensor_types, t, k);
        free(t);
        return yes;
    }
    return false;
}

bool al_py_is_abstract_def(const al_pyfile *pf, TSNode def)
{
    TSNode dec = ts_node_parent(def);
    for (uint32_t k = 0; al_node_is(dec, "decorated_definition") && k < ts_node_named_child_count(dec); k++) {
        TSNode d = ts_node_named_child(dec, k);
        if (al_node_is(d, "decorator") && al_py_last_name_is(pf, ts_node_named_child(d, 0), "abstractmethod"))
            return true;
    }
    TSNode body = al_node_field(def, "body");
    for (uint32_t i = 0; i < ts_node_named_child_count(body); i++) {
        TSNode st = ts_node_named_child(body, i);
        if (al_node_is(st, "comment") || al_node_is(st, "pass_statement") || al_node_is(st, "raise_statement"))
            continue;
        if (al_node_is(st, "expression_statement") && ts_node_named_child_count(st) == 1 &&
            (al_node_is(ts_node_named_child(st, 0), "string") || al_node_is(ts_node_named_child(st, 0), "ellipsis")))
            continue;
        return false;
    }
    return true;
}

void al_node_preorder(TSNode root, al_visit (*visit)(TSNode n, void *arg), void *arg)
{
    TSTreeCursor c = ts_tree_cursor_new(root);
    for (;;) {
        al_visit next = visit(ts_tree_cursor_current_node(&c), arg);
        if (next == AL_VISIT_STOP)
            break;
        if (next == AL_VISIT_INTO && ts_tree_cursor_goto_first_child(&c))
            continue;
        bool more = true;
        while (more && !ts_tree_cursor_goto_next_sibling(&c))
            more = ts_tree_cursor_goto_parent(&c);
        if (!more)
            break;
    }
    ts_tree_cursor_delete(&c);
}

static bool has_jump(TSNode n, int depth)
{
    if (depth > 100)
        return true;
    const char *t = ts_node_type(n);
    if (!strcmp(t, "break_statement") || !strcmp(t, "continue_statement") ||
        !strcmp(t, "return_statement") || !strcmp(t, "yield"))
        return true;
    if (!strcmp(t, "function_definition") || !strcmp(t, "class_definition") ||
        !strcmp(t, "lambda"))
        return false;
    uint32_t k = ts_node_named_child_count(n);
    for (uint32_t i = 0; i < k; i++)
        if (has_jump(ts_node_named_child(n, i), depth + 1))
            return true;
    return false;
}

bool al_py_has_jump(TSNode body)
{
    return has_jump(body, 0);
}

bool al_py_names_class(const al_pyfile *pf, TSNode n)
{
    if (al_node_is(n, "attribute"))
        n = al_node_field(n, "attribute");
    if (!al_node_is(n, "identifier"))
        return false;
    size_t len;
    const char *s = al_node_ptr(pf, n, &len);
    return len && s[0] >= 'A' && s[0] <= 'Z';
}

TSNode al_py_enclosing_class(TSNode n)
{
    for (TSNode p = ts_node_parent(n); !ts_node_is_null(p); p = ts_node_parent(p))
        if (al_node_is(p, "class_definition"))
            return p;
    return (TSNode){0};
}

bool al_py_call_reads_locals(const al_pyfile *pf, TSNode call)
{
    TSNode fn = al_node_field(call, "function");
    if (!al_node_is(fn, "identifier"))
        return false;
    if (al_node_text_eq(pf, fn, "vars"))
        return ts_node_named_child_count(al_node_field(call, "arguments")) == 0;
    return al_node_text_eq(pf, fn, "eval") || al_node_text_eq(pf, fn, "exec") ||
           al_node_text_eq(pf, fn, "locals");
}

static bool reads_locals(const al_pyfile *pf, TSNode n, int depth)
{
    if (depth > 400)
        return true;
    if (al_node_is(n, "call") && al_py_call_reads_locals(pf, n))
        return true;
    uint32_t k = ts_node_named_child_count(n);
    for (uint32_t i = 0; i < k; i++)
        if (reads_locals(pf, ts_node_named_child(n, i), depth + 1))
            return true;
    return false;
}

bool al_py_reads_locals(const al_pyfile *pf, TSNode n)
{
    return reads_locals(pf, n, 0);
}

bool al_py_decorators_transparent(const al_pyfile *pf, TSNode def)
{
    static const char *const known[] = {
        "staticmethod", "classmethod", "abstractmethod", "abc.abstractmethod", "override",
        "typing.override", "typing_extensions.override", "final", "typing.final",
        "torch.no_grad", "no_grad", "torch.inference_mode", "inference_mode",
        "torch.enable_grad", "torch.compile", "torch.jit.script", "torch.jit.ignore",
        "torch.jit.unused", "torch.compiler.disable", "torch._dynamo.disable",
        /* a custom op's implementation, which the op calls as written */
        "torch.library.impl", "torch.library.custom_op", "torch.library.register_kernel",
        "custom_op", NULL};
    TSNode parent = ts_node_parent(def);
    if (!al_node_is(parent, "decorated_definition"))
        return true;
    for (uint32_t i = 0; i < ts_node_named_child_count(parent); i++) {
        TSNode d = ts_node_named_child(parent, i);
        if (!al_node_is(d, "decorator"))
            continue;
        TSNode e = ts_node_named_child(d, 0);
        if (al_node_is(e, "call"))
            e = al_node_field(e, "function");
        bool ok = false;
        for (int k = 0; known[k] && !ok; k++)
            ok = al_node_text_eq(pf, e, known[k]);
        if (!ok)
            return false;
    }
    return true;
}

bool al_py_is_receiver(const al_pyfile *pf, TSNode n)
{
    return al_node_text_eq(pf, n, "self") || al_node_text_eq(pf, n, "cls");
}
