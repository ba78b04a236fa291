/* A Python file as the rules see it, built by one traversal of its tree:
 * what its imports bind, its functions, its Triton kernels (and which
 * accumulate with atomics), the calls the enabled rules asked for by name,
 * its comments and multi-line strings; and a place for what is proved
 * about each buffer it allocates (python/proofs.c makes it). */
#ifndef ALLOCLINT_MODULE_H
#define ALLOCLINT_MODULE_H

#include "../core/ops.h"
#include "../../front/prefilter.h"
#include "../../front/python/imports.h"
#include "../../front/python/syntax.h"
#include "../../base/source.h"

#include <stdbool.h>
#include <stddef.h>

/* Functions nested deeper than this are not analysed: every walk of the
 * analysis stays far inside its own depth guard, so no use can be missed. */
#define AL_MAX_FUNCTION_DEPTH 200

typedef struct al_pymodule {
    const al_pyfile *pf;
    const al_op_table *ops;
    const char *path;         /* the file, for the index (may be NULL) */
    struct al_index *index;   /* the repo index, or NULL: calls are not followed */
    al_imports imports;
    const char *torch; /* the local name of the torch module, or NULL */
    /* Every function_definition the analysis can take, in document order
     * (nested ones and methods included). */
    TSNode *functions;
    size_t n_functions, cap_functions;
    size_t skipped_deep; /* functions too deeply nested to analyse */
    /* @triton-decorated functions the analysis can take. */
    TSNode *kernels;
    size_t n_kernels, cap_kernels;
    al_strlist kernel_names;        /* every Triton kernel of the file */
    al_strlist atomic_kernel_names; /* those that use atomics */
    /* Calls whose callee's last name is one the rules asked for. */
    TSNode *calls;
    size_t n_calls, cap_calls;
    al_span *comments;
    size_t n_comments, cap_comments;
    al_span *long_strings; /* strings spanning lines: no noqa can go there */
    size_t n_long_strings, cap_long_strings;
    /* What is proved about its buffers (python/proofs.c), made on first
     * use; the module keeps it and frees it through free_buffers, and
     * knows nothing of how it is made. */
    struct al_buffers *buffers;
    void (*free_buffers)(struct al_buffers *);
    /* Whether a walk may skip a function by the token classes of its
     * text: not when a factory may be imported under another name (the
     * tokens would not show its calls), nor for the reference run. */
    bool token_filter;
    /* The prefilter's scan of the file (NULL: none): a function's token
     * classes are its statement's or class member's, a superset of its
     * own text's, instead of a scan of that text. */
    const al_py_scan *scan;
    unsigned *function_tokens; /* per function, once a walk asked */
} al_pymodule;

/* call_names: NULL-terminated callee names (`cat`, `fill_`) whose calls
 * the enabled rules read. */
void al_pymodule_build(al_pymodule *m, const al_pyfile *pf, const al_op_table *ops,
                       const char *const *call_names);
/* Follows calls through the repo index from now on (path names the file). */
void al_pymodule_use_index(al_pymodule *m, const char *path, struct al_index *index);
/* A module of another file (one the index parsed, at path), read in the
 * run of `from`: a copy that follows calls through from's index and reads
 * its op tables when it has none of its own. */
al_pymodule al_pymodule_scoped(const al_pymodule *other, const char *path, const al_pymodule *from);
/* The prefilter's token classes of function i (of m->functions): its
 * statement's or class member's when the file's scan is at hand, else its
 * own text's; read once per module. */
unsigned al_pymodule_function_tokens(al_pymodule *m, size_t i);
/* Walks the body of every analysable function (al_py_walk_function). */
void al_pymodule_walk(const al_pymodule *m, const al_py_walker *w);
/* The same, for the functions whose text meets needs (a rule's region
 * needs: what the code of a finding holds) when m->token_filter allows;
 * NULL needs: every function. */
void al_pymodule_walk_where(al_pymodule *m, const unsigned *needs, const al_py_walker *w);
/* The qualified name an expression stands for through the imports
 * (`th.zeros` -> "torch.zeros"), or NULL; caller frees. */
char *al_pymodule_resolve(const al_pymodule *m, TSNode expr);
bool al_pymodule_resolves_to(const al_pymodule *m, TSNode expr, const char *qualified);
/* Whether call calls torch.cat or its aliases torch.concat and
 * torch.concatenate (through the imports). */
bool al_pymodule_calls_torch_cat(const al_pymodule *m, TSNode call);
/* The local name bound to a module (`torch`, `th`), or NULL. */
const char *al_pymodule_alias_for(const al_pymodule *m, const char *module);
void al_pymodule_free(al_pymodule *m);

#endif
