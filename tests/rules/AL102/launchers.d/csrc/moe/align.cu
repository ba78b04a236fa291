// golden-args: --select AL102 --cxx-arg -I/usr/include/torch/csrc/api/include --cxx-arg -I/usr/include
#include <torch/all.h>

void launch_expert_offsets(torch::Tensor& offsets, const torch::Tensor& counts);
void launch_token_counts(torch::Tensor& counts, const torch::Tensor& ids);
void launch_gather(torch::Tensor& out, const torch::Tensor& x, const torch::Tensor& rows);
void launch_gather_all(torch::Tensor& out, const torch::Tensor& x, const torch::Tensor& rows);

torch::Tensor expert_offsets(const torch::Tensor& counts) {
  auto offsets = torch::zeros({counts.numel()}, counts.options());  // expect: AL102 safe
  launch_expert_offsets(offsets, counts);
  return offsets;
}

torch::Tensor token_counts(const torch::Tensor& ids, int64_t num_experts) {
  // The kernel counts with atomicAdd: it needs the zeros.
  auto counts = torch::zeros({num_experts}, ids.options());  // expect: none
  launch_token_counts(counts, ids);
  return counts;
}

torch::Tensor gather(const torch::Tensor& x, const torch::Tensor& rows, int64_t capacity) {
  // Sized by capacity, written up to rows.numel(): the tail keeps its zeros.
  auto out = torch::zeros({capacity}, x.options());  // expect: AL102 unsafe
  launch_gather(out, x, rows);
  return out;
}

torch::Tensor gather_all(const torch::Tensor& x, const torch::Tensor& rows) {
  auto out = torch::zeros_like(rows, x.options());  // expect: AL102 safe
  launch_gather_all(out, x, rows);
  return out;
}
