#include "rebinding.h"

#include "../../front/python/scopes.h"
#include "../../front/pylex.h"

#include "../../base/util.h"

#include <string.h>

/* Where name sits in a flat unpacking `a, b = ...` (no starred or nested
 * target), or -1. */
int al_unpacked_position(const al_pyfile *pf, TSNode left, const char *name)
{
    if (!al_node_is(left, "pattern_list") && !al_node_is(left, "tuple_pattern"))
        return -1;
    int at = -1;
    for (uint32_t i = 0; i < ts_node_named_child_count(left); i++) {
        TSNode t = ts_node_named_child(left, i);
        if (!al_node_is(t, "identifier"))
            return -1;
        if (al_node_text_eq(pf, t, name))
            at = (int)i;
    }
    return at;
}

bool al_rebind_updates_itself(const al_pyfile *pf, TSNode v, const char *name)
{
    v = al_py_unparen(v);
    if (al_node_is(v, "binary_operator"))
        return al_node_text_eq(pf, al_py_unparen(al_node_field(v, "left")), name) ||
               al_node_text_eq(pf, al_py_unparen(al_node_field(v, "right")), name);
    if (al_node_is(v, "subscript"))
        return al_node_text_eq(pf, al_node_field(v, "value"), name);
    if (al_node_is(v, "call") && al_node_is(al_node_field(v, "function"), "attribute"))
        return al_node_text_eq(pf, al_node_field(al_node_field(v, "function"), "object"), name);
    return false;
}

/* Whether statement st rebinds name to a value that is not a view of
 * what name held (`x = self.proj(x)`, `x, _ = f(x)`, `x = x * k`; not
 * `x = x.view(...)` or `x = x[1:]`). */
static bool rebinds_anew(const al_pyfile *pf, TSNode st, const char *name)
{
    if (al_node_is(st, "expression_statement") && ts_node_named_child_count(st) == 1)
        st = ts_node_named_child(st, 0);
    if (!al_node_is(st, "assignment"))
        return false;
    TSNode left = al_node_field(st, "left"), right = al_py_unparen(al_node_field(st, "right"));
    if (ts_node_is_null(right))
        return false;
    if (al_node_is(left, "identifier"))
        return al_node_text_eq(pf, left, name) &&
               (!al_rebind_updates_itself(pf, right, name) || al_node_is(right, "binary_operator"));
    return al_unpacked_position(pf, left, name) >= 0;
}

/* The last statement that every path from the start of func to `at`
 * passes and that rebinds name anew: one in the same block before it, or
 * before a block around it (an `if`'s branch, a loop's body, a `with`);
 * null when some path skips every rebinding. */
TSNode al_rebound_before(const al_pyfile *pf, TSNode func, TSNode at, const char *name)
{
    TSNode body = al_node_field(func, "body");
    for (TSNode n = at; !ts_node_is_null(n) && !ts_node_eq(n, func);) {
        TSNode par = ts_node_parent(n);
        if (al_node_is(par, "block"))
            for (TSNode p = ts_node_prev_named_sibling(n); !ts_node_is_null(p);
                 p = ts_node_prev_named_sibling(p))
                if (rebinds_anew(pf, p, name))
                    return p;
        if (ts_node_eq(par, body))
            break;
        n = par;
    }
    return (TSNode){0};
}

/* Whether use sits in the right side of `name = f(name)` or `name, _ =
 * f(name)`: it reads the value before the rebinding, which the returned
 * one can be only if f returns it (and then the binding is not new). */
bool al_rebinding_reads_old(const al_pyfile *pf, TSNode use, const char *name)
{
    for (TSNode c = use, p = ts_node_parent(use); !ts_node_is_null(p); c = p, p = ts_node_parent(p)) {
        if (al_node_is(p, "assignment")) {
            if (!ts_node_eq(al_node_field(p, "right"), c))
                return false;
            TSNode left = al_node_field(p, "left");
            return (al_node_is(left, "identifier") && al_node_text_eq(pf, left, name)) ||
                   al_unpacked_position(pf, left, name) >= 0;
        }
        if (al_node_is(p, "expression_statement") || al_node_is(p, "block"))
            return false;
    }
    return false;
}

