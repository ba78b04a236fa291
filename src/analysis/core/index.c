/* The repo index's store: projects, the files read and their parsed
 * parts, what stays of them between checked files, the memo. Name
 * resolution is built on it (resolve.c). */
#include "index.h"
#include "index_internal.h"

#include "impls.h"
#include "languages.h"
#include "memo.h"
#include "schema.h"
#include "../../base/paths.h"
#include "../../front/python/imports.h"
#include "../../front/python/scopes.h"
#include "../../front/python/syntax.h"
#include "../../base/util.h"

#include <ctype.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A parsed view's tree-sitter tree takes about this many bytes per byte
 * of source it parsed (measured with heaptrack over the vLLM and SGLang
 * checkouts: 193 MB of trees for 8.7 MB parsed). */
#define TREE_BYTES_PER_BYTE 23

al_index *al_index_new(void)
{
    al_index *ix = al_xcalloc(1, sizeof *ix);
    pthread_mutexattr_t attr;
    pthread_mutexattr_init(&attr);
    pthread_mutexattr_settype(&attr, PTHREAD_MUTEX_RECURSIVE);
    pthread_mutex_init(&ix->lock, &attr);
    pthread_mutexattr_destroy(&attr);
    ix->facts = al_file_facts_table_new();
    ix->owns_facts = true;
    ix->budget = AL_INDEX_BUDGET;
    const char *mb = getenv("ALLOCLINT_INDEX_BUDGET_MB");
    if (mb && *mb >= '0' && *mb <= '9')
        ix->budget = (size_t)strtoul(mb, NULL, 10) << 20;
    return ix;
}

al_index *al_index_new_like(const al_index *ix)
{
    al_index *n = al_index_new();
    n->whole_files = ix->whole_files;
    n->budget = ix->budget;
    al_file_facts_table_free(n->facts);
    n->facts = ix->facts;
    n->owns_facts = false;
    return n;
}

/* The stats al_index_stats prints, as al_index.absorbed counts them. */
static void count(const al_index *ix, size_t c[STATS])
{
    memset(c, 0, STATS * sizeof *c);
    c[0] = ix->n_projects;
    for (size_t i = 0; i < ix->n_projects; i++) {
        c[1] += ix->projects[i]->py_files.n;
        c[2] += ix->projects[i]->cxx_files.n;
    }
    c[3] = ix->n_py;
    for (size_t i = 0; i < ix->n_py; i++) {
        if (!ix->py[i]->parts)
            continue;
        size_t v, p;
        al_language_table.python.parts_stats(ix->py[i]->parts, &v, &p);
        c[5] += v;
        c[6] += p;
        c[4] += al_language_table.python.parts_source(ix->py[i]->parts)->len;
    }
    c[4] += ix->released_bytes;
    c[5] += ix->released_views;
    c[6] += ix->released_parsed;
    c[7] = ix->n_cxx;
    c[8] = ix->memo.n;
    c[9] = ix->released;
    c[10] = ix->released_scans;
    for (int k = 0; k < STATS; k++)
        c[k] += ix->absorbed[k];
}

/* Lists in `into` the reads of from's scans: every Python file of each
 * project scanned, with the bytes its facts were read from. */
static void list_scans(al_index *into, const al_index *from)
{
    for (size_t i = 0; i < from->n_projects; i++) {
        project *p = from->projects[i];
        if (!p->scanned || p->scans_listed)
            continue;
        if (into == from)
            p->scans_listed = true;
        for (size_t k = 0; k < p->py_files.n; k++) {
            const al_file_facts *ff = al_file_facts_of(from->facts, p->py_files.items[k]);
            al_index_record_read(into, p->py_files.items[k], ff->status, ff->hash);
        }
    }
}

void al_index_absorb(al_index *into, const al_index *from)
{
    size_t c[STATS];
    count(from, c);
    al_index_lock(into);
    list_scans(into, from);
    for (size_t i = 0; i < from->n_reads; i++) {
        const al_index_read *r = &from->reads[i];
        al_index_record_read(into, r->path, r->read ? AL_SOURCE_OK : AL_SOURCE_ERR_READ, r->hash);
    }
    for (int k = 0; k < STATS; k++)
        into->absorbed[k] += c[k];
    al_index_unlock(into);
}

