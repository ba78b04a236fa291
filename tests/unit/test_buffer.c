/* The analysis core's buffer facts on their own: for small functions,
 * what is proved about each allocation and, when nothing is, why. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/python/module.h"
#include "analysis/python/proofs.h"
#include "analysis/core/schema.h"

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

typedef struct {
    al_proof proof;
    al_block_reason block;
    size_t block_row;
    size_t n;
} verdict;

/* Facts of the first allocation in `body` (indented function body). */
static verdict facts_of(const char *body)
{
    char text[4096];
    snprintf(text, sizeof text, "import torch\nimport triton\n\ndef f(x, n, k, g):\n%s", body);
    al_source src;
    al_source_from_memory(&src, "t.py", text, strlen(text));
    al_pyfile pf;
    assert_true(al_pyfile_parse(&pf, &src));
    al_pymodule m;
    al_pymodule_build(&m, &pf, &ops, NULL);
    const al_buffers *b = al_proofs_of_module(&m);
    verdict v = {AL_PROOF_NONE, AL_BLOCK_NONE, 0, b->n};
    if (b->n) {
        v.proof = b->items[0].proof;
        v.block = b->items[0].block;
        v.block_row = b->items[0].block_row;
    }
    al_pymodule_free(&m);
    al_pyfile_free(&pf);
    al_source_free(&src);
    return v;
}

#define ROW(r) ((r) + 4) /* rows of the body start after the header */

static void full_write_is_proved(void **state)
{
    (void)state;
    verdict v = facts_of("    b = torch.zeros(n)\n    b.copy_(x)\n    return b\n");
    assert_int_equal(v.n, 1);
    assert_int_equal(v.proof, AL_PROOF_FULL_WRITE);
}

static void read_blocks_with_its_row(void **state)
{
    (void)state;
    verdict v = facts_of("    b = torch.zeros(n)\n    y = b * 2\n    b.copy_(x)\n    return y\n");
    assert_int_equal(v.proof, AL_PROOF_BLOCKED);
    assert_int_equal(v.block, AL_BLOCK_READ);
    assert_int_equal(v.block_row, ROW(2));
}

static void store_on_self_is_an_escape(void **state)
{
    (void)state;
    verdict v = facts_of("    b = torch.zeros(n)\n    x.buf = b\n    b.copy_(x)\n");
    assert_int_equal(v.block, AL_BLOCK_ESCAPE);
    assert_int_equal(v.block_row, ROW(2));
}

static void augmented_assignment_accumulates(void **state)
{
    (void)state;
    verdict v = facts_of("    b = torch.zeros(n)\n    b.copy_(x)\n    b += 1\n    return b\n");
    assert_int_equal(v.block, AL_BLOCK_ACCUMULATE);
}

static void scatter_with_reduce_accumulates(void **state)
{
    (void)state;
    verdict v = facts_of("    b = torch.zeros(n)\n    b.scatter_(0, k, x, reduce='add')\n    return b\n");
    assert_int_equal(v.block, AL_BLOCK_ACCUMULATE);
}

static void unknown_launch_escapes(void **state)
{
    (void)state;
    verdict v = facts_of("    b = torch.zeros(n + 128)\n    kern[g](x, b)\n    return b\n");
    /* `kern` is no known kernel: the call is an unknown callable. */
    assert_int_equal(v.block, AL_BLOCK_ESCAPE);
}

static void nonzero_offset_leaves_element_zero(void **state)
{
    (void)state;
    verdict v = facts_of("    b = torch.zeros(n + 1)\n    torch.cumsum(x, 0, out=b[1:])\n    return b\n");
    assert_int_equal(v.proof, AL_PROOF_BLOCKED);
    assert_int_equal(v.block, AL_BLOCK_ESCAPE); /* returned with element 0 unwritten */
    assert_int_equal(v.block_row, ROW(3));
    /* ... unless element 0 is written too. */
    v = facts_of("    b = torch.zeros(n + 1)\n    b[0] = 0\n"
                 "    torch.cumsum(x, 0, out=b[1:])\n    return b\n");
    assert_int_equal(v.proof, AL_PROOF_FULL_WRITE);
}

static void negative_index_completes_a_prefix(void **state)
{
    (void)state;
    verdict v = facts_of("    b = torch.zeros(n, 4)\n    b[:-1] = x\n    b[-1] = 0\n    return b\n");
    assert_int_equal(v.proof, AL_PROOF_FULL_WRITE);
    v = facts_of("    b = torch.zeros(n, 4)\n    b[:-1] = x\n    return b\n");
    assert_int_equal(v.proof, AL_PROOF_BLOCKED);
}

