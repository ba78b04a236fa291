#include "call_args.h"

#include "tensor_methods.h"
#include "../../base/util.h"

#include <stdlib.h>
#include <string.h>

bool al_call_has_torch(const al_pyfile *pf, const al_imports *im, TSNode n, int depth)
{
    if (depth > 100)
        return false;
    if (al_node_is(n, "call")) {
        char *q = al_imports_resolve(im, pf, al_node_field(n, "function"));
        bool yes = q && !strncmp(q, "torch.", 6);
        free(q);
        if (yes)
            return true;
    }
    uint32_t k = ts_node_named_child_count(n);
    for (uint32_t i = 0; i < k; i++)
        if (al_call_has_torch(pf, im, ts_node_named_child(n, i), depth + 1))
            return true;
    return false;
}

/* The tensor a call is handed to write its result into (`out=buf`, or
 * where the op table puts the op's output), which the call returns; a
 * null node when there is none. */
TSNode al_call_output_handed(const al_pymodule *m, TSNode call, const char *q)
{
    al_py_args a;
    al_py_args_read(call, &a);
    TSNode out = al_py_kwarg(m->pf, &a, "out");
    if (!ts_node_is_null(out))
        return out;
    for (size_t i = 0; m->ops && i < m->ops->n; i++) {
        const al_op_summary *op = &m->ops->items[i];
        if (!al_op_name_matches(op->name, q))
            continue;
        int pos = op->out_position >= 0 ? op->out_position
                  : op->out_keyword    ? al_op_param_position(op, op->out_keyword)
                                       : -1;
        if (op->out_keyword && !ts_node_is_null(out = al_py_kwarg(m->pf, &a, op->out_keyword)))
            return out;
        if (pos >= 0 && pos < a.npos)
            return a.pos[pos];
    }
    return (TSNode){0};
}

/* `inplace=True` (anything but a literal False): the call returns its
 * input. */
bool al_call_asked_in_place(const al_pyfile *pf, TSNode call)
{
    al_py_args a;
    al_py_args_read(call, &a);
    TSNode v = al_py_kwarg(pf, &a, "inplace");
    return !ts_node_is_null(v) && !al_node_text_eq(pf, v, "False");
}

/* The argument a call hands to parameter `param` of d (bound: the
 * call passes the receiver, d's first parameter, itself), or null. */
TSNode al_call_argument_for(const al_pymodule *m, TSNode call, const al_def *d, bool bound,
                           const char *param)
{
    al_py_args a;
    al_py_args_read(call, &a);
    if (a.splat)
        return (TSNode){0};
    TSNode kw = al_py_kwarg(m->pf, &a, param);
    if (!ts_node_is_null(kw))
        return kw;
    al_strlist names = {0};
    al_py_param_names(d->pf, d->def, &names);
    int pos = -1;
    for (size_t i = 0, k = 0; i < names.n; i++) {
        if (!strcmp(names.items[i], "*") || !strcmp(names.items[i], "**"))
            break;
        if (bound && i == 0)
            continue;
        if (!strcmp(names.items[i], param)) {
            pos = (int)k;
            break;
        }
        k++;
    }
    al_strlist_free(&names);
    return pos >= 0 && pos < a.npos ? a.pos[pos] : (TSNode){0};
}

/* The default value of parameter `param` of def, or null. */
static TSNode param_default(const al_pyfile *pf, TSNode def, const char *param)
{
    TSNode params = al_node_field(def, "parameters");
    uint32_t k = ts_node_named_child_count(params);
    for (uint32_t i = 0; i < k; i++) {
        TSNode p = ts_node_named_child(params, i);
        if ((al_node_is(p, "default_parameter") || al_node_is(p, "typed_default_parameter")) &&
            al_node_text_eq(pf, al_node_field(p, "name"), param))
            return al_node_field(p, "value");
    }
    return (TSNode){0};
}

bool al_call_leaves_none(const al_pymodule *m, TSNode call, const al_def *d, bool bound,
                         const char *param)
{
    al_py_args a;
    al_py_args_read(call, &a);
    if (a.splat || !ts_node_is_null(al_call_argument_for(m, call, d, bound, param)))
        return false;
    TSNode v = param_default(d->pf, d->def, param);
    return !ts_node_is_null(v) && al_node_is(v, "none");
}

/* Whether calling fn may give a tensor, by what alloclint can read of fn
 * alone: torch's own functions, and methods torch.Tensor has that return
 * one (an in-place method returns its receiver; `.split()` a tuple). */
bool al_call_tensor_evidence(const al_pymodule *m, TSNode fn)
{
    char *q = al_pymodule_resolve(m, fn);
    if (q) {
        bool torch = !strcmp(q, "torch") || !strncmp(q, "torch.", 6);
        free(q);
        return torch;
    }
    if (!al_node_is(fn, "attribute"))
        return false;
    size_t len;
    const char *meth = al_node_ptr(m->pf, al_node_field(fn, "attribute"), &len);
    return al_tensor_method(meth, len);
}

