#include "check.h"
#include "check_run.h"
#include "phase.h"

#include "../analysis/core/index.h"
#include "../analysis/core/ops.h"
#include "../analysis/core/schema.h"
#include "../engine/atomic.h"
#include "../run/cache.h"
#include "../run/cachekey.h"
#include "../run/config.h"
#include "../front/cxx/compdb.h"
#include "../front/cxx/cxx.h"
#include "../front/python/pyast.h"
#include "../engine/diff.h"
#include "../run/jobs.h"
#include "../engine/lint.h"
#include "../profile/cost.h"
#include "../profile/profile.h"
#include "../base/paths.h"
#include "../rules/rules.h"
#include "../base/source.h"
#include "../base/util.h"
#include "../base/version.h"

#include <errno.h>
#include <limits.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

void al_check_options_free(al_check_options *o)
{
    free(o->ignores.items);
    free(o->extends.items);
    free(o->cxx_args.items);
    free(o->paths.items);
    free(o->profiles.items);
    memset(&o->profiles, 0, sizeof o->profiles);
    memset(&o->ignores, 0, sizeof o->ignores);
    memset(&o->extends, 0, sizeof o->extends);
    memset(&o->cxx_args, 0, sizeof o->cxx_args);
    memset(&o->paths, 0, sizeof o->paths);
}

/* Applies one selector list; unknown codes are reported on stderr. */
static bool select_rules(bool *enabled, const char *list, bool value)
{
    al_strlist unknown = {0};
    bool ok = al_rules_select(enabled, list, value, &unknown);
    for (size_t i = 0; i < unknown.n; i++)
        fprintf(stderr, "alloclint: error: unknown rule selector `%s`\n", unknown.items[i]);
    al_strlist_free(&unknown);
    return ok;
}

/* The rules a file is checked with. An explicit --select replaces the
 * config's whole selection (select, extend-select and ignore): the
 * command line wins. Otherwise: the config's select, else the defaults,
 * then extend-select and ignore. --extend-select, --ignore and the
 * config's per-file-ignores apply in both cases. */
bool al_check_rules_for(const al_check_options *o, const al_config *cfg, const char *path,
                        bool *enabled, al_config_error *err)
{
    bool ok = true;
    for (size_t r = 0; r < al_rules_count; r++)
        enabled[r] = al_rules[r].default_on && !(o->select || (cfg && cfg->has_select));
    if (o->select) {
        select_rules(enabled, o->select, true);
    } else if (cfg) {
        for (size_t i = 0; i < cfg->select.n; i++)
            ok &= select_rules(enabled, cfg->select.items[i], true);
        for (size_t i = 0; i < cfg->extend_select.n; i++)
            ok &= select_rules(enabled, cfg->extend_select.items[i], true);
    }
    for (size_t k = 0; k < o->extends.n; k++)
        select_rules(enabled, o->extends.items[k], true);
    if (cfg) {
        for (size_t i = 0; !o->select && i < cfg->ignore.n; i++)
            ok &= select_rules(enabled, cfg->ignore.items[i], false);
        al_strlist pfi = {0};
        al_config_file_ignores(cfg, path, &pfi);
        for (size_t i = 0; i < pfi.n; i++)
            ok &= select_rules(enabled, pfi.items[i], false);
        al_strlist_free(&pfi);
    }
    for (size_t k = 0; k < o->ignores.n; k++)
        select_rules(enabled, o->ignores.items[k], false);
    if (!ok)
        snprintf(err->message, sizeof err->message, "%s: unknown rule code in the configuration",
                 cfg->path);
    return ok;
}

/* The path a patch names: relative to the current directory, as `git
 * apply` and `patch -p1` expect from its root. */
static char *diff_path(const char *path)
{
    char cwd[4096], real[4096];
    const char *p = path;
    if (path[0] == '/' && getcwd(cwd, sizeof cwd) && realpath(path, real)) {
        size_t n = strlen(cwd);
        if (strncmp(real, cwd, n) == 0 && real[n] == '/')
            return al_xstrdup(real + n + 1);
    }
    while (p[0] == '.' && p[1] == '/')
        p += 2;
    while (*p == '/')
        p++; /* outside the current directory: the best a patch can say */
    return al_xstrdup(p);
}

