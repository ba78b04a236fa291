// Launchers: each takes the output tensor the caller allocated.
#include <torch/all.h>
#include "align_kernels.cuh"

void launch_expert_offsets(torch::Tensor& offsets, const torch::Tensor& counts) {
  const int64_t num_experts = offsets.numel();
  expert_offsets_kernel<<<(num_experts + 63) / 64, 64>>>(
      offsets.data_ptr<int32_t>(), counts.data_ptr<int32_t>(), num_experts);
}

void launch_token_counts(torch::Tensor& counts, const torch::Tensor& ids) {
  token_counts_kernel<<<(ids.numel() + 255) / 256, 256>>>(counts.data_ptr<int32_t>(),
                                                          ids.data_ptr<int32_t>(), ids.numel());
}

void launch_gather(torch::Tensor& out, const torch::Tensor& x, const torch::Tensor& rows) {
  gather_rows_kernel<<<128, 256>>>(out.data_ptr<float>(), x.data_ptr<float>(),
                                   rows.data_ptr<int32_t>(), rows.numel());
}

void launch_gather_all(torch::Tensor& out, const torch::Tensor& x, const torch::Tensor& rows) {
  gather_rows_kernel<<<128, 256>>>(out.data_ptr<float>(), x.data_ptr<float>(),
                                   rows.data_ptr<int32_t>(), out.numel());
}
