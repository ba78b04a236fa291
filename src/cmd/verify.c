#include "verify.h"

#include "../run/companion.h"

#include "check.h"
#include "../engine/diff.h"
#include "../engine/patch.h"
#include "../base/util.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>


static const char VERIFY_USAGE[] =
    "Usage: alloclint verify PATCH [OPTIONS] -- CMD [ARG...]\n"
    "\n"
    "Checks each change of PATCH (a unified diff whose paths are relative to\n"
    "the current directory) by running CMD: first unpatched (the baseline),\n"
    "then in a temporary copy of the current directory with the changes\n"
    "applied and freshly allocated tensors poisoned (torch.empty, empty_like,\n"
    "empty_strided and Tensor.new_empty filled with NaN, or the dtype's\n"
    "maximum for integers). Lines of changed Python files are traced, so a\n"
    "change CMD never executes is `untested`, not verified; a change inside a\n"
    "@triton.jit kernel counts as run when CMD launched that kernel (Triton's\n"
    "launcher is hooked; the verdict says `launched`). When the patched\n"
    "run fails, subsets of the changes are run to find the ones at fault.\n"
    "Your files are never modified.\n"
    "\n"
    "Options:\n"
    "  -o, --output FILE     Write a patch holding only the verified changes\n"
    "  --output-format FMT   text (default) or json: an array of objects with\n"
    "                        the keys file, line, verdict, reason\n"
    "  --poison MODE         nan (default), max (the maximum for every dtype)\n"
    "                        or off\n"
    "  --sanitizer           Run CMD under `compute-sanitizer --tool initcheck`\n"
    "                        with PYTORCH_NO_CUDA_MEMORY_CACHING=1; any\n"
    "                        initcheck error fails the run (device tensors\n"
    "                        are then left unpoisoned for initcheck to see).\n"
    "                        CUDA-graph capture needs the caching allocator:\n"
    "                        set PYTORCH_NO_CUDA_MEMORY_CACHING=0 to keep it\n"
    "  --timeout S           Seconds each run of CMD may take (default 600)\n"
    "  -h, --help            Show this help\n"
    "\n"
    "Exit status: 0 every change verified, 1 a change rejected or untested,\n"
    "2 an error (the baseline fails, the patch does not apply, ...).\n";

typedef enum { V_UNTESTED, V_VERIFIED, V_REJECTED } verdict;

typedef struct {
    const char *patch_path, *output, *poison;
    bool json, sanitizer;
    double timeout;
    char **cmd;
} options;

typedef struct {
    bool ok, timed_out;
    int status; /* exit code, or 128 + signal */
    char *tail; /* the last lines of its output */
} outcome;

typedef struct {
    options o;
    al_patch patch;
    char **files; /* distinct paths of the patch */
    size_t n_files;
    char **originals;
    size_t *original_lens;
    char *cwd, *root; /* the temporary root: site/, runs, traces */
    int runs;
    bool *executed; /* per change: executed in a passing run holding it */
    char **launched; /* per change inside a Triton kernel that passing run
                      * launched: the kernel's name (else NULL) */
    verdict *verdicts;
    char **reasons;
} verifier;

static int usage(const char *msg)
{
    fprintf(stderr, "alloclint verify: error: %s\nRun `alloclint verify --help` for usage.\n", msg);
    return AL_EXIT_ERROR;
}

