/* Bytes as a Python file through the front end and every rule: no crash,
 * no leak, and every finding and edit inside the file. */
#include "fuzz.h"

static void check_findings(const al_findings *f, size_t len)
{
    for (size_t i = 0; i < f->n; i++) {
        const al_finding *x = &f->items[i];
        FUZZ_CHECK(x->start <= x->end && x->end <= len, len);
        FUZZ_CHECK(x->code && x->message, len);
        if (!x->fix)
            continue;
        for (size_t e = 0; e < x->fix->n_edits; e++) {
            const al_edit *ed = &x->fix->edits[e];
            FUZZ_CHECK(ed->start <= ed->end && ed->end <= len && ed->content, len);
        }
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    al_lint_options opt;
    fuzz_lint_options(&opt);
    al_source src;
    al_source_from_memory(&src, "model.py", (const char *)data, size);
    al_lint_result res;
    al_lint(&src, &opt, &res);
    FUZZ_CHECK(res.fixed == NULL, size); /* no fix was asked for */
    check_findings(&res.findings, size);
    al_lint_result_free(&res);
    al_source_free(&src);
    return 0;
}
