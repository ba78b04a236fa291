/* Keeping the lines a fix writes inside the project's line length. */
#ifndef ALLOCLINT_WRAP_H
#define ALLOCLINT_WRAP_H

#include "../base/finding.h"

#include <stdbool.h>
#include <stddef.h>

/* The line length a file's fixes keep to when the project names none: its
 * longest line, and at least 79 (PEP 8). */
size_t al_wrap_default_limit(const char *src, size_t len);

/* Rewrites fix so that no line it makes is longer than limit where one of
 * its lines can be broken inside brackets, as black and ruff format them:
 * the bracket's contents on a line of their own, indented four more, else
 * one item a line. A line the fix leaves as it was is not touched, nor
 * one that cannot be broken (a comment on it, no brackets). The fix's
 * edits become one edit of the lines they touch. Returns whether it
 * changed the fix. */
bool al_wrap_fix(const char *src, size_t len, al_fix *fix, size_t limit);

#endif
