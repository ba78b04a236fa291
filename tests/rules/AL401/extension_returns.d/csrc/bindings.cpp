// The engine's compiled extension, engine._C: a pybind11 module whose
// functions the Python side calls as `ext_ops.<name>(...)`.
#include <torch/extension.h>

torch::Tensor quant_gemm(torch::Tensor a, torch::Tensor w, int64_t split_k);
torch::Tensor dequant(torch::Tensor w, torch::Tensor scales);
torch::Tensor pack_rows(torch::Tensor x);
torch::Tensor as_contiguous(torch::Tensor x);
torch::Tensor scaled_or_input(torch::Tensor x, double s);
void fill_out(torch::Tensor out, torch::Tensor x);

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
  pybind11::module ops = m.def_submodule("ops", "engine operators");
  ops.def("quant_gemm", &quant_gemm, "split-K GEMM, summed over the splits");
  ops.def(
    "dequant",
    &dequant,
    "dequantised weights");
  ops.def("pack_rows", &pack_rows, "rows packed in place");
  ops.def("as_contiguous", &as_contiguous, "the input when already contiguous");
  ops.def("scaled_or_input", &scaled_or_input, "the input when s == 1");
  ops.def("fill_out", &fill_out, "writes out");
}
