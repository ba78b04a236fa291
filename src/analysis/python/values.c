#include "values.h"

#include "../../base/util.h"

#include <stdlib.h>
#include <string.h>

#define MAX_DEPTH 8

TSNode al_enclosing_function(TSNode n)
{
    for (TSNode p = ts_node_parent(n); !ts_node_is_null(p); p = ts_node_parent(p))
        if (al_node_is(p, "function_definition"))
            return p;
    return (TSNode){0};
}

typedef struct {
    const al_pyfile *pf;
    TSNode func;
    uint32_t before; /* only bindings that start before this byte count */
    int depth;
} ctx;

/* The bindings of `name` anywhere in the function (a loop can carry a
 * later one back): how many, and the last value with, for `a, name = v`,
 * its position (else -1). Only a single plain assignment before the use
 * is substituted. */
typedef struct {
    int count;
    TSNode value;
    int position;
    int arity; /* how many names the unpacking binds */
} binding;

static void find_bindings(const ctx *c, TSNode n, const char *name, binding *b, int depth)
{
    if (depth > 200 || b->count > 1)
        return;
    const char *t = ts_node_type(n);
    if (depth > 0 && (!strcmp(t, "function_definition") || !strcmp(t, "class_definition") ||
                      !strcmp(t, "lambda")))
        return;
    if (!strcmp(t, "assignment") || !strcmp(t, "augmented_assignment")) {
        TSNode left = al_node_field(n, "left");
        bool aug = !strcmp(t, "augmented_assignment");
        if (al_node_is(left, "identifier") && al_node_text_eq(c->pf, left, name)) {
            b->count += aug ? 2 : 1;
            b->value = al_node_field(n, "right");
            b->position = -1;
        } else if (al_node_is(left, "pattern_list") || al_node_is(left, "tuple_pattern")) {
            uint32_t k = ts_node_named_child_count(left);
            for (uint32_t i = 0; i < k; i++) {
                TSNode e = ts_node_named_child(left, i);
                if (al_node_is(e, "identifier") && al_node_text_eq(c->pf, e, name)) {
                    b->count++;
                    b->value = al_node_field(n, "right");
                    b->position = (int)i;
                    b->arity = (int)k;
                } else if (!al_node_is(e, "identifier") &&
                           al_py_count_ident(c->pf, e, name) > 0) {
                    b->count = 2; /* a starred or nested target */
                }
            }
        }
    } else if (!strcmp(t, "for_statement") || !strcmp(t, "named_expression") ||
               !strcmp(t, "as_pattern_target") || !strcmp(t, "except_clause")) {
        TSNode target = !strcmp(t, "for_statement")      ? al_node_field(n, "left")
                        : !strcmp(t, "named_expression") ? al_node_field(n, "name")
                        : !strcmp(t, "except_clause")    ? al_node_field(n, "alias")
                                                         : n;
        if (!ts_node_is_null(target) && al_py_count_ident(c->pf, target, name) > 0)
            b->count = 2;
    }
    uint32_t k = ts_node_named_child_count(n);
    for (uint32_t i = 0; i < k; i++)
        find_bindings(c, ts_node_named_child(n, i), name, b, depth + 1);
}

TSNode al_value_single_binding(const al_pyfile *pf, TSNode func, TSNode at, TSNode name)
{
    if (ts_node_is_null(func) || !al_node_is(name, "identifier"))
        return (TSNode){0};
    ctx c = {pf, func, ts_node_start_byte(at), 0};
    char *text = al_node_text(pf, name);
    binding b = {.count = 0, .position = -1};
    if (al_py_count_ident(pf, al_node_field(func, "parameters"), text) > 0)
        b.count++;
    find_bindings(&c, al_node_field(func, "body"), text, &b, 0);
    free(text);
    if (b.count != 1 || b.position >= 0 || ts_node_is_null(b.value) ||
        ts_node_start_byte(b.value) >= c.before)
        return (TSNode){0};
    return b.value;
}

static void text_of(const ctx *c, TSNode n, al_strbuf *out);
static void object_text(const ctx *c, TSNode n, al_strbuf *out);

/* `x.size(i)` -> `x.shape[i]`, `x.size()` -> `x.shape`, `x.nelement()` ->
 * `x.numel()`; NULL when the call is none of these. */
