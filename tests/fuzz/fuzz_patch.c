/* The patch reader of `alloclint verify`: a patch that reads without error
 * is applied, in full and with every other change, to the file its removed
 * lines describe; applying it in full must give exactly the added lines in
 * place of the removed ones. */
#include "fuzz.h"
#include "engine/patch.h"
#include "base/util.h"

#include <stdlib.h>
#include <string.h>

static bool whole_lines(char **lines, size_t n)
{
    for (size_t k = 0; k < n; k++) {
        size_t l = strlen(lines[k]);
        if (l == 0 || lines[k][l - 1] != '\n')
            return false;
    }
    return true;
}

/* The file the first path's changes describe, before (new = false) or
 * after them: their removed (added) lines in order, with filler lines
 * between them so that the old line numbers hold. NULL when the changes
 * are out of order or not whole lines. */
static char *file_of(const al_patch *p, const char *path, bool new, size_t *len)
{
    al_strbuf sb = {0};
    al_strbuf_reserve(&sb, 1); /* an empty file is still a file */
    size_t line = 1;
    for (size_t i = 0; i < p->n; i++) {
        const al_patch_change *c = &p->items[i];
        if (strcmp(c->path, path) != 0)
            continue;
        if (c->old_line < line || c->old_line - line > 10000) {
            al_strbuf_free(&sb);
            return NULL;
        }
        for (; line < c->old_line; line++)
            al_strbuf_puts(&sb, "pass\n");
        if (!whole_lines(c->removed, c->n_removed) || !whole_lines(c->added, c->n_added)) {
            al_strbuf_free(&sb);
            return NULL;
        }
        char **lines = new ? c->added : c->removed;
        for (size_t k = 0; k < (new ? c->n_added : c->n_removed); k++)
            al_strbuf_puts(&sb, lines[k]);
        line += c->n_removed;
    }
    *len = sb.len;
    return al_strbuf_detach(&sb);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    al_patch p;
    char *err = NULL;
    if (!al_patch_parse((const char *)data, size, &p, &err)) {
        FUZZ_CHECK(err != NULL && err[0] != '\0', size);
        free(err);
        return 0;
    }
    FUZZ_CHECK(err == NULL, size);
    for (size_t i = 0; i < p.n; i++) {
        const al_patch_change *c = &p.items[i];
        FUZZ_CHECK(c->path && c->old_line >= 1 && c->new_line >= 1, size);
        FUZZ_CHECK(c->n_removed + c->n_added > 0, size);
    }
    if (p.n > 0) {
        const char *path = p.items[0].path;
        size_t len = 0;
        char *orig = file_of(&p, path, false, &len);
        if (orig) {
            size_t out_len, want_len;
            char *e2 = NULL;
            char *full = al_patch_apply(&p, NULL, path, orig, len, &out_len, &e2);
            char *want = file_of(&p, path, true, &want_len);
            FUZZ_CHECK(full != NULL && want != NULL, size);
            FUZZ_CHECK(out_len == want_len && !memcmp(full, want, want_len), size);
            free(want);
            free(e2);
            bool *every_other = calloc(p.n + 1, sizeof *every_other);
            FUZZ_CHECK(every_other != NULL, size);
            for (size_t i = 0; i < p.n; i += 2)
                every_other[i] = true;
            char *e3 = NULL;
            size_t part_len;
            free(al_patch_apply(&p, every_other, path, orig, len, &part_len, &e3));
            free(e3);
            free(every_other);
            free(full);
            free(orig);
        }
    }
    al_patch_free(&p);
    return 0;
}
