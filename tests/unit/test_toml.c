/* The TOML reader refuses a key defined twice (TOML forbids it, and a
 * reader that kept either one would disagree with another), naming both
 * lines; the same key in separate tables, [[array]] elements or inline
 * tables is no duplicate. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <string.h>

#include "analysis/core/ops.h"
#include "base/toml.h"

static bool parses(const char *text, char *error, size_t n)
{
    al_toml doc;
    TSNode bad = {0};
    bool ok = al_toml_parse(&doc, text, strlen(text), &bad);
    snprintf(error, n, "%s:%zu", doc.error, ok || ts_node_is_null(bad) ? (size_t)0 : al_toml_row(bad));
    al_toml_free(&doc);
    return ok;
}

static void refuses_a_key_defined_twice(void **state)
{
    (void)state;
    static const struct {
        const char *text, *error;
    } bad[] = {
        {"select = [\"AL1\"]\nignore = []\nselect = [\"AL2\"]\n",
         "`select` is defined twice (first on line 1); TOML allows one definition:3"},
        {"[tool.alloclint]\nselect = [\"AL1\"]\n\n[tool.alloclint]\nignore = [\"AL2\"]\n",
         "`tool.alloclint` is defined twice (first on line 1); TOML allows one definition:4"},
        {"[[op]]\nname = \"torch.add\"\nout = \"out\"\nout = 2\n",
         "`out` is defined twice (first on line 3); TOML allows one definition:4"},
        {"a.b = 1\n\"c\" = 2\na.b = 3\n",
         "`a.b` is defined twice (first on line 1); TOML allows one definition:3"},
        {"x = {k = 1, k = 2}\n",
         "`k` is defined twice (first on line 1); TOML allows one definition:1"},
        {"inference = true\n[inference]\n",
         "`inference` is defined twice (first on line 1); TOML allows one definition:2"},
    };
    char error[256];
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        assert_false(parses(bad[i].text, error, sizeof error));
        assert_string_equal(error, bad[i].error);
    }
}

static void keeps_the_same_key_in_separate_scopes(void **state)
{
    (void)state;
    static const char *const ok[] = {
        "[[op]]\nname = \"a\"\nout = 1\n\n[[op]]\nname = \"b\"\nout = 2\n",
        "[a]\nk = 1\n[b]\nk = 1\n",
        "x = {k = 1}\ny = {k = 2}\nk = 3\n",
        "[tool.alloclint]\nselect = []\n[tool.ruff]\nselect = []\n",
    };
    char error[256];
    for (size_t i = 0; i < sizeof ok / sizeof *ok; i++)
        if (!parses(ok[i], error, sizeof error))
            fail_msg("case %zu refused: %s", i, error);
}

/* An op table with a key twice is an error naming the file and line. */
static void op_tables_report_it(void **state)
{
    (void)state;
    static const char text[] = "[[op]]\nname = \"torch.add\"\nout = \"out\"\nfull = true\nfull = false\n";
    al_op_table table = {0};
    al_ops_error err;
    assert_false(al_ops_load_toml(&table, text, sizeof text - 1, "ops.toml", &err));
    assert_string_equal(err.message,
                        "ops.toml:5: `full` is defined twice (first on line 4); TOML allows one "
                        "definition");
    al_ops_free(&table);
}

/* Contracts with conditions: writes, rows and args read into the summary;
 * a malformed one is an error naming the line; an output named by keyword
 * is found at its position through args, and the other way round. */
