/* A callable a function returns, called by its caller: `fn =
 * self.pick_kernel(...)` then `fn(out, x)`. When every return of the
 * method or function is the same function of the project (named, not
 * made: no lambda, partial or bound method), the call is a call of that
 * function, as if written by its name. The top of the index's files: it
 * fills the table through which name resolution calls back up. */
#include "index.h"
#include "index_internal.h"
#include "languages.h"
#include "../../front/python/syntax.h"

#include <stdlib.h>
#include <string.h>

/* How many returned callables deep the current resolution is: one
 * function returning another's result is followed, no further. */
static _Thread_local int depth;

typedef struct {
    al_index *ix;
    al_pysite at;    /* the maker's file */
    al_def found;    /* what every return so far names */
    bool any, bad;
} returns;

static al_visit visit_return(TSNode n, void *arg)
{
    returns *r = arg;
    if (r->bad)
        return AL_VISIT_STOP;
    if (al_node_is(n, "function_definition") || al_node_is(n, "lambda") ||
        al_node_is(n, "class_definition"))
        return AL_VISIT_OVER; /* their returns are theirs */
    if (al_node_is(n, "yield")) {
        r->bad = true; /* a generator: calling it makes no callable */
        return AL_VISIT_STOP;
    }
    if (!al_node_is(n, "return_statement"))
        return AL_VISIT_INTO;
    TSNode v = al_py_unparen(ts_node_named_child(n, 0));
    al_def d;
    if (ts_node_is_null(v) || !(al_node_is(v, "identifier") || al_node_is(v, "attribute")) ||
        !al_index_resolve(r->ix, &r->at, v, n, &d) || d.method || d.kernel ||
        (r->any && (strcmp(d.path ? d.path : "", r->found.path ? r->found.path : "") ||
                    ts_node_start_byte(d.def) != ts_node_start_byte(r->found.def)))) {
        r->bad = true;
        return AL_VISIT_STOP;
    }
    r->found = d;
    r->any = true;
    return AL_VISIT_OVER;
}

/* `self.pick()` may run a subclass's pick, which may return another
 * function: a maker the project overrides (or may: too many to read) is
 * not followed. */
static bool overridden(al_index *ix, const al_pysite *from, TSNode fn, TSNode call,
                       const al_def *maker)
{
    if (!maker->method || !al_node_is(fn, "attribute"))
        return false;
    TSNode cls = al_py_enclosing_class(call);
    if (ts_node_is_null(cls))
        return true;
    al_def here = {from->path, from->pf, from->mod, cls, false, false};
    char *method = al_node_text(from->pf, al_node_field(fn, "attribute"));
    al_def defs[8];
    bool complete;
    size_t n = al_index_overrides(ix, &here, method, maker, defs, 8, &complete);
    free(method);
    return n > 0 || !complete;
}

bool al_index_returned_callable(al_index *ix, const al_pysite *from, TSNode call, al_def *out)
{
    if (depth >= 2 || !al_node_is(call, "call"))
        return false;
    depth++;
    al_def maker;
    TSNode fn = al_node_field(call, "function");
    bool ok = al_index_resolve(ix, from, fn, call, &maker) && !maker.kernel &&
              al_py_decorators_transparent(maker.pf, maker.def) &&
              !overridden(ix, from, fn, call, &maker);
    returns r = {ix, {maker.path, maker.pf, maker.mod}, {0}, false, false};
    if (ok)
        al_node_preorder(al_node_field(maker.def, "body"), visit_return, &r);
    depth--;
    if (!ok || r.bad || !r.any)
        return false;
    *out = r.found;
    return true;
}

const al_index_upcalls al_index_upcall = {al_index_returned_callable, al_index_attr_assigned};
