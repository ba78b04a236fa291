// AL202: x = torch.cat([x, y_i]) in a loop  ->  one torch.cat(parts)
//
// K = 32 chunks of m elements. The original makes a new buffer every
// iteration (from a pool, as the caching allocator would) and copies the
// whole prefix again: O(K^2 m) bytes. The rewrite copies each chunk once.
// Both use one batched-copy launch per cat, as PyTorch's cat kernel does.
#include "harness.cuh"

using namespace harness;

constexpr int K = 32;

struct Parts {
    const float *ptr[K];
    size_t len[K];
    int count;
};

__global__ void batched_cat_kernel(float *__restrict__ out, Parts parts, size_t total)
{
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    size_t stride = (size_t)gridDim.x * blockDim.x;
    for (; i < total; i += stride) {
        size_t off = i;
        int p = 0;
        while (p < parts.count - 1 && off >= parts.len[p]) {
            off -= parts.len[p];
            p++;
        }
        out[i] = parts.ptr[p][off];
    }
}

static void cat_launch(float *out, const Parts &parts)
{
    size_t total = 0;
    for (int p = 0; p < parts.count; p++)
        total += parts.len[p];
    if (total == 0)
        return;
    unsigned blocks = (unsigned)std::min<size_t>((total + 255) / 256, 132 * 32);
    batched_cat_kernel<<<blocks, 256>>>(out, parts, total);
    CHECK_LAUNCH();
}

int main(int argc, char **argv)
{
    Options opt = parse(argc, argv);
    require_gpu();
    Report rep;
    rep.program = "AL202_cat_in_loop";
    rep.seed = seed_from_clock();

    std::vector<size_t> totals = opt.check_only ? std::vector<size_t>{4096, 1u << 20}
                                                : std::vector<size_t>{4096, 65536, 1u << 20,
                                                                      16u << 20, 64u << 20};
    for (size_t total : totals) {
        size_t m = total / K, bytes = total * sizeof(float);
        float *chunks = nullptr;
        CHECK(cudaMalloc(&chunks, bytes));
        std::vector<float> host(total);
        fill_random_floats(host);
        CHECK(cudaMemcpy(chunks, host.data(), bytes, cudaMemcpyHostToDevice));
        // The pool: one buffer per growth step, as the caching allocator
        // would hand out, and the final output.
        std::vector<float *> grow(K);
        for (int i = 0; i < K; i++)
            CHECK(cudaMalloc(&grow[i], (size_t)(i + 1) * m * sizeof(float)));
        float *once = nullptr;
        CHECK(cudaMalloc(&once, bytes));

        auto loop = [&](int) {
            const float *x = nullptr;
            size_t xl = 0;
            for (int i = 0; i < K; i++) {
                Parts p{};
                p.count = 0;
                if (xl) {
                    p.ptr[p.count] = x;
                    p.len[p.count++] = xl;
                }
                p.ptr[p.count] = chunks + (size_t)i * m;
                p.len[p.count++] = m;
                cat_launch(grow[i], p);
                x = grow[i];
                xl += m;
            }
        };
        auto single = [&](int) {
            Parts p{};
            p.count = K;
            for (int i = 0; i < K; i++) {
                p.ptr[i] = chunks + (size_t)i * m;
                p.len[i] = m;
            }
            cat_launch(once, p);
        };

        for (int i = 0; i < K; i++)
            poison(grow[i], (size_t)(i + 1) * m * sizeof(float));
        poison(once, bytes);
        loop(0);
        single(0);
        rep.check("AL202", "one cat == cat in a loop", total, true,
                  first_difference(grow[K - 1], once, (size_t)K * m * sizeof(float)));

        if (!opt.check_only) {
            int inner, reps;
            timing_plan(bytes, inner, reps);
            inner = std::max(1, inner / 4);
            Stats a = time_events(loop, 1, inner, reps);
            Stats b = time_events(single, 1, inner, reps);
            size_t loop_traffic = 0;
            for (int i = 0; i < K; i++)
                loop_traffic += 2 * (size_t)(i + 1) * m * sizeof(float);
            rep.row("AL202", "cat in loop (K=32) vs one cat", "original", total, bytes, a,
                    loop_traffic);
            rep.row("AL202", "cat in loop (K=32) vs one cat", "rewritten", total, bytes, b,
                    2 * bytes);
        }
        for (int i = 0; i < K; i++)
            CHECK(cudaFree(grow[i]));
        CHECK(cudaFree(once));
        CHECK(cudaFree(chunks));
    }
    return rep.finish(opt);
}
