/* The calls a trace shows under the checked tree's Python functions, each
 * with the GPU and host time of the ops it ran.
 *
 * A GPU event (kernel, memset, memcpy) carries the External id of the
 * innermost op that launched it (the `aten::fill_` inside `aten::zeros`),
 * or only the correlation of its runtime launch. Host events nest in time
 * on their thread: Python frames (`toyengine/decode.py(12): build`, and
 * one frame per C call, `<built-in method zeros of type object>`), ops
 * (`aten::zeros` > `aten::zero_` > `aten::fill_`) and launches. Each GPU
 * event climbs from its op to the innermost frame of the tree; the node
 * right under that frame is the call it belongs to: a C or library call's
 * frame, a label of the run-time companion's, or an op with no frame of
 * its own (a subscript assignment's copy). */
#ifndef ALLOCLINT_JOIN_H
#define ALLOCLINT_JOIN_H

#include "trace.h"

#include <stdbool.h>
#include <stdint.h>

#define AL_TRACE_NO_FRAME UINT32_MAX

typedef struct {
    uint32_t frame;      /* the tree function's frame name (al_trace.names); AL_TRACE_NO_FRAME
                          * for a label of the companion's with no frame of the tree around
                          * it (a trace without Python frames) */
    size_t invocation;   /* that frame's event: one call of the function */
    char kind[64];       /* al_callsite_kind_of_frame / _of_op, or the label's */
    uint32_t k;          /* its rank among the invocation's calls of that kind, from 0 */
    int64_t op;          /* names: its outermost op with the most GPU time, then host time; -1 */
    int64_t gpu_ns;      /* GPU events its ops launched */
    int64_t host_ns;     /* its outermost ops, on the host */
    int64_t graph_ns;    /* GPU events of CUDA-graph replays it launched */
    int64_t label;       /* names: the companion's label (al_label_parse); -1 none */
} al_trace_call;

typedef struct {
    al_trace_call *items;
    size_t n, cap;
    int64_t gpu_total_ns;  /* every GPU event of the trace */
    int64_t gpu_graph_ns;  /* launched by a CUDA-graph replay (cudaGraphLaunch) */
    int64_t gpu_tree_ns;   /* reached a call under a frame of the tree */
    int64_t gpu_orphan_ns; /* no op or launch on the host found for it */
    size_t tree_frames;    /* frame events of the tree */
} al_trace_calls;

/* Whether a frame name (`pkg/mod.py(12): fn`), or with label set a label
 * of the companion's (al_label_parse), is in the tree. */
typedef bool (*al_tree_frame_fn)(void *ctx, const char *name, bool label);

void al_trace_join(const al_trace *t, al_tree_frame_fn in_tree, void *ctx, al_trace_calls *out);
void al_trace_calls_free(al_trace_calls *c);

/* Splits a frame name `path(line): function` into its parts; false for C
 * calls (`<built-in ...>`) and other shapes. */
bool al_frame_name_parse(const char *name, const char **path, size_t *path_len, size_t *line,
                         const char **function);
/* A label of the companion's: `alloclint.site:KIND:LINE:COL:END_LINE:END_COL:PATH`,
 * the call's place as the interpreter gives it (columns in bytes, from 0;
 * empty before Python 3.11, which gives the line alone). */
typedef struct {
    char kind[64];
    const char *path;
    size_t path_len;
    size_t line;
    bool has_span;
    size_t col, end_line, end_col;
} al_label;

/* False when malformed. */
bool al_label_parse(const char *label, al_label *out);

#endif
