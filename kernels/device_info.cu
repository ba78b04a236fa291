// The device the results belong to, and its measured copy bandwidth: a
// 1 GiB device-to-device copy, counting bytes read plus bytes written.
#include "harness.cuh"

using namespace harness;

int main(int argc, char **argv)
{
    Options opt = parse(argc, argv);
    require_gpu();
    cudaDeviceProp p;
    CHECK(cudaGetDeviceProperties(&p, 0));
    int driver = 0, runtime = 0;
    CHECK(cudaDriverGetVersion(&driver));
    CHECK(cudaRuntimeGetVersion(&runtime));
    size_t bytes = opt.check_only ? (64u << 20) : (1u << 30);
    void *a = nullptr, *b = nullptr;
    CHECK(cudaMalloc(&a, bytes));
    CHECK(cudaMalloc(&b, bytes));
    CHECK(cudaMemset(a, 1, bytes));
    Stats t = time_events([&](int) { CHECK(cudaMemcpyAsync(b, a, bytes, cudaMemcpyDeviceToDevice)); },
                          1, 5, 21);
    double gbps = 2.0 * (double)bytes / t.median_us / 1e3;
    std::printf("%s, %d SMs, L2 %d MB, CUDA driver %d, runtime %d: copy %.0f GB/s\n", p.name,
                p.multiProcessorCount, p.l2CacheSize >> 20, driver, runtime, gbps);
    if (!opt.json_path.empty()) {
        FILE *f = std::fopen(opt.json_path.c_str(), "w");
        if (!f)
            return 1;
        std::fprintf(f,
                     "{\"name\": \"%s\", \"sms\": %d, \"l2_bytes\": %d, \"memory_bytes\": %zu, "
                     "\"cc\": \"%d.%d\", \"cuda_driver\": %d, \"cuda_runtime\": %d, "
                     "\"copy_gbps\": %.1f}\n",
                     p.name, p.multiProcessorCount, p.l2CacheSize, p.totalGlobalMem, p.major,
                     p.minor, driver, runtime, gbps);
        std::fclose(f);
    }
    CHECK(cudaFree(a));
    CHECK(cudaFree(b));
    return 0;
}
