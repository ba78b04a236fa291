#include "discover.h"

#include "../analysis/core/memo.h"
#include "../front/cxx/cxx.h"
#include "gitignore.h"
#include "../base/paths.h"
#include "../base/util.h"

#include <dirent.h>
#include <errno.h>
#include <git2.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

typedef struct {
    git_repository *repo;
    char *workdir; /* realpath with a trailing slash */
    al_gitignore *rules;
} repo_entry;

/* A file found, before the list is sorted. */
typedef struct {
    char *path;
    al_file_seen seen;
} found;

typedef struct {
    const al_discover_options *opt;
    al_file_list *out;
    repo_entry *repos;
    size_t n_repos, cap_repos;
    /* The files found. With stamps, the stamp thread reads them as the
     * walk adds them: both hold the lock to touch the array (the walk
     * may move it as it grows). */
    found *found;
    size_t n_found, cap_found;
    pthread_mutex_t lock;
    pthread_cond_t added;
    bool walk_done;
} walker;

bool al_is_python_path(const char *path)
{
    return al_str_ends_with(path, ".py") || al_str_ends_with(path, ".pyi") ||
           al_str_ends_with(path, ".ipynb");
}

static void add_error(al_file_list *out, const char *path, const char *what)
{
    al_strbuf sb = {0};
    al_strbuf_printf(&sb, "%s: %s", path, what);
    char *msg = al_strbuf_detach(&sb);
    AL_PUSH(out->errors, out->n_errors, out->cap_errors, msg);
}

static repo_entry *repo_for(walker *w, const char *dir_real)
{
    for (size_t i = 0; i < w->n_repos; i++) {
        /* Inside the work tree, or the work tree itself. */
        const char *wd = w->repos[i].workdir;
        size_t wl = wd ? strlen(wd) : 0;
        if (wl && !strncmp(dir_real, wd, wl - 1) &&
            (dir_real[wl - 1] == '/' || dir_real[wl - 1] == '\0'))
            return &w->repos[i];
    }
    git_repository *repo = NULL;
    if (git_repository_open_ext(&repo, dir_real, 0, NULL) != 0)
        return NULL;
    const char *wd = git_repository_workdir(repo);
    if (!wd) {
        git_repository_free(repo);
        return NULL;
    }
    char real[PATH_MAX];
    if (!realpath(wd, real)) {
        git_repository_free(repo);
        return NULL;
    }
    al_strbuf sb = {0};
    al_strbuf_printf(&sb, "%s/", real);
    repo_entry e = {repo, al_strbuf_detach(&sb), al_gitignore_new(repo, real)};
    AL_PUSH(w->repos, w->n_repos, w->cap_repos, e);
    return &w->repos[w->n_repos - 1];
}

/* `real` relative to r's work tree ("" for the work tree itself), or
 * NULL when it is outside. */
static const char *rel_in_repo(const repo_entry *r, const char *real)
{
    size_t wl = strlen(r->workdir); /* with its trailing slash */
    if (strncmp(real, r->workdir, wl - 1) != 0)
        return NULL;
    return real[wl - 1] == '\0' ? "" : real[wl - 1] == '/' ? real + wl : NULL;
}

/* Whether .gitignore rules ignore `real`, a path named on the command
 * line or a root, with its links resolved: a path in an ignored folder
 * is ignored. */
static bool git_ignored_real(walker *w, const char *real, bool is_dir)
{
    if (!w->opt->respect_gitignore)
        return false;
    char dir[PATH_MAX];
    snprintf(dir, sizeof dir, "%s", real);
    if (!is_dir) {
        char *slash = strrchr(dir, '/');
        if (slash && slash != dir)
            *slash = '\0';
    }
    repo_entry *r = repo_for(w, dir);
    const char *rel = r ? rel_in_repo(r, real) : NULL;
    return rel && *rel && al_gitignore_excludes_path(r->rules, rel, is_dir);
}

