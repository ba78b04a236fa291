/* C++/CUDA extension sources through libclang. libclang finds the
 * functions and their body extents; the statements inside a body are read
 * from its tokens. Without the project's headers (torch, the CUDA runtime)
 * clang drops statements after the first unresolved name from the AST,
 * but body extents and tokens survive, so the analysis needs no headers
 * and parses a file in milliseconds (with torch headers: about 15 s). */
#ifndef ALLOCLINT_CXX_H
#define ALLOCLINT_CXX_H

#include "../facts.h"
#include "../ops.h"
#include "../source.h"

#include <stdbool.h>
#include <stddef.h>

typedef struct {
    size_t start, end;           /* the allocation call */
    size_t name_start, name_end; /* `zeros` in torch::zeros */
    char *factory;               /* zeros, ones, full, new_zeros, ... */
    char *var;
    size_t fill_start, fill_end; /* full(): the fill argument to delete */
    al_proof proof;
    char *evidence;
    size_t evidence_row;
    char *why; /* what blocked the proof, for tests and --explain */
} al_cxx_alloc;

typedef struct {
    al_cxx_alloc *allocs;
    size_t n, cap;
    al_comment *comments; /* for NOLINT / noqa */
    size_t n_comments, cap_comments;
    size_t functions;
    bool parsed;
    char error[256];
} al_cxx_facts;

/* Whether this build has libclang. */
bool al_cxx_available(void);
bool al_is_cxx_path(const char *path);
/* Analyses one C++/CUDA source (its bytes in src; args are extra clang
 * arguments, e.g. from compile_commands.json). */
void al_cxx_analyse(const al_source *src, const char *const *args, int nargs,
                    const al_op_table *ops, al_cxx_facts *out);
void al_cxx_facts_free(al_cxx_facts *f);

#endif
