#include <torch/extension.h>

torch::Tensor quant_gemm(torch::Tensor a, torch::Tensor w, int64_t split_k)
{
    auto options = torch::TensorOptions().dtype(a.dtype()).device(a.device());
    at::Tensor partial = torch::empty({split_k, a.size(0), w.size(1)}, options);
    // launch the split-K kernel into partial
    return partial.sum(0);
}

torch::Tensor dequant
(
    torch::Tensor w,
    torch::Tensor scales
)
{
    auto options = torch::TensorOptions().dtype(scales.dtype()).device(w.device());
    at::Tensor out = torch::empty({w.size(0), w.size(1) * 8}, options);
    if (w.numel() == 0) {
        return out;
    }
    // launch the dequantisation kernel into out
    return out;
}

torch::Tensor pack_rows(torch::Tensor x)
{
    at::Tensor packed = torch::empty_like(x);
    if (x.size(0) < 2) {
        packed = x;
    }
    return packed;
}

torch::Tensor as_contiguous(torch::Tensor x)
{
    return x.contiguous();
}

torch::Tensor scaled_or_input(torch::Tensor x, double s)
{
    if (s == 1.0) {
        return x;
    }
    at::Tensor y = torch::empty_like(x);
    return y;
}

void fill_out(torch::Tensor out, torch::Tensor x)
{
    out.copy_(x);
}
