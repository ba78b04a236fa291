#include <torch/library.h>

void align_tokens(torch::Tensor ids, torch::Tensor sorted, torch::Tensor offsets,
                  int64_t num_experts);
void align_tokens_keep(torch::Tensor ids, torch::Tensor sorted, torch::Tensor offsets, bool reset);
void align_tokens_early(torch::Tensor ids, torch::Tensor sorted, torch::Tensor offsets);
void align_tokens_switch(torch::Tensor ids, torch::Tensor sorted, torch::Tensor offsets,
                         int64_t mode);

TORCH_LIBRARY(_router_C, m) {
  m.def("align_tokens(Tensor ids, Tensor! sorted, Tensor! offsets, int num_experts) -> ()");
  m.impl("align_tokens", torch::kCUDA, &align_tokens);
  m.def("align_tokens_keep(Tensor ids, Tensor! sorted, Tensor! offsets, bool reset) -> ()");
  m.impl("align_tokens_keep", torch::kCUDA, &align_tokens_keep);
  m.def("align_tokens_early(Tensor ids, Tensor! sorted, Tensor! offsets) -> ()");
  m.impl("align_tokens_early", torch::kCUDA, &align_tokens_early);
  m.def("align_tokens_switch(Tensor ids, Tensor! sorted, Tensor! offsets, int mode) -> ()");
  m.impl("align_tokens_switch", torch::kCUDA, &align_tokens_switch);
}
