#include "cli.h"

#include "atomic.h"
#include "config.h"
#include "analysis/ops.h"
#include "analysis/schema.h"
#include "cxx/cxx.h"
#include "diff.h"
#include "discover.h"
#include "jobs.h"
#include "lint.h"
#include "report.h"
#include "rules/rules.h"
#include "source.h"
#include "util.h"
#include "version.h"

#include <errno.h>
#include <limits.h>
#include <unistd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char USAGE[] =
    "alloclint - find PyTorch memory work that buys nothing, and fix it\n"
    "\n"
    "Usage: alloclint check [OPTIONS] [PATH...]\n"
    "       alloclint rule CODE | --all\n"
    "       alloclint --version | --help\n"
    "\n"
    "Checks the Python files under each PATH (default: the current directory).\n"
    "Directories are walked recursively, skipping .git, virtualenvs, build,\n"
    "node_modules and whatever .gitignore ignores; files named explicitly are\n"
    "always checked.\n"
    "\n"
    "Rule selection:\n"
    "  --select CODES        Enable only these rules (comma-separated codes,\n"
    "                        prefixes such as AL1, or ALL)\n"
    "  --extend-select CODES Enable these rules as well\n"
    "  --ignore CODES        Disable these rules (same forms)\n"
    "\n"
    "Fixes:\n"
    "  --fix                 Apply safe fixes in place (atomically)\n"
    "  --unsafe-fixes        Also apply unsafe fixes (with --fix or --diff)\n"
    "  --diff                Print a unified diff of the fixes instead of\n"
    "                        writing them; findings without a fix go to stderr\n"
    "  --add-noqa            Add `# noqa: CODE` to every line with a finding, to\n"
    "                        adopt alloclint on an existing codebase\n"
    "\n"
    "Output:\n"
    "  --output-format FMT   text (default), concise, json, json-lines, github\n"
    "                        (GitHub Actions annotations) or sarif (2.1.0)\n"
    "  --statistics          A count per rule instead of the findings\n"
    "  --show-fixes          With --fix, list what was fixed in each file\n"
    "  -o, --output-file F   Write the report (or with --diff, the patch) to F\n"
    "  --exit-zero           Exit 0 even when findings remain\n"
    "  --exit-non-zero-on-fix  Exit 1 when --fix changed a file, even if no\n"
    "                        findings remain (for pre-commit hooks that fix)\n"
    "  --no-respect-gitignore  Check files that .gitignore ignores\n"
    "  --force-exclude       Apply ignore rules to files named explicitly too\n"
    "  --cxx-arg ARG         An extra clang argument for C++/CUDA files\n"
    "  --build-dir DIR       Read DIR/compile_commands.json for C++/CUDA flags\n"
    "                        (default: ./compile_commands.json, then\n"
    "                        ./build/compile_commands.json, when present)\n"
    "                        (e.g. -I/usr/include/torch/csrc/api/include)\n"
    "  --since REV           Check only files changed since a git revision\n"
    "                        (committed since, staged, unstaged or untracked)\n"
    "  -q, --quiet           Print findings only, no summary\n"
    "  -j, --threads N       Check N files at a time (default: one per CPU)\n"
    "  -h, --help            Show this help\n"
    "  -V, --version         Show the version\n"
    "\n"
    "Configuration: the nearest pyproject.toml [tool.alloclint] (or\n"
    "alloclint.toml) above each file: select, extend-select, ignore,\n"
    "per-file-ignores, exclude, extend-exclude, unsafe-fixes, [[...ops]].\n"
    "Command-line options win over it.\n"
    "\n"
    "Exit status: 0 no findings remain, 1 findings remain, 2 error.\n";

