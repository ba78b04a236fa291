/* The repo index: what the checked code can reach in the rest of its
 * project. Files are read lazily, only when the analysis meets a name it
 * must resolve: an imported function or Triton kernel (absolute or
 * relative imports, `import a.b as m; m.f()`), a method called through
 * `self`, a custom op (`torch.ops.ns.op`) and the Python function or C++
 * function registered as its implementation, a C++ function by name.
 *
 * A project is the git work tree around a file, else the folder of the
 * nearest pyproject.toml, else the file's folder; nothing outside it is
 * read. One index serves a whole run and every thread: each call takes
 * its lock (recursively, so summaries can resolve while they compute). */
#ifndef ALLOCLINT_INDEX_H
#define ALLOCLINT_INDEX_H

#include "../../front/python/pyast.h"
#include "ops.h"
#include "../../front/cxx/cxx.h"
#include "../../base/source.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct al_index al_index;
struct al_pymodule;

/* A Python function (or method, or Triton kernel) definition. */
typedef struct {
    const char *path;       /* the file, as the index knows it */
    const al_pyfile *pf;
    const struct al_pymodule *mod;
    TSNode def;             /* the function_definition */
    bool kernel;            /* decorated with triton.jit or the like */
    bool method;            /* defined in a class body */
} al_def;

/* A C++ function with a body, in a parsed unit the index holds. */
typedef struct {
    const char *path;
    const al_cxx_unit *unit;
    size_t function; /* index into unit->functions */
} al_cxx_def;

/* The Python side of a call site: the file it is in. */
typedef struct {
    const char *path;
    const al_pyfile *pf;
    const struct al_pymodule *mod;
} al_pysite;

/* A file the index read (parsed, or scanned for registrations). */
typedef struct {
    char *path;    /* the index's, for as long as it lives */
    uint64_t hash; /* of its bytes, when read */
    bool read;     /* false: it could not be read */
} al_index_read;

al_index *al_index_new(void);
/* A new, empty index with ix's settings (al_index_parse_whole). */
al_index *al_index_new_like(const al_index *ix);
void al_index_free(al_index *ix);
/* Adds what `from` read (al_index_reads) and its stats to `into`, for a
 * run whose threads each kept an index of their own. */
void al_index_absorb(al_index *into, const al_index *from);
void al_index_lock(al_index *ix);
void al_index_unlock(al_index *ix);
/* Whether this thread used the index since the last call (a result that
 * did may depend on other files); clears the mark. */
bool al_index_take_touched(void);
/* Every file the index read so far, in order: once each, again only
 * when it was read with other bytes (changed during the run). */
const al_index_read *al_index_reads(al_index *ix, size_t *n);

/* Resolves a callee expression of a call in `from` to a Python definition
 * of the project: a function of the same file, a method of the enclosing
 * class through `self.`, or an imported function. `site` is the call. */
bool al_index_resolve(al_index *ix, const al_pysite *from, TSNode callee, TSNode site,
                      al_def *out);
/* The method `method` of the class that the expression cls (at `from`)
 * names: a class of the same file or an imported one. Defined in its body,
 * or inherited from the one base line that defines it (none unknown). */
bool al_index_class_method(al_index *ix, const al_pysite *from, TSNode cls, const char *method,
                           al_def *out);
/* The class (out->def a class_definition) that expression e at `from`
 * names: a top-level class of its file or of a module it imports. */
bool al_index_class_named(al_index *ix, const al_pysite *from, TSNode e, al_def *out);
/* The classes (out->def a class_definition) the bases of class cls name,
 * in order, at most max: top-level classes of its file or of the modules
 * they are imported from; `object`, `nn.Module` and `abc.ABC` left out.
 * *all is false when a base could not be found in the project (it is not
 * among them). */
size_t al_index_class_bases(al_index *ix, const al_def *cls, al_def *out, size_t max, bool *all);
/* The Python implementation registered for a custom op ("torch.ops.ns.op";
 * a trailing ".default" is ignored): direct_register_custom_op(op_name=,
 * op_func=) or @torch.library.custom_op("ns::op"). */
bool al_index_python_op(al_index *ix, const char *from_path, const char *op, al_def *out);
/* When to_path lies in a package of the project that is built and
 * installed apart from from_path's (a folder right inside the root with
 * its own pyproject.toml or setup.py, such as SGLang's sgl-kernel/): that
 * folder, relative to the root. What its source proves may not hold for
 * the version installed. NULL otherwise. */
const char *al_index_apart(al_index *ix, const char *from_path, const char *to_path);
/* Whether `name` appears in a #define of the project's C++ files (a macro
 * may then use a variable of that name unseen); true without a project. */
bool al_index_macro_names(al_index *ix, const char *from_path, const char *name);
/* The C++ function registered for a custom op with TORCH_LIBRARY(_IMPL,
 * _FRAGMENT, _EXPAND) `m.impl("op", &fn)`, found and parsed in the
 * project. */
bool al_index_cxx_op(al_index *ix, const char *from_path, const char *op, al_cxx_def *out);
/* The C++ function that a pybind11 module of the project binds as
 * `name` (`m.def("name", &fn, ...)`), for a call of `module.name` where
 * module (qualified, "vllm._C.ops") starts with a package of the project
 * and no Python file of it holds module itself: a compiled extension.
 * *bound_in: the file that binds it. False when two bindings of the name
 * find different definitions. */
