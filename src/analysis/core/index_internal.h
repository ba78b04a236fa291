/* What the repo index's files share inside analysis/core/ (index.c, the
 * store; resolve.c, index_modules.c, index_cxx.c, methods.c and
 * callables.c above it): a project, the files read, the helpers that load
 * them, and the one table through which name resolution calls back up.
 * Not for use outside the index. */
#ifndef ALLOCLINT_INDEX_INTERNAL_H
#define ALLOCLINT_INDEX_INTERNAL_H

#include "index.h"
#include "filefacts.h"
#include "impls.h"
#include "memo.h"
#include "../../base/util.h"

#include <pthread.h>

/* A file (an index into a project's py_files) naming `name`. */
typedef struct {
    const char *name;
    size_t file;
} al_name_file;

typedef struct {
    al_name_file *items; /* sorted by name, then file */
    size_t n, cap;
} al_name_files;

/* Where a C++ function with a body is defined: its name, its file. */
typedef struct {
    char *name;
    size_t file; /* index into cxx_files */
} cxx_definition;

typedef struct {
    char *root;
    unsigned long long used; /* the checked file (al_index.checks) that last asked */
    al_strlist py_roots; /* folders absolute imports start from */
    /* Folders right inside the root with their own pyproject.toml or
     * setup.py (SGLang's sgl-kernel/): packages built and installed
     * apart from the root's, whose roots come after the root's own. */
    al_strlist distributions;
    bool defs_read;
    cxx_definition *defs; /* sorted by name */
    size_t n_defs, cap_defs;
    bool walked;
    al_path_view py_files, cxx_files; /* the run's walk (al_file_facts_project) */
    bool py_ops_read, cxx_ops_read;
    al_impls py_ops, cxx_ops;
    al_impls pybind; /* pybind11 `.def("name", &fn)`: op "name", func fn (read with cxx_ops) */
    al_op_table schemas;
    al_memo macro_words; /* every identifier in a #define of its C++ files (read
                          * with the definitions) */
    bool methods_read;
    /* A scan read every Python file's facts (filefacts.h): each file is a
     * read the cache depends on, listed from the facts when the reads are
     * asked for (al_index_reads, al_index_absorb), not one by one. */
    bool scanned, scans_listed;
    /* Sorted (name, file) pairs whose names point into the files' facts
     * (filefacts.h), which outlive the index: no copy of a name, no list
     * per name, for a project of any size. */
    al_name_files method_files;   /* the files holding `def name(` */
    al_name_files assigned_attrs; /* the files assigning `x.name =` */
    al_name_files self_attr_files; /* the files assigning `self.name =` */
} project;

/* A Python file the index read; parsed in parts, as asked. Between two
 * checked files the index may release its parts (al_index_release): they
 * are read and parsed again when next asked for. */
typedef struct {
    char *path;
    bool ok;                  /* false: it could not be read */
    struct al_pyparts *parts; /* NULL while released */
    unsigned long long used;  /* the checked file (al_index.checks) that last asked */
    size_t order;             /* its place in al_index.py: ties in the release order */
} pyfile;

/* A C++ file the index read and tokenised; released and read again as
 * a Python file is. */
typedef struct {
    char *path;
    bool ok;      /* false: it could not be read or parsed */
    bool held;    /* src and unit are valid */
    al_source src;
    al_cxx_unit unit;
    unsigned long long used;
    size_t order; /* its place in al_index.cxx */
} cxxfile;

/* How many counts al_index_stats prints. */
#define STATS 11

