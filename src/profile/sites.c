#include "sites.h"

#include "join.h"
#include "../analysis/python/callsites.h"
#include "../base/source.h"
#include "../base/util.h"
#include "../front/python/pyast.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* --- which checked file a frame's path names. A frame's path is relative
 * to the sys.path entry holding the file (`pkg/mod/file.py`), or as the
 * script was named: a file matches when its absolute path ends with it. */
typedef struct {
    char *const *paths;
    size_t n;
    char **absolute; /* per path, made on first use */
    const char **base; /* per path: its last component */
    size_t *by_base;   /* path indices sorted by base name */
    size_t ambiguous;
    char *ambiguous_example;
} matcher;

static char *absolute_of(const char *path)
{
    char cwd[PATH_MAX];
    al_strbuf sb = {0};
    if (path[0] != '/' && getcwd(cwd, sizeof cwd))
        al_strbuf_printf(&sb, "%s/", cwd);
    al_strbuf_puts(&sb, path);
    /* Collapse "/./" and "//"; ".." is left as written. */
    char *s = sb.data;
    size_t k = 0;
    for (size_t i = 0; s[i]; i++) {
        if (s[i] == '/' && k && s[k - 1] == '/')
            continue;
        if (s[i] == '.' && k && s[k - 1] == '/' && (s[i + 1] == '/' || !s[i + 1])) {
            if (s[i + 1])
                i++;
            continue;
        }
        s[k++] = s[i];
    }
    s[k] = '\0';
    return s;
}

static const char *base_of(const char *path, size_t len)
{
    const char *b = path;
    for (size_t i = 0; i < len; i++)
        if (path[i] == '/' || path[i] == '\\')
            b = path + i + 1;
    return b;
}

static int by_base(const void *x, const void *y, void *arg)
{
    const matcher *m = arg;
    return strcmp(m->base[*(const size_t *)x], m->base[*(const size_t *)y]);
}

static void matcher_init(matcher *m, char *const *paths, size_t n)
{
    memset(m, 0, sizeof *m);
    m->paths = paths;
    m->n = n;
    m->absolute = al_xcalloc(n ? n : 1, sizeof *m->absolute);
    m->base = al_xcalloc(n ? n : 1, sizeof *m->base);
    m->by_base = al_xmalloc((n ? n : 1) * sizeof *m->by_base);
    for (size_t i = 0; i < n; i++) {
        m->base[i] = base_of(paths[i], strlen(paths[i]));
        m->by_base[i] = i;
    }
    qsort_r(m->by_base, n, sizeof *m->by_base, by_base, m);
}

static void matcher_free(matcher *m)
{
    for (size_t i = 0; i < m->n; i++)
        free(m->absolute[i]);
    free(m->absolute);
    free(m->base);
    free(m->by_base);
    free(m->ambiguous_example);
}

/* The checked file a frame path names: its index, -1 none, -2 several. */
static long match_suffix(matcher *m, const char *p, size_t len);

/* An absolute path (a script's frame, a label of the companion's) names
 * the file where the trace was made: the same tree checked elsewhere (a
 * trace committed with the code, a CI checkout) matches by its longest
 * ending of two components or more that one checked file has. */
static long match_path(matcher *m, const char *p, size_t len)
{
    long i = match_suffix(m, p, len);
    if (i != -1 || !len || p[0] != '/')
        return i;
    const char *slashes[2] = {NULL, NULL}; /* the last two */
    for (const char *q = p + len; q-- > p;)
        if (*q == '/') {
            if (!slashes[0])
                slashes[0] = q;
            else if (!slashes[1]) {
                slashes[1] = q;
                break;
            }
        }
    if (!slashes[1])
        return -1;
    for (const char *q = p + 1; q <= slashes[1]; q++) {
        if (q[-1] != '/')
            continue;
        long hit = match_suffix(m, q, (size_t)(p + len - q));
        if (hit != -1)
            return hit;
    }
    return -1;
}

