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

/* Imports followed through re-exports (`from .x import f` in an
 * __init__.py) before a name counts as unresolved. */
#define MAX_REEXPORTS 6

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
    return ix;
}

al_index *al_index_new_like(const al_index *ix)
{
    al_index *n = al_index_new();
    n->whole_files = ix->whole_files;
    al_file_facts_table_free(n->facts);
    n->facts = ix->facts;
    n->owns_facts = false;
    return n;
}

/* The stats al_index_stats prints, as al_index.absorbed counts them. */
static void count(const al_index *ix, size_t c[9])
{
    memset(c, 0, 9 * sizeof *c);
    c[0] = ix->n_projects;
    for (size_t i = 0; i < ix->n_projects; i++) {
        c[1] += ix->projects[i]->py_files.n;
        c[2] += ix->projects[i]->cxx_files.n;
    }
    c[3] = ix->n_py;
    for (size_t i = 0; i < ix->n_py; i++) {
        if (!ix->py[i]->ok)
            continue;
        size_t v, p;
        al_language_table.python.parts_stats(ix->py[i]->parts, &v, &p);
        c[5] += v;
        c[6] += p;
        c[4] += al_language_table.python.parts_source(ix->py[i]->parts)->len;
    }
    c[7] = ix->n_cxx;
    c[8] = ix->memo.n;
    for (int k = 0; k < 9; k++)
        c[k] += ix->absorbed[k];
}

void al_index_absorb(al_index *into, const al_index *from)
{
    size_t c[9];
    count(from, c);
    al_index_lock(into);
    for (size_t i = 0; i < from->n_reads; i++) {
        al_index_read r = from->reads[i];
        r.path = al_xstrdup(r.path);
        AL_PUSH(into->reads, into->n_reads, into->cap_reads, r);
    }
    for (int k = 0; k < 9; k++)
        into->absorbed[k] += c[k];
    al_index_unlock(into);
}

