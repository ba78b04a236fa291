/* What the uses of a freshly allocated buffer prove about its initial
 * value, on every path of its function (DESIGN.md, "facts about a
 * buffer"): fully written before any read, only handed to ops as an output
 * first, or needed by some path (read, escaped, accumulated into), and the
 * zero fills that find it still all zeros. A path-sensitive forward
 * dataflow over the function's control-flow graph, with must and may
 * aliases (views, slices) and symbolic coverage of the slices written. */
#ifndef ALLOCLINT_BUFFER_H
#define ALLOCLINT_BUFFER_H

#include "alloc.h"
#include "../core/ops.h"
#include "../core/summary.h"
#include "uses.h"

#include <stdbool.h>
#include <stddef.h>

typedef enum {
    AL_BLOCK_NONE,
    AL_BLOCK_READ,          /* an element read before a full write */
    AL_BLOCK_ESCAPE,        /* stored, returned, captured or passed to an unknown call */
    AL_BLOCK_ACCUMULATE,    /* read-modify-write (+=, add_, index_add_) */
    AL_BLOCK_GLOBAL,        /* the name is global or nonlocal */
    AL_BLOCK_CALLEE,        /* a callee may leave elements unwritten (data-dependent exit) */
    AL_BLOCK_NOT_FOUND,     /* handed to a callee not found in the project: not followed */
} al_block_reason;

typedef struct {
    al_alloc_site site;
    al_proof proof;
    al_block_reason block; /* the first thing found to need the initial value */
    size_t block_row;
    /* What explains it best when several did (a kernel that leaves elements,
     * an accumulation and a read say more than an escape after them): the
     * reason `explain` and `hot` give. */
    al_block_reason shown_block;
    size_t shown_row;
    char *evidence; /* what proved the write, e.g. "`copy_`" */
    size_t evidence_row;
    char *why;      /* OUTPUT_ONLY: what could not be proved; BLOCKED: what the
                     * blocking callee does, when one said; UNREAD: what it assumes */
    bool assumed;   /* UNREAD: rests on an assumption (why): a fix is at most unsafe */
    al_chain chain; /* the callees and stores behind the write (BLOCKED:
                     * behind the block) */
    /* Statements that fill the buffer with zeros where every path still
     * holds the allocation's zeros and nothing else could have written it
     * (zeros factories only). */
    TSNode *zero_refills;
    size_t n_zero_refills, cap_zero_refills;
} al_buffer;

typedef struct al_buffers {
    al_buffer *items;
    size_t n, cap;
} al_buffers;

/* Adds the allocation sites of one function (a function_definition) and
 * what is proved about each, in statement order. */
void al_buffers_analyse_function(al_buffers *out, const al_file_env *env, TSNode func);
void al_buffers_free(al_buffers *b);
/* What function `func` does to its parameter `param`, for its callers:
 * the same dataflow, rooted at the parameter, mapped to an effect. */
void al_buffer_param_effect(const al_file_env *env, TSNode func, const char *param,
                            al_call_effect *out);
const char *al_block_reason_text(al_block_reason r);

#endif
