/* A Python file of the project as the repo index reads it: in parts.
 *
 * A proof that follows a call into another file needs one function of it,
 * what that function calls there, the file's imports (a name may be
 * re-exported) and its Triton kernels (a launch is recognised by the
 * file's kernel names) — not the whole file. A view is one parse of the
 * file's imports, its kernel definitions, and the functions asked for so
 * far with those they call by name (nothing else at module level is read
 * by the analysis). The newest view holds everything an older one does;
 * older views stay valid, since
 * what was taken from them (definitions, memoised summaries keyed by byte
 * offsets) may still be in use. After AL_PYPARTS_MAX_VIEWS partial views,
 * or when one more part would take the bytes parsed past the file's
 * length, the next view is the whole file, so no file costs more than
 * two whole parses. */
#ifndef ALLOCLINT_PYPARTS_H
#define ALLOCLINT_PYPARTS_H

#include "module.h"
#include "../../front/prefilter.h"
#include "../../front/python/pyast.h"
#include "../../base/source.h"

#include <stdbool.h>
#include <stddef.h>

#define AL_PYPARTS_MAX_VIEWS 3

typedef struct {
    al_pyfile pf;
    al_pymodule mod;
} al_pyview;

typedef struct al_pyparts {
    al_source src;    /* the file's bytes, loaded by the caller before init */
    al_py_scan scan;  /* its top-level statements */
    bool *kept;       /* per statement: parsed in the newest view */
    bool whole;       /* the newest view is the whole file */
    bool whole_only;  /* every view is the whole file (the reference) */
    size_t parsed;    /* bytes parsed over all views */
    al_pyview **views;
    size_t n_views, cap_views;
} al_pyparts;

/* Scans f->src (already loaded). whole_only: parse only whole files. */
void al_pyparts_init(al_pyparts *f, bool whole_only);
/* The newest view that holds every top-level function `name` of the file,
 * parsing a new one when none does; NULL when the file defines no
 * top-level function of that name, or no view could be parsed. */
const al_pyview *al_pyparts_function(al_pyparts *f, const char *name);
/* The newest view, parsing the first when there is none: the file's
 * imports and kernels at least. NULL when nothing could be parsed. */
const al_pyview *al_pyparts_any(al_pyparts *f);
/* Parses, for the caller to free, only the top-level statements of src
 * whose bytes hold one of markers (NULL-terminated), or the whole file
 * when whole_only: for a look at a few statements that no view needs to
 * keep (registrations). False, with nothing to free, when src names no
 * marker or nothing could be parsed. */
bool al_pyparts_parse_marked(const al_source *src, bool whole_only, const char *const *markers,
                             al_pyfile *out);
/* The newest view that holds every top-level statement whose bytes hold
 * text, among the definitions (def, class) or among the other statements
 * (parsing one more when needed). */
const al_pyview *al_pyparts_mentioning(al_pyparts *f, const char *text, bool definitions);
void al_pyparts_free(al_pyparts *f);

#endif
