// AL103: a fill that another fill makes redundant.
//
//  case 1: torch.zeros(n).fill_(v)   ->  torch.full(n, v)
//          fill 0, fill v            ->  fill v
//  case 2: torch.empty(n).fill_(v)   ->  torch.full(n, v)
//          fill v                    ->  fill v
//          The same kernel either way: torch.full is empty + fill_. This
//          row is the noise floor, and the reason AL103 calls the second
//          rewrite a simplification, not a speed-up.
#include "harness.cuh"

using namespace harness;

int main(int argc, char **argv)
{
    Options opt = parse(argc, argv);
    require_gpu();
    Report rep;
    rep.program = "AL103_redundant_fill";
    rep.seed = seed_from_clock();

    for (size_t n : sizes(opt)) {
        size_t bytes = n * sizeof(float);
        int sets = opt.check_only ? 1 : rotation_sets(bytes);
        std::vector<float *> buf(sets);
        for (int s = 0; s < sets; s++)
            CHECK(cudaMalloc(&buf[s], bytes));
        float *ref = nullptr;
        CHECK(cudaMalloc(&ref, bytes));
        float v = (float)(next_u32() % 1000) / 7.0f + 1.0f;

        auto zeros_fill = [&](int s) {
            fill(buf[s], 0.0f, n);
            fill(buf[s], v, n);
        };
        auto full = [&](int s) { fill(buf[s], v, n); };

        zeros_fill(0);
        CHECK(cudaMemcpy(ref, buf[0], bytes, cudaMemcpyDeviceToDevice));
        poison(buf[0], bytes);
        full(0);
        rep.check("AL103", "zeros().fill_(v) == full(v)", n, true,
                  first_difference(ref, buf[0], bytes));

        if (!opt.check_only) {
            int inner, reps;
            timing_plan(bytes, inner, reps);
            Stats a = time_events(zeros_fill, sets, inner, reps);
            Stats b = time_events(full, sets, inner, reps);
            rep.row("AL103", "zeros().fill_(v) vs full(v)", "original", n, bytes, a, 2 * bytes);
            rep.row("AL103", "zeros().fill_(v) vs full(v)", "rewritten", n, bytes, b, bytes);
            Stats c = time_events(full, sets, inner, reps);
            Stats d = time_events(full, sets, inner, reps);
            rep.row("AL103", "empty().fill_(v) vs full(v)", "original", n, bytes, c, bytes);
            rep.row("AL103", "empty().fill_(v) vs full(v)", "rewritten", n, bytes, d, bytes);
        }
        for (int s = 0; s < sets; s++)
            CHECK(cudaFree(buf[s]));
        CHECK(cudaFree(ref));
    }
    return rep.finish(opt);
}