void al_index_free(al_index *ix)
{
    if (!ix)
        return;
    free(ix->reads);
    al_memo_free(&ix->read_at);
    for (size_t i = 0; i < ix->n_projects; i++) {
        project *p = ix->projects[i];
        free(p->root);
        al_strlist_free(&p->py_roots);
        al_strlist_free(&p->distributions);
        for (size_t k = 0; k < p->n_defs; k++)
            free(p->defs[k].name);
        free(p->defs);
        al_impls_free(&p->py_ops);
        al_impls_free(&p->cxx_ops);
        al_impls_free(&p->pybind);
        free(p->method_files.items);
        free(p->assigned_attrs.items);
        free(p->self_attr_files.items);
        al_memo_free(&p->macro_words);
        al_ops_free(&p->schemas);
        free(p);
    }
    for (size_t i = 0; i < ix->n_py; i++) {
        pyfile *f = ix->py[i];
        if (f->parts)
            al_language_table.python.parts_free(f->parts);
        free(f->path);
        free(f);
    }
    for (size_t i = 0; i < ix->n_cxx; i++) {
        cxxfile *f = ix->cxx[i];
        if (f->held) {
            al_cxx_unit_free(&f->unit);
            al_source_free(&f->src);
        }
        free(f->path);
        free(f);
    }
    al_memo_free(&ix->memo);
    al_memo_free(&ix->project_by_dir);
    al_memo_free(&ix->paths);
    al_memo_free(&ix->py_by_path);
    if (ix->owns_facts)
        al_file_facts_table_free(ix->facts);
    free(ix->projects);
    free(ix->py);
    free(ix->held);
    free(ix->cxx);
    pthread_mutex_destroy(&ix->lock);
    free(ix);
}

static _Thread_local bool touched;

void al_index_lock(al_index *ix)
{
    touched = true;
    pthread_mutex_lock(&ix->lock);
}

void al_index_unlock(al_index *ix)
{
    pthread_mutex_unlock(&ix->lock);
}

bool al_index_take_touched(void)
{
    bool t = touched;
    touched = false;
    return t;
}

void al_index_record_read(al_index *ix, const char *path, al_source_status st,
                          unsigned long long hash)
{
    al_index_read r = {NULL, st == AL_SOURCE_OK ? hash : 0, st == AL_SOURCE_OK};
    /* A project's scans read each of its files, and so does each thread:
     * one entry per file and bytes keeps the list the size of the tree's
     * file list, not a multiple of it. */
    uintptr_t at = (uintptr_t)al_memo_get(&ix->read_at, path);
    if (at && ix->reads[at - 1].read == r.read && ix->reads[at - 1].hash == r.hash)
        return;
    AL_PUSH(ix->reads, ix->n_reads, ix->cap_reads, r);
    al_memo_put(&ix->read_at, path, (void *)(uintptr_t)ix->n_reads, NULL);
    ix->reads[ix->n_reads - 1].path = (char *)al_memo_key(&ix->read_at, path);
}

/* Reads a file for the index, recording what was read. */
static al_source_status record(al_index *ix, al_source *src, const char *path,
                               al_source_status st)
{
    al_index_record_read(ix, path, st, st == AL_SOURCE_OK ? src->hash : 0);
    return st;
}

al_source_status al_index_load(al_index *ix, al_source *src, const char *path)
{
    return record(ix, src, path, al_source_load(src, path));
}

al_source_status al_index_load_bytes(al_index *ix, al_source *src, const char *path)
{
    return record(ix, src, path, al_source_load_bytes(src, path));
}

const al_index_read *al_index_reads(al_index *ix, size_t *n)
{
    list_scans(ix, ix);
    *n = ix->n_reads;
    return ix->reads;
}

/* ------------------------------------------------------------------ */
/* Memo                                                                 */

void *al_index_memo_get(al_index *ix, const char *key)
{
    al_index_lock(ix);
    void *v = al_memo_get(&ix->memo, key);
    al_index_unlock(ix);
    return v;
}

