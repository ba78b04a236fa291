/* The C++/CUDA side of the buffer facts: `auto t = torch::zeros(...)` (or
 * at::, x.new_zeros) in a function body, and what the statements after it
 * prove, read from the tokens: a full write (`copy_`, `fill_`, an `_out`
 * op that an op summary marks full), an output handed to a kernel launch,
 * or a use that needs the fill (a read, an offset pointer, an escape, an
 * accumulating kernel). */
#ifndef ALLOCLINT_CXX_BUFFER_H
#define ALLOCLINT_CXX_BUFFER_H

#include "../core/summary.h"
#include "../core/ops.h"
#include "../../front/cxx/cxx.h"

typedef struct {
    size_t start, end;           /* the allocation call */
    size_t name_start, name_end; /* `zeros` in torch::zeros */
    char *factory;               /* zeros, ones, full, new_zeros, ... */
    char *var;
    size_t fill_start, fill_end; /* full(): the fill argument to delete */
    al_proof proof;
    char *evidence;
    size_t evidence_row;
    char *why; /* what blocked the proof, or what an unsafe proof lacks */
    al_chain chain;
} al_cxx_buffer;

typedef struct {
    al_cxx_buffer *items;
    size_t n, cap;
} al_cxx_buffers;

/* With an index (may be NULL), launches and calls that take a buffer are
 * followed into the project's kernels and functions. */
void al_cxx_buffers_analyse(const al_cxx_unit *u, const al_op_table *ops, struct al_index *ix,
                            al_cxx_buffers *out);
void al_cxx_buffers_free(al_cxx_buffers *b);

#endif
