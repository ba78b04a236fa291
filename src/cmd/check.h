/* The check command: find the files, check them on every core with their
 * configuration, fix or print the diff, and report. */
#ifndef ALLOCLINT_CHECK_H
#define ALLOCLINT_CHECK_H

#include "../run/config.h"
#include "../run/discover.h"
#include "../engine/report.h"

#include <stdbool.h>
#include <stddef.h>

enum { AL_EXIT_CLEAN = 0, AL_EXIT_FINDINGS = 1, AL_EXIT_ERROR = 2 };

/* Prints "alloclint: error: " fmt (with arg), then `hint` on a line of
 * its own, to stderr; returns AL_EXIT_ERROR. For a command line that
 * cannot be run. */
int al_usage_error(const char *hint, const char *fmt, const char *arg);

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

/* The rules a file is checked with: the command line's selection over its
 * configuration's (cfg may be NULL). False (err filled) when the
 * configuration names an unknown code. */
bool al_check_rules_for(const al_check_options *o, const al_config *cfg, const char *path,
                        bool *enabled, al_config_error *err);

/* Runs the command and returns the process exit code. */
int al_check_run(const al_check_options *o);
void al_check_options_free(al_check_options *o);

#endif