static bool git_ignored(walker *w, const char *path, bool is_dir)
{
    if (!w->opt->respect_gitignore)
        return false;
    char real[PATH_MAX];
    if (!realpath(path, real))
        return false;
    return git_ignored_real(w, real, is_dir);
}

static void add_path(walker *w, const char *path, bool regular)
{
    found f = {al_xstrdup(path), {regular, false, {0}}};
    if (!w->opt->stamps) {
        AL_PUSH(w->found, w->n_found, w->cap_found, f);
        return;
    }
    pthread_mutex_lock(&w->lock);
    AL_PUSH(w->found, w->n_found, w->cap_found, f);
    pthread_cond_signal(&w->added);
    pthread_mutex_unlock(&w->lock);
}

/* The stamp thread: each file's stamp, in the order found, until the
 * walk is done and every file stamped. */
static void *stamp_found(void *arg)
{
    walker *w = arg;
    size_t i = 0;
    pthread_mutex_lock(&w->lock);
    for (;;) {
        while (i == w->n_found && !w->walk_done)
            pthread_cond_wait(&w->added, &w->lock);
        if (i == w->n_found)
            break;
        /* The path's bytes never move; the array may. */
        const char *path = w->found[i].path;
        pthread_mutex_unlock(&w->lock);
        al_file_stamp st;
        bool ok = al_file_stamp_read(path, &st);
        pthread_mutex_lock(&w->lock);
        w->found[i].seen.stamp = st;
        w->found[i].seen.stamped = ok;
        i++;
    }
    pthread_mutex_unlock(&w->lock);
    return NULL;
}

/* A listed folder's facts, as a pointer into this array (the memo holds
 * pointers): index bit 0 listed, 1 root, 2 alloclint.toml, 3 pyproject,
 * 4 ruff.toml, 5 .ruff.toml. */
static const char dir_facts[64];
enum {
    DIR_LISTED = 1,
    DIR_ROOT = 2,
    DIR_ALLOCLINT = 4,
    DIR_PYPROJECT = 8,
    DIR_RUFF = 16,
    DIR_DOT_RUFF = 32
};

/* Records what the listing of dir showed, under the folder part its
 * files' paths will have; a folder listed twice (named as a root and
 * reached from another) keeps both. */
static void note_dir(al_file_list *out, const char *dir, unsigned facts)
{
    char *probe = al_path_join(dir, "x");
    char *slash = strrchr(probe, '/');
    if (!slash)
        strcpy(probe, ".");
    else if (slash == probe)
        probe[1] = '\0';
    else
        *slash = '\0';
    if (!out->dirs)
        out->dirs = al_xcalloc(1, sizeof(al_memo));
    const char *had = al_memo_get(out->dirs, probe);
    if (had)
        facts |= (unsigned)(had - dir_facts);
    al_memo_put(out->dirs, probe, (void *)&dir_facts[facts & 63], NULL);
    free(probe);
}

