/* The dtype reader (analysis/python/dtype.h): each library's own names, the
 * builtins, strings only for NumPy, and whatever else is unknown. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "analysis/python/dtype.h"

/* A module parsed and built from text; it stays where it is made (the
 * module points into it). */
typedef struct {
    al_source src;
    al_pyfile pf;
    al_op_table ops;
    al_pymodule m;
} parsed;

static void parse(parsed *p, const char *text)
{
    memset(p, 0, sizeof *p);
    al_source_from_memory(&p->src, "t.py", text, strlen(text));
    assert_true(al_pyfile_parse(&p->pf, &p->src));
    al_pymodule_build(&p->m, &p->pf, &p->ops, NULL);
}

static void parsed_free(parsed *p)
{
    al_pymodule_free(&p->m);
    al_pyfile_free(&p->pf);
    al_source_free(&p->src);
}

/* What `x = <expr>` reads as under the imports below. */
static al_dtype dtype_of(const char *expr, al_dtype_library lib)
{
    char text[512];
    snprintf(text, sizeof text, "import torch as th\nimport numpy as np\nx = %s\n", expr);
    parsed p;
    parse(&p, text);
    TSNode stmt = ts_node_named_child(p.pf.root, 2);
    TSNode value = al_node_field(ts_node_named_child(stmt, 0), "right");
    al_dtype d = al_dtype_read(&p.m, value, lib);
    parsed_free(&p);
    return d;
}

static void assert_dtype(const char *expr, al_dtype_library lib, al_dtype_kind kind, int bits)
{
    al_dtype d = dtype_of(expr, lib);
    if (d.kind != kind || d.bits != bits)
        fail_msg("`%s`: kind %d, %d bits; want kind %d, %d bits", expr, d.kind, d.bits, kind,
                 bits);
}

static void torch_names(void **state)
{
    (void)state;
    assert_dtype("th.int32", AL_DTYPE_TORCH, AL_DTYPE_SIGNED, 32);
    assert_dtype("th.int", AL_DTYPE_TORCH, AL_DTYPE_SIGNED, 32);
    assert_dtype("th.long", AL_DTYPE_TORCH, AL_DTYPE_SIGNED, 64);
    assert_dtype("th.float", AL_DTYPE_TORCH, AL_DTYPE_FLOAT, 32);
    assert_dtype("th.bfloat16", AL_DTYPE_TORCH, AL_DTYPE_FLOAT, 16);
    assert_dtype("th.bool", AL_DTYPE_TORCH, AL_DTYPE_BOOL, 8);
    assert_dtype("th.uint8", AL_DTYPE_TORCH, AL_DTYPE_UNSIGNED, 8);
    assert_dtype("int", AL_DTYPE_TORCH, AL_DTYPE_SIGNED, 64);
    assert_dtype("float", AL_DTYPE_TORCH, AL_DTYPE_FLOAT, 64);
    /* torch takes no strings; NumPy's names are not torch's */
    assert_dtype("'int32'", AL_DTYPE_TORCH, AL_DTYPE_UNKNOWN, 0);
    assert_dtype("np.int32", AL_DTYPE_TORCH, AL_DTYPE_UNKNOWN, 0);
    assert_dtype("th.int_", AL_DTYPE_TORCH, AL_DTYPE_UNKNOWN, 0);
}

static void numpy_names(void **state)
{
    (void)state;
    assert_dtype("np.int_", AL_DTYPE_NUMPY, AL_DTYPE_SIGNED, 64);
    assert_dtype("np.intp", AL_DTYPE_NUMPY, AL_DTYPE_SIGNED, 64);
    assert_dtype("np.single", AL_DTYPE_NUMPY, AL_DTYPE_FLOAT, 32);
    assert_dtype("np.bool_", AL_DTYPE_NUMPY, AL_DTYPE_BOOL, 8);
    assert_dtype("\"int32\"", AL_DTYPE_NUMPY, AL_DTYPE_SIGNED, 32);
    assert_dtype("'float64'", AL_DTYPE_NUMPY, AL_DTYPE_FLOAT, 64);
    assert_dtype("bool", AL_DTYPE_NUMPY, AL_DTYPE_BOOL, 8);
    /* `np.int` is not NumPy's int32 the way `torch.int` is torch's */
    assert_dtype("np.long", AL_DTYPE_NUMPY, AL_DTYPE_UNKNOWN, 0);
    assert_dtype("th.float32", AL_DTYPE_NUMPY, AL_DTYPE_UNKNOWN, 0);
}

