#include "region.h"

#include "../../base/util.h"

#include <stdlib.h>
#include <string.h>

#define MAX_OPERANDS 24
#define MAX_GUARDS 16
#define MAX_INDEX_LOOPS 4

typedef struct {
    al_tf_kernel *k;
    TSNode site;   /* the access: what it reads must be in scope there */
    int param;     /* the buffer's parameter */
    int buffer_seen;
    bool address;  /* serializing a pointer: integer arithmetic */
    TSNode loops[MAX_INDEX_LOOPS]; /* loops whose variable the region names */
    char *extents[MAX_INDEX_LOOPS];
    int nloops;
} ser_ctx;

static bool within(TSNode n, TSNode outer)
{
    return ts_node_start_byte(n) >= ts_node_start_byte(outer) &&
           ts_node_end_byte(n) <= ts_node_end_byte(outer);
}

/* Declines a region: why names what is not of the form compared, for
 * the reader (no message carries it). */
static bool fail(const char *why)
{
    (void)why;
    return false;
}

static bool ser(ser_ctx *c, TSNode n, al_strbuf *out, int depth);

/* The value of n when it names a local assigned once, outside any loop
 * the access is not in (else its last value, not one); a null node
 * otherwise. */
static TSNode local_value(ser_ctx *c, TSNode n)
{
    al_tf_kernel *k = c->k;
    if (!al_node_is(n, "identifier"))
        return (TSNode){0};
    size_t len;
    const char *p = al_node_ptr(k->pf, n, &len);
    int li = al_tf_local_of(k, p, len);
    if (li < 0 || k->local_counts[li] != 1 || !ts_node_is_null(k->local_loops[li]))
        return (TSNode){0};
    TSNode v = k->local_values[li];
    if (ts_node_is_null(v))
        return v;
    for (TSNode q = ts_node_parent(v); !ts_node_is_null(q) && !ts_node_eq(q, k->def);
         q = ts_node_parent(q))
        if ((al_node_is(q, "for_statement") || al_node_is(q, "while_statement")) &&
            !within(c->site, q))
            return (TSNode){0};
    return v;
}

static int cmp_text(const void *x, const void *y)
{
    return strcmp(*(char *const *)x, *(char *const *)y);
}

/* The operands of a chain of one commutative operator, through parentheses. */
static bool gather(ser_ctx *c, TSNode n, const char *op, TSNode *ops, int *nops, int depth)
{
    if (depth > 40)
        return fail("an expression nested too deep"); /* `x = x + 1`, once */
    n = al_py_unparen(n);
    TSNode v = local_value(c, n);
    if (!ts_node_is_null(v) && al_node_is(al_py_unparen(v), "binary_operator") &&
        al_node_text_eq(c->k->pf, al_node_field(al_py_unparen(v), "operator"), op))
        n = al_py_unparen(v);
    if (al_node_is(n, "binary_operator") &&
        al_node_text_eq(c->k->pf, al_node_field(n, "operator"), op))
        return gather(c, al_node_field(n, "left"), op, ops, nops, depth + 1) &&
               gather(c, al_node_field(n, "right"), op, ops, nops, depth + 1);
    if (*nops >= MAX_OPERANDS)
        return fail("an expression too long to compare");
    ops[(*nops)++] = n;
    return true;
}

/* A float literal, a cast to a float type or a true division. */
static bool float_arithmetic(const char *t)
{
    if (strstr(t, "tl.float") || strstr(t, "tl.bfloat"))
        return true;
    for (const char *p = t; *p; p++)
        if ((*p == '.' && p > t && p[-1] >= '0' && p[-1] <= '9') ||
            (*p == '/' && p[1] != '/' && (p == t || p[-1] != '/')))
            return true;
    return false;
}

/* That, or a loaded value, whose type the kernel does not say. */
static bool may_be_float(const char *t)
{
    return strstr(t, "load(") || float_arithmetic(t);
}

/* `a op b op c`, its operands marked for sorting (`\x01op a \x02 b
 * \x03`), so that two orders of one sum are one text once compared. */
