/* compile_commands.json, as clang-tidy reads it: for each source file, the
 * include paths, macros and language standard its build uses. Only those
 * flags are kept; compiler-specific ones (nvcc's -gencode, -O3, -o) would
 * make libclang refuse or mis-parse the file. */
#ifndef ALLOCLINT_COMPDB_H
#define ALLOCLINT_COMPDB_H

#include <stdbool.h>
#include <stddef.h>

typedef struct {
    char *file; /* canonical absolute path */
    char **args;
    size_t n_args;
} al_compdb_entry;

typedef struct {
    al_compdb_entry *entries;
    size_t n, cap;
    char *path; /* the compile_commands.json read, for messages */
} al_compdb;

/* Reads dir/compile_commands.json. Returns 1 when read, 0 when the file
 * does not exist, -1 on an unreadable or malformed file (err says why). */
int al_compdb_load(al_compdb *db, const char *dir, char *err, size_t errlen);
/* Reads the text of a compile_commands.json (path names it in messages).
 * Returns false (err says why) when it is not an array of commands. */
bool al_compdb_parse(al_compdb *db, const char *path, const char *text, size_t len, char *err,
                     size_t errlen);
/* The kept flags for a source file (any spelling of its path), or NULL. */
const al_compdb_entry *al_compdb_find(const al_compdb *db, const char *path);
void al_compdb_free(al_compdb *db);

/* Splits a shell-quoted command line ("command" entries) into words. */
char **al_compdb_split_command(const char *command, size_t *n);

#endif
