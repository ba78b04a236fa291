#ifndef ALLOCLINT_GRAD_H
#define ALLOCLINT_GRAD_H

#include "module.h"

/* Whether stmt (in func) runs with autograd off: the innermost of torch's
 * grad modes around it (`with` items, then func's decorators) is
 * `torch.no_grad()` or `torch.inference_mode()` without an argument, and
 * nothing in func may turn autograd back on (`enable_grad`,
 * `set_grad_enabled`, a grad-mode context with an argument). region: the
 * `with` statement, or func when a decorator turns it off; spoiler (with
 * off false): what may turn it on, and its line when known. */
typedef struct {
    bool off;
    TSNode region;
    const char *spoiler;
    size_t spoiler_row;
} al_grad;
al_grad al_grad_at(const al_pymodule *m, TSNode func, TSNode stmt);
/* A use of name in func (an identifier, not an attribute's or a keyword's
 * name) before region, or after it when a loop of func around region may
 * come back to it (*looped then true), or a null node: what reads the
 * updated tensor after the region, with no way back, cannot have saved the
 * old one. */
TSNode al_grad_use_outside(const al_pyfile *pf, TSNode func, TSNode region, const char *name,
                           bool *looped);

#endif
