// Shared harness for the reference programs: error checks, random inputs,
// poisoning, bit-for-bit comparison, event timing over rotating buffers
// and JSON output. Each program holds the original and the rewritten form
// of one pattern as the GPU executes it under PyTorch.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#define CHECK(call)                                                                  \
    do {                                                                             \
        cudaError_t err_ = (call);                                                   \
        if (err_ != cudaSuccess) {                                                   \
            std::fprintf(stderr, "%s:%d: %s failed: %s\n", __FILE__, __LINE__, #call, \
                         cudaGetErrorString(err_));                                  \
            std::exit(1);                                                            \
        }                                                                            \
    } while (0)
#define CHECK_LAUNCH() CHECK(cudaGetLastError())

namespace harness {

constexpr int kSkip = 77; // ctest's SKIP_RETURN_CODE

struct Options {
    bool check_only = false; // correctness at a few sizes, no timing
    std::string json_path;
};

inline Options parse(int argc, char **argv)
{
    Options o;
    for (int i = 1; i < argc; i++) {
        if (!std::strcmp(argv[i], "--check"))
            o.check_only = true;
        else if (!std::strcmp(argv[i], "--json") && i + 1 < argc)
            o.json_path = argv[++i];
        else {
            std::fprintf(stderr, "usage: %s [--check] [--json FILE]\n", argv[0]);
            std::exit(2);
        }
    }
    return o;
}

// Exits with kSkip when no GPU can be used, so ctest reports "skipped".
inline void require_gpu()
{
    int n = 0;
    cudaError_t err = cudaGetDeviceCount(&n);
    if (err != cudaSuccess || n == 0) {
        std::printf("no CUDA device (%s): skipped\n",
                    err != cudaSuccess ? cudaGetErrorString(err) : "0 devices");
        std::exit(kSkip);
    }
    CHECK(cudaSetDevice(0));
}

// Fresh inputs every run: seeded from the clock, printed for replay.
inline uint64_t &rng_state()
{
    static uint64_t s = 0;
    return s;
}
inline uint64_t seed_from_clock()
{
    uint64_t s = (uint64_t)std::chrono::high_resolution_clock::now().time_since_epoch().count();
    rng_state() = s | 1;
    return s;
}
inline uint32_t next_u32()
{
    uint64_t &x = rng_state();
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    return (uint32_t)(x >> 16);
}
inline void fill_random_floats(std::vector<float> &v)
{
    for (auto &f : v)
        f = (float)(next_u32() % 2000001) / 1000.0f - 1000.0f; // never all zero
}
inline void fill_random_ints(std::vector<int32_t> &v, int32_t lo, int32_t hi)
{
    for (auto &x : v)
        x = lo + (int32_t)(next_u32() % (uint32_t)(hi - lo + 1));
}

// Uninitialised memory, as torch.empty may hand out: 0xFF bytes (a NaN as
// float, -1 as int).
inline void poison(void *p, size_t bytes, cudaStream_t s = 0)
{
    CHECK(cudaMemsetAsync(p, 0xFF, bytes, s));
}

// Returns the index of the first differing byte, or -1.
inline long long first_difference(const void *a, const void *b, size_t bytes)
{
    std::vector<unsigned char> ha(bytes), hb(bytes);
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaMemcpy(ha.data(), a, bytes, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(hb.data(), b, bytes, cudaMemcpyDeviceToHost));
    for (size_t i = 0; i < bytes; i++)
        if (ha[i] != hb[i])
            return (long long)i;
    return -1;
}

struct Stats {
    double median_us, p10_us, p90_us;
};

inline Stats summarise(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    auto at = [&](double q) { return v[(size_t)(q * (double)(v.size() - 1) + 0.5)]; };
    return {at(0.5), at(0.1), at(0.9)};
}

// Times `body(set)` with CUDA events: `inner` calls per sample (rotating
// over `sets` buffer sets so that small sizes do not run from a warm
// cache), median over `reps` samples, after a warm-up.
inline Stats time_events(const std::function<void(int)> &body, int sets, int inner, int reps,
                         cudaStream_t s = 0)
{
    cudaEvent_t a, b;
    CHECK(cudaEventCreate(&a));
    CHECK(cudaEventCreate(&b));
    for (int j = 0; j < inner; j++)
        body(j % sets);
    CHECK(cudaStreamSynchronize(s));
    std::vector<double> samples;
    int k = 0;
    for (int r = 0; r < reps; r++) {
        CHECK(cudaEventRecord(a, s));
        for (int j = 0; j < inner; j++)
            body(k++ % sets);
        CHECK(cudaEventRecord(b, s));
        CHECK(cudaEventSynchronize(b));
        float ms = 0;
        CHECK(cudaEventElapsedTime(&ms, a, b));
        samples.push_back(ms * 1000.0 / inner);
    }
    CHECK_LAUNCH();
    CHECK(cudaEventDestroy(a));
    CHECK(cudaEventDestroy(b));
    return summarise(samples);
}

// Host wall clock around work that includes host-side steps (malloc,
// pageable copies); synchronises before reading the clock.
inline Stats time_wall(const std::function<void(int)> &body, int sets, int inner, int reps)
{
    for (int j = 0; j < inner; j++)
        body(j % sets);
    CHECK(cudaDeviceSynchronize());
    std::vector<double> samples;
    int k = 0;
    for (int r = 0; r < reps; r++) {
        auto t0 = std::chrono::steady_clock::now();
        for (int j = 0; j < inner; j++)
            body(k++ % sets);
        CHECK(cudaDeviceSynchronize());
        auto t1 = std::chrono::steady_clock::now();
        samples.push_back(std::chrono::duration<double, std::micro>(t1 - t0).count() / inner);
    }
    CHECK_LAUNCH();
    return summarise(samples);
}

// How many buffer sets to rotate so that a timing loop touches at least
// twice the L2 (bounded, so tiny sizes stay cheap to allocate).
inline int rotation_sets(size_t bytes_per_set)
{
    int l2 = 0;
    CHECK(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, 0));
    size_t want = 2 * (size_t)l2 / (bytes_per_set ? bytes_per_set : 1) + 1;
    return (int)std::min<size_t>(std::max<size_t>(want, 2), 512);
}

