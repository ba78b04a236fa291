#include "hot.h"

#include "check.h"
#include "../analysis/core/index.h"
#include "../analysis/core/ops.h"
#include "../base/source.h"
#include "../base/util.h"
#include "../engine/explain.h"
#include "../profile/profile.h"
#include "../run/config.h"
#include "../run/discover.h"

#include <cjson/cJSON.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char HELP[] =
    "Usage: alloclint hot TRACE... [PATH...] [OPTIONS]\n"
    "\n"
    "Lists a PyTorch profiler trace's allocation, fill, copy and concatenation\n"
    "sites in the checked files (PATH, default: the current directory), the\n"
    "costliest GPU time first, each with alloclint's verdict: its finding (code\n"
    "and fix tier), or the first reason `explain` gives why there is none.\n"
    "Arguments ending in .json or .json.gz are traces (torch.profiler's\n"
    "export_chrome_trace, tensorboard_trace_handler's *.pt.trace.json.gz),\n"
    "recorded with with_stack=True; the rest are paths.\n"
    "\n"
    "A site is a call (`torch.zeros`, `.fill_`, `.to`, `torch.cat`) or a\n"
    "subscript assignment. The trace names functions, not lines: the k-th call\n"
    "of a kind in a call of a function is put on its k-th call site of that\n"
    "kind when the body reaches them in straight-line order, or when it has\n"
    "one (\"attribution\": \"line\"); otherwise the row is the function's\n"
    "(\"attribution\": \"function\"), with why. `alloclint profile` labels each\n"
    "site as it runs, so that every row is a line.\n"
    "\n"
    "Options:\n"
    "  --top N              the N costliest sites (default 20; 0: all)\n"
    "  --output-format FMT  text (default) or json\n"
    "  --select CODES       the rules whose findings are the verdicts\n"
    "                       (default: the configuration's, else the defaults)\n"
    "\n"
    "Exit status: 0 when the traces were read, 2 on an error.\n";

static int usage(const char *msg, const char *arg)
{
    return al_usage_error("(see `alloclint hot --help`)", msg, arg);
}

bool al_hot_is_trace_name(const char *arg)
{
    return al_str_ends_with(arg, ".json") || al_str_ends_with(arg, ".json.gz");
}

typedef struct {
    const al_site_cost *site;
    char *code;       /* the finding's rule, or NULL */
    const char *tier; /* its fix tier */
    char *reason;     /* why no finding, or NULL */
} hot_row;

static int by_gpu(const void *x, const void *y)
{
    const al_site_cost *a = *(const al_site_cost *const *)x, *b = *(const al_site_cost *const *)y;
    if (a->gpu_ns != b->gpu_ns)
        return a->gpu_ns > b->gpu_ns ? -1 : 1;
    /* A trace of the host alone: its costliest ops there. */
    if (a->host_ns != b->host_ns)
        return a->host_ns > b->host_ns ? -1 : 1;
    int c = strcmp(a->path, b->path);
    return c ? c : a->line < b->line ? -1 : a->line > b->line;
}

/* The verdict on a site: explain's findings and candidates on its line. */
typedef struct {
    const al_check_options *o;
    al_config_cache *configs;
    al_op_table builtin;
    al_index *index;
    char cwd[PATH_MAX];
} verdicts;

static void verdict_of(verdicts *v, hot_row *row)
{
    const al_site_cost *s = row->site;
    if (s->by_function) {
        al_strbuf sb = {0};
        if (s->sharing)
            al_strbuf_printf(&sb, "the trace cannot put this function's calls of `%s` on one of "
                                  "its %zu sites: %s",
                             s->kind, s->sharing, s->why ? s->why : "not split");
        else
            al_strbuf_printf(&sb, "the trace's calls of `%s` match no call in the function's "
                                  "body: %s",
                             s->kind, s->why ? s->why : "not split");
        row->reason = al_strbuf_detach(&sb);
        return;
    }
    al_source src;
    memset(&src, 0, sizeof src);
    al_source_status st = al_source_load(&src, s->path);
    if (st != AL_SOURCE_OK) {
        al_strbuf sb = {0};
        al_strbuf_printf(&sb, "not examined: %s", al_source_strerror(st));
        row->reason = al_strbuf_detach(&sb);
        return;
    }
    al_lint_options opt;
    memset(&opt, 0, sizeof opt);
    const al_config *cfg = NULL;
    al_config_error cerr;
    if (!al_config_for(v->configs, s->path, false, &cfg, &cerr) ||
        !al_check_rules_for(v->o, cfg, s->path, opt.enabled, &cerr)) {
        row->reason = al_xstrdup(cerr.message);
        al_source_free(&src);
        return;
    }
    opt.ops = cfg ? &cfg->ops : &v->builtin;
    opt.inference = cfg && cfg->inference;
    opt.index = v->index;
    opt.cwd = v->cwd;
    al_explanation e = {0};
    char *err = NULL;
    if (!al_explain(&src, &opt, s->line, &e, &err)) {
        al_strbuf sb = {0};
        al_strbuf_printf(&sb, "not examined: %s", err ? err : "the file does not parse");
        row->reason = al_strbuf_detach(&sb);
        free(err);
        al_source_free(&src);
        return;
    }
    for (size_t i = 0; i < e.n && !row->code; i++)
        if (e.items[i].verdict == AL_EXPLAIN_REPORTED) {
            row->code = al_xstrdup(e.items[i].code);
            row->tier = e.items[i].fix;
        }
    if (!row->code) {
        al_strbuf sb = {0};
        if (e.n)
            al_strbuf_printf(&sb, "%s: %s", e.items[0].code, e.items[0].summary);
        else
            al_strbuf_printf(&sb, "not examined: no enabled rule looks at this call of `%s`",
                             s->kind);
        row->reason = al_strbuf_detach(&sb);
    }
    al_explanation_free(&e);
    al_source_free(&src);
}

