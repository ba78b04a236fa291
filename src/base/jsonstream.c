#include "jsonstream.h"

#include "util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHUNK (64 * 1024)
#define NUMBER_MAX 256

typedef enum {
    WANT_VALUE,       /* the top-level value, or one after ':' */
    WANT_FIRST_VALUE, /* right after '[': a value or ']' */
    WANT_ARRAY_VALUE, /* after ',' in an array */
    WANT_FIRST_KEY,   /* right after '{': a key or '}' */
    WANT_KEY,         /* after ',' in an object */
    WANT_COLON,
    WANT_COMMA_OR_END,
    FINISHED, /* the top-level value was read */
    STOPPED,  /* AL_JS_END or AL_JS_ERROR returned */
} state;

struct al_jsonstream {
    al_js_reader read;
    void *ctx;
    char buf[CHUNK];
    size_t pos, len;
    uint64_t consumed; /* bytes before buf[0] */
    bool eof;
    state st;
    al_js_token last;
    uint64_t token_at;
    uint64_t error_at; /* the offending byte's offset */
    /* Open containers: 1 an object, 0 an array. */
    unsigned char *stack;
    unsigned depth, max_depth;
    char *text;
    size_t text_len, text_cap, max_string;
    double number;
    char error[256];
};

al_jsonstream *al_js_new(al_js_reader read, void *ctx, unsigned max_depth, size_t max_string)
{
    al_jsonstream *js = al_xcalloc(1, sizeof *js);
    js->read = read;
    js->ctx = ctx;
    js->max_depth = max_depth ? max_depth : 1;
    js->stack = al_xmalloc(js->max_depth);
    js->max_string = max_string;
    js->text_cap = 256;
    js->text = al_xmalloc(js->text_cap);
    js->text[0] = '\0';
    js->st = WANT_VALUE;
    return js;
}

void al_js_free(al_jsonstream *js)
{
    if (!js)
        return;
    free(js->stack);
    free(js->text);
    free(js);
}

static uint64_t here(const al_jsonstream *js);

static al_js_token fail_at(al_jsonstream *js, uint64_t at, const char *fmt, const char *arg)
{
    if (!js->error[0]) {
        snprintf(js->error, sizeof js->error, fmt, arg);
        js->error_at = at;
    }
    js->st = STOPPED;
    js->last = AL_JS_ERROR;
    return AL_JS_ERROR;
}

static uint64_t here(const al_jsonstream *js)
{
    return js->consumed + js->pos;
}

/* At the next byte, not taken yet. */
static al_js_token fail(al_jsonstream *js, const char *fmt, const char *arg)
{
    return fail_at(js, here(js), fmt, arg);
}

/* At the byte just taken. */
static al_js_token fail_back(al_jsonstream *js, const char *fmt, const char *arg)
{
    uint64_t at = here(js);
    return fail_at(js, at ? at - 1 : 0, fmt, arg);
}

/* The next byte without taking it; -1 at the end or on a read error (the
 * error is recorded). */
static int peek(al_jsonstream *js)
{
    if (js->pos < js->len)
        return (unsigned char)js->buf[js->pos];
    if (js->eof)
        return -1;
    js->consumed += js->len;
    js->pos = js->len = 0;
    bool failed = false;
    char err[200] = "";
    size_t n = js->read(js->ctx, js->buf, sizeof js->buf, &failed, err, sizeof err);
    if (failed) {
        js->eof = true;
        fail(js, "%s", err[0] ? err : "read error");
        return -1;
    }
    if (n == 0) {
        js->eof = true;
        return -1;
    }
    js->len = n;
    return (unsigned char)js->buf[0];
}

static int take(al_jsonstream *js)
{
    int c = peek(js);
    if (c >= 0)
        js->pos++;
    return c;
}

static int skip_blanks(al_jsonstream *js)
{
    for (;;) {
        while (js->pos < js->len) {
            char c = js->buf[js->pos];
            if (c != ' ' && c != '\n' && c != '\r' && c != '\t')
                return (unsigned char)c;
            js->pos++;
        }
        int c = peek(js);
        if (c < 0)
            return c;
    }
}

