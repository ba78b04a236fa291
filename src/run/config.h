/* Project configuration: `[tool.alloclint]` in pyproject.toml, or the top
 * level of alloclint.toml. The nearest configuration above a file applies
 * to it (alloclint.toml before pyproject.toml in the same folder; a
 * pyproject.toml without [tool.alloclint] does not count). */
#ifndef ALLOCLINT_CONFIG_H
#define ALLOCLINT_CONFIG_H

#include "../analysis/core/ops.h"
#include "discover.h"
#include "../base/util.h"

#include <stdbool.h>
#include <stddef.h>

typedef struct {
    char *glob;
    al_strlist codes;
} al_per_file_ignore;

typedef struct {
    char *path; /* the file it was read from */
    char *dir;  /* patterns are relative to this folder */
    bool has_select;
    al_strlist select, extend_select, ignore, exclude, extend_exclude;
    al_per_file_ignore *pfi;
    size_t n_pfi, cap_pfi;
    int unsafe_fixes; /* -1 unset */
    /* `inference = true`: the code runs without autograd (AL401 may then
     * prove an in-place rewrite safe). */
    bool inference;
    al_op_table ops;  /* built-in summaries plus the user's */
} al_config;

typedef struct {
    char message[512];
} al_config_error;

typedef struct al_config_cache al_config_cache;

al_config_cache *al_config_cache_new(void);
void al_config_cache_free(al_config_cache *cache);
/* Lets the lookup take what the walk that found the files saw in the
 * folders it listed (which configuration files each holds, which are
 * no links) instead of asking the file system folder by folder. The
 * list must outlive the cache's lookups. */
void al_config_cache_set_walk(al_config_cache *cache, const al_file_list *walk);
/* Drops what the lookups remembered of folders (their configuration,
 * real path and line length) and the walk, keeping the configurations
 * read (a file's options point into them): for a run whose lookups are
 * done. Later lookups ask the file system again. */
void al_config_cache_forget_folders(al_config_cache *cache);
/* The configuration that applies to path, or NULL when none does.
 * `regular`: the caller knows path is a regular file, not a link.
 * Returns false (err filled, naming file, line and key) on a malformed
 * configuration. */
bool al_config_for(al_config_cache *cache, const char *path, bool regular,
                   const al_config **out, al_config_error *err);
/* Adds op summaries (from C++ schemas) to every configuration loaded. */
void al_config_cache_add_ops(al_config_cache *cache, const al_op_table *extra);

/* The line length the formatter of path's project keeps to: the nearest
 * ruff.toml, .ruff.toml or pyproject.toml above it that sets ruff's
 * `line-length` (or black's, in [tool.black]); 0 when none does. */
size_t al_config_line_length(al_config_cache *cache, const char *path);
/* Reads one configuration text (for tests). */
bool al_config_parse(al_config *cfg, const char *path, const char *text, size_t len,
                     bool pyproject, bool *found, al_config_error *err);
void al_config_free(al_config *cfg);
/* Whether exclude/extend-exclude name path (a glob on the path relative
 * to the config's folder, or on any of its folder names). */
bool al_config_excludes(const al_config *cfg, const char *path);
/* Codes that per-file-ignores turns off for path. */
void al_config_file_ignores(const al_config *cfg, const char *path, al_strlist *out);

#endif
