/* Operator schemas from C++ sources: TORCH_LIBRARY(ns, m) { m.def("op(Tensor!
 * out, Tensor x) -> ()"); } says that torch.ops.ns.op mutates argument 0
 * (TORCH_LIBRARY_EXPAND and TORCH_LIBRARY_FRAGMENT blocks too).
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

/* `m.impl("op", [dispatch key,] &fn)`, `m.impl("op", TORCH_FN(fn))` and
 * `m.def("op", &fn)`: the C++ function implementing torch.ops.ns.op. */
typedef struct {
    char *op;       /* "torch.ops.ns.op" */
    char *function; /* "fn" (the last name of a qualified one) */
} al_op_binding;

typedef struct {
    al_op_binding *items;
    size_t n, cap;
} al_op_bindings;

/* Adds the bindings of every TORCH_LIBRARY(_EXPAND, _FRAGMENT, _IMPL)
 * block of a C++ source. */
void al_schema_bindings(const char *text, size_t len, al_op_bindings *out);
void al_op_bindings_free(al_op_bindings *b);

#endif