static bool commutative(ser_ctx *c, TSNode n, const char *op, al_strbuf *out, int depth)
{
    TSNode ops[MAX_OPERANDS];
    int nops = 0;
    if (!gather(c, n, op, ops, &nops, depth))
        return false;
    char *texts[MAX_OPERANDS];
    bool ok = true;
    int done = 0;
    for (; done < nops && ok; done++) {
        al_strbuf sb = {0};
        al_strbuf_puts(&sb, "");
        ok = ser(c, ops[done], &sb, depth + 1);
        texts[done] = al_strbuf_detach(&sb);
    }
    /* Floats add and multiply in any order but not in any grouping:
     * three or more operands that may be floats keep the grouping written. */
    bool floats = false;
    for (int i = 0; i < done; i++)
        floats |= may_be_float(texts[i]);
    if (ok && nops > 2 && !c->address && floats) {
        al_strbuf_putc(out, '(');
        ok = ser(c, al_node_field(n, "left"), out, depth + 1);
        al_strbuf_puts(out, op);
        ok = ok && ser(c, al_node_field(n, "right"), out, depth + 1);
        al_strbuf_putc(out, ')');
    } else if (ok) {
        al_strbuf_printf(out, "\x01%s", op);
        for (int i = 0; i < nops; i++)
            al_strbuf_printf(out, "%s%s", i ? "\x02" : "", texts[i]);
        al_strbuf_putc(out, '\x03');
    }
    for (int i = 0; i < done; i++)
        free(texts[i]);
    return ok;
}

/* `range(E)`, `range(0, E)`, `tl.range(...)` or `tl.static_range(...)`
 * of the same forms: E, or a null node. */
static TSNode range_extent(ser_ctx *c, TSNode loop)
{
    TSNode it = al_py_unparen(al_node_field(loop, "right"));
    if (!al_node_is(it, "call"))
        return (TSNode){0};
    TSNode fn = al_node_field(it, "function");
    bool plain = al_node_is(fn, "identifier") && al_node_text_eq(c->k->pf, fn, "range");
    if (!plain && !al_tf_is_tl(c->k, fn, "range") && !al_tf_is_tl(c->k, fn, "static_range"))
        return (TSNode){0};
    al_py_args a;
    al_py_args_read(it, &a);
    if (a.nall != a.npos || a.splat)
        return (TSNode){0};
    if (a.npos == 1)
        return a.pos[0];
    if (a.npos == 2 && al_node_text_eq(c->k->pf, a.pos[0], "0"))
        return a.pos[1];
    return (TSNode){0};
}

static bool loop_variable(ser_ctx *c, TSNode loop, al_strbuf *out, int depth)
{
    if (!within(c->site, al_node_field(loop, "body")))
        return fail("a loop's variable used outside the loop");
    TSNode e = range_extent(c, loop);
    if (ts_node_is_null(e))
        return fail("a loop other than `range(E)`");
    al_strbuf sb = {0};
    al_strbuf_puts(&sb, "");
    if (!ser(c, e, &sb, depth + 1)) {
        al_strbuf_free(&sb);
        return false;
    }
    int i = 0;
    while (i < c->nloops && !ts_node_eq(c->loops[i], loop))
        i++;
    if (i == c->nloops) {
        /* Two loops over one extent would be one variable in the text. */
        for (int j = 0; j < c->nloops; j++)
            if (!strcmp(c->extents[j], sb.data)) {
                al_strbuf_free(&sb);
                return fail("two loops over one extent");
            }
        if (c->nloops == MAX_INDEX_LOOPS) {
            al_strbuf_free(&sb);
            return fail("too many loops");
        }
        c->loops[c->nloops] = loop;
        c->extents[c->nloops++] = al_xstrdup(sb.data);
    }
    al_strbuf_printf(out, "@{%s}@", sb.data);
    al_strbuf_free(&sb);
    return true;
}

