#include "pad.h"

#include "alloc.h"
#include "../../base/util.h"

#include <stdlib.h>
#include <string.h>

/* `[0]` or `(0,)`: one zero literal. */
static bool one_zero_list(const al_pyfile *pf, TSNode n)
{
    TSNode e[1];
    return al_py_elements(n, e, 1) == 1 && al_py_is_zero_literal(pf, e[0]);
}

bool al_zero_block_read(const al_pymodule *m, TSNode item, TSNode other, al_zero_block *out)
{
    const al_pyfile *pf = m->pf;
    memset(out, 0, sizeof *out);
    out->rank = -1;
    TSNode z = al_py_unparen(item);
    if (!al_node_is(z, "call"))
        return false;
    TSNode fn = al_node_field(z, "function");
    /* torch.zeros(...).to(x) */
    if (al_node_is(fn, "attribute") && al_py_last_name_is(pf, fn, "to")) {
        al_py_args ta;
        al_py_args_read(z, &ta);
        TSNode obj = al_py_unparen(al_node_field(fn, "object"));
        if (ta.npos != 1 || ta.nkw != 0 || ta.splat || !al_node_is(obj, "call"))
            return false;
        out->to_other = !ts_node_is_null(other) && al_py_same_text(pf, ta.pos[0], other);
        z = obj;
        fn = al_node_field(z, "function");
    }
    al_py_args_read(z, &out->args);
    if (out->args.splat)
        return false;
    /* `requires_grad=True`: a leaf autograd tracks, not just zeros. */
    TSNode grad = al_py_kwarg(pf, &out->args, "requires_grad");
    if (!ts_node_is_null(grad) && !al_node_text_eq(pf, grad, "False"))
        return false;
    const char *f = al_torch_factory(pf, &m->imports, z, NULL);
    bool method = al_node_is(fn, "attribute") && !f;
    bool zeros = (f && !strcmp(f, "zeros")) || (method && al_py_last_name_is(pf, fn, "new_zeros"));
    bool literal = ((f && !strcmp(f, "tensor")) ||
                    (method && al_py_last_name_is(pf, fn, "new_tensor"))) &&
                   out->args.npos == 1 && one_zero_list(pf, out->args.pos[0]);
    if (!zeros && !literal)
        return false;
    out->call = z;
    out->literal = literal;
    out->dtype = al_py_kwarg(pf, &out->args, "dtype");
    out->device = al_py_kwarg(pf, &out->args, "device");
    out->like_other = method && !ts_node_is_null(other) &&
                      al_py_same_text(pf, al_node_field(fn, "object"), other);
    if (literal)
        out->rank = 1;
    else
        free(al_py_size_tuple(pf, &out->args, &out->rank));
    return true;
}

TSNode al_zero_block_extent(const al_zero_block *z, int dim, bool *one)
{
    *one = false;
    if (z->rank < 0 || dim < 0 || dim >= z->rank)
        return (TSNode){0};
    if (z->literal) {
        *one = true;
        return (TSNode){0};
    }
    return al_py_shape_elem(&z->args, dim);
}

bool al_pad_width_one_before(const al_pyfile *pf, TSNode n)
{
    TSNode e[2];
    long v[2];
    return al_py_elements(n, e, 2) == 2 && al_py_parse_long(pf, e[0], &v[0]) &&
           al_py_parse_long(pf, e[1], &v[1]) && v[0] == 1 && v[1] == 0;
}

bool al_pad_one_before(const al_pymodule *m, TSNode call, TSNode *rest)
{
    const al_pyfile *pf = m->pf;
    if (!al_node_is(call, "call") ||
        !al_pymodule_resolves_to(m, al_node_field(call, "function"), "torch.nn.functional.pad"))
        return false;
    al_py_args a;
    al_py_args_read(call, &a);
    if (a.splat || a.npos > 4)
        return false;
    TSNode input = a.npos > 0 ? a.pos[0] : al_py_kwarg(pf, &a, "input");
    TSNode pad = a.npos > 1 ? a.pos[1] : al_py_kwarg(pf, &a, "pad");
    TSNode mode = a.npos > 2 ? a.pos[2] : al_py_kwarg(pf, &a, "mode");
    TSNode value = a.npos > 3 ? a.pos[3] : al_py_kwarg(pf, &a, "value");
    if (!al_py_kwargs_within(pf, &a, (const char *const[]){"input", "pad", "mode", "value", NULL}))
        return false;
    if (ts_node_is_null(input) || ts_node_is_null(pad) || !al_pad_width_one_before(pf, pad))
        return false;
    if (!ts_node_is_null(mode) && !al_node_text_eq(pf, mode, "\"constant\"") &&
        !al_node_text_eq(pf, mode, "'constant'"))
        return false;
    if (!ts_node_is_null(value) && !al_py_is_zero_literal(pf, value) &&
        !al_node_is(value, "none"))
        return false;
    *rest = input;
    return true;
}

/* The `dtype=` r spells, when r is a call that takes one. */
static TSNode spelled_dtype(const al_pyfile *pf, TSNode r)
{
    r = al_py_unparen(r);
    if (!al_node_is(r, "call"))
        return (TSNode){0};
    al_py_args a;
    al_py_args_read(r, &a);
    return al_py_kwarg(pf, &a, "dtype");
}

bool al_zero_head_value(const al_pymodule *m, TSNode v, TSNode *rest, bool *promotes)
{
    const al_pyfile *pf = m->pf;
    v = al_py_unparen(v);
    if (promotes)
        *promotes = false;
    if (al_pad_one_before(m, v, rest))
        return true;
    if (!al_pymodule_calls_torch_cat(m, v))
        return false;
    al_py_args a;
    al_py_args_read(v, &a);
    if (a.splat || a.npos < 1 || a.npos > 2)
        return false;
    TSNode dim = a.npos == 2 ? a.pos[1] : al_py_kwarg(pf, &a, "dim");
    if (!ts_node_is_null(dim) && !al_node_text_eq(pf, dim, "0"))
        return false;
    TSNode items[2];
    if (al_py_elements(a.pos[0], items, 2) != 2)
        return false;
    TSNode z = items[0], r = items[1];
    al_zero_block zb;
    bool one = false;
    if (!al_zero_block_read(m, z, r, &zb) || zb.rank != 1)
        return false;
    TSNode e = al_zero_block_extent(&zb, 0, &one);
    if (!one && !(!ts_node_is_null(e) && al_node_text_eq(pf, e, "1")))
        return false;
    *rest = r;
    if (promotes) {
        TSNode rd = spelled_dtype(pf, r);
        *promotes = !(zb.to_other || (zb.like_other && ts_node_is_null(zb.dtype)) ||
                      (!ts_node_is_null(zb.dtype) && !ts_node_is_null(rd) &&
                       al_py_same_text(pf, zb.dtype, rd)));
    }
    return true;
}
