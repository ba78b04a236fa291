// Host functions that take a tensor and launch a kernel on it.
#include <torch/all.h>

__global__ void guarded_store(float* out, const float* x, int64_t n) {
  int64_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = 2.f * x[i];
}

void own_count(torch::Tensor& out, const torch::Tensor& x) {
  const int64_t n = out.numel();
  guarded_store<<<(n + 255) / 256, 256>>>(out.data_ptr<float>(), x.data_ptr<float>(), n);
}

void other_count(torch::Tensor& out, const torch::Tensor& x) {
  guarded_store<<<(x.numel() + 255) / 256, 256>>>(out.data_ptr<float>(), x.data_ptr<float>(),
                                                  x.numel());
}

void fixed_grid(torch::Tensor& out, const torch::Tensor& x) {
  guarded_store<<<64, 256>>>(out.data_ptr<float>(), x.data_ptr<float>(), out.numel());
}

void copies(torch::Tensor& out, const torch::Tensor& x) {
  out.copy_(x);
}

void fills_when(torch::Tensor& out, bool flag) {
  if (flag) {
    out.fill_(1.0);
  }
}

void through_mm(torch::Tensor& out, const torch::Tensor& a, const torch::Tensor& b) {
  at::mm_out(out, a, b);
}

void through_launcher(torch::Tensor& out, const torch::Tensor& x) {
  own_count(out, x);
}

torch::Tensor returns_it(torch::Tensor& out) {
  return out;
}
