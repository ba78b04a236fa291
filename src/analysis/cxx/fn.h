/* A C++ function as its tokens: where its parameters and body are, what
 * each parameter is (a tensor, a pointer, a pointer to const), and how
 * an effect found in it is recorded. Shared by the kernel summaries
 * (cxx_kernel.c) and the host-function ones (cxx_summary.c). */
#ifndef ALLOCLINT_CXX_FN_H
#define ALLOCLINT_CXX_FN_H

#include "../core/summary.h"
#include "../../front/cxx/cxx.h"

#include <stdbool.h>
#include <stddef.h>

typedef struct {
    const al_cxx_unit *u;
    const char *path;
    size_t first;       /* its first token */
    size_t name;        /* the function's name token */
    size_t open, close; /* its parameter list */
    size_t body, end;   /* `{` and `}` of its body */
} al_cxx_fn;

typedef struct {
    size_t first, last; /* the parameter's tokens, without a default */
    size_t name;        /* its name token */
    bool tensor, pointer, const_pointee;
} al_cxx_param;

/* The tokens of function fi of unit u; false when it has no body. */
bool al_cxx_fn_find(const al_cxx_unit *u, const char *path, size_t fi, al_cxx_fn *f);
/* Its parameters, at most max. */
size_t al_cxx_fn_params(const al_cxx_fn *f, al_cxx_param *out, size_t max);
/* The parameters (at most max) when f has a parameter number `param`;
 * else 0, with out set UNKNOWN ("has no parameter N"). out starts UNUSED. */
size_t al_cxx_fn_params_for(const al_cxx_fn *f, int param, al_cxx_param *ps, size_t max,
                            al_call_effect *out);
/* Whether token i is a use of the parameter whose name is token `name`
 * (that name, not a member of something else). */
bool al_cxx_fn_is_use(const al_cxx_fn *f, size_t i, size_t name);
/* How much an effect stands in the way of a full write, for keeping the
 * worst one seen: accumulates > reads > skips > ... > writes-all. */
int al_effect_severity(al_effect e);
/* Records effect e with its reason (and a chain link at path:row) unless
 * a worse one was recorded; a writes-all link is marked as the store. */
void al_effect_set(al_call_effect *out, al_effect e, const char *path, size_t row, const char *fmt,
                   ...) __attribute__((format(printf, 5, 6)));

#endif