static void run_free(run *r)
{
    if (r->loader.started)
        pthread_join(r->loader.thread, NULL);
    al_cache_free(r->loader.cache);
    al_strbuf_free(&r->loader.warnings);
    al_cache_free(r->cache);
    free(r->options);
    free(r->hashes);
    al_strbuf_free(&r->stdin_bytes);
    al_strbuf_free(&r->patch);
    al_strbuf_free(&r->shown);
    free(r->per_file);
    for (size_t i = 0; i < r->n_option_sets; i++)
        free(r->option_sets[i]);
    free(r->option_sets);
    if (r->configs)
        al_config_cache_free(r->configs);
    al_report_free(r->report);
    al_report_free(r->unfixed);
    al_file_list_free(&r->files);
    al_ops_free(&r->ops);
    al_compdb_free(&r->compdb);
    al_index_free(r->index);
    if (r->profile)
        al_profile_free(r->profile);
    free(r->profile);
}

/* As clang-tidy does: the build's own flags for each C++/CUDA file. An
 * explicit --build-dir must be readable; a database found in ./ or
 * ./build is used when sound and reported (not fatal) when broken. */
static bool load_compdb(run *r)
{
    const al_check_options *o = r->o;
    char cerr[512];
    if (o->build_dir) {
        int got = al_compdb_load(&r->compdb, o->build_dir, cerr, sizeof cerr);
        if (got == 0)
            snprintf(cerr, sizeof cerr, "%s/compile_commands.json: no such file", o->build_dir);
        if (got <= 0) {
            fprintf(stderr, "alloclint: error: %s\n", cerr);
            al_compdb_free(&r->compdb);
            return false;
        }
        return true;
    }
    bool has_cxx = false;
    for (size_t i = 0; i < r->files.n && !has_cxx; i++)
        has_cxx = al_is_cxx_path(r->files.paths[i]);
    if (!has_cxx || !al_cxx_built())
        return true;
    int got = al_compdb_load(&r->compdb, ".", cerr, sizeof cerr);
    if (got == 0)
        got = al_compdb_load(&r->compdb, "build", cerr, sizeof cerr);
    if (got < 0 && !o->quiet)
        fprintf(stderr, "alloclint: warning: %s; C++/CUDA files are parsed with the defaults\n",
                cerr);
    if (got <= 0)
        al_compdb_free(&r->compdb);
    return true;
}

static bool same_options(const al_lint_options *a, const al_lint_options *b)
{
    return !memcmp(a->enabled, b->enabled, sizeof a->enabled) && a->ops == b->ops &&
           a->apply_safe == b->apply_safe && a->apply_unsafe == b->apply_unsafe &&
           a->cxx_args == b->cxx_args && a->n_cxx_args == b->n_cxx_args &&
           a->compdb == b->compdb && a->index == b->index && a->cwd == b->cwd &&
           a->no_prefilter == b->no_prefilter && a->inference == b->inference &&
           a->line_length == b->line_length && a->declined == b->declined;
}

/* The run's one copy of options like o. */
static const al_lint_options *option_set(run *r, const al_lint_options *o)
{
    for (size_t i = r->n_option_sets; i-- > 0;)
        if (same_options(r->option_sets[i], o))
            return r->option_sets[i];
    al_lint_options *copy = al_xmalloc(sizeof *copy);
    *copy = *o;
    r->option_sets = al_xrealloc(r->option_sets, (r->n_option_sets + 1) * sizeof *r->option_sets);
    r->option_sets[r->n_option_sets++] = copy;
    return copy;
}

/* Each file's configuration: exclusions, rules, op summaries. Drops the
 * excluded files from the list. */
static bool configure_files(run *r, const al_lint_options *lo)
{
    const al_check_options *o = r->o;
    r->configs = al_config_cache_new();
    al_config_cache_set_walk(r->configs, &r->files);
    r->per_file = al_xcalloc_filled(r->files.n ? r->files.n : 1, sizeof *r->per_file);
    size_t kept = 0;
    for (size_t i = 0; i < r->files.n; i++) {
        const al_config *cfg = NULL;
        al_config_error cerr;
        if (!al_config_for(r->configs, r->files.paths[i], al_file_list_is_regular(&r->files, i),
                           &cfg, &cerr)) {
            fprintf(stderr, "alloclint: error: %s\n", cerr.message);
            /* The rest of the list is released with it. */
            for (size_t k = i; k < r->files.n; k++)
                al_file_list_move(&r->files, kept + k - i, k);
            r->files.n = kept + r->files.n - i;
            return false;
        }
        bool named = r->from_stdin;
        for (size_t p = 0; p < o->paths.n; p++)
            if (!strcmp(o->paths.items[p], r->files.paths[i]))
                named = true;
        if (cfg && (!named || o->discover.force_exclude) &&
            al_config_excludes(cfg, r->files.paths[i])) {
            free(r->files.paths[i]);
            continue;
        }
        al_lint_options fo = *lo;
        if (!al_check_rules_for(o, cfg, r->files.paths[i], fo.enabled, &cerr)) {
            fprintf(stderr, "alloclint: error: %s\n", cerr.message);
            r->error = true;
        }
        if (cfg) {
            fo.ops = &cfg->ops;
            fo.inference = cfg->inference;
            if (o->unsafe_fixes < 0 && cfg->unsafe_fixes >= 0)
                fo.apply_unsafe = cfg->unsafe_fixes;
        }
        fo.line_length = al_config_line_length(r->configs, r->files.paths[i]);
        r->per_file[kept] = option_set(r, &fo);
        al_file_list_move(&r->files, kept++, i);
    }
    r->files.n = kept;
    return true;
}

