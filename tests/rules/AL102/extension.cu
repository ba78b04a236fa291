// golden-args: --select AL102,AL900 --cxx-arg -I/usr/include/torch/csrc/api/include --cxx-arg -I/usr/include
// AL102 fixtures: the host code of a CUDA extension, as an engine's csrc/
// holds it. Parsed against Debian's libtorch-dev headers.
#include <torch/all.h>

__global__ void scale_kernel(float* out, const float* in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[i] * 2.0f;
}

__global__ void count_kernel(int* counts, const int* ids, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) atomicAdd(&counts[ids[i]], 1);
}

// One thread per row sums its row into out[row]: no atomics, but it adds
// into what is there.
__global__ void row_sum_kernel(float* __restrict__ out, const float* x, int rows, int cols) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= rows) return;
  for (int c = 0; c < cols; ++c) out[row] += x[row * cols + c];
}

torch::Tensor copy_into(const torch::Tensor& x) {
  auto out = torch::zeros({x.numel()}, x.options());  // expect: AL102 safe
  out.copy_(x.flatten());
  return out;
}

torch::Tensor filled(int64_t n, const torch::TensorOptions& opts, double v) {
  torch::Tensor b = torch::zeros({n}, opts);  // expect: AL102 safe
  b.fill_(v);
  return b;
}

at::Tensor product(const at::Tensor& a, const at::Tensor& b) {
  at::Tensor c = at::zeros({a.size(0), b.size(1)}, a.options());  // expect: AL102 safe
  at::mm_out(c, a, b);
  return c;
}

torch::Tensor ones_then_copy(const torch::Tensor& x) {
  auto w = torch::ones(x.sizes(), x.options());  // expect: AL102 safe
  w.copy_(x);
  return w;
}

torch::Tensor full_then_copy(const torch::Tensor& x) {
  auto m = torch::full({x.numel()}, -1.0, x.options());  // expect: AL102 safe
  m.copy_(x.flatten());
  return m;
}

torch::Tensor new_zeros_then_copy(const torch::Tensor& x) {
  auto o = x.new_zeros({x.numel()});  // expect: AL102 safe
  o.copy_(x.flatten());
  return o;
}

// The bound `n` is the element count and the grid rounds up: proved.
torch::Tensor kernel_output(const torch::Tensor& x) {
  auto out = torch::zeros({x.numel()}, x.options());  // expect: AL102 safe
  int n = x.numel();
  scale_kernel<<<(n + 255) / 256, 256>>>(out.data_ptr<float>(), x.data_ptr<float>(), n);
  return out;
}

torch::Tensor kernel_output_accessor(const torch::Tensor& x) {
  auto out = torch::zeros_like(x);
  auto y = torch::zeros({x.numel()}, x.options());  // expect: AL102 unsafe
  scale_kernel<<<1, 256>>>(y.mutable_data_ptr<float>(), x.data_ptr<float>(), x.numel());
  return y;
}

torch::Tensor returned_unwritten(int64_t n) {
  // Returned before anything writes it: the zeros are the result.
  auto z = torch::zeros({n}, torch::kInt32);  // expect: none
  return z;
}

torch::Tensor written_from_offset(const torch::Tensor& counts) {
  // Element 0 relies on the fill: cu_seqlens-style offsets.
  auto offsets = torch::zeros({counts.numel() + 1}, counts.options());  // expect: none
  offsets.slice(0, 1).copy_(counts.cumsum(0));
  return offsets;
}

torch::Tensor pointer_offset(const torch::Tensor& x) {
  auto out = torch::zeros({x.numel() + 1}, x.options());  // expect: none
  scale_kernel<<<1, 256>>>(out.data_ptr<float>() + 1, x.data_ptr<float>(), x.numel());
  return out;
}

torch::Tensor atomic_counts(const torch::Tensor& ids, int64_t num_experts) {
  // The kernel accumulates with atomicAdd: it needs the zeros.
  auto counts = torch::zeros({num_experts}, ids.options());  // expect: none
  count_kernel<<<1, 256>>>(counts.data_ptr<int>(), ids.data_ptr<int>(), ids.numel());
  return counts;
}