/* dir_real: dir with its links resolved (NULL: gitignore not read). */
static void walk_dir(walker *w, const char *dir, const char *dir_real, int depth)
{
    if (depth > 64) {
        add_error(w->out, dir, "directory nesting deeper than 64 levels, not descended");
        return;
    }
    DIR *d = opendir(dir);
    if (!d) {
        add_error(w->out, dir, strerror(errno));
        return;
    }
    /* The listing first: whether this folder is a virtualenv (it holds
     * pyvenv.cfg) and whether it has a .gitignore are read off it instead
     * of asked with a system call each. */
    typedef struct {
        char *name;
        unsigned char type;
    } listed;
    listed *entries = NULL;
    size_t n = 0, cap = 0;
    bool venv = false, has_ignore_file = false;
    unsigned facts = DIR_LISTED | (depth == 0 ? DIR_ROOT : 0);
    struct dirent *ent;
    while ((ent = readdir(d)) != NULL) {
        const char *name = ent->d_name;
        if (!strcmp(name, ".") || !strcmp(name, ".."))
            continue;
        if (!strcmp(name, "pyvenv.cfg")) {
            if (ent->d_type == DT_REG)
                venv = true;
            else if (ent->d_type == DT_LNK || ent->d_type == DT_UNKNOWN) {
                char *cfg = al_path_join(dir, name);
                venv = al_path_is_file(cfg);
                free(cfg);
            }
        }
        has_ignore_file |= !strcmp(name, ".gitignore");
        /* A regular file, or a kind the configuration lookup checks. */
        bool maybe_file = ent->d_type == DT_REG || ent->d_type == DT_LNK ||
                          ent->d_type == DT_UNKNOWN;
        if (maybe_file && !strcmp(name, "alloclint.toml"))
            facts |= DIR_ALLOCLINT;
        if (maybe_file && !strcmp(name, "pyproject.toml"))
            facts |= DIR_PYPROJECT;
        if (maybe_file && !strcmp(name, "ruff.toml"))
            facts |= DIR_RUFF;
        if (maybe_file && !strcmp(name, ".ruff.toml"))
            facts |= DIR_DOT_RUFF;
        listed e = {al_xstrdup(name), ent->d_type};
        AL_PUSH(entries, n, cap, e);
    }
    closedir(d);
    note_dir(w->out, dir, facts);
    /* A virtualenv below a root: none of its files are the project's. */
    size_t walked = venv && depth > 0 ? 0 : n;
    /* The ignore rules that apply here: those of the work tree holding
     * this folder (its folders were walked into, so none is ignored and
     * only the entries themselves are matched). */
    repo_entry *repo = dir_real && w->opt->respect_gitignore ? repo_for(w, dir_real) : NULL;
    const char *rel_dir = repo ? rel_in_repo(repo, dir_real) : NULL;
    /* Not the entry: the walk below may grow (move) the repository list. */
    al_gitignore *rules = rel_dir ? repo->rules : NULL;
    if (walked && rules && !has_ignore_file)
        al_gitignore_no_file(rules, rel_dir);
    for (size_t i = 0; i < walked; i++) {
        const char *name = entries[i].name;
        unsigned char type = entries[i].type;
        /* The kind readdir gives saves a stat per entry; files that are
         * not sources are passed over unexamined. */
        bool is_dir = type == DT_DIR;
        /* Only the extension decides; tested alone it costs less. */
        const char *ext = strrchr(name, '.');
        bool wanted = ext && (al_is_python_path(ext) || al_is_cxx_path(ext));
        if (type == DT_REG && !wanted)
            continue;
        if (type != DT_DIR && type != DT_REG && type != DT_LNK && type != DT_UNKNOWN)
            continue;
        char *path = al_path_join(dir, name);
        if (type == DT_LNK || type == DT_UNKNOWN) {
            struct stat st;
            if (lstat(path, &st) != 0) {
                add_error(w->out, path, strerror(errno));
                free(path);
                continue;
            }
            /* Follow links to files, never to directories (cycles). */
            if (S_ISLNK(st.st_mode) && (stat(path, &st) != 0 || S_ISDIR(st.st_mode))) {
                free(path);
                continue;
            }
            is_dir = S_ISDIR(st.st_mode);
            if (!is_dir && !(S_ISREG(st.st_mode) && wanted)) {
                free(path);
                continue;
            }
        }
        char *rel = rel_dir ? al_path_join(*rel_dir ? rel_dir : ".", name) : NULL;
        bool ignored = rel && al_gitignore_excludes(rules, rel, is_dir);
        free(rel);
        char *real = dir_real ? al_path_join(dir_real, name) : NULL;
        if (is_dir) {
            /* A virtualenv is found by its own listing, one level down. */
            if (!al_path_skip_dir_name(name) && !ignored)
                walk_dir(w, path, real, depth + 1);
        } else if (!ignored) {
            add_path(w, path, type == DT_REG);
        }
        free(real);
        free(path);
    }
    for (size_t i = 0; i < n; i++)
        free(entries[i].name);
    free(entries);
}

