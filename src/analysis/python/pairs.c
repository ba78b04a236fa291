#include "pairs.h"

#include "../core/summary.h"
#include "../../front/python/syntax.h"
#include "../../base/util.h"

#include <stdlib.h>
#include <string.h>

/* The statement a launch is: `K[grid](...)`, alone in its statement. */
static TSNode launch_statement(TSNode call)
{
    TSNode st = ts_node_parent(call);
    while (al_node_is(st, "parenthesized_expression"))
        st = ts_node_parent(st);
    return al_node_is(st, "expression_statement") ? st : (TSNode){0};
}

/* Calls that read sizes or make a new tensor, and nothing else. */
static const char *const SIZE_CALLS[] = {"next_power_of_2", "cdiv", "len", "max", "min", "int",
                                         "stride", "size", "numel", "dim", NULL};
static const char *const FACTORIES[] = {"empty", "zeros", "ones", "full", "empty_like",
                                        "zeros_like", "ones_like", "full_like", NULL};

typedef struct {
    const al_pyfile *pf;
    bool ok;
} calls_ctx;

static al_visit harmless_call(TSNode n, void *arg)
{
    calls_ctx *c = arg;
    if (al_node_is(n, "lambda") || al_node_is(n, "await") || al_node_is(n, "yield") ||
        al_node_is(n, "named_expression")) {
        c->ok = false;
        return AL_VISIT_STOP;
    }
    if (!al_node_is(n, "call"))
        return AL_VISIT_INTO;
    TSNode fn = al_node_field(n, "function");
    size_t len;
    const char *name;
    if (al_node_is(fn, "identifier")) {
        name = al_node_ptr(c->pf, fn, &len);
        c->ok = al_str_in_list(SIZE_CALLS, name, len);
    } else if (al_node_is(fn, "attribute")) {
        name = al_node_ptr(c->pf, al_node_field(fn, "attribute"), &len);
        TSNode obj = al_node_field(fn, "object");
        c->ok = al_str_in_list(SIZE_CALLS, name, len) ||
                (al_str_in_list(FACTORIES, name, len) && al_node_text_eq(c->pf, obj, "torch"));
    } else {
        c->ok = false;
    }
    return c->ok ? AL_VISIT_INTO : AL_VISIT_STOP;
}

static bool binds_mentioned(const al_pyfile *pf, TSNode target, const char *region)
{
    if (al_node_is(target, "identifier")) {
        size_t len;
        const char *p = al_node_ptr(pf, target, &len);
        return al_region_mentions(region, p, len);
    }
    if (al_node_is(target, "pattern_list") || al_node_is(target, "tuple_pattern") ||
        al_node_is(target, "list_pattern")) {
        uint32_t m = ts_node_named_child_count(target);
        for (uint32_t i = 0; i < m; i++)
            if (binds_mentioned(pf, ts_node_named_child(target, i), region))
                return true;
        return false;
    }
    return true; /* `x[i] = ...`, `obj.a = ...`: may write what the region reads */
}

static bool harmless(const al_pyfile *pf, TSNode st, const char *region)
{
    if (al_node_is(st, "comment") || al_node_is(st, "pass_statement"))
        return true;
    if (!al_node_is(st, "expression_statement") || ts_node_named_child_count(st) != 1)
        return false;
    TSNode asg = ts_node_named_child(st, 0);
    if (!al_node_is(asg, "assignment"))
        return false;
    for (; al_node_is(asg, "assignment"); asg = al_node_field(asg, "right"))
        if (binds_mentioned(pf, al_node_field(asg, "left"), region))
            return false;
    calls_ctx c = {pf, true};
    if (!ts_node_is_null(asg))
        al_node_preorder(asg, harmless_call, &c);
    return c.ok;
}

bool al_launches_adjacent(const al_pyfile *pf, TSNode first, TSNode second, const char *region,
                          const char **why, size_t *row)
{
    *row = 0;
    TSNode a = launch_statement(first), b = launch_statement(second);
    if (ts_node_is_null(a) || ts_node_is_null(b) ||
        !ts_node_eq(ts_node_parent(a), ts_node_parent(b)) ||
        ts_node_start_byte(a) >= ts_node_start_byte(b)) {
        *why = "the two launches are not statements of one block, one after the other";
        return false;
    }
    for (TSNode s = ts_node_next_named_sibling(a); !ts_node_is_null(s) && !ts_node_eq(s, b);
         s = ts_node_next_named_sibling(s))
        if (!harmless(pf, s, region)) {
            *why = "a statement between the launches may change what they read";
            *row = al_node_row(s);
            return false;
        }
    return true;
}

/* The extents a region's index variables run over (`@{E}@`), each once:
 * "0 <= i < E" for the reader. */
