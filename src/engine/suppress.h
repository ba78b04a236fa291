/* Suppression comments, as flake8 and ruff users write them:
 *   x = f()  # noqa                 every finding on this line
 *   x = f()  # noqa: AL101, E501    these codes on this line
 *   # alloclint: ignore[AL101]      these codes on the next line (or on
 *                                   its own line when trailing code)
 *   # alloclint: noqa               the whole file (optionally `: AL101`)
 * Directives that name AL codes which suppressed nothing are reported as
 * AL900 unused-suppression. */
#ifndef ALLOCLINT_SUPPRESS_H
#define ALLOCLINT_SUPPRESS_H

#include "../base/finding.h"
#include "../base/source.h"

#include <stdbool.h>
#include <stddef.h>

#define AL_SUPPRESS_MAX_CODES 16

typedef enum {
    AL_SUP_NOQA,   /* # noqa[: codes] */
    AL_SUP_IGNORE, /* # alloclint: ignore[codes] */
    AL_SUP_FILE,   /* # alloclint: noqa[: codes] */
} al_sup_kind;

typedef struct {
    al_sup_kind kind;
    size_t row;        /* the comment's line */
    size_t target_row; /* the line it applies to */
    int ncodes;        /* 0: every code */
    char codes[AL_SUPPRESS_MAX_CODES][16];
    bool used[AL_SUPPRESS_MAX_CODES];
    bool used_any;
    size_t dir_start, dir_end;     /* the directive's bytes, for removal */
    size_t codes_start, codes_end; /* the code list's bytes */
} al_suppression;

typedef struct {
    al_suppression *items;
    size_t n, cap;
} al_suppressions;

/* Reads the directives in the comments of a file (their byte spans). */
void al_suppressions_parse(al_suppressions *out, const al_source *src, const al_span *comments,
                           size_t n_comments);
/* Drops suppressed findings and marks what each directive suppressed. */
void al_suppressions_apply(al_suppressions *s, const al_source *src, al_findings *findings);
/* AL900 for AL codes (of enabled rules) that suppressed nothing. */
void al_suppressions_unused(const al_suppressions *s, const al_source *src,
                            bool (*enabled)(const char *code, void *arg), void *arg,
                            al_findings *out);
/* Edits adding `# noqa: CODE` for each finding, merged per line; lines
 * that end inside one of the multi-line strings are skipped. Returns the
 * count. */
size_t al_suppressions_add_noqa(const al_suppressions *s, const al_source *src,
                                const al_span *long_strings, size_t n_long_strings,
                                const al_findings *findings, al_fix *fix);
void al_suppressions_free(al_suppressions *s);

#endif