static long match_suffix(matcher *m, const char *p, size_t len)
{
    if (!len || p[0] == '<')
        return -1;
    const char *b = base_of(p, len);
    size_t blen = (size_t)(p + len - b);
    size_t lo = 0, hi = m->n;
    while (lo < hi) { /* the first base name >= b */
        size_t mid = (lo + hi) / 2;
        const char *mb = m->base[m->by_base[mid]];
        int c = strncmp(mb, b, blen);
        if (c < 0 || (c == 0 && strlen(mb) < blen))
            lo = mid + 1;
        else
            hi = mid;
    }
    long found = -1;
    for (size_t k = lo; k < m->n; k++) {
        size_t i = m->by_base[k];
        if (strlen(m->base[i]) != blen || strncmp(m->base[i], b, blen))
            break;
        if (!m->absolute[i])
            m->absolute[i] = absolute_of(m->paths[i]);
        const char *a = m->absolute[i];
        size_t alen = strlen(a);
        bool hit = p[0] == '/' ? alen == len && !memcmp(a, p, len)
                               : alen > len && a[alen - len - 1] == '/' &&
                                     !memcmp(a + alen - len, p, len);
        if (!hit)
            continue;
        if (found >= 0)
            return -2;
        found = (long)i;
    }
    return found;
}

static long match_frame(matcher *m, const char *frame)
{
    const char *path, *fn;
    size_t plen, line;
    if (!al_frame_name_parse(frame, &path, &plen, &line, &fn))
        return -1;
    long i = match_path(m, path, plen);
    if (i == -2) {
        m->ambiguous++;
        if (!m->ambiguous_example)
            m->ambiguous_example = al_xstrndup(path, plen);
    }
    return i;
}

static long match_label(matcher *m, const char *label)
{
    al_label l;
    if (!al_label_parse(label, &l))
        return -1;
    return match_path(m, l.path, l.path_len);
}

static bool in_tree(void *ctx, const char *name, bool label)
{
    return (label ? match_label(ctx, name) : match_frame(ctx, name)) >= 0;
}

/* --- the checked files the traces name, parsed once each. */
typedef struct {
    al_source src;
    al_pyfile pf;
    bool loaded, ok;
} parsed;

static parsed *parse_file(parsed *files, char *const *paths, long i)
{
    parsed *f = &files[i];
    if (!f->loaded) {
        f->loaded = true;
        if (al_source_load(&f->src, paths[i]) == AL_SOURCE_OK && !f->src.notebook &&
            al_pyfile_parse(&f->pf, &f->src))
            f->ok = true;
    }
    return f->ok ? f : NULL;
}

/* --- one call, with what places it. */
typedef struct {
    const al_trace_call *call;
    size_t trace;
    long file;
    const char *frame; /* its function's frame name */
} placed_call;

static int by_function(const void *x, const void *y)
{
    const placed_call *a = x, *b = y;
    if (a->file != b->file)
        return a->file < b->file ? -1 : 1;
    int c = strcmp(a->frame, b->frame);
    if (c)
        return c;
    if (a->trace != b->trace)
        return a->trace < b->trace ? -1 : 1;
    return a->call->invocation < b->call->invocation ? -1
           : a->call->invocation > b->call->invocation ? 1
                                                       : 0;
}

static al_site_cost *row_for(al_site_costs *out, const char *path, const char *function,
                             size_t def_line, const char *kind, size_t start, size_t end,
                             bool by_fn)
{
    for (size_t i = out->n; i-- > 0;) {
        al_site_cost *r = &out->items[i];
        if (r->start == start && r->end == end && r->by_function == by_fn &&
            !strcmp(r->kind, kind) && !strcmp(r->path, path))
            return r;
    }
    al_site_cost r;
    memset(&r, 0, sizeof r);
    r.path = al_xstrdup(path);
    r.function = al_xstrdup(function);
    r.def_line = def_line;
    snprintf(r.kind, sizeof r.kind, "%s", kind);
    r.start = start;
    r.end = end;
    r.by_function = by_fn;
    AL_PUSH(out->items, out->n, out->cap, r);
    return &out->items[out->n - 1];
}

static void count_call(al_site_cost *r, const al_trace_call *c, const al_trace *t)
{
    if (c->op >= 0 && (!r->op || c->gpu_ns > r->max_call_gpu_ns)) {
        free(r->op);
        r->op = al_xstrdup(t->names[c->op]);
    }
    r->calls++;
    r->gpu_ns += c->gpu_ns;
    r->host_ns += c->host_ns;
    r->graph_ns += c->graph_ns;
    if (c->gpu_ns > r->max_call_gpu_ns)
        r->max_call_gpu_ns = c->gpu_ns;
}

