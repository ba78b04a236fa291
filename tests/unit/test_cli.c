/* The command line as a user runs it: exit codes, messages, --fix,
 * --diff, -o, JSON, ignore rules, atomic writes. Runs the built binary. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <cjson/cJSON.h>
#include <git2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "engine/atomic.h"
#include "base/source.h"

#ifndef ALLOCLINT_BIN
#error "ALLOCLINT_BIN must name the alloclint binary"
#endif

static char dir[256];

static const char FINDING[] = "import torch\n\n\ndef f(x):\n"
                              "    buf = torch.zeros(x.shape)\n"
                              "    buf.copy_(x)\n"
                              "    return buf\n";
static const char FIXED[] = "import torch\n\n\ndef f(x):\n"
                            "    buf = torch.empty(x.shape)\n"
                            "    buf.copy_(x)\n"
                            "    return buf\n";
static const char CLEAN[] = "import torch\n\n\ndef f(n):\n    return torch.zeros(n)\n";

static void write_file(const char *name, const char *text, size_t len)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(text, 1, len, f), len);
    assert_int_equal(fclose(f), 0);
}

static char *read_file(const char *name)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    static char buf[1 << 16];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    buf[n] = '\0';
    fclose(f);
    return buf;
}

/* Runs alloclint with args inside the scratch dir; stdout and stderr go
 * to out.txt and err.txt there. Returns the exit status. */
static int run(const char *args)
{
    char cmd[2048];
    snprintf(cmd, sizeof cmd, "cd '%s' && '%s' %s >out.txt 2>err.txt", dir, ALLOCLINT_BIN, args);
    int st = system(cmd);
    assert_true(WIFEXITED(st));
    /* Sanitizer builds: a leak in a run that exits 1 keeps status 1. */
    char log[512];
    snprintf(log, sizeof log, "%s/err.txt", dir);
    FILE *f = fopen(log, "r");
    if (f) {
        char line[1024];
        while (fgets(line, sizeof line, f))
            if (strstr(line, "Sanitizer") || strstr(line, "runtime error:"))
                fail_msg("sanitizer report from `alloclint %s`: %s", args, line);
        fclose(f);
    }
    return WEXITSTATUS(st);
}

static int setup(void **state)
{
    (void)state;
    snprintf(dir, sizeof dir, "/tmp/alloclint-cli-XXXXXX");
    if (!mkdtemp(dir))
        return -1;
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    char cmd[512];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    return system(cmd) == 0 ? 0 : -1;
}

static void exit_codes(void **state)
{
    (void)state;
    write_file("clean.py", CLEAN, strlen(CLEAN));
    write_file("bad.py", FINDING, strlen(FINDING));
    assert_int_equal(run("check clean.py"), 0);
    assert_non_null(strstr(read_file("out.txt"), "All checks passed!"));
    assert_int_equal(run("check bad.py"), 1);
    assert_non_null(strstr(read_file("out.txt"), "bad.py:5:11: AL101 [*] "));
    assert_null(strstr(read_file("out.txt"), "\033[")); /* no colour into a pipe */
    assert_int_equal(run("check --exit-zero bad.py"), 0);
    assert_int_equal(run("check --ignore AL1 bad.py"), 0);
    assert_int_equal(run("check --select ALL --ignore AL101 bad.py"), 0);
    assert_int_equal(run("--version"), 0);
    assert_non_null(strstr(read_file("out.txt"), "alloclint 0."));
    assert_int_equal(run("--help"), 0);
    assert_non_null(strstr(read_file("out.txt"), "Usage: alloclint check"));
}

static void errors_exit_two_and_name_the_problem(void **state)
{
    (void)state;
    assert_int_equal(run("check --frobnicate"), 2);
    assert_non_null(strstr(read_file("err.txt"), "unknown option `--frobnicate`"));
    assert_int_equal(run("check --select XY9"), 2);
    assert_non_null(strstr(read_file("err.txt"), "unknown rule selector `XY9`"));
    assert_int_equal(run("check no_such_file.py"), 2);
    assert_non_null(strstr(read_file("err.txt"), "no_such_file.py: No such file or directory"));
    assert_int_equal(run("check --output-format xml ."), 2);
    assert_int_equal(run("check --fix --diff ."), 2);
    assert_int_equal(run("lint ."), 2);
    assert_int_equal(run(""), 2);
    assert_int_equal(run("check --select"), 2);
    assert_non_null(strstr(read_file("err.txt"), "`--select` needs a value"));
}