// Accumulates in a local array, then stores each element once: the output
// is not read, so its zeros are not needed.
__global__ void pair_sum_kernel(float* out, const float* x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float acc[2] = {0.f, 0.f};
  acc[0] += x[2 * i];
  acc[1] += x[2 * i + 1];
  out[i] = acc[0] + acc[1];
}

torch::Tensor pair_sums(const torch::Tensor& x) {
  auto out = torch::zeros({x.numel() / 2}, x.options());  // expect: AL102 safe
  pair_sum_kernel<<<(x.numel() / 2 + 255) / 256, 256>>>(out.data_ptr<float>(),
                                                        x.data_ptr<float>(), x.numel() / 2);
  return out;
}

torch::Tensor row_sums(const torch::Tensor& x) {
  // row_sum_kernel adds into out[row]: the zeros are its initial value.
  auto out = torch::zeros({x.size(0)}, x.options());  // expect: none
  row_sum_kernel<<<(x.size(0) + 255) / 256, 256>>>(out.data_ptr<float>(), x.data_ptr<float>(),
                                                    x.size(0), x.size(1));
  return out;
}

torch::Tensor accumulated_after_write(const torch::Tensor& x, const torch::Tensor& y) {
  auto acc = torch::zeros_like(x);
  auto s = torch::zeros({x.numel()}, x.options());  // expect: none
  s.copy_(x.flatten());
  s.add_(y.flatten());
  return s;
}

torch::Tensor written_under_condition(const torch::Tensor& x, bool flag) {
  auto o = torch::zeros({x.numel()}, x.options());  // expect: none
  if (flag) {
    o.copy_(x.flatten());
  }
  return o;
}

torch::Tensor read_first(const torch::Tensor& x) {
  auto o = torch::zeros({x.numel()}, x.options());  // expect: none
  auto total = o.sum();
  o.copy_(x.flatten());
  return o + total;
}

void helper(torch::Tensor& t);

torch::Tensor handed_to_helper(const torch::Tensor& x) {
  auto o = torch::zeros({x.numel()}, x.options());  // expect: none
  helper(o);
  o.copy_(x.flatten());
  return o;
}

int64_t round_up(int64_t v, int64_t m) { return (v + m - 1) / m * m; }

torch::Tensor padded_scales(const torch::Tensor& x, int64_t rows) {
  // Padded to 128 rows; the kernel writes only the real ones.
  auto scales = torch::zeros({round_up(rows, 128)}, x.options());  // expect: none
  scale_kernel<<<1, 256>>>(scales.data_ptr<float>(), x.data_ptr<float>(), rows);
  return scales;
}

torch::Tensor suppressed_nolint(const torch::Tensor& x) {
  auto o = torch::zeros({x.numel()}, x.options());  // NOLINT(AL102)  // expect: none
  o.copy_(x.flatten());
  return o;
}

torch::Tensor suppressed_next_line(const torch::Tensor& x) {
  // NOLINTNEXTLINE(AL102)
  auto o = torch::zeros({x.numel()}, x.options());  // expect: none
  o.copy_(x.flatten());
  return o;
}

torch::Tensor suppressed_noqa(const torch::Tensor& x) {
  auto o = torch::zeros({x.numel()}, x.options());  // noqa: AL102  // expect: none
  o.copy_(x.flatten());
  return o;
}

torch::Tensor already_empty(const torch::Tensor& x) {
  auto o = torch::empty({x.numel()}, x.options());  // expect: none
  o.copy_(x.flatten());
  return o;
}

// The grid is computed for 128-thread blocks but launches 256-thread
// ones: still enough threads, but alloclint only accepts the grid that
// matches the block it launches.
torch::Tensor mismatched_grid(const torch::Tensor& x) {
  auto out = torch::zeros({x.numel()}, x.options());  // expect: AL102 unsafe
  int64_t n = x.numel();
  scale_kernel<<<(n + 127) / 128, 256>>>(out.data_ptr<float>(), x.data_ptr<float>(), n);
  return out;
}

