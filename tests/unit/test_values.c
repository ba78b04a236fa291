/* What a local name is bound to (analysis/python/values.h): the one binding a
 * rule may read a name's value from, and every way a second binding or
 * a parameter makes it unknown. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/python/values.h"

#include <stdbool.h>

/* `body` (an indented function body of f(p)) parsed, with f and the
 * argument of its last `use(name)` call. */
typedef struct {
    char text[2048];
    al_source src;
    al_pyfile pf;
    TSNode func, arg;
} use_site;

static void parse_use(use_site *u, const char *body, const char *name)
{
    snprintf(u->text, sizeof u->text, "def f(p):\n%s", body);
    al_source_from_memory(&u->src, "t.py", u->text, strlen(u->text));
    assert_true(al_pyfile_parse(&u->pf, &u->src));
    TSNode root = ts_tree_root_node(u->pf.tree);
    u->func = ts_node_named_child(root, 0);
    assert_true(al_node_is(u->func, "function_definition"));
    char pattern[64];
    snprintf(pattern, sizeof pattern, "use(%s)", name);
    const char *at = NULL;
    for (const char *s = strstr(u->text, pattern); s; s = strstr(s + 1, pattern))
        at = s;
    assert_non_null(at);
    uint32_t off = (uint32_t)(at - u->text) + 4;
    u->arg = ts_node_named_descendant_for_byte_range(root, off, off + (uint32_t)strlen(name));
    assert_true(al_node_is(u->arg, "identifier"));
}

static void free_use(use_site *u)
{
    al_pyfile_free(&u->pf);
    al_source_free(&u->src);
}

/* The text of the value `name` is bound to where `use(name)` reads it in
 * `body`, or NULL. */
static char *binding_at_use(const char *body, const char *name, bool reaching)
{
    use_site u;
    parse_use(&u, body, name);
    al_pyfile pf = u.pf;
    TSNode func = u.func, arg = u.arg;
    TSNode stmt = arg;
    while (!al_node_is(ts_node_parent(stmt), "block"))
        stmt = ts_node_parent(stmt);
    TSNode v = reaching ? al_value_reaching_binding(&pf, func, stmt, arg)
                        : al_value_single_binding(&pf, func, arg, arg);
    char *out = ts_node_is_null(v) ? NULL : al_node_text(&pf, v);
    free_use(&u);
    return out;
}

static void assert_value(const char *body, const char *name, bool reaching, const char *want)
{
    char *got = binding_at_use(body, name, reaching);
    if (!want) {
        if (got)
            fail_msg("expected no value, got `%s`", got);
        return;
    }
    assert_non_null(got);
    assert_string_equal(got, want);
    free(got);
}

static void assert_bound_to(const char *body, const char *name, const char *want)
{
    assert_value(body, name, false, want);
}

static void assert_reaches(const char *body, const char *name, const char *want)
{
    assert_value(body, name, true, want);
}

static void one_binding_before_the_use(void **state)
{
    (void)state;
    assert_bound_to("    a = np.array(p, dtype=np.int64)\n    use(a)\n", "a",
                    "np.array(p, dtype=np.int64)");
    /* a store into an element is no rebinding */
    assert_bound_to("    a = np.repeat(p, 2)\n    a[0] = 1\n    use(a)\n", "a", "np.repeat(p, 2)");
    /* a binding inside a nested function is that function's */
    assert_bound_to("    a = g(p)\n    def h():\n        a = 2\n    use(a)\n", "a", "g(p)");
}

static void unknown_values(void **state)
{
    (void)state;
    assert_bound_to("    use(p)\n", "p", NULL); /* a parameter */
    assert_bound_to("    p = g(p)\n    use(p)\n", "p", NULL); /* a parameter rebound */
    assert_bound_to("    a = 1\n    if p:\n        a = 2\n    use(a)\n", "a", NULL);
    assert_bound_to("    a = 1\n    a += p\n    use(a)\n", "a", NULL);
    /* bound after the use: a loop may bring the later value back */
    assert_bound_to("    for i in p:\n        use(a)\n        a = g(i)\n", "a", NULL);
    assert_bound_to("    for a in p:\n        use(a)\n", "a", NULL);
    assert_bound_to("    a, b = p\n    use(a)\n", "a", NULL);
    assert_bound_to("    with g(p) as a:\n        use(a)\n", "a", NULL);
    assert_bound_to("    use(a)\n", "a", NULL); /* a global */
}

/* The binding that reaches a use on every path: a name may be rebound
 * as long as the last binding before the use is the one that runs. */
