#include "guards.h"

#include "rebinding.h"
#include "../../front/python/syntax.h"

#include <stdlib.h>
#include <string.h>

int al_guard_known(const al_pyfile *pf, TSNode func, const al_cfg_node *node,
                   const al_alloc_site *site, bool (*holds)(void *ctx, const char *name, size_t len),
                   void *ctx)
{
    if (node->kind != AL_CFG_COND || ts_node_is_null(node->ast) ||
        !(al_node_is(node->ast, "if_statement") || al_node_is(node->ast, "elif_clause")) ||
        node->n_succ < 2)
        return -1;
    TSNode c = al_py_unparen(node->eval);
    bool negate = false;
    while (al_node_is(c, "not_operator")) {
        negate = !negate;
        c = al_py_unparen(al_node_field(c, "argument"));
    }
    int value = -1;
    if (al_node_is(c, "comparison_operator") && ts_node_named_child_count(c) == 2) {
        TSNode l = ts_node_named_child(c, 0), r = ts_node_named_child(c, 1);
        char *op = al_node_text_compact(pf, c);
        bool is_not = strstr(op, "isnotNone") || strstr(op, "Noneisnot");
        bool is = !is_not && (strstr(op, "isNone") || strstr(op, "Noneis"));
        free(op);
        TSNode name = al_node_is(l, "none") ? r : l;
        if ((is || is_not) && al_node_is(name, "identifier")) {
            size_t len;
            const char *p = al_node_ptr(pf, name, &len);
            if (holds(ctx, p, len))
                value = is_not ? 1 : 0;
        }
    } else if (site && !ts_node_is_null(site->guard) && al_node_is(c, "identifier") &&
               al_py_same_text(pf, c, site->guard) &&
               ts_node_is_null(al_rebound_after(pf, func, site->stmt, site->guard))) {
        value = site->guard_true ? 1 : 0;
    }
    if (value < 0)
        return -1;
    return negate ? !value : value;
}
