/* Suppression comments: the directive parser on arbitrary comment text
 * (every `#` to the end of its line taken as a comment, a finding of two
 * codes on every line), then --add-noqa on the bytes as a Python file,
 * which must leave a file that parses no worse and that a second
 * --add-noqa does not change. */
#include "engine/fix.h"
#include "fuzz.h"
#include "front/python/pyast.h"
#include "engine/suppress.h"
#include "base/util.h"

#include <stdlib.h>
#include <string.h>

static bool every_code(const char *code, void *arg)
{
    (void)code;
    (void)arg;
    return true;
}

static void directives(const al_source *src)
{
    al_span *comments = NULL;
    size_t n = 0, cap = 0;
    al_findings findings = {0};
    for (size_t row = 1; row <= src->n_lines; row++) {
        size_t start, end;
        al_source_line(src, row, &start, &end);
        FUZZ_CHECK(start <= end && end <= src->len, src->len);
        const char *hash = memchr(src->bytes + start, '#', end - start);
        if (hash) {
            al_span c = {(size_t)(hash - src->bytes), end};
            AL_PUSH(comments, n, cap, c);
        }
        al_findings_add(&findings, "AL101", "zeros-overwritten", start, end, al_xstrdup("m"),
                        NULL);
        al_findings_add(&findings, "AL301", "alloc-in-loop", start, start, al_xstrdup("m"), NULL);
    }
    al_suppressions sup;
    al_suppressions_parse(&sup, src, comments, n);
    for (size_t i = 0; i < sup.n; i++) {
        const al_suppression *s = &sup.items[i];
        FUZZ_CHECK(s->ncodes >= 0 && s->ncodes <= AL_SUPPRESS_MAX_CODES, src->len);
        FUZZ_CHECK(s->dir_start <= s->dir_end && s->dir_end <= src->len, src->len);
        FUZZ_CHECK(s->codes_start <= s->codes_end && s->codes_end <= src->len, src->len);
    }
    al_suppressions_apply(&sup, src, &findings);
    al_suppressions_unused(&sup, src, every_code, NULL, &findings);
    al_suppressions_free(&sup);
    al_findings_free(&findings);
    free(comments);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    al_source src;
    al_source_from_memory(&src, "model.py", (const char *)data, size);
    directives(&src);

    al_lint_options opt;
    fuzz_lint_options(&opt);
    size_t added, len;
    char *text = al_lint_add_noqa(&src, &opt, &added, &len);
    if (text) {
        FUZZ_CHECK(added > 0, size);
        FUZZ_CHECK(al_python_error_count(text, len) <= al_python_error_count(src.bytes, src.len),
                   size);
        al_source again;
        al_source_from_memory(&again, "model.py", text, len);
        size_t added2, len2;
        char *text2 = al_lint_add_noqa(&again, &opt, &added2, &len2);
        FUZZ_CHECK(text2 == NULL && added2 == 0, size);
        free(text2);
        al_source_free(&again);
        free(text);
    }
    al_source_free(&src);
    return 0;
}
