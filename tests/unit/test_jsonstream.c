/* The streaming JSON tokenizer (base/jsonstream.h): tokens in order, fed
 * one byte at a time as well as whole; escapes and surrogate pairs; the
 * grammar's errors with the byte offset where reading stopped; the depth
 * and string limits; skipping values. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/jsonstream.h"
#include "base/util.h"

typedef struct {
    const char *bytes;
    size_t len, pos, chunk;
    bool fail_at_end;
} source;

static size_t feed(void *ctx, char *buf, size_t cap, bool *failed, char *err, size_t err_size)
{
    source *s = ctx;
    if (s->pos == s->len && s->fail_at_end) {
        *failed = true;
        snprintf(err, err_size, "disk on fire");
        return 0;
    }
    size_t n = s->len - s->pos;
    if (n > cap)
        n = cap;
    if (s->chunk && n > s->chunk)
        n = s->chunk;
    memcpy(buf, s->bytes + s->pos, n);
    s->pos += n;
    return n;
}

/* The document's tokens as letters: { } [ ] k s n t f z (null), then E
 * (end) or ! (error); keys and strings are followed by their text in
 * angle brackets. */
static char *tokens(const char *doc, size_t chunk, unsigned depth, size_t max_string,
                    uint64_t *error_at, char *error, size_t error_size)
{
    source s = {doc, strlen(doc), 0, chunk, false};
    al_jsonstream *js = al_js_new(feed, &s, depth, max_string);
    al_strbuf out = {0};
    for (;;) {
        al_js_token t = al_js_next(js);
        static const char letters[] = "{}[]ksntfzE!";
        al_strbuf_putc(&out, letters[t]);
        if (t == AL_JS_KEY || t == AL_JS_STRING || t == AL_JS_NUMBER) {
            size_t len;
            const char *text = al_js_text(js, &len);
            al_strbuf_putc(&out, '<');
            al_strbuf_append(&out, text, len);
            al_strbuf_putc(&out, '>');
        }
        if (t == AL_JS_END || t == AL_JS_ERROR) {
            if (error_at)
                *error_at = al_js_offset(js);
            if (error)
                snprintf(error, error_size, "%s", al_js_error(js));
            /* Asked again, the same answer. */
            assert_int_equal(al_js_next(js), t);
            break;
        }
    }
    al_js_free(js);
    return al_strbuf_detach(&out);
}

static void expect(const char *doc, const char *want)
{
    for (size_t chunk = 0; chunk < 3; chunk++) {
        char *got = tokens(doc, chunk, 64, 1 << 20, NULL, NULL, 0);
        assert_string_equal(got, want);
        free(got);
    }
}

static void expect_error(const char *doc, uint64_t at, const char *what)
{
    for (size_t chunk = 0; chunk < 3; chunk++) {
        uint64_t where = 0;
        char msg[256];
        char *got = tokens(doc, chunk, 64, 1 << 20, &where, msg, sizeof msg);
        assert_int_equal(got[strlen(got) - 1], '!');
        assert_int_equal(where, at);
        assert_non_null(strstr(msg, what));
        free(got);
    }
}

static void test_values(void **state)
{
    (void)state;
    expect("{}", "{}E");
    expect(" [ ] ", "[]E");
    expect("{\"a\": 1, \"b\": [true, false, null], \"c\": {\"d\": \"x\"}}",
           "{k<a>n<1>k<b>[tfz]k<c>{k<d>s<x>}}E");
    expect("[-0.5e+3, 0, 12, 1E2]", "[n<-0.5e+3>n<0>n<12>n<1E2>]E");
    expect("\"top\"", "s<top>E");
    expect("7", "n<7>E");
}

