/* compile_commands.json: the reader, and the shell-word splitter of
 * "command" entries on the same bytes. */
#include "front/cxx/compdb.h"
#include "fuzz.h"

#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    al_compdb db;
    char err[512] = "";
    if (al_compdb_parse(&db, "/repo/compile_commands.json", (const char *)data, size, err,
                        sizeof err)) {
        for (size_t i = 0; i < db.n; i++) {
            FUZZ_CHECK(db.entries[i].file != NULL, size);
            for (size_t k = 0; k < db.entries[i].n_args; k++)
                FUZZ_CHECK(db.entries[i].args[k] != NULL, size);
        }
        al_compdb_free(&db);
    } else {
        FUZZ_CHECK(err[0] != '\0', size);
    }

    char *command = malloc(size + 1);
    FUZZ_CHECK(command != NULL, size);
    memcpy(command, data, size);
    command[size] = '\0';
    size_t n = 0;
    char **words = al_compdb_split_command(command, &n);
    for (size_t i = 0; i < n; i++) {
        FUZZ_CHECK(words[i] != NULL, size);
        free(words[i]);
    }
    free(words);
    free(command);
    return 0;
}
