/* Checking many files on all cores. Each job loads one file and runs the
 * lint pipeline on it; nothing is printed or written here, so the caller
 * reports in a stable order. */
#ifndef ALLOCLINT_JOBS_H
#define ALLOCLINT_JOBS_H

#include "../engine/lint.h"
#include "../base/notebook.h"
#include "../base/source.h"
#include "../base/util.h"

#include <stdbool.h>

/* A notebook job's parts. */
typedef struct {
    al_notebook notebook;
    al_source container; /* the .ipynb file as read (its hash guards the write) */
} al_job_notebook;

/* What a job holds of a file it read, until the report: the bytes (or
 * only the lines the report needs), what the check found and fixed, a
 * notebook's parts. Apart from the job itself, which every file of a run
 * has: a run over a large tree keeps one of these only for the files
 * with something to report. */
typedef struct {
    al_source src;
    al_lint_result res;
    al_job_notebook *nb;  /* a notebook (src is its code cells), else NULL */
} al_job_outcome;

/* The cache's findings for a file, until its job takes them: the caller
 * decides a hit, the worker honours it when the file still has the bytes
 * the findings were made from. */
typedef struct {
    al_findings findings;
    uint64_t hash;
    al_source *excerpt;   /* the lines the findings point at (the report needs no
                           * read of the file), or NULL */
} al_job_cached;

typedef struct {
    bool loaded;          /* out is valid: the file was read */
    bool error;           /* the file could not be read or parsed */
    bool cache_hit;       /* take cached instead of analysing */
    bool linted;          /* analysed in this run */
    bool used_index;      /* ...and the analysis used the repo index */
    bool cxx_unchecked;   /* ...a C++/CUDA file, and libclang would not load */
    uint64_t hash;        /* of the file as read (a notebook: its JSON) */
    size_t len;
    al_strbuf messages;   /* warnings and errors naming the file, for stderr */
    al_job_outcome *out;  /* while the file is read and until it is reported; NULL else */
    al_job_cached *cached; /* with cache_hit, until taken */
} al_file_job;

/* A file's content hash (as al_source computes it) and size, and its
 * stamp when it was read. */
typedef struct {
    uint64_t hash;
    size_t len;
    bool ok;         /* read (or known) */
    bool stamped;    /* stamp holds the file's stat before the read */
    bool from_stamp; /* not read: the stamp was the one known */
    al_file_stamp stamp;
} al_file_hash;

/* Hashes paths[0..n) on `threads` threads (0: one per CPU). A file whose
 * stamp is that of known[i] (when known and known[i].ok) is not read:
 * known[i]'s hash is taken. seen (may be NULL): the stamps taken as the
 * walk found the files; a file without one is stamped here. stamp_only: only the
 * stamps (ok stays false), for a run whose jobs read every file anyway:
 * a stamp taken before the read vouches for the bytes read after it (a
 * write in between moves it). */
void al_hash_files(char *const *paths, size_t n, int threads, const al_file_hash *known,
                   const al_file_seen *seen, bool stamp_only, al_file_hash *out);

/* Reads the file of a job: src is the file, or for a notebook the joined
 * code cells (the notebook's JSON in container). False with a message in
 * job->messages when it cannot be read (job->error set on errors). */
bool al_job_load(al_file_job *job, const char *path);

/* As al_job_load, for bytes in memory (standard input). */
bool al_job_from_memory(al_file_job *job, const char *path, const char *bytes, size_t len);

/* Frees what a job holds and marks it not loaded. */
void al_job_release(al_file_job *job);

/* The bytes to write for a fixed source: the source itself, or the
 * notebook with its changed cells; NULL (message added) when a notebook's
 * cells cannot be written back. */
char *al_job_output(al_file_job *job, const char *fixed, size_t fixed_len, size_t *out_len);

/* Runs the jobs for paths[0..n), path i with opts[i], on `threads`
 * threads (0: one per CPU). With progress, a line on stderr counts the
 * files done (the caller decides: a terminal, and a large run). */
void al_run_jobs(al_file_job *jobs, char *const *paths, size_t n,
                 const al_lint_options *const *opts, int threads, bool progress);

/* Checks one source already in memory (job->src set by the caller, e.g.
 * from standard input) as a job of al_run_jobs would. */
void al_run_job_loaded(al_file_job *job, const al_lint_options *opt);

#endif