void al_index_memo_put(al_index *ix, const char *key, void *value, void (*free_fn)(void *))
{
    al_index_lock(ix);
    al_memo_put(&ix->memo, key, value, free_fn);
    al_index_unlock(ix);
}

/* ------------------------------------------------------------------ */
/* Projects                                                             */

static void add_root(project *p, const char *dir)
{
    char *real = al_path_real(dir);
    if (real && al_path_is_dir(real) && !al_strlist_has(&p->py_roots, real, strlen(real)))
        al_strlist_add(&p->py_roots, real);
    else
        free(real);
}

static void add_distribution(const char *dir, void *arg)
{
    project *p = arg;
    char *pyproject = al_path_join(dir, "pyproject.toml"), *setup = al_path_join(dir, "setup.py");
    if (al_path_is_file(pyproject) || al_path_is_file(setup)) {
        char *real = al_path_real(dir);
        if (real)
            al_strlist_add(&p->distributions, real);
    }
    free(pyproject);
    free(setup);
}

/* The project a file belongs to: the git work tree, else the folder of
 * the nearest pyproject.toml, else the file's folder. */
project *al_index_project_of(al_index *ix, const char *path)
{
    char *dir = al_path_dirname(path);
    /* Asked for every call resolved: each folder's answer found once (a
     * realpath and a stat a folder up to the root otherwise). */
    project *known = al_memo_get(&ix->project_by_dir, dir);
    if (known) {
        free(dir);
        known->used = ix->checks;
        return known;
    }
    char *root = al_path_find_up(dir, ".git");
    if (!root)
        root = al_path_find_up(dir, "pyproject.toml");
    if (!root)
        root = al_path_real(dir);
    if (!root) {
        free(dir);
        return NULL;
    }
    for (size_t i = 0; i < ix->n_projects; i++)
        if (!strcmp(ix->projects[i]->root, root)) {
            free(root);
            al_memo_put(&ix->project_by_dir, dir, ix->projects[i], NULL);
            free(dir);
            ix->projects[i]->used = ix->checks;
            return ix->projects[i];
        }
    project *p = al_xcalloc(1, sizeof *p);
    p->root = root;
    p->used = ix->checks;
    add_root(p, root);
    char *python = al_path_join(root, "python"), *src = al_path_join(root, "src");
    add_root(p, python);
    add_root(p, src);
    free(python);
    free(src);
    al_path_subdirs(root, add_distribution, p);
    for (size_t i = 0; i < p->distributions.n; i++) {
        const char *d = p->distributions.items[i];
        char *dp = al_path_join(d, "python"), *ds = al_path_join(d, "src");
        add_root(p, d);
        add_root(p, dp);
        add_root(p, ds);
        free(dp);
        free(ds);
    }
    AL_PUSH(ix->projects, ix->n_projects, ix->cap_projects, p);
    al_memo_put(&ix->project_by_dir, dir, p, NULL);
    free(dir);
    return p;
}

static bool is_python_name(const char *name)
{
    return al_str_ends_with(name, ".py");
}

static bool is_cxx_name(const char *name)
{
    return al_is_cxx_path(name);
}

static bool is_source_name(const char *name)
{
    return is_python_name(name) || is_cxx_name(name);
}

/* One walk for both lists (each in the order the walk meets its files),
 * one a run for all threads. */
void al_index_walk_project(al_index *ix, project *p)
{
    if (p->walked)
        return;
    p->walked = true;
    al_project_files files = al_file_facts_project(ix->facts, p->root, is_source_name,
                                                   is_python_name);
    p->py_files = files.py;
    p->cxx_files = files.cxx;
}

/* ------------------------------------------------------------------ */
/* Files                                                                */

bool al_index_path_known(al_index *ix, const char *key, char **out)
{
    const char *hit = al_memo_get(&ix->paths, key);
    if (hit)
        *out = *hit ? al_xstrdup(hit) : NULL;
    return hit != NULL;
}

char *al_index_path_keep(al_index *ix, const char *key, char *found)
{
    al_memo_put(&ix->paths, key, al_xstrdup(found ? found : ""), free);
    return found;
}

