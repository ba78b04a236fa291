#include "contract.h"
#include "../../base/util.h"

#include <stdio.h>

TSNode al_contract_argument(const al_pyfile *pf, TSNode call, const al_op_summary *op,
                            const char *param)
{
    al_py_args a;
    al_py_args_read(call, &a);
    TSNode kw = al_py_kwarg(pf, &a, param);
    if (!ts_node_is_null(kw))
        return kw;
    int pos = al_op_param_position(op, param);
    return pos >= 0 && pos < a.npos ? a.pos[pos] : (TSNode){0};
}

char *al_contract_why(const al_op_summary *op, const char *name)
{
    const char *origin = op->origin ? op->origin : "its op summary";
    al_strbuf sb = {0};
    if (op->writes == AL_OP_WRITES_ROWS) {
        char pos[32], elem[32] = "";
        snprintf(pos, sizeof pos, "argument %d", op->out_position);
        if (op->out_element >= 0)
            snprintf(elem, sizeof elem, "element %d of ", op->out_element);
        al_strbuf_printf(&sb, "assumes `%s` writes every row of %s`%s` for the rows of `%s` (%s)",
                         name, elem, op->out_keyword ? op->out_keyword : pos, op->rows_param,
                         origin);
    } else if (op->library && op->full_write) {
        al_strbuf_printf(&sb, "`%s` is a library outside the project: its summary says it "
                              "writes the whole output, which alloclint cannot check",
                         name);
    } else {
        al_strbuf_printf(&sb, "`%s` writes this argument (%s), but not necessarily every "
                              "element of it",
                         name, origin);
    }
    return al_strbuf_detach(&sb);
}