/* The file as read: the source, or the notebook holding it. */
static const al_source *file_of(const al_file_job *job)
{
    return job->out->nb ? &job->out->nb->container : &job->out->src;
}

/* --add-noqa: a directive on every line with a finding, written in place. */
static int add_noqa(run *r)
{
    size_t total = 0, touched = 0;
    for (size_t i = 0; i < r->files.n; i++) {
        al_file_job job;
        memset(&job, 0, sizeof job);
        if (!al_job_load(&job, r->files.paths[i])) {
            fputs(job.messages.data ? job.messages.data : "", stderr);
            r->error |= job.error;
            al_strbuf_free(&job.messages);
            al_job_release(&job);
            continue;
        }
        size_t added = 0, len = 0, out_len = 0;
        char *text = al_lint_add_noqa(&job.out->src, r->per_file[i], &added, &len);
        char *out = text ? al_job_output(&job, text, len, &out_len) : NULL;
        if (out) {
            const al_source *file = file_of(&job);
            int err;
            al_write_status ws = al_write_atomic(file->path, out, out_len, file->hash, &err);
            if (ws == AL_WRITE_OK) {
                total += added;
                touched++;
            } else {
                fprintf(stderr, "alloclint: error: %s: %s; not rewritten\n", file->path,
                        ws == AL_WRITE_CHANGED ? "changed on disk while alloclint was running"
                                               : strerror(err));
                r->error = true;
            }
        } else if (text) {
            r->error = true; /* a notebook whose cells could not be written back */
        }
        free(out);
        free(text);
        if (job.messages.len)
            fputs(job.messages.data, stderr);
        al_strbuf_free(&job.messages);
        al_job_release(&job);
    }
    if (!r->o->quiet)
        printf("Added %zu noqa directive%s to %zu file%s.\n", total, total == 1 ? "" : "s",
               touched, touched == 1 ? "" : "s");
    return r->error ? AL_EXIT_ERROR : AL_EXIT_CLEAN;
}

/* Operator schemas of the C++ sources (TORCH_LIBRARY ... def("op(Tensor!
 * out, ...)")): which argument of a torch.ops call is written. */
static void read_schemas(run *r)
{
    al_op_table schemas = {0};
    size_t n_cxx = 0;
    for (size_t i = 0; i < r->files.n; i++) {
        if (!al_is_cxx_path(r->files.paths[i]))
            continue;
        n_cxx++;
        const char *path = r->files.paths[i];
        al_op_table mine = {0};
        /* The cache knows what these bytes held. */
        if (!r->cache || !r->hashes[i].ok ||
            !al_cache_schemas(r->cache, path, r->hashes[i].hash, &mine)) {
            /* The bytes only: a file's analysis (lines, UTF-8) is for rules. */
            char *bytes;
            size_t len;
            int err;
            if (al_file_read_bytes(path, &bytes, &len, &err) != AL_SOURCE_OK)
                continue;
            if (memmem(bytes, len, "TORCH_LIBRARY", 13))
                al_schema_scan(bytes, len, path, &mine);
            if (r->cache)
                al_cache_put_schemas(r->cache, path, al_hash_bytes(bytes, len), &mine);
            free(bytes);
        } else {
            al_cache_put_schemas(r->cache, path, r->hashes[i].hash, &mine);
        }
        for (size_t k = 0; k < mine.n; k++)
            AL_PUSH(schemas.items, schemas.n, schemas.cap, mine.items[k]);
        mine.n = 0; /* moved; what ops return is read by the index, not here */
        al_ops_free(&mine);
    }
    if (schemas.n) {
        al_config_cache_add_ops(r->configs, &schemas);
        al_ops_append(&r->ops, &schemas);
    }
    al_ops_free(&schemas);
    if (n_cxx && !al_cxx_built() && !r->o->quiet)
        fprintf(stderr, "alloclint: notice: %zu C++/CUDA file%s not checked: this alloclint "
                        "was built without libclang\n",
                n_cxx, n_cxx == 1 ? "" : "s");
}