static bool identifier(ser_ctx *c, TSNode n, al_strbuf *out, int depth)
{
    al_tf_kernel *k = c->k;
    size_t len;
    const char *p = al_node_ptr(k->pf, n, &len);
    int li = al_tf_local_of(k, p, len);
    if (li >= 0) {
        if (k->local_counts[li] == 1 && !ts_node_is_null(k->local_loops[li]))
            return loop_variable(c, k->local_loops[li], out, depth);
        TSNode v = local_value(c, n);
        if (ts_node_is_null(v))
            return fail("a local assigned more than once, by unpacking, or in a loop the "
                           "access is not in");
        return ser(c, v, out, depth + 1);
    }
    int pi = al_tf_param_index(k, p, len);
    if (pi >= 0) {
        if (!ts_node_is_null(k->bumps[pi]) || k->bumped_twice[pi])
            return fail("a parameter moved in the kernel");
        if (pi == c->param)
            c->buffer_seen++;
        al_strbuf_printf(out, "$%d$", pi);
        return true;
    }
    if (al_node_text_eq(k->pf, n, "None") || al_node_text_eq(k->pf, n, "True") ||
        al_node_text_eq(k->pf, n, "False")) {
        al_strbuf_append(out, p, len);
        return true;
    }
    return fail("a name that is neither a parameter nor a local");
}

/* tl functions whose value depends on their arguments alone. */
static const char *const PURE_TL[] = {"minimum", "maximum", "cdiv", "where", "abs",
                                     "multiple_of", "max_contiguous", NULL};

static bool args_text(ser_ctx *c, const al_py_args *a, int from, al_strbuf *out, int depth)
{
    for (int i = from; i < a->nall; i++) {
        TSNode arg = a->all[i];
        if (i > from)
            al_strbuf_putc(out, ',');
        if (al_node_is(arg, "keyword_argument")) {
            char *name = al_node_text(c->k->pf, al_node_field(arg, "name"));
            al_strbuf_printf(out, "%s=", name);
            free(name);
            arg = al_node_field(arg, "value");
        }
        if (!ser(c, arg, out, depth + 1))
            return false;
    }
    return true;
}

static bool call(ser_ctx *c, TSNode n, al_strbuf *out, int depth)
{
    al_tf_kernel *k = c->k;
    TSNode fn = al_node_field(n, "function");
    al_py_args a;
    al_py_args_read(n, &a);
    if (a.splat)
        return fail("a call with unpacked arguments");
    if (al_tf_is_tl(k, fn, "program_id")) {
        TSNode ax = a.npos == 1 ? a.pos[0] : al_py_kwarg(k->pf, &a, "axis");
        if (ts_node_is_null(ax) || !al_node_is(ax, "integer"))
            return fail("a program id of an axis not written as a number");
        char *t = al_node_text(k->pf, ax);
        al_strbuf_printf(out, "#%s#", t);
        free(t);
        return true;
    }
    if (al_tf_is_tl(k, fn, "arange")) {
        if (a.npos != 2 || a.nall != 2 || !al_node_text_eq(k->pf, a.pos[0], "0"))
            return fail("a `tl.arange` not from 0");
        al_strbuf_puts(out, "AR{");
        if (!ser(c, a.pos[1], out, depth + 1))
            return false;
        al_strbuf_putc(out, '}');
        return true;
    }
    if (al_tf_is_tl(k, fn, "load")) {
        /* What a load gives where its mask is false is `other`: part of
         * the value. */
        al_strbuf_puts(out, "load(");
        if (!args_text(c, &a, 0, out, depth))
            return false;
        al_strbuf_putc(out, ')');
        return true;
    }
    char *q = al_tf_resolve_tl(k, fn);
    if (q && al_str_starts_with(q, "triton.language.") &&
        al_str_in_list(PURE_TL, q + 16, strlen(q + 16))) {
        al_strbuf_printf(out, "tl.%s(", q + 16);
        free(q);
        if (!args_text(c, &a, 0, out, depth))
            return false;
        al_strbuf_putc(out, ')');
        return true;
    }
    free(q);
    if (al_node_is(fn, "attribute") &&
        al_node_text_eq(k->pf, al_node_field(fn, "attribute"), "to") && a.nall == 1 &&
        a.npos == 1) {
        if (!ser(c, al_node_field(fn, "object"), out, depth + 1))
            return false;
        al_strbuf_puts(out, ".to(");
        if (!ser(c, a.pos[0], out, depth + 1))
            return false;
        al_strbuf_putc(out, ')');
        return true;
    }
    return fail("a call whose value alloclint does not compare");
}

