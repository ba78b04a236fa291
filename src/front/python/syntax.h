/* Questions about Python syntax that the analysis and the rules share:
 * the arguments of a call, the lines a statement stands on, the names a
 * piece of code binds or mentions. Pure reads of the tree; no dataflow. */
#ifndef ALLOCLINT_PY_SYNTAX_H
#define ALLOCLINT_PY_SYNTAX_H

#include "pyast.h"
#include "../../base/util.h"

#include <stdbool.h>
#include <stddef.h>

/* The arguments of a call, in order, comments skipped. */
typedef struct {
    TSNode pos[16]; /* positional */
    int npos;
    TSNode kw[16]; /* keyword_argument nodes */
    int nkw;
    TSNode all[32]; /* every argument, as written */
    int nall;
    bool splat; /* *a, **k, a generator argument, or too many to hold */
} al_py_args;

void al_py_args_read(TSNode call, al_py_args *a);
/* The value of keyword argument `name`, or a null node. */
TSNode al_py_kwarg(const al_pyfile *pf, const al_py_args *a, const char *name);
/* Whether every keyword argument is one of names (NULL-terminated). */
bool al_py_kwargs_within(const al_pyfile *pf, const al_py_args *a, const char *const *names);
/* ", k=v, k2=v2" of the keyword arguments, skipping `skip` (may be NULL). */
char *al_py_kwargs_text(const al_pyfile *pf, const al_py_args *a, const char *skip);
/* The bytes to delete to drop argument `arg` with its separating comma;
 * start == end when it is not among the arguments. */
void al_py_arg_delete_range(const al_py_args *a, TSNode arg, size_t *start, size_t *end);

/* n without redundant parentheses around it. */
TSNode al_py_unparen(TSNode n);
/* The last name of a callee (`zeros` in torch.zeros), or "" (len 0). */
const char *al_py_last_name(const al_pyfile *pf, TSNode fn, size_t *len);
bool al_py_last_name_is(const al_pyfile *pf, TSNode fn, const char *name);
/* Whether two nodes have the same text, ignoring whitespace; two null
 * nodes are the same. */
bool al_py_same_text(const al_pyfile *pf, TSNode a, TSNode b);
bool al_py_node_eq(TSNode a, TSNode b);
bool al_py_parse_long(const al_pyfile *pf, TSNode n, long *out);
bool al_py_is_zero_literal(const al_pyfile *pf, TSNode v);
/* A literal fill value spelled as a float literal ("1" -> "1.0"), so that
 * torch.full infers the default float dtype as torch.zeros had; NULL when
 * it is not a literal. */
char *al_py_float_value(const al_pyfile *pf, TSNode v);

/* The size of zeros(a, b) / zeros((a, b)) / zeros(n) as tuple text
 * "(a, b)" / "(n,)", and its rank; NULL (rank -1) when it cannot be told. */
char *al_py_size_tuple(const al_pyfile *pf, const al_py_args *a, int *rank);
/* The i-th element of a shape given as positional args or one tuple. */
TSNode al_py_shape_elem(const al_py_args *a, int i);
/* The elements of a list or tuple display (parentheses taken off),
 * comments skipped, into out: their number, or -1 when seq is neither or
 * holds more than max. */
int al_py_elements(TSNode seq, TSNode *out, int max);
/* A slice's start, stop and step (null nodes where absent), told apart by
 * its colons. False when it has more parts than that. */
bool al_py_slice_parts(TSNode slice, TSNode parts[3]);

/* Lines. */
size_t al_py_line_start(const al_pyfile *pf, size_t off);
/* The start of the line after the one holding `off` (or the end). */
size_t al_py_next_line(const al_pyfile *pf, size_t off);
/* Leading blanks of the statement at n, or NULL when it does not start
 * its line. */
char *al_py_indent_of(const al_pyfile *pf, TSNode n);
/* The statement's whole line(s), when it stands alone on them. */
bool al_py_statement_lines(const al_pyfile *pf, TSNode stmt, size_t *start, size_t *end);
/* The index of the next statement after i in a block (comments are named
 * children too), or the child count. */
uint32_t al_py_next_statement(TSNode block, uint32_t i);
int al_py_named_statements(TSNode block);
/* The assignment that is the whole statement `name = value` (one plain
 * name as target; annotated or not), or a null node. */
