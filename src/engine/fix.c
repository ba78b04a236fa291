#include "fix.h"

#include "../base/util.h"

#include <stdlib.h>
#include <string.h>

typedef struct {
    size_t start, end;
    const char *content;
} span;

static bool overlaps(const span *a, const span *b)
{
    if (a->start == a->end && b->start == b->end)
        return a->start == b->start;
    if (a->start == a->end)
        return a->start > b->start && a->start < b->end;
    if (b->start == b->end)
        return b->start > a->start && b->start < a->end;
    return a->start < b->end && b->start < a->end;
}

static int by_start(const void *x, const void *y)
{
    const span *a = x, *b = y;
    if (a->start != b->start)
        return a->start < b->start ? -1 : 1;
    return a->end < b->end ? -1 : a->end > b->end;
}

char *al_fix_apply(const char *src, size_t len, al_fix *const *fixes, size_t n,
                   bool *applied, size_t *out_len)
{
    span *taken = NULL, *scopes = NULL;
    size_t ntaken = 0, cap = 0, nscopes = 0, cap_scopes = 0;
    for (size_t i = 0; i < n; i++) {
        applied[i] = false;
        const al_fix *fix = fixes[i];
        if (!fix || fix->n_edits == 0)
            continue;
        bool ok = true;
        for (size_t e = 0; e < fix->n_edits && ok; e++) {
            span s = {fix->edits[e].start, fix->edits[e].end, fix->edits[e].content};
            if (s.start > s.end || s.end > len)
                ok = false;
            for (size_t t = 0; t < ntaken && ok; t++)
                if (overlaps(&s, &taken[t]))
                    ok = false;
            for (size_t e2 = 0; e2 < e && ok; e2++) {
                span s2 = {fix->edits[e2].start, fix->edits[e2].end, NULL};
                if (overlaps(&s, &s2))
                    ok = false;
            }
        }
        size_t first_scope = nscopes;
        if (ok && fix->scope_end > fix->scope_start) {
            span s = {fix->scope_start, fix->scope_end, NULL};
            AL_PUSH(scopes, nscopes, cap_scopes, s);
        }
        if (ok) {
            for (size_t e = 0; e < fix->n_edits; e++) {
                span s = {fix->edits[e].start, fix->edits[e].end, NULL};
                AL_PUSH(scopes, nscopes, cap_scopes, s);
            }
        }
        for (size_t a = first_scope; a < nscopes && ok; a++)
            for (size_t b = 0; b < first_scope && ok; b++)
                if (overlaps(&scopes[a], &scopes[b]))
                    ok = false;
        if (!ok) {
            nscopes = first_scope;
            continue;
        }
        for (size_t e = 0; e < fix->n_edits; e++) {
            span s = {fix->edits[e].start, fix->edits[e].end, fix->edits[e].content};
            AL_PUSH(taken, ntaken, cap, s);
        }
        applied[i] = true;
    }
    if (ntaken > 1)
        qsort(taken, ntaken, sizeof *taken, by_start);
    al_strbuf out = {0};
    al_strbuf_reserve(&out, len + 64);
    size_t pos = 0;
    for (size_t t = 0; t < ntaken; t++) {
        al_strbuf_append(&out, src + pos, taken[t].start - pos);
        al_strbuf_puts(&out, taken[t].content);
        pos = taken[t].end;
    }
    al_strbuf_append(&out, src + pos, len - pos);
    free(taken);
    free(scopes);
    *out_len = out.len;
    return al_strbuf_detach(&out);
}

/* Whether two fixes' edits meet: overlapping bytes, or an insertion where
 * the other's replacement begins (inside it or before it: a guess). Two
 * insertions at one place do not meet: each stands whole, in the
 * findings' order, as --fix writes them. */
static bool edits_meet(const al_fix *a, const al_fix *b)
{
    for (size_t i = 0; i < a->n_edits; i++)
        for (size_t k = 0; k < b->n_edits; k++) {
            const al_edit *x = &a->edits[i], *y = &b->edits[k];
            if (x->start < y->end && y->start < x->end)
                return true;
            if (x->start == y->start && (x->start == x->end) != (y->start == y->end))
                return true;
        }
    return false;
}

void al_fix_withhold_overlapping(const al_source *src, al_findings *found)
{
    for (size_t i = 0; i < found->n; i++) {
        al_fix *fix = found->items[i].fix;
        if (!fix || fix->applicability == AL_FIX_DISPLAY_ONLY)
            continue;
        for (size_t j = 0; j < i; j++) {
            const al_fix *earlier = found->items[j].fix;
            if (!earlier || earlier->applicability == AL_FIX_DISPLAY_ONLY ||
                !edits_meet(fix, earlier))
                continue;
            al_strbuf m = {0};
            size_t row, column;
            al_source_position(src, found->items[j].start, &row, &column);
            al_strbuf_printf(&m, "%s (shown alone: it overlaps the %s fix on line %zu, which "
                                 "--fix applies first, proving this one again after it)",
                             fix->message, found->items[j].code, row);
            free(fix->message);
            fix->message = al_strbuf_detach(&m);
            fix->applicability = AL_FIX_DISPLAY_ONLY;
            break;
        }
    }
}