static double us(int64_t ns)
{
    return (double)ns / 1000.0;
}

static void print_text(FILE *out, const al_profile *p, const hot_row *rows, size_t n)
{
    const al_site_costs *s = &p->sites;
    fprintf(out, "The costliest allocation, fill, copy and concatenation sites (%.1f \xc2\xb5s of "
                 "GPU time in %zu trace%s):\n\n",
            us(s->gpu_total_ns), p->n_traces, p->n_traces == 1 ? "" : "s");
    if (!n)
        fputs("  (none in the checked files)\n", out);
    for (size_t i = 0; i < n; i++) {
        const al_site_cost *c = rows[i].site;
        double share = s->gpu_total_ns ? (double)c->gpu_ns / (double)s->gpu_total_ns : 0;
        fprintf(out, "%10.1f \xc2\xb5s GPU %5.1f %%  %6zu call%s %10.1f \xc2\xb5s host  %s:%zu  "
                     "%s: `%s` (%s)%s\n",
                us(c->gpu_ns), share * 100.0, c->calls, c->calls == 1 ? " " : "s", us(c->host_ns),
                c->path, c->line, c->function, c->kind, c->op ? c->op : "no op",
                c->by_function ? ", by function" : "");
        if (rows[i].code)
            fprintf(out, "      finding: %s (fix: %s)\n", rows[i].code, rows[i].tier);
        else
            fprintf(out, "      no finding: %s\n", rows[i].reason);
    }
}

static bool print_json(FILE *out, const al_profile *p, const hot_row *rows, size_t n)
{
    const al_site_costs *s = &p->sites;
    cJSON *arr = cJSON_CreateArray();
    for (size_t i = 0; i < n; i++) {
        const al_site_cost *c = rows[i].site;
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "filename", c->path);
        cJSON_AddNumberToObject(o, "line", (double)c->line);
        cJSON_AddStringToObject(o, "function", c->function);
        if (c->op)
            cJSON_AddStringToObject(o, "op", c->op);
        else
            cJSON_AddNullToObject(o, "op");
        cJSON_AddNumberToObject(o, "calls", (double)c->calls);
        cJSON_AddNumberToObject(o, "gpu_us", us(c->gpu_ns));
        cJSON_AddNumberToObject(o, "host_us", us(c->host_ns));
        cJSON_AddNumberToObject(o, "share", s->gpu_total_ns ? (double)c->gpu_ns /
                                                                  (double)s->gpu_total_ns
                                                            : 0.0);
        cJSON_AddStringToObject(o, "attribution", c->by_function ? "function" : "line");
        if (rows[i].code) {
            cJSON *f = cJSON_AddObjectToObject(o, "finding");
            cJSON_AddStringToObject(f, "code", rows[i].code);
            cJSON_AddStringToObject(f, "applicability", rows[i].tier);
            cJSON_AddNullToObject(o, "reason");
        } else {
            cJSON_AddNullToObject(o, "finding");
            cJSON_AddStringToObject(o, "reason", rows[i].reason);
        }
        cJSON_AddItemToArray(arr, o);
    }
    char *text = cJSON_Print(arr);
    cJSON_Delete(arr);
    bool ok = text && fputs(text, out) >= 0 && fputc('\n', out) != EOF;
    free(text);
    return ok;
}