static bool size_call(const ctx *c, TSNode call, al_strbuf *out)
{
    TSNode fn = al_node_field(call, "function");
    if (!al_node_is(fn, "attribute"))
        return false;
    al_py_args a;
    al_py_args_read(call, &a);
    TSNode obj = al_node_field(fn, "object");
    if (al_py_last_name_is(c->pf, fn, "size") && a.nkw == 0 && !a.splat && a.npos <= 1) {
        object_text(c, obj, out);
        al_strbuf_puts(out, ".shape");
        if (a.npos == 1) {
            al_strbuf_putc(out, '[');
            text_of(c, a.pos[0], out);
            al_strbuf_putc(out, ']');
        }
        return true;
    }
    if ((al_py_last_name_is(c->pf, fn, "numel") || al_py_last_name_is(c->pf, fn, "nelement")) &&
        a.npos == 0 && a.nkw == 0) {
        object_text(c, obj, out);
        al_strbuf_puts(out, ".numel()");
        return true;
    }
    return false;
}

/* object: n is what an attribute, a subscript or a size call is taken
 * of. There a name bound to a call stays a name: `out.numel()` with `out =
 * torch.zeros(n)` is the buffer's own count, not the text of a new call. */
static void identifier_text(const ctx *c, TSNode n, bool object, al_strbuf *out)
{
    char *name = al_node_text(c->pf, n);
    binding b = {.count = 0, .position = -1};
    if (!ts_node_is_null(c->func) && c->depth < MAX_DEPTH) {
        /* A parameter is a binding too: `def f(n): if k: n = 4` leaves n open. */
        if (al_py_count_ident(c->pf, al_node_field(c->func, "parameters"), name) > 0)
            b.count++;
        find_bindings(c, al_node_field(c->func, "body"), name, &b, 0);
    }
    if (b.count == 1 && !ts_node_is_null(b.value) && ts_node_start_byte(b.value) < c->before &&
        !(object && al_node_is(al_py_unparen(b.value), "call"))) {
        ctx inner = *c;
        inner.depth++;
        inner.before = ts_node_start_byte(b.value);
        TSNode v = al_py_unparen(b.value);
        if (b.position < 0) {
            text_of(&inner, v, out);
        } else if ((al_node_is(v, "tuple") || al_node_is(v, "expression_list")) &&
                   (uint32_t)b.position < ts_node_named_child_count(v)) {
            text_of(&inner, ts_node_named_child(v, (uint32_t)b.position), out);
        } else {
            /* `M, N = x.shape` also says that x has two dimensions. */
            al_strbuf sb = {0};
            al_strbuf_puts(&sb, "");
            text_of(&inner, v, &sb);
            if (al_str_ends_with(sb.data, ".shape"))
                al_strbuf_printf(out, "%s[%dof%d]", sb.data, b.position, b.arity);
            else
                al_strbuf_printf(out, "%s[%d]", sb.data, b.position);
            al_strbuf_free(&sb);
        }
    } else {
        al_strbuf_puts(out, name);
    }
    free(name);
}

static void text_of(const ctx *c, TSNode n, al_strbuf *out)
{
    n = al_py_unparen(n);
    const char *t = ts_node_type(n);
    if (!strcmp(t, "identifier")) {
        identifier_text(c, n, false, out);
    } else if (!strcmp(t, "attribute")) {
        object_text(c, al_node_field(n, "object"), out);
        al_strbuf_putc(out, '.');
        char *a = al_node_text(c->pf, al_node_field(n, "attribute"));
        al_strbuf_puts(out, a);
        free(a);
    } else if (!strcmp(t, "subscript")) {
        object_text(c, al_node_field(n, "value"), out);
        TSNode subs[4];
        size_t k = al_node_field_children(n, "subscript", subs, 4);
        al_strbuf_putc(out, '[');
        for (size_t i = 0; i < k && i < 4; i++) {
            if (i)
                al_strbuf_putc(out, ',');
            text_of(c, subs[i], out);
        }
        al_strbuf_putc(out, ']');
    } else if (!strcmp(t, "call") && size_call(c, n, out)) {
        /* spelled by size_call */
    } else if (!strcmp(t, "binary_operator")) {
        TSNode l = al_py_unparen(al_node_field(n, "left")), r = al_py_unparen(al_node_field(n, "right"));
        bool lp = al_node_is(l, "binary_operator"), rp = al_node_is(r, "binary_operator");
        if (lp)
            al_strbuf_putc(out, '(');
        text_of(c, l, out);
        if (lp)
            al_strbuf_putc(out, ')');
        char *op = al_node_text(c->pf, al_node_field(n, "operator"));
        al_strbuf_puts(out, op);
        free(op);
        if (rp)
            al_strbuf_putc(out, '(');
        text_of(c, r, out);
        if (rp)
            al_strbuf_putc(out, ')');
    } else {
        char *s = al_node_text_compact(c->pf, n);
        al_strbuf_puts(out, s);
        free(s);
    }
}