static bool comparison(ser_ctx *c, TSNode n, al_strbuf *out, int depth)
{
    if (ts_node_named_child_count(n) != 2)
        return fail("a chained comparison");
    TSNode l = ts_node_named_child(n, 0), r = ts_node_named_child(n, 1);
    TSNode opn = ts_node_child(n, 1);
    const char *op = ts_node_type(opn);
    bool swap = !strcmp(op, ">") || !strcmp(op, ">=");
    const char *norm = !strcmp(op, ">") ? "<" : !strcmp(op, ">=") ? "<=" : op;
    if (strcmp(norm, "<") && strcmp(norm, "<=") && strcmp(norm, "==") && strcmp(norm, "!="))
        return fail("a comparison other than < <= == !=");
    al_strbuf x = {0}, y = {0};
    al_strbuf_puts(&x, "");
    al_strbuf_puts(&y, "");
    bool ok = ser(c, swap ? r : l, &x, depth + 1) && ser(c, swap ? l : r, &y, depth + 1);
    if (ok) {
        bool sym = !strcmp(norm, "==") || !strcmp(norm, "!=");
        bool flip = sym && strcmp(x.data, y.data) > 0;
        al_strbuf_printf(out, "(%s%s%s)", flip ? y.data : x.data, norm, flip ? x.data : y.data);
    }
    al_strbuf_free(&x);
    al_strbuf_free(&y);
    return ok;
}

static bool ser(ser_ctx *c, TSNode n, al_strbuf *out, int depth)
{
    if (depth > 40)
        return fail("an expression nested too deep");
    n = al_py_unparen(n);
    const al_pyfile *pf = c->k->pf;
    if (al_node_is(n, "integer") || al_node_is(n, "float")) {
        size_t len;
        const char *p = al_node_ptr(pf, n, &len);
        al_strbuf_append(out, p, len);
        return true;
    }
    if (al_node_is(n, "true") || al_node_is(n, "false") || al_node_is(n, "none")) {
        al_strbuf_puts(out, ts_node_type(n));
        return true;
    }
    if (al_node_is(n, "identifier"))
        return identifier(c, n, out, depth);
    if (al_node_is(n, "attribute")) {
        /* tl.int64 and the like: a constant of triton.language. */
        char *q = al_tf_resolve_tl(c->k, n);
        bool tl = q && al_str_starts_with(q, "triton.language.");
        if (tl)
            al_strbuf_printf(out, "tl.%s", q + 16);
        free(q);
        return tl ? true : fail("an attribute");
    }
    if (al_node_is(n, "call"))
        return call(c, n, out, depth);
    if (al_node_is(n, "comparison_operator"))
        return comparison(c, n, out, depth);
    if (al_node_is(n, "unary_operator")) {
        char *op = al_node_text(pf, al_node_field(n, "operator"));
        al_strbuf_printf(out, "(%s", op);
        free(op);
        if (!ser(c, al_node_field(n, "argument"), out, depth + 1))
            return false;
        al_strbuf_putc(out, ')');
        return true;
    }
    if (al_node_is(n, "binary_operator")) {
        TSNode opn = al_node_field(n, "operator");
        char *op = al_node_text(pf, opn);
        bool ok;
        if (!strcmp(op, "+") || !strcmp(op, "*") || !strcmp(op, "&") || !strcmp(op, "|")) {
            ok = commutative(c, n, op, out, depth);
        } else {
            al_strbuf_putc(out, '(');
            ok = ser(c, al_node_field(n, "left"), out, depth + 1);
            al_strbuf_puts(out, op);
            ok = ok && ser(c, al_node_field(n, "right"), out, depth + 1);
            al_strbuf_putc(out, ')');
        }
        free(op);
        return ok;
    }
    if (al_node_is(n, "boolean_operator")) {
        char *op = al_node_text(pf, al_node_field(n, "operator"));
        al_strbuf_putc(out, '(');
        bool ok = ser(c, al_node_field(n, "left"), out, depth + 1);
        al_strbuf_printf(out, " %s ", op);
        ok = ok && ser(c, al_node_field(n, "right"), out, depth + 1);
        al_strbuf_putc(out, ')');
        free(op);
        return ok;
    }
    return fail("an expression alloclint does not compare (a subscript, a broadcast)");
}

/* ------------------------------------------------------------------ */
/* One access                                                           */

typedef struct {
    char *texts[MAX_GUARDS];
    int n;
} guards;

