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

#endif
