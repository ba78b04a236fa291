/* Unified diffs between two versions of a file, in the form `git apply`
 * and `patch -p1` accept. */
#ifndef ALLOCLINT_DIFF_H
#define ALLOCLINT_DIFF_H

#include "../base/util.h"

#include <stddef.h>

/* Appends the diff of old -> new to out, with `a/<path>` and `b/<path>`
 * headers and `context` lines around each change. Appends nothing when
 * the texts are equal. */
void al_diff_unified(al_strbuf *out, const char *path, const char *old_text, size_t old_len,
                     const char *new_text, size_t new_len, int context);

/* Where each line of new_text comes from in old_text, as the diff sees
 * it: for new line i (0-based), old lines [lo[i], hi[i]) (0-based): the
 * line itself when unchanged, the lines its change replaced when changed,
 * none (lo == hi) when only inserted. Returns the number of new lines;
 * *lo and *hi are the caller's to free. */
size_t al_diff_line_origins(const char *old_text, size_t old_len, const char *new_text,
                            size_t new_len, size_t **lo, size_t **hi);

#endif
