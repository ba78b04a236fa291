#include "jobs.h"

#include "../analysis/core/index.h"

#ifdef __GLIBC__
#include <malloc.h>
#endif
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <time.h>
#include <string.h>
#include <unistd.h>

#define MAX_THREADS 64
/* Files checked between two returns of freed memory to the system. Each
 * return costs the page faults of taking the pages again: at 512 a cold
 * run over vLLM and SGLang spent 1.0-2.0 s in the kernel, at 2048 0.9-1.0
 * s, never 0.8 s; four copies peak at 1.22x, 1.23x and 1.26x one copy
 * (bench/results/scaling.md). */
#define TRIM_EVERY 2048

/* A thread's share of the files: [front, back), taken from the front by
 * its thread and from the back by a thread that ran out of its own. */
typedef struct {
    pthread_mutex_t lock;
    size_t front, back;
} file_range;

typedef struct {
    al_file_job *jobs;
    char *const *paths;
    size_t n;
    const al_lint_options *const *opt;
    atomic_size_t done;
    atomic_bool finished;
    file_range ranges[MAX_THREADS];
    int n_ranges;
    atomic_int next_range;
    al_index *shared; /* the run's index: what each thread's own read ends in it */
} pool;

static bool open_notebook(al_file_job *job, const char *path, al_source *container);

/* The job's outcome, made on first use. */
static al_job_outcome *outcome(al_file_job *job)
{
    if (!job->out)
        job->out = al_xcalloc(1, sizeof *job->out);
    return job->out;
}

bool al_job_load(al_file_job *job, const char *path)
{
    bool notebook = al_str_ends_with(path, ".ipynb");
    outcome(job);
    al_source container;
    al_source *target = notebook ? &container : &job->out->src;
    al_source_status st = al_source_load(target, path);
    if (st == AL_SOURCE_ERR_TOO_LARGE) {
        al_strbuf_printf(&job->messages, "alloclint: warning: %s: %s\n", path,
                         al_source_strerror(st));
        al_source_free(target);
        return false;
    }
    if (st != AL_SOURCE_OK) {
        al_strbuf_printf(&job->messages, "alloclint: error: %s: %s%s%s\n", path,
                         al_source_strerror(st), target->err_errno ? ": " : "",
                         target->err_errno ? strerror(target->err_errno) : "");
        job->error = true;
        al_source_free(target);
        return false;
    }
    return !notebook || open_notebook(job, path, &container);
}

bool al_job_from_memory(al_file_job *job, const char *path, const char *bytes, size_t len)
{
    bool notebook = al_str_ends_with(path, ".ipynb");
    al_source container;
    outcome(job);
    al_source_from_memory(notebook ? &container : &job->out->src, path, bytes, len);
    return !notebook || open_notebook(job, path, &container);
}

/* Takes container (the .ipynb as read): the job's source becomes its
 * code cells. */
static bool open_notebook(al_file_job *job, const char *path, al_source *container)
{
    char *err = NULL;
    al_notebook notebook;
    if (!al_notebook_parse(container->bytes, container->len, &notebook, &err)) {
        al_strbuf_printf(&job->messages, "alloclint: error: %s: %s\n", path, err);
        free(err);
        job->error = true;
        al_source_free(container);
        return false;
    }
    al_job_notebook *nb = al_xmalloc(sizeof *nb);
    nb->container = *container;
    nb->notebook = notebook;
    job->out->nb = nb;
    al_source_from_memory(&job->out->src, path, nb->notebook.python, nb->notebook.python_len);
    job->out->src.notebook = &nb->notebook;
    return true;
}

/* Frees the cache's findings the job did not take. */
static void drop_cached(al_file_job *job)
{
    if (!job->cached)
        return;
    al_findings_free(&job->cached->findings);
    if (job->cached->excerpt) {
        al_source_free(job->cached->excerpt);
        free(job->cached->excerpt);
    }
    free(job->cached);
    job->cached = NULL;
}

void al_job_release(al_file_job *job)
{
    drop_cached(job);
    if (job->out) {
        if (job->loaded)
            al_lint_result_free(&job->out->res);
        al_source_free(&job->out->src);
        if (job->out->nb) {
            al_source_free(&job->out->nb->container);
            al_notebook_free(&job->out->nb->notebook);
            free(job->out->nb);
        }
        free(job->out);
        job->out = NULL;
    }
    job->loaded = false;
}

