/* What the cross-language core asks of each language. The core (the
 * repo index and the summaries of callees) reads Python files, resolves
 * calls and follows them into Python helpers, Triton kernels and C++
 * functions, but includes none of those languages' headers: it asks
 * through this table, which analysis/languages.c fills from every
 * language, where all of them are visible. That keeps the includes one
 * way (core <- python, cxx <- triton <- languages.c) although the
 * reasoning is mutual: a helper's summary is a buffer analysis of the
 * helper, which asks summaries of the helper's own callees. */
#ifndef ALLOCLINT_LANGUAGES_H
#define ALLOCLINT_LANGUAGES_H

#include "impls.h"
#include "index.h"
#include "summary.h"
#include "../../base/source.h"
#include "../../front/python/imports.h"
#include "../../front/python/pyast.h"

#include <stdbool.h>
#include <stddef.h>

struct al_pymodule;
struct al_pyparts;

/* The Python side: how the index keeps a project's Python files (parsed
 * in parts, as proofs ask for functions) and what a Python function does
 * to a parameter. */
typedef struct {
    /* Takes src (loaded) over; NULL never: a file that does not parse
     * yields no function. */
    struct al_pyparts *(*parts_open)(al_source *src, bool whole_only);
    void (*parts_free)(struct al_pyparts *parts);
    const al_source *(*parts_source)(const struct al_pyparts *parts);
    /* A parsed view holding top-level function `name` (NULL: any view). */
    bool (*parts_view)(struct al_pyparts *parts, const char *name, const al_pyfile **pf,
                       const struct al_pymodule **mod);
    /* A parsed view holding every top-level statement whose bytes hold
     * `text`, among the definitions or the other statements (a `def f(`
     * nested in a module-level `if`), with what any view holds. */
    bool (*parts_view_mentioning)(struct al_pyparts *parts, const char *text, bool definitions,
                                  const al_pyfile **pf, const struct al_pymodule **mod);
    void (*parts_stats)(const struct al_pyparts *parts, size_t *views, size_t *parsed);
    /* Parses only the top-level statements of src that name a marker. */
    bool (*parse_marked)(const al_source *src, bool whole_only, const char *const *markers,
                         al_pyfile *out);
    const al_imports *(*imports)(const struct al_pymodule *mod);
    /* What function `def` does to its parameter `param`. */
    void (*param_effect)(const al_file_env *env, TSNode def, const char *param,
                         al_call_effect *out);
    /* The region a function exports for parameter `param`, in the terms
     * of the caller at `call`; NULL when it cannot be put so. */
    char *(*region_at_call)(const al_file_env *caller, TSNode call, const al_pyfile *pf,
                            TSNode def, int param, const char *region);
} al_python_language;

/* The Triton side: a kernel's summary, then a launch's effect. */
typedef struct {
    void *(*summarise)(const al_pyfile *pf, const struct al_pymodule *mod, TSNode def);
    void (*free)(void *kernel);
    void (*launch)(const al_file_env *caller, TSNode call, const void *kernel,
                   const char *who, const char *path, int pos, TSNode kw, al_call_effect *out);
} al_triton_language;

/* The C++ side: what a function with a body does to parameter `param`,
 * and what it returns. */
typedef struct {
    void (*param_effect)(al_index *ix, const al_cxx_def *def, int param, int depth,
                         al_call_effect *out);
    /* Whether every return of def is a tensor it makes (why says how, or
     * which return is not). */
    bool (*returns_new)(const al_cxx_def *def, char *why, size_t len);
} al_cxx_language;

typedef struct {
    al_python_language python;
    al_triton_language triton;
    al_cxx_language cxx;
} al_languages;

/* Defined in analysis/languages.c; constant, so threads share it freely. */
extern const al_languages al_language_table;

#endif