static void object_text(const ctx *c, TSNode n, al_strbuf *out)
{
    n = al_py_unparen(n);
    if (al_node_is(n, "identifier"))
        identifier_text(c, n, true, out);
    else
        text_of(c, n, out);
}

char *al_value_text(const al_pyfile *pf, TSNode func, TSNode at, TSNode expr)
{
    ctx c = {pf, func, ts_node_start_byte(at), 0};
    al_strbuf sb = {0};
    al_strbuf_puts(&sb, "");
    text_of(&c, expr, &sb);
    return al_strbuf_detach(&sb);
}

/* Whether statement s binds name, and how: 0 not at all, 1 by exactly one
 * plain `name = value` that is the statement itself (*value set), 2 any
 * other way (unpacking, a loop, `with`, a definition or import of it, a
 * walrus, two bindings inside a compound statement). */
static int statement_binds(const al_pyfile *pf, TSNode s, const char *name, TSNode *value)
{
    if (al_node_is(s, "comment"))
        return 0;
    if (al_node_is(s, "function_definition") || al_node_is(s, "class_definition") ||
        al_node_is(s, "decorated_definition") || al_node_is(s, "import_statement") ||
        al_node_is(s, "import_from_statement") || al_node_is(s, "global_statement") ||
        al_node_is(s, "nonlocal_statement") || al_node_is(s, "delete_statement"))
        return al_py_count_ident(pf, s, name) > 0 ? 2 : 0;
    ctx c = {.pf = pf, .before = UINT32_MAX, .depth = 0};
    binding b = {.count = 0, .position = -1};
    find_bindings(&c, s, name, &b, 1);
    if (b.count == 0)
        return 0;
    TSNode asg = al_py_name_assignment(s);
    if (b.count == 1 && b.position < 0 && !ts_node_is_null(asg) &&
        al_node_text_eq(pf, al_node_field(asg, "left"), name) &&
        al_py_node_eq(b.value, al_node_field(asg, "right"))) {
        *value = b.value;
        return 1;
    }
    return 2;
}

/* Whether a compound statement around a use can bind name on a path to
 * it other than through the statements before the use: an `if` or `with`
 * by its header only (the branches are exclusive, and what its block
 * binds after the use does not reach it); any other (a loop carries its
 * body back, a try's body reaches its handlers) anywhere. */
static bool owner_binds(const al_pyfile *pf, TSNode owner, const char *name)
{
    TSNode ignored;
    if (al_node_is(owner, "with_statement"))
        return statement_binds(pf, ts_node_named_child(owner, 0), name, &ignored) != 0;
    if (!al_node_is(owner, "if_statement"))
        return statement_binds(pf, owner, name, &ignored) != 0;
    if (statement_binds(pf, al_node_field(owner, "condition"), name, &ignored) != 0)
        return true;
    uint32_t k = ts_node_named_child_count(owner);
    for (uint32_t i = 0; i < k; i++) {
        TSNode c = ts_node_named_child(owner, i);
        if (al_node_is(c, "elif_clause") &&
            statement_binds(pf, al_node_field(c, "condition"), name, &ignored) != 0)
            return true;
    }
    return false;
}

TSNode al_value_reaching_binding(const al_pyfile *pf, TSNode func, TSNode stmt, TSNode name)
{
    if (ts_node_is_null(func) || ts_node_is_null(stmt) || !al_node_is(name, "identifier"))
        return (TSNode){0};
    char *text = al_node_text(pf, name);
    TSNode found = {0};
    TSNode cur = stmt;
    for (int up = 0; up < 64; up++) {
        TSNode block = ts_node_parent(cur);
        if (ts_node_is_null(block))
            break;
        bool decided = false;
        for (TSNode s = ts_node_prev_named_sibling(cur); !ts_node_is_null(s);
             s = ts_node_prev_named_sibling(s)) {
            TSNode value = {0};
            int how = statement_binds(pf, s, text, &value);
            if (how == 0)
                continue;
            if (how == 1)
                found = value;
            decided = true;
            break;
        }
        if (decided)
            break;
        /* Not bound before cur in its block: the binding, if any, is
         * before the compound statement holding the block. That statement
         * must bind the name nowhere (a loop may carry a later binding
         * back; another branch or a `with ... as` would need paths). */
        TSNode owner = ts_node_parent(block);
        while (!ts_node_is_null(owner) && !ts_node_eq(owner, func) &&
               !al_node_is(ts_node_parent(owner), "block") &&
               !al_node_is(ts_node_parent(owner), "module"))
            owner = ts_node_parent(owner); /* an else or except clause, up to its statement */
        if (ts_node_is_null(owner) || ts_node_eq(owner, func) ||
            !al_node_is(block, "block"))
            break; /* reached the function: a parameter or unbound */
        if (owner_binds(pf, owner, text))
            break;
        cur = owner;
    }
    free(text);
    return found;
}