/* Whether use is an argument of a kernel launch `kernel[grid](...)`: a
 * launch reads and writes its tensors, and keeps none of them. */
bool al_launch_argument(TSNode use)
{
    TSNode args = ts_node_parent(use);
    if (!al_node_is(args, "argument_list"))
        return false;
    TSNode call = ts_node_parent(args);
    return al_node_is(call, "call") && al_node_is(al_node_field(call, "function"), "subscript");
}

/* Whether use certainly keeps the value alive past the function: stored
 * into an attribute or an element (`self.cache = x`, `d[k] = x`), or put
 * into a container (`items.append(x)`). A call that may keep it is only
 * assumed not to. */
bool al_use_surely_kept(const al_pyfile *pf, TSNode use)
{
    TSNode par = ts_node_parent(use);
    if (al_node_is(par, "assignment") && ts_node_eq(al_node_field(par, "right"), use)) {
        TSNode left = al_node_field(par, "left");
        return al_node_is(left, "attribute") || al_node_is(left, "subscript");
    }
    if (!al_node_is(par, "argument_list"))
        return false;
    TSNode fn = al_node_field(ts_node_parent(par), "function");
    static const char *const puts_in[] = {"append", "extend", "insert", "add", "appendleft",
                                          "setdefault", "put", "put_nowait", NULL};
    size_t len;
    const char *meth = al_node_is(fn, "attribute")
                           ? al_node_ptr(pf, al_node_field(fn, "attribute"), &len)
                           : NULL;
    return meth && al_str_in_list(puts_in, meth, len);
}


typedef struct {
    const al_pyfile *pf;
    const char *name;
    uint32_t from;
    TSNode use;
} read_after;

static al_visit visit_read_after(TSNode n, void *arg)
{
    read_after *r = arg;
    if (!ts_node_is_null(r->use))
        return AL_VISIT_OVER;
    if (ts_node_end_byte(n) <= r->from)
        return AL_VISIT_OVER;
    if (al_node_is(n, "identifier") && ts_node_start_byte(n) >= r->from &&
        al_node_text_eq(r->pf, n, r->name)) {
        TSNode par = ts_node_parent(n);
        bool bound = al_node_is(par, "assignment") && ts_node_eq(al_node_field(par, "left"), n);
        if (!bound)
            r->use = n;
    }
    return AL_VISIT_INTO;
}

TSNode al_read_after(const al_pyfile *pf, TSNode func, TSNode after, const char *name)
{
    read_after r = {pf, name, ts_node_end_byte(after), {{0}, NULL, NULL}};
    al_node_preorder(al_node_field(func, "body"), visit_read_after, &r);
    return r.use;
}

/* The names and attribute paths e reads (`n`, `self.max_bs`, the root of
 * `x.shape[0]`), as text, at most max. */
static size_t read_paths(const al_pyfile *pf, TSNode e, char **out, size_t n, size_t max,
                         int depth)
{
    if (depth > 100 || n >= max)
        return n;
    if (al_node_is(e, "identifier") || al_node_is(e, "attribute")) {
        out[n++] = al_node_text_compact(pf, e);
        if (al_node_is(e, "attribute"))
            n = read_paths(pf, al_node_field(e, "object"), out, n, max, depth + 1);
        return n;
    }
    if (al_node_is(e, "keyword_argument"))
        return read_paths(pf, al_node_field(e, "value"), out, n, max, depth + 1);
    uint32_t k = ts_node_named_child_count(e);
    for (uint32_t i = 0; i < k; i++)
        n = read_paths(pf, ts_node_named_child(e, i), out, n, max, depth + 1);
    return n;
}

