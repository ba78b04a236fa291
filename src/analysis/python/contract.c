#include "contract.h"
#include "module.h"

#include "../../base/util.h"

#include <stdio.h>
#include <stdlib.h>
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

char *al_contract_method_name(const al_file_env *env, TSNode call)
{
    TSNode fn = al_node_field(call, "function");
    TSNode obj = al_node_is(fn, "attribute") ? al_node_field(fn, "object") : (TSNode){0};
    if (!al_node_is(obj, "attribute") || !al_node_text_eq(env->pf, al_node_field(obj, "object"), "self"))
        return NULL;
    const al_pyfile *pf;
    const struct al_pymodule *mod;
    TSNode type;
    if (!al_attribute_declared_type(env, call, al_node_field(obj, "attribute"), &pf, &mod, &type))
        return NULL;
    char *q = al_imports_resolve(&mod->imports, pf, type);
    if (!q)
        return NULL;
    al_strbuf sb = {0};
    char *method = al_node_text(env->pf, al_node_field(fn, "attribute"));
    al_strbuf_printf(&sb, "%s.%s", q, method);
    free(method);
    free(q);
    if (!al_ops_find(env->ops, sb.data)) {
        al_strbuf_free(&sb); /* no contract: the call stays unknown */
        return NULL;
    }
    return al_strbuf_detach(&sb);
}

void al_contract_method_note(const al_file_env *env, TSNode call, al_chain *chain)
{
    TSNode obj = al_node_field(al_node_field(call, "function"), "object");
    const al_pyfile *pf;
    const struct al_pymodule *mod;
    TSNode type;
    if (!al_attribute_declared_type(env, call, al_node_field(obj, "attribute"), &pf, &mod, &type))
        return;
    char *q = al_imports_resolve(&mod->imports, pf, type);
    char *shown = al_node_text_compact(env->pf, obj);
    al_chain_add(chain, env->path, al_node_row(call),
                 "`%s` is taken for a `%s`, as its class declares or stores it (line %zu); a "
                 "subclass or another file may store something else there",
                 shown, q ? q : "?", al_node_row(type));
    free(shown);
    free(q);
}
