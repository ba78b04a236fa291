// AL501: torch.zeros(n).to("cuda")  ->  torch.zeros(n, device="cuda")
//
// The original allocates and zeroes n floats in host memory, then copies
// them to the device from pageable memory (a synchronous copy through a
// staging buffer). The rewrite launches one fill kernel on the device.
// Timed with the host clock: the original's cost is mostly host work.
#include "harness.cuh"

using namespace harness;

int main(int argc, char **argv)
{
    Options opt = parse(argc, argv);
    require_gpu();
    Report rep;
    rep.program = "AL501_host_alloc_then_copy";
    rep.seed = seed_from_clock();
    std::vector<size_t> ns = opt.check_only ? std::vector<size_t>{160, 1u << 20}
                                            : std::vector<size_t>{160, 4096, 65536, 1u << 20,
                                                                  16u << 20, 64u << 20};
    for (size_t n : ns) {
        size_t bytes = n * sizeof(float);
        float *dev = nullptr, *ref = nullptr;
        CHECK(cudaMalloc(&dev, bytes));
        CHECK(cudaMalloc(&ref, bytes));

        auto host_then_copy = [&](int) {
            float *h = (float *)std::calloc(n, sizeof(float));
            if (!h)
                std::abort();
            CHECK(cudaMemcpy(dev, h, bytes, cudaMemcpyHostToDevice));
            std::free(h);
        };
        auto on_device = [&](int) { fill(dev, 0.0f, n); };

        poison(dev, bytes);
        host_then_copy(0);
        CHECK(cudaMemcpy(ref, dev, bytes, cudaMemcpyDeviceToDevice));
        poison(dev, bytes);
        on_device(0);
        rep.check("AL501", "zeros(device=) == zeros().to()", n, true,
                  first_difference(ref, dev, bytes));

        if (!opt.check_only) {
            int inner, reps;
            timing_plan(bytes, inner, reps);
            inner = std::max(1, inner / 10);
            Stats a = time_wall(host_then_copy, 1, inner, reps);
            Stats b = time_wall(on_device, 1, inner, reps);
            rep.row("AL501", "zeros().to(cuda) vs zeros(device=cuda)", "original", n, bytes, a,
                    bytes);
            rep.row("AL501", "zeros().to(cuda) vs zeros(device=cuda)", "rewritten", n, bytes, b,
                    bytes);
        }
        CHECK(cudaFree(dev));
        CHECK(cudaFree(ref));
    }
    return rep.finish(opt);
}