/* What the body holds of one kind of call, and what the trace ran of it. */
typedef struct {
    const char *kind;
    const al_callsite **sites; /* in evaluation order */
    size_t n;
    bool straight; /* every one of them */
    uint32_t most; /* the highest rank of the kind in any call of the function */
    const char *why; /* why its calls stay with the function; NULL: they are split */
} kind_plan;

static kind_plan *plan_for(kind_plan **plans, size_t *n, size_t *cap, const char *kind,
                           const al_callsites *sites)
{
    for (size_t i = 0; i < *n; i++)
        if (!strcmp((*plans)[i].kind, kind))
            return &(*plans)[i];
    kind_plan p = {kind, NULL, 0, true, 0, NULL};
    for (size_t k = 0; k < sites->n; k++)
        if (!strcmp(sites->items[k].kind, kind)) {
            p.sites = al_xrealloc(p.sites, (p.n + 1) * sizeof *p.sites);
            p.sites[p.n++] = &sites->items[k];
            p.straight &= sites->items[k].straight;
        }
    AL_PUSH(*plans, *n, *cap, p);
    return &(*plans)[*n - 1];
}

/* The site a label names: the call of its kind whose bytes the label's
 * span gives; without one (before Python 3.11), the call of its kind on
 * its line, else the innermost whose lines hold it (a call spread over
 * lines). NULL, with *why, when none is, or several on the line are. */
static const al_callsite *labelled_site(const al_callsites *sites, const al_label *l,
                                        const char **why)
{
    const al_callsite *best = NULL, *on_line = NULL;
    size_t n_on_line = 0;
    for (size_t k = 0; k < sites->n; k++) {
        const al_callsite *s = &sites->items[k];
        if (strcmp(s->kind, l->kind))
            continue;
        TSPoint a = ts_node_start_point(s->node), b = ts_node_end_point(s->node);
        if (l->has_span && a.row + 1 == l->line && a.column == l->col &&
            b.row + 1 == l->end_line && b.column == l->end_col)
            return s;
        if (s->row == l->line) {
            on_line = on_line ? on_line : s;
            n_on_line++;
        }
        if (s->row <= l->line && l->line <= b.row + 1 && (!best || s->start >= best->start))
            best = s;
    }
    if (n_on_line > 1) {
        *why = "several calls of its kind on the labelled line, and no column to tell them "
               "apart (Python before 3.11)";
        return NULL;
    }
    if (on_line)
        return on_line;
    if (!best)
        *why = "labelled by the companion at a line without a call of its kind";
    return best;
}

