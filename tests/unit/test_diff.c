/* The unified diff writer: exact output for the shapes git apply and
 * patch -p1 must accept. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "engine/diff.h"

static char *diff_of(const char *a, const char *b)
{
    al_strbuf out = {0};
    al_diff_unified(&out, "m.py", a, strlen(a), b, strlen(b), 3);
    return al_strbuf_detach(&out);
}

static void equal_texts_give_nothing(void **state)
{
    (void)state;
    char *d = diff_of("x = 1\n", "x = 1\n");
    assert_string_equal(d, "");
    free(d);
}

static void one_line_change(void **state)
{
    (void)state;
    char *d = diff_of("a\nb\nc\n", "a\nB\nc\n");
    assert_string_equal(d, "--- a/m.py\n+++ b/m.py\n@@ -1,3 +1,3 @@\n a\n-b\n+B\n c\n");
    free(d);
}

static void context_is_three_lines(void **state)
{
    (void)state;
    char *d = diff_of("1\n2\n3\n4\n5\n6\n7\n8\n9\n", "1\n2\n3\n4\nX\n6\n7\n8\n9\n");
    assert_string_equal(d, "--- a/m.py\n+++ b/m.py\n@@ -2,7 +2,7 @@\n 2\n 3\n 4\n-5\n+X\n 6\n 7\n 8\n");
    free(d);
}

static void distant_changes_make_two_hunks(void **state)
{
    (void)state;
    const char *a = "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n13\n14\n15\n";
    const char *b = "X\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n13\n14\nY\n";
    char *d = diff_of(a, b);
    assert_string_equal(d, "--- a/m.py\n+++ b/m.py\n"
                           "@@ -1,4 +1,4 @@\n-1\n+X\n 2\n 3\n 4\n"
                           "@@ -12,4 +12,4 @@\n 12\n 13\n 14\n-15\n+Y\n");
    free(d);
}

static void near_changes_share_a_hunk(void **state)
{
    (void)state;
    const char *a = "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n";
    const char *b = "1\nX\n3\n4\n5\n6\n7\nY\n9\n10\n";
    char *d = diff_of(a, b);
    assert_string_equal(d, "--- a/m.py\n+++ b/m.py\n@@ -1,10 +1,10 @@\n 1\n-2\n+X\n 3\n 4\n 5\n"
                           " 6\n 7\n-8\n+Y\n 9\n 10\n");
    free(d);
}

static void missing_final_newline_is_marked(void **state)
{
    (void)state;
    char *d = diff_of("a\nb", "a\nc");
    assert_string_equal(d, "--- a/m.py\n+++ b/m.py\n@@ -1,2 +1,2 @@\n a\n-b\n"
                           "\\ No newline at end of file\n+c\n\\ No newline at end of file\n");
    free(d);
}

static void crlf_lines_are_kept(void **state)
{
    (void)state;
    char *d = diff_of("a\r\nb\r\n", "a\r\nc\r\n");
    assert_string_equal(d, "--- a/m.py\n+++ b/m.py\n@@ -1,2 +1,2 @@\n a\r\n-b\r\n+c\r\n");
    free(d);
}

static void insertion_into_empty_file(void **state)
{
    (void)state;
    char *d = diff_of("", "x\n");
    assert_string_equal(d, "--- a/m.py\n+++ b/m.py\n@@ -0,0 +1 @@\n+x\n");
    free(d);
}

static void deleted_line(void **state)
{
    (void)state;
    char *d = diff_of("a\nb\nc\n", "a\nc\n");
    assert_string_equal(d, "--- a/m.py\n+++ b/m.py\n@@ -1,3 +1,2 @@\n a\n-b\n c\n");
    free(d);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(equal_texts_give_nothing),
        cmocka_unit_test(one_line_change),
        cmocka_unit_test(context_is_three_lines),
        cmocka_unit_test(distant_changes_make_two_hunks),
        cmocka_unit_test(near_changes_share_a_hunk),
        cmocka_unit_test(missing_final_newline_is_marked),
        cmocka_unit_test(crlf_lines_are_kept),
        cmocka_unit_test(insertion_into_empty_file),
        cmocka_unit_test(deleted_line),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
