/* Keeping the lines a fix writes inside the project's line length. */
#ifndef ALLOCLINT_WRAP_H
#define ALLOCLINT_WRAP_H

#include "../base/finding.h"

#include <stdbool.h>
#include <stddef.h>

/* The line length a fix keeps to when the project names none: the longest
 * line of the text around it (its function or class), and at least 79
 * (PEP 8). */
size_t al_wrap_default_limit(const char *src, size_t len);

/* Rewrites fix so that no line it makes is longer than limit where one of
 * its lines can be broken inside brackets, as black and ruff format them:
 * the bracket's contents on a line of their own, indented four more, else
 * one item a line. A line the fix leaves as it was is not touched, nor
 * one that cannot be broken (a comment on it, no brackets). The fix's
 * edits become one edit of the lines they touch. Returns whether it
 * changed the fix. */
bool al_wrap_fix(const char *src, size_t len, al_fix *fix, size_t limit);

/* al_wrap_fix on the fixes of findings [first, n): to limit, or (limit 0)
 * to the default limit of each fix's scope. */
void al_wrap_fixes(const char *src, size_t len, al_findings *findings, size_t first, size_t limit);

#endif
