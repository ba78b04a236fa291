#include "cfg.h"

#include "../../base/util.h"
#include "pyast.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    int *ids;
    size_t n, cap;
} idlist;

typedef struct loop_ctx {
    int head;
    idlist breaks;
    struct loop_ctx *outer;
} loop_ctx;

typedef struct {
    al_cfg *cfg;
    loop_ctx *loop;
} builder;

static void idlist_add(idlist *l, int id)
{
    for (size_t i = 0; i < l->n; i++)
        if (l->ids[i] == id)
            return;
    AL_PUSH(l->ids, l->n, l->cap, id);
}

static void idlist_merge(idlist *into, const idlist *from)
{
    for (size_t i = 0; i < from->n; i++)
        idlist_add(into, from->ids[i]);
}

static void idlist_free(idlist *l)
{
    free(l->ids);
    memset(l, 0, sizeof *l);
}

static int new_node(al_cfg *cfg, al_cfg_kind kind, TSNode eval, TSNode ast)
{
    al_cfg_node node;
    memset(&node, 0, sizeof node);
    node.kind = kind;
    node.eval = eval;
    node.ast = ast;
    AL_PUSH(cfg->nodes, cfg->n, cfg->cap, node);
    return (int)cfg->n - 1;
}

static void add_edge(al_cfg *cfg, int from, int to)
{
    al_cfg_node *f = &cfg->nodes[from];
    for (size_t i = 0; i < f->n_succ; i++)
        if (f->succ[i] == to)
            return;
    AL_PUSH(f->succ, f->n_succ, f->cap_succ, to);
}

static void link_all(al_cfg *cfg, const idlist *from, int to)
{
    for (size_t i = 0; i < from->n; i++)
        add_edge(cfg, from->ids[i], to);
}

/* Appends a node after the frontier and makes it the new frontier. */
static int step(builder *b, idlist *frontier, al_cfg_kind kind, TSNode eval,
                TSNode ast)
{
    int id = new_node(b->cfg, kind, eval, ast);
    link_all(b->cfg, frontier, id);
    frontier->n = 0;
    idlist_add(frontier, id);
    return id;
}

static void build_block(builder *b, TSNode block, idlist *frontier);

static void build_body_from(builder *b, TSNode block, int from, idlist *out)
{
    out->n = 0;
    idlist_add(out, from);
    build_block(b, block, out);
}

static bool is_constant_true(TSNode cond)
{
    return al_node_is(cond, "true");
}

static void build_loop_body(builder *b, TSNode body, int head, idlist *breaks)
{
    loop_ctx ctx = {.head = head, .breaks = {0}, .outer = b->loop};
    b->loop = &ctx;
    idlist ends = {0};
    build_body_from(b, body, head, &ends);
    link_all(b->cfg, &ends, head);
    idlist_free(&ends);
    b->loop = ctx.outer;
    idlist_merge(breaks, &ctx.breaks);
    idlist_free(&ctx.breaks);
}

