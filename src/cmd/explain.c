#include "explain.h"

#include "check.h"
#include "../analysis/core/index.h"
#include "../base/source.h"
#include "../base/util.h"
#include "../engine/explain.h"
#include "../front/cxx/compdb.h"
#include "../front/cxx/cxx.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char HELP[] =
    "Usage: alloclint explain PATH:LINE [OPTIONS]\n"
    "\n"
    "Says why alloclint reports what it reports on one line, or nothing: for\n"
    "each allocation there (`x = torch.zeros(...)`, `auto t = torch::zeros(...)`)\n"
    "what was proved about it and the first thing that could not be, step by\n"
    "step with lines: the writes, callees, kernels and stores, op contracts,\n"
    "aliases and escapes; then every rule's finding on the line with its notes,\n"
    "and what a rule examined there and left, with the first thing that failed\n"
    "(AL401, AL201, AL202, AL205, AL303).\n"
    "The file is checked inside its project, as `check` checks it (its\n"
    "configuration, the repo index for callees).\n"
    "\n"
    "Verdicts: proved (a safe fix), likely (an unsafe fix: handed to a writer\n"
    "whose full write is not proved), not-proved, blocked (some path needs the\n"
    "initial value, or may), reported (a rule's finding), declined (a rule\n"
    "examined it and reports nothing: why).\n"
    "\n"
    "Options:\n"
    "  --output-format FMT  text (default) or json\n"
    "  --select CODES       rules whose findings are listed (default: ALL)\n"
    "  --build-dir DIR      read DIR/compile_commands.json for C++/CUDA flags\n"
    "  --cxx-arg ARG        an extra clang argument (repeatable)\n"
    "\n"
    "Exit status: 0 when something on the line was explained, 1 when the line\n"
    "holds nothing alloclint looks at, 2 on an error.\n";

static int usage(const char *msg, const char *arg)
{
    return al_usage_error("(see `alloclint explain --help`)", msg, arg);
}

/* PATH:LINE, the path itself possibly holding colons. */
static bool split_place(const char *place, char **path, size_t *line)
{
    const char *colon = strrchr(place, ':');
    if (!colon || colon == place || !colon[1])
        return false;
    char *end;
    errno = 0;
    unsigned long long v = strtoull(colon + 1, &end, 10);
    if (*end || errno || v == 0 || colon[1] == '-' || colon[1] == '+')
        return false;
    *path = al_xstrndup(place, (size_t)(colon - place));
    *line = (size_t)v;
    return true;
}

static void print_text(FILE *out, const char *path, size_t line, const al_explanation *e)
{
    if (e->n == 0) {
        fprintf(out, "%s:%zu: nothing here that alloclint looks at (no allocation with a "
                     "fill, and no finding of the selected rules)\n",
                path, line);
        return;
    }
    for (size_t i = 0; i < e->n; i++) {
        const al_explain_item *it = &e->items[i];
        if (it->verdict == AL_EXPLAIN_REPORTED)
            fprintf(out, "%s:%zu: finding %s\n", path, line, it->subject);
        else if (it->verdict == AL_EXPLAIN_DECLINED)
            fprintf(out, "%s:%zu: examined by %s, not reported\n", path, line, it->subject);
        else
            fprintf(out, "%s:%zu: %s (%s)\n", path, line, it->subject, it->code);
        fprintf(out, "  verdict: %s, fix: %s\n", al_explain_verdict_name(it->verdict), it->fix);
        fprintf(out, "  %s\n", it->summary);
        for (size_t k = 0; k < it->n_steps; k++) {
            const al_explain_step *s = &it->steps[k];
            fprintf(out, "    %s:%zu: %s%s\n", s->path ? s->path : path, s->row, s->text,
                    s->store ? " [the store]" : "");
        }
        if (i + 1 < e->n)
            fputc('\n', out);
    }
}

static bool print_json(FILE *out, const char *path, size_t line, const al_explanation *e)
{
    cJSON *root = cJSON_CreateObject();
    cJSON_AddStringToObject(root, "filename", path);
    cJSON_AddNumberToObject(root, "line", (double)line);
    cJSON *items = cJSON_AddArrayToObject(root, "candidates");
    for (size_t i = 0; i < e->n; i++) {
        const al_explain_item *it = &e->items[i];
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "subject", it->subject);
        cJSON_AddStringToObject(o, "code", it->code);
        cJSON_AddStringToObject(o, "verdict", al_explain_verdict_name(it->verdict));
        cJSON_AddStringToObject(o, "fix", it->fix);
        cJSON_AddStringToObject(o, "summary", it->summary);
        cJSON *steps = cJSON_AddArrayToObject(o, "steps");
        for (size_t k = 0; k < it->n_steps; k++) {
            const al_explain_step *s = &it->steps[k];
            cJSON *j = cJSON_CreateObject();
            cJSON_AddStringToObject(j, "filename", s->path ? s->path : path);
            cJSON_AddNumberToObject(j, "line", (double)s->row);
            cJSON_AddStringToObject(j, "text", s->text);
            cJSON_AddBoolToObject(j, "store", s->store);
            cJSON_AddItemToArray(steps, j);
        }
        cJSON_AddItemToArray(items, o);
    }
    char *text = cJSON_Print(root);
    cJSON_Delete(root);
    if (!text)
        return false;
    bool ok = fputs(text, out) >= 0 && fputc('\n', out) != EOF;
    free(text);
    return ok;
}

