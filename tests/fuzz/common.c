#include "fuzz.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static al_op_table ops;
static int ops_loaded;

void fuzz_lint_options(al_lint_options *opt)
{
    if (!ops_loaded) {
        al_ops_error err;
        if (!al_ops_load_builtin(&ops, &err)) {
            fprintf(stderr, "fuzz: built-in op table: %s\n", err.message);
            abort();
        }
        ops_loaded = 1;
    }
    memset(opt, 0, sizeof *opt);
    for (size_t r = 0; r < al_rules_count; r++)
        opt->enabled[r] = true;
    opt->ops = &ops;
}

void fuzz_fail(const char *what, size_t size)
{
    fprintf(stderr, "fuzz: property violated: %s (input of %zu bytes)\n", what, size);
    abort();
}
