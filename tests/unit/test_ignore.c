/* gitignore matching: git's wildmatch cases, the parse of an ignore
 * file, and the matcher held to git's own answers (`git check-ignore`)
 * over generated trees with generated ignore files. libgit2, which the
 * walk asked before, is compared too and its disagreements with git
 * counted: it lets a global excludes file override a .gitignore. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <dirent.h>
#include <git2.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "run/gitignore.h"
#include "base/ignore.h"

static void test_wildmatch(void **state)
{
    (void)state;
    static const struct {
        const char *pattern, *text;
        bool match;
    } cases[] = {
        {"*.py", "model.py", true},
        {"*.py", "pkg/model.py", false}, /* '*' stops at '/' */
        {"?", "/", false},
        {"a?c", "abc", true},
        {"**/foo", "foo", true}, /* a leading "**" and slash may match no folder */
        {"**/foo", "a/b/foo", true},
        {"a/**/b", "a/b", true},
        {"a/**/b", "a/x/y/b", true},
        {"a/**", "a/x/y", true},
        {"a/**", "a", false},
        {"a**b", "a/b", false}, /* not a whole component: one '*' */
        {"a**b", "axxb", true},
        {"[a-c]x", "bx", true},
        {"[!a-c]x", "bx", false},
        {"[^a-c]x", "dx", true},
        {"[]]", "]", true},
        {"[a-]", "-", true},
        {"[[:upper:]]*", "Build", true},
        {"[[:upper:]]*", "build", false},
        {"[[:bogus:]]", "b", false},
        {"[a/]b", "/b", false}, /* a class never matches '/' */
        {"\\*", "*", true},
        {"\\*", "x", false},
        {"\\#c", "#c", true},
        {"a\\ b", "a b", true},
        {"foo", "Foo", false},
        {"[abc", "a", false}, /* unterminated class */
        {"a\\", "a", false},
        {"*/b", "a/b", true},
        {"*/b", "a/c/b", false},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        bool got = al_wildmatch(cases[i].pattern, cases[i].text, false);
        if (got != cases[i].match)
            fail_msg("wildmatch(\"%s\", \"%s\") = %d, expected %d", cases[i].pattern, cases[i].text,
                     got, cases[i].match);
    }
    assert_true(al_wildmatch("foo", "FOO", true));
    assert_true(al_wildmatch("[a-c]x", "BX", true));
}

static void test_parse(void **state)
{
    (void)state;
    const char text[] = "\xEF\xBB\xBF# comment\n"
                        "\n"
                        "build/\r\n"
                        "/dist\n"
                        "!keep.py\n"
                        "trail   \n"
                        "space\\ \n"
                        "\\#hash\n"
                        "docs/api\n"
                        "/\n";
    al_ignore_rules r = {0};
    al_ignore_parse(&r, text, sizeof text - 1);
    assert_int_equal(r.n, 7);
    assert_string_equal(r.items[0].glob, "build");
    assert_true(r.items[0].dir_only);
    assert_false(r.items[0].anchored);
    assert_string_equal(r.items[1].glob, "dist");
    assert_true(r.items[1].anchored);
    assert_true(r.items[2].negated);
    assert_string_equal(r.items[3].glob, "trail");
    assert_string_equal(r.items[4].glob, "space\\ ");
    assert_string_equal(r.items[5].glob, "\\#hash");
    assert_true(r.items[6].anchored);
    assert_int_equal(al_ignore_match(&r, "x/build", true, false), AL_IGNORE_EXCLUDED);
    assert_int_equal(al_ignore_match(&r, "x/build", false, false), AL_IGNORE_NO_MATCH);
    assert_int_equal(al_ignore_match(&r, "dist", true, false), AL_IGNORE_EXCLUDED);
    assert_int_equal(al_ignore_match(&r, "x/dist", true, false), AL_IGNORE_NO_MATCH);
    assert_int_equal(al_ignore_match(&r, "x/keep.py", false, false), AL_IGNORE_INCLUDED);
    assert_int_equal(al_ignore_match(&r, "docs/api", false, false), AL_IGNORE_EXCLUDED);
    assert_int_equal(al_ignore_match(&r, "x/docs/api", false, false), AL_IGNORE_NO_MATCH);
    al_ignore_rules_free(&r);

    /* Globs refused early by their literal head and tail must still
     * match where a "**" + "/" matches no folder. */
    static const char globs[] = "a/**/b\n**/foo\nx*y.py\nlib/*.so\n";
    al_ignore_parse(&r, globs, sizeof globs - 1);
    assert_int_equal(al_ignore_match(&r, "a/b", false, false), AL_IGNORE_EXCLUDED);
    assert_int_equal(al_ignore_match(&r, "a/c/d/b", false, false), AL_IGNORE_EXCLUDED);
    assert_int_equal(al_ignore_match(&r, "ab", false, false), AL_IGNORE_NO_MATCH);
    assert_int_equal(al_ignore_match(&r, "foo", false, false), AL_IGNORE_EXCLUDED);
    assert_int_equal(al_ignore_match(&r, "q/foo", false, false), AL_IGNORE_EXCLUDED);
    assert_int_equal(al_ignore_match(&r, "xy.py", false, false), AL_IGNORE_EXCLUDED);
    assert_int_equal(al_ignore_match(&r, "x.py", false, false), AL_IGNORE_NO_MATCH);
    assert_int_equal(al_ignore_match(&r, "lib/m.so", false, false), AL_IGNORE_EXCLUDED);
    assert_int_equal(al_ignore_match(&r, "lib/a/m.so", false, false), AL_IGNORE_NO_MATCH);
    assert_int_equal(al_ignore_match(&r, "LIB/m.so", false, true), AL_IGNORE_EXCLUDED);
    al_ignore_rules_free(&r);
}

