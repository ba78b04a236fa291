// AL301: a loop-invariant temporary allocated every iteration, hoisted.
//
//   for i in range(L):                      tmp = torch.empty_like(out)
//       tmp = torch.empty_like(out)   ->     for i in range(L):
//       torch.mul(a[i], 2, out=tmp)              torch.mul(a[i], 2, out=tmp)
//       out.add_(tmp)                            out.add_(tmp)
//
// Per iteration the temporary comes from
//   cudaMalloc/cudaFree     (no allocator: synchronises the device)
//   cudaMallocAsync         (CUDA's stream-ordered pool)
//   a caching pool          (a free list by size, as PyTorch's allocator)
//   nothing                 (hoisted before the loop)
// Timed with the host clock, since allocation is host work too.
#include "harness.cuh"

#include <map>

using namespace harness;

constexpr int L = 64;

__global__ void scale_kernel(float *__restrict__ out, const float *__restrict__ a, size_t n)
{
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    size_t stride = (size_t)gridDim.x * blockDim.x;
    for (; i < n; i += stride)
        out[i] = a[i] * 2.0f;
}

__global__ void add_kernel(float *__restrict__ out, const float *__restrict__ t, size_t n)
{
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    size_t stride = (size_t)gridDim.x * blockDim.x;
    for (; i < n; i += stride)
        out[i] += t[i];
}

// A minimal caching allocator: freed blocks are kept by size and reused.
struct CachingPool {
    std::multimap<size_t, void *> free_blocks;
    void *get(size_t bytes)
    {
        auto it = free_blocks.lower_bound(bytes);
        if (it != free_blocks.end() && it->first < 2 * bytes) {
            void *p = it->second;
            free_blocks.erase(it);
            return p;
        }
        void *p = nullptr;
        CHECK(cudaMalloc(&p, bytes));
        return p;
    }
    void put(void *p, size_t bytes) { free_blocks.emplace(bytes, p); }
    ~CachingPool()
    {
        for (auto &kv : free_blocks)
            cudaFree(kv.second);
    }
};

int main(int argc, char **argv)
{
    Options opt = parse(argc, argv);
    require_gpu();
    Report rep;
    rep.program = "AL301_alloc_in_loop";
    rep.seed = seed_from_clock();
    std::vector<size_t> ns = opt.check_only ? std::vector<size_t>{160, 1u << 20}
                                            : std::vector<size_t>{160, 4096, 65536, 1u << 20,
                                                                  16u << 20};
    for (size_t n : ns) {
        size_t bytes = n * sizeof(float);
        float *a = nullptr, *out = nullptr, *ref = nullptr;
        CHECK(cudaMalloc(&a, bytes * L));
        CHECK(cudaMalloc(&out, bytes));
        CHECK(cudaMalloc(&ref, bytes));
        std::vector<float> host(n * L);
        fill_random_floats(host);
        CHECK(cudaMemcpy(a, host.data(), bytes * L, cudaMemcpyHostToDevice));
        unsigned blocks = (unsigned)std::min<size_t>((n + 255) / 256, 132 * 32);
        CachingPool pool;
        float *hoisted = nullptr;

        auto step = [&](float *tmp, int i) {
            scale_kernel<<<blocks, 256>>>(tmp, a + (size_t)i * n, n);
            add_kernel<<<blocks, 256>>>(out, tmp, n);
        };
        auto with_malloc = [&](int) {
            for (int i = 0; i < L; i++) {
                float *tmp = nullptr;
                CHECK(cudaMalloc(&tmp, bytes));
                step(tmp, i);
                CHECK(cudaFree(tmp));
            }
        };
        auto with_malloc_async = [&](int) {
            for (int i = 0; i < L; i++) {
                float *tmp = nullptr;
                CHECK(cudaMallocAsync(&tmp, bytes, 0));
                step(tmp, i);
                CHECK(cudaFreeAsync(tmp, 0));
            }
        };
        auto with_pool = [&](int) {
            for (int i = 0; i < L; i++) {
                float *tmp = (float *)pool.get(bytes);
                step(tmp, i);
                pool.put(tmp, bytes);
            }
        };
        auto hoist = [&](int) {
            if (!hoisted)
                CHECK(cudaMalloc(&hoisted, bytes));
            for (int i = 0; i < L; i++)
                step(hoisted, i);
        };

        struct Form {
            const char *name;
            std::function<void(int)> run;
        } forms[] = {{"cudaMalloc per iteration", with_malloc},
                     {"cudaMallocAsync per iteration", with_malloc_async},
                     {"caching pool per iteration", with_pool},
                     {"hoisted", hoist}};
        for (int f = 0; f < 4; f++) {
            CHECK(cudaMemset(out, 0, bytes));
            forms[f].run(0);
            CHECK_LAUNCH();
            if (f == 0)
                CHECK(cudaMemcpy(ref, out, bytes, cudaMemcpyDeviceToDevice));
            else
                rep.check("AL301", std::string(forms[f].name) + " == cudaMalloc", n, true,
                          first_difference(ref, out, bytes));
        }
        if (!opt.check_only) {
            int reps = n >= (16u << 20) ? 11 : 21;
            for (int f = 0; f < 4; f++) {
                Stats t = time_wall(forms[f].run, 1, 1, reps);
                t.median_us /= L;
                t.p10_us /= L;
                t.p90_us /= L;
                rep.row("AL301", "temporary per iteration (per iter)",
                        f == 3 ? "rewritten" : forms[f].name, n, bytes, t, 4 * bytes);
            }
        }
        if (hoisted)
            CHECK(cudaFree(hoisted));
        CHECK(cudaFree(a));
        CHECK(cudaFree(out));
        CHECK(cudaFree(ref));
    }
    return rep.finish(opt);
}
