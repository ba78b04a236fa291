// AL201: a prefix sum with a leading zero, three ways (int32, the dtype of
// cu_seqlens and query_start_loc):
//
//  cat     torch.cat([torch.zeros(1), torch.cumsum(x, 0)])
//          fill 1 element, scan into a temporary, concatenate into n + 1
//  pad     F.pad(torch.cumsum(x, 0), (1, 0))
//          scan into a temporary; constant_pad_nd fills n + 1 with the pad
//          value, then copies the temporary into [1:]
//  buffer  buf = torch.empty(n + 1); buf[0] = 0; torch.cumsum(x, 0, out=buf[1:])
//          fill 1 element, scan straight into buf[1:]
//
// The scan is CUB's inclusive sum, as in PyTorch. Every form's output is
// poisoned first and must equal cat's bit for bit.
#include "harness.cuh"

#include <cub/device/device_scan.cuh>

using namespace harness;

__global__ void cat2_kernel(int32_t *__restrict__ out, const int32_t *__restrict__ a, size_t na,
                            const int32_t *__restrict__ b, size_t nb)
{
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    size_t stride = (size_t)gridDim.x * blockDim.x;
    for (; i < na + nb; i += stride)
        out[i] = i < na ? a[i] : b[i - na];
}

int main(int argc, char **argv)
{
    Options opt = parse(argc, argv);
    require_gpu();
    Report rep;
    rep.program = "AL201_cat_with_zeros";
    rep.seed = seed_from_clock();

    for (size_t n : sizes(opt)) {
        size_t bytes = n * sizeof(int32_t), out_bytes = bytes + sizeof(int32_t);
        int sets = opt.check_only ? 1 : rotation_sets(3 * bytes);
        std::vector<int32_t *> x(sets), tmp(sets), out(sets), zero(sets);
        std::vector<int32_t> host(n);
        for (int s = 0; s < sets; s++) {
            CHECK(cudaMalloc(&x[s], bytes));
            CHECK(cudaMalloc(&tmp[s], bytes));
            CHECK(cudaMalloc(&out[s], out_bytes));
            CHECK(cudaMalloc(&zero[s], sizeof(int32_t)));
            fill_random_ints(host, 0, 4096); // sequence lengths
            CHECK(cudaMemcpy(x[s], host.data(), bytes, cudaMemcpyHostToDevice));
        }
        size_t scratch_bytes = 0;
        CHECK(cub::DeviceScan::InclusiveSum(nullptr, scratch_bytes, x[0], tmp[0], (int)n));
        void *scratch = nullptr;
        CHECK(cudaMalloc(&scratch, scratch_bytes));
        int32_t *ref = nullptr;
        CHECK(cudaMalloc(&ref, out_bytes));

        auto scan = [&](const int32_t *in, int32_t *dst) {
            size_t sb = scratch_bytes;
            CHECK(cub::DeviceScan::InclusiveSum(scratch, sb, in, dst, (int)n));
        };
        auto cat = [&](int s) {
            fill(zero[s], 0, 1);
            scan(x[s], tmp[s]);
            unsigned blocks = (unsigned)std::min<size_t>((n + 1 + 255) / 256, 132 * 32);
            cat2_kernel<<<blocks, 256>>>(out[s], zero[s], 1, tmp[s], n);
            CHECK_LAUNCH();
        };
        auto pad = [&](int s) {
            scan(x[s], tmp[s]);
            fill(out[s], 0, n + 1);
            CHECK(cudaMemcpyAsync(out[s] + 1, tmp[s], bytes, cudaMemcpyDeviceToDevice));
        };
        auto buffer = [&](int s) {
            fill(out[s], 0, 1);
            scan(x[s], out[s] + 1);
        };

        poison(out[0], out_bytes);
        cat(0);
        CHECK(cudaMemcpy(ref, out[0], out_bytes, cudaMemcpyDeviceToDevice));
        poison(out[0], out_bytes);
        pad(0);
        rep.check("AL201", "F.pad == cat", n, true, first_difference(ref, out[0], out_bytes));
        poison(out[0], out_bytes);
        buffer(0);
        rep.check("AL201", "empty(n+1), [0]=0, out=[1:] == cat", n, true,
                  first_difference(ref, out[0], out_bytes));

        if (!opt.check_only) {
            int inner, reps;
            timing_plan(bytes, inner, reps);
            Stats a = time_events(cat, sets, inner, reps);
            Stats b = time_events(pad, sets, inner, reps);
            Stats c = time_events(buffer, sets, inner, reps);
            rep.row("AL201", "cat([zeros(1), cumsum])", "original", n, bytes, a, 4 * bytes);
            rep.row("AL201", "cat([zeros(1), cumsum])", "F.pad", n, bytes, b, 5 * bytes);
            rep.row("AL201", "cat([zeros(1), cumsum])", "empty+out=buf[1:]", n, bytes, c,
                    2 * bytes);
        }
        for (int s = 0; s < sets; s++) {
            CHECK(cudaFree(x[s]));
            CHECK(cudaFree(tmp[s]));
            CHECK(cudaFree(out[s]));
            CHECK(cudaFree(zero[s]));
        }
        CHECK(cudaFree(scratch));
        CHECK(cudaFree(ref));
    }
    return rep.finish(opt);
}
