/* The check command: find the files, check them on every core with their
 * configuration, fix or print the diff, and report. */
#ifndef ALLOCLINT_CHECK_H
#define ALLOCLINT_CHECK_H

#include "options.h"
#include "../run/config.h"

#include <stdbool.h>
#include <stddef.h>

enum { AL_EXIT_CLEAN = 0, AL_EXIT_FINDINGS = 1, AL_EXIT_ERROR = 2 };

/* Prints "alloclint: error: " fmt (with arg), then `hint` on a line of
 * its own, to stderr; returns AL_EXIT_ERROR. For a command line that
 * cannot be run. */
int al_usage_error(const char *hint, const char *fmt, const char *arg);

/* The rules a file is checked with: the command line's selection over its
 * configuration's (cfg may be NULL). False (err filled) when the
 * configuration names an unknown code. */
bool al_check_rules_for(const al_check_options *o, const al_config *cfg, const char *path,
                        bool *enabled, al_config_error *err);

/* Runs the command and returns the process exit code. */
int al_check_run(const al_check_options *o);
void al_check_options_free(al_check_options *o);

#endif
