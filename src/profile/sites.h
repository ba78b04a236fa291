/* What the traces measured at each call site of the checked tree: the
 * calls of al_trace_join put on statements. The k-th call of a kind
 * (`zeros`, `fill_`, `cat`, `to`, a subscript assignment) in a call of a
 * function is its k-th call site of that kind when the body reaches them
 * in straight-line order, or it is the function's only one; a label of the
 * run-time companion names its line outright. Otherwise the cost stays
 * with the function ("by function"), with how many sites share it and
 * why: never a guess. */
#ifndef ALLOCLINT_SITES_H
#define ALLOCLINT_SITES_H

#include "trace.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct {
    char *path;            /* the checked file, as the walk named it */
    char *function;        /* the function's name (`<module>` for top-level code) */
    size_t def_line;       /* its def's line */
    size_t line;           /* the site's line; by function: def_line */
    size_t start, end;     /* the site's bytes; by function: the function's */
    char kind[64];         /* `zeros`, `fill_`, `[]=`, ... */
    char *op;              /* the aten name of its outermost op, or NULL */
    size_t calls;          /* how many times it ran */
    size_t invocations;    /* calls of its function */
    int64_t gpu_ns, host_ns, graph_ns, max_call_gpu_ns;
    bool by_function;
    bool labelled;         /* placed by the companion's label */
    size_t sharing;        /* by function: the function's sites of the kind */
    size_t (*spans)[2];    /* by function: those sites' bytes */
    size_t n_spans;
    const char *why;       /* by function: why the calls could not be split (static) */
} al_site_cost;

typedef struct {
    al_site_cost *items;
    size_t n, cap;
    int64_t gpu_total_ns, gpu_graph_ns, gpu_tree_ns, gpu_orphan_ns;
    size_t frames;         /* python_function events of the traces */
    size_t tree_frames;    /* of them, frames of the tree's functions */
    size_t unresolved;     /* tree frames whose function the file does not hold */
    char *unresolved_example;
    size_t ambiguous;      /* frame paths that match more than one checked file */
    char *ambiguous_example;
} al_site_costs;

/* Joins the traces to the checked files (paths as the walk gave them,
 * read from disk here). Never fails: what cannot be placed is counted. */
void al_site_costs_build(al_trace *const *traces, size_t n_traces, char *const *paths,
                         size_t n_paths, al_site_costs *out);
void al_site_costs_free(al_site_costs *c);

/* Whether a site is one of the allocations, fills, copies and
 * concatenations `hot` lists (by its op, or its kind). */
bool al_site_is_memory_work(const al_site_cost *s);

#endif