char *al_job_output(al_file_job *job, const char *fixed, size_t fixed_len, size_t *out_len)
{
    if (!job->out->nb) {
        *out_len = fixed_len;
        return al_xstrndup(fixed, fixed_len);
    }
    char *err = NULL;
    char *json = al_notebook_rewrite(&job->out->nb->notebook, job->out->nb->container.bytes,
                                     job->out->nb->container.len,
                                     fixed, fixed_len, out_len, &err);
    if (!json) {
        al_strbuf_printf(&job->messages, "alloclint: error: %s: %s; not rewritten\n",
                         job->out->nb->container.path, err);
        free(err);
    }
    return json;
}

static void run_one(al_file_job *job, const char *path, const al_lint_options *opt)
{
    if (job->cache_hit && job->cached->findings.n == 0) {
        drop_cached(job);
        return; /* nothing to report, nothing to read */
    }
    if (job->cache_hit && job->cached->excerpt) {
        /* The bytes were vouched for by their stamp or hashed a moment
         * ago, as for a file without findings. */
        outcome(job)->src = *job->cached->excerpt;
        free(job->cached->excerpt);
        job->cached->excerpt = NULL;
        job->out->res.findings = job->cached->findings;
        memset(&job->cached->findings, 0, sizeof job->cached->findings);
        drop_cached(job);
        job->loaded = true;
        return;
    }
    if (!al_job_load(job, path)) {
        al_job_release(job); /* its message stays */
        return;
    }
    /* A notebook's entry is keyed by the whole file, as it was hashed. */
    const al_source *whole = job->out->nb ? &job->out->nb->container : &job->out->src;
    if (job->cache_hit && whole->hash == job->cached->hash) {
        /* The report needs the source for rows and snippets. */
        job->out->res.findings = job->cached->findings;
        memset(&job->cached->findings, 0, sizeof job->cached->findings);
        drop_cached(job);
        job->loaded = true;
        return;
    }
    /* Changed since it was hashed: analysed after all. */
    job->cache_hit = false;
    drop_cached(job);
    al_run_job_loaded(job, opt);
}

void al_run_job_loaded(al_file_job *job, const al_lint_options *opt)
{
    const al_source *src = &job->out->src;
    const char *path = src->path;
    size_t row, col;
    if (src->has_nul) {
        al_source_position(src, src->nul_offset, &row, &col);
        al_strbuf_printf(&job->messages,
                         "alloclint: warning: %s:%zu:%zu: file contains a NUL byte; checked, "
                         "but no fix will touch it\n",
                         src->path, row, col);
    }
    if (src->bad_utf8) {
        al_source_position(src, src->bad_utf8_offset, &row, &col);
        al_strbuf_printf(&job->messages,
                         "alloclint: warning: %s:%zu:%zu: invalid UTF-8; checked, but no fix "
                         "will touch it\n",
                         src->path, row, col);
    }
    al_index_take_touched();
    al_lint(src, opt, &job->out->res);
    job->used_index = al_index_take_touched();
    job->linted = true;
    job->cxx_unchecked = job->out->res.cxx_unavailable;
    const al_source *whole = job->out->nb ? &job->out->nb->container : src;
    job->hash = whole->hash;
    job->len = whole->len;
    job->loaded = true;
    if (job->out->res.parse_failed) {
        al_strbuf_printf(&job->messages, "alloclint: error: %s: could not be parsed\n", path);
        job->error = true;
    } else if (job->out->res.syntax_error && job->out->res.findings.n && opt->apply_safe) {
        al_strbuf_printf(&job->messages,
                         "alloclint: warning: %s: syntax errors; findings reported, no fix "
                         "applied\n",
                         path);
    } else if (job->out->res.fix_reverted) {
        al_strbuf_printf(&job->messages,
                         "alloclint: warning: %s: a fix made the file fail to parse; it was "
                         "not applied\n",
                         path);
    }
    if (job->out->res.fix_unconverged)
        al_strbuf_printf(&job->messages,
                         "alloclint: warning: %s: fixes did not converge after %d passes; "
                         "%zu fix%s left unapplied\n",
                         path, AL_LINT_MAX_PASSES, job->out->res.fix_unconverged,
                         job->out->res.fix_unconverged == 1 ? "" : "es");
    if (job->out->res.findings.n == 0 && job->out->res.initial.n == 0 && !job->out->res.fixed) {
        /* Nothing to report: give the memory back now. */
        al_job_release(job);
    } else if (!job->out->res.fixed && !job->out->nb && !src->has_nul && !src->excerpt) {
        /* Only reported: the lines the report needs stay, the rest of
         * the file goes (a run over a large repo holds hundreds of these
         * until the report is written). */
        size_t n_places;
        size_t *places = al_findings_places(&job->out->res.findings, &n_places);
        al_source kept;
        if (al_source_excerpt(src, places, n_places, &kept)) {
            al_source_free(&job->out->src);
            job->out->src = kept;
        }
        free(places);
    }
}

