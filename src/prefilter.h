/* Cheap token facts about a file's bytes, to skip parsing what no enabled
 * rule can fire on. Each rule declares the token classes a file needs and
 * those the top-level statement holding a finding needs (rules/rules.h): a
 * file is parsed when some enabled rule's file needs are met, and of a
 * Python file only its module-level code and the definitions that meet
 * some rule's statement needs. */
#ifndef ALLOCLINT_PREFILTER_H
#define ALLOCLINT_PREFILTER_H

#include <stdbool.h>
#include <stddef.h>

enum {
    AL_TOK_FACTORY = 1 << 0,  /* zeros( ones( full( (and _like, new_) */
    AL_TOK_FILL = 1 << 1,     /* fill_( zero_( */
    AL_TOK_TRITON = 1 << 2,   /* triton (C++: anywhere; Python: names triton*, tl, jit) */
    AL_TOK_CAT = 1 << 3,      /* cat( concat( concatenate( stack( pad( */
    AL_TOK_LOOP = 1 << 4,     /* `for ` / `while ` */
    AL_TOK_MOVE = 1 << 5,     /* .to( .cuda( */
    AL_TOK_MAKER = 1 << 6,    /* empty( arange( tensor( rand( ... every other factory */
    AL_TOK_SUPPRESS = 1 << 7, /* noqa (Python: naming AL codes), alloclint: */
    AL_TOK_REBIND = 1 << 8,   /* Python: `x = ... x ...` on one logical line */
    AL_TOK_CUMSUM = 1 << 9,   /* cumsum( */
};

/* A top-level statement of a Python file, whole lines (the comment lines
 * above it included). */
typedef struct {
    size_t start, end;
    unsigned tokens;
    bool definition; /* def, class or decorated: may be left out of a parse */
    size_t name, name_len; /* a function's name (offset, length); 0 length: none */
} al_statement_span;

typedef struct {
    al_statement_span *items;
    size_t n, cap;
    unsigned tokens; /* the file's: every statement's */
    bool renamed;    /* a factory-like name imported under another name */
} al_py_scan;

/* At most this many conjuncts in a rule's needs. */
#define AL_PREFILTER_TERMS 3

/* The token classes present in bytes (C++/CUDA sources). */
unsigned al_prefilter_scan(const char *bytes, size_t len);
/* One pass over a Python source: its token classes, per top-level
 * statement. Names count when called (`zeros(`, `new_zeros (`,
 * `masked_fill_(`), in code and in strings alike (f-strings hold code). */
void al_prefilter_scan_python(const char *bytes, size_t len, al_py_scan *out);
void al_py_scan_free(al_py_scan *s);
/* Calls f(name, len, arg) for each plain name called in bytes[start, end)
 * (`helper(`, not `x.helper(`). */
void al_prefilter_called_names(const char *bytes, size_t start, size_t end,
                               void (*f)(const char *name, size_t len, void *arg), void *arg);
/* Adds to keep (one flag per statement of s) the functions that the kept
 * statements call by plain name, and those they call, to a fixed point:
 * a proof may follow a call into them. */
void al_py_scan_keep_called(const al_py_scan *s, const char *bytes, bool *keep);
/* Whether a statement of s defines the function `name` (`def name`,
 * decorated or not). */
bool al_py_scan_defines(const al_py_scan *s, const char *bytes, size_t i, const char *name,
                        size_t len);
/* The kept statements of s as byte spans, neighbours merged, in order:
 * spans must hold s->n entries. Returns how many; *kept their bytes. */
size_t al_py_scan_spans(const al_py_scan *s, const bool *keep, size_t (*spans)[2],
                        size_t *kept);
/* Whether tokens meet needs: every nonzero entry (a set of classes) must
 * share a class with tokens. All zero: always. */
bool al_prefilter_admits(const unsigned needs[AL_PREFILTER_TERMS], unsigned tokens);

#endif