static void reaching_bindings(void **state)
{
    (void)state;
    assert_reaches("    a = g(p)\n    a = a * 2.0\n    use(a)\n", "a", "a * 2.0");
    /* the use's own statement rebinding it reads the old value */
    assert_reaches("    a = g(p)\n    a = use(a)\n", "a", "g(p)");
    /* in a block: the binding before it in the block, or before the block */
    assert_reaches("    a = g(p)\n    if p:\n        use(a)\n", "a", "g(p)");
    assert_reaches("    a = g(p)\n    with h():\n        a = k(a)\n        use(a)\n", "a",
                   "k(a)");
    assert_reaches("    a = g(p)\n    if p:\n        x = 1\n    else:\n        use(a)\n", "a",
                   "g(p)");
    /* a binding in a branch beside the use's does not reach it */
    assert_reaches("    a = g(p)\n    if p:\n        a = 2\n    else:\n        use(a)\n", "a",
                   "g(p)");
    /* the statement after the use in its own block does not either */
    assert_reaches("    a = g(p)\n    with h():\n        use(a)\n        a = 3\n", "a", "g(p)");
}

static void no_reaching_binding(void **state)
{
    (void)state;
    assert_reaches("    use(p)\n", "p", NULL);
    assert_reaches("    use(a)\n", "a", NULL);
    /* two paths: either branch may have run */
    assert_reaches("    if p:\n        a = 1\n    else:\n        a = 2\n    use(a)\n", "a", NULL);
    /* a loop carries its later binding back */
    assert_reaches("    a = g(p)\n    for i in p:\n        use(a)\n        a = h(i)\n", "a",
                   NULL);
    assert_reaches("    a = g(p)\n    while p:\n        if i:\n            use(a)\n"
                   "        a = h(i)\n",
                   "a", NULL);
    /* other ways of binding */
    assert_reaches("    a, b = p\n    use(a)\n", "a", NULL);
    assert_reaches("    a = g(p)\n    a += 1\n    use(a)\n", "a", NULL);
    assert_reaches("    a = g(p)\n    with h() as a:\n        use(a)\n", "a", NULL);
    assert_reaches("    a = g(p)\n    from m import a\n    use(a)\n", "a", NULL);
    assert_reaches("    a = g(p)\n    if (a := h(p)):\n        use(a)\n", "a", NULL);
    assert_reaches("    a = g(p)\n    try:\n        a = h(p)\n    except E:\n        use(a)\n",
                   "a", NULL);
}

/* The texts of what `use(name)`'s argument keeps its rows from, joined by
 * " | ". */
static char *same_rows_at_use(const char *body, const char *name)
{
    use_site u;
    parse_use(&u, body, name);
    char *rows[8];
    size_t n = al_value_same_rows(&u.pf, u.func, u.arg, u.arg, rows, 8);
    size_t len = 1;
    for (size_t i = 0; i < n; i++)
        len += strlen(rows[i]) + 3;
    char *joined = calloc(1, len);
    for (size_t i = 0; i < n; i++) {
        if (i)
            strcat(joined, " | ");
        strcat(joined, rows[i]);
        free(rows[i]);
    }
    free_use(&u);
    return joined;
}

/* A concatenation along a later dimension keeps the rows of its first
 * part, and so do contiguous/to/float; along dimension 0, or bound twice,
 * it keeps nothing to name. */
static void rows_kept_through_bindings(void **state)
{
    (void)state;
    static const struct {
        const char *body, *want;
    } cases[] = {
        {"    q = torch.cat([q_nope, q_pe], dim=-1)\n    use(q)\n",
         "torch.cat([q_nope,q_pe],dim=-1) | q_nope"},
        {"    q = torch.cat((a, b), 2).contiguous()\n    use(q)\n",
         "torch.cat((a,b),2).contiguous() | torch.cat((a,b),2) | a"},
        {"    x = p.to(torch.float32)\n    use(x)\n", "p.to(torch.float32) | p"},
        {"    q = torch.cat([a, b], dim=0)\n    use(q)\n", "torch.cat([a,b],dim=0)"},
        {"    q = torch.cat([a, b], dim=1)\n    q = q * 2\n    use(q)\n", "q"},
        {"    q = torch.cat([*parts], dim=1)\n    use(q)\n", "torch.cat([*parts],dim=1)"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        const char *name = strstr(cases[i].body, "use(x)") ? "x" : "q";
        char *got = same_rows_at_use(cases[i].body, name);
        if (strcmp(got, cases[i].want))
            fail_msg("case %zu: got `%s`, want `%s`", i, got, cases[i].want);
        free(got);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(one_binding_before_the_use),
        cmocka_unit_test(unknown_values),
        cmocka_unit_test(reaching_bindings),
        cmocka_unit_test(no_reaching_binding),
        cmocka_unit_test(rows_kept_through_bindings),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