/* Runs fn(arg) on `threads` threads (0: one per CPU, never more than
 * `tasks`), this one included; fewer when a thread cannot be made. */
/* How many threads a run of `tasks` tasks uses when asked for `threads`
 * (0: one per CPU). */
static int thread_count(int threads, size_t tasks)
{
    if (threads <= 0) {
        long cpus = sysconf(_SC_NPROCESSORS_ONLN);
        threads = cpus > 0 ? (int)(cpus > MAX_THREADS ? MAX_THREADS : cpus) : 1;
    }
    if (threads > MAX_THREADS)
        threads = MAX_THREADS;
    if ((size_t)threads > tasks)
        threads = (int)(tasks ? tasks : 1);
    return threads;
}

static void run_on_threads(int threads, void *(*fn)(void *), void *arg)
{
    pthread_t tids[MAX_THREADS];
    int started = 0;
    for (int t = 1; t < threads; t++)
        if (pthread_create(&tids[started], NULL, fn, arg) == 0)
            started++;
    fn(arg);
    for (int t = 0; t < started; t++)
        pthread_join(tids[t], NULL);
}

/* The next file for the thread owning range `own`: from its front, or,
 * once it is done, from the back of the range with the most left. -1:
 * none left. */
static long next_file(pool *p, int own)
{
    for (int r = own;;) {
        file_range *fr = &p->ranges[r];
        pthread_mutex_lock(&fr->lock);
        long i = fr->front < fr->back ? (long)(r == own ? fr->front++ : --fr->back) : -1;
        pthread_mutex_unlock(&fr->lock);
        if (i >= 0)
            return i;
        size_t most = 0;
        r = -1;
        for (int k = 0; k < p->n_ranges; k++) {
            pthread_mutex_lock(&p->ranges[k].lock);
            size_t left = p->ranges[k].back - p->ranges[k].front;
            pthread_mutex_unlock(&p->ranges[k].lock);
            if (left > most) {
                most = left;
                r = k;
            }
        }
        if (r < 0)
            return -1;
    }
}

/* Each thread checks a contiguous range of the files, with a repo index
 * of its own when there are several threads: neighbouring files share
 * their callees, so a callee is mostly read by one thread, and no thread
 * waits for another's proof (one shared index serialised them: a cold
 * run over vLLM and SGLang spent 0.6 s of its 8 s of CPU waiting on its
 * lock; an index each is 0.94x the wall time, at no more peak memory). */
static void *worker(void *arg)
{
    pool *p = arg;
    int own = atomic_fetch_add(&p->next_range, 1);
    al_index *mine = p->shared && p->n_ranges > 1 ? al_index_new_like(p->shared) : NULL;
    for (long i; (i = next_file(p, own)) >= 0;) {
        al_lint_options o = *p->opt[i];
        if (mine && o.index == p->shared)
            o.index = mine;
        run_one(&p->jobs[i], p->paths[i], &o);
        /* The job holds nothing of the index now: what it parsed for the
         * next files stays within the index's budget. */
        if (o.index)
            al_index_release(o.index);
#ifdef __GLIBC__
        /* What the files released lies in holes of glibc's arenas, which
         * keep the pages: every so often give them back, so that a long
         * run's resident memory follows what it holds (a trim walks the
         * free lists: about a millisecond). */
        if (atomic_fetch_add(&p->done, 1) % TRIM_EVERY == TRIM_EVERY - 1)
            malloc_trim(0);
#else
        atomic_fetch_add(&p->done, 1);
#endif
    }
    if (mine) {
        al_index_absorb(p->shared, mine);
        al_index_free(mine);
    }
    return NULL;
}