typedef struct {
    bool fix, unsafe_fixes, diff, exit_zero, quiet, add_noqa, statistics, exit_non_zero_on_fix,
        show_fixes;
    al_discover_options discover;
    al_format format;
    const char *output_file;
    bool enabled[AL_MAX_RULES];
    int threads;           /* 0: one per CPU */
    int unsafe_flag;       /* -1 not given, 0/1 --no-unsafe-fixes/--unsafe-fixes */
    const char *select;    /* --select, or NULL: the config's or the defaults */
    const char *since;     /* --since REV */
    char **ignores, **extends; /* --ignore and --extend-select, repeated */
    size_t n_ign, cap_ign, n_ext, cap_ext;
    char **cxx_args; /* --cxx-arg, repeated */
    const char *build_dir; /* --build-dir */
    size_t n_cxx, cap_cxx;
    char **paths;
    size_t n_paths, cap_paths;
} options;

static bool apply_selector(bool *enabled, const char *list, bool value)
{
    char *copy = al_xstrdup(list);
    bool ok = true;
    for (char *tok = strtok(copy, ","); tok; tok = strtok(NULL, ",")) {
        while (*tok == ' ')
            tok++;
        size_t tl = strlen(tok);
        while (tl && tok[tl - 1] == ' ')
            tok[--tl] = '\0';
        if (!*tok)
            continue;
        bool matched = false;
        for (size_t r = 0; r < al_rules_count; r++) {
            if (strcmp(tok, "ALL") == 0 || al_str_starts_with(al_rules[r].code, tok)) {
                enabled[r] = value;
                matched = true;
            }
        }
        if (!matched) {
            fprintf(stderr, "alloclint: error: unknown rule selector `%s`\n", tok);
            ok = false;
        }
    }
    free(copy);
    return ok;
}

/* The rules a file is checked with. An explicit --select replaces the
 * config's whole selection (select, extend-select and ignore): the
 * command line wins. Otherwise: the config's select, else the defaults,
 * then extend-select and ignore. --extend-select, --ignore and the
 * config's per-file-ignores apply in both cases. */
static bool rules_for(const options *o, const al_config *cfg, const char *path, bool *enabled,
                      al_config_error *err)
{
    bool ok = true;
    for (size_t r = 0; r < al_rules_count; r++)
        enabled[r] = al_rules[r].default_on;
    if (o->select || (cfg && cfg->has_select))
        for (size_t r = 0; r < al_rules_count; r++)
            enabled[r] = false;
    if (o->select) {
        apply_selector(enabled, o->select, true);
    } else if (cfg) {
        for (size_t i = 0; i < cfg->select.n; i++)
            ok &= apply_selector(enabled, cfg->select.items[i], true);
        for (size_t i = 0; i < cfg->extend_select.n; i++)
            ok &= apply_selector(enabled, cfg->extend_select.items[i], true);
    }
    for (size_t k = 0; k < o->n_ext; k++)
        apply_selector(enabled, o->extends[k], true);
    if (cfg) {
        for (size_t i = 0; !o->select && i < cfg->ignore.n; i++)
            ok &= apply_selector(enabled, cfg->ignore.items[i], false);
        al_strlist pfi = {0};
        al_config_file_ignores(cfg, path, &pfi);
        for (size_t i = 0; i < pfi.n; i++) {
            ok &= apply_selector(enabled, pfi.items[i], false);
            free(pfi.items[i]);
        }
        free(pfi.items);
    }
    for (size_t k = 0; k < o->n_ign; k++)
        apply_selector(enabled, o->ignores[k], false);
    if (!ok)
        snprintf(err->message, sizeof err->message, "%s: unknown rule code in the configuration",
                 cfg->path);
    return ok;
}

static int usage_error(const char *fmt, const char *arg)
{
    fprintf(stderr, "alloclint: error: ");
    fprintf(stderr, fmt, arg);
    fprintf(stderr, "\nRun `alloclint --help` for usage.\n");
    return AL_EXIT_ERROR;
}

/* `alloclint rule CODE` prints the rule's page; `rule --all` lists the
 * rules with their default and fix tier. */
