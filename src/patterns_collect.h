/* Private to facts.c and patterns.c: the collectors that the single
 * traversal of al_facts_build calls. */
#ifndef ALLOCLINT_PATTERNS_COLLECT_H
#define ALLOCLINT_PATTERNS_COLLECT_H

#include "facts.h"
#include "python/imports.h"

/* A call whose callee ends in fill_, zero_, to, cuda, cat, concat or
 * concatenate: AL103 (chained), AL201, AL501. */
void al_patterns_call(al_facts *facts, const al_pyfile *pf, const al_imports *im, TSNode call);
/* A function body: AL103 (next statement), AL202, AL301, AL401. */
void al_patterns_function(al_facts *facts, const al_pyfile *pf, const al_imports *im,
                          TSNode func);
/* A @triton.jit function: AL104, AL302. */
void al_patterns_kernel(al_facts *facts, const al_pyfile *pf, const al_imports *im, TSNode func);
/* Whether the callee's last name makes a call worth al_patterns_call. */
bool al_patterns_call_wanted(const al_pyfile *pf, TSNode call);

#endif
