/* compile_commands.json: which flags reach libclang, for both entry forms,
 * and how a missing or malformed database is told apart. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "front/cxx/compdb.h"

static char dir[PATH_MAX];

static int make_dir(void **state)
{
    (void)state;
    snprintf(dir, sizeof dir, "/tmp/alloclint-compdb-XXXXXX");
    if (!mkdtemp(dir))
        return -1;
    char p[PATH_MAX + 32];
    snprintf(p, sizeof p, "%s/csrc", dir);
    mkdir(p, 0700);
    snprintf(p, sizeof p, "%s/csrc/ops.cu", dir);
    FILE *f = fopen(p, "w");
    if (!f)
        return -1;
    fputs("void f() {}\n", f);
    fclose(f);
    return 0;
}

static int remove_dir(void **state)
{
    (void)state;
    char cmd[PATH_MAX + 16];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    return system(cmd) == 0 ? 0 : -1;
}

static void write_db(const char *json)
{
    char p[PATH_MAX + 32];
    snprintf(p, sizeof p, "%s/compile_commands.json", dir);
    FILE *f = fopen(p, "w");
    assert_non_null(f);
    fputs(json, f);
    fclose(f);
}

static void split_honours_quotes_and_escapes(void **state)
{
    (void)state;
    size_t n;
    char **w = al_compdb_split_command("nvcc  -DNAME=\"a b\" '-I/x y' -DQ=\\\"v\\\" -c f.cu", &n);
    assert_int_equal(n, 6);
    assert_string_equal(w[1], "-DNAME=a b");
    assert_string_equal(w[2], "-I/x y");
    assert_string_equal(w[3], "-DQ=\"v\"");
    assert_string_equal(w[5], "f.cu");
    for (size_t i = 0; i < n; i++)
        free(w[i]);
    free(w);
}

static void command_form_keeps_parse_flags_only(void **state)
{
    (void)state;
    char json[PATH_MAX + 1024];
    snprintf(json, sizeof json,
             "[{\"directory\": \"%s/csrc\", \"file\": \"ops.cu\", \"command\": "
             "\"/usr/local/cuda/bin/nvcc -I../include -isystem /opt/torch -DUSE_ROCM=0 -D "
             "TORCH_EXTENSION_NAME=_C -O3 -gencode arch=compute_90,code=sm_90 --std=c++17 "
             "--expt-relaxed-constexpr -c ops.cu -o ops.o\"}]",
             dir);
    write_db(json);
    al_compdb db;
    char err[256];
    assert_int_equal(al_compdb_load(&db, dir, err, sizeof err), 1);
    char rel[PATH_MAX + 32];
    snprintf(rel, sizeof rel, "%s/csrc/../csrc/ops.cu", dir);
    const al_compdb_entry *e = al_compdb_find(&db, rel);
    assert_non_null(e);
    char inc[PATH_MAX + 32];
    snprintf(inc, sizeof inc, "%s/csrc/../include", dir); /* not on disk: kept joined */
    const char *want[] = {"-I", inc, "-isystem", "/opt/torch", "-DUSE_ROCM=0",
                          "-D", "TORCH_EXTENSION_NAME=_C", "-std=c++17"};
    assert_int_equal(e->n_args, sizeof want / sizeof *want);
    for (size_t i = 0; i < e->n_args; i++)
        assert_string_equal(e->args[i], want[i]);
    assert_null(al_compdb_find(&db, "/nonexistent/ops.cu"));
    al_compdb_free(&db);
}

static void arguments_form_is_read(void **state)
{
    (void)state;
    char json[2 * PATH_MAX + 512];
    snprintf(json, sizeof json,
             "[{\"directory\": \"%s\", \"file\": \"csrc/ops.cu\", "
             "\"arguments\": [\"clang++\", \"-Iinclude\", \"-c\", \"csrc/ops.cu\"]},"
             " {\"directory\": \"%s\", \"file\": \"gone.cu\"}]",
             dir, dir);
    write_db(json);
    al_compdb db;
    char err[256];
    assert_int_equal(al_compdb_load(&db, dir, err, sizeof err), 1);
    assert_int_equal(db.n, 1); /* the entry without a command is skipped */
    char path[PATH_MAX + 32];
    snprintf(path, sizeof path, "%s/csrc/ops.cu", dir);
    const al_compdb_entry *e = al_compdb_find(&db, path);
    assert_non_null(e);
    assert_int_equal(e->n_args, 2);
    assert_string_equal(e->args[0], "-I");
    assert_true(strstr(e->args[1], "/include") != NULL);
    al_compdb_free(&db);
}

static void missing_and_malformed_differ(void **state)
{
    (void)state;
    al_compdb db;
    char err[256] = "";
    assert_int_equal(al_compdb_load(&db, "/nonexistent-alloclint-dir", err, sizeof err), 0);
    al_compdb_free(&db);
    write_db("{\"not\": \"an array\"}");
    assert_int_equal(al_compdb_load(&db, dir, err, sizeof err), -1);
    assert_true(strstr(err, "compile_commands.json") != NULL);
    al_compdb_free(&db);
    write_db("[{\"directory\": ");
    assert_int_equal(al_compdb_load(&db, dir, err, sizeof err), -1);
    al_compdb_free(&db);
}

/* An entry holding a key twice is not guessed at: the file is refused,
 * naming the entry and the key. */
static void duplicate_keys_are_refused(void **state)
{
    (void)state;
    char json[2 * PATH_MAX + 512];
    snprintf(json, sizeof json,
             "[{\"directory\": \"%s\", \"file\": \"a.cu\", \"arguments\": [\"nvcc\", \"-c\", "
             "\"a.cu\"]}, {\"directory\": \"%s\", \"file\": \"b.cu\", \"file\": \"c.cu\", "
             "\"arguments\": [\"nvcc\", \"-DX\", \"-c\", \"b.cu\"]}]",
             dir, dir);
    write_db(json);
    al_compdb db;
    char err[512] = "";
    assert_int_equal(al_compdb_load(&db, dir, err, sizeof err), -1);
    assert_non_null(strstr(err, "entry 2 holds the key \"file\" twice"));
    assert_int_equal(db.n, 0);
    al_compdb_free(&db);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(split_honours_quotes_and_escapes),
        cmocka_unit_test(command_form_keeps_parse_flags_only),
        cmocka_unit_test(arguments_form_is_read),
        cmocka_unit_test(missing_and_malformed_differ),
        cmocka_unit_test(duplicate_keys_are_refused),
    };
    return cmocka_run_group_tests(tests, make_dir, remove_dir);
}