static int rule_command(int argc, char **argv)
{
    if (argc != 3)
        return usage_error("%s", "`rule` takes one rule code, or `--all`");
    if (!strcmp(argv[2], "--all")) {
        printf("%-6s %-24s %-8s %-13s %s\n", "code", "name", "default", "fix", "summary");
        for (size_t r = 0; r < al_rules_count; r++)
            printf("%-6s %-24s %-8s %-13s %s\n", al_rules[r].code, al_rules[r].name,
                   al_rules[r].default_on ? "on" : "off", al_rules[r].fix, al_rules[r].summary);
        return AL_EXIT_CLEAN;
    }
    const al_rule *rule = al_rule_find(argv[2]);
    size_t len = 0;
    const char *page = rule ? al_rule_page(rule->code, &len) : NULL;
    if (!page)
        return usage_error("unknown rule `%s` (see `alloclint rule --all`)", argv[2]);
    return fwrite(page, 1, len, stdout) == len ? AL_EXIT_CLEAN : AL_EXIT_ERROR;
}

static int parse_args(int argc, char **argv, options *o, bool *done)
{
    *done = false;
    memset(o, 0, sizeof *o);
    o->discover.respect_gitignore = true;
    o->format = AL_FORMAT_TEXT;
    for (size_t r = 0; r < al_rules_count; r++)
        o->enabled[r] = al_rules[r].default_on;
    if (argc < 2)
        return usage_error("%s", "missing command (try `alloclint check .`)");
    int i = 1;
    if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
        fputs(USAGE, stdout);
        *done = true;
        return AL_EXIT_CLEAN;
    }
    if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "-V")) {
        printf("alloclint %s\n", ALLOCLINT_VERSION);
        *done = true;
        return AL_EXIT_CLEAN;
    }
    if (!strcmp(argv[1], "rule")) {
        *done = true;
        return rule_command(argc, argv);
    }
    if (strcmp(argv[1], "check") != 0)
        return usage_error("unknown command `%s` (expected `check` or `rule`)", argv[1]);
    o->unsafe_flag = -1;
    bool only_paths = false;
    int rc = -1;
    for (i = 2; i < argc && rc < 0; i++) {
        const char *a = argv[i];
        const char *value = NULL;
#define TAKES_VALUE(flag)                                                               \
    (!strcmp(a, flag) ? (i + 1 < argc ? (value = argv[++i], true)                       \
                                      : (rc = usage_error("`%s` needs a value", flag), false)) \
                      : (al_str_starts_with(a, flag "=") ? (value = a + strlen(flag) + 1, true) \
                                                         : false))
        if (only_paths || a[0] != '-' || !strcmp(a, "-")) {
            AL_PUSH(o->paths, o->n_paths, o->cap_paths, argv[i]);
        } else if (!strcmp(a, "--")) {
            only_paths = true;
        } else if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            fputs(USAGE, stdout);
            *done = true;
            rc = AL_EXIT_CLEAN;
        } else if (!strcmp(a, "--fix")) {
            o->fix = true;
        } else if (!strcmp(a, "--no-fix")) {
            o->fix = false;
        } else if (!strcmp(a, "--unsafe-fixes")) {
            o->unsafe_fixes = true;
            o->unsafe_flag = 1;
        } else if (!strcmp(a, "--no-unsafe-fixes")) {
            o->unsafe_fixes = false;
            o->unsafe_flag = 0;
        } else if (!strcmp(a, "--diff")) {
            o->diff = true;
        } else if (!strcmp(a, "--exit-non-zero-on-fix")) {
            o->exit_non_zero_on_fix = true;
        } else if (!strcmp(a, "--show-fixes")) {
            o->show_fixes = true;
        } else if (!strcmp(a, "--statistics")) {
            o->statistics = true;
        } else if (!strcmp(a, "--add-noqa")) {
            o->add_noqa = true;
        } else if (!strcmp(a, "--exit-zero")) {
            o->exit_zero = true;
        } else if (!strcmp(a, "-q") || !strcmp(a, "--quiet")) {
            o->quiet = true;
        } else if (!strcmp(a, "--no-respect-gitignore")) {
            o->discover.respect_gitignore = false;
        } else if (!strcmp(a, "--force-exclude")) {
            o->discover.force_exclude = true;
        } else if (TAKES_VALUE("--select")) {
            o->select = value;
        } else if (TAKES_VALUE("--build-dir")) {
            o->build_dir = value;
        } else if (TAKES_VALUE("--cxx-arg")) {
            AL_PUSH(o->cxx_args, o->n_cxx, o->cap_cxx, (char *)value);
        } else if (TAKES_VALUE("--since")) {
            o->since = value;
        } else if (TAKES_VALUE("--extend-select")) {
            AL_PUSH(o->extends, o->n_ext, o->cap_ext, (char *)value);
        } else if (TAKES_VALUE("--ignore")) {
            AL_PUSH(o->ignores, o->n_ign, o->cap_ign, (char *)value);
        } else if (TAKES_VALUE("--threads") || TAKES_VALUE("-j")) {
            char *end;
            long n = strtol(value, &end, 10);
            if (*end || n < 1 || n > 256)
                rc = usage_error("`--threads` takes a number from 1 to 256, not `%s`", value);
            else
                o->threads = (int)n;
        } else if (TAKES_VALUE("--output-format")) {
            if (!strcmp(value, "text"))
                o->format = AL_FORMAT_TEXT;
            else if (!strcmp(value, "concise"))
                o->format = AL_FORMAT_CONCISE;
            else if (!strcmp(value, "json"))
                o->format = AL_FORMAT_JSON;
            else if (!strcmp(value, "json-lines"))
                o->format = AL_FORMAT_JSON_LINES;
            else if (!strcmp(value, "github"))
                o->format = AL_FORMAT_GITHUB;
            else if (!strcmp(value, "sarif"))
                o->format = AL_FORMAT_SARIF;
            else
                rc = usage_error("unknown output format `%s` (expected text, concise, json, "
                                 "json-lines, github or sarif)",
                                 value);
        } else if (TAKES_VALUE("--output-file") || TAKES_VALUE("-o")) {
            o->output_file = value;
        } else if (rc < 0) {
            rc = usage_error("unknown option `%s`", a);
        }
