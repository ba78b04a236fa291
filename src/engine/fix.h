/* Applying fixes to a file's bytes. */
#ifndef ALLOCLINT_FIX_H
#define ALLOCLINT_FIX_H

#include "../base/finding.h"
#include "../base/source.h"

#include <stdbool.h>
#include <stddef.h>

/* Applies the fixes in order, all edits of a fix or none: a fix with an
 * edit that overlaps an edit of an earlier accepted fix (or touches the
 * same insertion point) is skipped, and so is a fix whose scope (its edits
 * when it has none) overlaps the scope of an earlier accepted one: two
 * proofs over the same bytes are never applied together. The result
 * depends on nothing but the order given.  Sets applied[i] for each fix taken and
 * returns the new bytes (NUL-terminated; caller frees). Edits outside
 * [0, len] make the fix invalid and it is skipped. */
char *al_fix_apply(const char *src, size_t len, al_fix *const *fixes, size_t n,
                   bool *applied, size_t *out_len);

/* A report (no --fix) shows each fix on the file as it is: one whose edits
 * meet an earlier finding's fix (overlapping bytes, or an insertion where
 * the other's replacement begins) cannot be applied with it, so it is
 * shown alone (display-only) and its message names the fix it waits on;
 * --fix applies that one, then proves this one again on the text it made.
 * Two insertions at one place do not meet: each stands whole, in the
 * findings' order. */
void al_fix_withhold_overlapping(const al_source *src, al_findings *found);

#endif
