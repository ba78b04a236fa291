/* Dtypes as model code spells them — `torch.int32`, `th.long`,
 * `np.int64`, `"int32"` for NumPy, the builtins `int`, `float`, `bool` —
 * read through the file's imports, so that every rule asks one reader.
 * How two dtypes promote differs between torch and NumPy and stays with
 * the rule that needs it. */
#ifndef ALLOCLINT_DTYPE_H
#define ALLOCLINT_DTYPE_H

#include "module.h"

typedef enum {
    AL_DTYPE_UNKNOWN, /* not a spelling this reader knows (`x.dtype`, `self.dtype`) */
    AL_DTYPE_BOOL,
    AL_DTYPE_SIGNED,
    AL_DTYPE_UNSIGNED,
    AL_DTYPE_FLOAT,
    AL_DTYPE_COMPLEX,
} al_dtype_kind;

typedef struct {
    al_dtype_kind kind;
    int bits; /* 0 when unknown */
} al_dtype;

typedef enum { AL_DTYPE_TORCH, AL_DTYPE_NUMPY } al_dtype_library;

/* What expr names as a dtype for library; a null expr is unknown. */
al_dtype al_dtype_read(const al_pymodule *m, TSNode expr, al_dtype_library lib);
bool al_dtype_is_integer(al_dtype d); /* signed or unsigned, not bool */

/* Whether expr, read at statement stmt of function func, is floating
 * whenever it is a tensor: made by `.float()`, `.to(torch.float32)`, a
 * float factory, an op whose result is floating for any input (`exp`,
 * `sin`, true division), or arithmetic with a floating operand (a Python
 * float among them), through views and the binding of a name that
 * reaches stmt. False when not shown. */
bool al_dtype_floating(const al_pymodule *m, TSNode func, TSNode stmt, TSNode expr);

#endif
