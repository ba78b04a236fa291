/* The table through which the analysis core reaches each language
 * (core/languages.h): the one place that sees them all. */
#include "core/languages.h"

#include "cxx/returns.h"
#include "cxx/summary.h"
#include "python/buffer.h"
#include "python/module.h"
#include "python/pairs.h"
#include "python/parts.h"
#include "triton/kernel.h"
#include "../base/util.h"

#include <stdlib.h>

static al_pyparts *parts_open(al_source *src, bool whole_only)
{
    al_pyparts *f = al_xcalloc(1, sizeof *f);
    f->src = *src;
    al_pyparts_init(f, whole_only);
    return f;
}

static void parts_free(al_pyparts *f)
{
    if (f) {
        al_pyparts_free(f);
        free(f);
    }
}

static const al_source *parts_source(const al_pyparts *f)
{
    return &f->src;
}

static bool view_parts(const al_pyview *v, const al_pyfile **pf, const al_pymodule **mod)
{
    if (!v)
        return false;
    *pf = &v->pf;
    *mod = &v->mod;
    return true;
}

static bool parts_view(al_pyparts *f, const char *name, const al_pyfile **pf,
                       const al_pymodule **mod)
{
    return view_parts(name ? al_pyparts_function(f, name) : al_pyparts_any(f), pf, mod);
}

static bool parts_view_mentioning(al_pyparts *f, const char *text, bool definitions,
                                  const al_pyfile **pf, const al_pymodule **mod)
{
    return view_parts(al_pyparts_mentioning(f, text, definitions), pf, mod);
}

static void parts_stats(const al_pyparts *f, size_t *views, size_t *parsed)
{
    *views = f->n_views;
    *parsed = f->parsed;
}

static const al_imports *module_imports(const al_pymodule *mod)
{
    return &mod->imports;
}

static void *kernel_summarise(const al_pyfile *pf, const al_pymodule *mod, TSNode def)
{
    al_kernel *k = al_xcalloc(1, sizeof *k);
    al_triton_summarise(pf, mod, def, k);
    return k;
}

static void kernel_free(void *k)
{
    al_kernel_free(k);
    free(k);
}

static void kernel_launch(const al_file_env *caller, TSNode call, const void *k, const char *who,
                          const char *path, int pos, TSNode kw, al_call_effect *out)
{
    al_triton_launch(caller, call, k, who, path, pos, kw, out);
}

const al_languages al_language_table = {
    .python = {parts_open, parts_free, parts_source, parts_view, parts_view_mentioning, parts_stats,
               al_pyparts_parse_marked, module_imports, al_buffer_param_effect,
               al_pairs_region_at_call},
    .triton = {kernel_summarise, kernel_free, kernel_launch},
    .cxx = {al_cxx_param_effect, al_cxx_returns_new},
};