static bool add_guard(ser_ctx *c, TSNode cond, guards *g)
{
    cond = al_py_unparen(cond);
    if (al_node_is(cond, "boolean_operator") &&
        al_node_text_eq(c->k->pf, al_node_field(cond, "operator"), "and"))
        return add_guard(c, al_node_field(cond, "left"), g) &&
               add_guard(c, al_node_field(cond, "right"), g);
    if (g->n == MAX_GUARDS)
        return fail("too many conditions");
    al_strbuf sb = {0};
    al_strbuf_puts(&sb, "");
    if (!ser(c, cond, &sb, 0)) {
        al_strbuf_free(&sb);
        return false;
    }
    for (int i = 0; i < g->n; i++)
        if (!strcmp(g->texts[i], sb.data)) {
            al_strbuf_free(&sb);
            return true;
        }
    g->texts[g->n++] = al_strbuf_detach(&sb);
    return true;
}

/* The conditions the access runs under: the `if` statements around it,
 * whose body it is in. A store runs for every program only outside any
 * loop; a load may sit in loops, whose variables the region names. */
static bool conditions(ser_ctx *c, TSNode site, bool store, guards *g)
{
    TSNode body = al_node_field(c->k->def, "body");
    TSNode child = site;
    for (TSNode q = ts_node_parent(site); !ts_node_is_null(q) && !ts_node_eq(q, body);
         child = q, q = ts_node_parent(q)) {
        if (al_node_is(q, "function_definition") || al_node_is(q, "lambda"))
            return fail("an access in a nested function");
        if (al_node_is(q, "if_statement")) {
            if (!ts_node_eq(child, al_node_field(q, "consequence")))
                continue; /* the condition itself: no guard of its own */
            if (!add_guard(c, al_node_field(q, "condition"), g))
                return false;
        } else if (al_node_is(q, "elif_clause") || al_node_is(q, "else_clause")) {
            return fail("an access in an `else` or `elif` branch");
        } else if (al_node_is(q, "for_statement") || al_node_is(q, "while_statement")) {
            if (store)
                return fail("a store in a loop");
        } else if (al_node_is(q, "try_statement") || al_node_is(q, "with_statement") ||
                   al_node_is(q, "conditional_expression")) {
            return fail("an access in a `try`, `with` or conditional expression");
        }
    }
    return true;
}

/* The innermost block around n. */
static TSNode block_of(TSNode n)
{
    for (TSNode q = ts_node_parent(n); !ts_node_is_null(q); q = ts_node_parent(q))
        if (al_node_is(q, "block"))
            return q;
    return (TSNode){0};
}

/* `tl.where(c, x, other)` whose x is the load (or a local the load is
 * assigned to and used nowhere else), in the load's block: lanes where c
 * is false are loaded and dropped, so only c's lanes are read. Its
 * condition, or a null node. */
static TSNode where_condition(ser_ctx *c, TSNode load)
{
    TSNode v = load, parent = ts_node_parent(load);
    while (al_node_is(parent, "parenthesized_expression"))
        v = parent, parent = ts_node_parent(parent);
    if (al_node_is(parent, "assignment") && al_node_is(al_node_field(parent, "left"), "identifier")) {
        char *name = al_node_text(c->k->pf, al_node_field(parent, "left"));
        TSNode body = al_node_field(c->k->def, "body");
        TSNode use = {0};
        /* The name's one use besides its binding. */
        if (al_py_count_ident(c->k->pf, body, name) == 2) {
            TSNode blk = block_of(parent);
            for (TSNode st = ts_node_next_named_sibling(ts_node_parent(parent));
                 !ts_node_is_null(st) && ts_node_is_null(use); st = ts_node_next_named_sibling(st))
                if (al_py_count_ident(c->k->pf, st, name) == 1)
                    use = al_py_first_ident(c->k->pf, st, name);
            if (!ts_node_is_null(use) && !ts_node_eq(block_of(use), blk))
                use = (TSNode){0};
        }
        free(name);
        if (ts_node_is_null(use))
            return use;
        v = use;
        parent = ts_node_parent(use);
    }
    TSNode call = ts_node_parent(parent);
    if (!al_node_is(parent, "argument_list") || !al_node_is(call, "call") ||
        !al_tf_is_tl(c->k, al_node_field(call, "function"), "where"))
        return (TSNode){0};
    al_py_args a;
    al_py_args_read(call, &a);
    if (a.npos != 3 || a.nall != 3 || !ts_node_eq(a.pos[1], v))
        return (TSNode){0};
    return a.pos[0];
}

