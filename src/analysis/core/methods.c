/* Methods by name across a project (al_index_methods): one byte scan of
 * every Python file for indented `def name(`, then, per name asked, the
 * files that also name the call's keywords, parsed in the parts that
 * define it. And a file's statements that name a word
 * (al_index_own_view), for the callers of a function in its file. */
#include "index.h"
#include "index_internal.h"
#include "languages.h"
#include "../../front/python/scopes.h"
#include "../../front/python/syntax.h"
#include "../../base/paths.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define MAX_METHOD_FILES AL_INDEX_MAX_METHOD_FILES

/* The methods found for one name and words, kept for the run. */
typedef struct {
    size_t n;
    al_def defs[];
} found_methods;

typedef struct {
    size_t *files; /* indexes into py_files */
    size_t n, cap;
} file_list;

static void file_list_free(void *v)
{
    file_list *l = v;
    free(l->files);
    free(l);
}

/* Adds file i to the files listed under name. */
static void list_file(al_memo *by_name, const char *name, size_t i)
{
    file_list *l = al_memo_get(by_name, name);
    if (!l) {
        l = al_xcalloc(1, sizeof *l);
        al_memo_put(by_name, name, l, file_list_free);
    }
    AL_PUSH(l->files, l->n, l->cap, i);
}

/* Which of the project's Python files define `def name(`, for every
 * name (the files' facts: a byte scan each, shared by the threads). */
static void read_method_files(al_index *ix, project *p)
{
    if (p->methods_read)
        return;
    p->methods_read = true;
    al_index_walk_project(p);
    for (size_t i = 0; i < p->py_files.n; i++) {
        const al_file_facts *ff = al_file_facts_of(ix->facts, p->py_files.items[i]);
        al_index_record_read(ix, p->py_files.items[i], ff->status, ff->hash);
        for (size_t k = 0; k < ff->methods.n; k++)
            list_file(&p->method_files, ff->methods.items[k], i);
        for (size_t k = 0; k < ff->attrs.n; k++)
            if (!al_memo_get(&p->assigned_attrs, ff->attrs.items[k]))
                al_memo_put(&p->assigned_attrs, ff->attrs.items[k], p, NULL);
        for (size_t k = 0; k < ff->self_attrs.n; k++)
            list_file(&p->self_attr_files, ff->self_attrs.items[k], i);
    }
}

/* Whether a class of file `path` that assigns `self.name` derives from
 * cls (a base outside the project is no subclass of it); true also when
 * the file cannot be read. */
static bool self_assigned_in(al_index *ix, const char *path, const al_def *cls, const char *name)
{
    pyfile *f = al_index_load_py(ix, path);
    const al_pyfile *pf;
    const struct al_pymodule *mod;
    char needle[200];
    snprintf(needle, sizeof needle, ".%s", name);
    if (!f || !al_language_table.python.parts_view_mentioning(f->parts, needle, true, &pf, &mod))
        return true;
    for (uint32_t i = 0; i < ts_node_named_child_count(pf->root); i++) {
        TSNode s = ts_node_named_child(pf->root, i);
        if (al_node_is(s, "decorated_definition"))
            s = al_node_field(s, "definition");
        size_t len;
        const char *b = al_node_is(s, "class_definition") ? al_node_ptr(pf, s, &len) : NULL;
        if (!b || !memmem(b, len, needle, strlen(needle)))
            continue;
        al_def c = {f->path, pf, mod, s, false, false};
        if (al_index_derives(ix, &c, cls, false))
            return true;
    }
    return false;
}

