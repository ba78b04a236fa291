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
    AL_TOK_FILL = 1 << 1,     /* fill_( zero_( (Python: those names exactly, not masked_fill_() */
    AL_TOK_TRITON = 1 << 2,   /* triton (C++: anywhere; Python: names triton*, tl, jit) */
    AL_TOK_CAT = 1 << 3,      /* cat( concat( concatenate( stack( pad( */
    AL_TOK_LOOP = 1 << 4,     /* `for ` / `while ` */
    AL_TOK_MOVE = 1 << 5,     /* .to( .cuda( */
    AL_TOK_MAKER = 1 << 6,    /* empty( arange( tensor( rand( ... every other factory */
    AL_TOK_SUPPRESS = 1 << 7, /* noqa (Python: naming AL codes), alloclint: */
    AL_TOK_REBIND = 1 << 8,   /* Python: `x = x op y`, `x = x.clamp(...)`, `x = torch.add(x, y)`,
                                 `x = y + x`: an update AL401 could put in place */
    AL_TOK_CUMSUM = 1 << 9,   /* cumsum( */
    AL_TOK_COPY = 1 << 10,    /* Python: copy_( (and index_copy_) */
    AL_TOK_KERNEL = 1 << 11,  /* Python: a decorator whose text says triton (a kernel) */
    AL_TOK_HOSTMOVE = 1 << 12, /* Python: .to( .cuda( after a FACTORY or MAKER call on one
                                  logical line of code (`torch.zeros(n).to(d)`) */
    AL_TOK_IMPORT = 1 << 13,  /* Python: an import statement (`import`, `from ... import`) */
    AL_TOK_ELEMWISE = 1 << 14, /* Python: sin( cos( exp( log( sqrt( sigmoid( neg( abs( ...:
                                  the elementwise ops whose results AL204 reads */
    AL_TOK_LOOPALLOC = 1 << 15, /* Python: a FACTORY or MAKER call in an assignment (`x = ...`)
                                   on a line of a `for`/`while` body (by indentation; the
                                   loop's own line counts too): what AL301 could hoist */
    AL_TOK_LOOPCAT = 1 << 17, /* Python: a CAT call in an assignment on a line of a loop's body
                                 (as AL_TOK_LOOPALLOC): a tensor AL202 sees grow */
    AL_TOK_LOOPAPPEND = 1 << 18, /* Python: `.append(` on a line of a loop's body: a list
                                    AL205 sees filled */
    AL_TOK_LOOPFILL = 1 << 19, /* Python: `.zero_(` or `.fill_(` on a subscript (`buf[i].zero_(`)
                                  on a line of a loop's body: one index AL303 sees filled */
    AL_TOK_FILLSITE = 1 << 16, /* Python: a FACTORY call that starts an assignment's value
                                  (`x = torch.zeros(...)`) or is an argument (`f(a,
                                  torch.zeros(n))`, `out=x.new_zeros(n)`): where AL101's
                                  buffers are made */
};

/* A top-level statement of a Python file, or a statement of a top-level
 * class's body: whole lines (the comment lines above it included). */
typedef struct {
    size_t start, end;
    unsigned tokens;
    bool definition; /* def, class or decorated: may be left out of a parse */
    size_t name, name_len; /* a function's name (offset, length); 0 length: none */
    /* A top-level class whose body starts on a line of its own: its
     * body's statements, s->members[first_member ..+ n_members]; the
     * class's header runs from start to the first member's start. */
    size_t first_member, n_members;
    unsigned head_tokens; /* those before the first member (a class's header) */
} al_statement_span;

typedef struct {
    al_statement_span *items;
    size_t n, cap;
    al_statement_span *members; /* of the classes among items */
    size_t n_members, cap_members;
    unsigned tokens; /* the file's: every statement's */
    bool renamed;    /* a factory-like name imported under another name */
} al_py_scan;

/* At most this many conjuncts in a rule's needs. */
#define AL_PREFILTER_TERMS 3

/* Those of the token classes `wanted` present in bytes (C++/CUDA
 * sources): each class is a pass over the bytes, so only those asked. */
unsigned al_prefilter_scan(const char *bytes, size_t len, unsigned wanted);
/* One pass over a Python source: its token classes, per top-level
 * statement. Names count when called (`zeros(`, `new_zeros (`,
 * `masked_fill_(`), in code and in strings alike (f-strings hold code). */
void al_prefilter_scan_python(const char *bytes, size_t len, al_py_scan *out);
void al_py_scan_free(al_py_scan *s);
/* Adds to keep (one flag per statement of s) the functions that the kept
 * code calls by plain name, and those they call, to a fixed point: a
 * proof may follow a call into them. With keep_member (one flag per
 * member of s), kept members count as kept code too, and a kept member
 * of a class not kept whole adds the methods it calls through `self.`
 * or `cls.`. */
void al_py_scan_keep_called(const al_py_scan *s, const char *bytes, bool *keep,
                            bool *keep_member);
/* Whether bytes[start, end) assign an attribute `name` (`x.name =`,
 * `x.name: T =`; not `==`). */
bool al_text_assigns_attribute(const char *bytes, size_t start, size_t end, const char *name,
                               size_t n);
/* Whether a statement of s defines the function `name` (`def name`,
 * decorated or not). */
bool al_py_scan_defines(const al_py_scan *s, const char *bytes, size_t i, const char *name,
                        size_t len);
/* The kept code of s as byte spans, neighbours merged, in order: the
 * statements kept whole, and of a class not kept whole but with members
 * kept (keep_member may be NULL), its header and those members. spans
 * must hold s->n + s->n_members entries. Returns how many; *kept their
 * bytes. */
size_t al_py_scan_spans(const al_py_scan *s, const bool *keep, const bool *keep_member,
                        size_t (*spans)[2], size_t *kept);
/* The token classes of Python code in bytes[0, len) (a function's text):
 * every statement's, as al_prefilter_scan_python finds them. */
unsigned al_prefilter_tokens_python(const char *bytes, size_t len);
/* Whether tokens meet needs: every nonzero entry (a set of classes) must
 * share a class with tokens. All zero: always. */
bool al_prefilter_admits(const unsigned needs[AL_PREFILTER_TERMS], unsigned tokens);

#endif
