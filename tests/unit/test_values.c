/* What a local name is bound to (analysis/values.h): the one binding a
 * rule may read a name's value from, and every way a second binding or
 * a parameter makes it unknown. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/values.h"

/* The text of the value `name` is bound to where `use(name)` reads it in
 * `body` (an indented function body of f(p)), or NULL. */
static char *binding_at_use(const char *body, const char *name)
{
    char text[2048];
    snprintf(text, sizeof text, "def f(p):\n%s", body);
    al_source src;
    al_source_from_memory(&src, "t.py", text, strlen(text));
    al_pyfile pf;
    assert_true(al_pyfile_parse(&pf, &src));
    TSNode root = ts_tree_root_node(pf.tree);
    TSNode func = ts_node_named_child(root, 0);
    assert_true(al_node_is(func, "function_definition"));
    /* the argument of the last `use(...)` call */
    char pattern[64];
    snprintf(pattern, sizeof pattern, "use(%s)", name);
    const char *at = NULL;
    for (const char *s = strstr(text, pattern); s; s = strstr(s + 1, pattern))
        at = s;
    assert_non_null(at);
    uint32_t off = (uint32_t)(at - text) + 4;
    TSNode arg = ts_node_named_descendant_for_byte_range(root, off, off + (uint32_t)strlen(name));
    assert_true(al_node_is(arg, "identifier"));
    TSNode v = al_value_single_binding(&pf, func, arg, arg);
    char *out = ts_node_is_null(v) ? NULL : al_node_text(&pf, v);
    al_pyfile_free(&pf);
    al_source_free(&src);
    return out;
}

static void assert_bound_to(const char *body, const char *name, const char *want)
{
    char *got = binding_at_use(body, name);
    if (!want) {
        if (got)
            fail_msg("expected no value, got `%s`", got);
        return;
    }
    assert_non_null(got);
    assert_string_equal(got, want);
    free(got);
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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(one_binding_before_the_use),
        cmocka_unit_test(unknown_values),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