TSNode al_py_name_assignment(TSNode stmt);
/* The call that is the whole statement, or a null node. */
TSNode al_py_statement_call(TSNode stmt);

/* Whether a loop body may end an iteration early: a break, continue,
 * return or yield anywhere in it (nested loops' own included, to stay
 * on the safe side), nested definitions aside. */
bool al_py_has_jump(TSNode body);

/* What a preorder visitor asks next. */
typedef enum {
    AL_VISIT_INTO, /* the node's children next */
    AL_VISIT_OVER, /* not its children: its next sibling */
    AL_VISIT_STOP, /* end the walk */
} al_visit;

/* Visits root and every node under it in source order. */
void al_node_preorder(TSNode root, al_visit (*visit)(TSNode n, void *arg), void *arg);

/* Calls on_block (may be NULL) for every block and on_statement (may be
 * NULL) for every expression statement of a function's body, in source
 * order, without entering nested function or class definitions (each is
 * a function of its own). */
typedef struct {
    void (*on_block)(TSNode func, TSNode block, void *arg);
    void (*on_statement)(TSNode func, TSNode stmt, void *arg);
    void *arg;
} al_py_walker;

void al_py_walk_function(TSNode func, const al_py_walker *w);

/* The parameters of a function_definition, in order: plain names, and
 * "*" for `*args` or the bare `*` (nothing after it takes a position) and
 * "**" for `**kwargs`. */
void al_py_param_names(const al_pyfile *pf, TSNode def, al_strlist *out);
/* Whether `name` is a parameter of def (`*args` and `**kw` included). */
bool al_py_is_param(const al_pyfile *pf, TSNode def, const char *name);
/* Whether parameter name of def is annotated a tensor: `torch.Tensor`,
 * or an optional one (`Optional[torch.Tensor]`, `torch.Tensor | None`),
 * which holds a tensor wherever an operation on it completed. */
bool al_py_param_annotated_tensor(const al_pyfile *pf, TSNode def, const char *name);

/* Names. */
/* Whether n (`Name`, `mod.Name`) names a class, by the convention that
 * names classes in capitals. */
bool al_py_names_class(const al_pyfile *pf, TSNode n);
/* Whether n is `self` or `cls`: a method's receiver, so `self.expand(h)`
 * calls a submodule or method, not the Tensor method of that name. */
bool al_py_is_receiver(const al_pyfile *pf, TSNode n);
/* Occurrences of `name` as a variable under n (attribute and keyword
 * names excluded); 1000 when n is nested too deeply to tell. */
int al_py_count_ident(const al_pyfile *pf, TSNode n, const char *name);
/* The first occurrence of `name` as a variable under n (as
 * al_py_count_ident counts them), or a null node. */
TSNode al_py_first_ident(const al_pyfile *pf, TSNode n, const char *name);
/* Whether identifier id is an attribute's name (`x.id`) or a keyword
 * argument's (`f(id=...)`): a label, not a variable. */
bool al_py_ident_is_label(TSNode id);

/* Names bound anywhere under n: assignment, for, with and except targets,
 * named expressions; nested definitions are skipped. */
void al_py_bound_names(const al_pyfile *pf, TSNode n, al_strlist *out);

/* The class n is defined in (its innermost class body), or null. */
TSNode al_py_enclosing_class(TSNode n);


/* Whether def's decorators, if any, all call it as written and hand back
 * what it returns (staticmethod, classmethod, torch.no_grad(),
 * torch.inference_mode(), torch.compile, abstractmethod, override...): a
 * cache (`functools.cache`) returns one tensor to every caller, a
 * wrapper may read or keep the arguments first. */
bool al_py_decorators_transparent(const al_pyfile *pf, TSNode def);
/* Whether the call is `eval(...)`, `exec(...)`, `locals()` or `vars()`,
 * which can read any local name, unseen. */
bool al_py_call_reads_locals(const al_pyfile *pf, TSNode call);
/* Whether any such call lies under n. */
bool al_py_reads_locals(const al_pyfile *pf, TSNode n);

/* Whether a method is only a declaration: @abstractmethod, or a body of
 * nothing but a docstring, `pass`, `...` and `raise` (NotImplementedError). */
bool al_py_is_abstract_def(const al_pyfile *pf, TSNode def);

#endif