static void trailing_dims_via_ellipsis(void **state)
{
    (void)state;
    verdict v = facts_of("    b = torch.zeros(n, k, 2)\n    b[..., 0] = x\n    b[..., 1] = x\n    return b\n");
    assert_int_equal(v.proof, AL_PROOF_FULL_WRITE);
    v = facts_of("    b = torch.zeros(n, k, 2)\n    b[..., 0] = x\n    return b\n");
    assert_int_equal(v.proof, AL_PROOF_BLOCKED);
}

static void loop_rebinding_is_a_fresh_buffer(void **state)
{
    (void)state;
    /* `prev` keeps last iteration's buffer alive; it was written. */
    verdict v = facts_of("    prev = None\n    for i in range(k):\n        b = torch.zeros(n)\n"
                         "        b.copy_(x[i])\n        prev = b\n    return prev\n");
    assert_int_equal(v.proof, AL_PROOF_FULL_WRITE);
    /* Here the old buffer is read at the top of the next iteration,
     * before this iteration's write... of the new one: still written. */
    v = facts_of("    b = None\n    for i in range(k):\n        if b is not None:\n"
                 "            x.add_(b)\n        b = torch.zeros(n)\n        b.copy_(x)\n");
    assert_int_equal(v.proof, AL_PROOF_FULL_WRITE);
    /* Used before the write in the same iteration: blocked. */
    v = facts_of("    for i in range(k):\n        b = torch.zeros(n)\n        y = x + b\n"
                 "        b.copy_(y)\n");
    assert_int_equal(v.block, AL_BLOCK_READ);
    assert_int_equal(v.block_row, ROW(3));
}

static void while_true_exits_only_by_break(void **state)
{
    (void)state;
    verdict v = facts_of("    b = torch.zeros(n)\n    while True:\n        b.copy_(x)\n"
                         "        break\n    return b\n");
    assert_int_equal(v.proof, AL_PROOF_FULL_WRITE);
}

/* A schema's result: `-> Tensor` is a new tensor, `-> Tensor(a)` one of
 * the arguments, `-> ()` neither. */
static void schema_declares_results(void **state)
{
    (void)state;
    static const char bindings[] =
        "TORCH_LIBRARY(_eng_C, m) {\n"
        "  m.def(\"gemm(Tensor a, Tensor b) -> Tensor\");\n"
        "  m.def(\"split(Tensor a) -> (Tensor, Tensor)\");\n"
        "  m.def(\"rows(Tensor(a) x, int n) -> Tensor(a)\");\n"
        "  m.def(\"fill(Tensor! out, float v) -> ()\");\n"
        "}\n";
    al_op_table t = {0};
    assert_int_equal(al_schema_scan(bindings, sizeof bindings - 1, "b.cpp", &t), 4);
    const al_op_result *r = al_ops_find_result(&t, "torch.ops._eng_C.gemm");
    assert_non_null(r);
    assert_int_equal(r->returns, AL_RETURNS_NEW);
    assert_string_equal(r->origin, "b.cpp");
    r = al_ops_find_result(&t, "torch.ops._eng_C.gemm.default");
    assert_true(r && r->returns == AL_RETURNS_NEW);
    r = al_ops_find_result(&t, "torch.ops._eng_C.split");
    assert_true(r && r->returns == AL_RETURNS_NEW);
    r = al_ops_find_result(&t, "torch.ops._eng_C.rows");
    assert_true(r && r->returns == AL_RETURNS_ALIAS);
    assert_null(al_ops_find_result(&t, "torch.ops._eng_C.fill"));
    assert_null(al_ops_find_result(&t, "torch.ops.other_C.gemm"));
    al_ops_free(&t);
}

/* An extension's schema makes its ops known: `Tensor!` arguments may be
 * changed, which says nothing of reading them first (a GEMM's scales are
 * `Tensor!` and read), so without the implementation the fill is kept;
 * the others are read. */
