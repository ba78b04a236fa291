// Ops of the engine's extension: their schemas say what their results are.
#include <torch/library.h>

at::Tensor quant_gemm(const at::Tensor& a, const at::Tensor& w);
at::Tensor as_rows(const at::Tensor& x, int64_t rows);
std::tuple<at::Tensor, at::Tensor> split_heads(const at::Tensor& x);

TORCH_LIBRARY(_engine_C, m) {
  // A new output tensor.
  m.def("quant_gemm(Tensor a, Tensor w) -> Tensor");
  m.impl("quant_gemm", torch::kCUDA, &quant_gemm);
  // A view of its argument.
  m.def("as_rows(Tensor(a) x, int rows) -> Tensor(a)");
  m.impl("as_rows", torch::kCUDA, &as_rows);
}
