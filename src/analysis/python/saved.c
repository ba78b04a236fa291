#include "saved.h"

#include "autograd_saved.h"
#include "rebinding.h"
#include "../../base/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    const al_pymodule *m;
    const char *name;
    size_t from, to;
    size_t stmt_end; /* ops past it run on a later iteration's tensor */
    al_saved found;
} search;

static bool is_name(const al_pyfile *pf, TSNode n, const char *name)
{
    n = al_py_unparen(n);
    return !ts_node_is_null(n) && al_node_is(n, "identifier") && al_node_text_eq(pf, n, name);
}

static bool is_number(TSNode n)
{
    n = al_py_unparen(n);
    if (al_node_is(n, "unary_operator"))
        n = al_node_field(n, "argument");
    return al_node_is(n, "integer") || al_node_is(n, "float");
}

/* The table's entry for op with other as its second operand: the `.Scalar`
 * form for a Python number, when the table has it. */
static const al_autograd_saved *entry_of(const char *op, TSNode other)
{
    if (!ts_node_is_null(other) && is_number(other)) {
        char scalar[80];
        snprintf(scalar, sizeof scalar, "%s.Scalar", op);
        const al_autograd_saved *e = al_autograd_find(scalar);
        if (e)
            return e;
    }
    return al_autograd_find(op);
}

static const char *operator_op(const al_pyfile *pf, TSNode bin)
{
    static const char *const OPS[][2] = {{"*", "mul"}, {"/", "div"}, {"+", "add"},
                                         {"-", "sub"}, {"**", "pow"}, {"@", "matmul"}};
    TSNode op = al_node_field(bin, "operator");
    for (size_t i = 0; i < sizeof OPS / sizeof *OPS; i++)
        if (al_node_text_eq(pf, op, OPS[i][0]))
            return OPS[i][1];
    return NULL;
}

/* The op a call makes, its input and its other operand: `torch.op(a, b)`,
 * `F.op(a, b)`, `a.op(b)`. The name points into the table or is NULL. */
static const char *call_op(const al_pymodule *m, TSNode call, TSNode *self, TSNode *other,
                           char *buf, size_t cap)
{
    TSNode fn = al_node_field(call, "function");
    al_py_args a;
    al_py_args_read(call, &a);
    *self = (TSNode){0};
    *other = (TSNode){0};
    char *q = al_pymodule_resolve(m, fn);
    const char *tail = NULL;
    if (q && al_str_starts_with(q, "torch.nn.functional."))
        tail = q + strlen("torch.nn.functional.");
    else if (q && al_str_starts_with(q, "torch.") && !strchr(q + 6, '.'))
        tail = q + 6;
    if (tail) {
        snprintf(buf, cap, "%s", tail);
        *self = a.npos > 0 ? a.pos[0] : (TSNode){0};
        *other = a.npos > 1 ? a.pos[1] : (TSNode){0};
    } else if (!q && al_node_is(fn, "attribute") &&
               !al_py_is_receiver(m->pf, al_node_field(fn, "object"))) {
        /* `self.norm(x)` is a submodule named like the op, not the op. */
        char *attr = al_node_text(m->pf, al_node_field(fn, "attribute"));
        snprintf(buf, cap, "%s", attr);
        free(attr);
        *self = al_node_field(fn, "object");
        *other = a.npos > 0 ? a.pos[0] : (TSNode){0};
    } else {
        buf[0] = '\0';
    }
    free(q);
    return buf[0] ? buf : NULL;
}

/* What node n saves of the tensor, if it is an op: its input or its other
 * operand, or, for the binding's value itself (at_value), its result. The
 * value's operands are the name's earlier tensors, not this one. */
static void check_op(search *s, TSNode n, bool at_value)
{
    const al_pyfile *pf = s->m->pf;
    char buf[64];
    const char *op = NULL;
    TSNode self = {0}, other = {0};
    if (al_node_is(n, "call")) {
        op = call_op(s->m, n, &self, &other, buf, sizeof buf);
    } else if (al_node_is(n, "binary_operator")) {
        op = operator_op(pf, n);
        self = al_node_field(n, "left");
        other = al_node_field(n, "right");
    }
    if (!op)
        return;
    const al_autograd_saved *e = entry_of(op, other);
    if (!e || !e->saves)
        return;
    const char *as = NULL;
    if (at_value) {
        if (e->saves & AL_SAVES_RESULT)
            as = "result";
    } else if ((e->saves & AL_SAVES_SELF) && is_name(pf, self, s->name)) {
        as = "input";
    } else if ((e->saves & AL_SAVES_OTHER) && is_name(pf, other, s->name)) {
        as = "other operand";
    }
    if (as)
        s->found = (al_saved){n, e->name, as, ts_node_start_byte(n) >= s->stmt_end};
}

