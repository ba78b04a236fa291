// Token alignment for the MoE router: one kernel counts tokens per
// expert into shared memory, a second sorts them through `offsets`.
#include <torch/all.h>

template <typename scalar_t>
__global__ void count_sort_kernel(const scalar_t* __restrict__ ids, int32_t* __restrict__ sorted,
                                  int32_t* __restrict__ offsets, size_t numel) {
  const size_t tid = blockIdx.x * blockDim.x + threadIdx.x;
  for (size_t i = tid; i < numel; i += blockDim.x * gridDim.x) {
    int32_t slot = atomicAdd(&offsets[ids[i]], 1);
    sorted[slot] = i;
  }
}

// The host helper of the CPU build: same name, a template over pointers.
template <int BLOCK>
int align_tokens(int32_t* sorted, const int32_t* ids, int32_t* offsets, int n) {
  for (int i = 0; i < n; ++i) offsets[ids[i]] += 1;
  return n;
}

// `offsets` is scratch: the small path never touches it, the large one
// clears it before its kernel counts into it.
void align_tokens(torch::Tensor ids, torch::Tensor sorted, torch::Tensor offsets,
                  int64_t num_experts) {
  TORCH_CHECK(offsets.numel() == num_experts + 1);
  const bool small = ids.numel() < 1024;
  if (small) {
    sorted.fill_(0);
  } else {
    offsets.zero_();
    count_sort_kernel<int32_t><<<64, 256>>>(ids.data_ptr<int32_t>(), sorted.data_ptr<int32_t>(),
                                            offsets.data_ptr<int32_t>(), ids.numel());
  }
}

// Here the clear is conditional but the kernel is not: the caller's
// zeros are what the kernel counts into when `reset` is false.
void align_tokens_keep(torch::Tensor ids, torch::Tensor sorted, torch::Tensor offsets,
                       bool reset) {
  if (reset)
    offsets.zero_();
  count_sort_kernel<int32_t><<<64, 256>>>(ids.data_ptr<int32_t>(), sorted.data_ptr<int32_t>(),
                                          offsets.data_ptr<int32_t>(), ids.numel());
}

// A data pointer taken before the clear may be read through later.
void align_tokens_early(torch::Tensor ids, torch::Tensor sorted, torch::Tensor offsets) {
  int32_t* base = offsets.data_ptr<int32_t>();
  if (ids.numel() > 0) {
    offsets.zero_();
    count_sort_kernel<int32_t><<<64, 256>>>(ids.data_ptr<int32_t>(), sorted.data_ptr<int32_t>(),
                                            base, ids.numel());
  }
}

// A switch may enter its block at a label past the clear.
void align_tokens_switch(torch::Tensor ids, torch::Tensor sorted, torch::Tensor offsets,
                         int64_t mode) {
  switch (mode) {
    case 0:
      offsets.zero_();
    case 1:
      count_sort_kernel<int32_t><<<64, 256>>>(ids.data_ptr<int32_t>(),
                                              sorted.data_ptr<int32_t>(),
                                              offsets.data_ptr<int32_t>(), ids.numel());
      break;
  }
}
