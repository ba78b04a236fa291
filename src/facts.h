/* Facts about tensor allocations in a Python file: what each allocation
 * makes, where it is bound, and what its later uses prove (DESIGN.md,
 * "The analysis: facts about a buffer").  Rules read these facts; they
 * never walk the syntax tree themselves. */
#ifndef ALLOCLINT_FACTS_H
#define ALLOCLINT_FACTS_H

#include "ops.h"
#include "patterns.h"
#include "python/pyast.h"

#include <stdbool.h>
#include <stddef.h>

typedef enum {
    AL_FACTORY_ZEROS,
    AL_FACTORY_ONES,
    AL_FACTORY_FULL,
    AL_FACTORY_ZEROS_LIKE,
    AL_FACTORY_ONES_LIKE,
    AL_FACTORY_FULL_LIKE,
    AL_FACTORY_NEW_ZEROS,
    AL_FACTORY_NEW_ONES,
    AL_FACTORY_NEW_FULL,
} al_factory;

/* The dtype torch.full infers from its fill value when no dtype= is
 * given; AL_FILL_DTYPE_SAME when dropping the fill keeps the dtype. */
typedef enum {
    AL_FILL_DTYPE_SAME,  /* dtype given, float fill, or not torch.full */
    AL_FILL_DTYPE_INT64, /* an integer literal */
    AL_FILL_DTYPE_BOOL,  /* True / False */
    AL_FILL_DTYPE_UNKNOWN,
} al_fill_dtype;

/* What the uses after an allocation prove about its initial value. */
typedef enum {
    AL_PROOF_NONE,        /* never fully written on the paths that use it */
    AL_PROOF_FULL_WRITE,  /* fully written before any read, on every path */
    AL_PROOF_OUTPUT_ONLY, /* only passed as an output before any read */
    AL_PROOF_BLOCKED,     /* some path needs the initial value */
} al_proof;

typedef enum {
    AL_BLOCK_NONE,
    AL_BLOCK_READ,          /* an element read before a full write */
    AL_BLOCK_ESCAPE,        /* stored, returned, captured or passed to an unknown call */
    AL_BLOCK_ACCUMULATE,    /* read-modify-write (+=, add_, index_add_) */
    AL_BLOCK_PADDED_KERNEL, /* padded/rounded shape written by a kernel */
    AL_BLOCK_GLOBAL,        /* the name is global or nonlocal */
} al_block_reason;

typedef struct {
    al_factory factory;
    char *qualified; /* "torch.zeros", or ".new_zeros" for the method */
    char *name;      /* the local it is bound to */
    size_t call_start, call_end;
    size_t callee_start, callee_end;           /* the called expression */
    size_t callee_name_start, callee_name_end; /* the identifier to rename */
    bool callee_bare;                          /* `zeros(...)` from an import */
    size_t fill_start, fill_end; /* bytes to delete to drop the fill value */
    size_t fill_arg_start, fill_arg_end; /* the fill argument itself */
    al_fill_dtype fill_dtype;    /* what torch.full infers without dtype= */
    bool padded_shape;

    al_proof proof;
    al_block_reason block;
    size_t block_row;
    char *evidence; /* what proved the write, e.g. "`copy_`" */
    size_t evidence_row;
} al_alloc_fact;

/* A comment: `# ...` up to the end of its line. */
typedef struct {
    size_t start, end;
} al_comment;

#define AL_FACT_LIST(type, name) \
    type *name;                  \
    size_t n_##name, cap_##name

typedef struct {
    al_alloc_fact *allocs;
    size_t n, cap;
    char *torch_alias; /* local name bound to the torch module, or NULL */
    size_t functions;  /* functions analysed */
    size_t skipped_deep; /* functions too deeply nested to analyse */
    AL_FACT_LIST(al_refill_fact, refills);
    AL_FACT_LIST(al_tstore_fact, tstores);
    AL_FACT_LIST(al_catzero_fact, catzeros);
    AL_FACT_LIST(al_catloop_fact, catloops);
    AL_FACT_LIST(al_loopalloc_fact, loopallocs);
    AL_FACT_LIST(al_tinvariant_fact, tinvariants);
    AL_FACT_LIST(al_inplace_fact, inplaces);
    AL_FACT_LIST(al_move_fact, moves);
    AL_FACT_LIST(al_comment, comments); /* every comment, for suppressions */
    AL_FACT_LIST(al_comment, long_strings); /* strings spanning lines: no noqa there */
} al_facts;

/* Builds the facts of a parsed file. Never fails short of memory. */
void al_facts_build(al_facts *facts, const al_pyfile *pf, const al_op_table *ops);
void al_facts_free(al_facts *facts);

const char *al_factory_name(al_factory f);
const char *al_block_reason_text(al_block_reason r);

#endif
