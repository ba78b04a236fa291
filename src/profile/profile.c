#include "profile.h"

#include "cost.h"
#include "trace.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool al_profile_load(al_profile *p, const char *const *traces, size_t n_traces,
                     char *const *paths, size_t n_paths, char *err, size_t err_size)
{
    memset(p, 0, sizeof *p);
    al_trace **read = al_xcalloc(n_traces ? n_traces : 1, sizeof *read);
    bool ok = true;
    for (size_t i = 0; i < n_traces && ok; i++) {
        read[i] = al_xcalloc(1, sizeof *read[i]);
        al_trace_error e;
        if (!al_trace_read(traces[i], read[i], &e)) {
            snprintf(err, err_size, "%s", e.message);
            ok = false;
        } else if (!read[i]->n_frames && !read[i]->n_labels) {
            al_strlist_add(&p->frameless, al_xstrdup(traces[i]));
        }
    }
    if (ok) {
        al_site_costs_build(read, n_traces, paths, n_paths, &p->sites);
        al_site_costs_sort_by_place(&p->sites);
        p->n_traces = n_traces;
    }
    for (size_t i = 0; i < n_traces; i++)
        if (read[i]) {
            al_trace_free(read[i]);
            free(read[i]);
        }
    free(read);
    if (!ok)
        al_profile_free(p);
    return ok;
}

static double pct(int64_t part, int64_t whole)
{
    return whole > 0 ? 100.0 * (double)part / (double)whole : 0.0;
}

void al_profile_notes(const al_profile *p, al_strbuf *out)
{
    const al_site_costs *s = &p->sites;
    for (size_t i = 0; i < p->frameless.n; i++)
        al_strbuf_printf(out, "alloclint: warning: %s holds no Python frames: record it with "
                              "`torch.profiler.profile(..., with_stack=True)` so that its ops "
                              "can be put on lines of code\n",
                         p->frameless.items[i]);
    al_strbuf_printf(out, "alloclint: note: %zu trace%s, %.1f \xc2\xb5s of GPU time: %.1f %% in "
                          "calls of the checked files",
                     p->n_traces, p->n_traces == 1 ? "" : "s", (double)s->gpu_total_ns / 1000.0,
                     pct(s->gpu_tree_ns, s->gpu_total_ns));
    if (s->gpu_graph_ns)
        al_strbuf_printf(out, ", %.1f %% in CUDA-graph replays (cudaGraphLaunch), whose kernels "
                              "cannot be split into statements",
                         pct(s->gpu_graph_ns, s->gpu_total_ns));
    al_strbuf_puts(out, "\n");
    if (s->frames && !s->tree_frames)
        al_strbuf_printf(out, "alloclint: warning: none of the traces' %zu Python frames is in a "
                              "checked file (a frame's path, such as `pkg/mod.py`, must end a "
                              "checked file's path): check the tree the traced code came from\n",
                         s->frames);
    if (s->ambiguous)
        al_strbuf_printf(out, "alloclint: warning: %zu frame path%s match more than one checked "
                              "file (such as `%s`): their calls are left out; check fewer "
                              "folders\n",
                         s->ambiguous, s->ambiguous == 1 ? "" : "s", s->ambiguous_example);
    if (s->unresolved)
        al_strbuf_printf(out, "alloclint: warning: %zu traced function%s not at the line the "
                              "trace names in its file (such as `%s`): has the file changed "
                              "since it was traced?\n",
                         s->unresolved, s->unresolved == 1 ? " is" : "s are",
                         s->unresolved_example);
}

void al_profile_free(al_profile *p)
{
    al_site_costs_free(&p->sites);
    al_strlist_free(&p->frameless);
    memset(p, 0, sizeof *p);
}
