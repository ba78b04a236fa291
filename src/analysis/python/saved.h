/* Where autograd keeps a tensor for a backward: an op before a statement
 * that saved it (as its input, its other operand or its result, per the
 * table generated from torch in autograd_saved.c). Updating such a tensor
 * in place, with autograd on, makes that backward() raise. */
#ifndef ALLOCLINT_SAVED_H
#define ALLOCLINT_SAVED_H

#include "module.h"

typedef struct {
    TSNode op;         /* the call or operator that saved it; null: none found */
    const char *name;  /* its table name (`exp`, `mul`), static */
    const char *as;    /* "input", "other operand" or "result" */
    bool later_in_loop; /* after stmt, in a loop that brings the tensor back */
} al_saved;

/* The first op in func that saves for its backward the tensor `name`
 * holds at stmt: from the last rebinding every path to stmt passes (the
 * start of the body if none) up to stmt, and in the loop around stmt
 * whose back edge brings that tensor to it again, from the last rebinding
 * before the back edge (the end of stmt if none) to its end. A rebinding
 * `name = op(...)` counts op's result (its operands are earlier tensors);
 * elsewhere an op that takes `name` as its input or other operand.
 * Nested functions are not read. */
al_saved al_saved_before(const al_pymodule *m, TSNode func, TSNode stmt, const char *name);

#endif
