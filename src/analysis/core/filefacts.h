/* What the index's byte scans of a project read from each Python file
 * (the methods it defines, whether it may register custom ops), and the
 * walk that lists a project's files, shared by the indexes of one run's
 * threads: each folder is walked and each file read once a run, not once
 * a thread and a scan. */
#ifndef ALLOCLINT_FILEFACTS_H
#define ALLOCLINT_FILEFACTS_H

#include "../../base/source.h"
#include "../../base/util.h"

#include <stdbool.h>
#include <stdint.h>

/* The lists of a file's facts, in the order their names are packed. */
typedef enum {
    AL_FACTS_METHODS,    /* names of indented `def name(`, those starting `__` left out */
    AL_FACTS_ATTRS,      /* attribute names it assigns on an object other than self or
                          * cls: `x.name =`, `x.name: T =`, `setattr(obj, "name", ...)` */
    AL_FACTS_SELF_ATTRS, /* those it assigns on `self.` or `cls.` */
    AL_FACTS_LISTS
} al_facts_list;

/* Paths that live as long as the table that made them. */
typedef struct {
    const char *const *items;
    size_t n;
} al_path_view;

/* A project's source files, in the order one walk of its root met them. */
typedef struct {
    al_path_view py, cxx;
} al_project_files;

/* One allocation a file, its names inside it and its path the walk's: a
 * run keeps the facts of every file of every project it scans (four
 * checkouts of vLLM and SGLang: 56,000 files, whose lists, struct and
 * table key in allocations of their own took 19.7 MB). */
typedef struct {
    const char *path; /* the walk's copy (al_file_facts_project) */
    unsigned long long hash; /* of the bytes read (status AL_SOURCE_OK) */
    al_source_status status;
    bool markers; /* names "custom_op" or "impl(": may register ops */
    uint32_t n_names[AL_FACTS_LISTS];
    /* Each list's names, sorted, each NUL-terminated, the lists in
     * al_facts_list's order. */
    char names[];
} al_file_facts;

/* The first name of list `which` (the next ones follow, each after the
 * one before's NUL), and *n how many. */
const char *al_file_facts_names(const al_file_facts *f, al_facts_list which, size_t *n);

typedef struct al_file_facts_table al_file_facts_table;

al_file_facts_table *al_file_facts_table_new(void);
void al_file_facts_table_free(al_file_facts_table *t);
/* The files under root whose names `want` accepts (al_path_walk), split
 * by is_py into the Python files and the rest: walked now, or as another
 * thread walked them before. Safe from any thread; the lists live as long
 * as the table. */
al_project_files al_file_facts_project(al_file_facts_table *t, const char *root,
                                       bool (*want)(const char *name),
                                       bool (*is_py)(const char *name));
/* path's facts: read now, or as another thread read them before. path is
 * one of a project's Python files (al_file_facts_project), whose copy the
 * facts keep. Safe from any thread; the facts live as long as the table. */
const al_file_facts *al_file_facts_of(al_file_facts_table *t, const char *path);

#endif
