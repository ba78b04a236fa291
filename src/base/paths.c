#include "paths.h"

#include "util.h"

#include <dirent.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char *const SKIP_DIRS[] = {
    ".git", ".hg", ".svn", "__pycache__", "node_modules", "build", "dist",
    "venv", ".venv", ".tox", ".nox", ".mypy_cache", ".ruff_cache",
    ".pytest_cache", "site-packages", ".eggs", NULL};

char *al_path_join(const char *dir, const char *name)
{
    /* Called for every entry of a walk: no formatting. */
    if (!strcmp(dir, "."))
        return al_xstrdup(name);
    size_t dl = strlen(dir), nl = strlen(name);
    bool slash = dl && dir[dl - 1] == '/';
    char *out = al_xmalloc(dl + !slash + nl + 1);
    memcpy(out, dir, dl);
    if (!slash)
        out[dl++] = '/';
    memcpy(out + dl, name, nl + 1);
    return out;
}

char *al_path_dirname(const char *path)
{
    const char *slash = strrchr(path, '/');
    if (!slash)
        return al_xstrdup(".");
    if (slash == path)
        return al_xstrdup("/");
    return al_xstrndup(path, (size_t)(slash - path));
}

bool al_path_is_dir(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

bool al_path_is_file(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

char *al_path_real(const char *path)
{
    char buf[PATH_MAX];
    return realpath(path, buf) ? al_xstrdup(buf) : NULL;
}

char *al_path_self_dir(void)
{
    char exe[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n <= 0)
        return NULL;
    exe[n] = '\0';
    char *slash = strrchr(exe, '/');
    return slash ? al_xstrndup(exe, (size_t)(slash - exe)) : NULL;
}

bool al_path_skip_dir_name(const char *name)
{
    for (int i = 0; SKIP_DIRS[i]; i++)
        if (!strcmp(name, SKIP_DIRS[i]))
            return true;
    return false;
}

bool al_path_skip_dir(const char *dir, const char *name)
{
    if (al_path_skip_dir_name(name))
        return true;
    char *inner = al_path_join(dir, name);
    char *cfg = al_path_join(inner, "pyvenv.cfg");
    bool venv = al_path_is_file(cfg);
    free(cfg);
    free(inner);
    return venv;
}

char *al_path_find_up(const char *dir, const char *marker)
{
    char *cur = al_path_real(dir);
    while (cur) {
        char *probe = al_path_join(cur, marker);
        struct stat st;
        bool found = stat(probe, &st) == 0;
        free(probe);
        if (found)
            return cur;
        if (!strcmp(cur, "/")) {
            free(cur);
            return NULL;
        }
        char *up = al_path_dirname(cur);
        free(cur);
        cur = up;
    }
    return NULL;
}

/* Calls entry for every name in dir but . and .., with its path and
 * what it is: a folder, or a regular file (a link to one counts). The
 * kind the listing gives saves an lstat an entry; want, when given,
 * drops files by name before any. */
static void each_entry(const char *dir, bool (*want)(const char *name),
                       void (*entry)(const char *dir, const char *name, const char *path,
                                     bool is_dir, bool is_file, void *arg),
                       void *arg)
{
    DIR *d = opendir(dir);
    if (!d)
        return;
    struct dirent *ent;
    while ((ent = readdir(d)) != NULL) {
        const char *name = ent->d_name;
        if (!strcmp(name, ".") || !strcmp(name, ".."))
            continue;
        if (want && ent->d_type == DT_REG && !want(name))
            continue;
        char *path = al_path_join(dir, name);
        struct stat st;
        bool is_dir = ent->d_type == DT_DIR, is_file = ent->d_type == DT_REG;
        if (!is_dir && !is_file && lstat(path, &st) == 0) {
            is_dir = S_ISDIR(st.st_mode);
            is_file = S_ISREG(st.st_mode) || (S_ISLNK(st.st_mode) && al_path_is_file(path));
        }
        entry(dir, name, path, is_dir, is_file, arg);
        free(path);
    }
    closedir(d);
}

typedef struct {
    int depth;
    bool (*want)(const char *name);
    void (*fn)(const char *path, void *arg);
    void *arg;
} walker;

static void walk(const char *dir, walker *w);

static void walk_entry(const char *dir, const char *name, const char *path, bool is_dir,
                       bool is_file, void *arg)
{
    walker *w = arg;
    if (is_dir && !al_path_skip_dir(dir, name)) {
        walker sub = *w;
        sub.depth++;
        walk(path, &sub);
    } else if (!is_dir && is_file && w->want(name)) {
        w->fn(path, w->arg);
    }
}

static void walk(const char *dir, walker *w)
{
    if (w->depth <= 64)
        each_entry(dir, w->want, walk_entry, w);
}

void al_path_walk(const char *dir, bool (*want)(const char *name),
                  void (*fn)(const char *path, void *arg), void *arg)
{
    walker w = {0, want, fn, arg};
    walk(dir, &w);
}

static void subdir_entry(const char *dir, const char *name, const char *path, bool is_dir,
                         bool is_file, void *arg)
{
    (void)is_file;
    walker *w = arg;
    if (is_dir && !al_path_skip_dir(dir, name))
        w->fn(path, w->arg);
}

void al_path_subdirs(const char *dir, void (*fn)(const char *path, void *arg), void *arg)
{
    walker w = {0, NULL, fn, arg};
    each_entry(dir, NULL, subdir_entry, &w);
}

void al_path_relative_to(char *path, const char *dir)
{
    size_t dl = dir ? strlen(dir) : 0;
    if (path && dl && !strncmp(path, dir, dl) && path[dl] == '/')
        memmove(path, path + dl + 1, strlen(path + dl + 1) + 1);
}

const char *al_path_shown(const char *path, const char *from, const char *named)
{
    size_t nf = strlen(from), nn = strlen(named);
    if (named[0] != '/' && nn < nf && !strcmp(from + nf - nn, named) && from[nf - nn - 1] == '/' &&
        !strncmp(path, from, nf - nn))
        return path + (nf - nn);
    size_t cut = 0;
    for (size_t i = 0; path[i] && path[i] == from[i]; i++)
        if (path[i] == '/')
            cut = i + 1;
    return path + cut;
}