int al_explain_main(int argc, char **argv)
{
    const char *place = NULL, *format = "text", *select = "ALL", *build_dir = NULL;
    al_check_options o;
    memset(&o, 0, sizeof o);
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            fputs(HELP, stdout);
            return AL_EXIT_CLEAN;
        }
        const char **value = !strcmp(a, "--output-format") ? &format
                             : !strcmp(a, "--select")      ? &select
                             : !strcmp(a, "--build-dir")   ? &build_dir
                                                           : NULL;
        if (value || !strcmp(a, "--cxx-arg")) {
            if (i + 1 >= argc)
                return usage("`%s` needs a value", a);
            if (value)
                *value = argv[++i];
            else
                AL_PUSH(o.cxx_args.items, o.cxx_args.n, o.cxx_args.cap, argv[++i]);
        } else if (a[0] == '-' && a[1]) {
            free(o.cxx_args.items);
            return usage("unknown option `%s` for `explain`", a);
        } else if (!place) {
            place = a;
        } else {
            free(o.cxx_args.items);
            return usage("one PATH:LINE at a time (got `%s` too)", a);
        }
    }
    bool json = !strcmp(format, "json");
    char *path = NULL;
    size_t line = 0;
    if ((!json && strcmp(format, "text") != 0) || !place || !split_place(place, &path, &line)) {
        free(o.cxx_args.items);
        if (!place)
            return usage("%s", "explain needs PATH:LINE");
        if (!json && strcmp(format, "text") != 0)
            return usage("--output-format is text or json, not `%s`", format);
        return usage("`%s` is not PATH:LINE (a line number from 1)", place);
    }
    o.select = select;
    int rc = AL_EXIT_ERROR;
    al_source src;
    memset(&src, 0, sizeof src);
    al_op_table builtin = {0};
    al_config_cache *configs = al_config_cache_new();
    al_compdb compdb = {0};
    al_lint_options opt;
    memset(&opt, 0, sizeof opt);
    al_explanation e = {0};
    char *err = NULL;
    al_ops_error operr;
    al_config_error cerr;
    const al_config *cfg = NULL;
    char cbuf[512];
    al_source_status st = al_source_load(&src, path);
    if (st != AL_SOURCE_OK) {
        fprintf(stderr, "alloclint: error: %s: %s\n", path, al_source_strerror(st));
        goto done;
    }
    if (src.notebook || al_str_ends_with(path, ".ipynb")) {
        fprintf(stderr, "alloclint: error: %s: explain takes a Python or C++/CUDA file, not a "
                        "notebook\n",
                path);
        goto done;
    }
    /* A final line break ends the last line; it starts none. */
    size_t lines = src.n_lines - (src.n_lines && src.line_starts[src.n_lines - 1] == src.len);
    if (line > lines) {
        fprintf(stderr, "alloclint: error: %s has %zu lines, not %zu\n", path, lines, line);
        goto done;
    }
    if (!al_ops_load_builtin(&builtin, &operr)) {
        fprintf(stderr, "alloclint: error: built-in op table: %s\n", operr.message);
        goto done;
    }
    if (!al_config_for(configs, path, false, &cfg, &cerr) ||
        !al_check_rules_for(&o, cfg, path, opt.enabled, &cerr)) {
        fprintf(stderr, "alloclint: error: %s\n", cerr.message);
        goto done;
    }
    opt.ops = cfg ? &cfg->ops : &builtin;
    opt.inference = cfg && cfg->inference;
    opt.cxx_args = o.cxx_args.items;
    opt.n_cxx_args = (int)o.cxx_args.n;
    if (al_is_cxx_path(path)) {
        int got = al_compdb_load(&compdb, build_dir ? build_dir : ".", cbuf, sizeof cbuf);
        if (got == 0 && !build_dir)
            got = al_compdb_load(&compdb, "build", cbuf, sizeof cbuf);
        if (got < 0 || (got == 0 && build_dir)) {
            if (got == 0)
                snprintf(cbuf, sizeof cbuf, "%s/compile_commands.json: no such file", build_dir);
            fprintf(stderr, "alloclint: error: %s\n", cbuf);
            goto done;
        }
        opt.compdb = got > 0 ? &compdb : NULL;
    }
    opt.index = al_index_new();
    char cwd[PATH_MAX];
    opt.cwd = getcwd(cwd, sizeof cwd) ? cwd : NULL;
    if (!al_explain(&src, &opt, line, &e, &err)) {
        fprintf(stderr, "alloclint: error: %s: %s\n", path, err);
        goto done;
    }
    if (json ? !print_json(stdout, path, line, &e) : (print_text(stdout, path, line, &e), false)) {
        fprintf(stderr, "alloclint: error: cannot write the explanation\n");
        goto done;
    }
    rc = fflush(stdout) != 0 ? AL_EXIT_ERROR : e.n ? AL_EXIT_CLEAN : AL_EXIT_FINDINGS;
done:
    free(err);
    al_explanation_free(&e);
    al_index_free(opt.index);
    al_compdb_free(&compdb);
    al_config_cache_free(configs);
    al_ops_free(&builtin);
    al_source_free(&src);
    free(o.cxx_args.items);
    free(path);
    return rc;
}
