#include "chain.h"
#include "../base/util.h"

#include <stdlib.h>
#include <string.h>

static bool meets(size_t s, size_t e, const al_chain_region *g)
{
    if (s == e) /* an insertion: at or inside the region */
        return s >= g->start && s <= g->end;
    return s < g->end && g->start < e;
}

size_t al_chain_origin(const al_chain_regions *r, const al_fix *fix)
{
    for (size_t k = 0; fix && k < fix->n_edits; k++)
        for (size_t i = 0; i < r->n; i++)
            if (meets(fix->edits[k].start, fix->edits[k].end, &r->items[i]))
                return r->items[i].origin;
    return AL_CHAIN_NONE;
}

typedef struct {
    size_t start, end, len;
    size_t origin;
} applied_edit;

static int by_start(const void *a, const void *b)
{
    const applied_edit *x = a, *y = b;
    return x->start < y->start ? -1 : x->start > y->start;
}

/* Where offset `at` of the old text stands in the new one. */
static size_t moved(const applied_edit *e, size_t n, size_t at)
{
    long delta = 0;
    for (size_t i = 0; i < n && e[i].end <= at; i++)
        delta += (long)e[i].len - (long)(e[i].end - e[i].start);
    return (size_t)((long)at + delta);
}

/* The applied edits of a pass, sorted by start. */
static applied_edit *edits_of(al_fix *const *fixes, const bool *applied, const size_t *origins,
                              size_t n, size_t *ne)
{
    applied_edit *e = NULL;
    size_t cap = 0;
    *ne = 0;
    for (size_t i = 0; i < n; i++)
        for (size_t k = 0; applied[i] && k < fixes[i]->n_edits; k++) {
            const al_edit *ed = &fixes[i]->edits[k];
            applied_edit a = {ed->start, ed->end, strlen(ed->content),
                              origins ? origins[i] : AL_CHAIN_NONE};
            AL_PUSH(e, *ne, cap, a);
        }
    if (*ne > 1)
        qsort(e, *ne, sizeof *e, by_start);
    return e;
}

static void move_regions(al_chain_regions *r, const applied_edit *e, size_t ne)
{
    for (size_t i = 0; i < r->n; i++) {
        r->items[i].start = moved(e, ne, r->items[i].start);
        r->items[i].end = moved(e, ne, r->items[i].end);
    }
}

void al_chain_advance(al_chain_regions *r, al_fix *const *fixes, const bool *applied,
                      const size_t *origins, size_t n)
{
    size_t ne;
    applied_edit *e = edits_of(fixes, applied, origins, n, &ne);
    move_regions(r, e, ne);
    long delta = 0;
    for (size_t i = 0; i < ne; i++) {
        size_t at = (size_t)((long)e[i].start + delta);
        delta += (long)e[i].len - (long)(e[i].end - e[i].start);
        if (e[i].origin == AL_CHAIN_NONE)
            continue;
        al_chain_region g = {at, at + e[i].len, e[i].origin, false};
        AL_PUSH(r->items, r->n, r->cap, g);
    }
    free(e);
}

void al_chain_move(al_chain_regions *r, al_fix *const *fixes, const bool *applied, size_t n)
{
    size_t ne;
    applied_edit *e = edits_of(fixes, applied, NULL, n, &ne);
    for (size_t i = 0; i < r->n; i++) {
        al_chain_region *g = &r->items[i];
        size_t k = 0;
        while (k < ne && !(e[k].start <= g->start && g->end <= e[k].end && e[k].start < e[k].end))
            k++;
        if (k < ne) {
            size_t at = moved(e, ne, e[k].start);
            g->swallowed = true;
            g->start = at;
            g->end = at + e[k].len;
        } else {
            g->start = moved(e, ne, g->start);
            g->end = moved(e, ne, g->end);
        }
    }
    free(e);
}

/* The one anchor of the best score among those that hold fix's first
 * edit (at their exact place, or swallowed and around it). */
static size_t best_anchor(const al_chain_regions *r, const al_fix *fix, bool swallowed,
                          al_chain_match match, void *arg)
{
    const al_edit *first = &fix->edits[0];
    size_t found = AL_CHAIN_NONE;
    int best = 0, ties = 0;
    for (size_t i = 0; i < r->n; i++) {
        const al_chain_region *g = &r->items[i];
        bool holds = swallowed ? g->swallowed && g->start <= first->start && first->end <= g->end
                               : !g->swallowed && g->start == first->start && g->end == first->end;
        if (!holds)
            continue;
        int score = match(g->origin, fix, swallowed, arg);
        if (score > best) {
            best = score;
            found = g->origin;
            ties = 0;
        } else if (score == best && score > 0 && g->origin != found) {
            ties++;
        }
    }
    return ties ? AL_CHAIN_NONE : found;
}

size_t al_chain_anchor(const al_chain_regions *r, const al_fix *fix, al_chain_match match,
                       void *arg)
{
    if (!fix || !fix->n_edits)
        return AL_CHAIN_NONE;
    size_t at = best_anchor(r, fix, false, match, arg);
    return at != AL_CHAIN_NONE ? at : best_anchor(r, fix, true, match, arg);
}

void al_chain_drop(al_chain_regions *r, size_t origin)
{
    size_t k = 0;
    for (size_t i = 0; i < r->n; i++)
        if (r->items[i].origin != origin)
            r->items[k++] = r->items[i];
    r->n = k;
}

void al_chain_regions_free(al_chain_regions *r)
{
    free(r->items);
    memset(r, 0, sizeof *r);
}