static bool same_group(const al_applied_fix *a, const al_applied_fix *b)
{
    return !strcmp(a->code, b->code) && a->tier == b->tier && a->revealed == b->revealed;
}

/* "- path:" then "    N × CODE (name), tier" per rule and tier, over every
 * pass; fixes found only in text an earlier fix wrote counted apart. */
static void list_fixed(al_strbuf *shown, const char *path, const al_lint_result *res)
{
    al_strbuf_printf(shown, "- %s:\n", path);
    for (size_t k = 0; k < res->n_applied; k++) {
        const al_applied_fix *fix = &res->applied[k];
        bool seen = false;
        for (size_t j = 0; j < k && !seen; j++)
            seen = same_group(&res->applied[j], fix);
        if (seen)
            continue;
        size_t count = 0;
        for (size_t j = k; j < res->n_applied; j++)
            count += same_group(&res->applied[j], fix);
        const al_rule *rule = al_rule_find(fix->code);
        al_strbuf_printf(shown, "    %zu \xc3\x97 %s (%s), %s", count, fix->code,
                         rule ? rule->name : "", al_applicability_name(fix->tier));
        if (fix->revealed)
            al_strbuf_puts(shown, ", found after an earlier fix");
        al_strbuf_putc(shown, '\n');
    }
}

/* The fixes of a file, counted for the --diff summary. */
static void count_fixes(run *r, const al_lint_result *res)
{
    for (size_t k = 0; k < res->n_applied; k++) {
        r->fixed_unsafe += res->applied[k].tier == AL_FIX_UNSAFE;
        r->fixed_later += res->applied[k].revealed;
    }
}

/* The fixed source as the report shows it: for a notebook, its cells are
 * read again from the rewritten JSON, so that rows count within cells. */
static void add_fixed(al_report *report, const al_file_job *job, const char *out, size_t out_len)
{
    const al_lint_result *res = &job->out->res;
    al_source fixed_src;
    al_source_from_memory(&fixed_src, job->out->src.path, res->fixed, res->fixed_len);
    al_notebook again;
    bool cells = false;
    if (job->out->nb) {
        char *err = NULL;
        if (al_notebook_parse(out, out_len, &again, &err)) {
            cells = again.python_len == res->fixed_len &&
                    !memcmp(again.python, res->fixed, res->fixed_len);
            if (cells)
                fixed_src.notebook = &again;
            else
                al_notebook_free(&again);
        }
        free(err);
    }
    al_report_add(report, &fixed_src, &res->findings);
    al_source_free(&fixed_src);
    if (cells)
        al_notebook_free(&again);
}

static void take_diff(run *r, al_file_job *job)
{
    const al_lint_result *res = &job->out->res;
    size_t out_len = 0;
    char *out = res->fixed ? al_job_output(job, res->fixed, res->fixed_len, &out_len) : NULL;
    if (!out) {
        al_report_add(r->unfixed, &job->out->src, res->fixed ? &res->initial : &res->findings);
        size_t n = res->fixed ? res->initial.n : res->findings.n;
        r->total_remaining += n;
        r->total_unapplied += n;
        r->error |= res->fixed != NULL;
        return;
    }
    const al_source *file = file_of(job);
    char *rel = diff_path(file->path);
    al_diff_unified(&r->patch, rel, file->bytes, file->len, out, out_len, 3);
    free(rel);
    free(out);
    /* Report what the patch leaves of the file's findings, where they stand
     * in the file (which --diff leaves as it is): not what only the patched
     * text would have. */
    al_findings left = {0};
    for (size_t i = 0; i < res->initial.n; i++)
        if (res->initial_remaining[i])
            AL_PUSH(left.items, left.n, left.cap, res->initial.items[i]);
    al_report_add(r->unfixed, &job->out->src, &left);
    r->total_unapplied += left.n;
    free(left.items);
    /* The checked file is unchanged: all it was found with remains. */
    r->total_remaining += res->initial.n;
    r->total_fixed += res->n_fixed;
    count_fixes(r, res);
    if (r->o->show_fixes)
        list_fixed(&r->shown, job->out->src.path, res);
}

/* --fix on standard input: the source, fixed or not, goes to stdout (as
 * ruff does for editors); the report goes to stderr. */