/* path's real path (found once a run), or NULL. */
static char *real_path(al_index *ix, const char *path)
{
    al_strbuf key = {0};
    al_strbuf_printf(&key, "real\n%s", path);
    char *real;
    if (!al_index_path_known(ix, key.data, &real))
        real = al_index_path_keep(ix, key.data, al_path_real(path));
    al_strbuf_free(&key);
    return real;
}

/* Reads and opens f's parts (again, after a release); false when the
 * file can no longer be read. */
static bool open_py(al_index *ix, pyfile *f)
{
    al_source src;
    if (al_index_load(ix, &src, f->path) != AL_SOURCE_OK) {
        al_source_free(&src);
        f->ok = false;
        return false;
    }
    f->parts = al_language_table.python.parts_open(&src, ix->whole_files);
    AL_PUSH(ix->held, ix->n_held, ix->cap_held, f);
    return true;
}

pyfile *al_index_load_py(al_index *ix, const char *path)
{
    char *real = real_path(ix, path);
    if (!real)
        return NULL;
    pyfile *f = al_memo_get(&ix->py_by_path, real);
    if (f) {
        free(real);
    } else {
        f = al_xcalloc(1, sizeof *f);
        f->path = real;
        f->ok = true;
        f->order = ix->n_py;
        AL_PUSH(ix->py, ix->n_py, ix->cap_py, f);
        al_memo_put(&ix->py_by_path, real, f, NULL);
    }
    if (!f->ok || (!f->parts && !open_py(ix, f)))
        return NULL;
    f->used = ix->checks;
    return f;
}

/* What f's parts take: its bytes and the trees of its views. */
static size_t held_bytes(const pyfile *f)
{
    size_t views, parsed;
    al_language_table.python.parts_stats(f->parts, &views, &parsed);
    return al_language_table.python.parts_source(f->parts)->len + parsed * TREE_BYTES_PER_BYTE;
}

/* A parsed file the index holds, Python or C++, as the release weighs it. */
typedef struct {
    unsigned long long used;
    size_t order;
    size_t bytes;
    pyfile *py;   /* or */
    cxxfile *cxx;
} resident;

/* Least recently asked for first; then in the order first read, Python
 * before C++. */
static int by_use(const void *a, const void *b)
{
    const resident *x = a, *y = b;
    if (x->used != y->used)
        return x->used < y->used ? -1 : 1;
    if (!x->py != !y->py)
        return x->py ? -1 : 1;
    return x->order < y->order ? -1 : x->order > y->order;
}

static void release_py(al_index *ix, pyfile *f)
{
    size_t views, parsed;
    al_language_table.python.parts_stats(f->parts, &views, &parsed);
    ix->released++;
    ix->released_views += views;
    ix->released_parsed += parsed;
    ix->released_bytes += al_language_table.python.parts_source(f->parts)->len;
    al_language_table.python.parts_free(f->parts);
    f->parts = NULL;
}

static void release_cxx(cxxfile *f)
{
    al_cxx_unit_free(&f->unit);
    al_source_free(&f->src);
    f->held = false;
}

/* What a project's scans built that can be built again: the per-name
 * file pairs, the C++ definitions and macro words, the Python op
 * registrations (the C++ ones are read with the schemas, which the run
 * keeps). Its file lists stay: memos hold indexes into them. */
static void release_project(al_index *ix, project *p)
{
    ix->released_scans += p->methods_read || p->defs_read || p->py_ops_read;
    if (p->methods_read) {
        al_name_files *all[] = {&p->method_files, &p->assigned_attrs, &p->self_attr_files};
        for (size_t k = 0; k < 3; k++) {
            free(all[k]->items);
            memset(all[k], 0, sizeof *all[k]);
        }
        p->methods_read = false;
    }
    if (p->defs_read) {
        for (size_t k = 0; k < p->n_defs; k++)
            free(p->defs[k].name);
        free(p->defs);
        p->defs = NULL;
        p->n_defs = p->cap_defs = 0;
        al_memo_free(&p->macro_words);
        p->defs_read = false;
    }
    if (p->py_ops_read) {
        al_impls_free(&p->py_ops);
        memset(&p->py_ops, 0, sizeof p->py_ops);
        p->py_ops_read = false;
    }
}