void al_index_free(al_index *ix)
{
    if (!ix)
        return;
    for (size_t i = 0; i < ix->n_reads; i++)
        free(ix->reads[i].path);
    free(ix->reads);
    for (size_t i = 0; i < ix->n_projects; i++) {
        project *p = ix->projects[i];
        free(p->root);
        al_strlist_free(&p->py_roots);
        al_strlist_free(&p->distributions);
        al_strlist_free(&p->py_files);
        al_strlist_free(&p->cxx_files);
        for (size_t k = 0; k < p->n_defs; k++)
            free(p->defs[k].name);
        free(p->defs);
        al_impls_free(&p->py_ops);
        al_impls_free(&p->cxx_ops);
        al_impls_free(&p->pybind);
        al_memo_free(&p->method_files);
        al_memo_free(&p->assigned_attrs);
        al_memo_free(&p->self_attr_files);
        al_memo_free(&p->macro_words);
        al_ops_free(&p->schemas);
        free(p);
    }
    for (size_t i = 0; i < ix->n_py; i++) {
        pyfile *f = ix->py[i];
        if (f->ok)
            al_language_table.python.parts_free(f->parts);
        free(f->path);
        free(f);
    }
    for (size_t i = 0; i < ix->n_cxx; i++) {
        cxxfile *f = ix->cxx[i];
        if (f->ok) {
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
    al_index_read r = {al_xstrdup(path), st == AL_SOURCE_OK ? hash : 0, st == AL_SOURCE_OK};
    AL_PUSH(ix->reads, ix->n_reads, ix->cap_reads, r);
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

const al_index_read *al_index_reads(const al_index *ix, size_t *n)
{
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
            return ix->projects[i];
        }
    project *p = al_xcalloc(1, sizeof *p);
    p->root = root;
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

static void collect_py(const char *path, void *arg)
{
    al_strlist_add(&((project *)arg)->py_files, al_xstrdup(path));
}

static void collect_cxx(const char *path, void *arg)
{
    al_strlist_add(&((project *)arg)->cxx_files, al_xstrdup(path));
}

static bool is_source_name(const char *name)
{
    return is_python_name(name) || is_cxx_name(name);
}

static void collect_source(const char *path, void *arg)
{
    if (is_python_name(path))
        collect_py(path, arg);
    else
        collect_cxx(path, arg);
}

/* One walk for both lists (each in the order the walk meets its files). */
void al_index_walk_project(project *p)
{
    if (p->walked)
        return;
    p->walked = true;
    al_path_walk(p->root, is_source_name, collect_source, p);
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

pyfile *al_index_load_py(al_index *ix, const char *path)
{
    char *real = real_path(ix, path);
    if (!real)
        return NULL;
    pyfile *known = al_memo_get(&ix->py_by_path, real);
    if (known) {
        free(real);
        return known->ok ? known : NULL;
    }
    pyfile *f = al_xcalloc(1, sizeof *f);
    f->path = real;
    AL_PUSH(ix->py, ix->n_py, ix->cap_py, f);
    al_memo_put(&ix->py_by_path, real, f, NULL);
    al_source src;
    if (al_index_load(ix, &src, real) != AL_SOURCE_OK) {
        al_source_free(&src);
        return NULL;
    }
    f->parts = al_language_table.python.parts_open(&src, ix->whole_files);
    f->ok = true;
    return f;
}

cxxfile *al_index_load_cxx(al_index *ix, const char *path)
{
    for (size_t i = 0; i < ix->n_cxx; i++)
        if (!strcmp(ix->cxx[i]->path, path))
            return ix->cxx[i]->ok ? ix->cxx[i] : NULL;
    cxxfile *f = al_xcalloc(1, sizeof *f);
    f->path = al_xstrdup(path);
    AL_PUSH(ix->cxx, ix->n_cxx, ix->cap_cxx, f);
    if (!al_cxx_available() || al_index_load(ix, &f->src, path) != AL_SOURCE_OK) {
        al_source_free(&f->src);
        return NULL;
    }
    al_cxx_parse(&f->src, NULL, 0, &f->unit);
    if (!f->unit.parsed) {
        al_cxx_unit_free(&f->unit);
        al_source_free(&f->src);
        return NULL;
    }
    f->ok = true;
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

static bool find_def(al_index *ix, pyfile *f, const char *name, int depth, al_def *out);

/* The top-level class `cls` of module file `path`, in a view holding it. */
static bool class_of_file(al_index *ix, const char *path, const char *cls, al_def *out)
{
    pyfile *f = al_index_load_py(ix, path);
    char needle[300];
    snprintf(needle, sizeof needle, "class %s", cls);
    const al_pyfile *pf;
    const struct al_pymodule *mod;
    if (!f || !al_language_table.python.parts_view_mentioning(f->parts, needle, true, &pf, &mod))
        return false;
    TSNode def = al_py_top_class(pf, cls);
    if (ts_node_is_null(def))
        return false;
    *out = (al_def){f->path, pf, mod, def, false, false};
    return true;
}

/* The class that expression e names in a view of `path`: one of that file
 * or one it imports by its module's name. */
static bool class_named(al_index *ix, const char *path, const al_pyfile *pf,
                        const struct al_pymodule *mod, TSNode e, al_def *out)
{
    char *q = al_imports_resolve(al_language_table.python.imports(mod), pf, e);
    bool ok = false;
    const char *dot = q ? strrchr(q, '.') : NULL;
    if (dot) {
        size_t n = (size_t)(dot - q);
        if (strspn(q, ".") >= n)
            n++; /* `from . import Cls`: the dots name the package */
        char *module = al_xstrndup(q, n);
        char *file = al_index_module_file(ix, path, module);
        ok = file && class_of_file(ix, file, dot + 1, out);
        free(file);
        free(module);
    } else if (!q && al_node_is(e, "identifier")) {
        char *name = al_node_text(pf, e);
        ok = class_of_file(ix, path, name, out);
        free(name);
    }
    free(q);
    return ok;
}

/* Bases that define nothing a subclass could inherit as a method of its
 * own (nn.Module's forward raises). */
static bool empty_base(const al_pyfile *pf, const struct al_pymodule *mod, TSNode e)
{
    if (al_node_text_eq(pf, e, "object"))
        return true;
    char *q = al_imports_resolve(al_language_table.python.imports(mod), pf, e);
    bool yes = q && (!strcmp(q, "torch.nn.Module") || !strcmp(q, "abc.ABC"));
    free(q);
    return yes;
}

bool al_index_class_named(al_index *ix, const al_pysite *from, TSNode e, al_def *out)
{
    memset(out, 0, sizeof *out);
    if (!from->path)
        return false;
    al_index_lock(ix);
    bool ok = class_named(ix, from->path, from->pf, from->mod, e, out);
    al_index_unlock(ix);
    return ok;
}

size_t al_index_class_bases(al_index *ix, const al_def *cls, al_def *out, size_t max, bool *all)
{
    al_index_lock(ix);
    size_t n = 0;
    *all = true;
    TSNode bases = al_node_field(cls->def, "superclasses");
    uint32_t k = ts_node_is_null(bases) ? 0 : ts_node_named_child_count(bases);
    for (uint32_t i = 0; i < k && *all; i++) {
        TSNode b = ts_node_named_child(bases, i);
        if (al_node_is(b, "keyword_argument") || al_node_is(b, "comment") ||
            empty_base(cls->pf, cls->mod, b))
            continue;
        if (n < max && class_named(ix, cls->path, cls->pf, cls->mod, b, &out[n]))
            n++;
        else
            *all = false;
    }
    al_index_unlock(ix);
    return n;
}

/* An instance method `name` that class cls inherits: found in exactly one
 * of its bases' lines (two would need the method resolution order), and no
 * base unknown (it might define it). */
static bool inherited(al_index *ix, const al_def *cls, const char *name, int depth, al_def *out)
{
    al_def bases[8];
    bool all;
    size_t n = depth < 4 ? al_index_class_bases(ix, cls, bases, 8, &all) : 0;
    if (depth >= 4 || !all)
        return false;
    bool found = false;
    for (size_t i = 0; i < n; i++) {
        al_def d;
        TSNode def = al_py_def_in_block(bases[i].pf, al_node_field(bases[i].def, "body"), name);
        if (!ts_node_is_null(def))
            al_index_fill_def(&d, bases[i].path, bases[i].pf, bases[i].mod, def);
        else if (!inherited(ix, &bases[i], name, depth + 1, &d))
            continue;
        if (found && (strcmp(d.path, out->path) ||
                      ts_node_start_byte(d.def) != ts_node_start_byte(out->def)))
            return false;
        *out = d;
        found = true;
    }
    return found;
}

/* `Cls.method` of module file `path`: a static or class method of a
 * top-level class (`rocm_aiter_ops.mla_decode_fwd(...)`), or with
 * instance any method, its own or inherited. */
static bool class_method(al_index *ix, const char *path, const char *cls, const char *name,
                         bool instance, al_def *out)
{
    al_def c;
    if (!class_of_file(ix, path, cls, &c))
        return false;
    TSNode def = instance ? al_py_def_in_block(c.pf, al_node_field(c.def, "body"), name)
                          : al_py_bound_class_method(c.pf, cls, name);
    if (ts_node_is_null(def))
        return instance && inherited(ix, &c, name, 0, out);
    al_index_fill_def(out, c.path, c.pf, c.mod, def);
    return true;
}

/* A qualified target "pkg.mod.name" (or "..mod.name") imported from
 * from_path: the definition of `name` in module "pkg.mod", or the static
 * method `name` of class "mod" of module "pkg". */
static bool resolve_target(al_index *ix, const char *from_path, const char *target, int depth,
                           bool instance, al_def *out)
{
    const char *dot = strrchr(target, '.');
    if (!dot || depth > MAX_REEXPORTS)
        return false;
    char *module = al_xstrndup(target, (size_t)(dot - target));
    if (module[strspn(module, ".")] == '\0') {
        /* `from . import f` ("." + "f"), `from .. import f`: the dots name
         * a package itself. */
        free(module);
        module = al_xstrndup(target, (size_t)(dot - target) + 1);
    }
    char *file = al_index_module_file(ix, from_path, module);
    if (!file) {
        /* "pkg.mod.Cls.method": a method of a class of pkg.mod. */
        char *cls = strrchr(module, '.');
        bool ok = false;
        if (cls && cls > module && cls[-1] != '.') {
            *cls = '\0';
            char *file2 = al_index_module_file(ix, from_path, module);
            ok = file2 && class_method(ix, file2, cls + 1, dot + 1, instance, out);
            free(file2);
        }
        free(module);
        return ok;
    }
    free(module);
    pyfile *f = al_index_load_py(ix, file);
    free(file);
    return f && find_def(ix, f, dot + 1, depth + 1, out);
}

/* The top-level function `name` of f, from a view that holds it. */
static bool function_of(pyfile *f, const char *name, al_def *out)
{
    const al_pyfile *pf;
    const struct al_pymodule *mod;
    if (!al_language_table.python.parts_view(f->parts, name, &pf, &mod))
        return false;
    TSNode def = al_py_def_in_block(pf, pf->root, name);
    if (ts_node_is_null(def))
        return false;
    al_index_fill_def(out, f->path, pf, mod, def);
    return true;
}

static bool find_def(al_index *ix, pyfile *f, const char *name, int depth, al_def *out)
{
    if (function_of(f, name, out))
        return true;
    const al_pyfile *pf;
    const struct al_pymodule *mod;
    char needle[300];
    snprintf(needle, sizeof needle, "def %s(", name);
    bool viewed = al_language_table.python.parts_view_mentioning(f->parts, needle, false, &pf, &mod);
    /* Defined in one branch of a module-level switch only: that one. Two
     * definitions are two programs, and which one runs is not known. */
    TSNode def = viewed ? al_py_switched_def(pf, name) : (TSNode){0};
    if (!ts_node_is_null(def)) {
        al_index_fill_def(out, f->path, pf, mod, def);
        return true;
    }
    /* Re-exported: `from .impl import name` in the module. */
    const al_imports *im = viewed ? al_language_table.python.imports(mod) : NULL;
    for (size_t i = 0; im && i < im->n; i++)
        if (!strcmp(im->items[i].local, name))
            return resolve_target(ix, f->path, im->items[i].target, depth, false, out);
    return false;
}


bool al_index_resolve(al_index *ix, const al_pysite *from, TSNode callee, TSNode site,
                      al_def *out)
{
    memset(out, 0, sizeof *out);
    const al_pyfile *pf = from->pf;
    bool ok = false;
    al_index_lock(ix);
    if (al_node_is(callee, "identifier")) {
        char *name = al_node_text(pf, callee);
        /* A function's own name first: a nested def, or a parameter or
         * local that hides the module's function of that name. */
        TSNode def = {0};
        int local = ts_node_is_null(site) ? 0 : al_py_local_def(pf, site, name, &def);
        if (local == 0)
            def = al_py_def_in_block(pf, pf->root, name);
        if (local == 2) {
            /* Imported inside the function: that import's target. */
            al_imports one = {0};
            al_imports_add_statement(&one, pf, def);
            for (size_t i = 0; i < one.n && !ok; i++)
                ok = !strcmp(one.items[i].local, name) && from->path &&
                     resolve_target(ix, from->path, one.items[i].target, 0, false, out);
            al_imports_free(&one);
            free(name);
            al_index_unlock(ix);
            return ok;
        }
        if (local < 0) {
            /* `fn = self.pick(...)`, then `fn(...)`: what pick returns. */
            TSNode made = al_py_sole_call_binding(pf, site, name);
            ok = !ts_node_is_null(made) && al_index_returned_callable(ix, from, made, out);
            free(name);
            al_index_unlock(ix);
            return ok;
        }
        const al_imports *im = al_language_table.python.imports(from->mod);
        size_t first = 0; /* the first import binding the name, if any */
        while (first < im->n && strcmp(im->items[first].local, name))
            first++;
        bool imported = first < im->n;
        pyfile *self = NULL;
        if (!ts_node_is_null(def)) {
            al_index_fill_def(out, from->path, pf, from->mod, def);
            ok = true;
        } else if (pf->partial && !imported && from->path &&
                   (self = al_index_load_py(ix, from->path)) != NULL && function_of(self, name, out)) {
            ok = true; /* a file parsed in part: its other functions from the index's parts */
        } else if (imported && from->path && !al_py_module_binds_besides_imports(pf, name)) {
            const char *t = im->items[first].target; /* none if imported from two places */
            for (size_t i = first + 1; i < im->n && t; i++)
                if (!strcmp(im->items[i].local, name) && strcmp(im->items[i].target, t))
                    t = NULL;
            ok = t && resolve_target(ix, from->path, t, 0, false, out);
        }
        free(name);
    } else if (al_node_is(callee, "attribute")) {
        TSNode obj = al_node_field(callee, "object");
        TSNode attr = al_node_field(callee, "attribute");
        if (al_node_text_eq(pf, obj, "self") || al_node_text_eq(pf, obj, "cls")) {
            TSNode cls = al_py_enclosing_class(site);
            char *name = al_node_text(pf, attr);
            TSNode def = ts_node_is_null(cls) ? cls
                                               : al_py_def_in_block(pf, al_node_field(cls, "body"), name);
            if (ts_node_is_null(def))
                al_pyfile_class_trimmed_def(pf, cls, name); /* the method may be left out */
            /* `self.fill = other`: the instance's attribute hides the method. */
            al_def owner = {from->path, pf, from->mod, cls, false, false};
            if (!ts_node_is_null(def) && (!from->path || al_index_attr_assigned(ix, &owner, name, true)))
                def = (TSNode){0};
            free(name);
            if (!ts_node_is_null(def)) {
                al_index_fill_def(out, from->path, pf, from->mod, def);
                ok = true;
            }
        } else if (from->path) {
            char *q = al_imports_resolve(al_language_table.python.imports(from->mod), pf, callee);
            if (q)
                ok = resolve_target(ix, from->path, q, 0, false, out);
            free(q);
        }
    }
    al_index_unlock(ix);
    return ok;
}

bool al_index_class_method(al_index *ix, const al_pysite *from, TSNode cls, const char *method,
                           al_def *out)
{
    memset(out, 0, sizeof *out);
    if (!from->path)
        return false;
    al_index_lock(ix);
    bool ok = false;
    char *q = al_imports_resolve(al_language_table.python.imports(from->mod), from->pf, cls);
    if (q) {
        al_strbuf t = {0};
        al_strbuf_printf(&t, "%s.%s", q, method);
        ok = resolve_target(ix, from->path, t.data, 0, true, out);
        al_strbuf_free(&t);
    } else if (al_node_is(cls, "identifier")) {
        char *name = al_node_text(from->pf, cls);
        ok = class_method(ix, from->path, name, method, true, out);
        free(name);
    }
    free(q);
    al_index_unlock(ix);
    return ok;
}

/* ------------------------------------------------------------------ */
/* Custom ops                                                           */

/* Every registration in the project's Python files: the statements that
 * name a marker are parsed and read, then let go (the bindings keep
 * names and paths). */
static void read_python_ops(al_index *ix, project *p)
{
    if (p->py_ops_read)
        return;
    p->py_ops_read = true;
    al_index_walk_project(p);
    static const char *const markers[] = {"direct_register_custom_op", "custom_op(", ".impl(",
                                          "@impl(", NULL};
    for (size_t i = 0; i < p->py_files.n; i++) {
        /* Every marker holds "custom_op" or "impl(": only files that
         * name one are read again and parsed. */
        const al_file_facts *ff = al_file_facts_of(ix->facts, p->py_files.items[i]);
        al_index_record_read(ix, p->py_files.items[i], ff->status, ff->hash);
        if (ff->status != AL_SOURCE_OK || !ff->markers)
            continue;
        al_source src;
        if (al_index_load_bytes(ix, &src, p->py_files.items[i]) != AL_SOURCE_OK) {
            al_source_free(&src);
            continue;
        }
        al_pyfile pf;
        if (al_language_table.python.parse_marked(&src, ix->whole_files, markers, &pf)) {
            char *real = al_path_real(p->py_files.items[i]);
            if (real)
                al_impls_read_python(real, &pf, &p->py_ops);
            free(real);
            al_pyfile_free(&pf);
        }
        al_source_free(&src);
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
            al_index_walk_project(p);
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

bool al_index_python_op(al_index *ix, const char *from_path, const char *op, al_def *out)
{
    bool ok = false;
    al_index_lock(ix);
    project *p = from_path ? al_index_project_of(ix, from_path) : NULL;
    if (p) {
        read_python_ops(ix, p);
        const al_impl *b = al_impls_find(&p->py_ops, op);
        pyfile *f = b ? al_index_load_py(ix, b->path) : NULL;
        ok = f && find_def(ix, f, b->func, 0, out);
    }
    al_index_unlock(ix);
    return ok;
}

void al_index_stats(al_index *ix, char *buf, size_t len)
{
    al_index_lock(ix);
    size_t c[9];
    count(ix, c);
    /* With an index per thread, a file or project that two threads both
     * needed counts twice: that is work done twice. */
    snprintf(buf, len,
             "index: %zu project(s) (%zu Python, %zu C++ files listed), %zu Python files read "
             "(%zu KB) in %zu views (%zu KB parsed), %zu C++ files parsed, %zu memoised "
             "summaries",
             c[0], c[1], c[2], c[3], c[4] >> 10, c[5], c[6] >> 10, c[7], c[8]);
    al_index_unlock(ix);
}

void al_index_parse_whole(al_index *ix, bool whole)
{
    ix->whole_files = whole;
}
