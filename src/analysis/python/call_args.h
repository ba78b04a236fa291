/* What a call site hands and asks, read from its text and the op
 * tables: the argument that goes to a parameter of the callee, the tensor
 * it is handed to write into, `inplace=True`, whether it calls torch at
 * all. For fresh.c's question of whether a call gives a new tensor. */
#ifndef ALLOCLINT_CALL_ARGS_H
#define ALLOCLINT_CALL_ARGS_H

#include "module.h"
#include "../core/index.h"

#include <stdbool.h>

/* Whether n is, or holds, a call of a torch function. */
bool al_call_has_torch(const al_pyfile *pf, const al_imports *im, TSNode n, int depth);
/* The tensor a call of q is handed to write its result into (`out=buf`,
 * or where the op table puts the op's output), which the call returns;
 * a null node when there is none. */
TSNode al_call_output_handed(const al_pymodule *m, TSNode call, const char *q);
/* `inplace=True` (anything but a literal False): the call returns its
 * input. */
bool al_call_asked_in_place(const al_pyfile *pf, TSNode call);
/* Whether the call leaves parameter `param` of d at its default, None
 * (it passes it neither by position nor by name, and unpacks nothing). */
bool al_call_leaves_none(const al_pymodule *m, TSNode call, const al_def *d, bool bound,
                         const char *param);
/* The argument a call hands to parameter `param` of d (bound: the call
 * passes the receiver, d's first parameter, itself), or null. */
TSNode al_call_argument_for(const al_pymodule *m, TSNode call, const al_def *d, bool bound,
                            const char *param);
/* Whether calling fn may give a tensor, by what alloclint can read of fn
 * alone: torch's own functions, and methods torch.Tensor has that return
 * one. */
bool al_call_tensor_evidence(const al_pymodule *m, TSNode fn);

#endif
