/* An op contract (rules/ops/, a schema) read at one call: the argument
 * a contract names, and the words a finding uses for what it assumes. */
#ifndef ALLOCLINT_CONTRACT_H
#define ALLOCLINT_CONTRACT_H

#include "../core/ops.h"
#include "../core/summary.h"
#include "../../front/python/syntax.h"

/* The argument a call passes for an op contract's parameter `param`: by
 * keyword, or at its position in the contract's `args`; a null node. */
TSNode al_contract_argument(const al_pyfile *pf, TSNode call, const al_op_summary *op,
                            const char *param);
/* The parameter of op's `unless` that the call passes (not as None or
 * False; or may pass, through `*args`/`**kwargs`), written into buf:
 * the contract does not hold there. NULL when none is. */
const char *al_contract_voided(const al_pyfile *pf, TSNode call, const al_op_summary *op,
                               char *buf, size_t len);
/* Why a write by op `name` under its contract is at most likely (a
 * library's word, rows taken on trust, an output of unstated extent). */
char *al_contract_why(const al_op_summary *op, const char *name);

/* `self.<attr>.<method>(...)` with `self.<attr>` declared (or stored) to
 * hold a class its module imports: the qualified name of that method
 * (`deep_ep.Buffer.low_latency_combine`) when env's op tables hold a
 * contract for it; NULL otherwise. Caller frees. */
char *al_contract_method_name(const al_file_env *env, TSNode call);
/* The step that names the class a contract on a method was taken from,
 * added to chain. */
void al_contract_method_note(const al_file_env *env, TSNode call, al_chain *chain);

#endif
