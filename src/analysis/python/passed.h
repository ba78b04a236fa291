/* Fill factories passed straight to a call, which no one else can read
 * (DESIGN.md, issue #29 classes 2 and 4): `op(..., out=torch.zeros(...))`,
 * decided by the op's contract or the callee's summary; and
 * `T = nn.Parameter(torch.zeros(...))`, whose storage T keeps, decided
 * by an initializer (`nn.init.trunc_normal_(T)`, `T.normal_()`) that
 * writes all of T before anything could read it. Each becomes an al_buffer
 * with no target: FULL_WRITE or OUTPUT_ONLY, nothing for the rest. */
#ifndef ALLOCLINT_PASSED_H
#define ALLOCLINT_PASSED_H

#include "buffer.h"

void al_passed_factories_analyse(al_buffers *out, const al_file_env *env, TSNode func);

#endif
