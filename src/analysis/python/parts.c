#include "parts.h"

#include "../../base/util.h"

#include <stdlib.h>
#include <string.h>

void al_pyparts_init(al_pyparts *f, bool whole_only)
{
    f->whole_only = whole_only;
    al_prefilter_scan_python(f->src.bytes, f->src.len, &f->scan);
    f->kept = al_xcalloc(f->scan.n ? f->scan.n : 1, sizeof *f->kept);
}

void al_pyparts_free(al_pyparts *f)
{
    for (size_t i = 0; i < f->n_views; i++) {
        al_pymodule_free(&f->views[i]->mod);
        al_pyfile_free(&f->views[i]->pf);
        free(f->views[i]);
    }
    free(f->views);
    free(f->kept);
    al_py_scan_free(&f->scan);
    al_source_free(&f->src);
    memset(f, 0, sizeof *f);
}

static const al_pyview *newest(const al_pyparts *f)
{
    return f->n_views ? f->views[f->n_views - 1] : NULL;
}

/* Parses the statements of scan that keep marks, or src whole when
 * asked or when they are the whole file; *parsed: the bytes parsed.
 * before: the bytes the file's earlier views parsed. A part that would
 * take the file past one whole parse is the whole file instead: every
 * later view is then free, so no file costs more than two whole parses. */
static bool parse_kept(al_pyfile *out, const al_source *src, const al_py_scan *scan,
                       const bool *keep, bool whole, size_t before, size_t *parsed)
{
    if (!whole) {
        size_t (*spans)[2] = al_xcalloc(scan->n ? scan->n : 1, sizeof *spans);
        size_t kept;
        size_t n = al_py_scan_spans(scan, keep, NULL, spans, &kept);
        whole = kept == src->len || before + kept >= src->len;
        bool ok = !whole && al_pyfile_parse_spans(out, src, (const size_t(*)[2])spans, n);
        free(spans);
        if (ok) {
            *parsed = kept;
            return true;
        }
        al_pyfile_free(out);
    }
    if (al_pyfile_parse(out, src)) {
        *parsed = src->len;
        return true;
    }
    al_pyfile_free(out);
    return false;
}

static bool parse_view(al_pyview *v, al_pyparts *f, bool whole)
{
    size_t parsed;
    bool ok = parse_kept(&v->pf, &f->src, &f->scan, f->kept, whole, f->parsed, &parsed);
    if (ok && v->pf.partial && v->pf.has_error) {
        /* A part that does not parse cleanly is read as the whole file
         * reads it: errors are where the two could differ. */
        al_pyfile_free(&v->pf);
        ok = parse_kept(&v->pf, &f->src, &f->scan, f->kept, true, 0, &parsed);
    }
    if (!ok)
        return false;
    f->parsed += parsed;
    f->whole |= !v->pf.partial;
    return true;
}

/* Parses the next view: the statements marked in f->kept (with the
 * imports, kernels and called functions), or the whole file when partial
 * views are used up or not wanted. */
static const al_pyview *add_view(al_pyparts *f)
{
    for (size_t i = 0; i < f->scan.n; i++) {
        const al_statement_span *g = &f->scan.items[i];
        f->kept[i] |= (!g->definition && (g->tokens & AL_TOK_IMPORT)) ||
                      (g->tokens & AL_TOK_KERNEL);
    }
    al_py_scan_keep_called(&f->scan, f->src.bytes, f->kept, NULL);
    bool whole = f->whole_only || f->n_views >= AL_PYPARTS_MAX_VIEWS;
    al_pyview *v = al_xcalloc(1, sizeof *v);
    if (!parse_view(v, f, whole)) {
        free(v);
        return NULL;
    }
    al_pymodule_build(&v->mod, &v->pf, NULL, NULL);
    AL_PUSH(f->views, f->n_views, f->cap_views, v);
    return v;
}

const al_pyview *al_pyparts_any(al_pyparts *f)
{
    return f->n_views ? newest(f) : add_view(f);
}

const al_pyview *al_pyparts_function(al_pyparts *f, const char *name)
{
    size_t len = strlen(name);
    bool defined = false, missing = false;
    for (size_t i = 0; i < f->scan.n; i++)
        if (f->scan.items[i].definition &&
            al_py_scan_defines(&f->scan, f->src.bytes, i, name, len)) {
            defined = true;
            missing |= !f->kept[i];
            f->kept[i] = true;
        }
    if (!defined)
        return NULL;
    if (f->n_views && (f->whole || !missing))
        return newest(f);
    return add_view(f);
}

const al_pyview *al_pyparts_mentioning(al_pyparts *f, const char *text, bool definitions)
{
    size_t len = strlen(text);
    bool missing = false;
    for (size_t i = 0; i < f->scan.n; i++) {
        const char *s = f->src.bytes + f->scan.items[i].start;
        if (!f->kept[i] && f->scan.items[i].definition == definitions &&
            memmem(s, f->scan.items[i].end - f->scan.items[i].start, text, len)) {
            f->kept[i] = true;
            missing = true;
        }
    }
    if (f->n_views && (f->whole || !missing))
        return newest(f);
    return add_view(f);
}

static bool mentions(const char *bytes, size_t len, const char *const *markers)
{
    for (size_t k = 0; markers[k]; k++)
        if (memmem(bytes, len, markers[k], strlen(markers[k])))
            return true;
    return false;
}

bool al_pyparts_parse_marked(const al_source *src, bool whole_only, const char *const *markers,
                             al_pyfile *out)
{
    memset(out, 0, sizeof *out);
    if (!mentions(src->bytes, src->len, markers))
        return false; /* most files: no scan */
    al_py_scan scan;
    al_prefilter_scan_python(src->bytes, src->len, &scan);
    bool *keep = al_xcalloc(scan.n ? scan.n : 1, sizeof *keep);
    for (size_t i = 0; i < scan.n; i++)
        keep[i] = mentions(src->bytes + scan.items[i].start,
                           scan.items[i].end - scan.items[i].start, markers);
    size_t parsed;
    bool ok = parse_kept(out, src, &scan, keep, whole_only, 0, &parsed);
    free(keep);
    al_py_scan_free(&scan);
    return ok;
}
