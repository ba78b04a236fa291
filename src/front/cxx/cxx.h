/* C++/CUDA extension sources through libclang. libclang finds the
 * functions and their body extents; the statements inside a body are read
 * from its tokens. Without the project's headers (torch, the CUDA runtime)
 * clang drops statements after the first unresolved name from the AST,
 * but body extents and tokens survive, so the analysis needs no headers
 * and parses a file in milliseconds (with torch headers: about 15 s). */
#ifndef ALLOCLINT_CXX_H
#define ALLOCLINT_CXX_H

#include "../../base/source.h"

#include <stdbool.h>
#include <stddef.h>

typedef enum { AL_CXX_PUNCT, AL_CXX_KEYWORD, AL_CXX_IDENT, AL_CXX_LITERAL } al_cxx_token_kind;

typedef struct {
    al_cxx_token_kind kind;
    size_t start, end; /* bytes */
} al_cxx_token;

/* A function or function template declaration of the main file. */
typedef struct {
    size_t first, last; /* its tokens, [first, last) */
    char *name;
} al_cxx_function;

/* One statement of a block, by tokens [start, end). */
typedef struct {
    size_t start, end;
    bool control; /* if/for/while/switch/do/try or a nested block */
} al_cxx_stmt;

typedef struct {
    const al_source *src;
    al_cxx_token *tokens; /* every token of the file but comments */
    size_t n;
    al_span *comments; /* for NOLINT / noqa */
    size_t n_comments, cap_comments;
    size_t *bodies; /* the `{` token of each outermost compound statement */
    size_t n_bodies, cap_bodies;
    al_cxx_function *functions;
    size_t n_functions, cap_functions;
    bool parsed;
    char error[256];
} al_cxx_unit;

/* Whether this build uses libclang (it is loaded on first use). */
bool al_cxx_built(void);
/* Whether C++/CUDA sources can be parsed: built with libclang, and the
 * library loads (the first call loads it). */
bool al_cxx_available(void);
/* Why not, when al_cxx_available() is false. */
const char *al_cxx_unavailable_reason(void);
/* The libclang file in use and where it was found (for `alloclint
 * version`); NULL when none is (then al_cxx_unavailable_reason says why). */
const char *al_cxx_library(const char **origin);
bool al_is_cxx_path(const char *path);
/* Parses one C++/CUDA source (its bytes in src; args are extra clang
 * arguments, e.g. from compile_commands.json). Without args, includes are
 * not followed. src must outlive the unit. */
void al_cxx_parse(const al_source *src, const char *const *args, int nargs, al_cxx_unit *out);
void al_cxx_unit_free(al_cxx_unit *u);

/* Whether token i spells s (false past the end). */
bool al_cxx_is(const al_cxx_unit *u, size_t i, const char *s);
bool al_cxx_word_in(const al_cxx_unit *u, size_t i, const char *const *list);
/* Whether tokens a and b spell the same text. */
bool al_cxx_token_eq(const al_cxx_unit *u, size_t a, size_t b);
/* The token matching the ( [ { at i, or n. */
size_t al_cxx_match(const al_cxx_unit *u, size_t i);
/* The statements of the block whose `{` is token b and `}` token e. */
size_t al_cxx_split(const al_cxx_unit *u, size_t b, size_t e, al_cxx_stmt *out, size_t max);
/* The source text of tokens [a, b); caller frees. */
char *al_cxx_text(const al_cxx_unit *u, size_t a, size_t b);
size_t al_cxx_row(const al_cxx_unit *u, size_t offset);

#endif
