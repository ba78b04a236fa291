/* Notebooks: joining code cells, commenting magics, and writing changed
 * cells back without touching the rest of the JSON. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "base/finding.h"
#include "base/notebook.h"
#include "engine/report.h"
#include "base/source.h"
#include "base/util.h"

static const char NB[] =
    "{\n \"cells\": [\n"
    "  {\"cell_type\": \"markdown\", \"metadata\": {}, \"source\": [\"# x = torch.zeros(3)\"]},\n"
    "  {\"cell_type\": \"code\", \"metadata\": {}, \"outputs\": [{\"text\": [\"] }\"]}],\n"
    "   \"source\": [\n    \"%time y = 1\\n\",\n    \"buf = torch.zeros(3)\\n\",\n"
    "    \"  !ls\\n\",\n    \"z = !pwd\\n\",\n    \"buf?\"\n   ]},\n"
    "  {\"cell_type\": \"code\", \"source\": \"%%bash\\necho hi\"},\n"
    "  {\"metadata\": {\"a\": \"\\\"source\\\"\"}, \"cell_type\": \"code\", \"source\": \"x = 1\\n\"}\n"
    " ],\n \"metadata\": {}, \"nbformat\": 4, \"nbformat_minor\": 5\n}\n";

static void joins_code_cells_and_comments_magics(void **state)
{
    (void)state;
    al_notebook nb;
    char *err = NULL;
    assert_true(al_notebook_parse(NB, sizeof NB - 1, &nb, &err));
    assert_null(err);
    assert_int_equal(nb.n, 3);
    assert_int_equal(nb.cells[0].number, 2);
    assert_int_equal(nb.cells[2].number, 4);
    assert_string_equal(nb.python, "# %%% alloclint cell 2 %%%\n"
                                   "#time y = 1\nbuf = torch.zeros(3)\n  #ls\n# = !pwd\n#uf?\n"
                                   "# %%% alloclint cell 3 %%%\n#%bash\n#cho hi\n"
                                   "# %%% alloclint cell 4 %%%\nx = 1\n");
    assert_true(nb.cells[0].added_newline);
    assert_false(nb.cells[2].added_newline);
    size_t cell, line;
    al_notebook_cell_line(&nb, 3, &cell, &line);
    assert_int_equal(cell, 2);
    assert_int_equal(line, 2);
    al_notebook_cell_line(&nb, 11, &cell, &line);
    assert_int_equal(cell, 4);
    assert_int_equal(line, 1);
    al_notebook_free(&nb);
}

static char *rewrite(const al_notebook *nb, const char *from, const char *to, char **err)
{
    const char *hit = strstr(nb->python, from);
    assert_non_null(hit);
    size_t at = (size_t)(hit - nb->python);
    size_t n = nb->python_len - strlen(from) + strlen(to);
    char *changed = malloc(n + 1);
    memcpy(changed, nb->python, at);
    strcpy(changed + at, to);
    strcat(changed, hit + strlen(from));
    size_t out_len;
    char *out = al_notebook_rewrite(nb, NB, sizeof NB - 1, changed, n, &out_len, err);
    if (out)
        assert_int_equal(strlen(out), out_len);
    free(changed);
    return out;
}

static void writes_back_only_the_changed_cell(void **state)
{
    (void)state;
    al_notebook nb;
    char *err = NULL;
    assert_true(al_notebook_parse(NB, sizeof NB - 1, &nb, &err));
    char *out = rewrite(&nb, "torch.zeros(3)", "torch.empty(3)", &err);
    assert_non_null(out);
    /* Only the one line changed; magics are back; the rest is byte for byte. */
    const char *want_line = "    \"buf = torch.empty(3)\\n\",\n";
    assert_non_null(strstr(out, want_line));
    assert_int_equal(strlen(out), sizeof NB - 1);
    size_t diff = 0;
    for (size_t i = 0; i < sizeof NB - 1; i++)
        diff += out[i] != NB[i];
    assert_int_equal(diff, 5); /* z-e-r-o-s -> e-m-p-t-y */
    free(out);

    /* Unchanged: the same bytes. */
    size_t out_len;
    out = al_notebook_rewrite(&nb, NB, sizeof NB - 1, nb.python, nb.python_len, &out_len, &err);
    assert_non_null(out);
    assert_memory_equal(out, NB, sizeof NB - 1);
    free(out);

    /* A line added to a string-form cell keeps the string form. */
    out = rewrite(&nb, "x = 1\n", "x = 1\ny = 2\n", &err);
    assert_non_null(out);
    assert_non_null(strstr(out, "\"source\": \"x = 1\\ny = 2\\n\"}"));
    free(out);
    al_notebook_free(&nb);
}

static void refuses_what_it_cannot_map_back(void **state)
{
    (void)state;
    al_notebook nb;
    char *err = NULL;
    assert_true(al_notebook_parse(NB, sizeof NB - 1, &nb, &err));
    assert_null(rewrite(&nb, "# %%% alloclint cell 3 %%%\n", "", &err));
    assert_non_null(strstr(err, "boundary"));
    free(err);
    err = NULL;
    assert_null(rewrite(&nb, "  #ls\n", "", &err));
    assert_non_null(strstr(err, "magic"));
    free(err);
    al_notebook_free(&nb);
}

