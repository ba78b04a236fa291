// AL401: x = x - y  ->  x.sub_(y)
//
// Out of place, PyTorch takes a new buffer from its caching allocator and
// writes x - y there; in place, it writes back into x. Both read x and y
// once and write n elements once: the same traffic, so the rewrite is not
// expected to pay. Measured here so the rule page can say by how much.
#include "harness.cuh"

using namespace harness;

__global__ void sub_kernel(float *__restrict__ out, const float *x, const float *__restrict__ y,
                           size_t n)
{
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    size_t stride = (size_t)gridDim.x * blockDim.x;
    for (; i < n; i += stride)
        out[i] = x[i] - y[i];
}

int main(int argc, char **argv)
{
    Options opt = parse(argc, argv);
    require_gpu();
    Report rep;
    rep.program = "AL401_inplace_candidate";
    rep.seed = seed_from_clock();

    for (size_t n : sizes(opt)) {
        size_t bytes = n * sizeof(float);
        int sets = opt.check_only ? 1 : rotation_sets(3 * bytes);
        std::vector<float *> x(sets), y(sets), fresh(sets);
        std::vector<float> host(n);
        for (int s = 0; s < sets; s++) {
            CHECK(cudaMalloc(&x[s], bytes));
            CHECK(cudaMalloc(&y[s], bytes));
            CHECK(cudaMalloc(&fresh[s], bytes));
            fill_random_floats(host);
            CHECK(cudaMemcpy(x[s], host.data(), bytes, cudaMemcpyHostToDevice));
            fill_random_floats(host);
            CHECK(cudaMemcpy(y[s], host.data(), bytes, cudaMemcpyHostToDevice));
        }
        unsigned blocks = (unsigned)std::min<size_t>((n + 255) / 256, 132 * 32);
        auto out_of_place = [&](int s) {
            sub_kernel<<<blocks, 256>>>(fresh[s], x[s], y[s], n);
        };
        auto in_place = [&](int s) { sub_kernel<<<blocks, 256>>>(x[s], x[s], y[s], n); };

        poison(fresh[0], bytes);
        out_of_place(0);
        CHECK_LAUNCH();
        in_place(0);
        CHECK_LAUNCH();
        rep.check("AL401", "x.sub_(y) == x - y", n, true, first_difference(fresh[0], x[0], bytes));

        if (!opt.check_only) {
            int inner, reps;
            timing_plan(bytes, inner, reps);
            // In place repeatedly subtracts y from x: values drift, timing does not.
            Stats a = time_events(out_of_place, sets, inner, reps);
            Stats b = time_events(in_place, sets, inner, reps);
            rep.row("AL401", "x = x - y vs x.sub_(y)", "original", n, bytes, a, 3 * bytes);
            rep.row("AL401", "x = x - y vs x.sub_(y)", "rewritten", n, bytes, b, 3 * bytes);
        }
        for (int s = 0; s < sets; s++) {
            CHECK(cudaFree(x[s]));
            CHECK(cudaFree(y[s]));
            CHECK(cudaFree(fresh[s]));
        }
    }
    return rep.finish(opt);
}