void al_index_release(al_index *ix)
{
    al_index_lock(ix);
    /* The projects asked about before the one asked about last: their
     * scans go. A thread checks a contiguous range of files, so it moves
     * from one project to the next and seldom comes back. */
    unsigned long long last = 0;
    for (size_t i = 0; i < ix->n_projects; i++)
        if (ix->projects[i]->used > last)
            last = ix->projects[i]->used;
    for (size_t i = 0; i < ix->n_projects; i++)
        if (ix->projects[i]->used < last)
            release_project(ix, ix->projects[i]);
    ix->checks++;
    resident *r = al_xcalloc(ix->n_held + ix->n_cxx + 1, sizeof *r);
    size_t n = 0, total = 0;
    for (size_t i = 0; i < ix->n_held; i++) {
        pyfile *f = ix->held[i];
        r[n] = (resident){f->used, f->order, held_bytes(f), f, NULL};
        total += r[n++].bytes;
    }
    for (size_t i = 0; i < ix->n_cxx; i++) {
        cxxfile *f = ix->cxx[i];
        if (!f->held)
            continue;
        r[n] = (resident){f->used, f->order,
                          f->src.len + f->unit.n * sizeof *f->unit.tokens, NULL, f};
        total += r[n++].bytes;
    }
    if (total > ix->budget) {
        qsort(r, n, sizeof *r, by_use);
        for (size_t k = 0; k < n && total > ix->budget; k++) {
            total -= r[k].bytes;
            if (r[k].py)
                release_py(ix, r[k].py);
            else
                release_cxx(r[k].cxx);
        }
        size_t kept = 0;
        for (size_t i = 0; i < ix->n_held; i++)
            if (ix->held[i]->parts)
                ix->held[kept++] = ix->held[i];
        ix->n_held = kept;
    }
    free(r);
    al_index_unlock(ix);
}

void al_index_set_budget(al_index *ix, size_t bytes)
{
    ix->budget = bytes;
}

/* Reads and tokenises f (again, after a release); false when it can no
 * longer be read or parsed. */
static bool open_cxx(al_index *ix, cxxfile *f)
{
    if (!al_cxx_available() || al_index_load(ix, &f->src, f->path) != AL_SOURCE_OK) {
        al_source_free(&f->src);
        f->ok = false;
        return false;
    }
    al_cxx_parse(&f->src, NULL, 0, &f->unit);
    if (!f->unit.parsed) {
        al_cxx_unit_free(&f->unit);
        al_source_free(&f->src);
        f->ok = false;
        return false;
    }
    f->held = true;
    return true;
}

cxxfile *al_index_load_cxx(al_index *ix, const char *path)
{
    cxxfile *f = NULL;
    for (size_t i = 0; i < ix->n_cxx && !f; i++)
        if (!strcmp(ix->cxx[i]->path, path))
            f = ix->cxx[i];
    if (!f) {
        f = al_xcalloc(1, sizeof *f);
        f->path = al_xstrdup(path);
        f->ok = true;
        f->order = ix->n_cxx;
        AL_PUSH(ix->cxx, ix->n_cxx, ix->cap_cxx, f);
    }
    if (!f->ok || (!f->held && !open_cxx(ix, f)))
        return NULL;
    f->used = ix->checks;
    return f;
}

/* ------------------------------------------------------------------ */
/* Definitions                                                          */

static bool is_triton_decorated(const al_pyfile *pf, TSNode decorated)
{
    uint32_t k = ts_node_named_child_count(decorated);
    for (uint32_t i = 0; i < k; i++) {
        TSNode d = ts_node_named_child(decorated, i);
        if (!al_node_is(d, "decorator"))
            continue;
        size_t len;
        const char *p = al_node_ptr(pf, d, &len);
        if (memmem(p, len, "triton", 6))
            return true;
    }
    return false;
}

