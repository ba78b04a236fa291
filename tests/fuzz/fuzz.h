/* What every fuzz target shares: libFuzzer's entry point, the rule set
 * turned on in full, and a check that aborts with a message. The same
 * harness sources build against libFuzzer (ALLOCLINT_FUZZ=ON, clang) and
 * against replay.c, which runs a corpus through them in the normal test
 * build. */
#ifndef ALLOCLINT_FUZZ_H
#define ALLOCLINT_FUZZ_H
#include "engine/lint.h"
#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Every rule on, the built-in op summaries, no fixes; loaded once. */
void fuzz_lint_options(al_lint_options *opt);

/* A violated property: prints it with the input's size and aborts, so that
 * libFuzzer saves the input and replay fails. */
_Noreturn void fuzz_fail(const char *what, size_t size);
#define FUZZ_CHECK(cond, size)                                                                     \
    do {                                                                                           \
        if (!(cond))                                                                               \
            fuzz_fail(#cond, (size));                                                              \
    } while (0)
#endif
