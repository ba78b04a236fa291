/* AL205 list-then-stack: a loop appends one tensor per iteration to a
 * list that torch.stack (or torch.cat) copies after the loop. Until the
 * copy the list holds every element alive, so the peak is twice the
 * result; preallocating the result and writing each slice in place halves
 * it (GPU evidence: kernels/results/peak_memory.md). */
#include "rules.h"

#include "../analysis/python/alloc.h"
#include "../analysis/python/lifetime.h"
#include "../analysis/python/values.h"
#include "../base/util.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The shape a per-iteration factory makes, proved loop-invariant: `t =
 * torch.empty(a, b, dtype=..., device=...)` (zeros, ones, full, or a
 * tuple of sizes), bound once in the loop, its value never rebound. */
typedef struct {
    TSNode stmt, call;
    const char *factory;
} element;

/* An element read out of a tensor instead: `w[i][perm]`, `w[:, i].t()`,
 * its shape and dtype the same on every iteration, made by the loop's one
 * statement before the append, or in the append itself. */
typedef struct {
    TSNode expr;  /* what is appended */
    TSNode named; /* `row = expr` before the append, or a null node */
    char *row;    /* the element's name in the fix */
    char *why;    /* what proved the tensor it is read out of */
    bool unnamed; /* `row` and `elem` are both taken: no name for the fix */
} gathered;

typedef struct {
    TSNode list_stmt, loop, append_stmt, stack_call;
    char *list, *index, *count;
    bool cat;
    const char *no_fix; /* why there is no fix, or NULL */
    element el;
    gathered g;
} liststack;

/* `name = []` as a whole statement: the name node, else a null node. */
static TSNode empty_list(TSNode stmt)
{
    TSNode asg = al_py_name_assignment(stmt);
    if (ts_node_is_null(asg))
        return asg;
    TSNode r = al_py_unparen(al_node_field(asg, "right"));
    if (!al_node_is(r, "list") || ts_node_named_child_count(r) != 0)
        return (TSNode){0};
    return al_node_field(asg, "left");
}

/* `lst.append(e)` as a whole statement: e, else a null node. */
static TSNode append_of(const al_pyfile *pf, TSNode stmt, const char *list)
{
    TSNode call = al_py_statement_call(stmt);
    if (ts_node_is_null(call))
        return call;
    TSNode fn = al_node_field(call, "function");
    al_py_args a;
    al_py_args_read(call, &a);
    if (!al_node_is(fn, "attribute") || !al_py_last_name_is(pf, fn, "append") ||
        !al_node_text_eq(pf, al_node_field(fn, "object"), list) || a.npos != 1 || a.nkw || a.splat)
        return (TSNode){0};
    return a.pos[0];
}

/* `for i in range(n)` with i a plain name: i and n, else false. */
static bool counted_loop(const al_pyfile *pf, TSNode loop, char **index, char **count)
{
    if (!al_node_is(loop, "for_statement"))
        return false;
    TSNode left = al_node_field(loop, "left"), right = al_node_field(loop, "right");
    if (!al_node_is(left, "identifier") || !al_node_is(right, "call") ||
        !al_node_text_eq(pf, al_node_field(right, "function"), "range"))
        return false;
    al_py_args a;
    al_py_args_read(right, &a);
    if (a.npos != 1 || a.nkw || a.splat)
        return false;
    *index = al_node_text(pf, left);
    *count = al_node_text(pf, a.pos[0]);
    return true;
}

/* n of a loop `for i in range(n)`. */
static TSNode loop_count(TSNode loop)
{
    al_py_args a;
    al_py_args_read(al_node_field(loop, "right"), &a);
    return a.pos[0];
}

/* Whether the loop's count gives the same value when the fix evaluates it
 * again (before the loop, or in its first pass): names, attributes,
 * numbers, arithmetic, `len(...)`, `.size()`, `.numel()` of such, no
 * other call, and nothing the loop binds (its element's name may be one). */
static bool count_evaluable_again(const al_pyfile *pf, TSNode n, const al_strlist *bound, int depth)
{
    n = al_py_unparen(n);
    if (depth > 20 || ts_node_is_null(n))
        return false;
    if (al_node_is(n, "binary_operator"))
        return count_evaluable_again(pf, al_node_field(n, "left"), bound, depth + 1) &&
               count_evaluable_again(pf, al_node_field(n, "right"), bound, depth + 1);
    if (al_node_is(n, "unary_operator"))
        return count_evaluable_again(pf, al_node_field(n, "argument"), bound, depth + 1);
    if (al_node_is(n, "call") && al_node_text_eq(pf, al_node_field(n, "function"), "len")) {
        al_py_args l;
        al_py_args_read(n, &l);
        return l.npos == 1 && !l.nkw && !l.splat && count_evaluable_again(pf, l.pos[0], bound, depth + 1);
    }
    return al_loop_invariant(pf, n, bound);
}

/* The element appended, when it is a constant-filled factory made once per
 * iteration with loop-invariant sizes, dtype and device, bound once in the
 * loop, used otherwise only to be written: its statement and call. */
static bool invariant_element(const al_pymodule *m, TSNode loop, const al_strlist *bound, TSNode e,
                              element *out)
{
    const al_pyfile *pf = m->pf;
    if (!al_node_is(e, "identifier"))
        return false;
    char *name = al_node_text(pf, e);
    bool ok = al_strlist_count(bound, name) == 1;
    TSNode body = al_node_field(loop, "body");
    for (uint32_t i = 0; ok && i < ts_node_named_child_count(body); i++) {
        TSNode st = ts_node_named_child(body, i);
        TSNode target;
        const char *factory;
        TSNode call = al_factory_statement(pf, &m->imports, st, &target, &factory);
        if (ts_node_is_null(call) || !al_node_text_eq(pf, target, name))
            continue;
        al_py_args a;
        al_py_args_read(call, &a);
        int rank;
        char *sizes = al_py_size_tuple(pf, &a, &rank);
        free(sizes);
        if ((strcmp(factory, "empty") && strcmp(factory, "zeros") && strcmp(factory, "ones")) ||
            rank < 1 || !al_loop_invariant(pf, al_node_field(call, "arguments"), bound))
            break;
        out->stmt = st;
        out->call = call;
        out->factory = factory;
    }
    /* Made before it is appended; the slice must not be written after the
     * loop where the list's copy would not see it. */
    if (ok && !ts_node_is_null(out->call) &&
        ts_node_start_byte(out->stmt) > ts_node_start_byte(e))
        ok = false;
    for (TSNode s = ts_node_next_named_sibling(loop); ok && !ts_node_is_null(s);
         s = ts_node_next_named_sibling(s))
        ok = al_py_count_ident(pf, s, name) == 0;
    free(name);
    return ok && !ts_node_is_null(out->call);
}

/* Methods whose result takes its shape and dtype from the tensor's and
 * the arguments' alone, and that write nothing. */
static const char *const shape_methods[] = {
    "t", "float", "half", "bfloat16", "double", "contiguous", "clone", "detach", "transpose",
    "permute", "reshape", "view", "flatten", "unsqueeze", "squeeze", "to", "abs", "neg", "exp",
    "sqrt", "sigmoid", "relu", NULL};

/* Torch functions that make a tensor whose shape and dtype follow from
 * their arguments alone. */
static const char *const factories[] = {
    "torch.empty", "torch.zeros", "torch.ones", "torch.full", "torch.arange", "torch.eye",
    "torch.linspace", "torch.rand", "torch.randn", NULL};

/* Torch functions whose result takes its shape and dtype from its
 * arguments' alone, and that write nothing (no out= is read: a call
 * passing one is not an element of its own). */
static const char *const shape_functions[] = {
    "torch.exp", "torch.log", "torch.sigmoid", "torch.tanh", "torch.relu", "torch.abs",
    "torch.sqrt", "torch.rsqrt", "torch.neg", "torch.matmul", "torch.mm", "torch.bmm",
    "torch.mul", "torch.add", "torch.sub", "torch.div", "torch.nn.functional.linear",
    "torch.nn.functional.silu", "torch.nn.functional.relu", "torch.nn.functional.gelu",
    "torch.nn.functional.softmax", NULL};

/* Appends one reason to *why, "; " between. */
static void add_why(char **why, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void add_why(char **why, const char *fmt, ...)
{
    al_strbuf b = {0};
    if (*why)
        al_strbuf_printf(&b, "%s; ", *why);
    va_list ap;
    va_start(ap, fmt);
    char one[400];
    vsnprintf(one, sizeof one, fmt, ap);
    va_end(ap);
    al_strbuf_puts(&b, one);
    free(*why);
    *why = al_strbuf_detach(&b);
}

/* The same value on every iteration: it names nothing the loop binds. */
static bool invariant_value(const al_pyfile *pf, TSNode e, const al_strlist *bound, const char *index)
{
    return al_py_count_ident(pf, e, index) == 0 && al_loop_invariant(pf, e, bound);
}

/* A subscript's part that gives the same shape on every iteration: the
 * loop's index alone (an int from range picks one element of a
 * dimension), or anything the loop does not change. */
static bool invariant_subscript(const al_pyfile *pf, TSNode s, const al_strlist *bound,
                                const char *index)
{
    if (al_node_is(s, "identifier") && al_node_text_eq(pf, s, index))
        return true;
    return al_py_count_ident(pf, s, index) == 0 && al_loop_invariant(pf, s, bound);
}

/* Whether e is a tensor whose shape and dtype are the same on every
 * iteration of the loop: a parameter annotated a tensor, or a name bound
 * once (outside the loop) to a torch factory, that the loop does not bind;
 * indexed by invariant subscripts; through shape_methods with invariant
 * arguments. Nothing it calls writes. */
static bool invariant_tensor(const al_pymodule *m, TSNode func, TSNode loop, TSNode e,
                             const al_strlist *bound, const char *index, int depth, char **why)
{
    const al_pyfile *pf = m->pf;
    e = al_py_unparen(e);
    if (depth > 8 || ts_node_is_null(e))
        return false;
    if (al_node_is(e, "identifier")) {
        char *name = al_node_text(pf, e);
        bool ok = al_strlist_count(bound, name) == 0 && strcmp(name, index) &&
                  !ts_node_is_null(func);
        if (ok && al_py_param_annotated_tensor(pf, func, name)) {
            /* Bound again, it may hold anything. */
            al_strlist in_body = {0};
            al_py_bound_names(pf, al_node_field(func, "body"), &in_body);
            ok = al_strlist_count(&in_body, name) == 0;
            al_strlist_free(&in_body);
            if (ok)
                add_why(why, "`%s` is a parameter annotated a tensor, not bound again", name);
        } else if (ok) {
            TSNode v = al_value_single_binding(pf, func, loop, e);
            TSNode asg = ts_node_is_null(v) ? v : ts_node_parent(v);
            TSNode st = ts_node_is_null(asg) ? asg : ts_node_parent(asg), target;
            const char *factory;
            ok = !ts_node_is_null(st) &&
                 (!ts_node_is_null(al_factory_statement(pf, &m->imports, st, &target, &factory)) ||
                  invariant_tensor(m, func, loop, v, bound, index, depth + 1, why));
            if (ok) {
                char *shown = al_node_text(pf, v);
                add_why(why, "`%s` is bound once, on line %zu, to `%.60s%s`", name,
                        al_node_row(v), shown, strlen(shown) > 60 ? "..." : "");
                free(shown);
            }
        }
        free(name);
        return ok;
    }
    if (al_node_is(e, "subscript")) {
        if (!invariant_tensor(m, func, loop, al_node_field(e, "value"), bound, index, depth + 1, why))
            return false;
        uint32_t n = ts_node_named_child_count(e);
        for (uint32_t i = 1; i < n; i++) {
            TSNode s = ts_node_named_child(e, i);
            if (al_node_is(s, "comment"))
                continue;
            if (al_node_is(s, "tuple") || al_node_is(s, "expression_list")) {
                for (uint32_t k = 0; k < ts_node_named_child_count(s); k++)
                    if (!invariant_subscript(pf, ts_node_named_child(s, k), bound, index))
                        return false;
            } else if (!invariant_subscript(pf, s, bound, index)) {
                return false;
            }
        }
        return true;
    }
    if (al_node_is(e, "attribute"))
        return (al_py_last_name_is(pf, e, "T") || al_py_last_name_is(pf, e, "mT")) &&
               invariant_tensor(m, func, loop, al_node_field(e, "object"), bound, index, depth + 1, why);
    if (al_node_is(e, "unary_operator"))
        return invariant_tensor(m, func, loop, al_node_field(e, "argument"), bound, index, depth + 1,
                                why);
    if (al_node_is(e, "binary_operator")) {
        /* Broadcasting and type promotion give the same result for the
         * same operands' shapes and dtypes: one an invariant tensor, the
         * other one too or the same value on every iteration. */
        TSNode op = al_node_field(e, "operator");
        if (!al_node_is(op, "+") && !al_node_is(op, "-") && !al_node_is(op, "*") &&
            !al_node_is(op, "/") && !al_node_is(op, "@"))
            return false;
        TSNode l = al_node_field(e, "left"), r = al_node_field(e, "right");
        if (invariant_value(pf, r, bound, index))
            return invariant_tensor(m, func, loop, l, bound, index, depth + 1, why);
        if (invariant_value(pf, l, bound, index))
            return invariant_tensor(m, func, loop, r, bound, index, depth + 1, why);
        return invariant_tensor(m, func, loop, l, bound, index, depth + 1, why) &&
               invariant_tensor(m, func, loop, r, bound, index, depth + 1, why);
    }
    if (!al_node_is(e, "call"))
        return false;
    TSNode fn = al_node_field(e, "function");
    TSNode args = al_node_field(e, "arguments");
    char *q = al_pymodule_resolve(m, fn);
    bool made = q && al_str_in_list(factories, q, strlen(q)),
         op = q && al_str_in_list(shape_functions, q, strlen(q));
    free(q);
    if (made)
        return invariant_value(pf, args, bound, index);
    if (op) {
        /* Its first argument an invariant tensor, the rest invariant. */
        al_py_args a;
        al_py_args_read(e, &a);
        if (a.npos < 1 || a.splat ||
            !invariant_tensor(m, func, loop, a.pos[0], bound, index, depth + 1, why))
            return false;
        for (int i = 1; i < a.npos; i++)
            if (!invariant_tensor(m, func, loop, a.pos[i], bound, index, depth + 1, why) &&
                !invariant_value(pf, a.pos[i], bound, index))
                return false;
        for (int i = 0; i < a.nkw; i++)
            if (al_node_text_eq(pf, al_node_field(a.kw[i], "name"), "out") ||
                !invariant_value(pf, al_node_field(a.kw[i], "value"), bound, index))
                return false;
        return true;
    }
    if (!al_node_is(fn, "attribute"))
        return false;
    char *meth = al_node_text(pf, al_node_field(fn, "attribute"));
    bool ok = al_str_in_list(shape_methods, meth, strlen(meth));
    free(meth);
    return ok && al_py_count_ident(pf, args, index) == 0 && al_loop_invariant(pf, args, bound) &&
           invariant_tensor(m, func, loop, al_node_field(fn, "object"), bound, index, depth + 1, why);
}

/* Methods that give a view of their tensor, never new memory. */
static const char *const view_methods[] = {
    "t", "transpose", "permute", "view", "unsqueeze", "squeeze", "detach", "narrow", "select",
    "expand", "expand_as", "view_as", "unflatten", "movedim", "swapaxes", NULL};

/* A subscript part that picks without copying: a number, the loop's
 * index (an int from range), a slice, None, `...`. */
static bool basic_subscript(const al_pyfile *pf, TSNode s, const char *index)
{
    if (al_node_is(s, "integer") || al_node_is(s, "none") || al_node_is(s, "ellipsis") ||
        (al_node_is(s, "identifier") && al_node_text_eq(pf, s, index)))
        return true;
    if (al_node_is(s, "unary_operator"))
        return al_node_is(al_node_field(s, "argument"), "integer");
    return al_node_is(s, "slice"); /* whatever its bounds: a slice is a view */
}

/* The appended value: e, or what the loop's one plain binding of the name
 * e gives it. */
static TSNode appended_value(const al_pyfile *pf, TSNode loop, TSNode e, const al_strlist *bound)
{
    if (!al_node_is(e, "identifier"))
        return e;
    char *name = al_node_text(pf, e);
    TSNode value = {0};
    if (al_strlist_count(bound, name) == 1) {
        TSNode body = al_node_field(loop, "body");
        for (uint32_t i = 0; i < ts_node_named_child_count(body); i++) {
            TSNode asg = al_py_name_assignment(ts_node_named_child(body, i));
            if (!ts_node_is_null(asg) && al_node_text_eq(pf, al_node_field(asg, "left"), name))
                value = al_node_field(asg, "right");
        }
    }
    free(name);
    return value;
}

/* Whether e is surely a tensor that exists anyway, or a view of one: a
 * name the loop does not bind, the loop's target over a container (not a
 * call's result), a name the loop binds once to such; an attribute of
 * such; basic indexing (a list's element, a tensor's view) and
 * view_methods of such. The list then keeps no memory of its own alive:
 * what it holds, something else holds too. (A property that computes a
 * new tensor on every read would be missed: a finding not made, never a
 * wrong one.) */
static bool existing_tensor(const al_pyfile *pf, TSNode loop, TSNode e, const al_strlist *bound,
                            const char *index, int depth)
{
    e = al_py_unparen(e);
    if (depth > 12 || ts_node_is_null(e))
        return false;
    if (al_node_is(e, "identifier")) {
        char *name = al_node_text(pf, e);
        size_t times = al_strlist_count(bound, name);
        TSNode left = al_node_field(loop, "left"), right = al_node_field(loop, "right");
        bool ok = times == 0;
        if (times == 1 && al_node_is(loop, "for_statement") && al_node_text_eq(pf, left, name))
            ok = !al_node_is(al_py_unparen(right), "call") && strcmp(name, index);
        else if (times == 1)
            ok = existing_tensor(pf, loop, appended_value(pf, loop, e, bound), bound, index,
                                 depth + 1);
        free(name);
        return ok;
    }
    if (al_node_is(e, "attribute"))
        return existing_tensor(pf, loop, al_node_field(e, "object"), bound, index, depth + 1);
    if (al_node_is(e, "subscript")) {
        if (!existing_tensor(pf, loop, al_node_field(e, "value"), bound, index, depth + 1))
            return false;
        for (uint32_t i = 1; i < ts_node_named_child_count(e); i++) {
            TSNode s = ts_node_named_child(e, i);
            if (al_node_is(s, "tuple") || al_node_is(s, "expression_list")) {
                for (uint32_t k = 0; k < ts_node_named_child_count(s); k++)
                    if (!basic_subscript(pf, ts_node_named_child(s, k), index))
                        return false;
            } else if (!al_node_is(s, "comment") && !basic_subscript(pf, s, index)) {
                return false;
            }
        }
        return true;
    }
    if (!al_node_is(e, "call"))
        return false;
    TSNode fn = al_node_field(e, "function");
    if (!al_node_is(fn, "attribute"))
        return false;
    char *meth = al_node_text(pf, al_node_field(fn, "attribute"));
    bool view = al_str_in_list(view_methods, meth, strlen(meth));
    free(meth);
    return view && existing_tensor(pf, loop, al_node_field(fn, "object"), bound, index, depth + 1);
}

/* The element, when the loop's body is `[row = E]; lst.append(row or E)`
 * and E an invariant_tensor: nothing in the loop writes, so copying each
 * element into its row where it is appended sees what the stack would.
 * g->row: the name the fix gives it (a name the function does not use,
 * when E is appended itself). */
static bool gathered_element(const al_pymodule *m, TSNode func, TSNode loop, TSNode append_stmt,
                             TSNode e, const al_strlist *bound, const char *index, gathered *g)
{
    const al_pyfile *pf = m->pf;
    TSNode body = al_node_field(loop, "body");
    TSNode stmts[3];
    size_t n = 0;
    for (uint32_t i = 0; i < ts_node_named_child_count(body); i++) {
        TSNode st = ts_node_named_child(body, i);
        if (al_node_is(st, "comment"))
            continue;
        if (n == 2)
            return false;
        stmts[n++] = st;
    }
    if (!ts_node_eq(stmts[n - 1], append_stmt))
        return false;
    memset(g, 0, sizeof *g);
    if (n == 2) {
        /* `row = E` then `lst.append(row)`, row bound only there. */
        TSNode asg = al_py_name_assignment(stmts[0]);
        if (ts_node_is_null(asg) || !al_node_is(e, "identifier"))
            return false;
        char *row = al_node_text(pf, al_node_field(asg, "left"));
        if (!al_node_text_eq(pf, e, row) || al_strlist_count(bound, row) != 1) {
            free(row);
            return false;
        }
        g->named = stmts[0];
        g->expr = al_py_unparen(al_node_field(asg, "right"));
        g->row = row;
    } else {
        g->expr = al_py_unparen(e);
        const char *names[] = {"row", "elem", NULL};
        for (size_t i = 0; names[i] && !g->row; i++)
            if (al_py_count_ident(pf, func, names[i]) == 0)
                g->row = al_xstrdup(names[i]);
        g->unnamed = !g->row;
        if (!g->row)
            g->row = al_xstrdup("");
    }
    if (!invariant_tensor(m, func, loop, g->expr, bound, index, 0, &g->why)) {
        free(g->row);
        free(g->why);
        g->row = g->why = NULL;
        return false;
    }
    return true;
}

/* text as a factor of a product: in parentheses unless one name,
 * number, attribute or `len(...)`. */
static char *as_factor(const char *text)
{
    bool plain = strspn(text, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                              "0123456789_.") == strlen(text) ||
                 (!strncmp(text, "len(", 4) && !strchr(text + 4, '(') && !strchr(text, ' '));
    al_strbuf b = {0};
    al_strbuf_printf(&b, plain ? "%s" : "(%s)", text);
    return al_strbuf_detach(&b);
}

/* The text of a factory's first size, as al_py_size_tuple spells it after
 * its "(": the first positional size, or the first element of a tuple. */
static char *first_size(const al_pyfile *pf, const al_py_args *a)
{
    TSNode size = al_py_unparen(a->pos[0]);
    if (a->npos == 1 && (al_node_is(size, "tuple") || al_node_is(size, "list"))) {
        for (uint32_t i = 0; i < ts_node_named_child_count(size); i++)
            if (!al_node_is(ts_node_named_child(size, i), "comment"))
                return al_node_text(pf, ts_node_named_child(size, i));
    }
    return al_node_text(pf, a->pos[0]);
}

/* Whether the factory's sizes read as "(first, ...)" with first right
 * after the parenthesis, as the cat form rewrites them. */
static bool sizes_plain(const al_pyfile *pf, TSNode call)
{
    al_py_args a;
    al_py_args_read(call, &a);
    int rank;
    char *tuple = al_py_size_tuple(pf, &a, &rank);
    char *first = tuple ? first_size(pf, &a) : NULL;
    bool ok = tuple && first && tuple[0] == '(' && !strncmp(tuple + 1, first, strlen(first)) &&
              tuple[strlen(tuple) - 1] == ')';
    free(tuple);
    free(first);
    return ok;
}

/* The stack goes: `xs = torch.stack(xs)` would become `xs = xs`, so
 * that line goes; else the call becomes the list's name. */
static void stack_edit(const al_pyfile *pf, const liststack *f, al_fix *fix)
{
    TSNode asg = ts_node_parent(f->stack_call);
    size_t ss, se;
    if (al_node_is(asg, "assignment") && ts_node_eq(al_node_field(asg, "right"), f->stack_call) &&
        al_node_text_eq(pf, al_node_field(asg, "left"), f->list) &&
        al_py_statement_lines(pf, ts_node_parent(asg), &ss, &se))
        al_fix_add_edit(fix, ss, se, "");
    else
        al_fix_add_edit(fix, ts_node_start_byte(f->stack_call), ts_node_end_byte(f->stack_call),
                        f->list);
}

/* lst = [] goes; lst.append(row) -> the result made from the first
 * element (its shape, dtype and device are every element's), then each
 * element copied into its row; torch.stack(lst) -> lst. */
static al_fix *gathered_fix(const al_pyfile *pf, const liststack *f)
{
    char *ind = al_py_indent_of(pf, f->append_stmt), *outer = al_py_indent_of(pf, f->loop);
    size_t ls, le;
    if (!ind || !outer || strlen(ind) <= strlen(outer) ||
        !al_py_statement_lines(pf, f->list_stmt, &ls, &le)) {
        free(ind);
        free(outer);
        return NULL;
    }
    const char *unit = ind + strlen(outer);
    al_strbuf t = {0};
    if (ts_node_is_null(f->g.named)) {
        char *e = al_node_text(pf, f->g.expr);
        al_strbuf_printf(&t, "%s = %s\n%s", f->g.row, e, ind);
        free(e);
    }
    char *factor = as_factor(f->count);
    if (f->cat) /* rows of n equal blocks along dimension 0 */
        al_strbuf_printf(&t,
                         "if %s == 0:\n%s%s%s = %s.new_empty((%s * %s.shape[0], *%s.shape[1:]))\n"
                         "%s%s[%s * %s.shape[0] : (%s + 1) * %s.shape[0]] = %s",
                         f->index, ind, unit, f->list, f->g.row, factor, f->g.row, f->g.row,
                         ind, f->list, f->index, f->g.row, f->index, f->g.row, f->g.row);
    else
        al_strbuf_printf(&t, "if %s == 0:\n%s%s%s = %s.new_empty((%s, *%s.shape))\n%s%s[%s] = %s",
                         f->index, ind, unit, f->list, f->g.row, f->count, f->g.row, ind, f->list,
                         f->index, f->g.row);
    free(factor);
    al_strbuf why = {0};
    al_strbuf_printf(&why, "Make the result from the first element and copy each element into "
                           "its %s (a loop of no iteration leaves the name unbound, where "
                           "`torch.%s` of an empty list raises)",
                     f->cat ? "block of rows" : "row", f->cat ? "cat" : "stack");
    al_fix *fix = al_fix_new(AL_FIX_UNSAFE, why.data);
    al_strbuf_free(&why);
    al_fix_add_edit(fix, ls, le, "");
    al_fix_add_edit(fix, ts_node_start_byte(f->append_stmt), ts_node_end_byte(f->append_stmt),
                    t.data);
    stack_edit(pf, f, fix);
    al_strbuf_free(&t);
    free(ind);
    free(outer);
    return fix;
}

static void report(const al_pymodule *m, const liststack *f, al_findings *out)
{
    const al_pyfile *pf = m->pf;
    al_strbuf msg = {0};
    al_strbuf_printf(&msg, "`%s` collects one tensor per iteration of the loop on line %zu, "
                           "then `torch.%s` on line %zu copies them: until the copy the list "
                           "keeps every element alive, twice the result's memory at the peak; "
                           "preallocate the result and write each slice",
                     f->list, al_node_row(f->loop), f->cat ? "cat" : "stack",
                     al_node_row(f->stack_call));
    al_fix *fix = NULL;
    if (f->no_fix) {
        al_strbuf_printf(&msg, " (no fix: %s)", f->no_fix);
    } else if (f->g.row) {
        char *e = al_node_text(pf, f->g.expr);
        al_strbuf_printf(&msg, " (the element `%.80s%s` has one shape and dtype on every "
                               "iteration: %s; the loop's index `%s` alone picks it, with what "
                               "the loop does not change; the loop writes nothing, and the copy "
                               "follows it)",
                         e, strlen(e) > 80 ? "..." : "", f->g.why ? f->g.why : "", f->index);
        free(e);
        fix = gathered_fix(pf, f);
    } else {
        /* lst = [] -> lst = torch.F((n, *sizes), ...); t = torch.F(...) ->
         * t = lst[i]; lst.append(t) goes; torch.stack(lst) -> lst. */
        al_py_args a;
        al_py_args_read(f->el.call, &a);
        char *fn = al_node_text(pf, al_node_field(f->el.call, "function"));
        al_strbuf sizes = {0};
        int rank = 0;
        char *tuple = al_py_size_tuple(pf, &a, &rank); /* "(a, b)", "(n,)" */
        char *first = f->cat ? first_size(pf, &a) : NULL;
        if (f->cat) {
            /* n blocks of `first` rows: (n * first, b); each a block. */
            char *n = as_factor(f->count), *k = as_factor(first);
            const char *rest = tuple + 1 + strlen(first);
            al_strbuf_printf(&sizes, "(%s * %s%.*s", n, k, (int)strlen(rest), rest);
            free(first);
            first = k;
            free(n);
        } else {
            al_strbuf_printf(&sizes, "(%s, %.*s)", f->count, (int)strlen(tuple) - 2, tuple + 1);
        }
        free(tuple);
        char *kw = al_py_kwargs_text(pf, &a, NULL); /* ", dtype=..., device=..." */
        char *elem = al_node_text(pf, al_node_field(ts_node_named_child(f->el.stmt, 0), "left"));
        fix = al_fix_new(AL_FIX_UNSAFE, "Preallocate the result and write each element into its slice");
        al_strbuf e1 = {0}, e2 = {0};
        al_strbuf_printf(&e1, "%s = %s(%s%s)", f->list, fn, sizes.data, kw);
        if (f->cat)
            al_strbuf_printf(&e2, "%s = %s[%s * %s : (%s + 1) * %s]", elem, f->list, f->index,
                             first, f->index, first);
        else
            al_strbuf_printf(&e2, "%s = %s[%s]", elem, f->list, f->index);
        free(first);
        al_fix_add_edit(fix, ts_node_start_byte(f->list_stmt), ts_node_end_byte(f->list_stmt), e1.data);
        al_fix_add_edit(fix, ts_node_start_byte(f->el.stmt), ts_node_end_byte(f->el.stmt), e2.data);
        size_t ls, le;
        if (al_py_statement_lines(pf, f->append_stmt, &ls, &le))
            al_fix_add_edit(fix, ls, le, "");
        stack_edit(pf, f, fix);
        al_strbuf_free(&e1);
        al_strbuf_free(&e2);
        al_strbuf_free(&sizes);
        free(kw);
        free(fn);
        free(elem);
    }
    /* Reported where the list grows: the append is what holds the memory. */
    al_findings_add(out, "AL205", "list-then-stack", ts_node_start_byte(f->append_stmt),
                    ts_node_end_byte(f->append_stmt), al_strbuf_detach(&msg), fix);
}

typedef struct {
    const al_pymodule *m;
    const char *list;
    TSNode found;
    bool cat;
} stack_scan;

/* `torch.stack(lst)` or `torch.cat(lst)`, on dimension 0, nothing else
 * passed. */
static al_visit stack_call(TSNode n, void *arg)
{
    stack_scan *sc = arg;
    const al_pyfile *pf = sc->m->pf;
    if (!al_node_is(n, "call"))
        return AL_VISIT_INTO;
    bool is_cat = al_pymodule_calls_torch_cat(sc->m, n);
    if (!is_cat && !al_pymodule_resolves_to(sc->m, al_node_field(n, "function"), "torch.stack"))
        return AL_VISIT_INTO;
    al_py_args a;
    al_py_args_read(n, &a);
    static const char *const kws[] = {"dim", NULL};
    TSNode dim = a.npos > 1 ? a.pos[1] : al_py_kwarg(pf, &a, "dim");
    if (a.npos < 1 || a.npos > 2 || a.splat || !al_node_is(a.pos[0], "identifier") ||
        !al_node_text_eq(pf, a.pos[0], sc->list) || !al_py_kwargs_within(pf, &a, kws) ||
        (!ts_node_is_null(dim) && !al_py_is_zero_literal(pf, dim)))
        return AL_VISIT_INTO;
    sc->found = n;
    sc->cat = is_cat;
    return AL_VISIT_STOP;
}

/* The next statement of the block after s that names the list (comments
 * and statements that do not name it are passed over), or a null node;
 * *gap says whether any statement was passed over. */
static TSNode next_naming(const al_pyfile *pf, TSNode s, const char *list, bool *gap)
{
    *gap = false;
    for (s = ts_node_next_named_sibling(s); !ts_node_is_null(s); s = ts_node_next_named_sibling(s)) {
        if (al_node_is(s, "comment"))
            continue;
        if (al_py_count_ident(pf, s, list))
            return s;
        *gap = true;
    }
    return s;
}

/* The statement after the loop (same block) holding the only other use of
 * the list: `torch.stack(lst)` or `torch.cat(lst)` on dimension 0. */
static TSNode stack_after(const al_pymodule *m, TSNode loop, const char *list, bool *cat, int *uses)
{
    const al_pyfile *pf = m->pf;
    *uses = 0;
    TSNode found = {0};
    bool gap;
    TSNode st = next_naming(pf, loop, list, &gap);
    if (!ts_node_is_null(st)) {
        stack_scan sc = {.m = m, .list = list};
        al_node_preorder(st, stack_call, &sc);
        found = sc.found;
        *cat = sc.cat;
    }
    /* Uses of the list after the loop; `xs = torch.stack(xs)` rebinds the
     * name to the result, which is all that later lines see. */
    TSNode a = ts_node_is_null(st) ? st : al_py_name_assignment(st);
    bool rebinds = !ts_node_is_null(found) && !ts_node_is_null(a) &&
                   al_node_text_eq(pf, al_node_field(a, "left"), list);
    for (TSNode s = ts_node_next_named_sibling(loop); !ts_node_is_null(s); s = ts_node_next_named_sibling(s)) {
        if (rebinds && ts_node_eq(s, st)) {
            *uses += al_py_count_ident(pf, al_node_field(a, "right"), list);
            break;
        }
        *uses += al_py_count_ident(pf, s, list);
    }
    return found;
}

/* A cheap test first: the next statement after the loop that names the
 * list spells `stack(` or `cat(`: that statement (*joined), and whether
 * others come between (*gap). */
static bool next_names_stack(const al_pyfile *pf, TSNode loop, const char *list, TSNode *joined,
                             bool *gap)
{
    TSNode s = next_naming(pf, loop, list, gap);
    *joined = s;
    if (ts_node_is_null(s))
        return false;
    size_t len;
    const char *p = al_node_ptr(pf, s, &len);
    return (memmem(p, len, "stack(", 6) || memmem(p, len, "cat(", 4)) &&
           memmem(p, len, list, strlen(list));
}

static void list_then_stack(TSNode func, TSNode stmt, void *arg)
{
    al_rule_visit *w = arg;
    const al_pymodule *m = w->in->py;
    const al_pyfile *pf = m->pf;
    TSNode target = empty_list(stmt);
    if (ts_node_is_null(target))
        return;
    /* The loop: the next statement naming the list (other lists and
     * settings may be made between). */
    char *name = al_node_text(pf, target);
    bool gap_before;
    TSNode loop = next_naming(pf, stmt, name, &gap_before);
    free(name);
    if (ts_node_is_null(loop) || (!al_node_is(loop, "for_statement") && !al_node_is(loop, "while_statement")))
        return;
    liststack f;
    memset(&f, 0, sizeof f);
    f.list = al_node_text(pf, target);
    f.list_stmt = stmt;
    f.loop = loop;
    /* One append, at the top of the loop's body, the list's only use there. */
    TSNode body = al_node_field(loop, "body");
    TSNode e = {0};
    for (uint32_t i = 0; i < ts_node_named_child_count(body); i++) {
        TSNode st = ts_node_named_child(body, i);
        TSNode x = append_of(pf, st, f.list);
        if (!ts_node_is_null(x)) {
            e = x;
            f.append_stmt = st;
        }
    }
    int uses_after = 0;
    TSNode joined;
    bool gap_after;
    bool stacked = next_names_stack(pf, loop, f.list, &joined, &gap_after);
    if (!ts_node_is_null(e) && stacked && al_py_count_ident(pf, loop, f.list) == 1)
        f.stack_call = stack_after(m, loop, f.list, &f.cat, &uses_after);
    if (ts_node_is_null(f.stack_call)) {
        /* For explain: a list that the statement after its loop stacks,
         * which the rule still leaves: say what failed. */
        if (stacked)
            al_rule_decline(w->in, "AL205", "list-then-stack", ts_node_start_byte(stmt),
                            ts_node_end_byte(joined),
                            ts_node_is_null(e)
                                ? "`%s` is stacked after the loop on line %zu, but no statement "
                                  "at the top of the loop's body appends one element to it"
                            : al_py_count_ident(pf, loop, f.list) != 1
                                ? "`%s` is stacked after the loop on line %zu, but the loop uses "
                                  "the list besides its one append (it may read or change it)"
                                : "`%s` is joined after the loop on line %zu, but not as "
                                  "`torch.stack(%s)` or `torch.cat(%s)` on dimension 0 with "
                                  "nothing else passed",
                            f.list, al_node_row(loop), f.list, f.list);
        free(f.list);
        return;
    }
    al_strlist bound = {0};
    al_py_bound_names(pf, loop, &bound);
    /* Elements that exist anyway (a parameter's rows, a module's weights,
     * views of them) cost the list nothing: there is no peak to halve. */
    TSNode value = appended_value(pf, loop, e, &bound);
    bool counted = counted_loop(pf, loop, &f.index, &f.count);
    bool existing = !ts_node_is_null(value) &&
                    existing_tensor(pf, loop, value, &bound, counted ? f.index : "", 0);
    if (existing) {
        char *shown = al_node_text(pf, value);
        al_rule_decline(w->in, "AL205", "list-then-stack", ts_node_start_byte(f.append_stmt),
                        ts_node_end_byte(f.append_stmt),
                        "`%s` collects `%.80s%s`, a tensor that exists anyway or a view of one: the "
                        "list holds no memory of its own, so preallocating saves nothing",
                        f.list, shown, strlen(shown) > 80 ? "..." : "");
        free(shown);
        al_strlist_free(&bound);
        free(f.list);
        free(f.index);
        free(f.count);
        return;
    }
    if (!counted)
        f.no_fix = "the loop is not `for i in range(n)`, so the number of elements is not known "
                   "before it";
    else if (!count_evaluable_again(pf, loop_count(loop), &bound, 0))
        f.no_fix = "the fix evaluates the loop's count again, and it calls something or names "
                   "what the loop binds: it may give another value";
    else if (al_strlist_count(&bound, f.index) != 1)
        f.no_fix = "the loop's index is bound again in the loop";
    else if (al_py_has_jump(body))
        f.no_fix = "the loop may end an iteration early (break, continue, return)";
    else if (uses_after != 1)
        f.no_fix = "the list is used again after the copy";
    else if (!invariant_element(m, loop, &bound, e, &f.el) &&
             !gathered_element(m, func, loop, f.append_stmt, e, &bound, f.index, &f.g))
        f.no_fix = f.cat ? "`torch.cat` joins the elements along a dimension they already have; "
                           "their sizes there are not proved equal (they are for a factory with "
                           "loop-invariant sizes, dtype and device, and for a tensor indexed by "
                           "the loop's index and subscripts the loop does not change, through "
                           "methods that keep to their arguments, the loop's only other "
                           "statement)"
                         : "the element's shape and dtype are not proved the same on every "
                           "iteration (a factory with loop-invariant sizes, dtype and device "
                           "is; so is a tensor indexed by the loop's index and subscripts the "
                           "loop does not change, through methods that keep to their arguments, "
                           "the loop's only other statement)";
    else if (f.cat && !f.g.row && !sizes_plain(pf, f.el.call))
        f.no_fix = "the factory's sizes are not a plain tuple the fix can multiply the first of";
    else if (f.g.unnamed)
        f.no_fix = "the fix names the element `row` or `elem`, and the function uses both";
    else if (f.g.row && gap_after)
        f.no_fix = "statements between the loop and the copy may write what the elements view";
    /* The result is made where the list was: what the loop's element
     * needs may be bound between the two. */
    if (!f.no_fix && gap_before)
        f.no_fix = "statements between the list and the loop may bind what the element needs";
    char *indent = f.no_fix ? NULL : al_py_indent_of(pf, loop);
    if (!f.no_fix && !indent)
        f.no_fix = "the loop does not start its line";
    char *inner = f.no_fix || !f.g.row ? NULL : al_py_indent_of(pf, f.append_stmt);
    if (!f.no_fix && f.g.row && (!inner || strlen(inner) <= strlen(indent)))
        f.no_fix = "the loop's body does not start a line of its own";
    free(inner);
    free(indent);
    report(m, &f, w->out);
    al_strlist_free(&bound);
    free(f.list);
    free(f.index);
    free(f.count);
    free(f.g.row);
    free(f.g.why);
}

void al_rule_al205(const al_rule_input *in, al_findings *out)
{
    al_rule_visit w = {in, out};
    al_pymodule_walk_where(in->py, in->region_needs, &(al_py_walker){NULL, list_then_stack, &w});
}
