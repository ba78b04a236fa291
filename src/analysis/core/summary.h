/* Summaries of callees (DESIGN.md, "summaries of callees"): what a called
 * Python helper, Triton kernel, custom op or C++/CUDA function does to a
 * tensor handed to it, with the chain of callees and stores that decided
 * it. The buffer analysis asks al_callee_effect at every call that takes
 * a tracked buffer; the answer is computed from the repo's own code
 * through the index, composed through helpers with a depth limit, and
 * cached. */
#ifndef ALLOCLINT_SUMMARY_H
#define ALLOCLINT_SUMMARY_H

#include "ops.h"
#include "../../front/python/pyast.h"

#include <stdbool.h>
#include <stddef.h>

struct al_index;
struct al_pymodule;

typedef enum {
    AL_EFFECT_UNUSED,      /* the callee does not touch it */
    AL_EFFECT_WRITES_ALL,  /* every element, before any read (under `req`) */
    AL_EFFECT_WRITES_SOME, /* written, but coverage is not proved (`why`) */
    AL_EFFECT_WRITES_PART, /* written, leaving elements out by construction: an
                            * offset, a stride, a lower bound, a slice */
    AL_EFFECT_SKIPS,       /* a data-dependent exit may skip the store */
    AL_EFFECT_ACCUMULATES, /* atomics, load-add-store, +=, add_ */
    AL_EFFECT_READS,       /* an element is read before it is written */
    AL_EFFECT_ESCAPES,     /* kept, or handed where it cannot be followed */
    AL_EFFECT_UNKNOWN,
    AL_EFFECT_RETURNS_ALIAS, /* returned untouched, itself or a view (`returns_whole`) */
    AL_EFFECT_UNREAD,        /* on every path left untouched, or overwritten whole before
                              * any other use: its values are never read, and may stay */
} al_effect;

/* What WRITES_ALL needs from the caller: the numel of the buffer equals a
 * value or the numel of another argument. */
typedef enum {
    AL_REQ_NONE,
    AL_REQ_NUMEL_IS_VALUE, /* numel(buffer) == the argument's value */
    AL_REQ_NUMEL_IS_NUMEL, /* numel(buffer) == numel(the argument) */
    AL_REQ_SHAPE_IS_SHAPE, /* the buffer has the argument's (2-D) shape */
    AL_REQ_ROWS,           /* the buffer is 2-D: `node` rows of `node2`
                            * elements, `node3` apart */
    AL_REQ_ROWS_OF,        /* the buffer's first dimension is dimension
                            * `dim` of the argument (an op contract's rows) */
    AL_REQ_NUMEL_IS_SUM,   /* numel(buffer) == sum(`node`), the lengths whose
                            * exclusive prefix sum `node2` is, over the
                            * `node3` programs of a segment kernel */
    AL_REQ_SHAPE_DIMS,     /* the buffer is a fresh allocation of `dim`
                            * dimensions whose extents are `node`, `node2`,
                            * `node3` (a tile kernel's) */
} al_req_kind;

typedef struct {
    al_req_kind kind;
    int param;                 /* in a summary: the callee parameter */
    TSNode node, node2, node3; /* at a call site: the caller's expressions */
    TSNode node4;              /* NUMEL_IS_SUM: the statement completing the prefix sum */
    int dim;                   /* ROWS_OF: the argument's dimension */
    bool grid_covers;          /* a CUDA kernel: the launch's blocks must cover the bound */
    bool contiguous;           /* SHAPE_DIMS: the strides mix the buffer's own with
                                * products of extents, which only a row-major
                                * buffer has */
    bool products;             /* SHAPE_DIMS: some stride is a product of extents,
                                * which spans only a dense buffer's storage */
} al_req;

/* One step of the reasoning, shown to the user as a related location. */
typedef struct {
    char *text;
    char *path; /* NULL: the file being checked */
    size_t row;
    bool store; /* the store that writes every element: named in messages */
} al_link;

typedef struct {
    al_link *items;
    size_t n, cap;
} al_chain;

void al_chain_add(al_chain *c, const char *path, size_t row, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
void al_chain_append(al_chain *to, const al_chain *from);
/* Marks the last link as the store that carries a full-write proof. */
void al_chain_mark_store(al_chain *c);
/* The first store link, or NULL. */
const al_link *al_chain_store(const al_chain *c);
void al_chain_free(al_chain *c);

/* What is proved about a fresh buffer's initial value (Python and C++). */
typedef enum {
    AL_PROOF_NONE,        /* never fully written on the paths that use it */
    AL_PROOF_FULL_WRITE,  /* fully written before any read, on every path */
    AL_PROOF_OUTPUT_ONLY, /* only passed as an output before any read */
    AL_PROOF_BLOCKED,     /* some path needs the initial value */
    AL_PROOF_UNREAD,      /* never read: handed only to callees that never read its
                           * values (`evidence`), and not used after */
    AL_PROOF_GUARDED,     /* read only where written: a Triton kernel (`evidence`)
                           * loads only elements an earlier launch stored (`why`) */
} al_proof;

/* What the callee does to one argument. */
typedef struct {
    al_effect effect;
    al_req req;     /* WRITES_ALL: what the caller must prove */
    char *callee;   /* "the Triton kernel `k`", "`helper`" */
    char *why;      /* WRITES_SOME and the rest: the reason, for messages */
    al_chain chain; /* the call, then the callee's own steps */
    bool returns_whole; /* RETURNS_ALIAS: a view of every element, not a slice */
    bool assumed;       /* WRITES_ALL, UNREAD: holds only under an assumption (`why`),
                         * so a fix from it is at most unsafe */
    char *region;       /* a Triton launch: the elements it stores (region_writes) or
                         * loads, in the caller's terms (core/regions.h), or NULL */
    bool region_writes;
} al_call_effect;

void al_call_effect_free(al_call_effect *e);
const char *al_effect_name(al_effect e);

/* What the analysis of a buffer needs to know about its file. */
typedef struct {
    const char *path; /* the file, for the index and for chains */
    const al_pyfile *pf;
    const struct al_pymodule *mod;
    const al_op_table *ops;
    struct al_index *index; /* NULL: no calls are followed */
    int depth;              /* summaries being computed around this one */
} al_file_env;

/* The class `self.<attr>` is declared to hold in the class around call
 * (an annotation, a parameter annotated so and stored, `T(...)` stored):
 * the type expression, in *pf and *mod (a whole view of the class when
 * the file was parsed in parts). False when there is none, or the
 * assignments disagree. */
bool al_attribute_declared_type(const al_file_env *env, TSNode call, TSNode attr,
                                const al_pyfile **pf, const struct al_pymodule **mod, TSNode *type);

/* The effect of the call `call` on its argument at position `pos` (or the
 * keyword argument named `kw`). False when the callee cannot be found:
 * the caller falls back to its own rules. */
bool al_callee_effect(const al_file_env *env, TSNode call, int pos, TSNode kw,
                      al_call_effect *out);

#endif