/* A binding or store target under t spelled `path`. */
static bool target_spells(const al_pyfile *pf, TSNode t, const char *path, int depth)
{
    if (depth > 50 || ts_node_is_null(t))
        return false;
    if (al_node_is(t, "identifier") || al_node_is(t, "attribute")) {
        char *s = al_node_text_compact(pf, t);
        bool same = !strcmp(s, path);
        free(s);
        return same;
    }
    if (al_node_is(t, "subscript"))
        return false; /* a store into it, which does not rebind it */
    uint32_t k = ts_node_named_child_count(t);
    for (uint32_t i = 0; i < k; i++)
        if (target_spells(pf, ts_node_named_child(t, i), path, depth + 1))
            return true;
    return false;
}

typedef struct {
    const al_pyfile *pf;
    char **paths;
    size_t n;
    TSNode st, func;
    uint32_t from; /* nothing ending before it can follow st */
    TSNode found;
} rebinds;

static bool may_follow(const rebinds *r, TSNode n)
{
    if (ts_node_start_byte(n) >= ts_node_end_byte(r->st))
        return true;
    for (TSNode p = ts_node_parent(r->st); !ts_node_is_null(p) && !ts_node_eq(p, r->func);
         p = ts_node_parent(p))
        if ((al_node_is(p, "for_statement") || al_node_is(p, "while_statement")) &&
            ts_node_start_byte(n) >= ts_node_start_byte(p) &&
            ts_node_end_byte(n) <= ts_node_end_byte(p))
            return true;
    return false;
}

/* What n binds, when it is a binding (an assignment, `for`, a walrus,
 * `as`, `del`, `global`, `nonlocal`): its target, else a null node. */
static TSNode binding_target(TSNode n)
{
    if (al_node_is(n, "assignment") || al_node_is(n, "augmented_assignment") ||
        al_node_is(n, "for_statement"))
        return al_node_field(n, "left");
    if (al_node_is(n, "named_expression"))
        return al_node_field(n, "name");
    if (al_node_is(n, "as_pattern_target") || al_node_is(n, "delete_statement") ||
        al_node_is(n, "nonlocal_statement") || al_node_is(n, "global_statement"))
        return n;
    return (TSNode){0};
}

/* Whether binding n binds one of r's paths where it can follow r->st. */
static bool rebinds_path(const rebinds *r, TSNode n)
{
    if (ts_node_end_byte(n) <= r->from)
        return false;
    TSNode target = binding_target(n);
    /* The target of a `for` around st is bound as each pass starts,
     * before st makes the buffer the pass then writes. */
    bool header = al_node_is(n, "for_statement") && ts_node_start_byte(n) <= ts_node_start_byte(r->st) &&
                  ts_node_end_byte(n) >= ts_node_end_byte(r->st);
    if (ts_node_is_null(target) || header || !may_follow(r, n))
        return false;
    for (size_t i = 0; i < r->n; i++)
        if (target_spells(r->pf, target, r->paths[i], 0))
            return true;
    return false;
}

/* Before b in a walk of the tree from the top (its start first, the
 * outer of two that start together). */
static bool walked_before(TSNode a, TSNode b)
{
    if (ts_node_is_null(b))
        return true;
    uint32_t as = ts_node_start_byte(a), bs = ts_node_start_byte(b);
    return as < bs || (as == bs && ts_node_end_byte(a) > ts_node_end_byte(b));
}

/* Nodes no target holds between it and the name it binds (a target is
 * read through anything but a name, an attribute and a subscript, which
 * stop it): above one of them, id is in no target. */
static bool outside_targets(TSNode n)
{
    return al_node_is(n, "attribute") || al_node_is(n, "subscript") || al_node_is(n, "call") ||
           al_node_is(n, "argument_list") || al_node_is(n, "keyword_argument") ||
           al_node_is(n, "binary_operator") || al_node_is(n, "boolean_operator") ||
           al_node_is(n, "comparison_operator") || al_node_is(n, "unary_operator") ||
           al_node_is(n, "not_operator") || al_node_is(n, "conditional_expression") ||
           al_node_is(n, "lambda") || al_node_is(n, "string") || al_node_is(n, "dictionary") ||
           al_node_is(n, "pair") || al_node_is(n, "list_comprehension") ||
           al_node_is(n, "set_comprehension") || al_node_is(n, "dictionary_comprehension") ||
           al_node_is(n, "generator_expression") || al_node_is(n, "block") ||
           al_node_is(n, "expression_statement") || al_node_is(n, "return_statement") ||
           al_node_is(n, "if_statement") || al_node_is(n, "while_statement");
}