static void fix_rewrites_in_place_keeping_mode(void **state)
{
    (void)state;
    write_file("fixme.py", FINDING, strlen(FINDING));
    char path[512];
    snprintf(path, sizeof path, "%s/fixme.py", dir);
    assert_int_equal(chmod(path, 0640), 0);
    assert_int_equal(run("check --fix fixme.py"), 0);
    assert_string_equal(read_file("fixme.py"), FIXED);
    struct stat st;
    assert_int_equal(stat(path, &st), 0);
    assert_int_equal(st.st_mode & 07777, 0640);
    assert_non_null(strstr(read_file("out.txt"), "1 fixed, 0 remaining"));
    write_file("again.py", FINDING, strlen(FINDING));
    assert_int_equal(run("check --fix --show-fixes again.py"), 0);
    assert_non_null(strstr(read_file("out.txt"), "Fixed:\n- again.py:\n    1 \xc3\x97 AL101 (zeros-overwritten), safe\n"));
    write_file("again.py", FINDING, strlen(FINDING));
    assert_int_equal(run("check --fix --exit-non-zero-on-fix again.py"), 1);
    assert_int_equal(run("check --fix --exit-non-zero-on-fix again.py"), 0);
    /* Nothing left behind by the temporary file. */
    assert_int_equal(run("check --fix fixme.py"), 0);
    assert_int_equal(system("ls /dev/null >/dev/null"), 0);
    char cmd[600];
    snprintf(cmd, sizeof cmd, "ls '%s' | grep -q alloclint-", dir);
    assert_int_not_equal(system(cmd), 0);
}

/* What --fix and --diff applied is told by tier, and a fix found only in
 * text an earlier fix wrote is counted apart: a reviewer reads those with
 * the fix they stand on. */
static void fix_report_names_tiers_and_chains(void **state)
{
    (void)state;
    static const char CHAIN[] =
        "import torch\nimport triton\nimport triton.language as tl\n\n\n"
        "@triton.jit\ndef _fill_kernel(out_ptr, n, BLOCK: tl.constexpr):\n"
        "    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)\n"
        "    tl.store(out_ptr + offs, 1.0, mask=offs < n)\n\n\n"
        "def whole(x):\n    out = torch.empty_like(x)\n    out.fill_(0)\n"
        "    n = out.numel()\n    _fill_kernel[(triton.cdiv(n, 128),)](out, n, BLOCK=128)\n"
        "    return out\n";
    write_file("chain.py", CHAIN, strlen(CHAIN));
    assert_int_equal(run("check --select AL101,AL103 --diff --show-fixes chain.py"), 1);
    const char *err = read_file("err.txt");
    assert_non_null(strstr(err, "2 fixes in the diff (0 unsafe, 1 found after an earlier fix); "
                                "0 findings without an applied fix.\n"));
    assert_non_null(strstr(err, "Fixed:\n- chain.py:\n    1 \xc3\x97 AL103 (redundant-fill), safe\n"
                                "    1 \xc3\x97 AL101 (zeros-overwritten), safe, found after an "
                                "earlier fix\n"));
    assert_non_null(strstr(read_file("out.txt"), "-    out.fill_(0)\n"));
    assert_string_equal(read_file("chain.py"), CHAIN);
    assert_int_equal(run("check --select AL101,AL103 --fix --output-format json chain.py"), 0);
    const char *json = read_file("out.txt");
    const char *first = strstr(json, "\"code\":\t\"AL103\"");
    assert_non_null(first);
    assert_non_null(strstr(first, "\"location\":\t{\n\t\t\t\"row\":\t14,"));
    assert_non_null(strstr(first, "\"applied\":\ttrue,\n\t\t\"after_earlier_fix\":\tfalse"));
    const char *second = strstr(first, "\"code\":\t\"AL101\"");
    assert_non_null(second);
    assert_null(strstr(second, "\"location\""));
    assert_non_null(strstr(second, "\"applied\":\ttrue,\n\t\t\"after_earlier_fix\":\ttrue"));
    write_file("u.py", FINDING, strlen(FINDING));
    assert_int_equal(run("check --diff --show-fixes u.py"), 1);
    assert_non_null(strstr(read_file("err.txt"), "1 fix in the diff; 0 findings"));
}

static void diff_prints_patch_and_keeps_file(void **state)
{
    (void)state;
    write_file("d.py", FINDING, strlen(FINDING));
    assert_int_equal(run("check --diff d.py"), 1);
    assert_string_equal(read_file("d.py"), FINDING);
    assert_string_equal(read_file("out.txt"), "--- a/d.py\n+++ b/d.py\n@@ -2,6 +2,6 @@\n \n \n"
                                              " def f(x):\n-    buf = torch.zeros(x.shape)\n"
                                              "+    buf = torch.empty(x.shape)\n"
                                              "     buf.copy_(x)\n     return buf\n");
    assert_int_equal(run("check --diff -o model_patch.diff d.py"), 1);
    assert_string_equal(read_file("model_patch.diff"), "--- a/d.py\n+++ b/d.py\n@@ -2,6 +2,6 @@\n \n \n"
                                                       " def f(x):\n-    buf = torch.zeros(x.shape)\n"
                                                       "+    buf = torch.empty(x.shape)\n"
                                                       "     buf.copy_(x)\n     return buf\n");
    assert_string_equal(read_file("out.txt"), "");
}