/* --- Differential test against libgit2 --- */

static unsigned long long seed_state;

static unsigned next_rand(unsigned bound)
{
    seed_state = seed_state * 6364136223846793005ULL + 1442695040888963407ULL;
    return (unsigned)((seed_state >> 33) % bound);
}

static const char *const names[] = {"a", "b", "ab", "A", "x.py", "y.py", "B.PY", "build", "lib",
                                    "a b", "#c", "!d", "[x]", "x*y", "foo.pyc", "deep", "-",
                                    "a.b.py", "bb", "ba"};
#define N_NAMES (sizeof names / sizeof *names)

static const char *const segments[] = {"*", "**", "?", "a*", "*.py", "[a-b]*", "[!a]", "[[:upper:]]*",
                                       "ab", "a", "build", "lib", "x?py", "\\#c", "\\!d", "a\\ b",
                                       "\\[x\\]", "*y", "A", "b*", "deep", "[ab]", "*.b*", "x\\*y",
                                       "?b", "**.py"};
#define N_SEGMENTS (sizeof segments / sizeof *segments)

static void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

static void random_rules(const char *path)
{
    char text[2048] = "";
    unsigned n = 1 + next_rand(6);
    for (unsigned i = 0; i < n; i++) {
        char line[256] = "";
        unsigned kind = next_rand(20);
        if (kind == 0) {
            strcat(line, "# a comment");
        } else if (kind == 1) {
            /* blank */
        } else {
            if (next_rand(4) == 0)
                strcat(line, "!");
            if (next_rand(4) == 0)
                strcat(line, "/");
            unsigned parts = 1 + next_rand(3);
            for (unsigned k = 0; k < parts; k++) {
                if (k)
                    strcat(line, "/");
                strcat(line, segments[next_rand(N_SEGMENTS)]);
            }
            if (next_rand(4) == 0)
                strcat(line, "/");
            if (next_rand(8) == 0)
                strcat(line, "  ");
        }
        strcat(line, next_rand(10) == 0 ? "\r\n" : "\n");
        strcat(text, line);
    }
    write_file(path, text);
}

static void random_tree(const char *dir, int depth)
{
    unsigned n = 2 + next_rand(5);
    for (unsigned i = 0; i < n; i++) {
        char path[PATH_MAX];
        snprintf(path, sizeof path, "%s/%s", dir, names[next_rand(N_NAMES)]);
        struct stat st;
        if (lstat(path, &st) == 0)
            continue;
        if (depth < 3 && next_rand(3) == 0) {
            mkdir(path, 0700);
            random_tree(path, depth + 1);
        } else {
            write_file(path, "x = 1\n");
        }
    }
    if (next_rand(2) == 0) {
        char path[PATH_MAX];
        snprintf(path, sizeof path, "%s/.gitignore", dir);
        random_rules(path);
    }
}

