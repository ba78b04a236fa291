/* What model code states about a tensor's dtype and shape where it makes
 * it: a factory's `dtype=` and sizes (`torch.zeros(b, s, dtype=torch.int32)`),
 * `.view(...)` / `.reshape(...)` literals, `.bool()` / `.half()` /
 * `.to(torch.float16)`, a comparison (bool), `.expand(...)` (a view whose
 * elements share memory). A name is read through its one binding in the
 * function before the statement. What is not stated stays unknown. Used
 * to tell whether `x = x op y` may become `x.op_(y)`: in place, the
 * result keeps x's dtype and shape where the original promoted and
 * broadcast. */
#ifndef ALLOCLINT_TENSOR_FACTS_H
#define ALLOCLINT_TENSOR_FACTS_H

#include "module.h"

#include <stdbool.h>

typedef enum {
    AL_TDT_UNKNOWN,
    AL_TDT_BOOL,
    AL_TDT_UINT8,
    AL_TDT_INT8,
    AL_TDT_INT16,
    AL_TDT_INT32,
    AL_TDT_INT64,
    AL_TDT_FLOAT16,
    AL_TDT_BFLOAT16,
    AL_TDT_FLOAT32,
    AL_TDT_FLOAT64,
    AL_TDT_FLOAT_DEFAULT, /* a float factory without dtype=: the default dtype */
    AL_TDT_COMPLEX64,
    AL_TDT_COMPLEX128,
} al_tdtype;

#define AL_TENSOR_FACTS_MAX_RANK 8

typedef struct {
    al_tdtype dtype;
    int rank;                              /* -1: not known */
    TSNode dims[AL_TENSOR_FACTS_MAX_RANK]; /* each size as written; null: not known */
    TSNode expanded;                       /* the `.expand(...)` that made it, or null */
} al_tensor_facts;

/* The facts of expr at stmt in func. bindings: how many times a name read
 * may be bound in the function for its one binding before stmt to be
 * taken (1 for an operand; 2 for the name the statement itself rebinds). */
al_tensor_facts al_tensor_facts_of(const al_pymodule *m, TSNode func, TSNode stmt, TSNode expr,
                                   size_t bindings);

const char *al_tdtype_name(al_tdtype d); /* "float16"; "floating (the default dtype)" */

/* What `x op= y` does where `x = x op y` made a new tensor, from their
 * facts: AL_INPLACE_SAME (proved: x's dtype and shape are the result's),
 * AL_INPLACE_RAISES (the update raises, or writes a view of shared
 * elements), AL_INPLACE_DIFFERS (it rounds to x's dtype where the
 * original gave a wider one), AL_INPLACE_UNKNOWN. why: the reason (for
 * the last three), for a message; it names x and y as given. */
typedef enum {
    AL_INPLACE_SAME,
    AL_INPLACE_RAISES,
    AL_INPLACE_DIFFERS,
    AL_INPLACE_UNKNOWN,
} al_inplace_verdict;

al_inplace_verdict al_inplace_judge(const al_pyfile *pf, const al_tensor_facts *x,
                                    const al_tensor_facts *y, const char *xname,
                                    const char *yname, bool dtype_matters, char *why,
                                    size_t cap);

#endif
