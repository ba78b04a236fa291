/* The expressions of a Triton kernel as linear forms: a pointer or an
 * index is a sum of terms, each a coefficient times interned factors (a
 * parameter `P:n`, `PID0`, `AR(BLOCK)` for tl.arange(0, BLOCK), a local
 * loop variable, or an opaque text), so that `pid * BLOCK + tl.arange(0,
 * BLOCK)` and the mask `offs < n` can be compared term by term. Also the
 * kernel's parameters and single-assignment locals, which the forms
 * substitute. A program id split by a tile count, `pid // tl.cdiv(N, B)`
 * and `pid % tl.cdiv(N, B)`, is the factor `Q(PIDa|N|B)` or `R(PIDa|N|B)`.
 * Used by kernel.c, which decides coverage from them. */
#ifndef ALLOCLINT_TRITON_FORM_H
#define ALLOCLINT_TRITON_FORM_H

#include "../python/extent.h"
#include "../python/module.h"
#include "../../front/python/syntax.h"

#include <stdbool.h>
#include <stddef.h>

#define MAX_TERMS 24
#define MAX_FACTORS 6

typedef struct {
    long coef;
    int nf;
    const char *f[MAX_FACTORS]; /* interned, sorted */
} al_tf_term;

typedef struct {
    bool data; /* something loaded from memory is in it */
    int n;
    al_tf_term t[MAX_TERMS];
} al_tf_lin;

/* The facts about a kernel body that every form needs. */
typedef struct {
    const al_pyfile *pf;
    const al_pymodule *mod;
    TSNode def;
    al_interner strs;
    char **params;
    size_t nparams, capparams;
    TSNode *bumps;   /* per parameter: `P += e` once at the top level, or null */
    bool *bumped_twice;
    /* Locals: the value of each name assigned once (null when several). */
    const char **local_names;
    TSNode *local_values;
    int *local_counts;
    TSNode *local_loops; /* the for_statement binding it, or null */
    size_t nlocals, caplocals;
} al_tf_kernel;

int al_tf_param_index(const al_tf_kernel *k, const char *p, size_t len);
/* The qualified name of a callee through the module's imports, with
 * `tl` re-exported by the project resolved too; caller frees. */
char *al_tf_resolve_tl(const al_tf_kernel *k, TSNode fn);
/* Whether fn is triton.language.<name>. */
bool al_tf_is_tl(const al_tf_kernel *k, TSNode fn, const char *name);
/* The local named p (assigned in the body), or -1. */
int al_tf_local_of(const al_tf_kernel *k, const char *p, size_t len);
void al_tf_collect_locals(al_tf_kernel *k, TSNode n, int depth);
/* An interned factor name, fmt applied to a. */
const char *al_tf_factor(al_tf_kernel *k, const char *fmt, const char *a);
al_tf_lin al_tf_single(al_tf_kernel *k, const char *f, bool data);
/* a + sign * b */
al_tf_lin al_tf_sum(al_tf_lin a, const al_tf_lin *b, long sign);
bool al_tf_lin_eq(const al_tf_lin *a, const al_tf_lin *b);
/* Whether n reads memory (a tl.load, or a local assigned from one). */
bool al_tf_has_load(const al_tf_kernel *k, TSNode n, int depth);
al_tf_lin al_tf_form(al_tf_kernel *k, TSNode n, int depth);
/* l with its untagged aranges made rows (`@r`) or columns (`@c`), as
 * `x[:, None]` and `x[None, :]` make them. */
al_tf_lin al_tf_retag(al_tf_kernel *k, al_tf_lin l, const char *tag);
/* l times the product of n factors. */
al_tf_lin al_tf_times(al_tf_kernel *k, al_tf_lin l, const char *const *factors, int n);
/* The value of an identifier that is a local assigned once (not a loop
 * variable), through up to four names; n itself otherwise. */
TSNode al_tf_through_locals(const al_tf_kernel *k, TSNode n);
/* The parameter a pointer form is based on, and its term; -1 if none. */
int al_tf_base_param(const al_tf_kernel *k, const al_tf_lin *l, int *term_index);
al_tf_lin al_tf_without_term(al_tf_lin l, int i);
/* The term with coefficient 1 whose factors are {a} or {a, b}, or -1. */
int al_tf_find_term(const al_tf_lin *l, const char *a, const char *b);
/* The parameter a lone-parameter form names, or -1. */
int al_tf_lone_param(const al_tf_kernel *k, const al_tf_lin *l);
/* `A < N` or `N > A` (the mask itself, or a local assigned it once): the
 * forms of A and N. */
bool al_tf_bound_of(al_tf_kernel *k, TSNode mask, al_tf_lin *lhs, al_tf_lin *rhs);

#endif