static int compare_found(const void *x, const void *y)
{
    return strcmp(((const found *)x)->path, ((const found *)y)->path);
}

void al_discover(al_file_list *out, char *const *roots, size_t n_roots,
                 const al_discover_options *opt)
{
    memset(out, 0, sizeof *out);
    git_libgit2_init();
    walker w = {.opt = opt, .out = out};
    pthread_t stamper;
    bool stamping = false;
    if (opt->stamps) {
        pthread_mutex_init(&w.lock, NULL);
        pthread_cond_init(&w.added, NULL);
        stamping = pthread_create(&stamper, NULL, stamp_found, &w) == 0;
    }
    for (size_t i = 0; i < n_roots; i++) {
        struct stat st;
        if (stat(roots[i], &st) != 0) {
            add_error(out, roots[i], strerror(errno));
            continue;
        }
        if (S_ISDIR(st.st_mode)) {
            char real[PATH_MAX];
            bool resolved = opt->respect_gitignore && realpath(roots[i], real);
            /* A folder named inside an ignored one holds nothing to check,
             * as git sees it. */
            if (!(resolved && git_ignored_real(&w, real, true)))
                walk_dir(&w, roots[i], resolved ? real : NULL, 0);
        } else if (S_ISREG(st.st_mode)) {
            if (!opt->force_exclude || !git_ignored(&w, roots[i], false))
                add_path(&w, roots[i], false);
        } else {
            add_error(out, roots[i], "not a regular file or directory");
        }
    }
    if (opt->stamps) {
        pthread_mutex_lock(&w.lock);
        w.walk_done = true;
        pthread_cond_signal(&w.added);
        pthread_mutex_unlock(&w.lock);
        if (stamping)
            pthread_join(stamper, NULL);
        pthread_cond_destroy(&w.added);
        pthread_mutex_destroy(&w.lock);
    }
    /* Sorted, each path once (named and walked: a regular file if the
     * walk saw one). */
    if (w.n_found > 1)
        qsort(w.found, w.n_found, sizeof *w.found, compare_found);
    out->cap = w.n_found ? w.n_found : 1;
    out->paths = al_xcalloc(out->cap, sizeof *out->paths);
    out->seen = al_xcalloc(out->cap, sizeof *out->seen);
    for (size_t i = 0; i < w.n_found; i++) {
        if (out->n && !strcmp(out->paths[out->n - 1], w.found[i].path)) {
            out->seen[out->n - 1].regular |= w.found[i].seen.regular;
            free(w.found[i].path);
            continue;
        }
        out->paths[out->n] = w.found[i].path;
        out->seen[out->n++] = w.found[i].seen;
    }
    free(w.found);
    for (size_t i = 0; i < w.n_repos; i++) {
        al_gitignore_free(w.repos[i].rules);
        git_repository_free(w.repos[i].repo);
        free(w.repos[i].workdir);
    }
    free(w.repos);
    git_libgit2_shutdown();
}

void al_file_list_forget_walk(al_file_list *list)
{
    free(list->seen);
    list->seen = NULL;
    if (list->dirs) {
        al_memo_free(list->dirs);
        free(list->dirs);
        list->dirs = NULL;
    }
}

void al_file_list_free(al_file_list *list)
{
    for (size_t i = 0; i < list->n; i++)
        free(list->paths[i]);
    for (size_t i = 0; i < list->n_errors; i++)
        free(list->errors[i]);
    free(list->paths);
    free(list->errors);
    al_file_list_forget_walk(list);
    memset(list, 0, sizeof *list);
}

bool al_file_list_is_regular(const al_file_list *list, size_t i)
{
    return list->seen && i < list->n && list->seen[i].regular;
}

