/* Values of C++ host expressions, read from tokens: a launch's bound,
 * grid and block, and a buffer's element count, as compact text with each
 * local replaced by the value it was declared with (`int n = x.numel();`
 * makes `n` read `x.numel()`) — what two expressions of one function are
 * compared by when a proof needs them equal. */
#ifndef ALLOCLINT_CXX_VALUES_H
#define ALLOCLINT_CXX_VALUES_H

#include "../../front/cxx/cxx.h"

#include <stdbool.h>
#include <stddef.h>

/* How many elements a buffer holds, as tokens of its allocation: the
 * dimensions inside `{A, B}` (A * B elements; [a, b) inside the braces),
 * or the tensor x of `zeros_like(x)` / `zeros(x.sizes())` (x.numel()). */
typedef enum { AL_CXX_NUMEL_UNKNOWN, AL_CXX_NUMEL_DIMS, AL_CXX_NUMEL_OF } al_cxx_numel_kind;

typedef struct {
    al_cxx_numel_kind kind;
    size_t a, b;
} al_cxx_numel;

/* Tokens [a, b) as text without white space. */
char *al_cxx_compact(const al_cxx_unit *u, size_t a, size_t b);

/* The value of tokens [a, b) as seen at token `at`, in the block whose
 * `{` and `}` are `body` and `end`: a local declared once with a value
 * before `at` (and whose inputs nobody writes in between) reads as that
 * value, and integer casts are dropped. */
char *al_cxx_value(const al_cxx_unit *u, size_t body, size_t end, size_t a, size_t b, size_t at);

/* Whether compact text t has an operator outside brackets that binds
 * looser than `*` and `/` (or than `+` and `-` when additive_ok). */
bool al_cxx_needs_parens(const char *t, bool additive_ok);

/* Item `arg` of the comma list between tokens open and close. */
bool al_cxx_list_item(const al_cxx_unit *u, size_t open, size_t close, int arg, size_t *a, size_t *b);

/* `k<<<grid, block, ...>>>` with the kernel's name at token k. */
bool al_cxx_launch_config(const al_cxx_unit *u, size_t k, size_t *ga, size_t *gb, size_t *ba,
                          size_t *bb);

/* The buffer's element count as value text at token `at`, or NULL. */
char *al_cxx_numel_text(const al_cxx_unit *u, size_t body, size_t end, const al_cxx_numel *numel,
                        size_t at);

#endif
