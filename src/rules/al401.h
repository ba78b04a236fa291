/* What AL401's two parts share: the in-place forms of `x = x op y`
 * (al401_forms.c) and the proof that the rewrite keeps what the code
 * computes (al401.c). */
#ifndef ALLOCLINT_AL401_H
#define ALLOCLINT_AL401_H

#include "rules.h"

#include "../analysis/python/tensor_facts.h"

/* What the rewrite keeps or may change, for the tier and the message. */
typedef enum {
    OPERAND_TENSOR,     /* may broadcast x larger or promote its dtype */
    OPERAND_INT,        /* a Python int: keeps a non-bool dtype and the shape */
    OPERAND_FLOAT,      /* a Python float: keeps a floating dtype and the shape */
    OPERAND_OWN_MASK,   /* masked_fill(x <cmp> number, number): x's shape and dtype */
    OPERAND_BROADCASTS, /* masked_scatter: broadcasts x with the mask */
    OPERAND_OWN,        /* a new tensor made from x that broadcasts into x's shape with
                         * x's dtype: a keepdim reduction of x, `zeros_like(x)` */
} operand_kind;

typedef struct {
    const char *method; /* the in-place method */
    char *args;         /* its argument text */
    operand_kind kind;
    bool needs_float;   /* true division: x must be floating */
    bool own_needs_float; /* OPERAND_OWN: a sum or mean, int64 of an integer x */
    TSNode operand;     /* OPERAND_TENSOR: the tensor operand; OPERAND_BROADCASTS: the mask */
    al_inplace_verdict legal; /* what x's and the operand's stated dtypes and shapes say */
    char legal_why[400];
} inplace;

/* The in-place form of `name = <rhs>` (`x.sub_(y)` for `x = x - y`), into
 * ip (free ip->args); false when rhs has none. */
bool al401_inplace_form(const al_pymodule *m, TSNode rhs, const char *name, inplace *ip);

#endif