static int parse(int argc, char **argv, options *o)
{
    memset(o, 0, sizeof *o);
    o->poison = "nan";
    o->timeout = 600;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--")) {
            o->cmd = argv + i + 1;
            if (!o->cmd[0])
                return usage("no command after `--`");
            break;
        } else if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            fputs(VERIFY_USAGE, stdout);
            return AL_EXIT_CLEAN;
        } else if (!strcmp(a, "-o") || !strcmp(a, "--output")) {
            if (!v)
                return usage("`-o` needs a file");
            o->output = v, i++;
        } else if (!strcmp(a, "--output-format")) {
            if (!v || (strcmp(v, "text") && strcmp(v, "json")))
                return usage("`--output-format` takes text or json");
            o->json = !strcmp(v, "json"), i++;
        } else if (!strcmp(a, "--poison")) {
            if (!v || (strcmp(v, "nan") && strcmp(v, "max") && strcmp(v, "off")))
                return usage("`--poison` takes nan, max or off");
            o->poison = v, i++;
        } else if (!strcmp(a, "--timeout")) {
            char *end;
            o->timeout = v ? strtod(v, &end) : 0;
            if (!v || *end || o->timeout <= 0)
                return usage("`--timeout` takes a number of seconds above 0");
            i++;
        } else if (!strcmp(a, "--sanitizer")) {
            o->sanitizer = true;
        } else if (a[0] == '-') {
            al_strbuf sb = {0};
            al_strbuf_printf(&sb, "unknown option `%s`", a);
            int rc = usage(sb.data);
            al_strbuf_free(&sb);
            return rc;
        } else if (!o->patch_path) {
            o->patch_path = a;
        } else {
            return usage("one PATCH only; the command goes after `--`");
        }
    }
    if (!o->patch_path)
        return usage("missing PATCH");
    if (!o->cmd)
        return usage("missing `-- CMD`");
    return -1;
}

static char *read_all(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    al_strbuf sb = {0};
    bool ok = al_strbuf_read(&sb, f, 0, NULL);
    fclose(f);
    if (!ok) {
        al_strbuf_free(&sb);
        return NULL;
    }
    *len = sb.len;
    return al_strbuf_detach(&sb);
}

static bool write_all(const char *path, const char *bytes, size_t len)
{
    FILE *f = fopen(path, "wb");
    if (!f)
        return false;
    bool ok = fwrite(bytes, 1, len, f) == len;
    return fclose(f) == 0 && ok;
}

/* Runs argv in dir (NULL: here) with env additions, output to log; waits
 * at most timeout seconds. Returns the exit status as the shell shows it. */
static int spawn(char *const *argv, const char *dir, const char *log, char *const *env,
                 double timeout, bool *timed_out)
{
    *timed_out = false;
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0)
        return -1;
    if (pid == 0) {
        setpgid(0, 0);
        if (dir && chdir(dir) != 0)
            _exit(127);
        int fd = open(log ? log : "/dev/null", O_WRONLY | O_CREAT | O_TRUNC, 0600);
        if (fd >= 0) {
            dup2(fd, 1);
            dup2(fd, 2);
            close(fd);
        }
        for (size_t i = 0; env && env[i]; i++)
            putenv(env[i]);
        execvp(argv[0], argv);
        fprintf(stderr, "alloclint verify: cannot run `%s`: %s\n", argv[0], strerror(errno));
        _exit(127);
    }
    struct timespec start, now, nap = {0, 20 * 1000 * 1000};
    clock_gettime(CLOCK_MONOTONIC, &start);
    int st = 0;
    for (;;) {
        pid_t r = waitpid(pid, &st, WNOHANG);
        if (r == pid)
            break;
        if (r < 0 && errno != EINTR)
            return -1;
        clock_gettime(CLOCK_MONOTONIC, &now);
        double el = (double)(now.tv_sec - start.tv_sec) + (double)(now.tv_nsec - start.tv_nsec) / 1e9;
        if (el > timeout) {
            *timed_out = true;
            kill(-pid, SIGKILL);
            waitpid(pid, &st, 0);
            return 128 + SIGKILL;
        }
        nanosleep(&nap, NULL);
    }
    if (WIFEXITED(st))
        return WEXITSTATUS(st);
    return 128 + (WIFSIGNALED(st) ? WTERMSIG(st) : 0);
}

static bool run_simple(const char *const *argv)
{
    bool to;
    return spawn((char *const *)argv, NULL, NULL, NULL, 3600, &to) == 0;
}

static char *log_tail(const char *path, int lines)
{
    size_t len = 0;
    char *all = read_all(path, &len);
    if (!all)
        return al_xstrdup("");
    size_t start = len;
    int seen = 0;
    while (start > 0) {
        if (all[start - 1] == '\n' && start != len && ++seen >= lines)
            break;
        start--;
    }
    char *t = al_xstrdup(all + start);
    free(all);
    return t;
}

/* The last line of a run's output that starts in column 0 (a Python
 * exception's "Type: message", not the continuation of a printed tensor),
 * trimmed, for a verdict's reason. */