/* The function a group of calls ran in, and its sites of each kind. */
static void place_function(al_site_costs *out, al_trace *const *traces, placed_call *calls,
                           size_t n, const char *path, parsed *file)
{
    const char *fpath, *fname;
    size_t plen, line;
    al_frame_name_parse(calls[0].frame, &fpath, &plen, &line, &fname);
    TSNode fn;
    bool exact;
    if (!file || !al_py_frame_function(&file->pf, line, fname, &fn, &exact)) {
        out->unresolved++;
        if (!out->unresolved_example)
            out->unresolved_example = al_xstrdup(calls[0].frame);
        return;
    }
    size_t def_line = al_py_def_row(fn);
    al_callsites sites;
    al_py_callsites(&file->pf, fn, &sites);
    kind_plan *plans = NULL;
    size_t n_plans = 0, cap_plans = 0, invocations = 0;
    for (size_t i = 0; i < n; i++) {
        const al_trace_call *c = calls[i].call;
        if (!i || calls[i].trace != calls[i - 1].trace ||
            c->invocation != calls[i - 1].call->invocation)
            invocations++;
        kind_plan *p = plan_for(&plans, &n_plans, &cap_plans, c->kind, &sites);
        if (c->k > p->most)
            p->most = c->k;
    }
    for (size_t i = 0; i < n_plans; i++) {
        kind_plan *p = &plans[i];
        if (p->n == 0)
            p->why = "no call of that name in its body (an alias, or a call through another "
                     "function)";
        else if (p->n > 1 && !p->straight)
            p->why = "its calls of that name are not all on one straight path (a loop, a "
                     "branch or a short-circuit around some)";
        else if (p->n > 1 && p->most >= p->n)
            p->why = "a call of the function ran that name more often than its body has sites";
    }
    size_t first_row = out->n;
    for (size_t i = 0; i < n; i++) {
        const al_trace_call *c = calls[i].call;
        const al_trace *t = traces[calls[i].trace];
        kind_plan *p = plan_for(&plans, &n_plans, &cap_plans, c->kind, &sites);
        const al_callsite *target = NULL;
        const char *why = p->why;
        al_label label;
        bool labelled = c->label >= 0 && al_label_parse(t->names[c->label], &label);
        if (labelled) {
            why = NULL;
            target = labelled_site(&sites, &label, &why);
        } else if (!why) {
            target = p->sites[p->n == 1 ? 0 : c->k];
        }
        al_site_cost *r;
        if (target) {
            r = row_for(out, path, fname, def_line, c->kind, target->start, target->end, false);
            r->line = target->row;
            r->labelled = labelled;
        } else {
            r = row_for(out, path, fname, def_line, c->kind, ts_node_start_byte(fn),
                        ts_node_end_byte(fn), true);
            r->line = def_line;
            r->why = why;
            if (!r->n_spans && p->n) {
                r->spans = al_xmalloc(p->n * sizeof *r->spans);
                for (size_t k = 0; k < p->n; k++) {
                    r->spans[k][0] = p->sites[k]->start;
                    r->spans[k][1] = p->sites[k]->end;
                }
                r->n_spans = p->n;
            }
            r->sharing = p->n;
        }
        count_call(r, c, t);
    }
    for (size_t i = first_row; i < out->n; i++)
        out->items[i].invocations = invocations;
    for (size_t i = 0; i < n_plans; i++)
        free(plans[i].sites);
    free(plans);
    al_callsites_free(&sites);
}


/* Calls placed by a label alone, in a trace without Python frames. */
static void place_labelled(al_site_costs *out, const al_trace *t, const al_trace_call *c,
                           const char *path, parsed *file)
{
    al_label label;
    if (!file || !al_label_parse(t->names[c->label], &label)) {
        out->unresolved++;
        return;
    }
    const char *kind = label.kind;
    TSNode fn = al_py_function_at(&file->pf, label.line);
    TSNode name = al_node_field(fn, "name");
    char *fname = ts_node_is_null(name) ? al_xstrdup("<module>") : al_node_text(&file->pf, name);
    al_callsites sites;
    al_py_callsites(&file->pf, fn, &sites);
    const char *why = NULL;
    const al_callsite *s = labelled_site(&sites, &label, &why);
    al_site_cost *r;
    if (s) {
        r = row_for(out, path, fname, al_py_def_row(fn), kind, s->start, s->end, false);
        r->line = s->row;
    } else {
        r = row_for(out, path, fname, al_py_def_row(fn), kind, ts_node_start_byte(fn),
                    ts_node_end_byte(fn), true);
        r->line = al_py_def_row(fn);
        r->why = why;
    }
    r->labelled = true;
    r->invocations++;
    count_call(r, c, t);
    free(fname);
    al_callsites_free(&sites);
}

