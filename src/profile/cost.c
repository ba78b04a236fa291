#include "cost.h"

#include "../rules/rules.h"
#include "../base/util.h"

#include <stdlib.h>
#include <string.h>

static int by_place(const void *x, const void *y)
{
    const al_site_cost *a = x, *b = y;
    int c = strcmp(a->path, b->path);
    if (c)
        return c;
    if (a->start != b->start)
        return a->start < b->start ? -1 : 1;
    if (a->by_function != b->by_function)
        return a->by_function ? 1 : -1;
    return strcmp(a->kind, b->kind);
}

void al_site_costs_sort_by_place(al_site_costs *sites)
{
    if (sites->n > 1)
        qsort(sites->items, sites->n, sizeof *sites->items, by_place);
}

static bool kind_in(const char *kind, const char *const *set)
{
    for (int i = 0; set[i]; i++)
        if (!strcmp(kind, set[i]))
            return true;
    return false;
}

double al_cost_removable_us(const al_site_cost *s, al_removes removes)
{
    static const char *const factories[] = {"zeros", "ones", "full", "zeros_like", "ones_like",
                                            "full_like", "new_zeros", "new_ones", "new_full",
                                            NULL};
    static const char *const fills[] = {"fill_", "zero_", NULL};
    static const char *const moves[] = {"to", "cuda", NULL};
    static const char *const cats[] = {"cat", "concat", "concatenate", "pad", NULL};
    double gpu = (double)s->gpu_ns / 1000.0;
    switch (removes) {
    case AL_REMOVES_FACTORY_FILL:
        return kind_in(s->kind, factories) ? gpu : 0;
    case AL_REMOVES_FILL_CALL:
        return kind_in(s->kind, fills) ? gpu : 0;
    case AL_REMOVES_COPY:
        return kind_in(s->kind, moves) ? gpu : 0;
    case AL_REMOVES_CAT:
        return kind_in(s->kind, cats) ? gpu : 0;
    case AL_REMOVES_ALL_BUT_ONE: {
        /* One launch per call of the function stays: its costliest. */
        double kept = (double)s->max_call_gpu_ns * (double)s->invocations / 1000.0;
        return gpu > kept ? gpu - kept : 0;
    }
    case AL_REMOVES_RULE:
    case AL_REMOVES_NOTHING:
    case AL_REMOVES_PART:
        return 0;
    }
    return 0;
}

static bool within(size_t start, size_t end, const al_finding *f)
{
    return start >= f->start && end <= f->end;
}

void al_cost_attach(const al_site_costs *sites, const char *path, al_findings *findings)
{
    /* The file's sites: a run of the sorted list. */
    size_t lo = 0, hi = sites->n;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (strcmp(sites->items[mid].path, path) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    size_t first = lo, last = lo;
    while (last < sites->n && !strcmp(sites->items[last].path, path))
        last++;
    if (first == last)
        return;
    double total_us = (double)sites->gpu_total_ns / 1000.0;
    for (size_t i = 0; i < findings->n; i++) {
        al_finding *f = &findings->items[i];
        al_removes removes = f->removes;
        if (removes == AL_REMOVES_RULE) {
            const al_rule *rule = al_rule_find(f->code);
            removes = rule ? rule->removes : AL_REMOVES_NOTHING;
        }
        if (!f->fix || !f->fix->n_edits)
            removes = AL_REMOVES_NOTHING;
        al_cost c;
        memset(&c, 0, sizeof c);
        bool measured = false;
        for (size_t k = first; k < last; k++) {
            const al_site_cost *s = &sites->items[k];
            if (s->by_function || !within(s->start, s->end, f))
                continue;
            measured = true;
            if (s->calls > c.calls)
                c.calls = s->calls;
            c.gpu_us += (double)s->gpu_ns / 1000.0;
            c.host_us += (double)s->host_ns / 1000.0;
            c.removable_gpu_us += al_cost_removable_us(s, removes);
        }
        /* Else a function's cost its calls could not split among sites,
         * when one of those sites is in the span: shared, never removable. */
        for (size_t k = first; k < last && !measured; k++) {
            const al_site_cost *s = &sites->items[k];
            if (!s->by_function)
                continue;
            for (size_t j = 0; j < s->n_spans && !measured; j++)
                if (within(s->spans[j][0], s->spans[j][1], f)) {
                    measured = true;
                    c.by_function = true;
                    c.sharing = s->sharing;
                    c.calls = s->calls;
                    c.gpu_us = (double)s->gpu_ns / 1000.0;
                    c.host_us = (double)s->host_ns / 1000.0;
                }
        }
        if (!measured)
            continue;
        c.share = total_us > 0 ? c.gpu_us / total_us : 0;
        free(f->cost);
        f->cost = al_xmalloc(sizeof *f->cost);
        *f->cost = c;
    }
}
