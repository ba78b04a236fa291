#include "cli.h"

#include "check.h"
#include "../rules/rules.h"
#include "explain.h"
#include "hot.h"
#include "profile.h"
#include "server.h"
#include "../base/util.h"
#include "verify.h"
#include "../base/version.h"
#include "../front/cxx/cxx.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char USAGE[] =
    "alloclint - find PyTorch memory work that buys nothing, and fix it\n"
    "\n"
    "Usage: alloclint check [OPTIONS] [PATH...]\n"
    "       alloclint rule CODE | --all\n"
    "       alloclint explain PATH:LINE [--output-format text|json]\n"
    "                            (why a line gets a finding, or none)\n"
    "       alloclint hot TRACE... [PATH...] [--top N] [--output-format text|json]\n"
    "                            (a profiler trace's costliest fills, copies and\n"
    "                            concatenations, each with alloclint's verdict)\n"
    "       alloclint profile [-o TRACE] [PATH...] -- CMD [ARG...]\n"
    "                            (CMD under torch.profiler, then check --profile)\n"
    "       alloclint verify PATCH [OPTIONS] -- CMD [ARG...]\n"
    "       alloclint server     (a Language Server on stdio, for editors)\n"
    "       alloclint version    (the version, and which libclang C++ files get)\n"
    "       alloclint --version | --help\n"
    "\n"
    "Checks the Python files under each PATH (default: the current directory);\n"
    "`-` reads one source from standard input.\n"
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
    "  --statistics          A count per rule instead of the findings (with\n"
    "                        --profile, what each rule's findings cost and\n"
    "                        what their fixes remove)\n"
    "  --show-fixes          With --fix or --diff, list what was fixed in each file\n"
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
    "  --stdin-filename PATH The name of the source read from `-` (standard\n"
    "                        input): its configuration and per-file ignores\n"
    "                        apply; with --fix the fixed source goes to stdout\n"
    "                        and the findings to stderr\n"
    "  --profile TRACE       A PyTorch profiler trace (Chrome JSON, .json or\n"
    "                        .json.gz, recorded with with_stack=True): each\n"
    "                        finding gets what its statement cost there, and\n"
    "                        the findings come costliest first (repeatable)\n"
    "  --sort cost|file      The order of findings (default: cost with a\n"
    "                        profile, else file)\n"
    "  -q, --quiet           Print findings only, no summary\n"
    "  -j, --threads N       Check N files at a time (default: one per CPU)\n"
    "  --no-prefilter        Parse every file whole, even where no enabled rule\n"
    "                        can fire (the shortcuts' reference; same findings)\n"
    "  --no-cache            Neither read nor write the cache of earlier results\n"
    "  --cache-dir DIR       Keep the cache in DIR (default: $ALLOCLINT_CACHE_DIR,\n"
    "                        else .alloclint_cache in the current folder)\n"
    "  -h, --help            Show this help\n"
    "  -V, --version         Show the version\n"
    "\n"
    "Configuration: the nearest pyproject.toml [tool.alloclint] (or\n"
    "alloclint.toml) above each file: select, extend-select, ignore,\n"
    "per-file-ignores, exclude, extend-exclude, unsafe-fixes, [[...ops]].\n"
    "Command-line options win over it.\n"
    "\n"
    "Environment: ALLOCLINT_CACHE_DIR (see --cache-dir), ALLOCLINT_LIBCLANG (the\n"
    "libclang to load for C++/CUDA files; else the libclang Python package\n"
    "installed beside alloclint, then the system's libclang.so, libclang-NN.so.1).\n"
    "\n"
    "Exit status: 0 no findings remain, 1 findings remain, 2 error.\n";