/* --diff leaves the file as it is, so what it reports stands where it is
 * in the file: a fix that adds lines above a finding it does not fix does
 * not move the finding (the patched text's line numbers were reported). */
static void diff_reports_findings_at_their_place_in_the_file(void **state)
{
    (void)state;
    static const char SHIFTED[] =
        "import torch\n\n\n"
        "def offsets(lens):\n"
        "    cu = torch.cat([torch.zeros(1, dtype=torch.int32, device=lens.device), torch.cumsum(lens, 0, dtype=torch.int32)])\n"
        "    return cu\n\n\n"
        "def rotary(positions, inv_freq):\n"
        "    freqs = torch.outer(positions, inv_freq)\n"
        "    return torch.cat([freqs.cos(), freqs.sin()], dim=-1)\n";
    write_file("shift.py", SHIFTED, strlen(SHIFTED));
    assert_int_equal(run("check --no-cache --diff --output-format concise shift.py"), 1);
    /* The AL201 fix turns line 5 into three lines; AL204's unsafe fix is
     * not applied, and AL204 stays on line 11 of the file. */
    assert_non_null(strstr(read_file("out.txt"), "+    torch.cumsum(lens, 0, dtype=torch.int32, out=cu[1:])\n"));
    const char *err = read_file("err.txt");
    assert_non_null(strstr(err, "shift.py:11:12: AL204"));
    assert_null(strstr(err, "shift.py:13:"));
    assert_null(strstr(err, "AL201"));
    assert_non_null(strstr(err, "1 fix in the diff; 1 finding without an applied fix."));
}

static void json_output(void **state)
{
    (void)state;
    write_file("j.py", FINDING, strlen(FINDING));
    assert_int_equal(run("check --output-format json j.py"), 1);
    cJSON *root = cJSON_Parse(read_file("out.txt"));
    assert_non_null(root);
    assert_true(cJSON_IsArray(root));
    assert_int_equal(cJSON_GetArraySize(root), 1);
    cJSON *f = cJSON_GetArrayItem(root, 0);
    assert_string_equal(cJSON_GetObjectItem(f, "code")->valuestring, "AL101");
    assert_string_equal(cJSON_GetObjectItem(f, "name")->valuestring, "zeros-overwritten");
    assert_string_equal(cJSON_GetObjectItem(f, "filename")->valuestring, "j.py");
    cJSON *loc = cJSON_GetObjectItem(f, "location");
    assert_int_equal(cJSON_GetObjectItem(loc, "row")->valueint, 5);
    assert_int_equal(cJSON_GetObjectItem(loc, "column")->valueint, 11);
    cJSON *end = cJSON_GetObjectItem(f, "end_location");
    assert_int_equal(cJSON_GetObjectItem(end, "row")->valueint, 5);
    assert_int_equal(cJSON_GetObjectItem(end, "column")->valueint, 31);
    cJSON *fix = cJSON_GetObjectItem(f, "fix");
    assert_string_equal(cJSON_GetObjectItem(fix, "applicability")->valuestring, "safe");
    cJSON *edit = cJSON_GetArrayItem(cJSON_GetObjectItem(fix, "edits"), 0);
    assert_string_equal(cJSON_GetObjectItem(edit, "content")->valuestring, "empty");
    assert_int_equal(cJSON_GetObjectItem(cJSON_GetObjectItem(edit, "location"), "column")->valueint, 17);
    cJSON_Delete(root);
}

static void gitignore_and_force_exclude(void **state)
{
    (void)state;
    git_libgit2_init();
    git_repository *repo;
    char sub[512];
    snprintf(sub, sizeof sub, "%s/repo", dir);
    assert_int_equal(git_repository_init(&repo, sub, 0), 0);
    git_repository_free(repo);
    git_libgit2_shutdown();
    assert_int_equal(mkdir(strcat(strcpy((char[600]){0}, sub), "/gen"), 0755), 0);
    write_file("repo/.gitignore", "gen/\n", 5);
    write_file("repo/gen/out.py", FINDING, strlen(FINDING));
    write_file("repo/model.py", CLEAN, strlen(CLEAN));
    assert_int_equal(run("check repo"), 0);
    assert_int_equal(run("check --no-respect-gitignore repo"), 1);
    assert_int_equal(run("check repo/gen/out.py"), 1);
    assert_int_equal(run("check --force-exclude repo/gen/out.py"), 0);
    /* A folder inside an ignored one, named: nothing in it is checked. */
    assert_int_equal(mkdir(strcat(strcpy((char[600]){0}, sub), "/gen/deep"), 0755), 0);
    write_file("repo/gen/deep/more.py", FINDING, strlen(FINDING));
    assert_int_equal(run("check repo/gen/deep"), 0);
    assert_int_equal(run("check --no-respect-gitignore repo/gen/deep"), 1);
    /* A deeper .gitignore re-includes what a shallower one excludes. */
    write_file("repo/.gitignore", "gen/\n*.py\n", 10);
    assert_int_equal(mkdir(strcat(strcpy((char[600]){0}, sub), "/kept"), 0755), 0);
    write_file("repo/kept/.gitignore", "!*.py\n", 6);
    write_file("repo/kept/k.py", FINDING, strlen(FINDING));
    assert_int_equal(run("check repo"), 1);
    write_file("repo/kept/.gitignore", "# none\n", 7);
    assert_int_equal(run("check repo"), 0);
}

