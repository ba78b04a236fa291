/* Fixes that chain: the fix loop proves each pass again on the text the
 * previous passes made, so a fix of a later pass may stand on text that a
 * fix of this run wrote (`empty_like(x); out.fill_(0)` merged into
 * `zeros_like(x)`, then `zeros_like` -> `empty_like`). Such a chain is kept
 * only when each later link is proved: an unsafe fix on text a fix of
 * this run wrote would delete, unreported, what the first pass's findings
 * kept. This file tracks, through the passes, which bytes of the current
 * text each first-pass fix wrote. */
#ifndef ALLOCLINT_CHAIN_H
#define ALLOCLINT_CHAIN_H

#include "../base/finding.h"

#include <stdbool.h>
#include <stddef.h>

#define AL_CHAIN_NONE ((size_t)-1)

typedef struct {
    size_t start, end; /* bytes of the current text */
    size_t origin;     /* the first-pass finding whose fix wrote them */
    bool swallowed;    /* an anchor inside another fix's edit: [start, end) is that
                        * edit's new text, somewhere in which it stands */
} al_chain_region;

typedef struct {
    al_chain_region *items;
    size_t n, cap;
} al_chain_regions;

/* The first-pass finding whose fix wrote bytes that fix edits, or
 * AL_CHAIN_NONE. */
size_t al_chain_origin(const al_chain_regions *r, const al_fix *fix);

/* A pass applied fixes[i] where applied[i], each descending from
 * origins[i] (AL_CHAIN_NONE: from none): the regions move to the new
 * text's offsets, and each applied edit's new text becomes one. */
void al_chain_advance(al_chain_regions *r, al_fix *const *fixes, const bool *applied,
                      const size_t *origins, size_t n);

/* The same pass, for regions that only move: anchors (below). An anchor
 * inside an applied edit (a fix that rewrote its whole statement, as a
 * wrapped line does) is swallowed: it then covers that edit's new text. */
void al_chain_move(al_chain_regions *r, al_fix *const *fixes, const bool *applied, size_t n);

/* Anchors are the first edits of first-pass fixes not applied (left out,
 * or overlapping another): the same finding, offered again on a later
 * pass's text, has its first edit at the anchor, or inside the new text
 * of a swallowed anchor. match scores a candidate: 0 not the same finding,
 * 1 plausibly (the same rule), 2 surely (the same edit too); the one
 * candidate of the best score wins, several of it are a guess. Its origin,
 * or AL_CHAIN_NONE. */
typedef int (*al_chain_match)(size_t origin, const al_fix *fix, bool swallowed, void *arg);
size_t al_chain_anchor(const al_chain_regions *anchors, const al_fix *fix, al_chain_match match,
                       void *arg);

/* Drops the anchors of first-pass finding origin (its fix went in). */
void al_chain_drop(al_chain_regions *anchors, size_t origin);

void al_chain_regions_free(al_chain_regions *r);

#endif
