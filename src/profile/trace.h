/* A PyTorch profiler trace (Kineto's Chrome trace JSON, plain or gzipped),
 * read streaming into the few events the cost join needs: the host's
 * Python frames and ops, the CUDA runtime and driver calls that launch
 * work, and the GPU's kernels, memsets and memcopies. Everything else in
 * the document (metadata, flows, counters, the args of each event but
 * the ids) is read, checked and dropped, so memory follows the number of
 * those events, not the document's size. */
#ifndef ALLOCLINT_TRACE_H
#define ALLOCLINT_TRACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef enum {
    AL_TRACE_FRAME,  /* cat "python_function": `path(line): name` or a C call */
    AL_TRACE_OP,     /* cat "cpu_op" (older traces: "Operator") */
    AL_TRACE_LABEL,  /* a user annotation the run-time companion wrote: "alloclint.site:..." */
    AL_TRACE_LAUNCH, /* cat "cuda_runtime" / "cuda_driver" ("Runtime") */
    AL_TRACE_GPU,    /* cat "kernel", "gpu_memcpy", "gpu_memset" ("Memcpy", "Memset") */
} al_trace_kind;

typedef struct {
    int64_t start, end; /* nanoseconds on the trace's clock */
    int64_t ext;        /* args."External id"; -1 when absent */
    int64_t corr;       /* args.correlation; -1 when absent */
    uint32_t thread;    /* index into al_trace.threads: one (pid, tid) */
    uint32_t name;      /* index into al_trace.names */
    uint8_t kind;       /* al_trace_kind */
} al_trace_event;

typedef struct {
    char *path;
    bool gzipped;
    al_trace_event *events;
    size_t n_events, cap_events;
    /* Interned strings: names of events, and "pid/tid" of threads. */
    char **names;
    size_t n_names, cap_names;
    char **threads;
    size_t n_threads, cap_threads;
    size_t n_frames;     /* how many python_function events: 0 without with_stack */
    size_t n_labels;     /* how many labels of the companion's */
    uint64_t read_bytes; /* of JSON, decompressed */
    void *intern;        /* the string table's hash index */
} al_trace;

typedef struct {
    char message[512]; /* "PATH: at byte N: what" */
} al_trace_error;

/* Reads the trace at path into *t (zeroed by the caller). False with a
 * message naming the file and the offset when it cannot be opened, is not
 * gzip where it says so, is corrupt or truncated, or is not a Chrome trace
 * (no traceEvents). Nothing is kept then (al_trace_free is still safe). */
bool al_trace_read(const char *path, al_trace *t, al_trace_error *err);
void al_trace_free(al_trace *t);

/* Reads a trace from memory (the fuzz target and the unit tests). */
bool al_trace_read_memory(const char *name, const char *bytes, size_t len, al_trace *t,
                          al_trace_error *err);

#endif