int al_hot_main(int argc, char **argv)
{
    const char *format = "text";
    long top = 20;
    al_check_options o;
    memset(&o, 0, sizeof o);
    al_args traces = {0};
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            fputs(HELP, stdout);
            free(traces.items), free(o.paths.items);
            return AL_EXIT_CLEAN;
        }
        if (!strcmp(a, "--output-format") || !strcmp(a, "--select") || !strcmp(a, "--top")) {
            if (i + 1 >= argc) {
                free(traces.items), free(o.paths.items);
                return usage("`%s` needs a value", a);
            }
            const char *v = argv[++i];
            if (!strcmp(a, "--output-format")) {
                format = v;
            } else if (!strcmp(a, "--select")) {
                o.select = v;
            } else {
                char *end;
                top = strtol(v, &end, 10);
                if (*end || top < 0 || end == v) {
                    free(traces.items), free(o.paths.items);
                    return usage("`--top` takes a count (0: all), not `%s`", v);
                }
            }
        } else if (a[0] == '-' && a[1]) {
            free(traces.items), free(o.paths.items);
            return usage("unknown option `%s` for `hot`", a);
        } else if (al_hot_is_trace_name(a)) {
            AL_PUSH(traces.items, traces.n, traces.cap, a);
        } else {
            AL_PUSH(o.paths.items, o.paths.n, o.paths.cap, a);
        }
    }
    bool json = !strcmp(format, "json");
    int rc = AL_EXIT_ERROR;
    if (!json && strcmp(format, "text")) {
        free(traces.items), free(o.paths.items);
        return usage("--output-format is text or json, not `%s`", format);
    }
    if (!traces.n) {
        free(o.paths.items);
        return usage("%s", "hot needs a trace (a .json or .json.gz file)");
    }
    verdicts v;
    memset(&v, 0, sizeof v);
    al_profile p;
    memset(&p, 0, sizeof p);
    hot_row *rows = NULL;
    size_t n_rows = 0;
    al_file_list files;
    memset(&files, 0, sizeof files);
    char *dot = ".";
    al_discover_options found = {.respect_gitignore = true};
    al_discover(&files, o.paths.n ? (char *const *)o.paths.items : &dot,
                o.paths.n ? o.paths.n : 1, &found);
    for (size_t i = 0; i < files.n_errors; i++)
        fprintf(stderr, "alloclint: error: %s\n", files.errors[i]);
    char err[600];
    al_ops_error operr;
    if (files.n_errors)
        goto done;
    if (!al_ops_load_builtin(&v.builtin, &operr)) {
        fprintf(stderr, "alloclint: error: built-in op table: %s\n", operr.message);
        goto done;
    }
    if (!al_profile_load(&p, traces.items, traces.n, files.paths, files.n, err, sizeof err)) {
        fprintf(stderr, "alloclint: error: %s\n", err);
        goto done;
    }
    const al_site_cost **hot = al_xmalloc((p.sites.n ? p.sites.n : 1) * sizeof *hot);
    size_t n_hot = 0;
    for (size_t i = 0; i < p.sites.n; i++)
        if (al_site_is_memory_work(&p.sites.items[i]))
            hot[n_hot++] = &p.sites.items[i];
    qsort(hot, n_hot, sizeof *hot, by_gpu);
    n_rows = top && (size_t)top < n_hot ? (size_t)top : n_hot;
    rows = al_xcalloc(n_rows ? n_rows : 1, sizeof *rows);
    v.o = &o;
    v.configs = al_config_cache_new();
    v.index = al_index_new();
    if (!getcwd(v.cwd, sizeof v.cwd))
        v.cwd[0] = '\0';
    for (size_t i = 0; i < n_rows; i++) {
        rows[i].site = hot[i];
        verdict_of(&v, &rows[i]);
    }
    free(hot);
    bool ok = json ? print_json(stdout, &p, rows, n_rows)
                   : (print_text(stdout, &p, rows, n_rows), !ferror(stdout));
    if (fflush(stdout) != 0 || !ok) {
        fprintf(stderr, "alloclint: error: writing the output failed\n");
        goto done;
    }
    al_strbuf notes = {0};
    al_profile_notes(&p, &notes);
    if (notes.len)
        fputs(notes.data, stderr);
    al_strbuf_free(&notes);
    rc = AL_EXIT_CLEAN;
done:
    for (size_t i = 0; i < n_rows; i++) {
        free(rows[i].code);
        free(rows[i].reason);
    }
    free(rows);
    if (v.configs)
        al_config_cache_free(v.configs);
    al_index_free(v.index);
    al_ops_free(&v.builtin);
    al_profile_free(&p);
    al_file_list_free(&files);
    free(traces.items);
    free(o.paths.items);
    return rc;
}