static void fix_to_stdout(run *r, const char *bytes, size_t len)
{
    if ((len && fwrite(bytes, 1, len, stdout) != len) || fflush(stdout) != 0) {
        fprintf(stderr, "alloclint: error: writing the fixed source to stdout failed\n");
        r->error = true;
    }
}

static void take_findings(run *r, const al_source *src, const al_lint_result *res)
{
    al_report_add(r->report, src, &res->findings);
    r->total_remaining += res->findings.n;
}

/* What remains after fixing, at its place in the fixed source. */
static void take_fixed_findings(run *r, const al_file_job *job, const char *out, size_t out_len)
{
    if (r->o->show_fixes)
        list_fixed(&r->shown, job->out->src.path, &job->out->res);
    add_fixed(r->report, job, out, out_len);
    const al_lint_result *res = &job->out->res;
    for (size_t k = 0; k < res->n_applied; k++) {
        const al_applied_fix *fix = &res->applied[k];
        const al_rule *rule = al_rule_find(fix->code);
        al_report_add_applied(r->report, &job->out->src, fix->start, fix->code,
                              rule ? rule->name : "", fix->tier, fix->revealed, fix->message,
                              fix->fix_message);
    }
    r->total_fixed += job->out->res.n_fixed;
    r->total_remaining += job->out->res.findings.n;
}

/* --fix: the fixed bytes written in place (or to stdout for `-`). */
static void take_fix(run *r, al_file_job *job)
{
    const al_lint_result *res = &job->out->res;
    const al_source *file = file_of(job);
    size_t out_len = 0;
    char *out = al_job_output(job, res->fixed, res->fixed_len, &out_len);
    if (!out) {
        r->error = true;
        take_findings(r, &job->out->src, &(al_lint_result){.findings = res->initial});
        return;
    }
    if (r->from_stdin) {
        fix_to_stdout(r, out, out_len);
        r->stdin_written = true;
        take_fixed_findings(r, job, out, out_len);
        free(out);
        return;
    }
    int err;
    al_write_status ws = al_write_atomic(file->path, out, out_len, file->hash, &err);
    if (ws != AL_WRITE_OK) {
        if (ws == AL_WRITE_CHANGED)
            fprintf(stderr, "alloclint: error: %s: changed on disk while alloclint was "
                            "running; not rewritten\n",
                    file->path);
        else
            fprintf(stderr, "alloclint: error: %s: cannot write the fixed file: %s; "
                            "original left unchanged\n",
                    file->path, strerror(err));
        r->error = true;
        take_findings(r, &job->out->src, &(al_lint_result){.findings = res->initial});
    } else {
        take_fixed_findings(r, job, out, out_len);
    }
    free(out);
}

/* --profile: the traces, read before any file is checked, so that a trace
 * that cannot be read stops the run with nothing written. */
static bool load_profile(run *r)
{
    char err[600];
    r->profile = al_xcalloc(1, sizeof *r->profile);
    if (!al_profile_load(r->profile, r->o->profiles.items, r->o->profiles.n, r->files.paths,
                         r->files.n, err, sizeof err)) {
        fprintf(stderr, "alloclint: error: %s\n", err);
        free(r->profile);
        r->profile = NULL;
        return false;
    }
    al_phase_done("profile", &r->clock);
    return true;
}

/* Phase 1, in parallel: load, check and fix each file in memory (or take
 * its findings from the cache). Phase 2, in order: messages, writes and
 * the report. */