#undef TAKES_VALUE
    }
    /* Check the selectors now; they are applied per file, with its config. */
    bool scratch[AL_MAX_RULES];
    if (rc < 0 && o->select && !apply_selector(scratch, o->select, true))
        rc = AL_EXIT_ERROR;
    for (size_t k = 0; rc < 0 && k < o->n_ign; k++)
        if (!apply_selector(scratch, o->ignores[k], false))
            rc = AL_EXIT_ERROR;
    for (size_t k = 0; rc < 0 && k < o->n_ext; k++)
        if (!apply_selector(scratch, o->extends[k], true))
            rc = AL_EXIT_ERROR;
    if (rc < 0 && o->fix && o->diff)
        rc = usage_error("%s", "`--fix` and `--diff` cannot be used together");
    if (rc < 0 && o->add_noqa && (o->fix || o->diff))
        rc = usage_error("%s", "`--add-noqa` cannot be used with `--fix` or `--diff`");
    return rc < 0 ? AL_EXIT_CLEAN : rc;
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

static void print_summary(FILE *out, const options *o, size_t remaining, size_t fixed,
                          size_t fixable_safe, size_t fixable_unsafe)
{
    if (o->quiet || o->format == AL_FORMAT_JSON || o->format == AL_FORMAT_JSON_LINES ||
        o->format == AL_FORMAT_GITHUB || o->format == AL_FORMAT_SARIF)
        return;
    if (remaining == 0 && fixed == 0) {
        fprintf(out, "All checks passed!\n");
        return;
    }
    if (fixed)
        fprintf(out, "Found %zu finding%s (%zu fixed, %zu remaining).\n", remaining + fixed,
                remaining + fixed == 1 ? "" : "s", fixed, remaining);
    else
        fprintf(out, "Found %zu finding%s.\n", remaining, remaining == 1 ? "" : "s");
    if (!o->fix && !o->diff) {
        size_t fixable = fixable_safe + (o->unsafe_fixes ? fixable_unsafe : 0);
        if (fixable)
            fprintf(out, "[*] %zu fixable with the `--fix` option", fixable);
        if (!o->unsafe_fixes && fixable_unsafe)
            fprintf(out, "%s%zu hidden fix%s can be enabled with the `--unsafe-fixes` option",
                    fixable ? " (" : "", fixable_unsafe, fixable_unsafe == 1 ? "" : "es");
        if (fixable && !o->unsafe_fixes && fixable_unsafe)
            fputc(')', out);
        if (fixable || (!o->unsafe_fixes && fixable_unsafe))
            fputs(".\n", out);
    }
}

