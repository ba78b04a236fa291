/* Summaries of C++/CUDA host functions, read from their tokens: what a
 * function (an op's implementation, a launcher) does to a tensor
 * parameter — `copy_`/`fill_`/`zero_`, an `at::*_out` op, its `data_ptr()`
 * handed to a `__global__` kernel (cxx_kernel.h says what the kernel
 * does; here the launch must pass the buffer's element count as the
 * kernel's bound, and a grid that covers it), or the tensor handed to
 * another function of the project. */
#ifndef ALLOCLINT_CXX_SUMMARY_H
#define ALLOCLINT_CXX_SUMMARY_H

#include "../core/index.h"
#include "values.h"
#include "../core/summary.h"

/* The effect of function def on its parameter `param` (0-based). WRITES_ALL
 * comes without a requirement only when the function proves it against
 * the tensor itself (`n = out.numel()`). */
void al_cxx_param_effect(al_index *ix, const al_cxx_def *def, int param, int depth,
                         al_call_effect *out);

/* The effect of one use of a tensor variable in a body of unit u (whose
 * `{` is token `body`): at token i, its data pointer (pointer = true) in
 * a `<<<...>>>` launch, or the tensor itself as an argument of a call,
 * followed into the project's kernel or function. numel (may be NULL) is
 * the buffer's element count, which a kernel's bound must equal. */
void al_cxx_use_effect(al_index *ix, const al_cxx_unit *u, const char *path, size_t body,
                       size_t i, bool pointer, const al_cxx_numel *numel, al_call_effect *out);

#endif
