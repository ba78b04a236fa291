/* Op summaries: for ops that take an output tensor, which argument it is
 * and whether the op writes every element of it; for ops whose result a
 * rule asks about, whether it is new or an alias of an argument.  Kept as data
 * (the TOML files in rules/ops/, embedded at build time); users add their own. */
#ifndef ALLOCLINT_OPS_H
#define ALLOCLINT_OPS_H

#include "../../base/toml.h"

#include <stdbool.h>
#include <stddef.h>

/* How much of its output an op writes (the `writes` key; `full` says
 * ALL or SOME). */
typedef enum {
    AL_OP_WRITES_SOME,  /* an output; how much of it is not stated */
    AL_OP_WRITES_ALL,   /* every element */
    AL_OP_WRITES_ROWS,  /* every element of the first N rows, N = `rows` */
    AL_OP_WRITES_PART,  /* leaves elements unwritten by design: padded rows, masked tiles */
    AL_OP_ACCUMULATES,  /* adds into it (atomics, split-K partial sums): its zeros are needed */
    AL_OP_MUTATES,      /* may change it (`Tensor!` in a schema): whether it reads it
                         * first, or writes all of it, is not stated */
} al_op_writes;

typedef struct {
    char *name;        /* fully qualified: "torch.cumsum", "torch.ops._C.foo" */
    char *out_keyword; /* keyword argument of the output, or NULL */
    int out_position;  /* positional index of the output, or -1 */
    bool full_write;   /* every element of the output is written */
    char *origin;      /* file the entry came from, for messages */
    bool library;      /* a library outside the project (flashinfer, aiter): its full
                        * write is documented, not proved, so a fix is at most unsafe */
    al_op_writes writes; /* full_write is writes == AL_OP_WRITES_ALL */
    char *params;      /* the positional parameters' names, comma-separated, or NULL */
    char *rows_param;  /* WRITES_ROWS: rows = "<rows_param>.shape[<rows_dim>]" */
    int rows_dim;
    int out_element;   /* the output is this element of the list handed as the
                        * output argument (`out=[attn, lse]`), or -1 */
    char *unless;      /* parameters, comma-separated: a call that passes one of them
                        * (not as None or False) is outside the contract, which then
                        * says only that part of the output is written; or NULL */
} al_op_summary;

/* What an op's result is (the `returns` key). */
typedef enum {
    AL_RETURNS_NEW,       /* a tensor nothing else holds */
    AL_RETURNS_ALIAS,     /* its first argument (a method's receiver) or a view of it */
    AL_RETURNS_MAY_ALIAS, /* a copy, or the argument itself when nothing changes (`.to`) */
    AL_RETURNS_NOT_TENSOR, /* a number, a string, a size: `len`, `Tensor.item` */
    AL_RETURNS_SHARED_VIEW, /* a view of its first argument whose elements may share
                             * memory (`expand`, `unfold`): not writable in place */
} al_op_returns;

typedef struct {
    char *name;   /* as written: "torch.zeros", "torch.Tensor.view",
                   * "torch.nn.Linear.forward", "torch.ops.*.gemm", "builtins.len" */
    char *key;    /* al_op_key(name) */
    al_op_returns returns;
    bool library; /* a library's documented contract, not a proof */
    char *origin; /* file the entry came from, for messages */
} al_op_result;

typedef struct {
    al_op_summary *items;
    size_t n, cap;
    /* What ops return: [[op]] entries with `returns`, and registered ops'
     * schemas (`-> Tensor` new, `-> Tensor(a)` an alias). */
    al_op_result *results;
    size_t n_results, cap_results;
} al_op_table;

typedef struct {
    char message[512];
} al_ops_error;

/* Adds the [[op]] entries of a TOML text. Returns false and fills err
 * (naming origin, line and key) on malformed input; the table keeps the
 * entries read before the error. */
bool al_ops_load_toml(al_op_table *table, const char *text, size_t len,
                      const char *origin, al_ops_error *err);
/* Adds the [[<array_key>]] entries of a parsed document (the user's
 * tables in pyproject.toml are [[tool.alloclint.ops]]). */
bool al_ops_read_array(al_op_table *table, const al_toml *doc, const char *array_key,
                       const char *origin, al_ops_error *err);
/* The built-in tables from rules/ops/. */
bool al_ops_load_builtin(al_op_table *table, al_ops_error *err);
/* Whether an op summary's name matches a called name: equal, or
 * `torch.ops.*.op` (an extension whose namespace its build decides) for
 * `torch.ops.<any>.op`. */
bool al_op_name_matches(const char *pattern, const char *name);
const al_op_summary *al_ops_find(const al_op_table *table, const char *name);
/* The summary naming this argument (a keyword, or a position when kw is
 * NULL) of the op as its output, or NULL. An op can have several. With
 * `args`, an output named by keyword is found at its position too, and
 * one named by position under its keyword. */
const al_op_summary *al_ops_find_output(const al_op_table *table, const char *name, int pos,
                                        const char *kw, size_t kwlen);
/* The same for a tensor handed as element elem of a list or tuple that is
 * the argument (`out=[a, b]`): only entries with `element` match. */
const al_op_summary *al_ops_find_output_element(const al_op_table *table, const char *name,
                                                int pos, const char *kw, size_t kwlen, int elem);
void al_ops_free(al_op_table *table);
/* What the table says the op (any spelling al_op_key reads) returns, or
 * NULL; a later entry (user config) overrides an earlier one. An entry
 * named "mod.*" answers for every function of module mod and its
 * submodules. */
const al_op_result *al_ops_find_result(const al_op_table *table, const char *op);
/* Adds what an op returns (schema scans; [[op]] entries add their own). */
void al_ops_add_result(al_op_table *table, const char *name, al_op_returns returns,
                       bool library, const char *origin);
/* The position of parameter `name` in op's `args`, or -1. */
int al_op_param_position(const al_op_summary *op, const char *name);
/* Appends copies of every entry of from to table. */
void al_ops_append(al_op_table *table, const al_op_table *from);

/* The key an op is registered under: "torch.ops.ns.op(.default)" and
 * "ns::op" -> "ns.op"; caller frees. */
char *al_op_key(const char *op);
/* Whether a binding's key names the op: the same "ns.op", or the same op
 * name when the binding's namespace is unknown ("*.op"). */
bool al_op_key_matches(const char *binding, const char *wanted);

#endif