static void bad_input_is_named(void **state)
{
    (void)state;
    const char bad[] = "import torch\n\ndef f(x):\n    s = '\xff'\n"
                       "    buf = torch.zeros(x.shape)\n    buf.copy_(x)\n    return buf\n";
    write_file("latin1.py", bad, sizeof bad - 1);
    assert_int_equal(run("check --fix latin1.py"), 1);
    assert_non_null(strstr(read_file("err.txt"), "latin1.py:4:10: invalid UTF-8"));
    assert_memory_equal(read_file("latin1.py"), bad, sizeof bad - 1);
    char path[512];
    snprintf(path, sizeof path, "%s/folder.py", dir);
    assert_int_equal(mkdir(path, 0755), 0);
    assert_int_equal(run("check folder.py"), 0); /* a directory: walked, empty */
    snprintf(path, sizeof path, "%s/dangling.py", dir);
    assert_int_equal(symlink("/nonexistent/target.py", path), 0);
    assert_int_equal(run("check dangling.py"), 2);
    assert_non_null(strstr(read_file("err.txt"), "dangling.py: No such file or directory"));
}

/* A folder, and a link to a path (both relative to the test's folder). */
static void make_dir(const char *rel)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, rel);
    assert_int_equal(mkdir(path, 0755), 0);
}

static void make_link(const char *target_rel, const char *link_rel)
{
    char target[512], path[512];
    snprintf(target, sizeof target, "%s/%s", dir, target_rel);
    snprintf(path, sizeof path, "%s/%s", dir, link_rel);
    assert_int_equal(symlink(target, path), 0);
}

/* A link's configuration is its target's: a linked file, a file in a
 * linked folder, and a file beside a link in the walk. */
static void configuration_follows_links(void **state)
{
    (void)state;
    static const char *const dirs[] = {"cfglinks", "cfglinks/owner", "cfglinks/owner/pkg",
                                       "cfglinks/other", "cfglinks/beside", "cfglinks/linkcfg"};
    for (size_t i = 0; i < sizeof dirs / sizeof *dirs; i++)
        make_dir(dirs[i]);
    static const char config[] = "[tool.alloclint]\nignore = [\"AL101\"]\n";
    write_file("cfglinks/owner/pyproject.toml", config, sizeof config - 1);
    write_file("cfglinks/owner/pkg/model.py", FINDING, strlen(FINDING));
    write_file("cfglinks/other/plain.py", FINDING, strlen(FINDING));
    make_link("cfglinks/owner/pkg/model.py", "cfglinks/other/linked.py");
    make_link("cfglinks/owner/pkg", "cfglinks/other/pkglink");
    /* The owner's configuration ignores AL101 for its files, reached
     * through either link; the other folder has none. */
    assert_int_equal(run("check cfglinks/other/linked.py"), 0);
    assert_int_equal(run("check cfglinks/other/pkglink/model.py"), 0);
    assert_int_equal(run("check cfglinks/other/plain.py"), 1);
    assert_int_equal(run("check --output-format concise cfglinks/other"), 1);
    const char *out = read_file("out.txt");
    assert_non_null(strstr(out, "plain.py"));
    assert_null(strstr(out, "linked.py"));
    /* The linked folder named as a root beside its link's folder (no
     * linked file in the run to resolve owner/pkg first): the lookup
     * steps up from the link's target (owner/pkg, then owner), not into
     * the folder the link sits in, whose listing has no config. */
    write_file("cfglinks/beside/plain.py", FINDING, strlen(FINDING));
    make_link("cfglinks/owner/pkg", "cfglinks/beside/pkglink");
    assert_int_equal(
        run("check --no-cache --output-format concise cfglinks/beside cfglinks/beside/pkglink"), 1);
    out = read_file("out.txt");
    assert_non_null(strstr(out, "beside/plain.py"));
    assert_null(strstr(out, "pkglink/model.py"));
    /* A configuration file that is itself a link, seen in a walk's
     * listing as one, is read. */
    write_file("cfglinks/linkcfg/model.py", FINDING, strlen(FINDING));
    make_link("cfglinks/owner/pyproject.toml", "cfglinks/linkcfg/pyproject.toml");
    assert_int_equal(run("check cfglinks/linkcfg"), 0);
    assert_int_equal(run("check cfglinks/linkcfg/"), 0);
}