static void op_contracts_read(void **state)
{
    (void)state;
    static const char good[] =
        "[[op]]\nname = \"lib.decode\"\nargs = [\"q\", \"kv\", \"o\"]\nout = \"o\"\n"
        "writes = \"rows\"\nrows = \"q.size(0)\"\nlibrary = true\n\n"
        "[[op]]\nname = \"lib.merge\"\nargs = [\"v\", \"s\"]\nout = 0\nwrites = \"accumulates\"\n";
    al_op_table table = {0};
    al_ops_error err;
    assert_true(al_ops_load_toml(&table, good, sizeof good - 1, "c.toml", &err));
    assert_int_equal(table.n, 2);
    const al_op_summary *d = al_ops_find_output(&table, "lib.decode", 2, NULL, 0);
    assert_non_null(d); /* `o` by position */
    assert_int_equal(d->writes, AL_OP_WRITES_ROWS);
    assert_string_equal(d->rows_param, "q");
    assert_int_equal(d->rows_dim, 0);
    assert_false(d->full_write);
    assert_null(al_ops_find_output(&table, "lib.decode", 0, NULL, 0)); /* q is no output */
    const al_op_summary *m = al_ops_find_output(&table, "lib.merge", -1, "v", 1);
    assert_non_null(m); /* position 0 by its keyword */
    assert_int_equal(m->writes, AL_OP_ACCUMULATES);
    al_ops_free(&table);

    /* `element`: the output is an item of a list handed as `out`; the
     * list itself, or another item, is no output. */
    static const char listed[] =
        "[[op]]\nname = \"npu.attn.out\"\nargs = [\"q\"]\nout = \"out\"\nelement = 0\n"
        "writes = \"rows\"\nrows = \"q.shape[0]\"\nlibrary = true\n";
    assert_true(al_ops_load_toml(&table, listed, sizeof listed - 1, "c.toml", &err));
    const al_op_summary *e = al_ops_find_output_element(&table, "npu.attn.out", -1, "out", 3, 0);
    assert_non_null(e);
    assert_int_equal(e->out_element, 0);
    assert_null(al_ops_find_output_element(&table, "npu.attn.out", -1, "out", 3, 1));
    assert_null(al_ops_find_output(&table, "npu.attn.out", -1, "out", 3));
    assert_null(al_ops_find_output_element(&table, "npu.attn.out", -1, "out", 3, -1));
    al_ops_free(&table);

    /* `unless`: the parameters that put a call outside the entry, kept
     * in order for the rule to test. */
    static const char voidable[] =
        "[[op]]\nname = \"fa.with_kvcache\"\nargs = [\"q\"]\nout = \"out\"\n"
        "writes = \"rows\"\nrows = \"q.shape[0]\"\nunless = [\"cu_seqlens_q\", \"ver\"]\n"
        "library = true\n";
    assert_true(al_ops_load_toml(&table, voidable, sizeof voidable - 1, "c.toml", &err));
    const al_op_summary *v = al_ops_find_output(&table, "fa.with_kvcache", -1, "out", 3);
    assert_non_null(v);
    assert_string_equal(v->unless, "cu_seqlens_q,ver");
    al_op_table copy = {0};
    al_ops_append(&copy, &table);
    assert_string_equal(copy.items[0].unless, "cu_seqlens_q,ver");
    al_ops_free(&copy);
    al_ops_free(&table);

    static const struct {
        const char *text, *error;
    } bad[] = {
        {"[[op]]\nname = \"a\"\nout = 0\nwrites = \"rows\"\n",
         "c.toml:1: writes = \"rows\" needs `rows`"},
        {"[[op]]\nname = \"a\"\nout = 0\nwrites = \"all\"\nrows = \"q.shape[0]\"\n",
         "c.toml:1: `rows` goes with writes = \"rows\""},
        {"[[op]]\nname = \"a\"\nout = 0\nwrites = \"rows\"\nrows = \"q.shape[x]\"\n",
         "c.toml:5: key `rows` must name a parameter's dimension: \"q.shape[0]\""},
        {"[[op]]\nname = \"a\"\nout = 0\nwrites = \"most\"\n",
         "c.toml:4: key `writes` must be \"all\", \"rows\", \"part\", \"accumulates\", \"mutates\" or \"some\""},
        {"[[op]]\nname = \"a\"\nout = 0\nfull = true\nwrites = \"all\"\n",
         "c.toml:1: [[op]] needs `name`, and `out` with one of `full` or `writes`, or `returns`"},
        {"[[op]]\nname = \"a\"\nreturns = \"fresh\"\n",
         "c.toml:3: key `returns` must be \"new\", \"alias\", \"may_alias\", \"not_tensor\" or \"shared_view\""},
        {"[[op]]\nname = \"a\"\nreturns = \"new\"\nfull = true\n",
         "c.toml:1: [[op]] needs `name`, and `out` with one of `full` or `writes`, or `returns`"},
        {"[[op]]\nname = \"a\"\nargs = [\"x\", \"o\"]\nout = \"o\"\nwrites = \"rows\"\nrows = \"q.shape[0]\"\n",
         "c.toml:1: `rows` names `q`, which `args` does not list"},
        {"[[op]]\nname = \"a\"\nout = 0\nwrites = \"all\"\nunless = [\"x y\"]\n",
         "c.toml:5: key `unless` must list parameters' names"},
        {"[[op]]\nname = \"a\"\nargs = [\"x,y\"]\nout = 0\nfull = true\n",
         "c.toml:3: key `args` must list the positional parameters' names"},
        {"[[op]]\nname = \"a\"\nout = \"out\"\nelement = 99\nfull = true\n",
         "c.toml:4: key `element` must be an element index 0-64"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        al_op_table t2 = {0};
        assert_false(al_ops_load_toml(&t2, bad[i].text, strlen(bad[i].text), "c.toml", &err));
        if (strcmp(err.message, bad[i].error))
            fail_msg("case %zu: `%s`, want `%s`", i, err.message, bad[i].error);
        al_ops_free(&t2);
    }
}

/* `returns` says what an op's result is, alone or beside what it writes;
 * a later entry (the user's) overrides the built-in one. */
static void op_results_read(void **state)
{
    (void)state;
    static const char text[] =
        "[[op]]\nname = \"lib.gemm\"\nreturns = \"new\"\nlibrary = true\n\n"
        "[[op]]\nname = \"lib.scale\"\nout = \"out\"\nfull = true\nreturns = \"alias\"\n\n"
        "[[op]]\nname = \"torch.ops.*.cast\"\nreturns = \"may_alias\"\n";
    al_op_table table = {0};
    al_ops_error err;
    assert_true(al_ops_load_builtin(&table, &err));
    const al_op_result *r = al_ops_find_result(&table, "torch.zeros");
    assert_true(r && r->returns == AL_RETURNS_NEW && !r->library);
    r = al_ops_find_result(&table, "torch.Tensor.view");
    assert_true(r && r->returns == AL_RETURNS_ALIAS);
    r = al_ops_find_result(&table, "torch.Tensor.to");
    assert_true(r && r->returns == AL_RETURNS_MAY_ALIAS);
    r = al_ops_find_result(&table, "torch.nn.Dropout.forward");
    assert_true(r && r->returns == AL_RETURNS_ALIAS);
    r = al_ops_find_result(&table, "torch.nn.Linear.forward");
    assert_true(r && r->returns == AL_RETURNS_NEW);
    r = al_ops_find_result(&table, "torch.Tensor.item");
    assert_true(r && r->returns == AL_RETURNS_NOT_TENSOR);
    r = al_ops_find_result(&table, "builtins.len");
    assert_true(r && r->returns == AL_RETURNS_NOT_TENSOR);
    r = al_ops_find_result(&table, "numpy.linalg.norm"); /* "numpy.*" */
    assert_true(r && r->returns == AL_RETURNS_NOT_TENSOR);
    assert_null(al_ops_find_result(&table, "numpyro.sample"));
    size_t builtin_ops = table.n;
    assert_true(al_ops_load_toml(&table, text, sizeof text - 1, "user.toml", &err));
    assert_int_equal(table.n, builtin_ops + 1); /* only lib.scale writes an output */
    r = al_ops_find_result(&table, "lib.gemm");
    assert_true(r && r->returns == AL_RETURNS_NEW && r->library);
    assert_string_equal(r->origin, "user.toml");
    r = al_ops_find_result(&table, "lib.scale");
    assert_true(r && r->returns == AL_RETURNS_ALIAS);
    assert_non_null(al_ops_find_output(&table, "lib.scale", -1, "out", 3));
    r = al_ops_find_result(&table, "torch.ops._C.cast.default");
    assert_true(r && r->returns == AL_RETURNS_MAY_ALIAS);
    assert_null(al_ops_find_result(&table, "lib.other"));
    al_ops_free(&table);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(refuses_a_key_defined_twice),
        cmocka_unit_test(keeps_the_same_key_in_separate_scopes),
        cmocka_unit_test(op_tables_report_it),
        cmocka_unit_test(op_contracts_read),
        cmocka_unit_test(op_results_read),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
