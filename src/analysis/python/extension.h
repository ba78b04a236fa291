/* Calls into the project's own compiled extension: `vllm_ops.awq_gemm(...)`
 * with `from vllm._C import ops as vllm_ops`, a pybind11 module built from
 * the project's C++ sources. What the bound C++ function returns is read
 * from its source through the repo index. */
#ifndef ALLOCLINT_EXTENSION_H
#define ALLOCLINT_EXTENSION_H

#include "fresh.h"

/* Whether q (the call's qualified name) is a function of the project's
 * compiled extension: then *out is FRESH when its C++ source returns a
 * new tensor on every path, NO otherwise, its why naming the function,
 * its file, the binding and the return that decided. */
bool al_extension_call_own(const al_pymodule *m, const char *q, al_own *out);

#endif
