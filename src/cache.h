/* The findings of earlier runs, so that a file whose bytes, options and
 * project have not changed is not analysed again (.alloclint_cache/).
 *
 * One file per set of run settings (alloclint's version, the current
 * folder, what the command line changes), named by their hash. An entry
 * is keyed by the file's path, its content hash (XXH3) and size, and the
 * hash of its own options (rules, op tables, C++ flags). An entry whose
 * analysis consulted the repo index also needs the project unchanged: the
 * run's files and every file the index read, by content hash.
 *
 * A file that does not read back whole (checksum, bounds, known rule
 * codes) is discarded with a warning, never trusted. Writes go to a
 * temporary file renamed over the old one, so concurrent runs on one
 * cache leave one whole file or the other. */
#ifndef ALLOCLINT_CACHE_H
#define ALLOCLINT_CACHE_H

#include "finding.h"
#include "util.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct al_cache al_cache;

/* A file the analysis read besides the one checked, with its content
 * hash then. */
typedef struct {
    char *path;
    uint64_t hash;
} al_cache_dep;

/* Reads the cache for these settings from dir. Never fails: a missing
 * file gives an empty cache; an unreadable, corrupt or foreign one an
 * empty cache and a line in warnings. */
al_cache *al_cache_load(const char *dir, uint64_t settings, al_strbuf *warnings);
void al_cache_free(al_cache *c);

/* The files the index read in the run that wrote the cache. */
const al_cache_dep *al_cache_deps(const al_cache *c, size_t *n);
/* The project fingerprint the cache was written with. */
uint64_t al_cache_fingerprint(const al_cache *c);

/* The findings stored for path when hash, len and options match, and,
 * for an entry that consulted the index, when project_ok. True on a hit
 * (out filled, possibly empty; caller frees). */
bool al_cache_get(const al_cache *c, const char *path, uint64_t hash, size_t len,
                  uint64_t options, bool project_ok, al_findings *out);

/* Records a result for the next run's cache (replacing any for path). */
void al_cache_put(al_cache *c, const char *path, uint64_t hash, size_t len, uint64_t options,
                  bool uses_index, const al_findings *findings);
/* Keeps the old entries of index-using files only when the project is
 * unchanged; drops them otherwise. */
void al_cache_keep_project(al_cache *c, bool project_ok);

/* Writes the cache (creating dir with a .gitignore and CACHEDIR.TAG),
 * atomically. False with a message in err. */
bool al_cache_save(al_cache *c, const char *dir, uint64_t fingerprint, const al_cache_dep *deps,
                   size_t n_deps, al_strbuf *err);

/* Hash helpers for keys. */
uint64_t al_cache_hash(const void *bytes, size_t len, uint64_t seed);

#endif