// Timing parameters by size: many calls per sample when launch-bound.
inline void timing_plan(size_t bytes, int &inner, int &reps)
{
    if (bytes <= (1u << 20)) {
        inner = 200;
        reps = 41;
    } else if (bytes <= (64u << 20)) {
        inner = 20;
        reps = 31;
    } else {
        inner = 3;
        reps = 21;
    }
}

struct Row {
    std::string rewrite, kase, form;
    size_t elements, bytes;
    Stats t;
    double gbps; // bytes / median time, for the form's own minimal traffic
};

struct Check {
    std::string rewrite, kase;
    size_t elements;
    bool expect_equal; // false for the deliberately wrong rewrite
    bool equal;
    long long first_diff;
    bool passed() const { return equal == expect_equal; }
};

struct Report {
    std::string program;
    uint64_t seed = 0;
    std::vector<Row> rows;
    std::vector<Check> checks;

    void check(const std::string &rw, const std::string &k, size_t n, bool expect_equal,
               long long diff)
    {
        Check c{rw, k, n, expect_equal, diff < 0, diff};
        checks.push_back(c);
        std::printf("check %-6s %-34s n=%-10zu %s%s (first differing byte %lld)\n", rw.c_str(),
                    k.c_str(), n, c.passed() ? "ok" : "FAILED",
                    expect_equal ? "" : " [wrong rewrite must differ]", diff);
    }

    void row(const std::string &rw, const std::string &k, const std::string &form, size_t n,
             size_t bytes, Stats t, size_t traffic)
    {
        rows.push_back({rw, k, form, n, bytes, t, t.median_us > 0 ? traffic / t.median_us / 1e3 : 0});
        std::printf("time  %-6s %-28s %-22s n=%-10zu %10.2f us  (p10 %.2f, p90 %.2f)\n",
                    rw.c_str(), k.c_str(), form.c_str(), n, t.median_us, t.p10_us, t.p90_us);
    }

    int finish(const Options &o) const
    {
        bool ok = true;
        for (auto &c : checks)
            ok = ok && c.passed();
        if (!o.json_path.empty()) {
            FILE *f = std::fopen(o.json_path.c_str(), "w");
            if (!f) {
                std::perror(o.json_path.c_str());
                return 1;
            }
            std::fprintf(f, "{\"program\": \"%s\", \"seed\": %llu, \"rows\": [", program.c_str(),
                         (unsigned long long)seed);
            for (size_t i = 0; i < rows.size(); i++) {
                const Row &r = rows[i];
                std::fprintf(f,
                             "%s\n {\"rewrite\": \"%s\", \"case\": \"%s\", \"form\": \"%s\", "
                             "\"elements\": %zu, \"bytes\": %zu, \"median_us\": %.4f, "
                             "\"p10_us\": %.4f, \"p90_us\": %.4f, \"gbps\": %.2f}",
                             i ? "," : "", r.rewrite.c_str(), r.kase.c_str(), r.form.c_str(),
                             r.elements, r.bytes, r.t.median_us, r.t.p10_us, r.t.p90_us, r.gbps);
            }
            std::fprintf(f, "],\n \"checks\": [");
            for (size_t i = 0; i < checks.size(); i++) {
                const Check &c = checks[i];
                std::fprintf(f,
                             "%s\n {\"rewrite\": \"%s\", \"case\": \"%s\", \"elements\": %zu, "
                             "\"expect_equal\": %s, \"equal\": %s, \"first_diff_byte\": %lld, "
                             "\"passed\": %s}",
                             i ? "," : "", c.rewrite.c_str(), c.kase.c_str(), c.elements,
                             c.expect_equal ? "true" : "false", c.equal ? "true" : "false",
                             c.first_diff, c.passed() ? "true" : "false");
            }
            std::fprintf(f, "]}\n");
            std::fclose(f);
        }
        std::printf("%s: %zu checks, %s\n", program.c_str(), checks.size(),
                    ok ? "all passed" : "SOME FAILED");
        return ok ? 0 : 1;
    }
};

inline std::vector<size_t> sizes(const Options &o)
{
    // 160 elements: CUDA-graph metadata; 256M floats: 1 GiB, bandwidth bound.
    if (o.check_only)
        return {160, 4096, 1u << 20};
    return {160, 4096, 65536, 1u << 20, 16u << 20, 64u << 20, 256u << 20};
}

// The fill PyTorch launches for zeros/ones/full (a vectorised elementwise
// kernel, not cudaMemset).
template <class T>
__global__ void fill_kernel(T *__restrict__ out, T value, size_t n)
{
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    size_t stride = (size_t)gridDim.x * blockDim.x;
    for (; i < n; i += stride)
        out[i] = value;
}

template <class T>
inline void fill(T *out, T value, size_t n, cudaStream_t s = 0)
{
    if (n == 0)
        return;
    int threads = 256;
    size_t blocks = std::min<size_t>((n + threads - 1) / threads, 132 * 32);
    fill_kernel<T><<<(unsigned)blocks, threads, 0, s>>>(out, value, n);
    CHECK_LAUNCH();
}

} // namespace harness
