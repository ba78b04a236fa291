/* Guarded regions (analysis/triton/region.c, core/regions.c): the region
 * a kernel's store writes or its loads read, as a template, and the
 * comparison of a read region with a written one. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/core/regions.h"
#include "analysis/python/module.h"
#include "analysis/triton/kernel.h"

static al_op_table ops;

static int load_ops(void **state)
{
    (void)state;
    al_ops_error err;
    return al_ops_load_builtin(&ops, &err) ? 0 : -1;
}

static int free_ops(void **state)
{
    (void)state;
    al_ops_free(&ops);
    return 0;
}

/* The template of parameter `param` of the one kernel in `body` (its
 * statements, indented), or NULL; *writes says which kind it is. */
static char *template_of(const char *params, const char *body, const char *param, bool *writes)
{
    char text[4096];
    snprintf(text, sizeof text,
             "import triton\nimport triton.language as tl\n\n@triton.jit\ndef k(%s):\n%s", params,
             body);
    al_source src;
    al_source_from_memory(&src, "k.py", text, strlen(text));
    al_pyfile pf;
    assert_true(al_pyfile_parse(&pf, &src));
    al_pymodule m;
    al_pymodule_build(&m, &pf, &ops, NULL);
    TSNode root = ts_tree_root_node(pf.tree);
    TSNode def = {0};
    for (uint32_t i = 0; i < ts_node_named_child_count(root); i++) {
        TSNode d = ts_node_named_child(root, i);
        if (al_node_is(d, "decorated_definition"))
            def = al_node_field(d, "definition");
    }
    assert_false(ts_node_is_null(def));
    al_kernel k;
    al_triton_summarise(&pf, &m, def, &k);
    char *out = NULL;
    for (size_t i = 0; i < k.n; i++)
        if (!strcmp(k.names[i], param) && k.params[i].region) {
            out = strdup(k.params[i].region);
            *writes = k.params[i].region_writes;
        }
    al_kernel_free(&k);
    al_pymodule_free(&m);
    al_pyfile_free(&pf);
    al_source_free(&src);
    return out;
}

static const char *const GUARDED_STORE =
    "    pid = tl.program_id(0)\n"
    "    n = tl.load(Lens + pid)\n"
    "    offs = tl.arange(0, BLOCK)\n"
    "    if n > 0:\n"
    "        tl.store(Out + pid * stride + offs, offs, mask=offs < n)\n";

static void guarded_store_has_a_region(void **state)
{
    (void)state;
    bool writes = false;
    char *r = template_of("Lens, Out, stride, BLOCK: tl.constexpr", GUARDED_STORE, "Out", &writes);
    assert_non_null(r);
    assert_true(writes);
    /* The address, the mask (its bound a load), and the condition, `n > 0`
     * read as `0 < n` with n replaced by its load. */
    assert_non_null(strstr(r, "A "));
    assert_non_null(strstr(r, "\nM (AR{$3$}<load("));
    assert_non_null(strstr(r, "\nG (0<load("));
    free(r);
}

static void store_in_a_loop_or_after_an_exit_has_none(void **state)
{
    (void)state;
    bool writes;
    const char *loop = "    pid = tl.program_id(0)\n"
                       "    offs = tl.arange(0, BLOCK)\n"
                       "    for i in range(2):\n"
                       "        tl.store(Out + pid * stride + offs, offs)\n";
    assert_null(template_of("Out, stride, BLOCK: tl.constexpr", loop, "Out", &writes));
    const char *exit = "    pid = tl.program_id(0)\n"
                       "    n = tl.load(Lens + pid)\n"
                       "    if n == 0:\n"
                       "        return\n"
                       "    offs = tl.arange(0, BLOCK)\n"
                       "    tl.store(Out + pid * stride + offs, offs, mask=offs < n)\n";
    assert_null(template_of("Lens, Out, stride, BLOCK: tl.constexpr", exit, "Out", &writes));
    const char *twice = "    pid = tl.program_id(0)\n"
                        "    offs = tl.arange(0, BLOCK)\n"
                        "    tl.store(Out + pid * stride + offs, offs)\n"
                        "    tl.store(Out + pid * stride + offs + BLOCK, offs)\n";
    assert_null(template_of("Out, stride, BLOCK: tl.constexpr", twice, "Out", &writes));
}

static void loads_under_a_loop_name_its_extent(void **state)
{
    (void)state;
    bool writes = true;
    const char *body = "    pid = tl.program_id(0)\n"
                       "    n = tl.load(Lens + pid)\n"
                       "    offs = tl.arange(0, BLOCK)\n"
                       "    acc = tl.zeros([BLOCK], dtype=tl.float32)\n"
                       "    for s in range(0, SPLITS):\n"
                       "        if s < n:\n"
                       "            acc += tl.load(Part + pid * stride + s * BLOCK + offs)\n"
                       "    tl.store(Out + pid * BLOCK + offs, acc)\n";
    char *r = template_of("Lens, Part, Out, stride, BLOCK: tl.constexpr, SPLITS: tl.constexpr",
                          body, "Part", &writes);
    assert_non_null(r);
    assert_false(writes);
    assert_non_null(strstr(r, "@{$5$}@")); /* s runs over range(SPLITS) */
    assert_non_null(strstr(r, "\nM 1"));    /* no mask */
    free(r);
}