/* The binding whose target may spell a path ending in id: id, or the
 * attribute chain it ends (`self.n`), read up through what a target is
 * made of to the first binding; a null node when a node on the way
 * shows id is in no target. */
static TSNode binding_above(TSNode id, TSNode body)
{
    TSNode e = id, p = ts_node_parent(id);
    while (al_node_is(p, "attribute") && ts_node_eq(al_node_field(p, "attribute"), e)) {
        e = p;
        p = ts_node_parent(p);
    }
    for (; !ts_node_is_null(p) && !ts_node_eq(p, body); p = ts_node_parent(p)) {
        if (!ts_node_is_null(binding_target(p)))
            return p;
        if (outside_targets(p))
            break;
    }
    return (TSNode){0};
}

/* The bindings of word's spellings in [lo, hi) of body: a target that
 * spells a path holds its last word, so each binding that rebinds one is
 * an ancestor of such an identifier; the first of them, as a walk from
 * the top would meet it. */
static void rebinds_at(rebinds *r, TSNode body, const char *lo, const char *hi, const char *word)
{
    size_t wl = strlen(word);
    const char *base = r->pf->src->bytes;
    for (const char *q = lo; wl && (q = memmem(q, (size_t)(hi - q), word, wl)) != NULL; q += wl) {
        if ((q > base && al_lex_ident_char((unsigned char)q[-1])) ||
            (q + wl < hi && al_lex_ident_char((unsigned char)q[wl])))
            continue;
        uint32_t at = (uint32_t)(q - base);
        TSNode id = ts_node_descendant_for_byte_range(body, at, at + (uint32_t)wl);
        if (!al_node_is(id, "identifier"))
            continue;
        TSNode b = binding_above(id, body);
        if (!ts_node_is_null(b) && walked_before(b, r->found) && rebinds_path(r, b))
            r->found = b;
    }
}

/* `n` of `self.n`, or the name itself. */
static const char *last_word(const char *path)
{
    const char *dot = strrchr(path, '.');
    return dot ? dot + 1 : path;
}

TSNode al_rebound_after(const al_pyfile *pf, TSNode func, TSNode st, TSNode e)
{
    char *paths[32];
    size_t n = read_paths(pf, e, paths, 0, 32, 0);
    /* Where a binding that matters may be: after st, or anywhere in the
     * outermost loop around it. */
    uint32_t from = ts_node_end_byte(st);
    for (TSNode p = ts_node_parent(st); !ts_node_is_null(p) && !ts_node_eq(p, func);
         p = ts_node_parent(p))
        if (al_node_is(p, "for_statement") || al_node_is(p, "while_statement"))
            from = ts_node_start_byte(p);
    rebinds r = {pf, paths, n, st, func, from, {{0}, NULL, NULL}};
    TSNode body = al_node_field(func, "body");
    size_t blen;
    const char *start = al_node_ptr(pf, body, &blen);
    const char *lo = pf->src->bytes + from, *hi = start + blen;
    lo = lo > start ? lo : start;
    bool maybe = false;
    for (size_t i = 0; i < n && !maybe; i++)
        maybe = lo < hi && al_py_bytes_may_bind(lo, hi, last_word(paths[i]));
    /* Each last word once (`a.n` and `b.n` share one). */
    for (size_t i = 0; i < n && maybe; i++) {
        bool seen = false;
        for (size_t k = 0; k < i && !seen; k++)
            seen = !strcmp(last_word(paths[k]), last_word(paths[i]));
        if (!seen)
            rebinds_at(&r, body, lo, hi, last_word(paths[i]));
    }
    for (size_t i = 0; i < n; i++)
        free(paths[i]);
    return r.found;
}

static bool spells(const al_pyfile *pf, TSNode id, const char *name, size_t len)
{
    size_t l;
    const char *p = al_node_ptr(pf, id, &l);
    return l == len && memcmp(p, name, len) == 0;
}