static char *last_line(const char *tail)
{
    const char *best = NULL;
    size_t best_len = 0;
    for (const char *l = tail; *l;) {
        const char *e = strchr(l, '\n');
        size_t n = e ? (size_t)(e - l) : strlen(l);
        while (n && (l[n - 1] == '\r' || l[n - 1] == ' '))
            n--;
        if (n && l[0] != ' ' && l[0] != '\t') {
            best = l;
            best_len = n;
        }
        l = e ? e + 1 : l + n;
        if (!e)
            break;
    }
    if (!best)
        return al_xstrdup("");
    al_strbuf sb = {0};
    for (size_t i = 0; i < best_len && sb.len < 160; i++)
        if (best[i] != ' ' || (sb.len && sb.data[sb.len - 1] != ' '))
            al_strbuf_putc(&sb, best[i]);
    if (best_len && sb.len >= 160)
        al_strbuf_puts(&sb, "...");
    return sb.data ? al_strbuf_detach(&sb) : al_xstrdup("");
}

/* The line a change starts on in a run holding `selected`. */
static size_t line_in_run(const al_patch *p, const bool *selected, size_t i)
{
    long delta = 0;
    for (size_t k = 0; k < i; k++)
        if (selected[k] && !strcmp(p->items[k].path, p->items[i].path))
            delta += (long)p->items[k].n_added - (long)p->items[k].n_removed;
    return (size_t)((long)p->items[i].old_line + delta);
}

static bool is_python(const char *path)
{
    return al_str_ends_with(path, ".py");
}

/* One run of CMD: in a fresh copy with the selected changes (NULL:
 * unpatched, in the current directory), poisoned or not. Marks the
 * changes its trace shows executed in `executed` (may be NULL). */
