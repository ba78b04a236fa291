/* Finding the files to check: walks directories for Python files,
 * skipping version-control, virtualenv and build folders and whatever the
 * enclosing git repository ignores. Explicitly named files are kept. */
#ifndef ALLOCLINT_DISCOVER_H
#define ALLOCLINT_DISCOVER_H

#include "../base/source.h"

#include <stdbool.h>
#include <stddef.h>

typedef struct {
    char **paths; /* sorted, unique */
    size_t n, cap;
    char **errors; /* one message per path that could not be read */
    size_t n_errors, cap_errors;
    al_file_seen *seen; /* per path: regular file? stamp (with al_discover_options.stamps) */
    void *dirs;    /* the folders it listed, by the folder part of their paths */
} al_file_list;

/* What the walk saw in a folder it listed: whether it was named as a
 * root (its path may then hold links), and which configuration files it
 * may hold (a regular file, or a link to check): alloclint's and the
 * formatter's, whose line length fixes keep to. */
typedef struct {
    bool root;
    bool alloclint_toml;
    bool pyproject_toml;
    bool ruff_toml;     /* ruff.toml */
    bool dot_ruff_toml; /* .ruff.toml */
} al_dir_listing;

typedef struct {
    bool respect_gitignore; /* default true */
    bool force_exclude;     /* apply ignore rules to named files too */
    /* Read each file's stamp (al_file_stamp_read) as it is found, on a
     * thread beside the walk: a run with a cache compares them with the
     * cache's instead of asking for them after the walk. */
    bool stamps;
} al_discover_options;

/* Never fails short of memory; unreadable paths are listed in errors. */
void al_discover(al_file_list *out, char *const *roots, size_t n_roots,
                 const al_discover_options *opt);
void al_file_list_free(al_file_list *list);
/* Whether the walk saw paths[i] as a regular file, not a link (false
 * when it does not know: a path named on the command line). */
bool al_file_list_is_regular(const al_file_list *list, size_t i);
/* Drops what the walk saw beyond the paths (each file's kind and stamp,
 * the folders listed) once the configuration lookup and the cache's
 * comparison have read it: a run keeps its paths only. After it,
 * al_file_list_is_regular and al_file_list_dir answer false. */
void al_file_list_forget_walk(al_file_list *list);
/* Appends path (nothing known of it). */
void al_file_list_add(al_file_list *list, const char *path);
/* Moves entry `from` to `to` (to <= from), for compacting the list in
 * place; the entry at `to` is overwritten, not freed. */
void al_file_list_move(al_file_list *list, size_t to, size_t from);
/* What the walk saw in folder dir, written as the folder part of the
 * paths of its files ("." for a walk of "." itself); false when it did
 * not list it. */
bool al_file_list_dir(const al_file_list *list, const char *dir, al_dir_listing *out);
/* Keeps only the files changed since `rev` (committed since, staged,
 * unstaged or untracked) in the git repository holding the current
 * folder. Returns false with a message in err when rev or the repository
 * cannot be read. */
bool al_keep_changed_since(al_file_list *list, const char *rev, char *err, size_t errlen);
bool al_is_python_path(const char *path);

#endif