bool al_index_attr_assigned(al_index *ix, const al_def *cls, const char *name, bool on_others)
{
    if (!cls->path)
        return true;
    al_index_lock(ix);
    /* Asked at every call through the class: kept for the run, under the
     * bytes' hash too (a fix pass re-parses a changed file). */
    char key[512];
    snprintf(key, sizeof key, "attr\n%s\n%016llx\n%u\n%s\n%d", cls->path,
             (unsigned long long)cls->pf->src->hash, ts_node_start_byte(cls->def), name,
             (int)on_others);
    const char *had = al_memo_get(&ix->memo, key);
    if (had) {
        al_index_unlock(ix);
        return *had == '1';
    }
    project *p = al_index_project_of(ix, cls->path);
    if (p)
        read_method_files(ix, p);
    /* Outside any project, nothing was scanned: assume it may be. */
    bool assigned = !p || (on_others && al_memo_get(&p->assigned_attrs, name) != NULL);
    file_list *l = p && !assigned ? al_memo_get(&p->self_attr_files, name) : NULL;
    for (size_t i = 0; l && i < l->n && !assigned; i++) {
        const char *path = p->py_files.items[l->files[i]];
        assigned = al_index_same_file(path, cls->path) || self_assigned_in(ix, path, cls, name);
    }
    al_memo_put(&ix->memo, key, al_xstrdup(assigned ? "1" : "0"), free);
    al_index_unlock(ix);
    return assigned;
}

/* The class around definition d, as a definition of its file. */
bool al_index_class_of(const al_def *d, al_def *out)
{
    TSNode c = ts_node_parent(d->def);
    while (!ts_node_is_null(c) && !al_node_is(c, "class_definition"))
        c = ts_node_parent(c);
    if (ts_node_is_null(c))
        return false;
    *out = (al_def){d->path, d->pf, d->mod, c, false, false};
    return true;
}

bool al_index_same_file(const char *a, const char *b)
{
    if (!strcmp(a, b))
        return true;
    /* The run's spelling of a file and the index's: one file when they
     * are one inode (a stat each, where resolving both paths walks every
     * component of each). */
    struct stat sa, sb;
    return stat(a, &sa) == 0 && stat(b, &sb) == 0 && sa.st_dev == sb.st_dev &&
           sa.st_ino == sb.st_ino;
}

bool al_index_same_class(const al_def *a, const al_def *b)
{
    if (!al_index_same_file(a->path, b->path))
        return false;
    char *x = al_node_text(a->pf, al_node_field(a->def, "name"));
    char *y = al_node_text(b->pf, al_node_field(b->def, "name"));
    bool same = !strcmp(x, y);
    free(x);
    free(y);
    return same;
}

/* Whether class cls is base or derives from it in the project. A base
 * line alloclint cannot follow gives `unknown` (a meet that must not miss
 * a class keeps it; one looking for subclasses of a project class knows
 * that a class from outside the project is none). */
static bool class_derives(al_index *ix, const al_def *cls, const al_def *base, int depth, bool unknown)
{
    if (al_index_same_class(cls, base))
        return true;
    if (depth >= 6)
        return unknown;
    al_def bases[8];
    bool all;
    size_t n = al_index_class_bases(ix, cls, bases, 8, &all);
    if (!all && unknown)
        return true;
    for (size_t i = 0; i < n; i++)
        if (class_derives(ix, &bases[i], base, depth + 1, unknown))
            return true;
    return false;
}

bool al_index_derives(al_index *ix, const al_def *cls, const al_def *base, bool unknown)
{
    return class_derives(ix, cls, base, 0, unknown);
}

size_t al_index_overrides(al_index *ix, const al_def *cls, const char *method, const al_def *named,
                          al_def *out, size_t max, bool *complete)
{
    size_t files = al_index_method_files(ix, cls->path, method);
    *complete = files <= AL_INDEX_MAX_METHOD_FILES;
    if (!*complete)
        return 0;
    al_def defs[64];
    size_t n = 0, k = 0;
    TSNode found[64];
    size_t own = files == 1 && !cls->pf->partial ? al_py_class_methods(cls->pf, method, found, 64) : 0;
    if (own) {
        /* Defined in one file only, the class's own (parsed whole): its
         * classes are all there is to read. */
        for (size_t i = 0; i < own; i++)
            al_index_fill_def(&defs[n++], cls->path, cls->pf, cls->mod, found[i]);
    } else {
        n = al_index_methods(ix, cls->path, method, NULL, defs, 64);
    }
    for (size_t i = 0; i < n && k < max; i++) {
        al_def c;
        if (!al_index_class_of(&defs[i], &c) || al_index_same_class(&c, cls) ||
            (al_index_same_file(defs[i].path, named->path) &&
             al_node_row(defs[i].def) == al_node_row(named->def)) ||
            !class_derives(ix, &c, cls, 0, false) || al_py_is_abstract_def(defs[i].pf, defs[i].def))
            continue;
        out[k++] = defs[i];
    }
    *complete = n < 64;
    return k;
}