/* A virtualenv (a folder holding pyvenv.cfg, also as a link) below a
 * walked folder is not the project's; named itself, it is checked. */
static void virtualenvs_are_skipped(void **state)
{
    (void)state;
    char path[512], target[512];
    static const char *const dirs[] = {"venvs", "venvs/env", "venvs/env/lib", "venvs/linked",
                                       "venvs/linked/lib"};
    for (size_t i = 0; i < sizeof dirs / sizeof *dirs; i++) {
        snprintf(path, sizeof path, "%s/%s", dir, dirs[i]);
        assert_int_equal(mkdir(path, 0755), 0);
    }
    write_file("venvs/env/pyvenv.cfg", "home = /usr/bin\n", 16);
    write_file("venvs/env/lib/site.py", FINDING, strlen(FINDING));
    snprintf(target, sizeof target, "%s/venvs/env/pyvenv.cfg", dir);
    snprintf(path, sizeof path, "%s/venvs/linked/pyvenv.cfg", dir);
    assert_int_equal(symlink(target, path), 0);
    write_file("venvs/linked/lib/site.py", FINDING, strlen(FINDING));
    write_file("venvs/model.py", CLEAN, strlen(CLEAN));
    assert_int_equal(run("check venvs"), 0);
    assert_int_equal(run("check venvs/env"), 1);
}

static void changed_on_disk_is_not_overwritten(void **state)
{
    (void)state;
    write_file("race.py", FINDING, strlen(FINDING));
    char path[512];
    snprintf(path, sizeof path, "%s/race.py", dir);
    uint64_t stale = al_hash_bytes("something else", 14);
    int err;
    assert_int_equal(al_write_atomic(path, FIXED, strlen(FIXED), stale, &err), AL_WRITE_CHANGED);
    assert_string_equal(read_file("race.py"), FINDING);
    uint64_t now = al_hash_bytes(FINDING, strlen(FINDING));
    assert_int_equal(al_write_atomic(path, FIXED, strlen(FIXED), now, &err), AL_WRITE_OK);
    assert_string_equal(read_file("race.py"), FIXED);
}

static void other_formats(void **state)
{
    (void)state;
    const char *two = "import torch\n\n\ndef f(x, device):\n"
                      "    buf = torch.zeros(x.shape)\n"
                      "    buf.copy_(x)\n"
                      "    pos = torch.arange(8).to(device)\n"
                      "    return buf, pos\n";
    write_file("fmt.py", two, strlen(two));
    assert_int_equal(run("check --output-format github fmt.py"), 1);
    assert_string_equal(
        read_file("out.txt"),
        "::error title=alloclint (AL101),file=fmt.py,line=5,col=11,endLine=5,endColumn=31::"
        "fmt.py:5:11: AL101 `torch.zeros` buffer `buf` is fully overwritten by `copy_` on line 6 "
        "before any read; the zero fill is wasted\n"
        "::error title=alloclint (AL501),file=fmt.py,line=7,col=11,endLine=7,endColumn=37::"
        "fmt.py:7:11: AL501 `torch.arange` builds the tensor in host memory and then copies it to "
        "the device: pass `device=device` to the factory\n");
    assert_int_equal(run("check --output-format json-lines fmt.py"), 1);
    char *lines = strdup(read_file("out.txt"));
    int n = 0;
    for (char *line = strtok(lines, "\n"); line; line = strtok(NULL, "\n")) {
        cJSON *o = cJSON_Parse(line);
        assert_non_null(o);
        assert_string_equal(cJSON_GetObjectItem(o, "code")->valuestring, n == 0 ? "AL101" : "AL501");
        cJSON_Delete(o);
        n++;
    }
    free(lines);
    assert_int_equal(n, 2);
    assert_int_equal(run("check --statistics fmt.py"), 1);
    assert_string_equal(read_file("out.txt"), "    1\tAL101\t[*] zeros-overwritten\n"
                                              "    1\tAL501\t[*] host-alloc-then-copy\n"
                                              "Found 2 findings.\n"
                                              "[*] 2 fixable with the `--fix` option.\n");
}

