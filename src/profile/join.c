#include "join.h"

#include "../analysis/python/callsites.h"
#include "../base/util.h"

#include <stdlib.h>
#include <string.h>

/* --- an int64 -> index map, open addressing. */
typedef struct {
    int64_t *keys;
    int32_t *values;
    size_t cap;
} id_map;

static size_t mix(int64_t k)
{
    uint64_t x = (uint64_t)k;
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdULL;
    x ^= x >> 33;
    return (size_t)x;
}

static void map_init(id_map *m, size_t n)
{
    m->cap = 16;
    while (m->cap < n * 2)
        m->cap *= 2;
    m->keys = al_xmalloc(m->cap * sizeof *m->keys);
    m->values = al_xmalloc(m->cap * sizeof *m->values);
    for (size_t i = 0; i < m->cap; i++)
        m->keys[i] = -1;
}

/* The first event with key k wins: ids are unique per trace, and a repeat
 * (a merged trace) keeps its first owner. */
static void map_put(id_map *m, int64_t k, int32_t v)
{
    size_t h = mix(k) & (m->cap - 1);
    while (m->keys[h] != -1) {
        if (m->keys[h] == k)
            return;
        h = (h + 1) & (m->cap - 1);
    }
    m->keys[h] = k;
    m->values[h] = v;
}

static int32_t map_get(const id_map *m, int64_t k)
{
    if (k < 0)
        return -1;
    size_t h = mix(k) & (m->cap - 1);
    while (m->keys[h] != -1) {
        if (m->keys[h] == k)
            return m->values[h];
        h = (h + 1) & (m->cap - 1);
    }
    return -1;
}

static void map_free(id_map *m)
{
    free(m->keys);
    free(m->values);
}

/* Frames enclose the labels, labels the calls' ops, ops their launches,
 * when two begin and end together. */
static int rank_of(uint8_t kind)
{
    switch (kind) {
    case AL_TRACE_FRAME:
        return 0;
    case AL_TRACE_LABEL:
        return 1;
    case AL_TRACE_OP:
        return 2;
    default:
        return 3;
    }
}

static int by_nesting(const void *x, const void *y, void *arg)
{
    const al_trace_event *ev = arg;
    const al_trace_event *a = &ev[*(const int32_t *)x], *b = &ev[*(const int32_t *)y];
    if (a->thread != b->thread)
        return a->thread < b->thread ? -1 : 1;
    if (a->start != b->start)
        return a->start < b->start ? -1 : 1;
    if (a->end != b->end)
        return a->end > b->end ? -1 : 1;
    int ra = rank_of(a->kind), rb = rank_of(b->kind);
    if (ra != rb)
        return ra < rb ? -1 : 1;
    return *(const int32_t *)x < *(const int32_t *)y ? -1 : 1;
}

static bool is_graph_launch(const char *name)
{
    return !strcmp(name, "cudaGraphLaunch") || !strncmp(name, "cudaGraphLaunch_", 16) ||
           !strcmp(name, "cuGraphLaunch");
}

typedef struct {
    bool tree;     /* a frame of the tree */
    int32_t call;  /* the call made at this node (it is right under a tree frame); -1 */
    int32_t frame; /* the innermost tree frame around it; -1 */
    int32_t child; /* the node right under that frame on the way here; -1 */
    int32_t top;   /* the outermost op under that frame on the way here; -1 */
} nesting;

static int by_rank(const void *x, const void *y, void *arg)
{
    const al_trace_call *c = arg;
    const al_trace_call *a = &c[*(const int32_t *)x], *b = &c[*(const int32_t *)y];
    if (a->invocation != b->invocation)
        return a->invocation < b->invocation ? -1 : 1;
    int k = strcmp(a->kind, b->kind);
    if (k)
        return k;
    return *(const int32_t *)x < *(const int32_t *)y ? -1 : 1;
}