void al_site_costs_build(al_trace *const *traces, size_t n_traces, char *const *paths,
                         size_t n_paths, al_site_costs *out)
{
    memset(out, 0, sizeof *out);
    matcher m;
    matcher_init(&m, paths, n_paths);
    al_trace_calls *joined = al_xcalloc(n_traces ? n_traces : 1, sizeof *joined);
    placed_call *calls = NULL, *labelled = NULL;
    size_t n_calls = 0, cap_calls = 0, n_labelled = 0, cap_labelled = 0;
    for (size_t t = 0; t < n_traces; t++) {
        al_trace_join(traces[t], in_tree, &m, &joined[t]);
        out->gpu_total_ns += joined[t].gpu_total_ns;
        out->gpu_graph_ns += joined[t].gpu_graph_ns;
        out->gpu_tree_ns += joined[t].gpu_tree_ns;
        out->gpu_orphan_ns += joined[t].gpu_orphan_ns;
        out->tree_frames += joined[t].tree_frames;
        out->frames += traces[t]->n_frames;
        /* The join asked of each frame name once; its calls ask again,
         * once per name. */
        long *file_of = al_xmalloc((traces[t]->n_names ? traces[t]->n_names : 1) * sizeof *file_of);
        for (size_t k = 0; k < traces[t]->n_names; k++)
            file_of[k] = -3;
        size_t ambiguous = m.ambiguous;
        for (size_t k = 0; k < joined[t].n; k++) {
            const al_trace_call *c = &joined[t].items[k];
            if (c->frame == AL_TRACE_NO_FRAME) {
                long f = match_label(&m, traces[t]->names[c->label]);
                if (f >= 0) {
                    placed_call p = {c, t, f, NULL};
                    AL_PUSH(labelled, n_labelled, cap_labelled, p);
                }
                continue;
            }
            if (file_of[c->frame] == -3)
                file_of[c->frame] = match_frame(&m, traces[t]->names[c->frame]);
            placed_call p = {c, t, file_of[c->frame], traces[t]->names[c->frame]};
            if (p.file >= 0)
                AL_PUSH(calls, n_calls, cap_calls, p);
        }
        m.ambiguous = ambiguous;
        free(file_of);
    }
    out->ambiguous = m.ambiguous;
    out->ambiguous_example = m.ambiguous_example;
    m.ambiguous_example = NULL;
    if (n_calls > 1) /* calls is NULL when no frame matched */
        qsort(calls, n_calls, sizeof *calls, by_function);
    parsed *files = al_xcalloc(n_paths ? n_paths : 1, sizeof *files);
    for (size_t i = 0; i < n_calls;) {
        size_t j = i + 1;
        while (j < n_calls && calls[j].file == calls[i].file &&
               !strcmp(calls[j].frame, calls[i].frame))
            j++;
        parsed *f = parse_file(files, paths, calls[i].file);
        place_function(out, traces, calls + i, j - i, paths[calls[i].file], f);
        i = j;
    }
    for (size_t i = 0; i < n_labelled; i++)
        place_labelled(out, traces[labelled[i].trace], labelled[i].call,
                       paths[labelled[i].file], parse_file(files, paths, labelled[i].file));
    free(labelled);
    for (size_t i = 0; i < n_paths; i++)
        if (files[i].loaded) {
            if (files[i].ok)
                al_pyfile_free(&files[i].pf);
            al_source_free(&files[i].src);
        }
    free(files);
    free(calls);
    for (size_t t = 0; t < n_traces; t++)
        al_trace_calls_free(&joined[t]);
    free(joined);
    matcher_free(&m);
}

void al_site_costs_free(al_site_costs *c)
{
    for (size_t i = 0; i < c->n; i++) {
        free(c->items[i].path);
        free(c->items[i].function);
        free(c->items[i].op);
        free(c->items[i].spans);
    }
    free(c->items);
    free(c->unresolved_example);
    free(c->ambiguous_example);
    memset(c, 0, sizeof *c);
}

bool al_site_is_memory_work(const al_site_cost *s)
{
    static const char *const kinds[] = {
        "zeros", "ones", "full", "empty", "zeros_like", "ones_like", "full_like", "empty_like",
        "new_zeros", "new_ones", "new_full", "new_empty", "fill_", "zero_", "copy_", "to",
        "cuda", "cat", "concat", "concatenate", "stack", "pad", "clone", "tensor", "as_tensor",
        AL_CALLSITE_SETITEM, NULL};
    static const char *const ops[] = {
        "aten::zeros", "aten::ones", "aten::full", "aten::empty", "aten::zeros_like",
        "aten::ones_like", "aten::full_like", "aten::empty_like", "aten::new_zeros",
        "aten::new_ones", "aten::new_full", "aten::new_empty", "aten::fill_", "aten::zero_",
        "aten::copy_", "aten::to", "aten::_to_copy", "aten::cat", "aten::concat", "aten::stack",
        "aten::pad", "aten::constant_pad_nd", "aten::clone", "aten::index_put_",
        "aten::masked_fill_", NULL};
    for (int i = 0; kinds[i]; i++)
        if (!strcmp(s->kind, kinds[i]))
            return true;
    for (int i = 0; s->op && ops[i]; i++)
        if (!strcmp(s->op, ops[i]))
            return true;
    return false;
}
