#include "check_run.h"
#include "phase.h"

#include "../base/version.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Reads the cache of this run's settings (on its own thread while the
 * files are found). */
static void *load_cache(void *arg)
{
    cache_loader *l = arg;
    l->cache = al_cache_load(l->dir, l->settings, &l->warnings);
    return NULL;
}

void al_check_cache_start(run *r)
{
    char cwd[4096];
    al_strbuf k = {0};
    al_strbuf_printf(&k, "%s|%llx|%s|%d", ALLOCLINT_VERSION,
                     (unsigned long long)al_cache_build_id(), getcwd(cwd, sizeof cwd) ? cwd : "",
                     r->o->no_prefilter);
    r->loader.dir = r->cache_dir;
    r->loader.settings = al_cache_hash(k.data, k.len, 2);
    al_strbuf_free(&k);
    r->loader.started = pthread_create(&r->loader.thread, NULL, load_cache, &r->loader) == 0;
}

/* Reads the cache, hashes the run's files (by their stamps where the
 * cache vouches for them) and decides whether the project is as the
 * cache saw it. */
void al_check_cache_open(run *r)
{
    const al_check_options *o = r->o;
    if (r->loader.started) {
        pthread_join(r->loader.thread, NULL);
        r->loader.started = false;
    } else {
        load_cache(&r->loader);
    }
    r->cache = r->loader.cache;
    r->loader.cache = NULL;
    if (r->loader.warnings.len)
        fputs(r->loader.warnings.data, stderr);
    al_strbuf_free(&r->loader.warnings);
    double *clock = &r->clock;
    al_phase_done("cache", clock);
    al_file_hash *known = al_xcalloc_filled(r->files.n ? r->files.n : 1, sizeof *known);
    for (size_t i = 0; i < r->files.n; i++)
        known[i].ok = al_cache_stamped(r->cache, r->files.paths[i], &known[i].stamp,
                                       &known[i].hash, &known[i].len);
    al_file_hash *h = al_xcalloc_filled(r->files.n ? r->files.n : 1, sizeof *h);
    /* Nothing to look up (a first run): every file is read by its job,
     * which hashes it; reading it here first would read it twice. */
    r->hashes_from_jobs = al_cache_size(r->cache) == 0;
    al_hash_files(r->files.paths, r->files.n, o->threads, known, r->files.seen,
                  r->hashes_from_jobs, h);
    free(known);
    al_phase_done("hash", clock);
    if (!r->hashes_from_jobs)
        r->fingerprint = al_cachekey_project(&r->files, h);
    r->project_ok = !r->hashes_from_jobs && r->fingerprint == al_cache_fingerprint(r->cache) &&
                    al_cachekey_deps_unchanged(r->cache, &r->files, h);
    al_phase_done("deps", clock);
    al_cache_keep_project(r->cache, r->project_ok);
    r->hashes = h;
}

/* Marks the jobs the cache answers: same bytes, same options, and for
 * results that used the index, the same project. */
void al_check_cache_lookup(run *r, al_file_job *jobs)
{
    const al_file_hash *h = r->hashes;
    double *clock = &r->clock;
    r->options = al_xcalloc(r->files.n ? r->files.n : 1, sizeof *r->options);
    const al_op_table *memo_ops = NULL;
    uint64_t memo_hash = al_cachekey_ops(NULL);
    for (size_t i = 0; i < r->files.n; i++) {
        r->options[i] =
            al_cachekey_options(r->per_file[i], r->files.paths[i], &memo_ops, &memo_hash);
        al_findings f;
        al_source *excerpt;
        if (!h[i].ok ||
            !al_cache_get(r->cache, r->files.paths[i], h[i].hash, h[i].len, r->options[i],
                          r->project_ok, &f, &excerpt))
            continue;
        bool wants_fix = false;
        for (size_t k2 = 0; k2 < f.n && !wants_fix; k2++)
            wants_fix = al_lint_fix_wanted(r->per_file[i], f.items[k2].fix);
        if (wants_fix) {
            al_findings_free(&f); /* fixes are made from the file itself */
            if (excerpt)
                al_source_free(excerpt);
            free(excerpt);
            continue;
        }
        jobs[i].cache_hit = true;
        jobs[i].cached = al_xmalloc(sizeof *jobs[i].cached);
        *jobs[i].cached = (al_job_cached){f, h[i].hash, excerpt};
        /* Read and hashed this time: the next run may take the stamp. */
        if (!h[i].from_stamp && h[i].stamped)
            r->restamped |= al_cache_restamp(r->cache, r->files.paths[i], h[i].hash, h[i].len,
                                             &h[i].stamp, r->started);
    }
    al_phase_done("lookup", clock);
}

/* Keeps a result analysed this run, when it said nothing on stderr and
 * left the file as it was. */
void al_check_cache_store(run *r, size_t i, const al_file_job *job)
{
    if (!r->cache || !job->linted || job->error || job->messages.len ||
        job->cxx_unchecked ||
        (job->loaded && job->out->res.fixed))
        return;
    al_findings none = {0};
    /* The stamp vouches only for the bytes analysed. */
    const al_file_hash *h = &r->hashes[i];
    bool same = h->ok && h->stamped && h->hash == job->hash && h->len == job->len;
    al_cache_put(r->cache, r->files.paths[i], job->hash, job->len, r->options[i],
                 job->used_index, job->loaded ? &job->out->res.findings : &none,
                 job->loaded ? &job->out->src : NULL, same ? &h->stamp : NULL, r->started);
}

static int compare_deps(const void *x, const void *y)
{
    return strcmp(((const al_cache_dep *)x)->path, ((const al_cache_dep *)y)->path);
}

/* The files the index read (and, when the project is unchanged, those
 * the cache's run read), once each, then the cache written. */
void al_check_cache_save(run *r)
{
    al_cache_dep *deps = NULL;
    size_t n = 0, cap = 0;
    if (r->project_ok) {
        size_t old_n;
        const al_cache_dep *old = al_cache_deps(r->cache, &old_n);
        for (size_t i = 0; i < old_n; i++) {
            al_cache_dep d = {old[i].path, old[i].hash};
            AL_PUSH(deps, n, cap, d);
        }
    }
    size_t n_reads;
    const al_index_read *reads = al_index_reads(r->index, &n_reads);
    for (size_t i = 0; i < n_reads; i++)
        if (reads[i].read) {
            al_cache_dep d = {reads[i].path, reads[i].hash};
            AL_PUSH(deps, n, cap, d);
        }
    if (n > 1)
        qsort(deps, n, sizeof *deps, compare_deps);
    size_t kept = 0;
    for (size_t i = 0; i < n; i++)
        if (!kept || strcmp(deps[kept - 1].path, deps[i].path))
            deps[kept++] = deps[i];
        else if (deps[kept - 1].hash != deps[i].hash)
            deps[kept - 1].hash = 0; /* changed while read: never matches */
    al_strbuf err = {0};
    if (!al_cache_save(r->cache, r->cache_dir, r->fingerprint, deps, kept, &err))
        fprintf(stderr, "alloclint: warning: the cache was not written: %s\n", err.data);
    al_strbuf_free(&err);
    free(deps);
}