static int usage_error(const char *fmt, const char *arg)
{
    return al_usage_error("Run `alloclint --help` for usage.", fmt, arg);
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

/* `alloclint version`: the version, then what this installation can
 * check C++/CUDA with (libclang is looked for at run time). */
static int version_command(int argc, char **argv)
{
    (void)argv;
    if (argc != 2)
        return usage_error("%s", "`version` takes no arguments");
    printf("alloclint %s\n", ALLOCLINT_VERSION);
    if (!al_cxx_built()) {
        printf("libclang: none (this alloclint was built without libclang)\n");
    } else {
        const char *origin = "";
        const char *path = al_cxx_library(&origin);
        if (path)
            printf("libclang: %s (%s)\n", path, origin);
        else
            printf("libclang: none: %s\n", al_cxx_unavailable_reason());
    }
    return AL_EXIT_CLEAN;
}

/* Options of `check`, as ruff spells them. Flags set a field; the others
 * take a value (`--opt VALUE` or `--opt=VALUE`). */
typedef enum {
    FLAG_TRUE,   /* sets a bool */
    FLAG_FALSE,  /* clears a bool */
    FLAG_ON,     /* sets a -1/0/1 int to 1 */
    FLAG_OFF,    /* sets it to 0 */
    TAKES_STRING,
    TAKES_LIST,  /* repeatable */
    TAKES_COUNT, /* a thread count */
    TAKES_FORMAT,
} option_kind;

typedef struct {
    const char *name, *alias;
    option_kind kind;
    size_t field; /* offsetof(al_check_options, ...) */
} option_spec;

#define FIELD(f) offsetof(al_check_options, f)

static const option_spec OPTIONS[] = {
    {"--fix", NULL, FLAG_TRUE, FIELD(fix)},
    {"--no-fix", NULL, FLAG_FALSE, FIELD(fix)},
    {"--diff", NULL, FLAG_TRUE, FIELD(diff)},
    {"--exit-non-zero-on-fix", NULL, FLAG_TRUE, FIELD(exit_non_zero_on_fix)},
    {"--show-fixes", NULL, FLAG_TRUE, FIELD(show_fixes)},
    {"--statistics", NULL, FLAG_TRUE, FIELD(statistics)},
    {"--add-noqa", NULL, FLAG_TRUE, FIELD(add_noqa)},
    {"--exit-zero", NULL, FLAG_TRUE, FIELD(exit_zero)},
    {"--quiet", "-q", FLAG_TRUE, FIELD(quiet)},
    {"--no-respect-gitignore", NULL, FLAG_FALSE, FIELD(discover.respect_gitignore)},
    {"--force-exclude", NULL, FLAG_TRUE, FIELD(discover.force_exclude)},
    {"--no-prefilter", NULL, FLAG_TRUE, FIELD(no_prefilter)},
    {"--no-cache", NULL, FLAG_TRUE, FIELD(no_cache)},
    {"--cache-dir", NULL, TAKES_STRING, FIELD(cache_dir)},
    {"--select", NULL, TAKES_STRING, FIELD(select)},
    {"--build-dir", NULL, TAKES_STRING, FIELD(build_dir)},
    {"--since", NULL, TAKES_STRING, FIELD(since)},
    {"--stdin-filename", NULL, TAKES_STRING, FIELD(stdin_filename)},
    {"--output-file", "-o", TAKES_STRING, FIELD(output_file)},
    {"--cxx-arg", NULL, TAKES_LIST, FIELD(cxx_args)},
    {"--extend-select", NULL, TAKES_LIST, FIELD(extends)},
    {"--ignore", NULL, TAKES_LIST, FIELD(ignores)},
    {"--profile", NULL, TAKES_LIST, FIELD(profiles)},
    {"--sort", NULL, TAKES_STRING, FIELD(sort)},
    {"--unsafe-fixes", NULL, FLAG_ON, FIELD(unsafe_fixes)},
    {"--no-unsafe-fixes", NULL, FLAG_OFF, FIELD(unsafe_fixes)},
    {"--threads", "-j", TAKES_COUNT, FIELD(threads)},
    {"--output-format", NULL, TAKES_FORMAT, FIELD(format)},
};

static const struct {
    const char *name;
    al_format format;
} FORMATS[] = {{"text", AL_FORMAT_TEXT},     {"concise", AL_FORMAT_CONCISE},
               {"json", AL_FORMAT_JSON},     {"json-lines", AL_FORMAT_JSON_LINES},
               {"github", AL_FORMAT_GITHUB}, {"sarif", AL_FORMAT_SARIF}};

/* The option spec argv[*i] names, and its value (advancing *i past a
 * separate one). NULL when no option matches; *rc set on a missing value. */
static const option_spec *match_option(int argc, char **argv, int *i, const char **value, int *rc)
{
    const char *a = argv[*i];
    for (size_t k = 0; k < sizeof OPTIONS / sizeof OPTIONS[0]; k++) {
        const option_spec *spec = &OPTIONS[k];
        const char *names[2] = {spec->name, spec->alias};
        for (int n = 0; n < 2 && names[n]; n++) {
            size_t len = strlen(names[n]);
            bool flag = spec->kind <= FLAG_OFF;
            if (!strcmp(a, names[n])) {
                if (!flag) {
                    if (*i + 1 >= argc) {
                        *rc = usage_error("`%s` needs a value", names[n]);
                        return NULL;
                    }
                    *value = argv[++*i];
                }
                return spec;
            }
            if (!flag && !strncmp(a, names[n], len) && a[len] == '=') {
                *value = a + len + 1;
                return spec;
            }
            /* A short option takes its value glued on too: -j1, -oreport. */
            if (!flag && n == 1 && len == 2 && !strncmp(a, names[n], 2) && a[2]) {
                *value = a + 2;
                return spec;
            }
        }
    }
    return NULL;
}

/* Stores an option's value in its field; returns -1, or an exit code. */
static int set_option(al_check_options *o, const option_spec *spec, const char *value)
{
    char *field = (char *)o + spec->field;
    switch (spec->kind) {
    case FLAG_TRUE:
    case FLAG_FALSE:
        *(bool *)field = spec->kind == FLAG_TRUE;
        break;
    case FLAG_ON:
    case FLAG_OFF:
        *(int *)field = spec->kind == FLAG_ON;
        break;
    case TAKES_STRING:
        *(const char **)field = value;
        break;
    case TAKES_LIST: {
        al_args *list = (al_args *)field;
        AL_PUSH(list->items, list->n, list->cap, value);
        break;
    }
    case TAKES_COUNT: {
        char *end;
        long n = strtol(value, &end, 10);
        if (*end || n < 1 || n > 256)
            return usage_error("`--threads` takes a number from 1 to 256, not `%s`", value);
        *(int *)field = (int)n;
        break;
    }
    case TAKES_FORMAT:
        for (size_t f = 0; f < sizeof FORMATS / sizeof FORMATS[0]; f++)
            if (!strcmp(value, FORMATS[f].name)) {
                *(al_format *)field = FORMATS[f].format;
                return -1;
            }
        return usage_error("unknown output format `%s` (expected text, concise, json, "
                           "json-lines, github or sarif)",
                           value);
    }
    return -1;
}

/* Checks the command line's selectors now; they are applied per file,
 * with its configuration. */
static bool selectors_valid(const al_check_options *o)
{
    bool scratch[AL_MAX_RULES];
    al_strlist unknown = {0};
    bool ok = !o->select || al_rules_select(scratch, o->select, true, &unknown);
    for (size_t k = 0; ok && k < o->ignores.n; k++)
        ok = al_rules_select(scratch, o->ignores.items[k], false, &unknown);
    for (size_t k = 0; ok && k < o->extends.n; k++)
        ok = al_rules_select(scratch, o->extends.items[k], true, &unknown);
    for (size_t i = 0; i < unknown.n; i++)
        fprintf(stderr, "alloclint: error: unknown rule selector `%s`\n", unknown.items[i]);
    al_strlist_free(&unknown);
    return ok;
}

/* Parses `check`'s arguments (from argv[2]); returns -1 to go on, or an
 * exit code. */
static int parse_check(int argc, char **argv, al_check_options *o)
{
    bool only_paths = false;
    int rc = -1;
    for (int i = 2; i < argc && rc < 0; i++) {
        const char *a = argv[i];
        const char *value = NULL;
        const option_spec *spec;
        if (only_paths || a[0] != '-' || !strcmp(a, "-")) {
            AL_PUSH(o->paths.items, o->paths.n, o->paths.cap, argv[i]);
        } else if (!strcmp(a, "--")) {
            only_paths = true;
        } else if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            fputs(USAGE, stdout);
            rc = AL_EXIT_CLEAN;
        } else if ((spec = match_option(argc, argv, &i, &value, &rc)) != NULL) {
            rc = set_option(o, spec, value);
        } else if (rc < 0) {
            rc = usage_error("unknown option `%s`", a);
        }
    }
    if (rc < 0 && !selectors_valid(o))
        rc = AL_EXIT_ERROR;
    if (rc < 0 && o->sort && strcmp(o->sort, "cost") && strcmp(o->sort, "file"))
        rc = usage_error("`--sort` takes cost or file, not `%s`", o->sort);
    if (rc < 0 && o->fix && o->diff)
        rc = usage_error("%s", "`--fix` and `--diff` cannot be used together");
    if (rc < 0 && o->add_noqa && (o->fix || o->diff))
        rc = usage_error("%s", "`--add-noqa` cannot be used with `--fix` or `--diff`");
    bool dash = false;
    for (size_t k = 0; k < o->paths.n; k++)
        dash |= !strcmp(o->paths.items[k], "-");
    if (rc < 0 && dash && o->paths.n > 1)
        rc = usage_error("%s", "`-` (standard input) cannot be mixed with other paths");
    if (rc < 0 && o->stdin_filename && o->paths.n && !dash)
        rc = usage_error("%s", "`--stdin-filename` names the source read from `-`; it cannot "
                               "be used with other paths");
    if (rc < 0 && (dash || o->stdin_filename) && (o->add_noqa || o->since))
        rc = usage_error("%s", "standard input cannot be used with `--add-noqa` or `--since`");
    return rc;
}

