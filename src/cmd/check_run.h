/* What one `check` run holds, shared by check.c and the cache's part of
 * the run (check_cache.c, which needs no more of check.c than this); nothing
 * outside cmd/ sees it. */
#ifndef ALLOCLINT_CHECK_RUN_H
#define ALLOCLINT_CHECK_RUN_H

#include "options.h"
#include "../run/config.h"
#include "../analysis/core/index.h"
#include "../analysis/core/ops.h"
#include "../front/cxx/compdb.h"
#include "../engine/lint.h"
#include "../profile/profile.h"
#include "../run/cache.h"
#include "../run/cachekey.h"
#include "../run/jobs.h"
#include "../rules/rules.h"

#include <pthread.h>

/* The cache, read while the walk runs. */
typedef struct {
    const char *dir;
    uint64_t settings;
    al_cache *cache;
    al_strbuf warnings;
    pthread_t thread;
    bool started; /* and not joined yet */
} cache_loader;

/* Everything one run holds, released in one place. */
typedef struct {
    const al_check_options *o;
    bool unsafe_fixes; /* the command line's, else every file's configuration agrees */
    bool error;
    al_op_table ops;
    al_index *index;
    al_file_list files;
    al_compdb compdb;
    al_config_cache *configs;
    /* Per file: its options, one of option_sets (most files of a run share
     * one: a table per file would grow with the tree). */
    const al_lint_options **per_file;
    al_lint_options **option_sets;
    size_t n_option_sets;
    al_report_rule rule_info[AL_MAX_RULES];
    al_report *report, *unfixed;
    al_strbuf shown, patch;
    size_t total_fixed, total_remaining, total_unapplied;
    size_t fixed_unsafe, fixed_later; /* of total_fixed: unsafe ones, found after a pass */
    bool from_stdin;     /* one source, read from standard input */
    al_strbuf stdin_bytes;
    bool stdin_written;  /* --fix: the fixed source went to stdout */
    al_cache *cache;     /* NULL: no cache this run */
    cache_loader loader;
    const char *cache_dir;
    uint64_t *options;   /* per file: the hash of its options, for the cache */
    uint64_t fingerprint;
    bool project_ok;     /* the project is as the cache saw it */
    double clock;        /* when the phase being timed began (ALLOCLINT_TIMING) */
    al_file_hash *hashes; /* per file: content hash and stamp (with a cache) */
    int64_t started;     /* wall clock at the start, for the cache's stamps */
    bool restamped;      /* the cache learned newer stamps */
    bool hashes_from_jobs; /* an empty cache: hashes come from the jobs' reads */
    al_profile *profile; /* --profile: the traces' costs per site; NULL without */
} run;

/* The cache: read on a thread while the walk runs, opened (the files
 * hashed, the project compared) before the check, asked per file, given
 * each new result and written back. */
void al_check_cache_start(run *r);
void al_check_cache_open(run *r);
void al_check_cache_lookup(run *r, al_file_job *jobs);
void al_check_cache_store(run *r, size_t i, const al_file_job *job);
void al_check_cache_save(run *r);

#endif
