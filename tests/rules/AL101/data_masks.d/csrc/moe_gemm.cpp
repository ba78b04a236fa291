#include <torch/library.h>

// The implementation lives in a prebuilt library: only the schema is here.
TORCH_LIBRARY(_moe_C, m) {
  m.def("grouped_gemm(Tensor! c, Tensor a, Tensor b, Tensor! topk_weights) -> ()");
}
