/* Finding the files to check (run/discover.h) and the configuration that
 * applies to each (run/config.h): what the walk saw of each file (a
 * regular file or a link, its stamp) and of each folder serves the
 * lookups, and once they are done a run keeps the paths only; the
 * lookups made again without what was forgotten give the same answers. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "run/config.h"
#include "run/discover.h"

static const char PYPROJECT[] =
    "[project]\n"
    "name = \"engine\"\n"
    "\n"
    "[tool.alloclint]\n"
    "select = [\"AL1\"]\n"
    "\n"
    "[tool.ruff]\n"
    "line-length = 99\n";

static const char *const FILES[] = {"pyproject.toml", "pkg/model.py", "pkg/sub/layer.py",
                                    "pkg/notes.txt", "pkg/sub/ruff.toml", "pkg/sub/.ruff.toml"};

static void write_at(const char *dir, const char *name, const char *text)
{
    char path[256];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *out = fopen(path, "wb");
    assert_non_null(out);
    assert_int_equal(fwrite(text, 1, strlen(text), out), strlen(text));
    assert_int_equal(fclose(out), 0);
}

/* A project: pyproject.toml, two Python files in nested folders (the
 * inner one with ruff's files), a text file and a link to one of the
 * Python files. */
static void make_project(char *dir)
{
    strcpy(dir, "/tmp/alloclint_discover_XXXXXX");
    assert_non_null(mkdtemp(dir));
    char sub[256];
    snprintf(sub, sizeof sub, "%s/pkg", dir);
    assert_int_equal(mkdir(sub, 0700), 0);
    snprintf(sub, sizeof sub, "%s/pkg/sub", dir);
    assert_int_equal(mkdir(sub, 0700), 0);
    write_at(dir, FILES[0], PYPROJECT);
    write_at(dir, FILES[1], "import torch\nbuf = torch.zeros(4)\n");
    write_at(dir, FILES[2], "def forward(x):\n    return x\n");
    write_at(dir, FILES[3], "not Python\n");
    /* ruff's own file comes before .ruff.toml, and the nearest folder's
     * before pyproject.toml above it. */
    write_at(dir, FILES[4], "line-length = 79\n");
    write_at(dir, FILES[5], "line-length = 120\n");
    char link[256];
    snprintf(link, sizeof link, "%s/pkg/alias.py", dir);
    assert_int_equal(symlink("model.py", link), 0);
}

static void remove_project(const char *dir)
{
    char path[256];
    snprintf(path, sizeof path, "%s/pkg/alias.py", dir);
    unlink(path);
    for (size_t i = 0; i < sizeof FILES / sizeof *FILES; i++) {
        snprintf(path, sizeof path, "%s/%s", dir, FILES[i]);
        unlink(path);
    }
    snprintf(path, sizeof path, "%s/pkg/sub", dir);
    rmdir(path);
    snprintf(path, sizeof path, "%s/pkg", dir);
    rmdir(path);
    rmdir(dir);
}

static size_t index_of(const al_file_list *list, const char *dir, const char *name)
{
    char path[256];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    for (size_t i = 0; i < list->n; i++)
        if (!strcmp(list->paths[i], path))
            return i;
    fail_msg("%s not found by the walk", path);
    return 0;
}

static bool selects(const al_config *cfg, const char *code)
{
    if (!cfg || !cfg->has_select)
        return false;
    for (size_t i = 0; i < cfg->select.n; i++)
        if (!strcmp(cfg->select.items[i], code))
            return true;
    return false;
}

static void walk_then_forget(void **state)
{
    (void)state;
    char dir[64];
    make_project(dir);
    al_file_list list;
    al_discover_options opt = {.respect_gitignore = true, .stamps = true};
    char *roots[] = {dir};
    al_discover(&list, roots, 1, &opt);
    assert_int_equal(list.n_errors, 0);
    /* The Python files and the link to one; no TOML, no text. */
    assert_int_equal(list.n, 3);
    size_t model = index_of(&list, dir, "pkg/model.py");
    size_t layer = index_of(&list, dir, "pkg/sub/layer.py");
    size_t alias = index_of(&list, dir, "pkg/alias.py");
    assert_true(al_file_list_is_regular(&list, model));
    assert_true(al_file_list_is_regular(&list, layer));
    assert_false(al_file_list_is_regular(&list, alias));
    for (size_t i = 0; i < list.n; i++)
        assert_true(list.seen[i].stamped);
    char pkg[256];
    snprintf(pkg, sizeof pkg, "%s/pkg", dir);
    al_dir_listing seen;
    assert_true(al_file_list_dir(&list, dir, &seen));
    assert_true(seen.root);
    assert_true(seen.pyproject_toml);
    assert_false(seen.alloclint_toml);
    assert_true(al_file_list_dir(&list, pkg, &seen));
    assert_false(seen.root);
    assert_false(seen.pyproject_toml);
    assert_false(seen.ruff_toml);
    char sub[256];
    snprintf(sub, sizeof sub, "%s/pkg/sub", dir);
    assert_true(al_file_list_dir(&list, sub, &seen));
    assert_true(seen.ruff_toml);
    assert_true(seen.dot_ruff_toml);
    assert_false(seen.pyproject_toml);

    al_config_cache *configs = al_config_cache_new();
    al_config_cache_set_walk(configs, &list);
    const al_config *cfg = NULL;
    al_config_error err;
    for (size_t i = 0; i < list.n; i++) {
        assert_true(al_config_for(configs, list.paths[i], al_file_list_is_regular(&list, i),
                                  &cfg, &err));
        assert_true(selects(cfg, "AL1"));
        assert_int_equal(al_config_line_length(configs, list.paths[i]), i == layer ? 79 : 99);
    }
    const al_config *first = cfg;

    /* Forgotten: the paths stay, in order; what was seen of them goes. */
    char *paths[3];
    memcpy(paths, list.paths, sizeof paths);
    al_config_cache_forget_folders(configs);
    al_file_list_forget_walk(&list);
    assert_int_equal(list.n, 3);
    assert_memory_equal(paths, list.paths, sizeof paths);
    assert_null(list.seen);
    assert_false(al_file_list_is_regular(&list, model));
    assert_false(al_file_list_dir(&list, dir, &seen));

    /* Asked again, from the file system: the same answers, and the
     * configuration read before is still whole (a file's options point
     * into it). */
    for (size_t i = 0; i < list.n; i++) {
        assert_true(al_config_for(configs, list.paths[i], false, &cfg, &err));
        assert_true(selects(cfg, "AL1"));
        assert_int_equal(al_config_line_length(configs, list.paths[i]), i == layer ? 79 : 99);
    }
    assert_true(selects(first, "AL1"));
    assert_non_null(strstr(first->path, "pyproject.toml"));

    al_config_cache_free(configs);
    al_file_list_free(&list);
    remove_project(dir);
}

/* Without stamps the walk still knows which files are regular. */
static void walk_without_stamps(void **state)
{
    (void)state;
    char dir[64];
    make_project(dir);
    al_file_list list;
    al_discover_options opt = {.respect_gitignore = true};
    char *roots[] = {dir};
    al_discover(&list, roots, 1, &opt);
    assert_int_equal(list.n, 3);
    assert_true(al_file_list_is_regular(&list, index_of(&list, dir, "pkg/model.py")));
    assert_false(al_file_list_is_regular(&list, index_of(&list, dir, "pkg/alias.py")));
    for (size_t i = 0; i < list.n; i++)
        assert_false(list.seen[i].stamped);
    al_file_list_free(&list);
    remove_project(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(walk_then_forget),
        cmocka_unit_test(walk_without_stamps),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