/* The value of `name = value` (an identifier target), or null. */
static TSNode rebinding_value(const al_pyfile *pf, TSNode n, const char *name)
{
    if (!al_node_is(n, "assignment"))
        return (TSNode){0};
    TSNode left = al_node_field(n, "left");
    if (al_node_is(left, "identifier") && al_node_text_eq(pf, left, name))
        return al_py_unparen(al_node_field(n, "right"));
    return (TSNode){0};
}

static void walk(search *s, TSNode n)
{
    const al_pyfile *pf = s->m->pf;
    if (!ts_node_is_null(s->found.op) || ts_node_end_byte(n) <= s->from ||
        ts_node_start_byte(n) >= s->to)
        return;
    if (al_node_is(n, "function_definition") || al_node_is(n, "class_definition") ||
        al_node_is(n, "lambda"))
        return;
    if (ts_node_start_byte(n) >= s->from) {
        /* `name = op(...)`: its result is the tensor from here on (saved
         * if op keeps its result); the names in it are earlier tensors. */
        TSNode v = rebinding_value(pf, n, s->name);
        if (!ts_node_is_null(v)) {
            check_op(s, v, true);
            return;
        }
        if (al_node_is(n, "assignment") &&
            al_unpacked_position(pf, al_node_field(n, "left"), s->name) >= 0)
            return;
        check_op(s, n, false);
    }
    uint32_t k = ts_node_named_child_count(n);
    for (uint32_t i = 0; i < k && ts_node_is_null(s->found.op); i++)
        walk(s, ts_node_named_child(n, i));
}

/* The outermost loop around stmt in func that starts after `after`: its
 * back edge carries name's tensor to stmt again. */
static TSNode carrying_loop(TSNode func, TSNode stmt, size_t after)
{
    TSNode loop = {0};
    for (TSNode n = ts_node_parent(stmt); !ts_node_is_null(n) && !ts_node_eq(n, func);
         n = ts_node_parent(n))
        if ((al_node_is(n, "for_statement") || al_node_is(n, "while_statement")) &&
            ts_node_start_byte(n) > after)
            loop = n;
    return loop;
}

/* Where, after stmt, the tensor the loop's back edge carries to stmt is
 * bound: the last rebinding of name every path to the end of the loop's
 * body passes (ops before it see stmt's own result, which no later stmt
 * updates), or the end of stmt. */
static size_t carried_from(const al_pyfile *pf, TSNode func, TSNode loop, TSNode stmt,
                           const char *name)
{
    size_t at = ts_node_end_byte(stmt);
    TSNode body = al_node_field(loop, "body");
    uint32_t k = ts_node_named_child_count(body);
    if (k == 0)
        return at;
    TSNode last = ts_node_named_child(body, k - 1);
    TSNode r = {0};
    if (al_node_is(last, "expression_statement") && ts_node_named_child_count(last) == 1 &&
        !ts_node_is_null(rebinding_value(pf, ts_node_named_child(last, 0), name)))
        r = last;
    else
        r = al_rebound_before(pf, func, last, name);
    if (!ts_node_is_null(r) && ts_node_start_byte(r) >= at)
        at = ts_node_start_byte(r);
    return at;
}

al_saved al_saved_before(const al_pymodule *m, TSNode func, TSNode stmt, const char *name)
{
    TSNode body = al_node_field(func, "body");
    TSNode dom = al_rebound_before(m->pf, func, stmt, name);
    size_t from = ts_node_start_byte(ts_node_is_null(dom) ? body : dom);
    search s = {.m = m,
                .name = name,
                .from = from,
                .to = ts_node_start_byte(stmt),
                .stmt_end = ts_node_end_byte(stmt)};
    walk(&s, body);
    TSNode loop = carrying_loop(func, stmt, ts_node_is_null(dom) ? 0 : from);
    if (ts_node_is_null(s.found.op) && !ts_node_is_null(loop)) {
        s.from = carried_from(m->pf, func, loop, stmt, name);
        s.to = ts_node_end_byte(loop);
        walk(&s, body);
    }
    return s.found;
}