static void text_put(al_jsonstream *js, char c)
{
    if (js->text_len + 1 >= js->text_cap) {
        js->text_cap *= 2;
        js->text = al_xrealloc(js->text, js->text_cap);
    }
    js->text[js->text_len++] = c;
}

static void put_utf8(al_jsonstream *js, unsigned long cp)
{
    if (cp < 0x80) {
        text_put(js, (char)cp);
    } else if (cp < 0x800) {
        text_put(js, (char)(0xC0 | (cp >> 6)));
        text_put(js, (char)(0x80 | (cp & 0x3F)));
    } else if (cp < 0x10000) {
        text_put(js, (char)(0xE0 | (cp >> 12)));
        text_put(js, (char)(0x80 | ((cp >> 6) & 0x3F)));
        text_put(js, (char)(0x80 | (cp & 0x3F)));
    } else {
        text_put(js, (char)(0xF0 | (cp >> 18)));
        text_put(js, (char)(0x80 | ((cp >> 12) & 0x3F)));
        text_put(js, (char)(0x80 | ((cp >> 6) & 0x3F)));
        text_put(js, (char)(0x80 | (cp & 0x3F)));
    }
}

static long hex4(al_jsonstream *js)
{
    long v = 0;
    for (int i = 0; i < 4; i++) {
        int c = take(js);
        int d = c >= '0' && c <= '9'   ? c - '0'
                : c >= 'a' && c <= 'f' ? c - 'a' + 10
                : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                       : -1;
        if (d < 0)
            return -1;
        v = v * 16 + d;
    }
    return v;
}

/* After the opening quote: the string's bytes into text. */
static bool read_string(al_jsonstream *js)
{
    js->text_len = 0;
    for (;;) {
        /* The common run of plain bytes, straight from the buffer. */
        while (js->pos < js->len) {
            unsigned char c = (unsigned char)js->buf[js->pos];
            if (c == '"' || c == '\\' || c < 0x20)
                break;
            text_put(js, (char)c);
            js->pos++;
        }
        if (js->max_string && js->text_len > js->max_string) {
            char lim[32];
            snprintf(lim, sizeof lim, "%zu", js->max_string);
            fail(js, "a string longer than %s bytes", lim);
            return false;
        }
        int c = take(js);
        if (c < 0) {
            fail(js, "%s", "the document ends inside a string");
            return false;
        }
        if (c == '"')
            break;
        if (c < 0x20) {
            fail_back(js, "%s", "a control character inside a string");
            return false;
        }
        if (c != '\\') {
            text_put(js, (char)c);
            continue;
        }
        int e = take(js);
        switch (e) {
        case '"': case '\\': case '/':
            text_put(js, (char)e);
            break;
        case 'b': text_put(js, '\b'); break;
        case 'f': text_put(js, '\f'); break;
        case 'n': text_put(js, '\n'); break;
        case 'r': text_put(js, '\r'); break;
        case 't': text_put(js, '\t'); break;
        case 'u': {
            long cp = hex4(js);
            if (cp < 0) {
                fail_back(js, "%s", "a \\u escape without four hex digits");
                return false;
            }
            if (cp >= 0xD800 && cp < 0xDC00 && peek(js) == '\\') {
                /* A surrogate pair, or a lone high surrogate before
                 * another escape. */
                take(js);
                if (take(js) != 'u') {
                    fail_back(js, "%s", "a high surrogate followed by an escape that is not \\u");
                    return false;
                }
                long lo = hex4(js);
                if (lo < 0) {
                    fail_back(js, "%s", "a \\u escape without four hex digits");
                    return false;
                }
                if (lo >= 0xDC00 && lo < 0xE000) {
                    put_utf8(js, 0x10000 + (((unsigned long)cp - 0xD800) << 10) +
                                     ((unsigned long)lo - 0xDC00));
                } else {
                    put_utf8(js, 0xFFFD);
                    put_utf8(js, lo >= 0xD800 && lo < 0xE000 ? 0xFFFD : (unsigned long)lo);
                }
            } else if (cp >= 0xD800 && cp < 0xE000) {
                put_utf8(js, 0xFFFD); /* a lone surrogate: no character */
            } else {
                put_utf8(js, (unsigned long)cp);
            }
            break;
        }
        default:
            if (e < 0)
                fail(js, "%s", "the document ends inside a string");
            else
                fail_back(js, "%s", "an invalid escape inside a string");
            return false;
        }
    }
    if (js->max_string && js->text_len > js->max_string) {
        char lim[32];
        snprintf(lim, sizeof lim, "%zu", js->max_string);
        fail(js, "a string longer than %s bytes", lim);
        return false;
    }
    js->text[js->text_len] = '\0';
    return true;
}

