#include "contract.h"

#include "../../base/util.h"

#include <stdio.h>
#include <string.h>

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

const char *al_contract_voided(const al_pyfile *pf, TSNode call, const al_op_summary *op,
                               char *buf, size_t len)
{
    if (!op->unless)
        return NULL;
    al_py_args a;
    al_py_args_read(call, &a);
    for (const char *p = op->unless; *p;) {
        size_t n = strcspn(p, ",");
        snprintf(buf, len, "%.*s", (int)n, p);
        p += n + (p[n] == ',');
        TSNode v = al_contract_argument(pf, call, op, buf);
        /* `**kwargs` or `*args` may pass it unseen. */
        if (ts_node_is_null(v) ? a.splat
                               : !al_node_text_eq(pf, v, "None") && !al_node_text_eq(pf, v, "False"))
            return buf;
    }
    return NULL;
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
