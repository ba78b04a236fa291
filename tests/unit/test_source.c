/* Source loading: positions, UTF-8 checks, NUL bytes, errors. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <string.h>

#include "analysis/core/ops.h"
#include "base/source.h"

static void positions_count_characters(void **state)
{
    (void)state;
    al_source s;
    al_source_from_memory(&s, "m.py", "a\n\xc3\xa9t\xc3\xa9 = 1\nz", 13);
    size_t row, col;
    al_source_position(&s, 0, &row, &col);
    assert_int_equal(row, 1);
    assert_int_equal(col, 1);
    al_source_position(&s, 5, &row, &col); /* the second é */
    assert_int_equal(row, 2);
    assert_int_equal(col, 3);
    al_source_position(&s, 7, &row, &col); /* the space after it */
    assert_int_equal(col, 4);
    al_source_position(&s, 12, &row, &col);
    assert_int_equal(row, 3);
    assert_int_equal(col, 1);
    assert_false(s.bad_utf8);
    al_source_free(&s);
}

/* An excerpt answers as the whole source does for every offset on the
 * lines it holds: rows, columns (characters, terminators included), line
 * ranges and bytes; other offsets are not held. */
static void excerpt_answers_as_the_source(void **state)
{
    (void)state;
    const char *text = "import torch\r\n\r\n\xc3\xa9 = torch.zeros(4)\r\nx = 1\n\ty = \xc2\xab" "2\xc2\xbb";
    al_source whole;
    al_source_from_memory(&whole, "m.py", text, strlen(text));
    /* Offsets on rows 3 and 5 (the last, without a terminator), and the
     * end of the file. */
    size_t offsets[] = {21, 16, whole.len, 33};
    al_source ex;
    assert_true(al_source_excerpt(&whole, offsets, 4, &ex));
    assert_int_equal(ex.n_excerpt, 2);
    assert_int_equal(ex.excerpt[0].row, 3);
    assert_int_equal(ex.excerpt[1].row, 5);
    assert_int_equal(ex.hash, whole.hash);
    /* An excerpt is made of a whole source only. */
    al_source again;
    assert_false(al_source_excerpt(&ex, offsets, 4, &again));
    for (size_t off = 0; off <= whole.len; off++) {
        size_t row, col;
        al_source_position(&whole, off, &row, &col);
        if (row != 3 && row != 5) {
            assert_false(al_source_holds(&ex, off));
            continue;
        }
        assert_true(al_source_holds(&ex, off));
        size_t erow, ecol;
        al_source_position(&ex, off, &erow, &ecol);
        assert_int_equal(erow, row);
        assert_int_equal(ecol, col);
        size_t ls, le, els, ele;
        al_source_line(&whole, row, &ls, &le);
        al_source_line(&ex, row, &els, &ele);
        assert_int_equal(els, ls);
        assert_int_equal(ele, le);
        if (off < le)
            assert_int_equal(*al_source_at(&ex, off), whole.bytes[off]);
    }
    /* Lines out of order, or pointing past the text, are refused. */
    al_source_excerpt_line bad[2] = {{5, 30, 40, 0, 2}, {3, 16, 30, 2, 2}};
    al_source refused;
    assert_false(al_source_from_excerpt(&refused, "m.py", whole.len, bad, 2, "abcd", 4));
    al_source_excerpt_line past = {3, 16, 30, 2, 9};
    assert_false(al_source_from_excerpt(&refused, "m.py", whole.len, &past, 1, "abcd", 4));
    al_source_free(&ex);
    al_source_free(&whole);
}

static void invalid_utf8_is_located(void **state)
{
    (void)state;
    assert_int_equal(al_utf8_validate("ab\xff", 3), 2);
    assert_int_equal(al_utf8_validate("\xc0\xaf", 2), 0);         /* overlong */
    assert_int_equal(al_utf8_validate("\xed\xa0\x80", 3), 0);     /* surrogate */
    assert_int_equal(al_utf8_validate("x\xe2\x82", 3), 1);        /* truncated */
    assert_int_equal(al_utf8_validate("\xf0\x9f\x98\x80", 4), 4); /* emoji */
    /* The ASCII fast path reads eight bytes at a time: a bad byte at
     * every offset around those words is still found where it is. */
    for (size_t at = 0; at < 24; at++) {
        char buf[32];
        memset(buf, 'a', sizeof buf);
        buf[at] = (char)0xff;
        assert_int_equal(al_utf8_validate(buf, sizeof buf), at);
        memcpy(buf + at, "\xc3\xa9", 2); /* a valid two-byte character there */
        assert_int_equal(al_utf8_validate(buf, sizeof buf), sizeof buf);
    }
}