static void rejects_what_is_not_a_notebook(void **state)
{
    (void)state;
    static const char *const bad[] = {
        "{\"cells\": [", "[1, 2]", "{\"cells\": {}}",
        "{\"cells\": [{\"cell_type\": \"code\", \"source\": [1]}]}",
        "{\"cells\": [{\"cell_type\": \"code\"}]}",
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        al_notebook nb;
        char *err = NULL;
        assert_false(al_notebook_parse(bad[i], strlen(bad[i]), &nb, &err));
        assert_non_null(err);
        assert_non_null(strstr(err, "not a notebook"));
        free(err);
    }
}

/* What Jupyter and alloclint could read differently is refused, naming
 * the cell: a key held twice (Jupyter keeps the last), an escaped NUL
 * (cJSON's string would end there); what reads the same is kept, an
 * escaped backslash before "u0000" and the same key in two cells among
 * them. */
static void refuses_what_jupyter_reads_otherwise(void **state)
{
    (void)state;
    static const struct {
        const char *json, *message;
    } bad[] = {
        {"{\"cells\": [{\"cell_type\": \"code\", \"source\": \"a = 1\\n\", "
         "\"source\": \"b = 2\\n\"}]}",
         "cell 1 holds the key \"source\" twice"},
        {"{\"cells\": [{\"cell_type\": \"markdown\", \"source\": \"#\"}, "
         "{\"cell_type\": \"markdown\", \"cell_type\": \"code\", \"source\": \"a = 1\\n\"}]}",
         "cell 2 holds the key \"cell_type\" twice"},
        {"{\"cells\": [{\"cell_type\": \"code\", \"source\": \"a = 1\\n\"}], \"cells\": []}",
         "the notebook holds the key \"cells\" twice"},
        {"{\"cells\": [{\"cell_type\": \"code\", \"source\": [\"a = 1\\n\", \"s = '\\u0000'\\n\"]}]}",
         "the source of cell 1 holds an escaped NUL character"},
        {"{\"cells\": [{\"cell_type\": \"code\", \"source\": [\"a = 1\\n\", null]}]}",
         "the source of cell 1 is neither a string nor a list of strings"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        al_notebook nb;
        char *err = NULL;
        assert_false(al_notebook_parse(bad[i].json, strlen(bad[i].json), &nb, &err));
        assert_non_null(err);
        if (!strstr(err, bad[i].message))
            fail_msg("case %zu: \"%s\" does not say \"%s\"", i, err, bad[i].message);
        free(err);
    }
    static const char ok[] =
        "{\"cells\": [{\"cell_type\": \"code\", \"source\": \"s = '\\\\u0000'\\n\"}, "
        "{\"cell_type\": \"code\", \"source\": \"t = 2\\n\"}], \"metadata\": {}}";
    al_notebook nb;
    char *err = NULL;
    assert_true(al_notebook_parse(ok, sizeof ok - 1, &nb, &err));
    assert_int_equal(nb.n, 2);
    assert_string_equal(nb.cells[0].text, "s = '\\u0000'\n");
    al_notebook_free(&nb);
}

/* Findings in a notebook name the cell, and so do the lines their
 * messages mention; other words ending in "line" are left alone. */
static void reports_name_cells(void **state)
{
    (void)state;
    al_notebook nb;
    char *err = NULL;
    assert_true(al_notebook_parse(NB, sizeof NB - 1, &nb, &err));
    al_source src;
    al_source_from_memory(&src, "nb.ipynb", nb.python, nb.python_len);
    src.notebook = &nb;
    al_findings findings = {0};
    size_t at = (size_t)(strstr(nb.python, "torch.zeros") - nb.python);
    al_findings_add(&findings, "AL101", "zeros-overwritten", at, at + 11,
                    al_xstrdup("the pipeline on line 3 (baseline 1) and line 11, not line x"),
                    NULL);
    al_report *r = al_report_new(&(al_report_options){AL_FORMAT_CONCISE, true, false, false,
                                                      false, NULL, 0, false, false});
    al_report_add(r, &src, &findings);
    char buf[512] = "";
    FILE *f = fmemopen(buf, sizeof buf - 1, "w");
    assert_non_null(f);
    assert_true(al_report_write(r, f));
    fclose(f);
    assert_string_equal(buf, "nb.ipynb:cell 2:2:7: AL101 the pipeline on line 2 of cell 2 "
                             "(baseline 1) and line 1 of cell 4, not line x\n");
    al_report_free(r);
    al_findings_free(&findings);
    al_source_free(&src);
    al_notebook_free(&nb);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(joins_code_cells_and_comments_magics),
        cmocka_unit_test(writes_back_only_the_changed_cell),
        cmocka_unit_test(refuses_what_it_cannot_map_back),
        cmocka_unit_test(rejects_what_is_not_a_notebook),
        cmocka_unit_test(refuses_what_jupyter_reads_otherwise),
        cmocka_unit_test(reports_name_cells),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