static void schema_declares_outputs(void **state)
{
    (void)state;
    static const char bindings[] =
        "#include <torch/library.h>\n"
        "TORCH_LIBRARY_EXPAND(TORCH_EXTENSION_NAME, ops) {\n"
        "  ops.def(\"rms_norm(Tensor! out, Tensor input, Tensor weight, float eps) -> ()\");\n"
        "  ops.impl(\"rms_norm\", torch::kCUDA, &rms_norm);\n"
        "  ops.def(\n"
        "      \"fused_add_rms_norm(Tensor input, Tensor(a!) residual, \"\n"
        "      \"Tensor weight, float eps) -> ()\");\n"
        "}\n";
    assert_int_equal(al_schema_scan(bindings, sizeof bindings - 1, "torch_bindings.cpp", &ops), 2);
    assert_non_null(al_ops_find_output(&ops, "torch.ops._C.rms_norm", 0, NULL, 0));
    assert_null(al_ops_find_output(&ops, "torch.ops._C.rms_norm", 1, NULL, 0));
    assert_non_null(al_ops_find_output(&ops, "torch.ops._C.fused_add_rms_norm", 1, NULL, 0));
    assert_null(al_ops_find_output(&ops, "torch.ops._C.fused_add_rms_norm", 0, NULL, 0));
    /* TORCH_EXTENSION_NAME is the build's choice: any namespace, same op. */
    assert_non_null(al_ops_find_output(&ops, "torch.ops._moe_C.rms_norm", 0, NULL, 0));
    assert_null(al_ops_find_output(&ops, "torch.ops._moe_C.rms_norm_", 0, NULL, 0));
    assert_null(al_ops_find_output(&ops, "torch.ops.rms_norm", 0, NULL, 0));

    verdict v = facts_of("    b = torch.zeros(n)\n    torch.ops._C.rms_norm(b, x, x, 1e-6)\n    return b\n");
    assert_int_equal(v.proof, AL_PROOF_BLOCKED);
    assert_int_equal(v.block, AL_BLOCK_CALLEE);
    assert_int_equal(v.block_row, ROW(2));
    v = facts_of("    b = torch.zeros(n)\n    torch.ops._C.rms_norm(x, b, x, 1e-6)\n    return b\n");
    assert_int_equal(v.proof, AL_PROOF_BLOCKED);
    assert_int_equal(v.block, AL_BLOCK_READ);
    assert_int_equal(v.block_row, ROW(2));
}

static void deep_nesting_is_skipped_not_crashed(void **state)
{
    (void)state;
    static char body[200000];
    size_t k = 0;
    k += (size_t)snprintf(body + k, sizeof body - k, "    b = torch.zeros(n)\n    y = (");
    for (int i = 0; i < 3000; i++)
        body[k++] = '(';
    body[k++] = 'b';
    for (int i = 0; i < 3000; i++)
        body[k++] = ')';
    k += (size_t)snprintf(body + k, sizeof body - k, ")\n    b.copy_(x)\n");
    body[k] = '\0';
    const char *head = "import torch\ndef f(x, n):\n";
    char *text = malloc(strlen(head) + k + 1);
    strcpy(text, head);
    strcat(text, body);
    al_source src;
    al_source_from_memory(&src, "t.py", text, strlen(text));
    al_pyfile pf;
    assert_true(al_pyfile_parse(&pf, &src));
    al_pymodule m;
    al_pymodule_build(&m, &pf, &ops, NULL);
    assert_int_equal(al_proofs_of_module(&m)->n, 0);
    assert_int_equal(m.skipped_deep, 1);
    al_pymodule_free(&m);
    al_pyfile_free(&pf);
    al_source_free(&src);
    free(text);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(full_write_is_proved),
        cmocka_unit_test(read_blocks_with_its_row),
        cmocka_unit_test(store_on_self_is_an_escape),
        cmocka_unit_test(augmented_assignment_accumulates),
        cmocka_unit_test(scatter_with_reduce_accumulates),
        cmocka_unit_test(unknown_launch_escapes),
        cmocka_unit_test(nonzero_offset_leaves_element_zero),
        cmocka_unit_test(negative_index_completes_a_prefix),
        cmocka_unit_test(trailing_dims_via_ellipsis),
        cmocka_unit_test(loop_rebinding_is_a_fresh_buffer),
        cmocka_unit_test(schema_declares_results),
        cmocka_unit_test(schema_declares_outputs),
        cmocka_unit_test(while_true_exits_only_by_break),
        cmocka_unit_test(deep_nesting_is_skipped_not_crashed),
    };
    return cmocka_run_group_tests(tests, load_ops, free_ops);
}
