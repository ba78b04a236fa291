/* Checking many files on all cores. Each job loads one file and runs the
 * lint pipeline on it; nothing is printed or written here, so the caller
 * reports in a stable order. */
#ifndef ALLOCLINT_JOBS_H
#define ALLOCLINT_JOBS_H

#include "lint.h"
#include "source.h"
#include "util.h"

#include <stdbool.h>

typedef struct {
    bool loaded;          /* src and res are valid */
    bool error;           /* the file could not be read or parsed */
    al_source src;
    al_lint_result res;
    al_strbuf messages;   /* warnings and errors naming the file, for stderr */
} al_file_job;

/* Runs the jobs for paths[0..n), path i with opts[i], on `threads`
 * threads (0: one per CPU). With progress, a line on stderr counts the
 * files done (the caller decides: a terminal, and a large run). */
void al_run_jobs(al_file_job *jobs, char *const *paths, size_t n, const al_lint_options *opts,
                 int threads, bool progress);

/* Checks one source already in memory (job->src set by the caller, e.g.
 * from standard input) as a job of al_run_jobs would. */
void al_run_job_loaded(al_file_job *job, const al_lint_options *opt);

#endif