static void check_files(run *r)
{
    const al_check_options *o = r->o;
    al_file_job *jobs = al_xcalloc_filled(r->files.n ? r->files.n : 1, sizeof *jobs);
    /* A progress line only on a terminal, and only when it is worth it. */
    bool progress = r->files.n > 2000 && isatty(STDERR_FILENO) && !o->quiet;
    if (r->from_stdin && r->files.n == 1) {
        if (al_job_from_memory(&jobs[0], r->files.paths[0], r->stdin_bytes.data,
                               r->stdin_bytes.len))
            al_run_job_loaded(&jobs[0], r->per_file[0]);
    } else {
        if (r->cache)
            al_check_cache_lookup(r, jobs);
        al_run_jobs(jobs, r->files.paths, r->files.n, r->per_file, o->threads, progress);
    }
    size_t cxx_unchecked = 0, analysed = 0;
    for (size_t i = 0; i < r->files.n; i++) {
        al_file_job *job = &jobs[i];
        if (r->cache && r->hashes_from_jobs && job->linted) {
            r->hashes[i].hash = job->hash;
            r->hashes[i].len = job->len;
            r->hashes[i].ok = true;
        }
        al_check_cache_store(r, i, job);
        analysed += job->linted;
        cxx_unchecked += job->cxx_unchecked;
        if (job->error)
            r->error = true;
        if (job->loaded && r->profile)
            /* Costs are placed by the bytes of the file as it is: a
             * fixed file's findings keep theirs on its first findings. */
            al_cost_attach(&r->profile->sites, job->out->src.path,
                           job->out->res.fixed ? &job->out->res.initial : &job->out->res.findings);
        if (job->loaded) {
            if (o->diff)
                take_diff(r, job);
            else if (o->fix && job->out->res.fixed)
                take_fix(r, job);
            else
                take_findings(r, &job->out->src, &job->out->res);
        }
        if (job->messages.len)
            fputs(job->messages.data, stderr);
        al_job_release(job);
        al_strbuf_free(&job->messages);
    }
    /* Built with libclang, but it would not load here (the notice for a
     * build without it came before the run). */
    if (cxx_unchecked && al_cxx_built() && !o->quiet)
        fprintf(stderr, "alloclint: warning: %zu C++/CUDA file%s not checked: %s\n", cxx_unchecked,
                cxx_unchecked == 1 ? "" : "s", al_cxx_unavailable_reason());
    if (getenv("ALLOCLINT_CACHE_STATS")) {
        size_t hits = 0, linted = 0, index_users = 0;
        for (size_t i = 0; i < r->files.n; i++) {
            hits += jobs[i].cache_hit;
            linted += jobs[i].linted;
            index_users += jobs[i].used_index;
        }
        fprintf(stderr, "alloclint: cache: %zu hits, %zu analysed (%zu used the index), project %s\n",
                hits, linted, index_users, r->project_ok ? "unchanged" : "changed");
    }
    free(jobs);
    /* Nothing analysed, and the project as the cache saw it: the cache
     * would be written back byte for byte. */
    if (r->cache && r->hashes_from_jobs)
        r->fingerprint = al_cachekey_project(&r->files, r->hashes);
    if (r->cache && (analysed || !r->project_ok || r->restamped))
        al_check_cache_save(r);
    /* Nothing fixed (or excluded, or not readable as source): the source
     * comes back as it was, so an editor's buffer is never emptied. */
    if (r->from_stdin && o->fix && !r->stdin_written)
        fix_to_stdout(r, r->stdin_bytes.data, r->stdin_bytes.len);
}

static void print_summary(FILE *out, const run *r)
{
    const al_check_options *o = r->o;
    size_t remaining = r->total_remaining, fixed = r->total_fixed;
    if (o->quiet || o->format == AL_FORMAT_JSON || o->format == AL_FORMAT_JSON_LINES ||
        o->format == AL_FORMAT_GITHUB || o->format == AL_FORMAT_SARIF)
        return;
    if (remaining == 0 && fixed == 0) {
        /* A file that could not be checked is no pass. */
        fprintf(out, r->error ? "No findings in the files checked; some could not be (see the "
                                "errors).\n"
                              : "All checks passed!\n");
        return;
    }
    if (fixed)
        fprintf(out, "Found %zu finding%s (%zu fixed, %zu remaining).\n", remaining + fixed,
                remaining + fixed == 1 ? "" : "s", fixed, remaining);
    else
        fprintf(out, "Found %zu finding%s.\n", remaining, remaining == 1 ? "" : "s");
    if (!o->fix && !o->diff) {
        size_t fixable_safe = al_report_fixable(r->report, false);
        size_t fixable_unsafe = al_report_fixable(r->report, true);
        size_t fixable = fixable_safe + (r->unsafe_fixes ? fixable_unsafe : 0);
        if (fixable)
            fprintf(out, "[*] %zu fixable with the `--fix` option", fixable);
        if (!r->unsafe_fixes && fixable_unsafe)
            fprintf(out, "%s%zu hidden fix%s can be enabled with the `--unsafe-fixes` option",
                    fixable ? " (" : "", fixable_unsafe, fixable_unsafe == 1 ? "" : "es");
        if (fixable && !r->unsafe_fixes && fixable_unsafe)
            fputc(')', out);
        if (fixable || (!r->unsafe_fixes && fixable_unsafe))
            fputs(".\n", out);
    }
}