static void build_stmt(builder *b, TSNode stmt, idlist *frontier)
{
    al_cfg *cfg = b->cfg;
    const char *type = ts_node_type(stmt);
    TSNode null_node = {0};

    if (!ts_node_is_named(stmt) || strcmp(type, "comment") == 0)
        return;

    if (strcmp(type, "if_statement") == 0) {
        idlist ends = {0};
        int cond = step(b, frontier, AL_CFG_COND, al_node_field(stmt, "condition"),
                        stmt);
        idlist branch = {0};
        build_body_from(b, al_node_field(stmt, "consequence"), cond, &branch);
        idlist_merge(&ends, &branch);
        int last_cond = cond;
        bool has_else = false;
        size_t nalts = al_node_field_children(stmt, "alternative", NULL, 0);
        TSNode *alts = al_xcalloc(nalts ? nalts : 1, sizeof(TSNode));
        al_node_field_children(stmt, "alternative", alts, nalts);
        for (size_t i = 0; i < nalts; i++) {
            TSNode alt = alts[i];
            if (al_node_is(alt, "elif_clause")) {
                int c = new_node(cfg, AL_CFG_COND, al_node_field(alt, "condition"),
                                 alt);
                add_edge(cfg, last_cond, c);
                last_cond = c;
                build_body_from(b, al_node_field(alt, "consequence"), c, &branch);
                idlist_merge(&ends, &branch);
            } else if (al_node_is(alt, "else_clause")) {
                has_else = true;
                build_body_from(b, al_node_field(alt, "body"), last_cond, &branch);
                idlist_merge(&ends, &branch);
            }
        }
        free(alts);
        if (!has_else)
            idlist_add(&ends, last_cond);
        idlist_free(&branch);
        frontier->n = 0;
        idlist_merge(frontier, &ends);
        idlist_free(&ends);
        return;
    }

    if (strcmp(type, "while_statement") == 0) {
        TSNode cond_expr = al_node_field(stmt, "condition");
        int cond = step(b, frontier, AL_CFG_COND, cond_expr, stmt);
        idlist breaks = {0};
        build_loop_body(b, al_node_field(stmt, "body"), cond, &breaks);
        frontier->n = 0;
        TSNode alt = al_node_field(stmt, "alternative");
        if (!is_constant_true(cond_expr)) {
            if (!ts_node_is_null(alt)) {
                idlist e = {0};
                build_body_from(b, al_node_field(alt, "body"), cond, &e);
                idlist_merge(frontier, &e);
                idlist_free(&e);
            } else {
                idlist_add(frontier, cond);
            }
        }
        idlist_merge(frontier, &breaks);
        idlist_free(&breaks);
        return;
    }

    if (strcmp(type, "for_statement") == 0) {
        step(b, frontier, AL_CFG_COND, al_node_field(stmt, "right"), stmt);
        int head = step(b, frontier, AL_CFG_FOR_TARGET, al_node_field(stmt, "left"),
                        stmt);
        idlist breaks = {0};
        build_loop_body(b, al_node_field(stmt, "body"), head, &breaks);
        frontier->n = 0;
        TSNode alt = al_node_field(stmt, "alternative");
        if (!ts_node_is_null(alt)) {
            idlist e = {0};
            build_body_from(b, al_node_field(alt, "body"), head, &e);
            idlist_merge(frontier, &e);
            idlist_free(&e);
        } else {
            idlist_add(frontier, head);
        }
        idlist_merge(frontier, &breaks);
        idlist_free(&breaks);
        return;
    }

    if (strcmp(type, "try_statement") == 0) {
        int start = step(b, frontier, AL_CFG_JOIN, null_node, stmt);
        size_t body_first = cfg->n;
        idlist body_end = {0};
        build_body_from(b, al_node_field(stmt, "body"), start, &body_end);
        size_t body_last = cfg->n;
        idlist ends = {0};
        idlist handler_ends = {0};
        TSNode else_clause = {0}, finally_clause = {0};
        uint32_t k = ts_node_named_child_count(stmt);
        for (uint32_t i = 0; i < k; i++) {
            TSNode c = ts_node_named_child(stmt, i);
            if (al_node_is(c, "except_clause") || al_node_is(c, "except_group_clause")) {
                /* An exception can leave the try body after any prefix of
                 * its statements has run. */
                int h = new_node(cfg, AL_CFG_EXCEPT, c, c);
                add_edge(cfg, start, h);
                for (size_t id = body_first; id < body_last; id++)
                    add_edge(cfg, (int)id, h);
                TSNode block = {0};
                uint32_t kk = ts_node_named_child_count(c);
                for (uint32_t j = 0; j < kk; j++)
                    if (al_node_is(ts_node_named_child(c, j), "block"))
                        block = ts_node_named_child(c, j);
                idlist e = {0};
                if (!ts_node_is_null(block))
                    build_body_from(b, block, h, &e);
                else
                    idlist_add(&e, h);
                idlist_merge(&handler_ends, &e);
                idlist_free(&e);
            } else if (al_node_is(c, "else_clause")) {
                else_clause = c;
            } else if (al_node_is(c, "finally_clause")) {
                finally_clause = c;
            }
        }
        if (!ts_node_is_null(else_clause)) {
            idlist e = {0};
            e.n = 0;
            idlist_merge(&e, &body_end);
            build_block(b, al_node_field(else_clause, "body"), &e);
            idlist_merge(&ends, &e);
            idlist_free(&e);
        } else {
            idlist_merge(&ends, &body_end);
        }
        idlist_merge(&ends, &handler_ends);
        if (!ts_node_is_null(finally_clause)) {
            TSNode block = {0};
            uint32_t kk = ts_node_named_child_count(finally_clause);
            for (uint32_t j = 0; j < kk; j++)
                if (al_node_is(ts_node_named_child(finally_clause, j), "block"))
                    block = ts_node_named_child(finally_clause, j);
            /* The finally body twice: after normal completion it falls
             * through; after an exception anywhere in the try (or its
             * handlers) it runs and the exception propagates. */
            size_t handlers_last = cfg->n;
            int fin = new_node(cfg, AL_CFG_JOIN, null_node, finally_clause);
            link_all(cfg, &ends, fin);
            idlist e = {0};
            if (!ts_node_is_null(block))
                build_body_from(b, block, fin, &e);
            else
                idlist_add(&e, fin);
            int fin_exc = new_node(cfg, AL_CFG_JOIN, null_node, finally_clause);
            add_edge(cfg, start, fin_exc);
            for (size_t id = body_first; id < handlers_last; id++)
                add_edge(cfg, (int)id, fin_exc);
            idlist x = {0};
            if (!ts_node_is_null(block))
                build_body_from(b, block, fin_exc, &x);
            else
                idlist_add(&x, fin_exc);
            link_all(cfg, &x, cfg->exit);
            idlist_free(&x);
            ends.n = 0;
            idlist_merge(&ends, &e);
            idlist_free(&e);
        }
        frontier->n = 0;
        idlist_merge(frontier, &ends);
        idlist_free(&ends);
        idlist_free(&handler_ends);
        idlist_free(&body_end);
        return;
    }

    if (strcmp(type, "with_statement") == 0) {
        uint32_t k = ts_node_named_child_count(stmt);
        for (uint32_t i = 0; i < k; i++) {
            TSNode c = ts_node_named_child(stmt, i);
            if (!al_node_is(c, "with_clause"))
                continue;
            uint32_t kk = ts_node_named_child_count(c);
            for (uint32_t j = 0; j < kk; j++) {
                TSNode item = ts_node_named_child(c, j);
                if (al_node_is(item, "with_item"))
                    step(b, frontier, AL_CFG_COND, item, stmt);
            }
        }
        build_block(b, al_node_field(stmt, "body"), frontier);
        return;
    }

    if (strcmp(type, "match_statement") == 0) {
        int subject = step(b, frontier, AL_CFG_COND, al_node_field(stmt, "subject"),
                           stmt);
        idlist ends = {0};
        idlist_add(&ends, subject);
        TSNode body = al_node_field(stmt, "body");
        uint32_t k = ts_node_named_child_count(body);
        int prev = subject;
        for (uint32_t i = 0; i < k; i++) {
            TSNode cc = ts_node_named_child(body, i);
            if (!al_node_is(cc, "case_clause"))
                continue;
            /* The pattern and guard: names there are read or bound. */
            int c = new_node(cfg, AL_CFG_COND, cc, cc);
            add_edge(cfg, prev, c);
            prev = c;
            idlist e = {0};
            build_body_from(b, al_node_field(cc, "consequence"), c, &e);
            idlist_merge(&ends, &e);
            idlist_free(&e);
        }
        idlist_add(&ends, prev);
        frontier->n = 0;
        idlist_merge(frontier, &ends);
        idlist_free(&ends);
        return;
    }

    if (strcmp(type, "function_definition") == 0 ||
        strcmp(type, "class_definition") == 0 ||
        strcmp(type, "decorated_definition") == 0) {
        step(b, frontier, AL_CFG_DEF, stmt, stmt);
        return;
    }

    if (strcmp(type, "block") == 0) {
        build_block(b, stmt, frontier);
        return;
    }

    int id = step(b, frontier, AL_CFG_SIMPLE, stmt, stmt);
    if (strcmp(type, "return_statement") == 0 || strcmp(type, "raise_statement") == 0) {
        add_edge(cfg, id, cfg->exit);
        frontier->n = 0;
    } else if (strcmp(type, "break_statement") == 0) {
        if (b->loop)
            idlist_add(&b->loop->breaks, id);
        frontier->n = 0;
    } else if (strcmp(type, "continue_statement") == 0) {
        if (b->loop)
            add_edge(cfg, id, b->loop->head);
        frontier->n = 0;
    }
}

static void build_block(builder *b, TSNode block, idlist *frontier)
{
    if (ts_node_is_null(block))
        return;
    uint32_t k = ts_node_named_child_count(block);
    for (uint32_t i = 0; i < k; i++)
        build_stmt(b, ts_node_named_child(block, i), frontier);
}

void al_cfg_build(al_cfg *cfg, TSNode body)
{
    memset(cfg, 0, sizeof *cfg);
    TSNode null_node = {0};
    cfg->entry = new_node(cfg, AL_CFG_ENTRY, null_node, null_node);
    cfg->exit = new_node(cfg, AL_CFG_EXIT, null_node, null_node);
    builder b = {.cfg = cfg, .loop = NULL};
    idlist frontier = {0};
    idlist_add(&frontier, cfg->entry);
    build_block(&b, body, &frontier);
    link_all(cfg, &frontier, cfg->exit);
    idlist_free(&frontier);
}

void al_cfg_free(al_cfg *cfg)
{
    for (size_t i = 0; i < cfg->n; i++)
        free(cfg->nodes[i].succ);
    free(cfg->nodes);
    memset(cfg, 0, sizeof *cfg);
}