static const char PROFILE_HELP[] =
    "Usage: alloclint profile [-o TRACE] [CHECK OPTIONS] [PATH...] -- CMD [ARG...]\n"
    "\n"
    "Runs CMD (a Python program using torch) under torch.profiler, through\n"
    "alloclint's run-time companion (with_stack, record_shapes; CUDA too when\n"
    "there is a GPU), writes the Chrome trace to TRACE (default\n"
    "alloclint-profile.pt.trace.json.gz; gzipped when it ends in .gz), then runs\n"
    "`alloclint check --profile TRACE` on the PATHs (default: the current\n"
    "folder) with the other options given. The companion labels every\n"
    "allocation, fill, copy and concatenation call made from those files with\n"
    "its line (record_function), so that each of their kernels is put on its\n"
    "statement; kernels replayed from a CUDA graph cannot be, and the report\n"
    "says how much GPU time they took. Calls made by torch.compile'd code are\n"
    "not labelled.\n"
    "\n"
    "Exit status: check's; 2 when CMD could not be run or wrote no trace.\n";

/* `alloclint profile [-o TRACE] [check options] [PATH...] -- CMD...`. */
static int profile_command(int argc, char **argv)
{
    int dash = -1;
    for (int i = 2; i < argc && dash < 0; i++)
        if (!strcmp(argv[i], "--"))
            dash = i;
    for (int i = 2; i < (dash < 0 ? argc : dash); i++)
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            fputs(PROFILE_HELP, stdout);
            return AL_EXIT_CLEAN;
        }
    if (dash < 0 || dash + 1 >= argc)
        return usage_error("%s", "profile needs a command after `--` (alloclint profile -- "
                                 "python train.py)");
    const char *trace = "alloclint-profile.pt.trace.json.gz";
    /* check's own arguments, without -o TRACE: argv[0..1] stand for
     * "alloclint check". */
    char **rest = al_xcalloc((size_t)dash + 1, sizeof *rest);
    int n = 0;
    rest[n++] = argv[0];
    rest[n++] = "check";
    for (int i = 2; i < dash; i++) {
        if ((!strcmp(argv[i], "-o") || !strcmp(argv[i], "--trace")) && i + 1 < dash)
            trace = argv[++i];
        else if (!strncmp(argv[i], "--trace=", 8))
            trace = argv[i] + 8;
        else
            rest[n++] = argv[i];
    }
    al_check_options o;
    memset(&o, 0, sizeof o);
    o.discover.respect_gitignore = true;
    o.format = AL_FORMAT_TEXT;
    o.unsafe_fixes = -1;
    int rc = parse_check(n, rest, &o);
    if (rc < 0 && (o.fix || o.diff || o.add_noqa))
        rc = usage_error("%s", "profile reports; run `check --profile` to fix");
    if (rc < 0) {
        int status;
        char err[600];
        if (!al_profile_record(trace, o.paths.items, o.paths.n, argv + dash + 1, &status, err,
                               sizeof err)) {
            fprintf(stderr, "alloclint: error: %s\n", err);
            rc = AL_EXIT_ERROR;
        } else {
            if (status != 0)
                fprintf(stderr, "alloclint: warning: `%s` exited with status %d; its trace is "
                                "checked all the same\n",
                        argv[dash + 1], status);
            AL_PUSH(o.profiles.items, o.profiles.n, o.profiles.cap, trace);
            rc = al_check_run(&o);
        }
    }
    al_check_options_free(&o);
    free(rest);
    return rc;
}