static void configuration(void **state)
{
    (void)state;
    char path[600];
    snprintf(path, sizeof path, "%s/proj", dir);
    assert_int_equal(mkdir(path, 0755), 0);
    snprintf(path, sizeof path, "%s/proj/sub", dir);
    assert_int_equal(mkdir(path, 0755), 0);
    snprintf(path, sizeof path, "%s/proj/gen", dir);
    assert_int_equal(mkdir(path, 0755), 0);
    const char *cfg = "[project]\nname = \"demo\"\n\n[tool.alloclint]\n"
                      "extend-select = [\"AL301\"]\nignore = [\"AL501\"]\n"
                      "extend-exclude = [\"gen\"]\n\n"
                      "[tool.alloclint.per-file-ignores]\n\"sub/*.py\" = [\"AL101\"]\n\n"
                      "[[tool.alloclint.ops]]\nname = \"torch.ops.demo.fill_all\"\n"
                      "out = 0\nfull = true\n";
    write_file("proj/pyproject.toml", cfg, strlen(cfg));
    const char *code = "import torch\n\n\ndef f(x, n, device):\n"
                       "    buf = torch.zeros(x.shape)\n"
                       "    torch.ops.demo.fill_all(buf, x)\n"
                       "    pos = torch.arange(n).to(device)\n"
                       "    for i in range(n):\n"
                       "        tmp = torch.empty(n)\n"
                       "        torch.mul(x, 2, out=tmp)\n"
                       "        x.add_(tmp)\n"
                       "    return buf, pos\n";
    write_file("proj/a.py", code, strlen(code));
    write_file("proj/sub/b.py", code, strlen(code));
    write_file("proj/gen/c.py", code, strlen(code));
    assert_int_equal(run("check --output-format concise -q proj"), 1);
    assert_string_equal(read_file("out.txt"),
                        "proj/a.py:5:11: AL101 [*] `torch.zeros` buffer `buf` is fully overwritten "
                        "by `torch.ops.demo.fill_all` (argument 0) on line 6 before any read; the "
                        "zero fill is wasted\n"
                        "proj/a.py:9:15: AL301 [unsafe fix] `tmp` is allocated on every iteration "
                        "of the loop on line 8 with the same shape, dtype and device, and does not "
                        "outlive the iteration: hoist it (unsafe: every iteration then writes the "
                        "same buffer: assumes nothing still reads the last one's when the next "
                        "writes it, such as work queued on another stream)\n"
                        "proj/sub/b.py:9:15: AL301 [unsafe fix] `tmp` is allocated on every "
                        "iteration of the loop on line 8 with the same shape, dtype and device, "
                        "and does not outlive the iteration: hoist it (unsafe: every iteration "
                        "then writes the same buffer: assumes nothing still reads the last one's "
                        "when the next writes it, such as work queued on another stream)\n");
    /* The command line wins: --select replaces the config's selection. */
    assert_int_equal(run("check --output-format concise -q --select AL501 proj/a.py"), 1);
    assert_non_null(strstr(read_file("out.txt"), "proj/a.py:7:11: AL501"));
    /* A file named explicitly is checked even when excluded... */
    assert_int_equal(run("check -q proj/gen/c.py"), 1);
    /* ...unless --force-exclude. */
    assert_int_equal(run("check -q --force-exclude proj/gen/c.py"), 0);
    /* A malformed configuration stops the run, naming file, line and key. */
    const char *bad = "[tool.alloclint]\nselect = [\"AL101\"]\nignored = true\n";
    write_file("proj/pyproject.toml", bad, strlen(bad));
    assert_int_equal(run("check proj"), 2);
    assert_non_null(strstr(read_file("err.txt"), "proj/pyproject.toml:3: `ignored`: unknown key"));
    const char *badtype = "[tool.alloclint]\nselect = \"AL101\"\n";
    write_file("proj/pyproject.toml", badtype, strlen(badtype));
    assert_int_equal(run("check proj"), 2);
    assert_non_null(strstr(read_file("err.txt"),
                           "proj/pyproject.toml:2: `select`: expected an array of strings"));
    const char *syntax = "[tool.alloclint\nselect = [\n";
    write_file("proj/pyproject.toml", syntax, strlen(syntax));
    assert_int_equal(run("check proj"), 2);
    assert_non_null(strstr(read_file("err.txt"), "pyproject.toml:1: TOML syntax error"));
}

