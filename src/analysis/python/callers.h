/* Who hands a function its arguments: every call of it across its
 * project, found by name through the repo index, and what each hands a
 * parameter. For AL401's question of whether a parameter's tensor is
 * held by anyone but the function (caller-side ownership). */
#ifndef ALLOCLINT_CALLERS_H
#define ALLOCLINT_CALLERS_H

#include "fresh.h"

/* What parameter `param` of func (a function of m) holds when the project
 * is the whole program: AL_OWN_ASSUMED when every call of func in it hands
 * the parameter a new tensor it does not read again (its why names the
 * calls and says that a caller outside the project is assumed not to
 * exist), AL_OWN_NO with the reason otherwise: a call that hands it
 * something else, no call found, or a use of the function's name that is
 * not a call (it may be called under another name). */
al_own al_param_callers_own(const al_pymodule *m, TSNode func, const char *param);

#endif
