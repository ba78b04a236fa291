/* Allocation sites: statements `name = FACTORY(...)` that make a tensor
 * filled with zeros, ones or a constant (DESIGN.md, "what is made"): the
 * factory resolved through imports, the fill value and the dtype torch
 * infers from it, the shape, and whether the shape looks padded. */
#ifndef ALLOCLINT_ALLOC_H
#define ALLOCLINT_ALLOC_H

#include "../../front/python/imports.h"
#include "../../front/python/syntax.h"

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

typedef struct {
    al_factory factory;
    char *qualified; /* "torch.zeros", or ".new_zeros" for the method */
    char *name;      /* the local it is bound to; for a factory passed straight
                      * to a call (no target), what it becomes there */
    TSNode stmt, call;
    TSNode target;      /* the bound name */
    TSNode callee;      /* the called expression */
    TSNode callee_name; /* the identifier naming the factory */
    TSNode callee_overload; /* `default` of `torch.ops.aten.zeros.default`, or null */
    bool callee_bare;   /* `zeros(...)` from an import */
    bool method;        /* x.new_zeros(...) */
    al_py_args args;
    TSNode fill_arg; /* the fill argument as written (keyword or positional), or null */
    al_fill_dtype fill_dtype;
    TSNode size_expr;   /* the size argument, or null */
    bool size_multiple; /* zeros(a, b, c): the sizes are the positional arguments */
    /* `x = torch.zeros(n) if c else None` (or `None if c else ...`): the
     * condition, and whether the tensor is made when it holds; null for a
     * plain allocation. */
    TSNode guard;
    bool guard_true;
} al_alloc_site;

/* Whether stmt is an allocation site; fills out (free it) when it is. */
bool al_alloc_site_match(const al_pyfile *pf, const al_imports *im, TSNode stmt,
                         al_alloc_site *out);
/* Whether call is a fill factory call; fills out (free it) but for stmt,
 * target and name, which stay null. */
bool al_alloc_call_match(const al_pyfile *pf, const al_imports *im, TSNode call,
                         al_alloc_site *out);
void al_alloc_site_free(al_alloc_site *site);
bool al_factory_is_zeros(al_factory f);
/* A cheap test before the dataflow: body's bytes name a fill factory,
 * directly or under a from-import alias (`from torch import zeros as tz`). */
bool al_alloc_body_names_factory(const al_pyfile *pf, const al_imports *im, TSNode body);

/* The factory a call makes when it resolves to torch.<name> and <name>
 * makes a tensor ("zeros", "empty_like", "randn", "arange" ...), else NULL.
 * The name is static; *random (may be NULL) says whether it draws random
 * numbers. */
const char *al_torch_factory(const al_pyfile *pf, const al_imports *im, TSNode call,
                             bool *random);
/* zeros, ones, full, empty and their _like forms: memory holding a
 * constant or nothing, no content of its own. */
bool al_factory_is_constant(const char *name);
/* `x = FACTORY(...)` as a whole statement, FACTORY a torch factory that
 * draws no random numbers or an `x.new_*()` method: the call (and the
 * target and factory name), else a null node. */
TSNode al_factory_statement(const al_pyfile *pf, const al_imports *im, TSNode stmt,
                            TSNode *target, const char **factory);
const char *al_factory_name(al_factory f);

#endif