static void nul_and_bom_are_seen(void **state)
{
    (void)state;
    al_source s;
    al_source_from_memory(&s, "m.py", "\xEF\xBB\xBFx\0y", 6);
    assert_true(s.has_bom);
    assert_true(s.has_nul);
    assert_int_equal(s.nul_offset, 4);
    al_source_free(&s);
}

static void missing_file_reports_errno(void **state)
{
    (void)state;
    al_source s;
    assert_int_equal(al_source_load(&s, "/nonexistent/alloclint/x.py"), AL_SOURCE_ERR_OPEN);
    assert_int_not_equal(s.err_errno, 0);
    assert_int_equal(al_source_load(&s, "/"), AL_SOURCE_ERR_NOT_FILE);
}

static void line_ranges_drop_terminators(void **state)
{
    (void)state;
    al_source s;
    al_source_from_memory(&s, "m.py", "ab\r\ncd\nef", 9);
    size_t a, b;
    al_source_line(&s, 1, &a, &b);
    assert_int_equal(a, 0);
    assert_int_equal(b, 2);
    al_source_line(&s, 3, &a, &b);
    assert_int_equal(a, 7);
    assert_int_equal(b, 9);
    al_source_free(&s);
}

/* Whole words only: not inside a longer name, a dot before counts (an
 * attribute), and counting stops at max. */
static void count_word_counts_whole_words(void **state)
{
    (void)state;
    const char *text = "def scale(x):\n    return x\n\ny = scale(t) + rescale(t) + mod.scale(u)\n"
                       "scale_all = scale_\nz = \"scale\"\n";
    al_source s;
    al_source_from_memory(&s, "m.py", text, strlen(text));
    assert_int_equal(al_source_count_word(&s, "scale", 100), 4);
    assert_int_equal(al_source_count_word(&s, "scale", 2), 2);
    assert_int_equal(al_source_count_word(&s, "rescale", 100), 1);
    assert_int_equal(al_source_count_word(&s, "scale_", 100), 1);
    assert_int_equal(al_source_count_word(&s, "cale", 100), 0);
    al_source_free(&s);
}

static void ops_table_loads_and_rejects(void **state)
{
    (void)state;
    al_op_table t = {0};
    al_ops_error err;
    assert_true(al_ops_load_builtin(&t, &err));
    const al_op_summary *cumsum = al_ops_find(&t, "torch.cumsum");
    assert_non_null(cumsum);
    assert_string_equal(cumsum->out_keyword, "out");
    assert_true(cumsum->full_write);
    assert_null(al_ops_find(&t, "torch.sort")); /* tuple outputs are not listed */

    const char *user = "[[op]]\nname = \"torch.ops.my.fill\"\nout = 0\nfull = false\n";
    assert_true(al_ops_load_toml(&t, user, strlen(user), "user.toml", &err));
    const al_op_summary *mine = al_ops_find(&t, "torch.ops.my.fill");
    assert_int_equal(mine->out_position, 0);
    assert_false(mine->full_write);

    const char *bad = "[[op]]\nname = \"x\"\nout = \"out\"\nfull = maybe\n";
    assert_false(al_ops_load_toml(&t, bad, strlen(bad), "bad.toml", &err));
    assert_non_null(strstr(err.message, "bad.toml:"));
    const char *missing = "[[op]]\nname = \"x\"\n";
    assert_false(al_ops_load_toml(&t, missing, strlen(missing), "m.toml", &err));
    assert_non_null(strstr(err.message, "m.toml:1: [[op]] needs"));
    const char *unknown = "[[op]]\nname = \"x\"\nout = 1\nfull = true\nwrites = 3\n";
    assert_false(al_ops_load_toml(&t, unknown, strlen(unknown), "u.toml", &err));
    assert_non_null(strstr(err.message, "u.toml:5:"));
    al_ops_free(&t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(positions_count_characters),
        cmocka_unit_test(excerpt_answers_as_the_source),
        cmocka_unit_test(invalid_utf8_is_located),
        cmocka_unit_test(nul_and_bom_are_seen),
        cmocka_unit_test(missing_file_reports_errno),
        cmocka_unit_test(line_ranges_drop_terminators),
        cmocka_unit_test(ops_table_loads_and_rejects),
        cmocka_unit_test(count_word_counts_whole_words),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
