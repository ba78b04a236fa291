/* Operator schemas from C++ sources: TORCH_LIBRARY(ns, m) { m.def("op(Tensor!
 * out, Tensor x) -> ()"); } says that torch.ops.ns.op mutates argument 0.
 * Each mutated argument becomes an op summary (an output, not proved to be
 * written in full), so Python calls of the op are understood. */
#ifndef ALLOCLINT_SCHEMA_H
#define ALLOCLINT_SCHEMA_H

#include "ops.h"

#include <stddef.h>

/* Adds the summaries of every schema in a C++ source; returns how many
 * schemas were read. TORCH_EXTENSION_NAME stands for `_C`, as vLLM's and
 * SGLang's builds name their extensions. */
size_t al_schema_scan(const char *text, size_t len, const char *origin, al_op_table *out);

#endif