/* Whether a binding target (a name, or a tuple of them) binds `name`. */
static bool target_binds(const al_pyfile *pf, TSNode target, const char *name, size_t len)
{
    if (al_node_is(target, "identifier"))
        return spells(pf, target, name, len);
    if (al_node_is(target, "pattern_list") || al_node_is(target, "tuple_pattern") ||
        al_node_is(target, "list_pattern") || al_node_is(target, "list_splat_pattern") ||
        al_node_is(target, "parenthesized_expression")) {
        uint32_t k = ts_node_named_child_count(target);
        for (uint32_t i = 0; i < k; i++)
            if (target_binds(pf, ts_node_named_child(target, i), name, len))
                return true;
    }
    return false;
}

static bool assigns_name(const al_pyfile *pf, TSNode n, const char *name, size_t len, int depth)
{
    if (depth > 100)
        return true;
    const char *t = ts_node_type(n);
    if (!strcmp(t, "assignment") || !strcmp(t, "augmented_assignment") ||
        !strcmp(t, "for_statement") || !strcmp(t, "named_expression") ||
        !strcmp(t, "as_pattern_target")) {
        TSNode left = !strcmp(t, "as_pattern_target")  ? n
                      : !strcmp(t, "named_expression") ? al_node_field(n, "name")
                                                       : al_node_field(n, "left");
        if (!ts_node_is_null(left) && target_binds(pf, left, name, len))
            return true;
    }
    uint32_t k = ts_node_named_child_count(n);
    for (uint32_t i = 0; i < k; i++)
        if (assigns_name(pf, ts_node_named_child(n, i), name, len, depth + 1))
            return true;
    return false;
}

static size_t count_name(const al_pyfile *pf, TSNode n, const char *name, size_t len, int depth)
{
    if (depth > 100)
        return 1000;
    if (al_node_is(n, "identifier"))
        return spells(pf, n, name, len) ? 1 : 0;
    if (al_node_is(n, "attribute"))
        return count_name(pf, al_node_field(n, "object"), name, len, depth + 1);
    size_t total = 0;
    uint32_t k = ts_node_named_child_count(n);
    for (uint32_t i = 0; i < k; i++)
        total += count_name(pf, ts_node_named_child(n, i), name, len, depth + 1);
    return total;
}

bool al_assigns_name(const al_pyfile *pf, TSNode n, const char *name, size_t len)
{
    return assigns_name(pf, n, name, len, 0);
}

size_t al_count_name(const al_pyfile *pf, TSNode n, const char *name, size_t len)
{
    return count_name(pf, n, name, len, 0);
}

TSNode al_last_binding_before(const al_pyfile *pf, TSNode func, TSNode stmt, const char *name,
                              bool unpacked, TSNode *at)
{
    TSNode v = {0};
    if (at)
        *at = (TSNode){0};
    TSTreeCursor cur = ts_tree_cursor_new(al_node_field(func, "body"));
    bool more = ts_tree_cursor_goto_first_child(&cur);
    while (more) {
        TSNode n = ts_tree_cursor_current_node(&cur);
        if (ts_node_start_byte(n) >= ts_node_start_byte(stmt))
            break;
        if (al_node_is(n, "assignment") &&
            ((al_node_is(al_node_field(n, "left"), "identifier") &&
              al_node_text_eq(pf, al_node_field(n, "left"), name)) ||
             (unpacked && al_unpacked_position(pf, al_node_field(n, "left"), name) >= 0))) {
            v = al_node_field(n, "right");
            if (at)
                *at = n;
        }
        bool nested = al_node_is(n, "function_definition") || al_node_is(n, "class_definition") ||
                      al_node_is(n, "lambda");
        if (!nested && ts_tree_cursor_goto_first_child(&cur))
            continue;
        while (!(more = ts_tree_cursor_goto_next_sibling(&cur)))
            if (!ts_tree_cursor_goto_parent(&cur)) {
                more = false;
                break;
            }
    }
    ts_tree_cursor_delete(&cur);
    return v;
}
