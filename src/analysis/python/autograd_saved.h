/* Which operands an op saves for its backward (generated from torch by
 * scripts/autograd_saved.py: each op run under autograd, then its input,
 * its other operand or its result updated in place, and backward() run;
 * where it raises, autograd saved that tensor). An in-place update of a
 * saved tensor before that backward runs breaks backward(). */
#ifndef ALLOCLINT_AUTOGRAD_SAVED_H
#define ALLOCLINT_AUTOGRAD_SAVED_H

enum {
    AL_SAVES_SELF = 1,   /* the op's input (`x` of `torch.mul(x, y)`, `x.mul(y)`) */
    AL_SAVES_OTHER = 2,  /* its other tensor operand */
    AL_SAVES_RESULT = 4, /* what it returns (`exp`, `tanh`, `softmax`) */
};

typedef struct {
    const char *name; /* `mul`; `mul.Scalar` with a Python number as the other operand */
    unsigned saves;
} al_autograd_saved;

/* The table's entry for the op of that name, or NULL. */
const al_autograd_saved *al_autograd_find(const char *name);

#endif
