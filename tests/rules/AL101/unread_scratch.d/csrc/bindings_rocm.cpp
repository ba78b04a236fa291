// The ROCm build registers the same functions under the same names.
#include <torch/library.h>

void align_tokens(torch::Tensor ids, torch::Tensor sorted, torch::Tensor offsets,
                  int64_t num_experts);

TORCH_LIBRARY_FRAGMENT(_router_C, m) {
  m.impl("align_tokens", torch::kCUDA, &align_tokens);
}
