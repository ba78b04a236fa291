// AL101: torch.zeros(n) + buf.copy_(src)  ->  torch.empty(n) + buf.copy_(src)
//
// As the GPU runs them under PyTorch (caching allocator, so no cudaMalloc
// in steady state): the original launches a fill kernel and then a
// device-to-device copy; the rewrite launches the copy alone.
//
// Checks, on fresh random inputs: the rewrite's buffer is poisoned first
// (uninitialised memory), and both forms must agree bit for bit. The
// partial overwrite buf[:n - n/8].copy_(src) is the case where the rewrite
// is WRONG (the tail relied on the zeros): the check must see it differ.
#include "harness.cuh"

using namespace harness;

int main(int argc, char **argv)
{
    Options opt = parse(argc, argv);
    require_gpu();
    Report rep;
    rep.program = "AL101_zeros_overwritten";
    rep.seed = seed_from_clock();

    for (size_t n : sizes(opt)) {
        size_t bytes = n * sizeof(float);
        int sets = opt.check_only ? 1 : rotation_sets(2 * bytes);
        std::vector<float *> src(sets), buf(sets);
        std::vector<float> host(n);
        for (int s = 0; s < sets; s++) {
            CHECK(cudaMalloc(&src[s], bytes));
            CHECK(cudaMalloc(&buf[s], bytes));
            fill_random_floats(host);
            CHECK(cudaMemcpy(src[s], host.data(), bytes, cudaMemcpyHostToDevice));
        }
        float *ref = nullptr;
        CHECK(cudaMalloc(&ref, bytes));

        auto original = [&](int s, size_t written) {
            fill(buf[s], 0.0f, n);
            CHECK(cudaMemcpyAsync(buf[s], src[s], written * sizeof(float),
                                  cudaMemcpyDeviceToDevice));
        };
        auto rewritten = [&](int s, size_t written) {
            CHECK(cudaMemcpyAsync(buf[s], src[s], written * sizeof(float),
                                  cudaMemcpyDeviceToDevice));
        };

        // Full overwrite: the rewrite must be exact.
        original(0, n);
        CHECK(cudaMemcpy(ref, buf[0], bytes, cudaMemcpyDeviceToDevice));
        poison(buf[0], bytes);
        rewritten(0, n);
        rep.check("AL101", "copy_ overwrites all", n, true, first_difference(ref, buf[0], bytes));

        // Partial overwrite: the tail relied on the zero fill.
        size_t part = n - n / 8;
        original(0, part);
        CHECK(cudaMemcpy(ref, buf[0], bytes, cudaMemcpyDeviceToDevice));
        poison(buf[0], bytes);
        rewritten(0, part);
        rep.check("AL101", "WRONG: copy_ overwrites 7/8", n, false,
                  first_difference(ref, buf[0], bytes));

        if (!opt.check_only) {
            int inner, reps;
            timing_plan(bytes, inner, reps);
            Stats a = time_events([&](int s) { original(s, n); }, sets, inner, reps);
            Stats b = time_events([&](int s) { rewritten(s, n); }, sets, inner, reps);
            rep.row("AL101", "zeros+copy_ vs empty+copy_", "original", n, bytes, a, 3 * bytes);
            rep.row("AL101", "zeros+copy_ vs empty+copy_", "rewritten", n, bytes, b, 2 * bytes);
        }
        for (int s = 0; s < sets; s++) {
            CHECK(cudaFree(src[s]));
            CHECK(cudaFree(buf[s]));
        }
        CHECK(cudaFree(ref));
    }
    return rep.finish(opt);
}
