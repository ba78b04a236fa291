// Kernels of MoE token alignment, shared by the launchers.
#pragma once
#include <cstdint>

__global__ void expert_offsets_kernel(int32_t* __restrict__ offsets,
                                      const int32_t* __restrict__ counts, int64_t num_experts) {
  // One thread per expert; offsets[e] = sum of counts before e.
  int64_t e = blockIdx.x * blockDim.x + threadIdx.x;
  if (e < num_experts) {
    int32_t acc = 0;
    for (int64_t j = 0; j < e; ++j) acc += counts[j];
    offsets[e] = acc;
  }
}

__global__ void token_counts_kernel(int32_t* __restrict__ counts, const int32_t* __restrict__ ids,
                                    int64_t n) {
  int64_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) atomicAdd(&counts[ids[i]], 1);
}

__global__ void gather_rows_kernel(float* __restrict__ out, const float* __restrict__ x,
                                   const int32_t* __restrict__ rows, int64_t n) {
  // Grid-stride: thread i writes out[i], out[i + stride], ...
  for (int64_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    out[i] = x[rows[i]];
}
