/* A pull tokenizer for JSON documents too large to hold: profiler traces
 * reach gigabytes, and a trace reader keeps only the few fields it needs.
 * The bytes come from a callback, in chunks of any size, so a caller can
 * feed it a decompressed stream. Every token is checked against JSON's
 * grammar (RFC 8259) as it is read: a document that does not parse stops
 * with an error naming the byte offset, never a partial answer.
 *
 * Debian's streaming JSON parsers (yajl, json-c's tokener) are unmaintained
 * or keep the document; this one is small, allocation-free per token and
 * has its own fuzz target (tests/fuzz/fuzz_trace.c, through the trace
 * reader). */
#ifndef ALLOCLINT_JSONSTREAM_H
#define ALLOCLINT_JSONSTREAM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef enum {
    AL_JS_BEGIN_OBJECT,
    AL_JS_END_OBJECT,
    AL_JS_BEGIN_ARRAY,
    AL_JS_END_ARRAY,
    AL_JS_KEY,    /* an object's key: al_js_text */
    AL_JS_STRING, /* a string value: al_js_text */
    AL_JS_NUMBER, /* al_js_number, or its text with al_js_text */
    AL_JS_TRUE,
    AL_JS_FALSE,
    AL_JS_NULL,
    AL_JS_END,   /* the document ended, and nothing but blanks follows */
    AL_JS_ERROR, /* al_js_error says what and al_js_offset where */
} al_js_token;

/* Reads up to cap bytes into buf; returns how many (0: the end). Sets
 * *failed (and returns 0) on a read error, with a message in err. */
typedef size_t (*al_js_reader)(void *ctx, char *buf, size_t cap, bool *failed, char *err,
                               size_t err_size);

typedef struct al_jsonstream al_jsonstream;

/* max_depth: how deeply arrays and objects may nest (a deeper document is
 * an error, not a stack overflow); max_string: the longest string or key
 * kept, in bytes (a longer one is an error). */
al_jsonstream *al_js_new(al_js_reader read, void *ctx, unsigned max_depth, size_t max_string);
void al_js_free(al_jsonstream *js);

/* The next token. After AL_JS_END or AL_JS_ERROR it returns the same
 * again. */
al_js_token al_js_next(al_jsonstream *js);
/* A key's or string's bytes, unescaped (UTF-8, NUL-terminated; a \u0000
 * escape is kept as a byte, so len may pass a NUL), or a number's text as
 * written. Valid until the next call of al_js_next. */
const char *al_js_text(const al_jsonstream *js, size_t *len);
/* A number's value (strtod of its text). */
double al_js_number(const al_jsonstream *js);
/* Right after AL_JS_BEGIN_OBJECT or AL_JS_BEGIN_ARRAY: reads up to and
 * including the matching end. After a key: reads its value. Otherwise
 * nothing. False on an error (al_js_error). */
bool al_js_skip(al_jsonstream *js, al_js_token just_read);
/* The byte offset, from the start of the stream, where the last token
 * began (for an error: where reading stopped). */
uint64_t al_js_offset(const al_jsonstream *js);
/* What went wrong ("" when nothing did). */
const char *al_js_error(const al_jsonstream *js);
/* How deeply the last token is nested (0: the top-level value). */
unsigned al_js_depth(const al_jsonstream *js);

#endif
