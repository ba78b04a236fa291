// Row scales of a [rows, hidden] activation, one thread per row.
#include <torch/all.h>

__global__ void row_scale_kernel(float* __restrict__ scales, const float* __restrict__ x,
                                 int64_t rows, int64_t hidden) {
  int64_t r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows) return;
  float acc = 0.f;
  for (int64_t h = 0; h < hidden; ++h) acc += x[r * hidden + h] * x[r * hidden + h];
  scales[r] = rsqrtf(acc / hidden + 1e-6f);
}

// Rows whose length is zero are left alone: their scale stays what it was.
__global__ void ragged_scale_kernel(float* __restrict__ scales, const int* __restrict__ lens,
                                    int64_t rows) {
  int64_t r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows) return;
  if (lens[r] == 0) return;
  scales[r] = 1.0f / lens[r];
}

void rms_scales(torch::Tensor& scales, const torch::Tensor& x) {
  const int64_t rows = scales.numel();
  const int64_t hidden = x.size(-1);
  const int threads = 128;
  row_scale_kernel<<<(rows + threads - 1) / threads, threads>>>(
      scales.data_ptr<float>(), x.data_ptr<float>(), rows, hidden);
}

void ragged_scales(torch::Tensor& scales, const torch::Tensor& lens) {
  const int64_t rows = scales.numel();
  ragged_scale_kernel<<<(rows + 127) / 128, 128>>>(scales.data_ptr<float>(),
                                                   lens.data_ptr<int>(), rows);
}