static void changed_since(void **state)
{
    (void)state;
    char sub[512], cmd[1400];
    snprintf(sub, sizeof sub, "%s/since", dir);
    assert_int_equal(mkdir(sub, 0755), 0);
    write_file("since/old.py", FINDING, strlen(FINDING));
    snprintf(cmd, sizeof cmd,
             "cd '%s' && git init -q . && git add old.py && "
             "git -c user.name=t -c user.email=t@example.com commit -q -m one",
             sub);
    assert_int_equal(system(cmd), 0);
    write_file("since/new.py", FINDING, strlen(FINDING));
    snprintf(cmd, sizeof cmd, "cd '%s' && '%s' check --since HEAD --output-format concise -q . "
                              ">../out.txt 2>../err.txt", sub, ALLOCLINT_BIN);
    int st = system(cmd);
    assert_int_equal(WEXITSTATUS(st), 1);
    assert_string_equal(read_file("out.txt"),
                        "new.py:5:11: AL101 [*] `torch.zeros` buffer `buf` is fully overwritten by "
                        "`copy_` on line 6 before any read; the zero fill is wasted\n");
    snprintf(cmd, sizeof cmd, "cd '%s' && '%s' check --since no-such-rev . >../out.txt 2>../err.txt",
             sub, ALLOCLINT_BIN);
    st = system(cmd);
    assert_int_equal(WEXITSTATUS(st), 2);
    assert_non_null(strstr(read_file("err.txt"), "--since no-such-rev: no such revision"));
}

static void text_format(void **state)
{
    (void)state;
    write_file("txt.py", FINDING, strlen(FINDING));
    assert_int_equal(run("check txt.py"), 1);
    assert_string_equal(read_file("out.txt"),
                        "txt.py:5:11: AL101 [*] `torch.zeros` buffer `buf` is fully overwritten by "
                        "`copy_` on line 6 before any read; the zero fill is wasted\n"
                        "     5 |     buf = torch.zeros(x.shape)\n"
                        "       |           ^^^^^^^^^^^^^^^^^^^^\n"
                        "       = fix (safe): Replace `zeros` with `empty`\n"
                        "\n"
                        "Found 1 finding.\n"
                        "[*] 1 fixable with the `--fix` option.\n");
    /* unsafe-fixes = true in the configuration: unsafe fixes count as fixable. */
    char sub[600];
    snprintf(sub, sizeof sub, "%s/unsafecfg", dir);
    assert_int_equal(mkdir(sub, 0755), 0);
    const char *cfg = "unsafe-fixes = true\n\n[[ops]]\nname = \"torch.ops._C.act\"\nout = 0\n"
                      "full = false\n";
    write_file("unsafecfg/alloclint.toml", cfg, strlen(cfg));
    const char *k = "import torch\n\n\ndef f(x, out):\n"
                    "    o = torch.zeros_like(x)\n"
                    "    torch.ops._C.act(o, x)\n"
                    "    return o\n";
    write_file("unsafecfg/k.py", k, strlen(k));
    assert_int_equal(run("check --output-format concise unsafecfg"), 1);
    assert_non_null(strstr(read_file("out.txt"), "AL101 [*] "));
    assert_non_null(strstr(read_file("out.txt"), "[*] 1 fixable with the `--fix` option.\n"));
    assert_int_equal(run("check --fix -q unsafecfg"), 0);
    assert_non_null(strstr(read_file("unsafecfg/k.py"), "torch.empty_like(x)"));
}

static void rule_pages(void **state)
{
    (void)state;
    assert_int_equal(run("rule AL101"), 0);
    assert_non_null(strstr(read_file("out.txt"), "# AL101 zeros-overwritten"));
    assert_int_equal(run("rule --all"), 0);
    const char *all = read_file("out.txt");
    assert_non_null(strstr(all, "AL301  alloc-in-loop            off      unsafe"));
    assert_non_null(strstr(all, "AL101  zeros-overwritten        on       safe/unsafe"));
    assert_int_equal(run("rule AL999"), 2);
    assert_non_null(strstr(read_file("err.txt"), "unknown rule `AL999`"));
}

static void add_noqa_adopts_a_codebase(void **state)
{
    (void)state;
    const char *text = "import torch\n\n\ndef f(x):\n"
                       "    buf = torch.zeros(x.shape)  # keep me\n"
                       "    buf.copy_(x)\n"
                       "    return buf\n\n\n"
                       "def g(x):\n"
                       "    doc = \"\"\"torch.zeros(x.shape)\n\"\"\"\n"
                       "    y = torch.zeros(x.shape)\n"
                       "    y.copy_(x)\n"
                       "    return doc, y\n";
    write_file("adopt.py", text, strlen(text));
    assert_int_equal(run("check --add-noqa adopt.py"), 0);
    assert_string_equal(read_file("out.txt"), "Added 2 noqa directives to 1 file.\n");
    const char *want = "import torch\n\n\ndef f(x):\n"
                       "    buf = torch.zeros(x.shape)  # keep me  # noqa: AL101\n"
                       "    buf.copy_(x)\n"
                       "    return buf\n\n\n"
                       "def g(x):\n"
                       "    doc = \"\"\"torch.zeros(x.shape)\n\"\"\"\n"
                       "    y = torch.zeros(x.shape)  # noqa: AL101\n"
                       "    y.copy_(x)\n"
                       "    return doc, y\n";
    assert_string_equal(read_file("adopt.py"), want);
    assert_int_equal(run("check adopt.py"), 0);
    assert_int_equal(run("check --add-noqa adopt.py"), 0);
    assert_string_equal(read_file("out.txt"), "Added 0 noqa directives to 0 files.\n");
    assert_int_equal(run("check --add-noqa --fix adopt.py"), 2);
}