static outcome run_cmd(verifier *v, const bool *selected, bool poison, bool *executed)
{
    outcome out = {0};
    int id = v->runs++;
    al_strbuf dir = {0}, log = {0}, trace = {0}, paths = {0}, pp = {0};
    al_strbuf_printf(&log, "%s/run-%d.log", v->root, id);
    al_strbuf_printf(&trace, "%s/trace-%d.txt", v->root, id);
    const char *where = NULL;
    if (selected) {
        al_strbuf_printf(&dir, "%s/tree-%d", v->root, id);
        const char *mk[] = {"mkdir", "-p", dir.data, NULL};
        al_strbuf src = {0};
        al_strbuf_printf(&src, "%s/.", v->cwd);
        const char *cp[] = {"cp", "-a", src.data, dir.data, NULL};
        bool copied = run_simple(mk) && run_simple(cp);
        al_strbuf_free(&src);
        for (size_t f = 0; copied && f < v->n_files; f++) {
            size_t len;
            char *err = NULL;
            char *text = al_patch_apply(&v->patch, selected, v->files[f], v->originals[f],
                                        v->original_lens[f], &len, &err);
            al_strbuf target = {0};
            al_strbuf_printf(&target, "%s/%s", dir.data, v->files[f]);
            copied = text && write_all(target.data, text, len);
            if (is_python(v->files[f]))
                al_strbuf_printf(&paths, "%s%s", paths.len ? ":" : "", target.data);
            al_strbuf_free(&target);
            free(text);
            free(err);
        }
        if (!copied) {
            out.status = -1;
            out.tail = al_xstrdup("could not make the patched copy of the current directory");
            goto done;
        }
        where = dir.data;
    }
    char *companion = al_companion_pythonpath(v->root);
    al_strbuf_puts(&pp, companion);
    free(companion);
    al_strbuf poison_env = {0}, trace_env = {0}, paths_env = {0};
    al_strbuf_printf(&poison_env, "ALLOCLINT_POISON=%s", poison ? v->o.poison : "off");
    al_strbuf_printf(&trace_env, "ALLOCLINT_TRACE=%s", selected && paths.len ? trace.data : "");
    al_strbuf_printf(&paths_env, "ALLOCLINT_TRACE_PATHS=%s", paths.len ? paths.data : "");
    char caching[] = "PYTORCH_NO_CUDA_MEMORY_CACHING=1";
    char host_only[] = "ALLOCLINT_POISON_HOST_ONLY=1";
    bool sanitize = v->o.sanitizer && poison;
    /* CUDA-graph capture needs the caching allocator: a user who sets
     * PYTORCH_NO_CUDA_MEMORY_CACHING (to 0) keeps it, and initcheck then
     * sees only never-written memory of fresh segments. */
    if (getenv("PYTORCH_NO_CUDA_MEMORY_CACHING"))
        caching[0] = '\0';
    char *env[] = {pp.data, poison_env.data, trace_env.data, paths_env.data,
                   sanitize ? host_only : NULL, sanitize && caching[0] ? caching : NULL, NULL};
    if (!sanitize)
        env[4] = NULL;
    size_t n_cmd = 0;
    while (v->o.cmd[n_cmd])
        n_cmd++;
    char **argv = al_xcalloc(n_cmd + 6, sizeof *argv);
    size_t a = 0;
    if (v->o.sanitizer && poison) {
        argv[a++] = "compute-sanitizer";
        argv[a++] = "--tool";
        argv[a++] = "initcheck";
        argv[a++] = "--error-exitcode";
        argv[a++] = "86";
    }
    for (size_t i = 0; i < n_cmd; i++)
        argv[a++] = v->o.cmd[i];
    out.status = spawn(argv, where, log.data, env, v->o.timeout, &out.timed_out);
    free(argv);
    al_strbuf_free(&poison_env);
    al_strbuf_free(&trace_env);
    al_strbuf_free(&paths_env);
    out.ok = out.status == 0;
    out.tail = log_tail(log.data, 15);
    if (selected && executed && out.ok) {
        size_t tl = 0;
        char *t = read_all(trace.data, &tl);
        for (size_t i = 0; t && i < v->patch.n; i++) {
            const al_patch_change *c = &v->patch.items[i];
            if (!selected[i] || !is_python(c->path))
                continue;
            size_t first = line_in_run(&v->patch, selected, i);
            size_t last = first + (c->n_added ? c->n_added - 1 : 0);
            al_strbuf target = {0};
            al_strbuf_printf(&target, "%s/%s", dir.data, c->path);
            char real[PATH_MAX];
            const char *name = realpath(target.data, real) ? real : target.data;
            size_t nl = strlen(name);
            /* A deletion ran when the line now in its place (or just
             * before it) did. */
            size_t lo = first > 1 ? first - 1 : 1;
            size_t hi = c->n_added ? last : first;
            for (const char *l = t; l && *l;) {
                const char *e = strchr(l, '\n');
                if (!strncmp(l, name, nl) && l[nl] == ':') {
                    size_t row = strtoul(l + nl + 1, NULL, 10);
                    if (row >= (c->n_added ? first : lo) && row <= hi)
                        executed[i] = true;
                }
                l = e ? e + 1 : NULL;
            }
            /* A Triton kernel's body runs on the device, untraced: the
             * launch of the kernel holding the change stands for it. */
            for (const char *l = t; l && *l && !executed[i];) {
                const char *e = strchr(l, '\n');
                char kpath[PATH_MAX], kname[256];
                unsigned long kfirst, klast;
                if (!strncmp(l, "K\t", 2) &&
                    sscanf(l + 2, "%4095[^\t]\t%lu\t%lu\t%255[^\n]", kpath, &kfirst, &klast,
                           kname) == 4 &&
                    !strcmp(kpath, name) && first >= kfirst && hi <= klast) {
                    executed[i] = true;
                    free(v->launched[i]);
                    v->launched[i] = al_xstrdup(kname);
                }
                l = e ? e + 1 : NULL;
            }
            al_strbuf_free(&target);
        }
        free(t);
    }
done:
    if (selected && !getenv("ALLOCLINT_VERIFY_KEEP")) {
        const char *rm[] = {"rm", "-rf", dir.data, NULL};
        run_simple(rm);
    }
    al_strbuf_free(&dir);
    al_strbuf_free(&log);
    al_strbuf_free(&trace);
    al_strbuf_free(&paths);
    al_strbuf_free(&pp);
    return out;
}

static char *failure_text(const outcome *r)
{
    al_strbuf sb = {0};
    char *last = last_line(r->tail ? r->tail : "");
    if (r->timed_out)
        al_strbuf_printf(&sb, "timed out");
    else if (r->status == 86)
        al_strbuf_printf(&sb, "compute-sanitizer initcheck reported an error");
    else
        al_strbuf_printf(&sb, "exit code %d", r->status);
    if (*last)
        al_strbuf_printf(&sb, ": %s", last);
    free(last);
    return al_strbuf_detach(&sb);
}