/* git's verdicts on every path of a tree, from one `git check-ignore`. */
typedef struct {
    char **paths;
    bool *excluded;
    size_t n;
} verdicts;

/* Calls fn for each entry of folder rel (relative to root) but .git;
 * fn returns whether to go into a folder. */
static void walk(const char *root, const char *rel, bool (*fn)(void *, const char *, bool),
                 void *ctx)
{
    char dir[PATH_MAX];
    snprintf(dir, sizeof dir, "%s%s%s", root, *rel ? "/" : "", rel);
    DIR *d = opendir(dir);
    assert_non_null(d);
    struct dirent *ent;
    while ((ent = readdir(d)) != NULL) {
        if (!strcmp(ent->d_name, ".") || !strcmp(ent->d_name, "..") ||
            !strcmp(ent->d_name, ".git"))
            continue;
        char sub[PATH_MAX];
        snprintf(sub, sizeof sub, "%s%s%s", rel, *rel ? "/" : "", ent->d_name);
        bool is_dir = ent->d_type == DT_DIR;
        if (fn(ctx, sub, is_dir) && is_dir)
            walk(root, sub, fn, ctx);
    }
    closedir(d);
}

static bool list_path(void *out, const char *rel, bool is_dir)
{
    (void)is_dir;
    fputs(rel, out);
    fputc('\0', out);
    return true;
}

static void ask_git(const char *root, const char *xdg, verdicts *v)
{
    char list[PATH_MAX + 16], answer[PATH_MAX + 16], cmd[8 * PATH_MAX];
    snprintf(list, sizeof list, "%s.paths", root);
    snprintf(answer, sizeof answer, "%s.answer", root);
    FILE *f = fopen(list, "wb");
    assert_non_null(f);
    walk(root, "", list_path, f);
    fclose(f);
    snprintf(cmd, sizeof cmd,
             "cd '%s' && HOME='%s' XDG_CONFIG_HOME='%s' git check-ignore --no-index -v -n -z "
             "--stdin <'%s' >'%s'",
             root, root, xdg, list, answer);
    int rc = system(cmd);
    assert_true(rc == 0 || WEXITSTATUS(rc) == 1);
    f = fopen(answer, "rb");
    assert_non_null(f);
    static char buf[1 << 20];
    size_t len = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    assert_true(len < sizeof buf - 1);
    /* Records of four fields: source, line, pattern, path. */
    memset(v, 0, sizeof *v);
    size_t cap = 0;
    for (size_t i = 0; i < len;) {
        const char *field[4];
        for (int k = 0; k < 4; k++) {
            assert_true(i < len);
            field[k] = buf + i;
            i += strlen(buf + i) + 1;
        }
        if (v->n == cap) {
            cap = cap ? 2 * cap : 64;
            v->paths = realloc(v->paths, cap * sizeof *v->paths);
            v->excluded = realloc(v->excluded, cap * sizeof *v->excluded);
        }
        v->paths[v->n] = strdup(field[3]);
        v->excluded[v->n++] = field[2][0] && field[2][0] != '!';
    }
    unlink(list);
    unlink(answer);
}

static bool git_excludes(const verdicts *v, const char *path)
{
    for (size_t i = 0; i < v->n; i++)
        if (!strcmp(v->paths[i], path))
            return v->excluded[i];
    fail_msg("git said nothing of %s", path);
    return false;
}

static void verdicts_free(verdicts *v)
{
    for (size_t i = 0; i < v->n; i++)
        free(v->paths[i]);
    free(v->paths);
    free(v->excluded);
}

typedef struct {
    git_repository *repo;
    al_gitignore *mine;
    const verdicts *git;
    const char *root;
    size_t compared, excluded, libgit2_differs;
    char first_difference[PATH_MAX + 64];
} comparison;

