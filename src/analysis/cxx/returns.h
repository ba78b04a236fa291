/* What a C++ host function returns, read from its tokens: whether every
 * `return` hands back a tensor the function made (a factory's result, or
 * a reduction or product that always allocates), so that a Python caller
 * of the compiled extension gets a tensor no one else holds. */
#ifndef ALLOCLINT_CXX_RETURNS_H
#define ALLOCLINT_CXX_RETURNS_H

#include "../core/index.h"

#include <stdbool.h>
#include <stddef.h>

/* Whether every return of def is a new tensor. why (len bytes) says how
 * (the line of a factory) or, when false, which return is not. */
bool al_cxx_returns_new(const al_cxx_def *def, char *why, size_t len);

#endif