static void *progress_line(void *arg)
{
    pool *p = arg;
    struct timespec start, now, pause = {0, 200 * 1000 * 1000};
    clock_gettime(CLOCK_MONOTONIC, &start);
    while (!atomic_load(&p->finished)) {
        clock_gettime(CLOCK_MONOTONIC, &now);
        double secs = (double)(now.tv_sec - start.tv_sec) + (now.tv_nsec - start.tv_nsec) / 1e9;
        fprintf(stderr, "\ralloclint: %zu/%zu files, %.1f s", atomic_load(&p->done), p->n, secs);
        fflush(stderr);
        nanosleep(&pause, NULL);
    }
    fprintf(stderr, "\r\033[K");
    fflush(stderr);
    return NULL;
}

void al_run_jobs(al_file_job *jobs, char *const *paths, size_t n,
                 const al_lint_options *const *opt, int threads, bool progress)
{
    pool *p = al_xcalloc(1, sizeof *p);
    p->jobs = jobs;
    p->paths = paths;
    p->n = n;
    p->opt = opt;
    p->shared = n ? opt[0]->index : NULL;
    p->n_ranges = thread_count(threads, n);
    for (int t = 0; t < p->n_ranges; t++) {
        pthread_mutex_init(&p->ranges[t].lock, NULL);
        p->ranges[t].front = n * (size_t)t / (size_t)p->n_ranges;
        p->ranges[t].back = n * (size_t)(t + 1) / (size_t)p->n_ranges;
    }
    pthread_t bar;
    bool bar_started = progress && pthread_create(&bar, NULL, progress_line, p) == 0;
    run_on_threads(p->n_ranges, worker, p);
    atomic_store(&p->finished, true);
    if (bar_started)
        pthread_join(bar, NULL);
    for (int t = 0; t < p->n_ranges; t++)
        pthread_mutex_destroy(&p->ranges[t].lock);
    free(p);
#ifdef __GLIBC__
    /* The threads' indexes are gone: their pages too, before the report
     * and the cache are written. */
    malloc_trim(0);
#endif
}

typedef struct {
    char *const *paths;
    size_t n;
    const al_file_hash *known;
    const al_file_seen *seen;
    bool stamp_only;
    al_file_hash *out;
    atomic_size_t next;
} hash_pool;

static void *hash_worker(void *arg)
{
    hash_pool *p = arg;
    for (;;) {
        size_t i = atomic_fetch_add(&p->next, 1);
        if (i >= p->n)
            break;
        al_file_hash *h = &p->out[i];
        /* Stamped before the read (here, or as the walk found it): a
         * write during it changes the stamp the next run sees, so these
         * bytes are never vouched for by a later state of the file. */
        if (p->seen && p->seen[i].stamped) {
            h->stamped = true;
            h->stamp = p->seen[i].stamp;
        } else {
            h->stamped = al_file_stamp_read(p->paths[i], &h->stamp);
        }
        if (p->stamp_only)
            continue;
        const al_file_hash *k = p->known ? &p->known[i] : NULL;
        if (h->stamped && k && k->ok && al_file_stamp_equal(&h->stamp, &k->stamp)) {
            h->hash = k->hash;
            h->len = k->len;
            h->ok = h->from_stamp = true;
            continue;
        }
        h->ok = al_source_hash_file(p->paths[i], &h->hash, &h->len) == AL_SOURCE_OK;
    }
    return NULL;
}

void al_hash_files(char *const *paths, size_t n, int threads, const al_file_hash *known,
                   const al_file_seen *seen, bool stamp_only, al_file_hash *out)
{
    memset(out, 0, n * sizeof *out);
    hash_pool p = {paths, n, known, seen, stamp_only, out, 0};
    run_on_threads(thread_count(threads, n), hash_worker, &p);
}
