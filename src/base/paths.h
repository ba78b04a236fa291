/* Paths and directory walks shared by file discovery and the repo index:
 * which folders never hold project code, where a project starts, and a
 * depth-limited walk that follows no directory links. */
#ifndef ALLOCLINT_PATHS_H
#define ALLOCLINT_PATHS_H

#include <stdbool.h>

/* Whether the folder `name` inside `dir` is skipped: version control,
 * caches, build output, virtualenvs (by name or by their pyvenv.cfg). */
bool al_path_skip_dir(const char *dir, const char *name);
/* The same by the name alone (version control, caches, build output):
 * for a walk that finds virtualenvs by their own listing. */
bool al_path_skip_dir_name(const char *name);
/* dir + "/" + name ("." as dir gives name alone); caller frees. */
char *al_path_join(const char *dir, const char *name);
/* Makes path (may be NULL) relative to dir in place when it lies under
 * dir (NULL: nothing to do), as reports show paths. */
void al_path_relative_to(char *path, const char *dir);
/* The folder part of a path ("." when there is none); caller frees. */
char *al_path_dirname(const char *path);
bool al_path_is_dir(const char *path);
bool al_path_is_file(const char *path);
/* The canonical absolute path, or NULL when it does not exist. */
char *al_path_real(const char *path);
/* A real path, for a message: as the run names files, when `from` (real)
 * is the file the run named as `named` (the same prefix taken off); else
 * relative to the folder path and from share. */
const char *al_path_shown(const char *path, const char *from, const char *named);
/* The folder of the running program's file (its installation's bin/), or
 * NULL when it cannot be read. Caller frees. */
char *al_path_self_dir(void);
/* The nearest folder at or above `dir` that holds `marker` (a file or a
 * folder), or NULL; caller frees. */
char *al_path_find_up(const char *dir, const char *marker);
/* Calls fn for every regular file under dir whose name `want` accepts,
 * in no particular order, skipping al_path_skip_dir folders and links to
 * folders, at most 64 levels deep. */
void al_path_walk(const char *dir, bool (*want)(const char *name),
                  void (*fn)(const char *path, void *arg), void *arg);
/* Calls fn for every folder right inside dir (no links, no
 * al_path_skip_dir folders), in no particular order. */
void al_path_subdirs(const char *dir, void (*fn)(const char *path, void *arg), void *arg);

#endif