static void progress(const verifier *v, const char *what, size_t n)
{
    (void)v;
    fprintf(stderr, "alloclint verify: %s", what);
    if (n)
        fprintf(stderr, " (%zu change%s)", n, n == 1 ? "" : "s");
    fputs("...\n", stderr);
}

/* The failing set `set` (n changes, already known to fail with `why`):
 * find the changes at fault by halving, each half in a fresh copy. */
static void bisect(verifier *v, const size_t *set, size_t n, const char *why)
{
    if (n == 1) {
        v->verdicts[set[0]] = V_REJECTED;
        al_strbuf sb = {0};
        al_strbuf_printf(&sb, "the command fails with this change: %s", why);
        free(v->reasons[set[0]]);
        v->reasons[set[0]] = al_strbuf_detach(&sb);
        return;
    }
    size_t half = n / 2;
    const size_t *parts[2] = {set, set + half};
    size_t sizes[2] = {half, n - half};
    bool failed[2];
    char *whys[2];
    bool *sel = al_xcalloc(v->patch.n, sizeof *sel);
    for (int h = 0; h < 2; h++) {
        memset(sel, 0, v->patch.n * sizeof *sel);
        for (size_t k = 0; k < sizes[h]; k++)
            sel[parts[h][k]] = true;
        progress(v, "narrowing down the failure", sizes[h]);
        outcome r = run_cmd(v, sel, true, v->executed);
        failed[h] = !r.ok;
        whys[h] = r.ok ? NULL : failure_text(&r);
        free(r.tail);
    }
    free(sel);
    for (int h = 0; h < 2; h++)
        if (failed[h])
            bisect(v, parts[h], sizes[h], whys[h]);
    if (!failed[0] && !failed[1]) {
        /* Each half passes alone: the fault is in their combination. */
        for (size_t k = 0; k < n; k++) {
            v->verdicts[set[k]] = V_REJECTED;
            al_strbuf sb = {0};
            al_strbuf_printf(&sb, "the command fails only with these %zu changes together: %s", n,
                             why);
            free(v->reasons[set[k]]);
            v->reasons[set[k]] = al_strbuf_detach(&sb);
        }
    }
    free(whys[0]);
    free(whys[1]);
}

static bool setup(verifier *v)
{
    size_t plen;
    char *ptext = read_all(v->o.patch_path, &plen);
    if (!ptext) {
        fprintf(stderr, "alloclint verify: error: %s: cannot read the patch: %s\n", v->o.patch_path,
                strerror(errno));
        return false;
    }
    char *err = NULL;
    bool ok = al_patch_parse(ptext, plen, &v->patch, &err);
    free(ptext);
    if (!ok) {
        fprintf(stderr, "alloclint verify: error: %s: %s\n", v->o.patch_path, err);
        free(err);
        return false;
    }
    for (size_t i = 0; i < v->patch.n; i++) {
        bool seen = false;
        for (size_t f = 0; f < v->n_files && !seen; f++)
            seen = !strcmp(v->files[f], v->patch.items[i].path);
        if (seen)
            continue;
        v->files = al_xrealloc(v->files, (v->n_files + 1) * sizeof *v->files);
        v->originals = al_xrealloc(v->originals, (v->n_files + 1) * sizeof *v->originals);
        v->original_lens = al_xrealloc(v->original_lens, (v->n_files + 1) * sizeof(size_t));
        const char *path = v->patch.items[i].path;
        v->files[v->n_files] = al_xstrdup(path);
        v->originals[v->n_files] = read_all(path, &v->original_lens[v->n_files]);
        if (!v->originals[v->n_files]) {
            fprintf(stderr, "alloclint verify: error: %s: cannot read the file the patch changes: %s\n",
                    path, strerror(errno));
            v->n_files++;
            return false;
        }
        size_t len;
        char *applied = al_patch_apply(&v->patch, NULL, path, v->originals[v->n_files],
                                       v->original_lens[v->n_files], &len, &err);
        v->n_files++;
        if (!applied) {
            fprintf(stderr, "alloclint verify: error: %s: the patch does not apply: %s:%s\n",
                    v->o.patch_path, path, err);
            free(err);
            return false;
        }
        free(applied);
    }
    char why[300];
    v->root = al_companion_make("verify", why, sizeof why);
    if (!v->root) {
        fprintf(stderr, "alloclint verify: error: %s\n", why);
        return false;
    }
    char cwd[PATH_MAX];
    if (!getcwd(cwd, sizeof cwd)) {
        fprintf(stderr, "alloclint verify: error: cannot read the current folder: %s\n",
                strerror(errno));
        return false;
    }
    v->cwd = al_xstrdup(cwd);
    v->executed = al_xcalloc(v->patch.n, sizeof *v->executed);
    v->launched = al_xcalloc(v->patch.n ? v->patch.n : 1, sizeof *v->launched);
    v->verdicts = al_xcalloc(v->patch.n, sizeof *v->verdicts);
    v->reasons = al_xcalloc(v->patch.n, sizeof *v->reasons);
    return true;
}