void al_file_list_add(al_file_list *list, const char *path)
{
    char *copy = al_xstrdup(path);
    AL_PUSH(list->paths, list->n, list->cap, copy);
    /* After al_file_list_forget_walk nothing is known of any path. */
    if (!list->seen && list->n > 1)
        return;
    list->seen = al_xrealloc(list->seen, list->cap * sizeof *list->seen);
    memset(&list->seen[list->n - 1], 0, sizeof *list->seen);
}

void al_file_list_move(al_file_list *list, size_t to, size_t from)
{
    list->paths[to] = list->paths[from];
    if (list->seen)
        list->seen[to] = list->seen[from];
}

bool al_file_list_dir(const al_file_list *list, const char *dir, al_dir_listing *out)
{
    const char *had = list->dirs ? al_memo_get(list->dirs, dir) : NULL;
    if (!had)
        return false;
    unsigned facts = (unsigned)(had - dir_facts);
    *out = (al_dir_listing){(facts & DIR_ROOT) != 0, (facts & DIR_ALLOCLINT) != 0,
                            (facts & DIR_PYPROJECT) != 0, (facts & DIR_RUFF) != 0,
                            (facts & DIR_DOT_RUFF) != 0};
    return true;
}

bool al_keep_changed_since(al_file_list *list, const char *rev, char *err, size_t errlen)
{
    git_libgit2_init();
    git_repository *repo = NULL;
    git_object *obj = NULL;
    git_tree *tree = NULL;
    git_diff *diff = NULL;
    bool ok = false;
    char **changed = NULL;
    size_t n_changed = 0, cap = 0;
    if (git_repository_open_ext(&repo, ".", 0, NULL) != 0) {
        snprintf(err, errlen, "--since needs a git repository around the current folder");
        goto done;
    }
    if (git_revparse_single(&obj, repo, rev) != 0 ||
        git_object_peel((git_object **)&tree, obj, GIT_OBJECT_TREE) != 0) {
        snprintf(err, errlen, "--since %s: no such revision", rev);
        goto done;
    }
    git_diff_options opts;
    git_diff_options_init(&opts, GIT_DIFF_OPTIONS_VERSION);
    opts.flags |= GIT_DIFF_INCLUDE_UNTRACKED | GIT_DIFF_RECURSE_UNTRACKED_DIRS;
    if (git_diff_tree_to_workdir_with_index(&diff, repo, tree, &opts) != 0) {
        const git_error *e = git_error_last();
        snprintf(err, errlen, "--since %s: %s", rev, e ? e->message : "cannot diff");
        goto done;
    }
    const char *wd = git_repository_workdir(repo);
    char real_wd[PATH_MAX];
    if (!wd || !realpath(wd, real_wd)) {
        snprintf(err, errlen, "--since needs a repository with a work tree");
        goto done;
    }
    for (size_t i = 0; i < git_diff_num_deltas(diff); i++) {
        const git_diff_delta *d = git_diff_get_delta(diff, i);
        if (d->status == GIT_DELTA_DELETED)
            continue;
        al_strbuf sb = {0};
        al_strbuf_printf(&sb, "%s/%s", real_wd, d->new_file.path);
        char *p = al_strbuf_detach(&sb);
        AL_PUSH(changed, n_changed, cap, p);
    }
    size_t kept = 0;
    for (size_t i = 0; i < list->n; i++) {
        char real[PATH_MAX];
        bool keep = false;
        if (realpath(list->paths[i], real))
            for (size_t k = 0; k < n_changed && !keep; k++)
                keep = !strcmp(changed[k], real);
        if (keep) {
            al_file_list_move(list, kept++, i);
        } else {
            free(list->paths[i]);
        }
    }
    list->n = kept;
    ok = true;
done:
    for (size_t k = 0; k < n_changed; k++)
        free(changed[k]);
    free(changed);
    git_diff_free(diff);
    git_tree_free(tree);
    git_object_free(obj);
    git_repository_free(repo);
    git_libgit2_shutdown();
    return ok;
}