/* `check -` as editors call it: the source on stdin, reported under
 * --stdin-filename with that path's configuration; with --fix the fixed
 * source on stdout and the report on stderr; the file on disk untouched. */
static void stdin_source(void **state)
{
    (void)state;
    char path[600];
    snprintf(path, sizeof path, "%s/edit", dir);
    assert_int_equal(mkdir(path, 0755), 0);
    const char *cfg = "[per-file-ignores]\n\"tests/*.py\" = [\"AL101\"]\n";
    write_file("edit/alloclint.toml", cfg, strlen(cfg));
    write_file("edit/m.py", FINDING, sizeof FINDING - 1);
    write_file("edit/clean.py", CLEAN, sizeof CLEAN - 1);

    assert_int_equal(run("check -q --output-format concise --stdin-filename edit/new/m.py - "
                         "< edit/m.py"),
                     1);
    assert_non_null(strstr(read_file("out.txt"), "edit/new/m.py:5:11: AL101 [*]"));
    /* Not named at all: `-`. */
    assert_int_equal(run("check -q --output-format concise - < edit/m.py"), 1);
    assert_non_null(strstr(read_file("out.txt"), "-:5:11: AL101"));
    /* The path's per-file ignores apply, though no such file exists. */
    assert_int_equal(run("check -q --stdin-filename edit/tests/m.py - < edit/m.py"), 0);

    assert_int_equal(run("check --fix --stdin-filename edit/m.py - < edit/m.py"), 0);
    assert_string_equal(read_file("out.txt"), FIXED);
    assert_non_null(strstr(read_file("err.txt"), "1 fixed, 0 remaining"));
    assert_string_equal(read_file("edit/m.py"), FINDING);
    /* Nothing to fix: the source comes back as it was. */
    assert_int_equal(run("check --fix --stdin-filename edit/clean.py - < edit/clean.py"), 0);
    assert_string_equal(read_file("out.txt"), CLEAN);

    assert_int_equal(run("check --diff --stdin-filename edit/m.py - < edit/m.py"), 1);
    assert_non_null(strstr(read_file("out.txt"), "+++ b/edit/m.py\n"));

    assert_int_equal(run("check - edit/m.py < edit/m.py"), 2);
    assert_non_null(strstr(read_file("err.txt"), "cannot be mixed with other paths"));
    assert_int_equal(run("check --stdin-filename x.py edit/m.py"), 2);
    assert_int_equal(run("check --add-noqa - < edit/m.py"), 2);
}

/* ruff's option forms: a short option's value glued on. */
static void option_forms(void **state)
{
    (void)state;
    write_file("forms.py", FINDING, sizeof FINDING - 1);
    assert_int_equal(run("check -q -j1 forms.py"), 1);
    assert_int_equal(run("check -q -j 1 forms.py"), 1);
    assert_int_equal(run("check -q --threads=2 forms.py"), 1);
    assert_int_equal(run("check -q -oreport.txt forms.py"), 1);
    assert_non_null(strstr(read_file("report.txt"), "forms.py:5:11: AL101"));
    assert_int_equal(run("check -j0 forms.py"), 2);
    assert_non_null(strstr(read_file("err.txt"), "from 1 to 256, not `0`"));
    assert_int_equal(run("check -qj1 forms.py"), 2); /* flags do not bundle */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(exit_codes),
        cmocka_unit_test(errors_exit_two_and_name_the_problem),
        cmocka_unit_test(fix_rewrites_in_place_keeping_mode),
        cmocka_unit_test(diff_prints_patch_and_keeps_file),
        cmocka_unit_test(fix_report_names_tiers_and_chains),
        cmocka_unit_test(diff_reports_findings_at_their_place_in_the_file),
        cmocka_unit_test(json_output),
        cmocka_unit_test(gitignore_and_force_exclude),
        cmocka_unit_test(configuration_follows_links),
        cmocka_unit_test(virtualenvs_are_skipped),
        cmocka_unit_test(bad_input_is_named),
        cmocka_unit_test(changed_on_disk_is_not_overwritten),
        cmocka_unit_test(add_noqa_adopts_a_codebase),
        cmocka_unit_test(rule_pages),
        cmocka_unit_test(other_formats),
        cmocka_unit_test(configuration),
        cmocka_unit_test(changed_since),
        cmocka_unit_test(text_format),
        cmocka_unit_test(stdin_source),
        cmocka_unit_test(option_forms),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
