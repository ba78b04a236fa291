#include "profile.h"

#include "../base/util.h"
#include "../run/companion.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static char *absolute(const char *path)
{
    char real[PATH_MAX];
    if (realpath(path, real))
        return al_xstrdup(real);
    return al_xstrdup(path);
}

bool al_profile_record(const char *trace_path, const char *const *paths, size_t n_paths,
                       char *const *cmd, int *status, char *err, size_t err_size)
{
    *status = -1;
    char *root = al_companion_make("profile", err, err_size);
    if (!root)
        return false;
    /* The trace is written by the command, which may change folder. */
    char cwd[PATH_MAX];
    al_strbuf trace = {0}, where = {0};
    if (trace_path[0] != '/' && getcwd(cwd, sizeof cwd))
        al_strbuf_printf(&trace, "%s/", cwd);
    al_strbuf_puts(&trace, trace_path);
    for (size_t i = 0; i < (n_paths ? n_paths : 1); i++) {
        char *a = absolute(n_paths ? paths[i] : ".");
        al_strbuf_printf(&where, "%s%s", i ? ":" : "", a);
        free(a);
    }
    char *pp = al_companion_pythonpath(root);
    al_strbuf profile_env = {0}, paths_env = {0};
    al_strbuf_printf(&profile_env, "ALLOCLINT_PROFILE=%s", trace.data);
    al_strbuf_printf(&paths_env, "ALLOCLINT_PROFILE_PATHS=%s", where.data);
    remove(trace.data); /* a trace left from before is not this run's */
    fflush(NULL);
    pid_t pid = fork();
    bool ok = pid >= 0;
    if (pid == 0) {
        putenv(pp);
        putenv(profile_env.data);
        putenv(paths_env.data);
        execvp(cmd[0], cmd);
        fprintf(stderr, "alloclint profile: cannot run `%s`: %s\n", cmd[0], strerror(errno));
        _exit(127);
    }
    if (!ok)
        snprintf(err, err_size, "cannot start `%s`: %s", cmd[0], strerror(errno));
    int st = 0;
    while (ok && waitpid(pid, &st, 0) < 0) {
        if (errno != EINTR) {
            snprintf(err, err_size, "lost `%s`: %s", cmd[0], strerror(errno));
            ok = false;
        }
    }
    if (ok)
        *status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + (WIFSIGNALED(st) ? WTERMSIG(st) : 0);
    struct stat sb;
    if (ok && stat(trace.data, &sb) != 0) {
        snprintf(err, err_size, "`%s` wrote no trace to %s (exit status %d): it must run "
                                "Python with torch, and end without os._exit",
                 cmd[0], trace_path, *status);
        ok = false;
    }
    al_companion_remove(root);
    free(root);
    free(pp);
    al_strbuf_free(&profile_env);
    al_strbuf_free(&paths_env);
    al_strbuf_free(&trace);
    al_strbuf_free(&where);
    return ok;
}