static void write_output(run *r)
{
    const al_check_options *o = r->o;
    FILE *out = r->from_stdin && o->fix ? stderr : stdout;
    if (o->output_file) {
        out = fopen(o->output_file, "w");
        if (!out) {
            fprintf(stderr, "alloclint: error: %s: %s\n", o->output_file, strerror(errno));
            r->error = true;
            return;
        }
    }
    bool ok;
    if (o->diff) {
        ok = r->patch.len == 0 || fwrite(r->patch.data, 1, r->patch.len, out) == r->patch.len;
        al_report_write(r->unfixed, stderr);
        if (!o->quiet) {
            fprintf(stderr, "%zu fix%s in the diff", r->total_fixed,
                    r->total_fixed == 1 ? "" : "es");
            if (r->fixed_unsafe || r->fixed_later)
                fprintf(stderr, " (%zu unsafe, %zu found after an earlier fix)", r->fixed_unsafe,
                        r->fixed_later);
            fprintf(stderr, "; %zu finding%s without an applied fix.\n", r->total_unapplied,
                    r->total_unapplied == 1 ? "" : "s");
            if (r->shown.len)
                fprintf(stderr, "Fixed:\n%s", r->shown.data);
        }
    } else {
        ok = al_report_write(r->report, out);
        print_summary(out, r);
        if (r->shown.len && !o->quiet)
            fprintf(out, "Fixed:\n%s", r->shown.data);
    }
    if (out != stdout && out != stderr) {
        if (fclose(out) != 0)
            ok = false;
    } else if (fflush(out) != 0) {
        ok = false;
    }
    if (!ok) {
        fprintf(stderr, "alloclint: error: writing the output failed\n");
        r->error = true;
    }
}

/* The one source of `check -`, named by --stdin-filename (else `-`). */
static bool read_stdin(run *r)
{
    bool too_large;
    if (!al_strbuf_read(&r->stdin_bytes, stdin, AL_SOURCE_MAX_BYTES, &too_large)) {
        if (too_large)
            fprintf(stderr, "alloclint: error: standard input: larger than %u MiB\n",
                    AL_SOURCE_MAX_BYTES >> 20);
        else
            fprintf(stderr, "alloclint: error: standard input: read error\n");
        return false;
    }
    const char *name = r->o->stdin_filename ? r->o->stdin_filename : "-";
    al_file_list_add(&r->files, name);
    return true;
}

/* A check parses thousands of trees and frees each soon after: glibc's
 * defaults hand large blocks back to the kernel (mmap, trimming the heap)
 * only to fault them in again for the next file. Keeping them costs no
 * peak memory and 1.3 % of a cold run's CPU over both engines
 * (bench/results/speed.md). */
static void keep_freed_memory(void)
{
#ifdef __GLIBC__
    (void)mallopt(M_MMAP_THRESHOLD, 32 << 20);
    (void)mallopt(M_TRIM_THRESHOLD, 256 << 20);
    (void)mallopt(M_TOP_PAD, 64 << 20);
#endif
}

