/* Custom ops and the functions that implement them, as registered in
 * Python (direct_register_custom_op(op_name=, op_func=), @custom_op(...)
 * and @register_custom_op(...) decorators, Library(...).impl("op", fn),
 * torch.library.impl("ns::op", "CUDA", fn) and @torch.library.impl(...))
 * or in C++ (TORCH_LIBRARY m.impl). Reads parsed source only; no I/O. */
#ifndef ALLOCLINT_IMPLS_H
#define ALLOCLINT_IMPLS_H

#include "../../front/python/pyast.h"

#include <stddef.h>

typedef struct {
    char *op;   /* "ns.op" without "torch.ops." (al_op_key) */
    char *path; /* the file that registers it */
    char *func; /* the implementing function's name */
} al_impl;

typedef struct {
    al_impl *items;
    size_t n, cap;
} al_impls;

/* Adds the registrations of a Python file (its path, for the bindings). */
void al_impls_read_python(const char *path, const al_pyfile *pf, al_impls *ops);
/* The one binding for op; NULL when none, or when two bind different
 * functions. */
const al_impl *al_impls_find(const al_impls *ops, const char *op);
void al_impls_free(al_impls *ops);

#endif
