// CUDA kernels and host functions, one per effect the summaries tell apart.
#include <cstdint>

__global__ void guarded_store(float* out, const float* x, int64_t n) {
  int64_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = 2.f * x[i];
}

__global__ void early_exit_store(float* out, int64_t n) {
  int64_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  out[i] = 0.f;
}

__global__ void grid_stride(float* out, const float* x, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
    out[i] = x[i];
  }
}

__global__ void counts(int* hist, const int* ids, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) atomicAdd(&hist[ids[i]], 1);
}

__global__ void adds_into(float* acc, const float* x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) acc[i] += x[i];
}

__global__ void skips_on_data(float* out, const int* lens, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  if (lens[i] == 0) return;
  out[i] = 1.f / lens[i];
}

__global__ void stores_when(float* out, const float* x, int n, bool enabled) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (enabled) out[i] = x[i];
}

__global__ void strided(float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[2 * i] = 1.f;
}

// A miss writes its own value and leaves; a hit writes another: every
// path stores, but the two paths are not one proof.
__global__ void resolve_hits(int* face_ids, const long* zbuf, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  long z = zbuf[i];
  if (z < 0) {
    face_ids[i] = 0;
    return;
  }
  face_ids[i] = (int)z;
}

// Speculative decoding: each block walks its draft tree and writes the
// target's token only at the positions it accepted, chosen by the tree read
// from memory. The other positions keep the caller's fill (-1).
__global__ void accept_along_tree(long* accepted, const long* next_token, const long* target,
                                  int steps) {
    int row = blockIdx.x;
    long at = next_token[row * steps];
    for (int j = 1; j < steps && at >= 0; ++j) {
        accepted[at] = target[at];
        at = next_token[row * steps + j];
    }
}

// The index is computed from the thread, the value is loaded: a full write.
__global__ void gather_rows(float* out, const float* table, const int* ids, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        int id = ids[i];
        out[i] = table[id];
    }
}

// Each expert thread writes its own blocks' ids, from one entry of the
// prefix sum to the next: blocks past the last entry keep the fill.
__global__ void expert_ids_of_blocks(int* expert_ids, const int* cumsum, int num_experts,
                                     int block_size) {
    int e = threadIdx.x;
    if (e < num_experts) {
        for (int i = cumsum[e]; i < cumsum[e + 1]; i += block_size) {
            expert_ids[i / block_size] = e;
        }
    }
}

// The count is computed by thread 0 into shared memory, then every thread
// fills the blocks below it: how many is data.
__global__ void fill_used_blocks(int* ids, const int* counts, int n) {
    __shared__ int s_total;
    if (threadIdx.x == 0) {
        int t = 0;
        for (int k = 0; k < n; ++k) t += counts[k];
        s_total = t;
    }
    __syncthreads();
    const int used = s_total;
    for (int i = threadIdx.x; i < used; i += blockDim.x) {
        ids[i] = i;
    }
}