int al_cli_main(int argc, char **argv)
{
    options o;
    bool done;
    int rc = parse_args(argc, argv, &o, &done);
    if (done || rc != AL_EXIT_CLEAN) {
        free(o.paths);
        return rc;
    }
    char *dot = ".";
    if (o.n_paths == 0)
        AL_PUSH(o.paths, o.n_paths, o.cap_paths, dot);

    al_op_table ops = {0};
    al_ops_error operr;
    if (!al_ops_load_builtin(&ops, &operr)) {
        fprintf(stderr, "alloclint: error: built-in op table: %s\n", operr.message);
        al_ops_free(&ops);
        free(o.paths);
        return AL_EXIT_ERROR;
    }

    bool error = false;
    al_file_list files;
    al_discover(&files, o.paths, o.n_paths, &o.discover);
    for (size_t i = 0; i < files.n_errors; i++) {
        fprintf(stderr, "alloclint: error: %s\n", files.errors[i]);
        error = true;
    }
    if (o.since) {
        char serr[512];
        if (!al_keep_changed_since(&files, o.since, serr, sizeof serr)) {
            fprintf(stderr, "alloclint: error: %s\n", serr);
            al_file_list_free(&files);
            al_ops_free(&ops);
            free(o.paths);
            free(o.ignores);
            free(o.extends);
            return AL_EXIT_ERROR;
        }
    }

    al_lint_options lo;
    memset(&lo, 0, sizeof lo);
    memcpy(lo.enabled, o.enabled, sizeof lo.enabled);
    lo.ops = &ops;
    lo.apply_safe = o.fix || o.diff;
    lo.apply_unsafe = o.unsafe_fixes;
    lo.cxx_args = (const char *const *)o.cxx_args;
    lo.n_cxx_args = (int)o.n_cxx;
    /* As clang-tidy does: the build's own flags for each C++/CUDA file. */
    al_compdb compdb = {0};
    {
        bool has_cxx = false;
        for (size_t i = 0; i < files.n && !has_cxx; i++)
            has_cxx = al_is_cxx_path(files.paths[i]);
        char cerr[512];
        int got = 0;
        if (o.build_dir) {
            got = al_compdb_load(&compdb, o.build_dir, cerr, sizeof cerr);
            if (got == 0)
                snprintf(cerr, sizeof cerr, "%s/compile_commands.json: no such file", o.build_dir);
        } else if (has_cxx && al_cxx_available()) {
            /* Found, not asked for: a broken one is reported, not fatal. */
            got = al_compdb_load(&compdb, ".", cerr, sizeof cerr);
            if (got == 0)
                got = al_compdb_load(&compdb, "build", cerr, sizeof cerr);
            if (got < 0 && !o.quiet)
                fprintf(stderr, "alloclint: warning: %s; C++/CUDA files are parsed with the "
                                "defaults\n", cerr);
            if (got <= 0)
                al_compdb_free(&compdb);
            got = 1;
        } else {
            got = 1;
        }
        if (got <= 0) {
            fprintf(stderr, "alloclint: error: %s\n", cerr);
            al_compdb_free(&compdb);
            al_file_list_free(&files);
            al_ops_free(&ops);
            free(o.paths);
            free(o.ignores);
            free(o.extends);
            free(o.cxx_args);
            return AL_EXIT_ERROR;
        }
        lo.compdb = &compdb;
    }

    /* Colour only for a terminal, and never with NO_COLOR set. */
    bool color = !o.output_file && isatty(STDOUT_FILENO) && !getenv("NO_COLOR");
    al_report_rule rule_info[AL_MAX_RULES];
    for (size_t r = 0; r < al_rules_count; r++)
        rule_info[r] = (al_report_rule){al_rules[r].code, al_rules[r].name, al_rules[r].summary,
                                        al_rules[r].default_on};
    al_report_options ro = {o.format, true, o.unsafe_fixes, o.statistics, color, rule_info,
                            al_rules_count};
    al_report *report = NULL;
    al_strbuf shown = {0};
    al_report *unfixed =
        o.diff ? al_report_new(&(al_report_options){AL_FORMAT_CONCISE, true, o.unsafe_fixes, false,
                                                    false, rule_info, al_rules_count})
               : NULL;
    al_strbuf patch = {0};
    size_t total_fixed = 0, total_remaining = 0, total_unapplied = 0;

    /* Each file's configuration: exclusions, rules, op summaries. */
    al_config_cache *configs = al_config_cache_new();
    al_lint_options *per_file = al_xcalloc(files.n ? files.n : 1, sizeof *per_file);
    {
        size_t kept = 0;
        for (size_t i = 0; i < files.n; i++) {
            const al_config *cfg = NULL;
            al_config_error cerr;
            if (!al_config_for(configs, files.paths[i], &cfg, &cerr)) {
                fprintf(stderr, "alloclint: error: %s\n", cerr.message);
                al_config_cache_free(configs);
                free(per_file);
                al_report_free(report);
                al_report_free(unfixed);
                al_file_list_free(&files);
                al_ops_free(&ops);
                free(o.paths);
                return AL_EXIT_ERROR;
            }
            bool named = false;
            for (size_t r = 0; r < o.n_paths; r++)
                if (!strcmp(o.paths[r], files.paths[i]))
                    named = true;
            if (cfg && (!named || o.discover.force_exclude) &&
                al_config_excludes(cfg, files.paths[i])) {
                free(files.paths[i]);
                continue;
            }
            al_lint_options fo = lo;
            if (!rules_for(&o, cfg, files.paths[i], fo.enabled, &cerr)) {
                fprintf(stderr, "alloclint: error: %s\n", cerr.message);
                error = true;
            }
            if (cfg) {
                fo.ops = &cfg->ops;
                if (o.unsafe_flag < 0 && cfg->unsafe_fixes >= 0)
                    fo.apply_unsafe = cfg->unsafe_fixes;
            }
            per_file[kept] = fo;
            files.paths[kept++] = files.paths[i];
        }
        files.n = kept;
    }

    if (o.add_noqa) {
        size_t total = 0, touched = 0;
        for (size_t i = 0; i < files.n; i++) {
            al_source src;
            if (al_source_load(&src, files.paths[i]) != AL_SOURCE_OK) {
                fprintf(stderr, "alloclint: error: %s: cannot read\n", files.paths[i]);
                error = true;
                continue;
            }
            size_t added = 0, len = 0;
            char *text = al_lint_add_noqa(&src, &per_file[i], &added, &len);
            if (text) {
                int err;
                al_write_status ws = al_write_atomic(src.path, text, len, src.hash, &err);
                if (ws == AL_WRITE_OK) {
                    total += added;
                    touched++;
                } else {
                    fprintf(stderr, "alloclint: error: %s: %s; not rewritten\n", src.path,
                            ws == AL_WRITE_CHANGED ? "changed on disk while alloclint was running"
                                                   : strerror(err));
                    error = true;
                }
                free(text);
            }
            al_source_free(&src);
        }
        if (!o.quiet)
            printf("Added %zu noqa directive%s to %zu file%s.\n", total, total == 1 ? "" : "s",
                   touched, touched == 1 ? "" : "s");
        al_file_list_free(&files);
        al_ops_free(&ops);
        free(o.paths);
        free(o.ignores);
        free(o.extends);
        free(per_file);
        al_config_cache_free(configs);
        al_report_free(report);
        al_report_free(unfixed);
        return error ? AL_EXIT_ERROR : AL_EXIT_CLEAN;
    }

    /* Phase 1, in parallel: load, check and fix each file in memory.
     * Phase 2, in order: messages, writes and the report. */
    al_file_job *jobs = al_xcalloc(files.n ? files.n : 1, sizeof *jobs);
    /* Operator schemas of the C++ sources (TORCH_LIBRARY ... def("op(Tensor!
     * out, ...)")): which argument of a torch.ops call is written. */
    {
        al_op_table schemas = {0};
        size_t n_cxx = 0;
        for (size_t i = 0; i < files.n; i++) {
            if (!al_is_cxx_path(files.paths[i]))
                continue;
            n_cxx++;
            al_source src;
            if (al_source_load(&src, files.paths[i]) != AL_SOURCE_OK)
                continue;
            if (memmem(src.bytes, src.len, "TORCH_LIBRARY", 13))
                al_schema_scan(src.bytes, src.len, src.path, &schemas);
            al_source_free(&src);
        }
        if (schemas.n) {
            al_config_cache_add_ops(configs, &schemas);
            for (size_t k = 0; k < schemas.n; k++) {
                al_op_summary op = schemas.items[k];
                op.name = al_xstrdup(op.name);
                op.origin = al_xstrdup(op.origin);
                AL_PUSH(ops.items, ops.n, ops.cap, op);
            }
        }
        al_ops_free(&schemas);
        if (n_cxx && !al_cxx_available() && !o.quiet)
            fprintf(stderr, "alloclint: notice: %zu C++/CUDA file%s not checked: this alloclint "
                            "was built without libclang\n",
                    n_cxx, n_cxx == 1 ? "" : "s");
    }

    /* The configuration's unsafe-fixes counts for the marks and summary
     * when it holds for every file checked. */
    if (o.unsafe_flag < 0 && files.n > 0) {
        bool all_unsafe = true;
        for (size_t i = 0; i < files.n; i++)
            all_unsafe &= per_file[i].apply_unsafe;
        ro.unsafe_fixes = all_unsafe;
        o.unsafe_fixes = all_unsafe;
    }
    report = al_report_new(&ro);

    /* A progress line only on a terminal, and only when it is worth it. */
    bool progress = files.n > 2000 && isatty(STDERR_FILENO) && !o.quiet;
    al_run_jobs(jobs, files.paths, files.n, per_file, o.threads, progress);

    for (size_t i = 0; i < files.n; i++) {
        al_file_job *job = &jobs[i];
        if (job->messages.len)
            fputs(job->messages.data, stderr);
        if (job->error)
            error = true;
        if (!job->loaded) {
            al_strbuf_free(&job->messages);
            continue;
        }
        al_source src = job->src;
        al_lint_result res = job->res;
        if (o.diff) {
            if (res.fixed) {
                char *rel = diff_path(src.path);
                al_diff_unified(&patch, rel, src.bytes, src.len, res.fixed, res.fixed_len, 3);
                free(rel);
                /* Report what the patch does not fix, where it was found. */
                al_findings rest = {0};
                for (size_t k = 0; k < res.initial.n; k++)
                    if (!res.initial_applied[k]) {
                        al_finding f = res.initial.items[k];
                        AL_PUSH(rest.items, rest.n, rest.cap, f);
                    }
                al_report_add(unfixed, &src, &rest);
                total_unapplied += rest.n;
                free(rest.items);
                total_remaining += res.initial.n;
                total_fixed += res.initial.n - rest.n;
            } else {
                al_report_add(unfixed, &src, &res.findings);
                total_remaining += res.findings.n;
                total_unapplied += res.findings.n;
            }
        } else if (o.fix && res.fixed) {
            int err;
            al_write_status ws = al_write_atomic(src.path, res.fixed, res.fixed_len, src.hash, &err);
            if (ws == AL_WRITE_OK) {
                if (o.show_fixes) {
                    /* "- path:" then "    N × CODE (name)" per code fixed. */
                    al_strbuf_printf(&shown, "- %s:\n", src.path);
                    for (size_t k = 0; k < res.initial.n; k++) {
                        if (!res.initial_applied[k])
                            continue;
                        bool seen = false;
                        for (size_t j = 0; j < k; j++)
                            if (res.initial_applied[j] &&
                                !strcmp(res.initial.items[j].code, res.initial.items[k].code))
                                seen = true;
                        if (seen)
                            continue;
                        size_t count = 0;
                        for (size_t j = k; j < res.initial.n; j++)
                            count += res.initial_applied[j] &&
                                     !strcmp(res.initial.items[j].code, res.initial.items[k].code);
                        al_strbuf_printf(&shown, "    %zu \xc3\x97 %s (%s)\n", count,
                                         res.initial.items[k].code, res.initial.items[k].name);
                    }
                }
                al_source fixed_src;
                al_source_from_memory(&fixed_src, src.path, res.fixed, res.fixed_len);
                al_report_add(report, &fixed_src, &res.findings);
                al_source_free(&fixed_src);
                total_fixed += res.n_fixed;
                total_remaining += res.findings.n;
            } else {
                if (ws == AL_WRITE_CHANGED)
                    fprintf(stderr, "alloclint: error: %s: changed on disk while alloclint was "
                                    "running; not rewritten\n",
                            src.path);
                else
                    fprintf(stderr, "alloclint: error: %s: cannot write the fixed file: %s; "
                                    "original left unchanged\n",
                            src.path, strerror(err));
                error = true;
                al_report_add(report, &src, &res.initial);
                total_remaining += res.initial.n;
            }
        } else {
            al_report_add(report, &src, &res.findings);
            total_remaining += res.findings.n;
        }
        al_lint_result_free(&res);
        al_source_free(&src);
        al_strbuf_free(&job->messages);
    }
    free(jobs);

    FILE *out = stdout;
    if (o.output_file) {
        out = fopen(o.output_file, "w");
        if (!out) {
            fprintf(stderr, "alloclint: error: %s: %s\n", o.output_file, strerror(errno));
            error = true;
            out = NULL;
        }
    }
    if (out) {
        bool ok;
        if (o.diff) {
            ok = patch.len == 0 || fwrite(patch.data, 1, patch.len, out) == patch.len;
            al_report_write(unfixed, stderr);
            if (!o.quiet)
                fprintf(stderr, "%zu fix%s in the diff; %zu finding%s without an applied fix.\n",
                        total_fixed, total_fixed == 1 ? "" : "es",
                        total_unapplied, total_unapplied == 1 ? "" : "s");
        } else {
            ok = al_report_write(report, out);
            print_summary(out, &o, total_remaining, total_fixed, al_report_fixable(report, false),
                          al_report_fixable(report, true));
            if (shown.len && !o.quiet)
                fprintf(out, "Fixed:\n%s", shown.data);
        }
        if (out != stdout) {
            if (fclose(out) != 0)
                ok = false;
        } else if (fflush(out) != 0) {
            ok = false;
        }
        if (!ok) {
            fprintf(stderr, "alloclint: error: writing the output failed\n");
            error = true;
        }
    }

    al_strbuf_free(&patch);
    al_strbuf_free(&shown);
    free(per_file);
    al_config_cache_free(configs);
    al_report_free(report);
    al_report_free(unfixed);
    al_file_list_free(&files);
    al_ops_free(&ops);
    free(o.paths);
    free(o.ignores);
    free(o.extends);
    free(o.cxx_args);
    al_compdb_free(&compdb);
    if (error)
        return AL_EXIT_ERROR;
    if (o.exit_non_zero_on_fix && o.fix && total_fixed > 0)
        return AL_EXIT_FINDINGS;
    if (o.exit_zero)
        return AL_EXIT_CLEAN;
    return total_remaining > 0 ? AL_EXIT_FINDINGS : AL_EXIT_CLEAN;
}
