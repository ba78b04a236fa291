/* Bytes as a Python file, every fix (safe and unsafe) applied to a fixed
 * point. Aborts when the result parses worse than the input, when fixing
 * the result again changes it (not idempotent), when the loop does not
 * converge, or when al_fix_apply takes two fixes whose edits or proof
 * scopes meet. */
#include "engine/fix.h"
#include "fuzz.h"
#include "front/python/pyast.h"

#include <stdlib.h>
#include <string.h>

typedef struct {
    size_t start, end;
} range;

/* Written apart from fix.c's test so that a mistake there is not copied:
 * two ranges meet when they share a byte, when both are the same point, or
 * when a point lies strictly inside the other. */
static bool meet(range a, range b)
{
    if (a.start == a.end && b.start == b.end)
        return a.start == b.start;
    if (a.start == a.end)
        return b.start < a.start && a.start < b.end;
    if (b.start == b.end)
        return a.start < b.start && b.start < a.end;
    return a.start < b.end && b.start < a.end;
}

static void check_no_overlap(const char *text, size_t len, const al_findings *f)
{
    size_t n = 0;
    al_fix **fixes = calloc(f->n + 1, sizeof *fixes);
    bool *applied = calloc(f->n + 1, sizeof *applied);
    FUZZ_CHECK(fixes && applied, len);
    for (size_t i = 0; i < f->n; i++)
        if (f->items[i].fix)
            fixes[n++] = f->items[i].fix;
    size_t out_len;
    free(al_fix_apply(text, len, fixes, n, applied, &out_len));
    for (size_t a = 0; a < n; a++) {
        if (!applied[a])
            continue;
        for (size_t b = 0; b < a; b++) {
            if (!applied[b])
                continue;
            for (size_t i = 0; i < fixes[a]->n_edits; i++)
                for (size_t k = 0; k < fixes[b]->n_edits; k++) {
                    range ea = {fixes[a]->edits[i].start, fixes[a]->edits[i].end};
                    range eb = {fixes[b]->edits[k].start, fixes[b]->edits[k].end};
                    FUZZ_CHECK(!meet(ea, eb), len);
                }
            range sa = {fixes[a]->scope_start, fixes[a]->scope_end};
            range sb = {fixes[b]->scope_start, fixes[b]->scope_end};
            if (sa.end > sa.start && sb.end > sb.start)
                FUZZ_CHECK(!meet(sa, sb), len);
        }
    }
    free(fixes);
    free(applied);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    al_lint_options opt;
    fuzz_lint_options(&opt);
    al_source src;
    al_source_from_memory(&src, "model.py", (const char *)data, size);

    al_lint_result plain;
    al_lint(&src, &opt, &plain);
    check_no_overlap(src.bytes, src.len, &plain.findings);
    al_lint_result_free(&plain);

    opt.apply_safe = true;
    opt.apply_unsafe = true;
    al_lint_result res;
    al_lint(&src, &opt, &res);
    FUZZ_CHECK(res.fix_unconverged == 0, size);
    if (res.fixed) {
        FUZZ_CHECK(al_python_error_count(res.fixed, res.fixed_len) <=
                       al_python_error_count(src.bytes, src.len),
                   size);
        al_source again;
        al_source_from_memory(&again, "model.py", res.fixed, res.fixed_len);
        al_lint_result second;
        al_lint(&again, &opt, &second);
        FUZZ_CHECK(second.fixed == NULL || (second.fixed_len == res.fixed_len &&
                                            !memcmp(second.fixed, res.fixed, res.fixed_len)),
                   size);
        al_lint_result_free(&second);
        al_source_free(&again);
    }
    al_lint_result_free(&res);
    al_source_free(&src);
    return 0;
}