static char *index_ranges(const char *region)
{
    al_strbuf sb = {0};
    al_strbuf_puts(&sb, "");
    for (const char *p = strstr(region, "@{"); p; p = strstr(p, "@{")) {
        const char *e = strstr(p + 2, "}@");
        if (!e)
            break;
        al_strbuf item = {0};
        al_strbuf_printf(&item, "`%.*s`", (int)(e - p - 2), p + 2);
        if (!strstr(sb.data, item.data))
            al_strbuf_printf(&sb, "%s%s", sb.len ? ", " : "", item.data);
        al_strbuf_free(&item);
        p = e + 2;
    }
    return al_strbuf_detach(&sb);
}

int al_pairs_store(al_launch_pairs *p, const al_use *e)
{
    for (size_t i = 0; i < p->n; i++)
        if (ts_node_eq(p->items[i].at, e->at))
            return (int)i + 1;
    struct al_stored_launch s = {e->at, al_xstrdup(e->stored),
                                 al_xstrdup(e->evidence ? e->evidence : "a launch"),
                                 e->why ? al_xstrdup(e->why) : NULL, e->row, {0}};
    al_chain_append(&s.chain, &e->chain);
    AL_PUSH(p->items, p->n, p->cap, s);
    return (int)p->n;
}

const struct al_stored_launch *al_pairs_stored(const al_launch_pairs *p, int stored)
{
    if (stored == 0 || !p->n)
        return NULL;
    return &p->items[stored > 0 && (size_t)stored <= p->n ? stored - 1 : 0];
}

bool al_pairs_read(al_launch_pairs *p, const al_pyfile *pf, int stored, const al_use *e)
{
    if (stored <= 0 || (size_t)stored > p->n)
        return false;
    const struct al_stored_launch *s = &p->items[stored - 1];
    const char *why = NULL;
    size_t row = 0;
    if (!al_region_reads_within(e->stored, s->region, &why) ||
        !al_launches_adjacent(pf, s->at, e->at, s->region, &why, &row)) {
        if (!p->miss) {
            al_strbuf sb = {0};
            al_strbuf_printf(&sb, "%s on line %zu was not shown to load only what %s stores: %s",
                             e->evidence ? e->evidence : "a launch", e->row, s->callee, why);
            if (row)
                al_strbuf_printf(&sb, " (line %zu)", row);
            p->miss = al_strbuf_detach(&sb);
        }
        return false;
    }
    if (!p->paired) {
        p->paired = stored;
        p->by = al_xstrdup(e->evidence ? e->evidence : "a launch");
        p->row = e->row;
        al_strbuf sb = {0};
        al_strbuf_printf(&sb, "%s stores on line %zu", s->callee, s->row);
        p->why = al_strbuf_detach(&sb);
        /* The storing kernel's own summary says its elements left keep
         * the fill; here they are shown never read, so its steps are
         * the call and the store. */
        for (size_t i = 0; i < s->chain.n; i++) {
            const al_link *l = &s->chain.items[i];
            if (i == 0)
                al_chain_add(&p->chain, l->path, l->row, "%s", l->text);
            else if (i + 1 == s->chain.n)
                al_chain_add(&p->chain, l->path, l->row,
                             "%s stores it here, where the conditions around the store hold",
                             s->callee);
        }
        al_chain_append(&p->chain, &e->chain);
        char *canonical = al_region_canonical(s->region);
        char *ranges = index_ranges(canonical);
        free(canonical);
        al_chain_add(&p->chain, NULL, e->row,
                     "%s loads it only at the addresses, under the mask and the conditions of "
                     "the store of %s, over programs and loop steps of the same ranges (%s)",
                     p->by, s->callee, ranges);
        free(ranges);
    }
    return true;
}

char *al_pairs_block_why(const al_launch_pairs *p, const struct al_stored_launch *l)
{
    if (!l->why && !p->miss)
        return NULL;
    al_strbuf sb = {0};
    al_strbuf_printf(&sb, "%s%s%s", l->why ? l->why : "", l->why && p->miss ? "; " : "",
                     p->miss ? p->miss : "");
    return al_strbuf_detach(&sb);
}

void al_pairs_take(al_launch_pairs *p, char **by, size_t *row, char **why, al_chain *chain)
{
    free(*by);
    free(*why);
    al_chain_free(chain);
    *by = p->by;
    *row = p->row;
    *why = p->why;
    *chain = p->chain;
    p->by = p->why = NULL;
    memset(&p->chain, 0, sizeof p->chain);
}

void al_pairs_free(al_launch_pairs *p)
{
    for (size_t i = 0; i < p->n; i++) {
        free(p->items[i].region);
        free(p->items[i].callee);
        free(p->items[i].why);
        al_chain_free(&p->items[i].chain);
    }
    free(p->items);
    free(p->by);
    free(p->why);
    free(p->miss);
    al_chain_free(&p->chain);
    memset(p, 0, sizeof *p);
}