static char *access_region(ser_ctx *c, TSNode site, bool store)
{
    al_py_args a;
    al_py_args_read(site, &a);
    TSNode ptr = a.npos > 0 ? a.pos[0] : (TSNode){0};
    TSNode mask = store ? (a.npos > 2 ? a.pos[2] : al_py_kwarg(c->k->pf, &a, "mask"))
                        : (a.npos > 1 ? a.pos[1] : al_py_kwarg(c->k->pf, &a, "mask"));
    if (ts_node_is_null(ptr) || a.splat) {
        fail("an access without its pointer in plain sight");
        return NULL;
    }
    c->site = site;
    guards g = {0};
    al_strbuf addr = {0}, m = {0};
    al_strbuf_puts(&addr, "");
    al_strbuf_puts(&m, "");
    c->buffer_seen = 0;
    c->address = true;
    bool ok = ser(c, ptr, &addr, 0);
    c->address = false;
    if (ok && c->buffer_seen != 1)
        ok = fail("a pointer that names the buffer more than once");
    int seen = c->buffer_seen;
    TSNode where = store ? (TSNode){0} : where_condition(c, site);
    if (ok && !ts_node_is_null(where) && !ts_node_is_null(mask)) {
        al_strbuf_puts(&m, "\x01&"); /* both: the lanes loaded and kept */
        ok = ser(c, mask, &m, 0);
        al_strbuf_putc(&m, '\x02');
        ok = ok && ser(c, where, &m, 0);
        al_strbuf_putc(&m, '\x03');
    } else if (ok) {
        TSNode lanes = !ts_node_is_null(where) ? where : mask;
        ok = ts_node_is_null(lanes) ? (al_strbuf_puts(&m, "1"), true) : ser(c, lanes, &m, 0);
    }
    ok = ok && conditions(c, site, store, &g);
    if (ok && c->buffer_seen != seen)
        ok = fail("a mask or condition that reads the buffer");
    /* Two kernels compute an integer condition alike; a float one each
     * compiles on its own (fused multiply-adds round otherwise). */
    for (int i = -1; i < g.n && ok; i++)
        if (float_arithmetic(i < 0 ? m.data : g.texts[i]))
            ok = fail("a mask or condition in floating point");
    char *out = NULL;
    if (ok) {
        qsort(g.texts, (size_t)g.n, sizeof g.texts[0], cmp_text);
        al_strbuf sb = {0};
        al_strbuf_printf(&sb, "A %s\nM %s", addr.data, m.data);
        for (int i = 0; i < g.n; i++)
            al_strbuf_printf(&sb, "\nG %s", g.texts[i]);
        out = al_strbuf_detach(&sb);
    }
    for (int i = 0; i < g.n; i++)
        free(g.texts[i]);
    al_strbuf_free(&addr);
    al_strbuf_free(&m);
    return out;
}

/* ------------------------------------------------------------------ */
/* The kernel's accesses of one parameter                               */

/* One parameter's accesses. */
typedef struct {
    TSNode stores[4], loads[8];
    int nstores, nloads;
    bool other; /* an atomic, a call, too many accesses */
} accesses;

/* Marks the parameters n names, itself or through locals assigned once:
 * `P + offs + BLOCK` may be read as based on BLOCK, and is P's too. A
 * value loaded through a pointer is not the pointer. */
static void named_params(const al_tf_kernel *k, TSNode n, bool *named, int depth)
{
    if (depth > 12)
        return;
    if (al_node_is(n, "identifier")) {
        size_t len;
        const char *p = al_node_ptr(k->pf, n, &len);
        int pi = al_tf_param_index(k, p, len);
        if (pi >= 0)
            named[pi] = true;
        int li = al_tf_local_of(k, p, len);
        if (li >= 0 && k->local_counts[li] == 1 && !ts_node_is_null(k->local_values[li]))
            named_params(k, k->local_values[li], named, depth + 1);
        return;
    }
    if (al_node_is(n, "call") && al_tf_is_tl(k, al_node_field(n, "function"), "load"))
        return;
    uint32_t m = ts_node_named_child_count(n);
    for (uint32_t i = 0; i < m; i++)
        named_params(k, ts_node_named_child(n, i), named, depth + 1);
}

