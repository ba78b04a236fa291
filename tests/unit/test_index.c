/* What the repo index keeps between checked files (analysis/core/index.h,
 * al_index_release): parsed files stay while they fit the budget, the
 * least recently asked for go first, a released file is read and parsed
 * again when asked, and the reads the cache depends on are listed once
 * per file and bytes (again when the bytes changed). */
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

#include "analysis/core/index.h"
#include "analysis/core/index_internal.h"
#include "analysis/core/languages.h"

/* Two helpers of one length, so that a budget can hold one and not both. */
static const char HELPER_A[] =
    "import torch\n"
    "\n"
    "def fill_a(out, x):\n"
    "    out.copy_(x)\n"
    "    return out\n";
static const char HELPER_B[] =
    "import torch\n"
    "\n"
    "def fill_b(out, x):\n"
    "    out.copy_(x)\n"
    "    return out\n";

typedef struct {
    char dir[64];
    char a[128], b[128];
} project_files;

static void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    assert_int_equal(fputs(text, f) >= 0, 1);
    assert_int_equal(fclose(f), 0);
}

static int setup(void **state)
{
    project_files *p = calloc(1, sizeof *p);
    strcpy(p->dir, "/tmp/alloclint_index_XXXXXX");
    if (!p || !mkdtemp(p->dir))
        return -1;
    snprintf(p->a, sizeof p->a, "%s/helper_a.py", p->dir);
    snprintf(p->b, sizeof p->b, "%s/helper_b.py", p->dir);
    write_file(p->a, HELPER_A);
    write_file(p->b, HELPER_B);
    *state = p;
    return 0;
}

static int teardown(void **state)
{
    project_files *p = *state;
    unlink(p->a);
    unlink(p->b);
    rmdir(p->dir);
    free(p);
    return 0;
}

/* Loads path and parses one view of it, as a proof that follows a call
 * into it does. */
static pyfile *load_parsed(al_index *ix, const char *path)
{
    pyfile *f = al_index_load_py(ix, path);
    assert_non_null(f);
    const al_pyfile *pf;
    const struct al_pymodule *mod;
    assert_true(al_language_table.python.parts_view(f->parts, NULL, &pf, &mod));
    assert_non_null(pf->tree);
    return f;
}

static size_t reads_of(al_index *ix, const char *path)
{
    size_t n, count = 0;
    const al_index_read *r = al_index_reads(ix, &n);
    for (size_t i = 0; i < n; i++)
        count += al_index_same_file(r[i].path, path);
    return count;
}

static void kept_within_budget(void **state)
{
    project_files *p = *state;
    al_index *ix = al_index_new();
    al_index_set_budget(ix, (size_t)64 << 20);
    pyfile *a = load_parsed(ix, p->a);
    al_index_release(ix);
    assert_non_null(a->parts);
    assert_ptr_equal(al_index_load_py(ix, p->a), a);
    al_index_free(ix);
}

static void released_and_read_again(void **state)
{
    project_files *p = *state;
    al_index *ix = al_index_new();
    al_index_set_budget(ix, 0);
    pyfile *a = load_parsed(ix, p->a);
    al_index_release(ix);
    assert_null(a->parts);
    /* The same record, its parts opened again; parsed again when asked. */
    assert_ptr_equal(load_parsed(ix, p->a), a);
    assert_non_null(a->parts);
    char stats[512];
    al_index_stats(ix, stats, sizeof stats);
    assert_non_null(strstr(stats, "1 files released"));
    /* Read twice with the same bytes: listed once for the cache. */
    assert_int_equal(reads_of(ix, p->a), 1);
    al_index_free(ix);
}

static void least_recent_first(void **state)
{
    project_files *p = *state;
    al_index *ix = al_index_new();
    al_index_parse_whole(ix, true);
    /* Room for one parsed helper, not two (source and tree estimate). */
    al_index_set_budget(ix, 30 * sizeof HELPER_A);
    pyfile *a = load_parsed(ix, p->a);
    al_index_release(ix);
    assert_non_null(a->parts);
    pyfile *b = load_parsed(ix, p->b);
    al_index_release(ix);
    assert_null(a->parts);
    assert_non_null(b->parts);
    /* Asked for again, a is the newer: b goes next. */
    load_parsed(ix, p->a);
    al_index_release(ix);
    assert_non_null(a->parts);
    assert_null(b->parts);
    al_index_free(ix);
}