static void report(const verifier *v, FILE *out)
{
    if (v->o.json) {
        cJSON *arr = cJSON_CreateArray();
        for (size_t i = 0; i < v->patch.n; i++) {
            cJSON *o = cJSON_CreateObject();
            cJSON_AddStringToObject(o, "file", v->patch.items[i].path);
            cJSON_AddNumberToObject(o, "line", (double)v->patch.items[i].new_line);
            cJSON_AddStringToObject(o, "verdict", v->verdicts[i] == V_VERIFIED   ? "verified"
                                                  : v->verdicts[i] == V_REJECTED ? "rejected"
                                                                                 : "untested");
            cJSON_AddStringToObject(o, "reason", v->reasons[i] ? v->reasons[i] : "");
            cJSON_AddItemToArray(arr, o);
        }
        char *s = cJSON_Print(arr);
        fprintf(out, "%s\n", s);
        free(s);
        cJSON_Delete(arr);
        return;
    }
    for (size_t i = 0; i < v->patch.n; i++)
        fprintf(out, "%s:%zu: %s: %s\n", v->patch.items[i].path, v->patch.items[i].new_line,
                v->verdicts[i] == V_VERIFIED   ? "verified"
                : v->verdicts[i] == V_REJECTED ? "rejected"
                                               : "untested",
                v->reasons[i] ? v->reasons[i] : "");
}

/* -o: the verified changes only, as a patch against the current files. */
static bool write_verified(const verifier *v)
{
    bool *sel = al_xcalloc(v->patch.n ? v->patch.n : 1, sizeof *sel);
    for (size_t i = 0; i < v->patch.n; i++)
        sel[i] = v->verdicts[i] == V_VERIFIED;
    al_strbuf patch = {0};
    bool ok = true;
    for (size_t f = 0; f < v->n_files && ok; f++) {
        size_t len;
        char *err = NULL;
        char *text = al_patch_apply(&v->patch, sel, v->files[f], v->originals[f],
                                    v->original_lens[f], &len, &err);
        ok = text != NULL;
        if (text)
            al_diff_unified(&patch, v->files[f], v->originals[f], v->original_lens[f], text, len, 3);
        free(text);
        free(err);
    }
    free(sel);
    al_strbuf tmp = {0};
    al_strbuf_printf(&tmp, "%s.alloclint-tmp", v->o.output);
    ok = ok && write_all(tmp.data, patch.data ? patch.data : "", patch.len) &&
         rename(tmp.data, v->o.output) == 0;
    if (!ok) {
        fprintf(stderr, "alloclint verify: error: %s: cannot write: %s\n", v->o.output,
                strerror(errno));
        unlink(tmp.data);
    }
    al_strbuf_free(&tmp);
    al_strbuf_free(&patch);
    return ok;
}

static void verifier_free(verifier *v)
{
    if (v->root && !getenv("ALLOCLINT_VERIFY_KEEP")) {
        al_companion_remove(v->root);
    }
    for (size_t i = 0; i < v->patch.n && v->reasons; i++)
        free(v->reasons[i]);
    for (size_t f = 0; f < v->n_files; f++) {
        free(v->files[f]);
        free(v->originals[f]);
    }
    free(v->files);
    free(v->originals);
    free(v->original_lens);
    free(v->reasons);
    free(v->verdicts);
    free(v->executed);
    for (size_t i = 0; v->launched && i < v->patch.n; i++)
        free(v->launched[i]);
    free(v->launched);
    free(v->root);
    free(v->cwd);
    al_patch_free(&v->patch);
}

