#include "extension.h"

#include "../core/languages.h"
#include "../../base/paths.h"
#include "../../base/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool al_extension_call_own(const al_pymodule *m, const char *q, al_own *out)
{
    const char *dot = strrchr(q, '.');
    if (!m->index || !m->path || !dot || !strncmp(q, "torch.", 6))
        return false;
    char *module = al_xstrndup(q, (size_t)(dot - q));
    al_cxx_def d;
    const char *bound_in = NULL;
    bool found = al_index_pybind_function(m->index, m->path, module, dot + 1, &d, &bound_in);
    free(module);
    char why[400];
    if (!found)
        return false;
    bool fresh = al_language_table.cxx.returns_new(&d, why, sizeof why);
    const char *fn = d.unit->functions[d.function].name;
    char *self = al_path_real(m->path);
    const char *from = self ? self : m->path;
    size_t row = al_cxx_row(d.unit, d.unit->tokens[d.unit->functions[d.function].first].start);
    al_strbuf sb = {0};
    al_strbuf_printf(&sb,
                     "`%s` is the C++ function `%s` of the project's compiled extension (%s:%zu, "
                     "bound in %s): %s",
                     q, fn, al_path_shown(d.path, from, m->path), row, al_path_shown(bound_in, from, m->path),
                     why);
    free(self);
    *out = (al_own){fresh ? AL_OWN_FRESH : AL_OWN_NO, al_strbuf_detach(&sb), NULL, 0, false};
    return true;
}