/* Every parameter's stores and loads, in one walk; *exits when the kernel
 * returns, breaks or continues anywhere. */
static void scan(al_tf_kernel *k, TSNode n, accesses *x, bool *named, bool *exits, int depth)
{
    if (depth > 200)
        return;
    if (depth > 0 && (al_node_is(n, "function_definition") || al_node_is(n, "lambda")))
        return;
    if (al_node_is(n, "return_statement") || al_node_is(n, "break_statement") ||
        al_node_is(n, "continue_statement"))
        *exits = true;
    if (al_node_is(n, "call")) {
        TSNode fn = al_node_field(n, "function");
        bool store = al_tf_is_tl(k, fn, "store"), load = al_tf_is_tl(k, fn, "load");
        al_py_args a;
        al_py_args_read(n, &a);
        /* A store or load takes the pointer first; anything else (an
         * atomic, a helper) may take it anywhere. */
        int nargs = store || load ? (a.npos > 0 ? 1 : 0) : a.nall;
        for (int i = 0; i < nargs; i++) {
            TSNode arg = store || load ? a.pos[0] : a.all[i];
            if (al_node_is(arg, "keyword_argument"))
                arg = al_node_field(arg, "value");
            memset(named, 0, k->nparams * sizeof *named);
            if (store || load)
                named_params(k, arg, named, 0);
            al_tf_lin l = al_tf_form(k, arg, 0);
            int bt, base = al_tf_base_param(k, &l, &bt);
            if (base >= 0)
                named[base] = true;
            for (size_t pi = 0; pi < k->nparams; pi++) {
                accesses *e = &x[pi];
                if (!named[pi])
                    continue;
                if (store && e->nstores < 4)
                    e->stores[e->nstores++] = n;
                else if (load && e->nloads < 8)
                    e->loads[e->nloads++] = n;
                else
                    e->other = true;
            }
        }
    }
    uint32_t m = ts_node_named_child_count(n);
    for (uint32_t i = 0; i < m; i++)
        scan(k, ts_node_named_child(n, i), x, named, exits, depth + 1);
}

/* The region of one parameter from its accesses, or NULL. */
static char *template_of(al_tf_kernel *k, int param, const accesses *x, bool store)
{
    /* Not exactly one store and no load, or a store as well as loads: no
     * region. */
    if (x->other || (store && (x->nstores != 1 || x->nloads)) ||
        (!store && (x->nstores || !x->nloads)))
        return NULL;
    ser_ctx c = {.k = k, .param = param};
    char *out = NULL;
    if (store) {
        out = access_region(&c, x->stores[0], true);
    } else {
        al_strbuf sb = {0};
        bool ok = true;
        for (int i = 0; i < x->nloads && ok; i++) {
            char *r = access_region(&c, x->loads[i], false);
            if (r)
                al_strbuf_printf(&sb, "%s%s", i ? "\n--\n" : "", r);
            ok = r != NULL;
            free(r);
        }
        out = ok ? al_strbuf_detach(&sb) : (al_strbuf_free(&sb), NULL);
    }
    for (int i = 0; i < c.nloops; i++)
        free(c.extents[i]);
    return out;
}

void al_tregion_templates(al_tf_kernel *k, const signed char *want, char **out)
{
    memset(out, 0, k->nparams * sizeof *out);
    bool any = false;
    for (size_t i = 0; i < k->nparams; i++)
        any |= want[i] != 0;
    if (!any)
        return;
    accesses *x = al_xcalloc(k->nparams, sizeof *x);
    bool *named = al_xcalloc(k->nparams, sizeof *named);
    bool exits = false;
    scan(k, al_node_field(k->def, "body"), x, named, &exits, 0);
    /* An exit anywhere may skip a store or reach a load: no region. */
    for (size_t i = 0; i < k->nparams && !exits; i++)
        if (want[i])
            out[i] = template_of(k, (int)i, &x[i], want[i] > 0);
    free(named);
    free(x);
}
