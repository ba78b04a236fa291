/* Where Python binds a name, as far as what a called name is depends on
 * it: the def a module or class body holds (unless the body binds the
 * name again), a nested function, a local bound once to what a call
 * returns, and a byte filter for bindings before any syntax walk. */
#ifndef ALLOCLINT_PY_SCOPES_H
#define ALLOCLINT_PY_SCOPES_H

#include "pyast.h"

#include <stdbool.h>
#include <stddef.h>

/* What `name`, called at site, is in the functions around it (Python's
 * scopes): 1 and *def when the innermost one binding it does so only by
 * an undecorated def among its own statements (a nested function); -1
 * when it binds it otherwise (a parameter, an assignment, a def inside a
 * branch, several defs); 2 and *def the statement when it binds it only
 * by one import statement (`from m import f as name` in the function);
 * 0 when none binds it (a module's name). */
int al_py_local_def(const al_pyfile *pf, TSNode site, const char *name, TSNode *def);
/* The call whose result `name` holds when name is called at site: the
 * one binding of name in the function around site is `name = f(...)`, and
 * every other use of it there is a call `name(...)` (no parameter, no
 * other binding, not handed on, stored or declared global). A null node
 * otherwise. */
TSNode al_py_sole_call_binding(const al_pyfile *pf, TSNode site, const char *name);
/* Whether bytes [p, end) might bind `word`: `word =`, `word +=` and the
 * other updates, `word :=`, `word: T = `, a target of an assignment
 * (`a, word = `, `(a, word) = `), `word,` or `word)` opening a line,
 * `for`, `as` or `import` before it on its line, `del word`, `nonlocal
 * word`, `global word`, `def word`, `class word`. A filter before a syntax
 * walk: false means no binding there. */
bool al_py_bytes_may_bind(const char *p, const char *end, const char *word);

/* Whether the module binds `name` otherwise than by importing it (an
 * assignment such as `fill = wrap(fill)`, a def, a function declaring
 * it `global`): a call of the imported name may run something else. */
bool al_py_module_binds_besides_imports(const al_pyfile *pf, const char *name);
/* The top-level class definition named cls (decorated or not), or null. */
TSNode al_py_top_class(const al_pyfile *pf, const char *cls);
/* The function `name` defined directly in block (a module or class body,
 * decorated or not), or a null node, also when the block binds the name
 * otherwise too (`fill = wrap(fill)`, a second def, an import, `del`, a
 * function of it declaring the name `global`): what the name holds when
 * called is then not that def. */
TSNode al_py_def_in_block(const al_pyfile *pf, TSNode block, const char *name);
/* The one definition of `name` in the branches of the module's top-level
 * `if`, `try` and `with` statements (a platform switch), or a null node
 * when there is none, more than one (which one runs is not known), or the
 * module binds the name otherwise too. */
TSNode al_py_switched_def(const al_pyfile *pf, const char *name);
/* Static or class method `name` of the module's top-level class `cls`,
 * or a null node (also for a plain method: it needs an instance). */
TSNode al_py_bound_class_method(const al_pyfile *pf, const char *cls, const char *name);
/* The plain (instance) methods `name` of the module's top-level classes,
 * at most max, in order. */
size_t al_py_class_methods(const al_pyfile *pf, const char *name, TSNode *out, size_t max);

#endif