static bool is_digit(int c)
{
    return c >= '0' && c <= '9';
}

static bool digits(al_jsonstream *js)
{
    if (!is_digit(peek(js)))
        return false;
    while (is_digit(peek(js))) {
        if (js->text_len >= NUMBER_MAX)
            return false;
        text_put(js, (char)take(js));
    }
    return true;
}

static bool read_number(al_jsonstream *js)
{
    js->text_len = 0;
    if (peek(js) == '-')
        text_put(js, (char)take(js));
    if (peek(js) == '0') {
        text_put(js, (char)take(js));
        if (is_digit(peek(js)))
            goto bad;
    } else if (!digits(js)) {
        goto bad;
    }
    if (peek(js) == '.') {
        text_put(js, (char)take(js));
        if (!digits(js))
            goto bad;
    }
    if (peek(js) == 'e' || peek(js) == 'E') {
        text_put(js, (char)take(js));
        if (peek(js) == '+' || peek(js) == '-')
            text_put(js, (char)take(js));
        if (!digits(js))
            goto bad;
    }
    if (js->text_len > NUMBER_MAX)
        goto bad;
    js->text[js->text_len] = '\0';
    js->number = strtod(js->text, NULL);
    return true;
bad:
    fail(js, "%s", "a malformed number");
    return false;
}

static bool read_word(al_jsonstream *js, const char *word)
{
    for (const char *p = word; *p; p++) {
        if (peek(js) != *p) {
            fail(js, "%s", "an unexpected character where a value was expected");
            return false;
        }
        take(js);
    }
    return true;
}

/* A value has been read inside the current container (or at the top). */
static void after_value(al_jsonstream *js)
{
    js->st = js->depth ? WANT_COMMA_OR_END : FINISHED;
}

/* At the bracket, before it is taken: an error names its offset. */
static al_js_token open_container(al_jsonstream *js, bool object)
{
    if (js->depth >= js->max_depth) {
        char lim[32];
        snprintf(lim, sizeof lim, "%u", js->max_depth);
        return fail(js, "arrays and objects nested deeper than %s levels", lim);
    }
    take(js);
    js->stack[js->depth++] = object;
    js->st = object ? WANT_FIRST_KEY : WANT_FIRST_VALUE;
    return object ? AL_JS_BEGIN_OBJECT : AL_JS_BEGIN_ARRAY;
}

static al_js_token close_container(al_jsonstream *js)
{
    bool object = js->stack[--js->depth];
    after_value(js);
    return object ? AL_JS_END_OBJECT : AL_JS_END_ARRAY;
}

static al_js_token value(al_jsonstream *js, int c)
{
    switch (c) {
    case '{':
        return open_container(js, true);
    case '[':
        return open_container(js, false);
    case '"':
        take(js);
        if (!read_string(js))
            return AL_JS_ERROR;
        after_value(js);
        return AL_JS_STRING;
    case 't':
        if (!read_word(js, "true"))
            return AL_JS_ERROR;
        after_value(js);
        return AL_JS_TRUE;
    case 'f':
        if (!read_word(js, "false"))
            return AL_JS_ERROR;
        after_value(js);
        return AL_JS_FALSE;
    case 'n':
        if (!read_word(js, "null"))
            return AL_JS_ERROR;
        after_value(js);
        return AL_JS_NULL;
    default:
        if (c == '-' || is_digit(c)) {
            if (!read_number(js))
                return AL_JS_ERROR;
            after_value(js);
            return AL_JS_NUMBER;
        }
        return fail(js, "%s", "an unexpected character where a value was expected");
    }
}

