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

typedef struct {
    size_t *files; /* indexes into py_files */
    size_t n, cap;
} file_list;

/* The files found to define a method for one name and words, kept for
 * the run; the definitions themselves are found in their views at each
 * call, as a file's trees may have been released since (al_index_release). */
typedef struct {
    file_list hits;
    size_t max; /* the most definitions the first call asked for */
} found_methods;

static void found_methods_free(void *v)
{
    found_methods *fm = v;
    free(fm->hits.files);
    free(fm);
}

static int by_name_then_file(const void *a, const void *b)
{
    const al_name_file *x = a, *y = b;
    int c = strcmp(x->name, y->name);
    return c ? c : x->file < y->file ? -1 : x->file > y->file;
}

static void add_names(al_name_files *to, const al_file_facts *ff, al_facts_list which,
                      size_t file)
{
    size_t n;
    const char *name = al_file_facts_names(ff, which, &n);
    for (size_t k = 0; k < n; k++, name += strlen(name) + 1) {
        al_name_file e = {name, file};
        AL_PUSH(to->items, to->n, to->cap, e);
    }
}

/* The pairs of l under name: a run of *n, or NULL. */
static const al_name_file *files_naming(const al_name_files *l, const char *name, size_t *n)
{
    size_t lo = 0, hi = l->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (strcmp(l->items[mid].name, name) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    size_t end = lo;
    while (end < l->n && !strcmp(l->items[end].name, name))
        end++;
    *n = end - lo;
    return *n ? &l->items[lo] : NULL;
}

/* Which of the project's Python files define `def name(`, for every
 * name (the files' facts: a byte scan each, shared by the threads). */
static void read_method_files(al_index *ix, project *p)
{
    if (p->methods_read)
        return;
    p->methods_read = true;
    al_index_walk_project(ix, p);
    p->scanned = true;
    for (size_t i = 0; i < p->py_files.n; i++) {
        const al_file_facts *ff = al_file_facts_of(ix->facts, p->py_files.items[i]);
        add_names(&p->method_files, ff, AL_FACTS_METHODS, i);
        add_names(&p->assigned_attrs, ff, AL_FACTS_ATTRS, i);
        add_names(&p->self_attr_files, ff, AL_FACTS_SELF_ATTRS, i);
    }
    al_name_files *all[] = {&p->method_files, &p->assigned_attrs, &p->self_attr_files};
    for (size_t k = 0; k < 3; k++) {
        if (all[k]->n > 1)
            qsort(all[k]->items, all[k]->n, sizeof *all[k]->items, by_name_then_file);
        if (all[k]->n && all[k]->n < all[k]->cap) {
            all[k]->items = al_xrealloc(all[k]->items, all[k]->n * sizeof *all[k]->items);
            all[k]->cap = all[k]->n;
        }
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
    size_t n_on_others = 0, n = 0;
    if (p && on_others)
        files_naming(&p->assigned_attrs, name, &n_on_others);
    bool assigned = !p || n_on_others;
    const al_name_file *l = p && !assigned ? files_naming(&p->self_attr_files, name, &n) : NULL;
    for (size_t i = 0; i < n && !assigned; i++) {
        const char *path = p->py_files.items[l[i].file];
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
    size_t n = 0;
    if (p)
        files_naming(&p->method_files, name, &n);
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
        fm = al_xcalloc(1, sizeof *fm);
        fm->max = max;
        if (p)
            read_method_files(ix, p);
        size_t n_files = 0;
        const al_name_file *l = p ? files_naming(&p->method_files, name, &n_files) : NULL;
        /* The files that also name every word; a name that many files
         * define is no one interface's: its meet would not be a write
         * anyway, and parsing them all costs. */
        bool any_word = words && words[0];
        for (size_t i = 0; i < n_files && fm->hits.n <= MAX_METHOD_FILES; i++) {
            bool all = true;
            if (any_word) {
                al_source src;
                all = al_index_load_bytes(ix, &src, p->py_files.items[l[i].file]) == AL_SOURCE_OK;
                for (size_t w = 0; all && words[w]; w++)
                    all = memmem(src.bytes, src.len, words[w], strlen(words[w])) != NULL;
                al_source_free(&src);
            }
            if (all)
                AL_PUSH(fm->hits.files, fm->hits.n, fm->hits.cap, l[i].file);
        }
        if (fm->hits.n > MAX_METHOD_FILES)
            fm->hits.n = 0;
        al_memo_put(&ix->memo, key.data, fm, found_methods_free);
    }
    char needle[200];
    snprintf(needle, sizeof needle, "def %s(", name);
    size_t cap = fm->max < max ? fm->max : max, n = 0;
    for (size_t i = 0; i < fm->hits.n && n < cap; i++) {
        pyfile *f = al_index_load_py(ix, p->py_files.items[fm->hits.files[i]]);
        const al_pyfile *pf;
        const struct al_pymodule *mod;
        if (!f || !al_language_table.python.parts_view_mentioning(f->parts, needle, true, &pf, &mod))
            continue;
        TSNode defs[16];
        size_t k = al_py_class_methods(pf, name, defs, 16);
        for (size_t j = 0; j < k && n < cap; j++)
            al_index_fill_def(&out[n++], f->path, pf, mod, defs[j]);
    }
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
