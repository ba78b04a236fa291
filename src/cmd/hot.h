/* The hot command: a profiler trace's costliest allocation, fill, copy and
 * concatenation sites in the checked tree, each with alloclint's verdict
 * (its finding, or why there is none). */
#ifndef ALLOCLINT_HOT_H
#define ALLOCLINT_HOT_H

#include <stdbool.h>

/* argv[0] is "hot". Returns the process exit code. */
int al_hot_main(int argc, char **argv);

/* Whether a command-line argument names a trace file rather than a path
 * to check (`.json`, `.json.gz`, as torch.profiler writes them). */
bool al_hot_is_trace_name(const char *arg);

#endif