void al_trace_join(const al_trace *t, al_tree_frame_fn in_tree, void *ctx, al_trace_calls *out)
{
    memset(out, 0, sizeof *out);
    size_t n = t->n_events;
    const al_trace_event *ev = t->events;
    int32_t *order = al_xmalloc((n ? n : 1) * sizeof *order);
    size_t n_host = 0, n_ops = 0, n_launch = 0;
    for (size_t i = 0; i < n; i++) {
        if (ev[i].kind == AL_TRACE_GPU) {
            out->gpu_total_ns += ev[i].end - ev[i].start;
            continue;
        }
        order[n_host++] = (int32_t)i;
        n_ops += ev[i].kind == AL_TRACE_OP;
        n_launch += ev[i].kind == AL_TRACE_LAUNCH;
    }
    qsort_r(order, n_host, sizeof *order, by_nesting, (void *)ev);

    /* Which frame names are the tree's: asked once per name. */
    signed char *tree_name = al_xmalloc(t->n_names ? t->n_names : 1);
    memset(tree_name, -1, t->n_names ? t->n_names : 1);
    nesting *nest = al_xmalloc((n ? n : 1) * sizeof *nest);
    int64_t *top_gpu = al_xcalloc(n ? n : 1, sizeof *top_gpu);
    int32_t *stack = al_xmalloc((n_host ? n_host : 1) * sizeof *stack);
    size_t depth = 0;
    uint32_t thread = UINT32_MAX;
    for (size_t o = 0; o < n_host; o++) {
        int32_t i = order[o];
        const al_trace_event *e = &ev[i];
        if (e->thread != thread) {
            thread = e->thread;
            depth = 0;
        }
        while (depth && ev[stack[depth - 1]].end <= e->start)
            depth--;
        int32_t p = depth ? stack[depth - 1] : -1;
        stack[depth++] = i;
        bool tree = false;
        if (e->kind == AL_TRACE_FRAME || e->kind == AL_TRACE_LABEL) {
            if (tree_name[e->name] < 0)
                tree_name[e->name] =
                    in_tree(ctx, t->names[e->name], e->kind == AL_TRACE_LABEL) ? 1 : 0;
            tree = tree_name[e->name] == 1;
        }
        nesting *s = &nest[i];
        s->call = -1;
        s->tree = tree && e->kind == AL_TRACE_FRAME;
        if (s->tree) {
            s->frame = i;
            s->child = s->top = -1;
            out->tree_frames++;
            continue;
        }
        const nesting *up = p >= 0 ? &nest[p] : NULL;
        s->frame = up ? up->frame : -1;
        s->child = !up ? -1 : up->tree ? i : up->child;
        /* A label of the tree with no frame of it around (a trace without
         * Python frames) is a call of its own: its line is its place. */
        bool lone_label = tree && s->frame < 0;
        if (lone_label)
            s->frame = s->child = i;
        s->top = up && up->top >= 0 && !lone_label ? up->top
                 : e->kind == AL_TRACE_OP && s->frame >= 0 ? i
                                                           : -1;
        if (s->frame >= 0 && s->child == i) {
            al_trace_call c;
            memset(&c, 0, sizeof c);
            c.frame = lone_label ? AL_TRACE_NO_FRAME : ev[s->frame].name;
            c.invocation = (size_t)s->frame;
            c.op = c.label = -1;
            s->call = (int32_t)out->n;
            AL_PUSH(out->items, out->n, out->cap, c);
        }
        if (s->frame < 0)
            continue;
        al_trace_call *c = &out->items[nest[s->child].call];
        if (e->kind == AL_TRACE_LABEL && c->label < 0)
            c->label = e->name;
        if (s->top == i) {
            c->host_ns += e->end - e->start;
            if (c->op < 0)
                c->op = i; /* an event index until the GPU time is in */
        }
    }

    /* GPU events to their ops, or through their launch's correlation. */
    id_map by_ext, by_corr;
    map_init(&by_ext, n_ops);
    map_init(&by_corr, n_launch);
    for (size_t i = 0; i < n; i++) {
        if (ev[i].kind == AL_TRACE_OP && ev[i].ext >= 0)
            map_put(&by_ext, ev[i].ext, (int32_t)i);
        else if (ev[i].kind == AL_TRACE_LAUNCH && ev[i].corr >= 0)
            map_put(&by_corr, ev[i].corr, (int32_t)i);
    }
    for (size_t i = 0; i < n; i++) {
        if (ev[i].kind != AL_TRACE_GPU)
            continue;
        int64_t dur = ev[i].end - ev[i].start;
        int32_t launch = map_get(&by_corr, ev[i].corr);
        bool graph = launch >= 0 && is_graph_launch(t->names[ev[launch].name]);
        int32_t at = graph ? launch : map_get(&by_ext, ev[i].ext);
        if (at < 0)
            at = launch;
        if (graph)
            out->gpu_graph_ns += dur;
        if (at < 0) {
            out->gpu_orphan_ns += dur;
            continue;
        }
        const nesting *s = &nest[at];
        if (s->frame < 0 || s->child < 0)
            continue;
        al_trace_call *c = &out->items[nest[s->child].call];
        if (graph) {
            c->graph_ns += dur;
            continue;
        }
        c->gpu_ns += dur;
        out->gpu_tree_ns += dur;
        if (s->top >= 0)
            top_gpu[s->top] += dur;
    }

    /* Kinds, then each call's rank among its invocation's calls of a kind. */
    for (size_t o = 0; o < n_host; o++) {
        int32_t i = order[o];
        if (nest[i].call < 0)
            continue;
        al_trace_call *c = &out->items[nest[i].call];
        const char *name = t->names[ev[i].name];
        al_label label;
        if (c->label >= 0 && al_label_parse(t->names[c->label], &label)) {
            memcpy(c->kind, label.kind, sizeof c->kind);
            continue;
        }
        if (ev[i].kind == AL_TRACE_OP)
            al_callsite_kind_of_op(name, c->kind, sizeof c->kind);
        else
            al_callsite_kind_of_frame(name, c->kind, sizeof c->kind);
    }
    /* Each call's op: the outermost op with most GPU time, then host time,
     * then the one its kind names (`aten::zeros` for a call of `zeros`, not
     * the tensor the companion's record_function makes in old torch). */
    for (size_t o = 0; o < n_host; o++) {
        int32_t i = order[o];
        const nesting *s = &nest[i];
        if (s->frame < 0 || s->top != i)
            continue;
        al_trace_call *c = &out->items[nest[s->child].call];
        int32_t best = (int32_t)c->op;
        if (best == i)
            continue;
        int64_t di = ev[i].end - ev[i].start, db = ev[best].end - ev[best].start;
        const char *ni = t->names[ev[i].name], *nb = t->names[ev[best].name];
        bool named_i = !strncmp(ni, "aten::", 6) && !strcmp(ni + 6, c->kind);
        bool named_b = !strncmp(nb, "aten::", 6) && !strcmp(nb + 6, c->kind);
        if (top_gpu[i] > top_gpu[best] ||
            (top_gpu[i] == top_gpu[best] && (di > db || (di == db && named_i && !named_b))))
            c->op = i;
    }
    for (size_t k = 0; k < out->n; k++) {
        al_trace_call *c = &out->items[k];
        if (c->op >= 0)
            c->op = ev[c->op].name;
    }
    int32_t *ranks = al_xmalloc((out->n ? out->n : 1) * sizeof *ranks);
    for (size_t k = 0; k < out->n; k++)
        ranks[k] = (int32_t)k;
    qsort_r(ranks, out->n, sizeof *ranks, by_rank, out->items);
    for (size_t k = 0; k < out->n; k++) {
        al_trace_call *c = &out->items[ranks[k]];
        const al_trace_call *prev = k ? &out->items[ranks[k - 1]] : NULL;
        c->k = prev && prev->invocation == c->invocation && !strcmp(prev->kind, c->kind)
                   ? prev->k + 1
                   : 0;
    }
    free(ranks);
    map_free(&by_ext);
    map_free(&by_corr);
    free(stack);
    free(top_gpu);
    free(nest);
    free(tree_name);
    free(order);
}