torch::Tensor bound_changed(const torch::Tensor& x) {
  // The last element is left to the fill.
  auto out = torch::zeros({x.numel()}, x.options());  // expect: AL102 unsafe
  int n = x.numel();
  n -= 1;
  scale_kernel<<<(n + 255) / 256, 256>>>(out.data_ptr<float>(), x.data_ptr<float>(), n);
  return out;
}

static inline int64_t div_ceil(int64_t a, int64_t b) { return (a + b - 1) / b; }
static inline int64_t div_floor(int64_t a, int64_t b) { return a / b; }

torch::Tensor like_with_helper_grid(const torch::Tensor& x) {
  auto out = torch::zeros_like(x);  // expect: AL102 safe
  const int threads = 256;
  dim3 grid(div_ceil(x.numel(), threads));
  dim3 block(threads);
  scale_kernel<<<grid, block, 0>>>(out.data_ptr<float>(), x.data_ptr<float>(), x.numel());
  return out;
}

torch::Tensor floor_grid(const torch::Tensor& x) {
  // Rounds the grid down: the tail of the buffer keeps its fill.
  auto out = torch::full_like(x, 1.0);  // expect: AL102 unsafe
  scale_kernel<<<div_floor(x.numel(), 256), 256>>>(out.data_ptr<float>(), x.data_ptr<float>(),
                                                   x.numel());
  return out;
}

torch::Tensor count_from_sizes(const torch::Tensor& x) {
  auto out = torch::ones(x.sizes(), x.options());  // expect: AL102 safe
  scale_kernel<<<at::ceil_div(x.numel(), 256), 256>>>(out.data_ptr<float>(), x.data_ptr<float>(),
                                                      x.numel());
  return out;
}

torch::Tensor two_dims(const torch::Tensor& x, int64_t rows, int64_t cols) {
  auto out = torch::zeros({rows, cols}, x.options());  // expect: AL102 safe
  const int64_t n = rows * cols;
  scale_kernel<<<(n + 255) / 256, 256>>>(out.data_ptr<float>(), x.data_ptr<float>(), n);
  return out;
}

torch::Tensor other_count(const torch::Tensor& x, const torch::Tensor& y) {
  // Bounded by another tensor's size.
  auto out = torch::zeros({x.numel()}, x.options());  // expect: AL102 unsafe
  scale_kernel<<<(y.numel() + 255) / 256, 256>>>(out.data_ptr<float>(), y.data_ptr<float>(),
                                                 y.numel());
  return out;
}

// Writes the target's token at the positions each row's draft tree accepts,
// positions read from memory: the others keep -1 for the sampler to see.
__global__ void accept_tokens_kernel(int64_t* accepted, const int64_t* next_pos,
                                     const int64_t* target, int steps) {
  int row = blockIdx.x;
  int64_t at = next_pos[row * steps];
  for (int j = 1; j < steps && at >= 0; ++j) {
    accepted[at] = target[at];
    at = next_pos[row * steps + j];
  }
}

torch::Tensor accept_tokens(const torch::Tensor& next_pos, const torch::Tensor& target,
                            int64_t rows, int steps) {
  auto accepted = torch::full({target.numel()}, -1, target.options());  // expect: none
  accept_tokens_kernel<<<rows, 1>>>(accepted.data_ptr<int64_t>(), next_pos.data_ptr<int64_t>(),
                                    target.data_ptr<int64_t>(), steps);
  return accepted;
}

// The size the buffer was made with changes before the launch: the kernel
// stores `n - 1` elements of `n`, and the last keeps its zero.
torch::Tensor shrunk_bound(const torch::Tensor& x) {
  int n = x.numel();
  auto out = torch::zeros({n}, x.options());  // expect: AL102 unsafe
  n -= 1;
  scale_kernel<<<(n + 255) / 256, 256>>>(out.data_ptr<float>(), x.data_ptr<float>(), n);
  return out;
}