static al_js_token key(al_jsonstream *js, int c)
{
    if (c != '"')
        return fail(js, "%s", "an object key that is not a string");
    take(js);
    if (!read_string(js))
        return AL_JS_ERROR;
    js->st = WANT_COLON;
    return AL_JS_KEY;
}

static al_js_token step(al_jsonstream *js)
{
    for (;;) {
        int c = skip_blanks(js);
        js->token_at = here(js);
        if (js->st == STOPPED)
            return js->last;
        if (c < 0) {
            if (js->error[0])
                return AL_JS_ERROR;
            if (js->st == FINISHED) {
                js->st = STOPPED;
                return AL_JS_END;
            }
            return fail(js, "%s", here(js) ? "the document ends early (truncated?)"
                                             : "the document is empty");
        }
        switch (js->st) {
        case WANT_VALUE:
        case WANT_ARRAY_VALUE:
            return value(js, c);
        case WANT_FIRST_VALUE:
            if (c == ']') {
                take(js);
                return close_container(js);
            }
            return value(js, c);
        case WANT_FIRST_KEY:
            if (c == '}') {
                take(js);
                return close_container(js);
            }
            return key(js, c);
        case WANT_KEY:
            return key(js, c);
        case WANT_COLON:
            if (c != ':')
                return fail(js, "%s", "a key not followed by ':'");
            take(js);
            js->st = WANT_VALUE;
            continue;
        case WANT_COMMA_OR_END: {
            bool object = js->stack[js->depth - 1];
            if (c == ',') {
                take(js);
                js->st = object ? WANT_KEY : WANT_ARRAY_VALUE;
                continue;
            }
            if (c == (object ? '}' : ']')) {
                take(js);
                return close_container(js);
            }
            return fail(js, "%s", object ? "expected ',' or '}' in an object"
                                         : "expected ',' or ']' in an array");
        }
        case FINISHED:
            return fail(js, "%s", "more data after the document's one value");
        case STOPPED:
            return js->last;
        }
    }
}

al_js_token al_js_next(al_jsonstream *js)
{
    if (js->st == STOPPED)
        return js->last;
    al_js_token t = step(js);
    if (t == AL_JS_ERROR)
        js->token_at = js->error_at;
    js->last = t;
    if (t == AL_JS_END || t == AL_JS_ERROR)
        js->st = STOPPED;
    return t;
}

const char *al_js_text(const al_jsonstream *js, size_t *len)
{
    if (len)
        *len = js->text_len;
    return js->text;
}

double al_js_number(const al_jsonstream *js)
{
    return js->number;
}

bool al_js_skip(al_jsonstream *js, al_js_token just_read)
{
    if (just_read == AL_JS_KEY) {
        just_read = al_js_next(js);
        if (just_read == AL_JS_ERROR || just_read == AL_JS_END)
            return false;
    }
    if (just_read != AL_JS_BEGIN_OBJECT && just_read != AL_JS_BEGIN_ARRAY)
        return js->last != AL_JS_ERROR;
    unsigned target = js->depth - 1;
    while (js->depth > target) {
        al_js_token t = al_js_next(js);
        if (t == AL_JS_ERROR || t == AL_JS_END)
            return false;
    }
    return true;
}

uint64_t al_js_offset(const al_jsonstream *js)
{
    return js->token_at;
}

const char *al_js_error(const al_jsonstream *js)
{
    return js->error;
}

unsigned al_js_depth(const al_jsonstream *js)
{
    return js->depth;
}