static void test_escapes(void **state)
{
    (void)state;
    expect("[\"a\\\"b\\\\c\\/d\\n\\t\"]", "[s<a\"b\\c/d\n\t>]E");
    /* é, and U+1F600 from a surrogate pair, as UTF-8. */
    expect("[\"\\u00e9\\ud83d\\ude00\"]", "[s<\xc3\xa9\xf0\x9f\x98\x80>]E");
    /* A lone surrogate is no character: U+FFFD. */
    expect("[\"\\udc00x\"]", "[s<\xef\xbf\xbdx>]E");
    /* Raw UTF-8 passes as bytes. */
    expect("[\"caf\xc3\xa9\"]", "[s<caf\xc3\xa9>]E");
}

static void test_errors(void **state)
{
    (void)state;
    expect_error("", 0, "empty");
    expect_error("[1, 2", 5, "ends early");
    expect_error("{\"traceEvents\": [{\"ph\": \"X\"", 27, "ends early");
    expect_error("[1 2]", 3, "expected ','");
    expect_error("{\"a\" 1}", 5, "not followed by ':'");
    expect_error("{1: 2}", 1, "key that is not a string");
    expect_error("[01]", 2, "malformed number");
    expect_error("[1.]", 3, "malformed number");
    expect_error("[tru]", 4, "unexpected character");
    expect_error("[\"a\nb\"]", 3, "control character");
    expect_error("[\"\\x\"]", 3, "invalid escape");
    expect_error("[\"\\u12G4\"]", 6, "four hex digits");
    expect_error("[] []", 3, "more data after");
    expect_error("[\"abc", 5, "ends inside a string");
}

static void test_limits(void **state)
{
    (void)state;
    uint64_t at;
    char msg[256];
    char *got = tokens("[[[[1]]]]", 0, 3, 100, &at, msg, sizeof msg);
    assert_string_equal(got, "[[[!");
    assert_int_equal(at, 3);
    assert_non_null(strstr(msg, "deeper than 3"));
    free(got);
    got = tokens("[\"abcdefgh\"]", 0, 8, 4, &at, msg, sizeof msg);
    assert_string_equal(got, "[!");
    assert_non_null(strstr(msg, "longer than 4 bytes"));
    free(got);
}

static void test_skip(void **state)
{
    (void)state;
    const char *doc = "{\"skip\": {\"x\": [1, {\"y\": 2}]}, \"keep\": 3, \"also\": [4]}";
    source s = {doc, strlen(doc), 0, 1, false};
    al_jsonstream *js = al_js_new(feed, &s, 64, 1 << 20);
    assert_int_equal(al_js_next(js), AL_JS_BEGIN_OBJECT);
    assert_int_equal(al_js_next(js), AL_JS_KEY);
    assert_true(al_js_skip(js, AL_JS_KEY));
    assert_int_equal(al_js_next(js), AL_JS_KEY);
    assert_string_equal(al_js_text(js, NULL), "keep");
    assert_int_equal(al_js_next(js), AL_JS_NUMBER);
    assert_true(al_js_number(js) == 3.0);
    assert_int_equal(al_js_next(js), AL_JS_KEY);
    assert_int_equal(al_js_next(js), AL_JS_BEGIN_ARRAY);
    assert_int_equal(al_js_depth(js), 2);
    assert_true(al_js_skip(js, AL_JS_BEGIN_ARRAY));
    assert_int_equal(al_js_depth(js), 1);
    assert_int_equal(al_js_next(js), AL_JS_END_OBJECT);
    assert_int_equal(al_js_next(js), AL_JS_END);
    al_js_free(js);
}

static void test_read_error(void **state)
{
    (void)state;
    const char *doc = "[1, 2";
    source s = {doc, strlen(doc), 0, 0, true};
    al_jsonstream *js = al_js_new(feed, &s, 64, 1 << 20);
    al_js_token t;
    while ((t = al_js_next(js)) != AL_JS_ERROR && t != AL_JS_END)
        ;
    assert_int_equal(t, AL_JS_ERROR);
    assert_string_equal(al_js_error(js), "disk on fire");
    al_js_free(js);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_values),  cmocka_unit_test(test_escapes),
        cmocka_unit_test(test_errors),  cmocka_unit_test(test_limits),
        cmocka_unit_test(test_skip),    cmocka_unit_test(test_read_error),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
