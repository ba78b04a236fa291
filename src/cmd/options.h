/* What `check` is asked on its command line: the options, as cli.c parses
 * them and the check's parts (check.c, check_cache.c) read them. */
#ifndef ALLOCLINT_OPTIONS_H
#define ALLOCLINT_OPTIONS_H

#include "../engine/report.h"
#include "../run/discover.h"

#include <stdbool.h>
#include <stddef.h>

/* Strings borrowed from argv. */
typedef struct {
    const char **items;
    size_t n, cap;
} al_args;

typedef struct {
    bool fix, diff, exit_zero, quiet, add_noqa, statistics, exit_non_zero_on_fix, show_fixes;
    bool no_prefilter; /* parse every file whole: the shortcuts' reference */
    bool no_cache;     /* neither read nor write .alloclint_cache */
    const char *cache_dir; /* --cache-dir (else $ALLOCLINT_CACHE_DIR, else .alloclint_cache) */
    int unsafe_fixes; /* -1 not given (the configuration decides), 0 or 1 */
    al_discover_options discover;
    al_format format;
    const char *output_file;
    int threads;         /* 0: one per CPU */
    const char *select;  /* --select, or NULL: the config's or the defaults */
    const char *since;   /* --since REV */
    const char *build_dir;
    const char *stdin_filename; /* --stdin-filename: the name of the source read from stdin */
    al_args ignores, extends; /* --ignore and --extend-select, repeated */
    al_args profiles;         /* --profile TRACE, repeated */
    const char *sort;         /* --sort cost|file (NULL: cost with a profile) */
    al_args cxx_args;         /* --cxx-arg, repeated */
    al_args paths;
} al_check_options;

#endif
