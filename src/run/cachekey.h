/* What a run's cache entries are keyed by: a file's own options, the
 * project's fingerprint, and whether the files the repo index read in the
 * cache's run still hold the bytes they held then. */
#ifndef ALLOCLINT_CACHEKEY_H
#define ALLOCLINT_CACHEKEY_H

#include "../analysis/core/ops.h"
#include "cache.h"
#include "discover.h"
#include "jobs.h"
#include "../engine/lint.h"

#include <stdbool.h>
#include <stdint.h>

/* The hash of an op table (NULL: none). */
uint64_t al_cachekey_ops(const al_op_table *ops);
/* What a file's findings depend on besides its bytes and the project:
 * its rules, op tables and C++ flags. memo_ops and memo_hash remember
 * the last op table hashed (files mostly share one): start them at NULL
 * and al_cachekey_ops(NULL). */
uint64_t al_cachekey_options(const al_lint_options *lo, const char *path,
                             const al_op_table **memo_ops, uint64_t *memo_hash);
/* Whether every file the index read in the cache's run still has the
 * bytes it had then; h holds the hashes of the files of `files`. */
bool al_cachekey_deps_unchanged(const al_cache *c, const al_file_list *files,
                                const al_file_hash *h);
/* The run's files, each with its content hash and size. */
uint64_t al_cachekey_project(const al_file_list *files, const al_file_hash *h);

#endif