int al_cli_main(int argc, char **argv)
{
    if (argc < 2)
        return usage_error("%s", "missing command (try `alloclint check .`)");
    if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
        fputs(USAGE, stdout);
        return AL_EXIT_CLEAN;
    }
    if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "-V")) {
        printf("alloclint %s\n", ALLOCLINT_VERSION);
        return AL_EXIT_CLEAN;
    }
    if (!strcmp(argv[1], "rule"))
        return rule_command(argc, argv);
    if (!strcmp(argv[1], "version"))
        return version_command(argc, argv);
    if (!strcmp(argv[1], "verify"))
        return al_verify_main(argc - 1, argv + 1);
    if (!strcmp(argv[1], "explain"))
        return al_explain_main(argc - 1, argv + 1);
    if (!strcmp(argv[1], "hot"))
        return al_hot_main(argc - 1, argv + 1);
    if (!strcmp(argv[1], "profile"))
        return profile_command(argc, argv);
    if (!strcmp(argv[1], "server"))
        return al_server_main(argc - 1, argv + 1);
    if (strcmp(argv[1], "check") != 0)
        return usage_error("unknown command `%s` (expected `check`, `rule`, `explain`, `hot`, "
                           "`profile`, `verify`, `server` or `version`)",
                           argv[1]);
    al_check_options o;
    memset(&o, 0, sizeof o);
    o.discover.respect_gitignore = true;
    o.format = AL_FORMAT_TEXT;
    o.unsafe_fixes = -1;
    int rc = parse_check(argc, argv, &o);
    if (rc < 0)
        rc = al_check_run(&o);
    al_check_options_free(&o);
    return rc;
}
