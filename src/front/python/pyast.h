/* Parsing Python with tree-sitter and small helpers over its nodes. */
#ifndef ALLOCLINT_PYAST_H
#define ALLOCLINT_PYAST_H

#include "../../base/source.h"

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <tree_sitter/api.h>

typedef struct {
    const al_source *src;
    TSTree *tree;
    TSNode root;
    bool has_error;
    bool partial; /* only some top-level statements were parsed */
    /* Classes parsed without some statements of their body ([start, end)
     * of each, in order), set by whoever planned the parse: a question
     * about such a class, or about the whole file, may have its answer in
     * what was left out, so asking one sets *asked_trimmed (and lint reads
     * the whole file). */
    const size_t (*trimmed)[2];
    size_t n_trimmed;
    bool *asked_trimmed;
    bool *trimmed_asked; /* per trimmed class, which were asked (may be NULL) */
    bool *asked_all;     /* a question about the whole file (may be NULL) */
    /* What the analysis memoises about this parse's functions is keyed by
     * it too: 0 for a parse whose answers hold for the file (whole, or
     * the index's parts), a tag of its own for a partial parse whose
     * answers a later parse of more of the file may change. */
    unsigned long long memo_tag;
} al_pyfile;

/* Returns false when tree-sitter could not produce a tree at all (it
 * gives up on pathological nesting only after its own limits). */
bool al_pyfile_parse(al_pyfile *pf, const al_source *src);
/* The run's Python parses so far, all threads: how many, the bytes handed
 * to the parser (the kept regions of a partial parse), thread CPU time. */
void al_pyfile_parse_stats(unsigned long long *files, unsigned long long *bytes, double *seconds);
/* Parses only the byte spans [spans[i][0], spans[i][1]) of src, in order,
 * each whole lines: the tree keeps the file's own offsets and rows, and
 * what lies between spans is not in it (pf->partial). */
bool al_pyfile_parse_spans(al_pyfile *pf, const al_source *src, const size_t (*spans)[2],
                           size_t n);
void al_pyfile_free(al_pyfile *pf);
/* Whether cls (a class_definition or the decorated_definition around it)
 * lost statements of its body to a partial parse; true also records the
 * question (al_pyfile.asked_trimmed). */
bool al_pyfile_class_trimmed(const al_pyfile *pf, TSNode cls);
/* The source bytes [*from, *to) of cls when the partial parse trimmed it
 * (its nodes then end early); false, asking nothing, otherwise. */
bool al_pyfile_class_extent(const al_pyfile *pf, TSNode cls, size_t *from, size_t *to);
/* As al_pyfile_class_trimmed, for the question "where is method `name`
 * of cls defined": asked (and true) only when the class lost statements
 * and its text defines `name` (`def name(`) at all; a method the class
 * does not define (inherited, or none) is not in what was left out. */
bool al_pyfile_class_trimmed_def(const al_pyfile *pf, TSNode cls, const char *name);
/* As al_pyfile_class_trimmed, for the question "what is assigned to
 * `x.attr` in cls": asked (and true) only when what the parse left out of
 * the class holds such an assignment (`.attr =`, `.attr: T =`). */
bool al_pyfile_class_trimmed_assigns(const al_pyfile *pf, TSNode cls, const char *attr);
/* For a question whose answer may lie anywhere in the file (every use of
 * an attribute): whether pf holds all of it. A partial parse records the
 * question as a trimmed class does (lint reads the whole file). */
bool al_pyfile_holds_all(const al_pyfile *pf);
/* Parses bytes and reports whether the tree has an error node. Used to
 * check that a fix did not make a file worse. Returns the count of error
 * and missing nodes, or -1 when no tree could be built. */
long al_python_error_count(const char *bytes, size_t len);

/* Node types and field names are compared as the grammar's ids: each
 * spelling is resolved once per call site (a static the macros keep) and
 * a node's type is one table lookup, where a string compare per node
 * visited, and a field lookup by name per access, cost a tenth of a run.
 * Both take string literals only. */
/* The id of a node type's name (every symbol spelled so maps to it); an
 * id no node has for a name the grammar lacks. */
uint32_t al_py_type_id(const char *type);
bool al_node_has_type(TSNode n, uint32_t type_id);
/* The id of n's type's name, to test one node against several types
 * (al_py_type_id(...) == al_node_type_id(n)) with one symbol lookup. */
uint32_t al_node_type_id(TSNode n);
#define al_type_id(type) AL_PY_ONCE_(al_py_type_id, type)
TSFieldId al_py_field_id(const char *field);
#define AL_PY_ONCE_(resolve, literal)                                                  \
    __extension__({                                                                    \
        static _Atomic uint32_t al_once_;                                              \
        uint32_t al_v_ = atomic_load_explicit(&al_once_, memory_order_acquire);        \
        if (!al_v_) {                                                                  \
            al_v_ = (uint32_t)resolve("" literal "") + 1;                              \
            atomic_store_explicit(&al_once_, al_v_, memory_order_release);             \
        }                                                                              \
        al_v_ - 1;                                                                     \
    })
#define al_node_is(n, type) al_node_has_type((n), AL_PY_ONCE_(al_py_type_id, type))
/* Pointer into the source and byte length of a node's text. */
const char *al_node_ptr(const al_pyfile *pf, TSNode n, size_t *len);
bool al_node_text_eq(const al_pyfile *pf, TSNode n, const char *s);
/* A copy of a node's text; caller frees. */
char *al_node_text(const al_pyfile *pf, TSNode n);
/* Text with runs of whitespace (including line continuations) collapsed
 * to nothing, for comparing expressions; caller frees. */
char *al_node_text_compact(const al_pyfile *pf, TSNode n);
#define al_node_field(n, field) \
    ts_node_child_by_field_id((n), (TSFieldId)AL_PY_ONCE_(al_py_field_id, field))
/* Every child under `field`, in order (a field can repeat: `subscript`,
 * `alternative`). Uses the tree cursor: ts_node_field_name_for_child is
 * wrong in tree-sitter 0.20.7 (it labels `,` and `else_clause`). Returns
 * the number of children found, storing at most max. */
size_t al_node_field_id_children(TSNode n, TSFieldId field, TSNode *out, size_t max);
#define al_node_field_children(n, field, out, max) \
    al_node_field_id_children((n), (TSFieldId)AL_PY_ONCE_(al_py_field_id, field), (out), (max))
size_t al_node_row(TSNode n); /* 1-based */

#endif
