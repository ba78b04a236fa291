/* Where an imported module's file is, in the project around the
 * importing file: its package roots, then its distributions (folders
 * right inside the root with their own pyproject.toml), remembered per
 * run. */
#include "index.h"
#include "index_internal.h"
#include "../../base/paths.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool inside(const project *p, const char *real)
{
    size_t n = strlen(p->root);
    return !strncmp(real, p->root, n) && (real[n] == '/' || real[n] == '\0');
}

/* `<dir>/a/b.py` or `<dir>/a/b/__init__.py` for rel = "a.b" ("" names
 * the package of dir itself). */
static char *module_in(const char *dir, const char *rel)
{
    al_strbuf sb = {0};
    al_strbuf_puts(&sb, dir);
    if (*rel) {
        al_strbuf_putc(&sb, '/');
        for (const char *c = rel; *c; c++)
            al_strbuf_putc(&sb, *c == '.' ? '/' : *c);
    }
    size_t base = sb.len;
    if (*rel) {
        al_strbuf_puts(&sb, ".py");
        if (al_path_is_file(sb.data))
            return al_strbuf_detach(&sb);
        sb.len = base;
        sb.data[base] = '\0';
    }
    al_strbuf_puts(&sb, "/__init__.py");
    if (al_path_is_file(sb.data))
        return al_strbuf_detach(&sb);
    al_strbuf_free(&sb);
    return NULL;
}

/* The folder above the outermost package holding `path`: where absolute
 * imports of that package start. */
static char *package_root(const char *path)
{
    char *dir = al_path_dirname(path);
    for (int guard = 0; guard < 64; guard++) {
        char *init = al_path_join(dir, "__init__.py");
        bool package = al_path_is_file(init);
        free(init);
        if (!package || !strcmp(dir, "/") || !strcmp(dir, "."))
            break;
        char *up = al_path_dirname(dir);
        free(dir);
        dir = up;
    }
    return dir;
}

/* The file of module `module` imported from `from_path`: relative
 * (leading dots) from its package, absolute from the project's roots. */
static char *find_module_file(al_index *ix, const char *from_path, const char *module)
{
    size_t dots = strspn(module, ".");
    if (dots > 0) {
        char *dir = al_path_dirname(from_path);
        for (size_t i = 1; i < dots; i++) {
            char *up = al_path_dirname(dir);
            free(dir);
            dir = up;
        }
        char *f = module_in(dir, module + dots);
        free(dir);
        return f;
    }
    project *p = al_index_project_of(ix, from_path);
    if (!p)
        return NULL;
    char *pkg = package_root(from_path);
    char *f = module_in(pkg, module);
    free(pkg);
    for (size_t i = 0; !f && i < p->py_roots.n; i++)
        f = module_in(p->py_roots.items[i], module);
    if (f) {
        char *real = al_path_real(f);
        free(f);
        f = real;
        if (f && !inside(p, f)) {
            free(f);
            f = NULL;
        }
    }
    return f;
}

/* The file `module` names when imported from from_path, or NULL: found
 * once per folder and module. */
char *al_index_module_file(al_index *ix, const char *from_path, const char *module)
{
    char *dir = al_path_dirname(from_path);
    al_strbuf key = {0};
    al_strbuf_printf(&key, "module\n%s\n%s", dir, module);
    free(dir);
    char *f;
    if (!al_index_path_known(ix, key.data, &f))
        f = al_index_path_keep(ix, key.data, find_module_file(ix, from_path, module));
    al_strbuf_free(&key);
    return f;
}

bool al_index_module_in_project(al_index *ix, const char *from_path, const char *module)
{
    char *f = al_index_module_file(ix, from_path, module);
    free(f);
    return f != NULL;
}