static void everything_else_is_unknown(void **state)
{
    (void)state;
    assert_dtype("x.dtype", AL_DTYPE_TORCH, AL_DTYPE_UNKNOWN, 0);
    assert_dtype("self.dtype", AL_DTYPE_NUMPY, AL_DTYPE_UNKNOWN, 0);
    assert_dtype("th.float8", AL_DTYPE_TORCH, AL_DTYPE_UNKNOWN, 0);
    assert_dtype("None", AL_DTYPE_TORCH, AL_DTYPE_UNKNOWN, 0);
}

/* Whether `use(x)` reads a floating tensor, x bound by `body` (lines of
 * the function f(p), indented) under the imports below. */
static bool floating_in(const char *body)
{
    char text[1024];
    snprintf(text, sizeof text, "import math\nimport torch as th\ndef f(p, dev):\n%s    use(x)\n",
             body);
    parsed p;
    parse(&p, text);
    TSNode func = ts_node_named_child(p.pf.root, 2);
    TSNode body_block = al_node_field(func, "body");
    TSNode stmt = ts_node_named_child(body_block, ts_node_named_child_count(body_block) - 1);
    TSNode call = ts_node_named_child(stmt, 0);
    TSNode x = ts_node_named_child(al_node_field(call, "arguments"), 0);
    bool yes = al_dtype_floating(&p.m, func, stmt, x);
    parsed_free(&p);
    return yes;
}

static void assert_floating(const char *body, bool want)
{
    if (floating_in(body) != want)
        fail_msg("`%s`: %s floating, want %s", body, want ? "not" : "", want ? "yes" : "no");
}

static void floating_values(void **state)
{
    (void)state;
    assert_floating("    x = p.float()\n", true);
    assert_floating("    x = p.to(th.bfloat16)\n", true);
    assert_floating("    x = p.to(dtype=th.float16)\n", true);
    assert_floating("    x = th.arange(8, dtype=th.float32)\n", true);
    assert_floating("    x = th.zeros(4)\n", true); /* the default float dtype */
    assert_floating("    x = th.exp(p)\n", true);    /* floating for any input */
    assert_floating("    x = p / 2\n", true);
    assert_floating("    x = p * 0.5\n", true);
    assert_floating("    x = p * math.pi\n", true);
    assert_floating("    x = -math.log(p) * p\n", true);
    assert_floating("    y = p.float()\n    x = y[:, None].expand(4, 8)\n", true);
    assert_floating("    y = p.float()\n    x = y.to(dev.device)\n", true);
    assert_floating("    x = p.double()\n    x = x.unsqueeze(0) * p\n", true);
    assert_floating("    x = p.view(4, -1).sigmoid()\n", true);
}

static void not_shown_floating(void **state)
{
    (void)state;
    assert_floating("", false);                    /* a parameter */
    assert_floating("    x = p\n", false);
    assert_floating("    x = p * 2\n", false);
    assert_floating("    x = p // 2\n", false);
    assert_floating("    x = th.arange(8)\n", false); /* int64 */
    assert_floating("    x = th.full((4,), 1)\n", false);
    assert_floating("    x = p.to(th.int32)\n", false);
    assert_floating("    x = p.float().to(th.int64)\n", false);
    /* `.to(dev)` may be `.to(other_tensor)`: other's dtype */
    assert_floating("    x = p.float().to(dev)\n", false);
    /* `.view(dt)` with a dtype held in a name reinterprets the bytes */
    assert_floating("    x = p.float().view(dev)\n", false);
    assert_floating("    x = p.float()\n    if dev:\n        x = p\n", false);
    assert_floating("    x = p.float()\n    x = x.int()\n", false);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(torch_names),
        cmocka_unit_test(numpy_names),
        cmocka_unit_test(everything_else_is_unknown),
        cmocka_unit_test(floating_values),
        cmocka_unit_test(not_shown_floating),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
