/* What is proved about every buffer a Python file allocates: the buffer
 * analysis (buffer.c) and the factories handed straight to a call
 * (passed.c) of each analysable function that has a fill site, computed
 * on first use, kept with the module and shared by every rule that asks.
 * Above module.c, which holds the result and knows nothing of how it is
 * made: the module is read by the analyses below, this file reads them. */
#ifndef ALLOCLINT_PROOFS_H
#define ALLOCLINT_PROOFS_H

#include "buffer.h"
#include "module.h"

/* Every allocation site of m's analysable functions that mention a
 * filled factory, in source order. */
const al_buffers *al_proofs_of_module(al_pymodule *m);

#endif