int al_verify_main(int argc, char **argv)
{
    verifier v;
    memset(&v, 0, sizeof v);
    int rc = parse(argc, argv, &v.o);
    if (rc >= 0)
        return rc;
    if (!setup(&v)) {
        verifier_free(&v);
        return AL_EXIT_ERROR;
    }
    bool poison = strcmp(v.o.poison, "off") != 0 || v.o.sanitizer;
    progress(&v, "baseline run, unpatched", 0);
    outcome base = run_cmd(&v, NULL, false, NULL);
    if (!base.ok) {
        fprintf(stderr, "alloclint verify: error: the command fails without the patch (%s); its "
                        "output ends:\n%s",
                base.timed_out ? "timed out" : "see below", base.tail);
        free(base.tail);
        verifier_free(&v);
        return AL_EXIT_ERROR;
    }
    free(base.tail);
    if (poison) {
        progress(&v, v.o.sanitizer ? "baseline run, unpatched, poisoned, under compute-sanitizer"
                                   : "baseline run, unpatched, poisoned",
                 0);
        outcome pb = run_cmd(&v, NULL, true, NULL);
        if (!pb.ok) {
            char *why = failure_text(&pb);
            fprintf(stderr, "alloclint verify: error: the command fails only with %s, even "
                            "without the patch (%s): %s; its output ends:\n%s",
                    v.o.sanitizer ? "poisoning and compute-sanitizer" : "poisoning on", why,
                    v.o.sanitizer ? "the code already reads memory it did not write, or it "
                                    "needs PyTorch's caching allocator (the sanitizer runs with "
                                    "PYTORCH_NO_CUDA_MEMORY_CACHING=1, under which CUDA-graph "
                                    "capture cannot allocate)"
                                  : "the code already reads memory it did not write",
                    pb.tail);
            free(why);
            free(pb.tail);
            verifier_free(&v);
            return AL_EXIT_ERROR;
        }
        free(pb.tail);
    }
    bool *all = al_xcalloc(v.patch.n, sizeof *all);
    for (size_t i = 0; i < v.patch.n; i++)
        all[i] = true;
    progress(&v, "patched run", v.patch.n);
    outcome full = run_cmd(&v, all, poison, v.executed);
    free(all);
    if (!full.ok) {
        char *why = failure_text(&full);
        size_t *set = al_xcalloc(v.patch.n, sizeof *set);
        for (size_t i = 0; i < v.patch.n; i++)
            set[i] = i;
        bisect(&v, set, v.patch.n, why);
        free(set);
        free(why);
    }
    free(full.tail);
    bool all_verified = true;
    for (size_t i = 0; i < v.patch.n; i++) {
        if (v.verdicts[i] == V_REJECTED) {
            all_verified = false;
            continue;
        }
        const char *path = v.patch.items[i].path;
        if (v.executed[i] && v.launched[i]) {
            v.verdicts[i] = V_VERIFIED;
            al_strbuf why = {0};
            al_strbuf_printf(&why, "launched: the command launched the Triton kernel `%s` "
                                   "holding it and passed%s",
                             v.launched[i], poison ? " with fresh memory poisoned" : "");
            v.reasons[i] = al_strbuf_detach(&why);
        } else if (v.executed[i]) {
            v.verdicts[i] = V_VERIFIED;
            v.reasons[i] = al_xstrdup(poison ? "executed; the command passed with fresh memory "
                                               "poisoned"
                                             : "executed; the command passed");
        } else {
            all_verified = false;
            v.reasons[i] = al_xstrdup(is_python(path) ? "the command never executed it"
                                                      : "not a Python file: no line trace tells "
                                                        "whether the command executed it");
        }
    }
    report(&v, stdout);
    rc = all_verified ? AL_EXIT_CLEAN : AL_EXIT_FINDINGS;
    if (v.o.output && !write_verified(&v))
        rc = AL_EXIT_ERROR;
    verifier_free(&v);
    return rc;
}
