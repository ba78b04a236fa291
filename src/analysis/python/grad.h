#ifndef ALLOCLINT_GRAD_H
#define ALLOCLINT_GRAD_H

#include "module.h"

/* Whether stmt (a node of func: a statement, a call) runs with autograd
 * off: each of torch's grad modes around it (`with` items, then func's decorators) is
 * `torch.no_grad()` or `torch.inference_mode()` without an argument, there
 * is one, and nothing in func may turn autograd back on (`enable_grad`,
 * `set_grad_enabled`, a grad-mode context with an argument). region: the
 * outermost such `with` statement, or func when a decorator turns it off
 * (off from its start, since nothing turns it on); spoiler (with off
 * false): what may turn it on, and its line when known. With no grad
 * mode in func, a private function is off when every call of it in its
 * file is (through private callers, three deep), which is assumed. */
typedef struct {
    bool off;
    bool inference; /* off, and inside inference_mode() (an inner no_grad() too) */
    TSNode region;
    const char *spoiler;
    size_t spoiler_row;
    /* off only at the calls of func, a private function, in its file (no
     * grad mode in func itself): what is assumed, for the unsafe tier's
     * message; empty when off is proved in func. */
    char assumed[480];
} al_grad;
al_grad al_grad_at(const al_pymodule *m, TSNode func, TSNode stmt);
/* A use of name in func (an identifier, not an attribute's or a keyword's
 * name) before region, or after it when a loop of func around region may
 * come back to it (*looped then true), or a null node: what reads the
 * updated tensor after the region, with no way back, cannot have saved the
 * old one. */
TSNode al_grad_use_outside(const al_pyfile *pf, TSNode func, TSNode region, const char *name,
                           bool *looped);

/* Where autograd is off by no_grad() alone, an in-place update raises on
 * an inference tensor (one made under inference_mode()): a binding of name
 * in func (besides stmt) that may give one: made inside an
 * inference_mode() block that stmt is not in, or bound to what is not a
 * tensor made on its line (an operator, a torch function or a tensor
 * method the op tables say returns a new tensor, or a view or `.to()` of
 * one). dom: the binding that reaches stmt on every path (null: any may),
 * the only one read then. why: for a message. Null when none. */
TSNode al_grad_inference_source(const al_pymodule *m, TSNode func, TSNode stmt, const char *name,
                                TSNode dom, const char **why);

#endif
