/* Summaries of `__global__` kernels, read from their tokens: what a
 * kernel does through a pointer parameter. Atomics or `+=` accumulate, a
 * load reads, an early `return` on data loaded from memory skips, and a
 * store `p[i] = ...` writes every element of [0, n) when i is the thread
 * index `blockIdx.x * blockDim.x + threadIdx.x` guarded by `i < n` (the
 * launch must then cover n) or a grid-stride loop up to n. */
#ifndef ALLOCLINT_CXX_KERNEL_H
#define ALLOCLINT_CXX_KERNEL_H

#include "fn.h"

/* The effect of kernel f on its parameter `param` (0-based). WRITES_ALL
 * carries its bound as a requirement (AL_REQ_NUMEL_IS_VALUE). */
void al_cxx_kernel_param_effect(const al_cxx_fn *f, int param, al_call_effect *out);

#endif