int al_check_run(const al_check_options *o)
{
    keep_freed_memory();
    run r;
    memset(&r, 0, sizeof r);
    r.o = o;
    r.unsafe_fixes = o->unsafe_fixes > 0;
    int rc = AL_EXIT_ERROR;
    al_ops_error operr;
    if (!al_ops_load_builtin(&r.ops, &operr)) {
        fprintf(stderr, "alloclint: error: built-in op table: %s\n", operr.message);
        goto done;
    }
    r.clock = al_phase_now();
    r.started = al_file_stamp_now();
    r.from_stdin = (o->paths.n == 1 && !strcmp(o->paths.items[0], "-")) ||
                   (o->paths.n == 0 && o->stdin_filename);
    if (!o->no_cache && !r.from_stdin) {
        const char *env = getenv("ALLOCLINT_CACHE_DIR");
        r.cache_dir = o->cache_dir ? o->cache_dir : env && *env ? env : ".alloclint_cache";
        al_check_cache_start(&r);
    }
    if (r.from_stdin) {
        if (!read_stdin(&r))
            goto done;
    } else {
        char *dot = ".";
        char *const *roots = o->paths.n ? (char *const *)o->paths.items : &dot;
        al_discover_options found = o->discover;
        found.stamps = r.cache_dir != NULL; /* for the cache's comparison */
        al_discover(&r.files, roots, o->paths.n ? o->paths.n : 1, &found);
    }
    al_phase_done("discover", &r.clock);
    for (size_t i = 0; i < r.files.n_errors; i++) {
        fprintf(stderr, "alloclint: error: %s\n", r.files.errors[i]);
        r.error = true;
    }
    if (o->since) {
        char serr[512];
        if (!al_keep_changed_since(&r.files, o->since, serr, sizeof serr)) {
            fprintf(stderr, "alloclint: error: %s\n", serr);
            goto done;
        }
    }
    al_lint_options lo;
    memset(&lo, 0, sizeof lo);
    lo.ops = &r.ops;
    lo.apply_safe = o->fix || o->diff;
    lo.apply_unsafe = r.unsafe_fixes;
    r.index = al_index_new();
    lo.index = r.index;
    char cwd[4096];
    lo.cwd = getcwd(cwd, sizeof cwd) ? cwd : NULL;
    lo.no_prefilter = o->no_prefilter;
    al_index_parse_whole(r.index, o->no_prefilter);
    lo.cxx_args = o->cxx_args.items;
    lo.n_cxx_args = (int)o->cxx_args.n;
    if (!load_compdb(&r))
        goto done;
    lo.compdb = &r.compdb;

    for (size_t k = 0; k < al_rules_count; k++)
        r.rule_info[k] = (al_report_rule){al_rules[k].code, al_rules[k].name, al_rules[k].summary,
                                          al_rules[k].default_on};
    if (o->diff)
        r.unfixed = al_report_new(&(al_report_options){AL_FORMAT_CONCISE, true, r.unsafe_fixes,
                                                       false, false, r.rule_info, al_rules_count,
                                                       false, false});
    if (!configure_files(&r, &lo))
        goto done;
    if (o->add_noqa) {
        rc = add_noqa(&r);
        goto done;
    }
    al_phase_done("configure", &r.clock);
    al_config_cache_forget_folders(r.configs);
    if (r.cache_dir)
        al_check_cache_open(&r);
    /* The walk's stamps are in the hashes now: a run over a large tree
     * keeps only the paths through its jobs. */
    al_file_list_forget_walk(&r.files);
    read_schemas(&r);
    al_phase_done("schemas", &r.clock);
    if (o->profiles.n && !load_profile(&r))
        goto done;
    /* The configuration's unsafe-fixes counts for the marks and summary
     * when it holds for every file checked. */
    if (o->unsafe_fixes < 0 && r.files.n > 0) {
        bool all_unsafe = true;
        for (size_t i = 0; i < r.files.n; i++)
            all_unsafe &= r.per_file[i]->apply_unsafe;
        r.unsafe_fixes = all_unsafe;
    }
    /* Colour only for a terminal, and never with NO_COLOR set. */
    bool color = !o->output_file && isatty(STDOUT_FILENO) && !getenv("NO_COLOR");
    bool by_cost = o->sort ? !strcmp(o->sort, "cost") : o->profiles.n > 0;
    r.report = al_report_new(&(al_report_options){o->format, true, r.unsafe_fixes, o->statistics,
                                                  color, r.rule_info, al_rules_count,
                                                  o->profiles.n > 0, by_cost});
    double cpu0 = al_phase_cpu();
    check_files(&r);
    al_phase_done("check", &r.clock);
    if (getenv("ALLOCLINT_TIMING")) {
        /* Where the check's CPU time went: the parser, and the rest. */
        unsigned long long files, bytes;
        double parse;
        al_pyfile_parse_stats(&files, &bytes, &parse);
        double cpu = al_phase_cpu() - cpu0;
        fprintf(stderr, "alloclint: timing: parse      %llu Python parses, %.1f MB, %.3f s CPU\n",
                files, (double)bytes / 1e6, parse);
        fprintf(stderr, "alloclint: timing: analysis   %.3f s CPU (the check's CPU time but parsing)\n",
                cpu > parse ? cpu - parse : 0.0);
    }
    if (getenv("ALLOCLINT_INDEX_STATS")) {
        char stats[512];
        al_index_stats(r.index, stats, sizeof stats);
        fprintf(stderr, "alloclint: %s\n", stats);
    }
    write_output(&r);
    al_phase_done("report", &r.clock);
    if (r.profile && !o->quiet) {
        al_strbuf notes = {0};
        al_profile_notes(r.profile, &notes);
        if (notes.len)
            fputs(notes.data, stderr);
        al_strbuf_free(&notes);
    }
    if (r.error)
        rc = AL_EXIT_ERROR;
    else if (o->exit_non_zero_on_fix && o->fix && r.total_fixed > 0)
        rc = AL_EXIT_FINDINGS;
    else if (o->exit_zero)
        rc = AL_EXIT_CLEAN;
    else
        rc = r.total_remaining > 0 ? AL_EXIT_FINDINGS : AL_EXIT_CLEAN;
done:
    run_free(&r);
    return rc;
}

int al_usage_error(const char *hint, const char *fmt, const char *arg)
{
    fprintf(stderr, "alloclint: error: ");
    fprintf(stderr, fmt, arg);
    fprintf(stderr, "\n%s\n", hint);
    return AL_EXIT_ERROR;
}