struct al_index {
    pthread_mutex_t lock;
    bool whole_files; /* parse whole files only (the reference) */
    al_index_read *reads; /* every file read, for the cache's project check: once
                           * each, again only when read with other bytes */
    size_t n_reads, cap_reads;
    al_memo read_at; /* path -> its last entry in reads, plus one; the
                      * entries' paths are this table's keys */
    size_t scanned; /* files read for registration markers */
    al_memo memo;
    al_memo project_by_dir; /* a file's folder as named -> its project (not owned) */
    /* Names resolved once a run: "real\n<path>" -> its real path, and
     * "module\n<folder>\n<module>" -> the file a module of a file in that
     * folder names ("" for none): each is a realpath's or a few stats'
     * system calls, asked for at every call a proof follows. */
    al_memo paths;
    al_memo py_by_path; /* real path -> its pyfile (not owned) */
    /* The project scans' facts of each Python file, shared with the
     * indexes made like this one (al_index_new_like); owned by the first. */
    al_file_facts_table *facts;
    bool owns_facts;
    project **projects;
    size_t n_projects, cap_projects;
    pyfile **py;
    size_t n_py, cap_py;
    /* Residency: the files whose parts are held, how many bytes they may
     * take (al_index_set_budget), the checked files so far, and what the
     * released files had parsed (for the stats). */
    pyfile **held;
    size_t n_held, cap_held;
    size_t budget;
    unsigned long long checks;
    size_t released, released_views, released_parsed, released_bytes, released_scans;
    cxxfile **cxx;
    size_t n_cxx, cap_cxx;
    /* What the indexes absorbed (al_index_absorb) held, for the stats:
     * projects, Python and C++ files listed, Python files read, their KB,
     * views, KB parsed, C++ files parsed, summaries, releases of files
     * and of projects' scans. */
    size_t absorbed[STATS];
};

/* Records a read of path (its status and hash) for the cache. */
void al_index_record_read(al_index *ix, const char *path, al_source_status st,
                          unsigned long long hash);
/* Reads a file's bytes, recording the read. */
al_source_status al_index_load(al_index *ix, al_source *src, const char *path);
/* The same for a byte scan: al_source_load_bytes (no line index). */
al_source_status al_index_load_bytes(al_index *ix, al_source *src, const char *path);
/* The project around path (created on first use), or NULL. */
project *al_index_project_of(al_index *ix, const char *path);
/* Lists the project's source files, once. */
void al_index_walk_project(al_index *ix, project *p);
/* A Python file of the index, read once and parsed in parts; NULL when it
 * cannot be read. */
pyfile *al_index_load_py(al_index *ix, const char *path);
/* A C++ file of the index, read and tokenised once; NULL when it cannot
 * be read or parsed. */
cxxfile *al_index_load_cxx(al_index *ix, const char *path);
/* Whether the index's path memo knows key: then *out is its path (a
 * copy; NULL for none). */
bool al_index_path_known(al_index *ix, const char *key, char **out);
/* Memoises found (NULL for none) under key; returns it. */
char *al_index_path_keep(al_index *ix, const char *key, char *found);
/* The file of Python module `module` (dotted, relative with leading dots)
 * imported from from_path, or NULL; caller frees (index_modules.c). */
char *al_index_module_file(al_index *ix, const char *from_path, const char *module);
/* Whether Python module `module`, imported from from_path, is a file of
 * the project. */
bool al_index_module_in_project(al_index *ix, const char *from_path, const char *module);
/* The function of the project that every return of the function `call`
 * calls returns (callables.c), followed one level deep; false when they
 * differ or one is not a function the index finds. */
bool al_index_returned_callable(al_index *ix, const al_pysite *from, TSNode call, al_def *out);
/* An al_def for a definition found in a parsed view. */
void al_index_fill_def(al_def *out, const char *path, const al_pyfile *pf,
                       const struct al_pymodule *mod, TSNode def);

/* The calls name resolution (resolve.c) makes into the files built on
 * it, which resolve names in turn: what the function a local was bound
 * from returns (callables.c), and whether an instance attribute may hide
 * a method (methods.c). The recursion turns back only through this table,
 * filled in callables.c, the top of the index, so that every file of the
 * index includes and calls downwards, as the languages table does for the
 * languages (languages.h). */
typedef struct {
    bool (*returned_callable)(al_index *ix, const al_pysite *from, TSNode call, al_def *out);
    bool (*attr_assigned)(al_index *ix, const al_def *cls, const char *name, bool on_others);
} al_index_upcalls;
extern const al_index_upcalls al_index_upcall;

#endif
