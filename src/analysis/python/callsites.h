/* The calls a Python function makes, as a profiler trace sees them: a
 * trace names a function (`path(line): name`) and, under it, one frame per
 * C or library call (`<built-in method zeros ...>`) in the order the calls
 * ran. To put the k-th `zeros` of a call of the function on a statement,
 * the function's own call sites of that kind are listed in the order the
 * body evaluates them, each marked whether it runs exactly once per call
 * in that order (straight-line code) or not (under a loop, a branch, a
 * short-circuit, a handler). */
#ifndef ALLOCLINT_CALLSITES_H
#define ALLOCLINT_CALLSITES_H

#include "../../front/python/pyast.h"

#include <stdbool.h>
#include <stddef.h>

/* A subscript assignment (`x[i] = v`): the op it runs has no call frame. */
#define AL_CALLSITE_SETITEM "[]="

typedef struct {
    char kind[64];     /* the callee's last name (`zeros`, `fill_`, `to`), or a kind above */
    TSNode node;       /* the call (or the assignment) */
    size_t start, end; /* its bytes */
    size_t row;        /* 1-based */
    bool straight;     /* reached once per call of the function, in this order */
} al_callsite;

typedef struct {
    al_callsite *items;
    size_t n, cap;
} al_callsites;

/* The function a trace's frame names: `name` whose first line (its first
 * decorator's where it has one, as a code object's first line is) is
 * `line`; else (a frame already running when profiling began carries its
 * current line) the innermost function named `name` whose lines hold
 * `line`. `<module>` is the file's top level (the root node); `<lambda>`,
 * `<listcomp>` and the other comprehensions are the node of that kind on
 * `line`. *exact says which of the two matched. False: none. */
bool al_py_frame_function(const al_pyfile *pf, size_t line, const char *name, TSNode *out,
                          bool *exact);
/* The innermost function (def or lambda) whose lines hold `line`, else the
 * module root. */
TSNode al_py_function_at(const al_pyfile *pf, size_t line);
/* The 1-based line a function's def (or a node's first line) is on. */
size_t al_py_def_row(TSNode fn);

/* The call sites of fn's own body (a function_definition, a lambda, a
 * comprehension or the module root), nested functions, classes and
 * lambdas left out (each runs as a frame of its own), in evaluation order. */
void al_py_callsites(const al_pyfile *pf, TSNode fn, al_callsites *out);
void al_callsites_free(al_callsites *s);

/* The source kind a trace's call frame or frame-less op stands for:
 * `<built-in method zeros of type object>` and `<built-in function zeros>`
 * are `zeros`; a library Python frame `torch/nn/functional.py(5096): pad`
 * is `pad`; an op with no call frame of its own (`aten::copy_` under a
 * function's frame) is a subscript assignment's when it writes
 * (AL_CALLSITE_SETITEM), else its aten name. Writes at most size bytes. */
void al_callsite_kind_of_frame(const char *frame, char *kind, size_t size);
void al_callsite_kind_of_op(const char *op, char *kind, size_t size);

#endif
