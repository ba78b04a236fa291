/* What an expression stands for inside its function, as one canonical
 * text, so that two spellings of one size compare equal: locals assigned
 * once are replaced by their value (`M, N = x.shape` makes M stand for
 * `x.shape[0]`), `x.size(1)` and `x.shape[1]` are one spelling, blanks are
 * dropped. Nothing is evaluated; an expression that depends on a local
 * assigned twice keeps the local's name, so it only ever equals itself. */
#ifndef ALLOCLINT_VALUES_H
#define ALLOCLINT_VALUES_H

#include "../../front/python/syntax.h"

/* The canonical text of expr, read in function func (a function_definition,
 * or a null node for module level) at the statement holding `at`; caller
 * frees. */
char *al_value_text(const al_pyfile *pf, TSNode func, TSNode at, TSNode expr);
/* The value of name's one binding in func, a plain `name = value` that
 * starts before at; a null node when name is a parameter of func, is
 * bound more than once anywhere in it (a loop may carry a later binding
 * back), by unpacking, a loop, `with` or `except`, or not at all. */
TSNode al_value_single_binding(const al_pyfile *pf, TSNode func, TSNode at, TSNode name);
/* The value of the `name = value` statement whose binding of name reaches
 * stmt (a statement of func) on every path: the last statement binding
 * name before stmt in its block, or in the blocks around it, when that
 * statement is such an assignment. A null node when name is bound any
 * other way there, when a compound statement around stmt binds it too (a
 * loop may carry a later binding back), or when it is a parameter or
 * unbound. */
TSNode al_value_reaching_binding(const al_pyfile *pf, TSNode func, TSNode stmt, TSNode name);
/* The canonical texts of tensors whose first dimension is expr's: expr
 * itself, then, through names bound once, what it was made from without
 * changing its rows (`q = torch.cat([q_nope, q_pe], dim=-1)` has q_nope's
 * rows; `x.contiguous()`, `.to(...)`, `.float()`, `.clone()` keep x's).
 * At most max texts; the caller frees each. */
size_t al_value_same_rows(const al_pyfile *pf, TSNode func, TSNode at, TSNode expr, char **out,
                          size_t max);
/* Whether two value texts name one value, the arity `M, N = x.shape`
 * adds aside ("x.shape[0of2]" is "x.shape[0]"). */
bool al_value_text_same(const char *a, const char *b);
/* Whether the value text t is the first dimension of the tensor whose
 * value text is x[0..xlen): `x.shape[0]` or `len(x)`, arity aside. */
bool al_value_is_first_dim_of(const char *t, const char *x, size_t xlen);
/* Whether one of mine[0..n_mine) (texts of a buffer's first dimension)
 * is dimension dim of expr, read at `at` in func; for dimension 0, also of
 * what expr took its rows from (al_value_same_rows). */
bool al_value_rows_match(const al_pyfile *pf, TSNode func, TSNode at, TSNode expr, int dim,
                         const char *const *mine, size_t n_mine);
/* The innermost function_definition around n, or a null node. */
TSNode al_enclosing_function(TSNode n);

#endif