void al_trace_calls_free(al_trace_calls *c)
{
    free(c->items);
    memset(c, 0, sizeof *c);
}

bool al_frame_name_parse(const char *name, const char **path, size_t *path_len, size_t *line,
                         const char **function)
{
    if (name[0] == '<')
        return false;
    const char *close = strstr(name, "): ");
    if (!close)
        return false;
    const char *open = close;
    while (open > name && open[-1] >= '0' && open[-1] <= '9')
        open--;
    if (open == close || open == name || open[-1] != '(')
        return false;
    open--;
    *path = name;
    *path_len = (size_t)(open - name);
    *line = (size_t)strtoull(open + 1, NULL, 10);
    *function = close + 3;
    return *path_len > 0;
}

/* A decimal number, or empty (*present false); the field ends at ':'. */
static const char *label_number(const char *p, size_t *value, bool *present)
{
    *value = 0;
    *present = false;
    while (*p >= '0' && *p <= '9') {
        *value = *value * 10 + (size_t)(*p - '0');
        *present = true;
        p++;
    }
    return *p == ':' ? p + 1 : NULL;
}

bool al_label_parse(const char *label, al_label *out)
{
    static const char prefix[] = "alloclint.site:";
    memset(out, 0, sizeof *out);
    if (strncmp(label, prefix, sizeof prefix - 1))
        return false;
    const char *k = label + sizeof prefix - 1;
    const char *colon = strchr(k, ':');
    if (!colon || colon == k)
        return false;
    size_t klen = (size_t)(colon - k);
    if (klen >= sizeof out->kind)
        klen = sizeof out->kind - 1;
    memcpy(out->kind, k, klen);
    bool line, col, end_line, end_col;
    const char *p = label_number(colon + 1, &out->line, &line);
    p = p ? label_number(p, &out->col, &col) : NULL;
    p = p ? label_number(p, &out->end_line, &end_line) : NULL;
    p = p ? label_number(p, &out->end_col, &end_col) : NULL;
    if (!p || !line || !*p)
        return false;
    out->has_span = col && end_line && end_col;
    out->path = p;
    out->path_len = strlen(p);
    return out->line > 0;
}