static bool compare_one(void *ctx, const char *sub, bool is_dir)
{
    comparison *c = ctx;
    bool ref = git_excludes(c->git, sub);
    bool got = al_gitignore_excludes(c->mine, sub, is_dir);
    char asked[PATH_MAX + 1];
    snprintf(asked, sizeof asked, "%s%s", sub, is_dir ? "/" : "");
    int lib = 0;
    assert_int_equal(git_ignore_path_is_ignored(&lib, c->repo, asked), 0);
    c->libgit2_differs += (lib != 0) != ref;
    c->compared++;
    c->excluded += ref;
    if (got != ref && !c->first_difference[0])
        snprintf(c->first_difference, sizeof c->first_difference, "%s: git %d, ours %d", asked,
                 ref, got);
    return !ref; /* a walk does not go into an excluded folder */
}

static void show_ignore_files(const char *root)
{
    char cmd[2 * PATH_MAX + 256];
    snprintf(cmd, sizeof cmd,
             "cd '%s/..' && find . -name .gitignore -o -name exclude -o -path '*/git/ignore' | "
             "while read f; do echo \"== $f\"; cat -A \"$f\"; done >&2",
             root);
    if (system(cmd) != 0)
        fprintf(stderr, "(could not list the ignore files)\n");
}

static void test_same_as_git(void **state)
{
    (void)state;
    char base[] = "/tmp/alloclint-ignore-XXXXXX";
    assert_non_null(mkdtemp(base));
    /* A global excludes file of our own, not the user's. */
    char xdg[PATH_MAX];
    snprintf(xdg, sizeof xdg, "%s/config", base);
    mkdir(xdg, 0700);
    char gitdir[PATH_MAX + 8];
    snprintf(gitdir, sizeof gitdir, "%s/git", xdg);
    mkdir(gitdir, 0700);
    setenv("XDG_CONFIG_HOME", xdg, 1);
    setenv("HOME", base, 1);
    git_libgit2_init();
    size_t compared = 0, excluded = 0, libgit2_differs = 0;
    const int trees = 400;
    for (int t = 0; t < trees; t++) {
        seed_state = 0x9E3779B97F4A7C15ULL * (unsigned long long)(t + 1);
        char root[PATH_MAX];
        snprintf(root, sizeof root, "%s/tree%d", base, t);
        mkdir(root, 0700);
        git_repository *repo = NULL;
        assert_int_equal(git_repository_init(&repo, root, 0), 0);
        random_tree(root, 0);
        char path[PATH_MAX + 32];
        if (next_rand(3) == 0) {
            snprintf(path, sizeof path, "%s/.git/info", root);
            mkdir(path, 0700);
            snprintf(path, sizeof path, "%s/.git/info/exclude", root);
            random_rules(path);
        }
        snprintf(path, sizeof path, "%s/git/ignore", xdg);
        if (next_rand(3) == 0)
            random_rules(path);
        else
            unlink(path);
        git_repository_free(repo);
        /* Opened after the files exist, so that nothing is cached. */
        assert_int_equal(git_repository_open(&repo, root), 0);
        verdicts git;
        ask_git(root, xdg, &git);
        comparison c = {repo, al_gitignore_new(repo, root), &git, root, 0, 0, 0, ""};
        walk(root, "", compare_one, &c);
        verdicts_free(&git);
        compared += c.compared;
        excluded += c.excluded;
        libgit2_differs += c.libgit2_differs;
        if (c.first_difference[0]) {
            show_ignore_files(root);
            fail_msg("tree %d (%s): %s", t, root, c.first_difference);
        }
        al_gitignore_free(c.mine);
        git_repository_free(repo);
    }
    git_libgit2_shutdown();
    char cmd[PATH_MAX + 16];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", base);
    assert_int_equal(system(cmd), 0);
    /* The generator must exercise both answers. */
    printf("ignore: %zu paths in %d trees compared with git, %zu excluded; libgit2 disagrees "
           "with git on %zu\n",
           compared, trees, excluded, libgit2_differs);
    assert_true(compared > 5000);
    assert_true(excluded > compared / 10 && excluded < compared * 9 / 10);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_wildmatch),
        cmocka_unit_test(test_parse),
        cmocka_unit_test(test_same_as_git),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
