/* A unified diff read as changes: each run of adjacent removed and added
 * lines is one change, even when one hunk holds several, so that a tool
 * can apply any subset of them. Pure: bytes in, bytes out, no I/O. */
#ifndef ALLOCLINT_PATCH_H
#define ALLOCLINT_PATCH_H

#include <stdbool.h>
#include <stddef.h>

typedef struct {
    char *path;       /* as the patch names it, `a/`/`b/` stripped */
    size_t old_line;  /* 1-based: the first removed line, or the line an
                       * insertion goes before (last line + 1 at the end) */
    size_t new_line;  /* 1-based: where the change starts in the patched file */
    char **removed;   /* lines with their terminators, as in the old file */
    size_t n_removed;
    char **added;     /* lines with their terminators, as in the new file */
    size_t n_added;
} al_patch_change;

typedef struct {
    al_patch_change *items;
    size_t n, cap;
} al_patch;

/* Reads a unified diff (git's or diff -u's). Returns false with *err set
 * (caller frees) on a malformed patch, or one that creates, deletes or
 * renames a file (only changes to existing files are supported). */
bool al_patch_parse(const char *text, size_t len, al_patch *out, char **err);
void al_patch_free(al_patch *p);

/* The bytes of `path` after applying the changes of p to it that
 * `selected` marks (every change when selected is NULL). Returns NULL with
 * *err set when a removed line does not match the file. */
char *al_patch_apply(const al_patch *p, const bool *selected, const char *path, const char *orig,
                     size_t len, size_t *out_len, char **err);

#endif
