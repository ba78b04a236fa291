/* The notebook reader and writer: bytes that read as a notebook must
 * write back to the same bytes when no cell changed, and a notebook with
 * every cell changed must, when it can be written, read again with the
 * changed cells. */
#include "fuzz.h"
#include "base/notebook.h"
#include "base/util.h"

#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    al_notebook nb;
    char *err = NULL;
    if (!al_notebook_parse((const char *)data, size, &nb, &err)) {
        FUZZ_CHECK(err != NULL, size);
        free(err);
        return 0;
    }
    size_t out_len;
    char *same = al_notebook_rewrite(&nb, (const char *)data, size, nb.python, nb.python_len,
                                     &out_len, &err);
    FUZZ_CHECK(same != NULL && out_len == size && !memcmp(same, data, size), size);
    free(same);

    /* Every cell gains a line at its end. */
    size_t pos = 0;
    al_strbuf grown = {0};
    al_strbuf_reserve(&grown, nb.python_len + 16 * nb.n + 1);
    for (size_t i = 0; i < nb.n; i++) {
        size_t end = i + 1 < nb.n ? nb.cells[i + 1].python_start : nb.python_len;
        /* The next marker line starts after this cell's code. */
        size_t code_end = end;
        if (i + 1 < nb.n) {
            const char *m = nb.python + end - 1;
            while (m > nb.python + nb.cells[i].python_start && m[-1] != '\n')
                m--;
            code_end = (size_t)(m - nb.python);
        }
        al_strbuf_append(&grown, nb.python + pos, code_end - pos);
        al_strbuf_puts(&grown, "added = 1\n");
        pos = code_end;
    }
    al_strbuf_append(&grown, nb.python + pos, nb.python_len - pos);
    char *written = al_notebook_rewrite(&nb, (const char *)data, size, grown.data, grown.len,
                                        &out_len, &err);
    if (written) {
        al_notebook again;
        char *err2 = NULL;
        FUZZ_CHECK(al_notebook_parse(written, out_len, &again, &err2), size);
        FUZZ_CHECK(again.n == nb.n, size);
        for (size_t i = 0; i < nb.n; i++)
            FUZZ_CHECK(strstr(again.cells[i].text, "added = 1") != NULL, size);
        al_notebook_free(&again);
        free(written);
    } else {
        FUZZ_CHECK(err != NULL, size);
        free(err);
    }
    al_strbuf_free(&grown);
    al_notebook_free(&nb);
    return 0;
}