/* Methods that return their receiver's shape. */
static const char *const SAME_SHAPE_METHODS[] = {"contiguous", "to", "float", "half", "bfloat16",
                                                 "clone", "detach", "type_as", NULL};

/* The tensor a value keeps the rows of, or a null node. */
static TSNode rows_from(const al_pyfile *pf, TSNode value)
{
    value = al_py_unparen(value);
    if (!al_node_is(value, "call"))
        return (TSNode){0};
    TSNode fn = al_node_field(value, "function");
    al_py_args a;
    al_py_args_read(value, &a);
    if (al_node_is(fn, "attribute")) {
        for (size_t i = 0; SAME_SHAPE_METHODS[i]; i++)
            if (al_py_last_name_is(pf, fn, SAME_SHAPE_METHODS[i]) &&
                !al_py_last_name_is(pf, al_node_field(fn, "object"), "torch"))
                return al_node_field(fn, "object");
    }
    if (!al_py_last_name_is(pf, fn, "cat") && !al_py_last_name_is(pf, fn, "concat"))
        return (TSNode){0};
    /* torch.cat(seq, dim=D) with D a literal other than 0: rows kept. */
    TSNode dim = a.npos > 1 ? a.pos[1] : al_py_kwarg(pf, &a, "dim");
    if (a.npos < 1 || ts_node_is_null(dim))
        return (TSNode){0};
    char *d = al_node_text_compact(pf, dim);
    bool keeps = strcmp(d, "0") && (strspn(d, "0123456789") == strlen(d) || !strcmp(d, "-1"));
    free(d);
    TSNode items[16];
    TSNode seq = al_py_unparen(a.pos[0]);
    if (!keeps || al_py_elements(seq, items, 16) < 1 || al_node_is(items[0], "list_splat"))
        return (TSNode){0};
    return items[0];
}

size_t al_value_same_rows(const al_pyfile *pf, TSNode func, TSNode at, TSNode expr, char **out,
                          size_t max)
{
    size_t n = 0;
    TSNode cur = al_py_unparen(expr);
    for (int depth = 0; n < max && !ts_node_is_null(cur) && depth < 8; depth++) {
        out[n++] = al_value_text(pf, func, at, cur);
        TSNode next = rows_from(pf, cur);
        if (ts_node_is_null(next) && al_node_is(cur, "identifier")) {
            TSNode value = al_value_single_binding(pf, func, at, cur);
            if (!ts_node_is_null(value))
                next = rows_from(pf, value);
        }
        cur = ts_node_is_null(next) ? next : al_py_unparen(next);
    }
    return n;
}

bool al_value_text_same(const char *a, const char *b)
{
    while (*a && *b) {
        if (a[0] == 'o' && a[1] == 'f' && b[0] == ']') {
            a += 2 + strspn(a + 2, "0123456789");
            continue;
        }
        if (b[0] == 'o' && b[1] == 'f' && a[0] == ']') {
            b += 2 + strspn(b + 2, "0123456789");
            continue;
        }
        if (*a++ != *b++)
            return false;
    }
    return *a == *b;
}

bool al_value_rows_match(const al_pyfile *pf, TSNode func, TSNode at, TSNode expr, int dim,
                         const char *const *mine, size_t n_mine)
{
    if (ts_node_is_null(expr))
        return false;
    char *rows[8];
    size_t nr = dim == 0 ? al_value_same_rows(pf, func, at, expr, rows, 8) : 0;
    if (dim != 0)
        rows[nr++] = al_value_text(pf, func, at, expr);
    bool same = false;
    for (size_t i = 0; i < nr; i++) {
        al_strbuf want = {0};
        al_strbuf_printf(&want, "%s.shape[%d]", rows[i], dim);
        for (size_t k = 0; k < n_mine; k++)
            same |= mine[k] && al_value_text_same(mine[k], want.data);
        al_strbuf_free(&want);
        free(rows[i]);
    }
    return same;
}

bool al_value_is_first_dim_of(const char *t, const char *x, size_t xlen)
{
    char want[2][600];
    snprintf(want[0], sizeof want[0], "%.*s.shape[0]", (int)xlen, x);
    snprintf(want[1], sizeof want[1], "len(%.*s)", (int)xlen, x);
    return al_value_text_same(t, want[0]) || al_value_text_same(t, want[1]);
}