static void float_sums_keep_their_grouping(void **state)
{
    (void)state;
    bool writes;
    /* Three loaded values summed: (a + b) + c is not a + (b + c) in
     * floats, so no operand list is marked for sorting; two operands are. */
    const char *body = "    pid = tl.program_id(0)\n"
                       "    a = tl.load(A + pid)\n"
                       "    b = tl.load(B + pid)\n"
                       "    c = tl.load(C + pid)\n"
                       "    if a + b + c > 0:\n"
                       "        tl.store(Out + pid, a)\n";
    char *r = template_of("A, B, C, Out", body, "Out", &writes);
    assert_non_null(r);
    const char *g = strstr(r, "\nG ");
    assert_non_null(g);
    /* The outer sum is written as grouped, its inner pair marked. */
    assert_int_equal(g[3 + strlen("(0<")], '(');
    assert_non_null(strstr(g, "\x01+"));
    free(r);
    /* A float literal, a cast to float or a true division in a condition:
     * each kernel compiles it on its own, and may round it otherwise. */
    const char *literal = "    pid = tl.program_id(0)\n"
                          "    a = tl.load(A + pid)\n"
                          "    if a * 0.5 > 1:\n"
                          "        tl.store(Out + pid, a)\n";
    assert_null(template_of("A, Out", literal, "Out", &writes));
    const char *division = "    pid = tl.program_id(0)\n"
                           "    a = tl.load(A + pid)\n"
                           "    if a / 3 > 1:\n"
                           "        tl.store(Out + pid, a)\n";
    assert_null(template_of("A, Out", division, "Out", &writes));
    const char *floor = "    pid = tl.program_id(0)\n"
                        "    a = tl.load(A + pid)\n"
                        "    if a // 3 > 1:\n"
                        "        tl.store(Out + pid, a)\n";
    r = template_of("A, Out", floor, "Out", &writes);
    assert_non_null(r);
    free(r);
}

static void where_lanes_are_the_loads_mask(void **state)
{
    (void)state;
    bool writes;
    const char *body = "    pid = tl.program_id(0)\n"
                       "    n = tl.load(Lens + pid)\n"
                       "    offs = tl.arange(0, BLOCK)\n"
                       "    s = tl.load(Scores + pid * BLOCK + offs)\n"
                       "    kept = tl.where(offs < n, s, 0.0)\n"
                       "    tl.store(Out + pid, tl.max(kept, 0))\n";
    char *r = template_of("Lens, Scores, Out, BLOCK: tl.constexpr", body, "Scores", &writes);
    assert_non_null(r);
    assert_non_null(strstr(r, "\nM (AR{$3$}<load("));
    free(r);
    /* Used twice: every lane is read. */
    const char *twice = "    pid = tl.program_id(0)\n"
                        "    n = tl.load(Lens + pid)\n"
                        "    offs = tl.arange(0, BLOCK)\n"
                        "    s = tl.load(Scores + pid * BLOCK + offs)\n"
                        "    kept = tl.where(offs < n, s, 0.0)\n"
                        "    tl.store(Out + pid, tl.max(kept, 0) + tl.max(s, 0))\n";
    r = template_of("Lens, Scores, Out, BLOCK: tl.constexpr", twice, "Scores", &writes);
    assert_non_null(r);
    assert_non_null(strstr(r, "\nM 1"));
    free(r);
}

static void reads_within_compares_lines(void **state)
{
    (void)state;
    const char *w = "A (out+x)\nM (a<n)\nG (0<n)";
    assert_true(al_region_reads_within("A (out+x)\nM (a<n)\nG (0<n)", w, NULL));
    /* A stricter reader: one more condition. */
    assert_true(al_region_reads_within("A (out+x)\nM (a<n)\nG (0<n)\nG (1<n)", w, NULL));
    /* Without the writer's condition, another mask, another address. */
    assert_false(al_region_reads_within("A (out+x)\nM (a<n)", w, NULL));
    const char *why;
    assert_false(al_region_reads_within("A (out+x)\nM 1\nG (0<n)", w, &why));
    assert_string_equal(why, "it loads under another mask than the store's");
    assert_false(al_region_reads_within("A (out+y)\nM (a<n)\nG (0<n)", w, NULL));
    /* Every load must fall inside. */
    assert_true(al_region_reads_within("A (out+x)\nM (a<n)\nG (0<n)\n--\nA (out+x)\nM (a<n)\nG (0<n)", w, NULL));
    assert_false(al_region_reads_within("A (out+x)\nM (a<n)\nG (0<n)\n--\nA (out+z)\nM (a<n)\nG (0<n)", w, NULL));
    assert_false(al_region_reads_within(NULL, w, NULL));
}

static void mentions_whole_names(void **state)
{
    (void)state;
    assert_true(al_region_mentions("A (load((i+lens))+out)", "lens", 4));
    assert_false(al_region_mentions("A (load((i+lens2))+out)", "lens", 4));
    assert_false(al_region_mentions("A (x.lens+out)", "lens", 4));
    assert_true(al_region_mentions("lens", "lens", 4));
    /* Its strides are metadata, not its elements. */
    assert_true(al_region_mentions("A (out+x.stride(0))", "x", 1));
    assert_false(al_region_reads_tensor("A (out+x.stride(0))", "x", 1));
    assert_true(al_region_reads_tensor("A (out+load((x+i)))", "x", 1));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(guarded_store_has_a_region),
        cmocka_unit_test(store_in_a_loop_or_after_an_exit_has_none),
        cmocka_unit_test(loads_under_a_loop_name_its_extent),
        cmocka_unit_test(float_sums_keep_their_grouping),
        cmocka_unit_test(where_lanes_are_the_loads_mask),
        cmocka_unit_test(reads_within_compares_lines),
        cmocka_unit_test(mentions_whole_names),
    };
    return cmocka_run_group_tests(tests, load_ops, free_ops);
}