size_t al_index_method_files(al_index *ix, const char *from_path, const char *name)
{
    al_index_lock(ix);
    project *p = al_index_project_of(ix, from_path);
    if (p)
        read_method_files(ix, p);
    file_list *l = p ? al_memo_get(&p->method_files, name) : NULL;
    size_t n = l ? l->n : 0;
    al_index_unlock(ix);
    return n;
}

size_t al_index_methods(al_index *ix, const char *from_path, const char *name,
                        const char *const *words, al_def *out, size_t max)
{
    al_index_lock(ix);
    project *p = al_index_project_of(ix, from_path);
    al_strbuf key = {0};
    al_strbuf_printf(&key, "methods\n%s\n%s", p ? p->root : "", name);
    for (size_t w = 0; words && words[w]; w++)
        al_strbuf_printf(&key, "\n%s", words[w]);
    found_methods *fm = al_memo_get(&ix->memo, key.data);
    if (!fm) {
        fm = al_xcalloc(1, sizeof *fm + max * sizeof(al_def));
        char needle[200];
        snprintf(needle, sizeof needle, "def %s(", name);
        if (p)
            read_method_files(ix, p);
        file_list *l = p ? al_memo_get(&p->method_files, name) : NULL;
        /* The files that also name every word; a name that many files
         * define is no one interface's: its meet would not be a write
         * anyway, and parsing them all costs. */
        size_t *hits = al_xcalloc(l && l->n ? l->n : 1, sizeof *hits);
        size_t nhits = 0;
        bool any_word = words && words[0];
        for (size_t i = 0; l && i < l->n && nhits <= MAX_METHOD_FILES; i++) {
            if (!any_word) {
                hits[nhits++] = l->files[i];
                continue;
            }
            al_source src;
            bool all = al_index_load_bytes(ix, &src, p->py_files.items[l->files[i]]) == AL_SOURCE_OK;
            for (size_t w = 0; all && words[w]; w++)
                all = memmem(src.bytes, src.len, words[w], strlen(words[w])) != NULL;
            al_source_free(&src);
            if (all)
                hits[nhits++] = l->files[i];
        }
        for (size_t i = 0; nhits <= MAX_METHOD_FILES && i < nhits && fm->n < max; i++) {
            pyfile *f = al_index_load_py(ix, p->py_files.items[hits[i]]);
            const al_pyfile *pf;
            const struct al_pymodule *mod;
            if (!f || !al_language_table.python.parts_view_mentioning(f->parts, needle, true, &pf, &mod))
                continue;
            TSNode defs[16];
            size_t k = al_py_class_methods(pf, name, defs, 16);
            for (size_t j = 0; j < k && fm->n < max; j++)
                al_index_fill_def(&fm->defs[fm->n++], f->path, pf, mod, defs[j]);
        }
        free(hits);
        al_memo_put(&ix->memo, key.data, fm, free);
    }
    size_t n = fm->n < max ? fm->n : max;
    memcpy(out, fm->defs, n * sizeof *out);
    al_strbuf_free(&key);
    al_index_unlock(ix);
    return n;
}


bool al_index_own_view(al_index *ix, const char *path, const char *word, al_pysite *out)
{
    al_index_lock(ix);
    pyfile *f = al_index_load_py(ix, path);
    const al_pyfile *pf;
    const struct al_pymodule *mod;
    /* Views grow: the second holds the definitions the first kept and the
     * other statements that name it. */
    bool ok = f && al_language_table.python.parts_view_mentioning(f->parts, word, true, &pf, &mod) &&
              al_language_table.python.parts_view_mentioning(f->parts, word, false, &pf, &mod);
    if (ok)
        *out = (al_pysite){f->path, pf, mod};
    al_index_unlock(ix);
    return ok;
}