bool al_index_pybind_function(al_index *ix, const char *from_path, const char *module,
                              const char *name, al_cxx_def *out, const char **bound_in);
/* A C++ function with a body, named `name`, in the project of from_path
 * (the file itself first). */
bool al_index_cxx_function(al_index *ix, const char *from_path, const char *name,
                           al_cxx_def *out);
/* The first Python file of from_path's project, other than from_path,
 * whose bytes name the attribute `.attr` (its path from the project's
 * root), or NULL: for facts about a
 * class's attribute that code elsewhere could break. Read without
 * parsing; every file read counts among the index's reads. */
const char *al_index_attribute_elsewhere(al_index *ix, const char *from_path, const char *attr);
/* The instance methods `name` of the project's top-level classes, in the
 * files whose bytes also hold every one of words (NULL-terminated; may be
 * NULL): at most max, in the order the project's files are walked. For a
 * call dispatched through an attribute, whose class is chosen at run
 * time. */
size_t al_index_methods(al_index *ix, const char *from_path, const char *name,
                        const char *const *words, al_def *out, size_t max);
/* The class around definition d (out->def its class_definition). */
bool al_index_class_of(const al_def *d, al_def *out);
/* Whether two paths name one file (the run's spelling and the index's). */
bool al_index_same_file(const char *a, const char *b);
/* Whether two class definitions are one class (file and name). */
bool al_index_same_class(const al_def *a, const al_def *b);
/* Whether class cls is base or derives from it through the project's
 * classes; a base line alloclint cannot follow gives `unknown`. */
bool al_index_derives(al_index *ix, const al_def *cls, const al_def *base, bool unknown);
/* The methods `method` that the project's subclasses of class cls define
 * (their own, abstract ones aside; `named`, the one a call resolved to,
 * left out): what `self.method(...)` in cls may run instead. *complete is
 * false when they could not all be read (the name is defined in more than
 * AL_INDEX_MAX_METHOD_FILES files, or too many methods). */
size_t al_index_overrides(al_index *ix, const al_def *cls, const char *method, const al_def *named,
                          al_def *out, size_t max, bool *complete);
/* Whether the project may give an instance of class cls an attribute
 * `name`, which hides cls's method of that name: a file assigns it on an
 * object other than self (`obj.name = ...`, `setattr(obj, "name", ...)`),
 * or on `self.` in cls's own file or in a class that derives from cls (or
 * may: a base not followed). True outside any project. Without
 * on_others, only assignments on `self.` count (for `forward`, which tests
 * replace on objects everywhere). */
bool al_index_attr_assigned(al_index *ix, const al_def *cls, const char *name, bool on_others);
/* al_index_methods finds none past this many files defining the name. */
#define AL_INDEX_MAX_METHOD_FILES 24
/* How many of the project's Python files define `def name(` indented (a
 * method, or a nested function). */
size_t al_index_method_files(al_index *ix, const char *from_path, const char *name);
/* A view of Python file path holding every top-level statement whose
 * bytes hold `word` (parsed now where the index had not); false when the
 * file cannot be read or parsed. */
bool al_index_own_view(al_index *ix, const char *path, const char *word, al_pysite *out);
/* A memo of what the analysis computed once per run (summaries), by key:
 * get returns NULL when absent; put takes ownership of value, freed with
 * free_fn (may be NULL) when the index is freed. */
void *al_index_memo_get(al_index *ix, const char *key);
void al_index_memo_put(al_index *ix, const char *key, void *value, void (*free_fn)(void *));

/* How much the index read: Python files read and the bytes of them parsed,
 * C++ files parsed, summaries memoised, files released and read again
 * (ALLOCLINT_INDEX_STATS, for tuning). */
void al_index_stats(al_index *ix, char *buf, size_t len);
/* Parse every Python file the index reads whole, not in the parts a
 * proof needs (analysis/python/parts.h): the reference --no-prefilter
 * compares with. */
void al_index_parse_whole(al_index *ix, bool whole);

/* Ends one checked file's use of the index. What it parsed stays for the
 * files after it (neighbours share their callees) while the parsed files
 * take at most the index's budget; past it, the files asked for least
 * recently are released, trees and bytes, and read again if asked for
 * later. Memoised summaries, the projects' facts and the reads stay, so
 * memory follows the budget and the threads, not the size of the tree.
 * Call only when nothing holds an al_def or al_pysite of the index's. */
void al_index_release(al_index *ix);
/* The bytes the parsed files may take between two checked files (an
 * estimate: their source and their trees), AL_INDEX_BUDGET unless set;
 * ALLOCLINT_INDEX_BUDGET_MB overrides it, for measuring. */
void al_index_set_budget(al_index *ix, size_t bytes);
#define AL_INDEX_BUDGET ((size_t)16 << 20)

/* The operator schemas (`Tensor!` outputs) of every C++ file of the
 * project, read once. */
const al_op_table *al_index_schemas(al_index *ix, const char *from_path);

#endif
