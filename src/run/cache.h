/* The findings of earlier runs, so that a file whose bytes, options and
 * project have not changed is not analysed again (.alloclint_cache/).
 *
 * One file per set of run settings (alloclint's build, the current
 * folder, what the command line changes), named by their hash. An entry
 * is keyed by the file's path, its content hash (XXH3) and size, and the
 * hash of its own options (rules, op tables, C++ flags). Its stamp (stat:
 * device, inode, size, modification and status-change times) stands in
 * for reading the file to hash it, as git's index does, when the file had
 * not changed for two seconds before the stamp was seen. An entry with
 * findings also keeps the lines they point at, so that the report needs
 * no read of the file (not for notebooks: those are read and their hash
 * checked). An entry whose
 * analysis consulted the repo index also needs the project unchanged: the
 * run's files and every file the index read, by content hash.
 *
 * A file that does not read back whole (checksum, bounds, known rule
 * codes) is discarded with a warning, never trusted. Writes go to a
 * temporary file renamed over the old one, so concurrent runs on one
 * cache leave one whole file or the other. */
#ifndef ALLOCLINT_CACHE_H
#define ALLOCLINT_CACHE_H

#include "../analysis/core/ops.h"
#include "../base/finding.h"
#include "../base/source.h"
#include "../base/util.h"

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
/* How many files it holds results for (0: a first run, or a discarded cache). */
size_t al_cache_size(const al_cache *c);

/* The findings stored for path when hash, len and options match, and,
 * for an entry that consulted the index, when project_ok. True on a hit
 * (out filled, possibly empty; caller frees). With excerpt non-NULL,
 * *excerpt is the excerpt source of the lines the findings point at when
 * the entry kept them (the caller al_source_free's and frees it), else
 * NULL. */
bool al_cache_get(const al_cache *c, const char *path, uint64_t hash, size_t len,
                  uint64_t options, bool project_ok, al_findings *out, al_source **excerpt);

/* Records a result for the next run's cache (replacing any for path),
 * with the file's stamp when it had these bytes (NULL: none) and the
 * time that stamp was seen. src, when given, is the source the findings
 * point into: the lines they need are kept for reporting. */
void al_cache_put(al_cache *c, const char *path, uint64_t hash, size_t len, uint64_t options,
                  bool uses_index, const al_findings *findings, const al_source *src,
                  const al_file_stamp *stamp, int64_t stamped_at);
/* The content hash and size path had when its stamp was `stamp`, when
 * that stamp can vouch for them: the file had not changed for a while
 * when the stamp was seen. False otherwise. */
bool al_cache_stamped(const al_cache *c, const char *path, al_file_stamp *stamp, uint64_t *hash,
                      size_t *len);
/* Gives path's entry (when it is for these bytes) a newer stamp. True
 * when that changed the entry. */
bool al_cache_restamp(al_cache *c, const char *path, uint64_t hash, size_t len,
                      const al_file_stamp *stamp, int64_t stamped_at);
/* Keeps the old entries of index-using files only when the project is
 * unchanged; drops them otherwise. */
void al_cache_keep_project(al_cache *c, bool project_ok);

/* The operator schemas (analysis/core/schema.h) the cache's run read from the
 * C++ file path when it had this content hash, appended to out: true
 * when known (possibly none), so the file need not be read for them. */
bool al_cache_schemas(const al_cache *c, const char *path, uint64_t hash, al_op_table *out);
/* Records the schemas read from path (with this hash) in this run, for
 * the next; the cache is written with this run's records only. */
void al_cache_put_schemas(al_cache *c, const char *path, uint64_t hash, const al_op_table *ops);

/* Writes the cache (creating dir with a .gitignore and CACHEDIR.TAG),
 * atomically. False with a message in err. */
bool al_cache_save(al_cache *c, const char *dir, uint64_t fingerprint, const al_cache_dep *deps,
                   size_t n_deps, al_strbuf *err);

/* Hash helpers for keys. */
uint64_t al_cache_hash(const void *bytes, size_t len, uint64_t seed);
/* What identifies this build of alloclint (its GNU build-id, else a hash
 * of the program file): part of every run's settings, since a rebuild
 * that changes a rule or a message keeps the version string. Called from
 * one thread before any other. */
uint64_t al_cache_build_id(void);

#endif
