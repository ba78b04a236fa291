#include <torch/library.h>

void rms_scales(torch::Tensor& scales, const torch::Tensor& x);
void ragged_scales(torch::Tensor& scales, const torch::Tensor& lens);

TORCH_LIBRARY(_kvq_C, m) {
  m.def("rms_scales(Tensor! scales, Tensor x) -> ()");
  m.impl("rms_scales", torch::kCUDA, &rms_scales);
  m.def("ragged_scales(Tensor! scales, Tensor lens) -> ()");
  m.impl("ragged_scales", torch::kCUDA, &ragged_scales);
}
