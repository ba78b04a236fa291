/* The profile command's recording: CMD run under torch.profiler through
 * the run-time companion, which labels the allocation, fill, copy and
 * concatenation calls made from the checked files. cli.c then runs
 * `check --profile` on the trace. */
#ifndef ALLOCLINT_CMD_PROFILE_H
#define ALLOCLINT_CMD_PROFILE_H

#include <stdbool.h>
#include <stddef.h>

/* Runs cmd (NULL-terminated) with its output as it is, writing the trace
 * to trace_path and labelling calls made from `paths` (files or folders;
 * none: the current folder). Returns false with a message when the
 * command could not be run or wrote no trace; *status is its exit status. */
bool al_profile_record(const char *trace_path, const char *const *paths, size_t n_paths,
                       char *const *cmd, int *status, char *err, size_t err_size);

#endif