static void changed_bytes_listed_again(void **state)
{
    project_files *p = *state;
    al_index *ix = al_index_new();
    al_index_set_budget(ix, 0);
    pyfile *a = load_parsed(ix, p->a);
    al_index_release(ix);
    write_file(p->a, HELPER_B);
    assert_ptr_equal(load_parsed(ix, p->a), a);
    assert_int_equal(reads_of(ix, p->a), 2);
    size_t n;
    const al_index_read *r = al_index_reads(ix, &n);
    unsigned long long first = 0, second = 0;
    for (size_t i = 0; i < n; i++)
        if (al_index_same_file(r[i].path, p->a))
            *(first ? &second : &first) = r[i].hash;
    assert_true(first && second && first != second);
    write_file(p->a, HELPER_A);
    al_index_free(ix);
}

/* A thread's index hands what it read to the run's: once per file. */
static void absorbed_once(void **state)
{
    project_files *p = *state;
    al_index *run = al_index_new();
    al_index *mine = al_index_new_like(run);
    load_parsed(run, p->a);
    load_parsed(mine, p->a);
    load_parsed(mine, p->b);
    al_index_absorb(run, mine);
    al_index_free(mine);
    assert_int_equal(reads_of(run, p->a), 1);
    assert_int_equal(reads_of(run, p->b), 1);
    al_index_free(run);
}

/* A project with pyproject.toml at dir and two files defining a method
 * `forward`. */
static void make_project(const char *dir, char files[2][160])
{
    char path[160];
    assert_int_equal(mkdir(dir, 0700), 0);
    snprintf(path, sizeof path, "%s/pyproject.toml", dir);
    write_file(path, "[project]\nname = \"p\"\n");
    for (int i = 0; i < 2; i++) {
        snprintf(files[i], 160, "%s/block%d.py", dir, i);
        write_file(files[i], "class Block:\n    def forward(self, x):\n        return x\n");
    }
}

static void remove_project(const char *dir, char files[2][160])
{
    char path[160];
    snprintf(path, sizeof path, "%s/pyproject.toml", dir);
    unlink(path);
    unlink(files[0]);
    unlink(files[1]);
    rmdir(dir);
}

/* A thread that moves on to another project lets the first one's scans
 * go, and makes them again, the same, if it comes back. */
static void project_scans_released_and_made_again(void **state)
{
    project_files *p = *state;
    char a_dir[128], b_dir[128], a[2][160], b[2][160];
    snprintf(a_dir, sizeof a_dir, "%s/a", p->dir);
    snprintf(b_dir, sizeof b_dir, "%s/b", p->dir);
    make_project(a_dir, a);
    make_project(b_dir, b);
    al_index *ix = al_index_new();
    assert_int_equal(al_index_method_files(ix, a[0], "forward"), 2);
    al_index_release(ix);
    assert_int_equal(al_index_method_files(ix, b[0], "forward"), 2);
    al_index_release(ix); /* a was asked about before b: its scans go */
    char stats[512];
    al_index_stats(ix, stats, sizeof stats);
    assert_non_null(strstr(stats, "1 projects' scans released"));
    assert_int_equal(al_index_method_files(ix, a[0], "forward"), 2);
    assert_int_equal(al_index_method_files(ix, a[0], "backward"), 0);
    /* Both projects' files are listed as read, once each. */
    assert_int_equal(reads_of(ix, a[1]), 1);
    assert_int_equal(reads_of(ix, b[1]), 1);
    al_index_free(ix);
    remove_project(a_dir, a);
    remove_project(b_dir, b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(kept_within_budget, setup, teardown),
        cmocka_unit_test_setup_teardown(released_and_read_again, setup, teardown),
        cmocka_unit_test_setup_teardown(least_recent_first, setup, teardown),
        cmocka_unit_test_setup_teardown(changed_bytes_listed_again, setup, teardown),
        cmocka_unit_test_setup_teardown(absorbed_once, setup, teardown),
        cmocka_unit_test_setup_teardown(project_scans_released_and_made_again, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
