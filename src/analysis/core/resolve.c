/* Name resolution over the index's store (index.c): a callee, a class
 * or a method named in a file, followed through imports, re-exports and
 * base classes to its definition in a parsed view; and the Python
 * implementations registered for custom ops. Where resolving needs the
 * files built on it (callables.c, methods.c), it calls through
 * al_index_upcall. */
#include "index.h"
#include "index_internal.h"

#include "impls.h"
#include "languages.h"
#include "../../base/paths.h"
#include "../../front/python/imports.h"
#include "../../front/python/scopes.h"
#include "../../front/python/syntax.h"
#include "../../base/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Imports followed through re-exports (`from .x import f` in an
 * __init__.py) before a name counts as unresolved. */
#define MAX_REEXPORTS 6

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
            ok = !ts_node_is_null(made) && al_index_upcall.returned_callable(ix, from, made, out);
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
            if (!ts_node_is_null(def) && (!from->path || al_index_upcall.attr_assigned(ix, &owner, name, true)))
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
    al_index_walk_project(ix, p);
    static const char *const markers[] = {"direct_register_custom_op", "custom_op(", ".impl(",
                                          "@impl(", NULL};
    p->scanned = true;
    for (size_t i = 0; i < p->py_files.n; i++) {
        /* Every marker holds "custom_op" or "impl(": only files that
         * name one are read again and parsed. */
        const al_file_facts *ff = al_file_facts_of(ix->facts, p->py_files.items[i]);
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

