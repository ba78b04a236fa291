/* What names a Python file binds by import, so that `th.zeros`,
 * `zeros` (from torch import zeros) and `torch.zeros` all resolve to
 * the same qualified name. */
#ifndef ALLOCLINT_IMPORTS_H
#define ALLOCLINT_IMPORTS_H

#include "pyast.h"

typedef struct {
    char *local;  /* name bound in the file */
    char *target; /* qualified name it stands for; relative imports keep
                   * their leading dots ("..pkg.mod.name") */
} al_import;

typedef struct {
    al_import *items;
    size_t n, cap;
} al_imports;

/* Adds the names one import statement binds (import_statement or
 * import_from_statement). The facts traversal calls it for every import
 * at any depth: imports inside functions and `if TYPE_CHECKING:` blocks
 * bind the same names in practice. Start from a zeroed al_imports. */
void al_imports_add_statement(al_imports *im, const al_pyfile *pf, TSNode stmt);
/* Qualified name of a dotted expression whose base is imported, or NULL;
 * caller frees. */
char *al_imports_resolve(const al_imports *im, const al_pyfile *pf, TSNode expr);
/* Local name that refers to `module` itself (e.g. "torch" or "th"). */
const char *al_imports_alias_for(const al_imports *im, const char *module);
void al_imports_free(al_imports *im);

#endif