void al_index_fill_def(al_def *out, const char *path, const al_pyfile *pf,
                     const struct al_pymodule *mod,
                     TSNode def)
{
    out->path = path;
    out->pf = pf;
    out->mod = mod;
    out->def = def;
    TSNode parent = ts_node_parent(def);
    out->kernel = al_node_is(parent, "decorated_definition") && is_triton_decorated(pf, parent);
    TSNode owner = al_node_is(parent, "decorated_definition") ? ts_node_parent(parent) : parent;
    out->method = al_node_is(owner, "block") && al_node_is(ts_node_parent(owner), "class_definition");
    /* A static method takes no self: its arguments map from the first. */
    if (out->method && al_node_is(parent, "decorated_definition"))
        for (uint32_t i = 0; i < ts_node_named_child_count(parent); i++) {
            TSNode d = ts_node_named_child(parent, i);
            if (al_node_is(d, "decorator") &&
                al_node_text_eq(pf, ts_node_named_child(d, 0), "staticmethod"))
                out->method = false;
        }
}


const char *al_index_attribute_elsewhere(al_index *ix, const char *from_path, const char *attr)
{
    al_index_lock(ix);
    char *self = al_path_real(from_path);
    /* One scan per file and attribute asked about in a run; "" for none. */
    al_strbuf key = {0};
    al_strbuf_printf(&key, "attribute-elsewhere\n%s\n%s", self ? self : from_path, attr);
    char *hit = al_memo_get(&ix->memo, key.data);
    project *p = hit ? NULL : al_index_project_of(ix, from_path);
    if (!hit) {
        hit = al_xstrdup("");
        if (p)
            al_index_walk_project(ix, p);
        for (size_t i = 0; p && i < p->py_files.n && !*hit; i++) {
            const char *f = p->py_files.items[i];
            al_source src;
            size_t n = strlen(p->root); /* the files are found from the real root */
            if ((!self || strcmp(f, self)) && al_index_load_bytes(ix, &src, f) == AL_SOURCE_OK) {
                if (al_source_names_attribute(&src, attr)) {
                    free(hit);
                    hit = al_xstrdup(!strncmp(f, p->root, n) && f[n] == '/' ? f + n + 1 : f);
                }
                al_source_free(&src);
            }
        }
        al_memo_put(&ix->memo, key.data, hit, free);
    }
    al_strbuf_free(&key);
    free(self);
    al_index_unlock(ix);
    return *hit ? hit : NULL;
}

/* The sub-distribution folder holding real path `real`, or NULL. */
static const char *distribution_of(const project *p, const char *real)
{
    for (size_t i = 0; real && i < p->distributions.n; i++) {
        const char *d = p->distributions.items[i];
        size_t n = strlen(d);
        if (!strncmp(real, d, n) && real[n] == '/')
            return d;
    }
    return NULL;
}

const char *al_index_apart(al_index *ix, const char *from_path, const char *to_path)
{
    al_index_lock(ix);
    project *p = al_index_project_of(ix, from_path);
    /* Asked at every proved call: most projects have no such package. */
    if (!p || !p->distributions.n) {
        al_index_unlock(ix);
        return NULL;
    }
    char *from = al_path_real(from_path), *to = al_path_real(to_path);
    const char *d = to ? distribution_of(p, to) : NULL;
    if (d && from && distribution_of(p, from) == d)
        d = NULL;
    free(from);
    free(to);
    al_index_unlock(ix);
    size_t n = strlen(p->root);
    return d && !strncmp(d, p->root, n) && d[n] == '/' ? d + n + 1 : d;
}

void al_index_stats(al_index *ix, char *buf, size_t len)
{
    al_index_lock(ix);
    size_t c[STATS];
    count(ix, c);
    /* With an index per thread, a file or project that two threads both
     * needed counts twice: that is work done twice. */
    snprintf(buf, len,
             "index: %zu project(s) (%zu Python, %zu C++ files listed), %zu Python files read "
             "(%zu KB) in %zu views (%zu KB parsed), %zu C++ files parsed, %zu memoised "
             "summaries, %zu files released to be read again when asked, %zu projects' "
             "scans released",
             c[0], c[1], c[2], c[3], c[4] >> 10, c[5], c[6] >> 10, c[7], c[8], c[9], c[10]);
    al_index_unlock(ix);
}

void al_index_parse_whole(al_index *ix, bool whole)
{
    ix->whole_files = whole;
}
