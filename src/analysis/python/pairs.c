#include "pairs.h"

#include "call_args.h"
#include "values.h"
#include "../core/summary.h"
#include "../../front/python/syntax.h"
#include "../../base/util.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

/* The statement a launch is: `K[grid](...)` or `wrapper(...)`, alone in
 * its statement or returned. */
static TSNode launch_statement(TSNode call)
{
    TSNode st = ts_node_parent(call);
    while (al_node_is(st, "parenthesized_expression"))
        st = ts_node_parent(st);
    return al_node_is(st, "expression_statement") || al_node_is(st, "return_statement")
               ? st
               : (TSNode){0};
}

/* Calls that make a new tensor (with al_region_size_calls, those a
 * statement between two launches may make). */
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
        c->ok = al_str_in_list(al_region_size_calls, name, len);
    } else if (al_node_is(fn, "attribute")) {
        name = al_node_ptr(c->pf, al_node_field(fn, "attribute"), &len);
        TSNode obj = al_node_field(fn, "object");
        c->ok = al_str_in_list(al_region_size_calls, name, len) ||
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

static bool harmless_block(const al_pyfile *pf, TSNode block, const char *region);

static bool harmless(const al_pyfile *pf, TSNode st, const char *region)
{
    if (al_node_is(st, "comment") || al_node_is(st, "pass_statement"))
        return true;
    if (al_node_is(st, "if_statement")) {
        /* `if _is_hip: BLOCK = 8`: a choice between harmless statements. */
        calls_ctx c = {pf, true};
        al_node_preorder(al_node_field(st, "condition"), harmless_call, &c);
        if (!c.ok || !harmless_block(pf, al_node_field(st, "consequence"), region))
            return false;
        uint32_t m = ts_node_named_child_count(st);
        for (uint32_t i = 0; i < m; i++) {
            TSNode alt = ts_node_named_child(st, i);
            if (al_node_is(alt, "elif_clause") || al_node_is(alt, "else_clause")) {
                TSNode cond = al_node_field(alt, "condition");
                if (!ts_node_is_null(cond))
                    al_node_preorder(cond, harmless_call, &c);
                if (!c.ok || !harmless_block(pf, al_node_field(alt, "body"), region))
                    return false;
            }
        }
        return true;
    }
    /* A docstring. */
    if (al_node_is(st, "expression_statement") && ts_node_named_child_count(st) == 1 &&
        al_node_is(ts_node_named_child(st, 0), "string"))
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

static bool harmless_block(const al_pyfile *pf, TSNode block, const char *region)
{
    if (ts_node_is_null(block))
        return false;
    uint32_t m = ts_node_named_child_count(block);
    for (uint32_t i = 0; i < m; i++)
        if (!harmless(pf, ts_node_named_child(block, i), region))
            return false;
    return true;
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

/* The distinct extents a region's index variables run over (`@{E}@`),
 * in the order they first appear, into out. */
static void index_ranges(const char *region, al_strlist *out)
{
    for (const char *p = strstr(region, "@{"); p; p = strstr(p, "@{")) {
        const char *e = strstr(p + 2, "}@");
        if (!e)
            break;
        if (!al_strlist_has(out, p + 2, (size_t)(e - p - 2)))
            al_strlist_add(out, al_xstrndup(p + 2, (size_t)(e - p - 2)));
        p = e + 2;
    }
}

/* Those extents for the reader: `x.shape[0]`, not the arity mark
 * `x.shape[0of2]` (x has two dimensions). */
static char *ranges_text(const char *region)
{
    char *canonical = al_region_canonical(region);
    al_strlist ranges = {0};
    index_ranges(canonical, &ranges);
    al_strbuf sb = {0};
    al_strbuf_puts(&sb, "");
    for (size_t i = 0; i < ranges.n; i++) {
        al_strbuf_printf(&sb, "%s`", i ? ", " : "");
        for (const char *q = ranges.items[i]; *q; q++) {
            if (q[0] == 'o' && q[1] == 'f' && q > ranges.items[i] && isdigit((unsigned char)q[-1]))
                for (q += 2; isdigit((unsigned char)*q);)
                    q++;
            if (!*q)
                break;
            al_strbuf_putc(&sb, *q);
        }
        al_strbuf_putc(&sb, '`');
    }
    al_strlist_free(&ranges);
    free(canonical);
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

bool al_pairs_read(al_launch_pairs *p, const al_file_env *env, int stored, const al_use *e)
{
    if (stored <= 0 || (size_t)stored > p->n)
        return false;
    const struct al_stored_launch *s = &p->items[stored - 1];
    const char *why = NULL;
    size_t row = 0;
    if (!al_region_reads_within(e->stored, s->region, &why) ||
        !al_launches_adjacent(env->pf, s->at, e->at, s->region, &why, &row)) {
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
                             "the store, which runs where the conditions around it hold");
        }
        al_chain_append(&p->chain, &e->chain);
        char *ranges = ranges_text(s->region);
        al_chain_add(&p->chain, env->path, e->row,
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

bool al_pairs_load(al_launch_pairs *p, const al_file_env *env, int stored, bool param,
                   const al_use *e)
{
    if (al_pairs_read(p, env, stored, e))
        return true;
    if (!param || stored != 0 || (p->loaded && !ts_node_eq(p->loaded_at, e->at)))
        return false;
    if (!p->loaded) {
        p->loaded = al_xstrdup(e->stored);
        p->loaded_at = e->at;
        p->loaded_row = e->row;
        al_chain_append(&p->loaded_chain, &e->chain);
    }
    return true;
}

/* Whether the function's body is the launch at `at` and statements that
 * cannot change what the region reads. */
static bool only_the_launch(const al_pyfile *pf, TSNode func, TSNode at, const char *region)
{
    TSNode st = launch_statement(at), body = al_node_field(func, "body");
    if (ts_node_is_null(st) || !ts_node_eq(ts_node_parent(st), body))
        return false;
    uint32_t m = ts_node_named_child_count(body);
    for (uint32_t i = 0; i < m; i++) {
        TSNode s = ts_node_named_child(body, i);
        /* A last `return` of what reads no tensor's elements. */
        if (i + 1 == m && al_node_is(s, "return_statement")) {
            calls_ctx c = {pf, true};
            al_node_preorder(s, harmless_call, &c);
            if (!c.ok)
                return false;
        } else if (!ts_node_eq(s, st) && !harmless(pf, s, region)) {
            return false;
        }
    }
    return true;
}

void al_pairs_export(const al_launch_pairs *p, const al_file_env *env, TSNode func,
                     bool returned, bool touched, al_call_effect *out)
{
    const char *why;
    const char *region = NULL;
    TSNode at = {0};
    if (returned) {
        /* What it returns is the buffer with the elements left: an alias
         * the caller would not follow. */
        out->effect = AL_EFFECT_ESCAPES;
        why = "returns it after a launch that leaves elements of it";
        al_chain_add(&out->chain, env->path, p->n ? p->items[0].row : p->loaded_row, "%s", why);
    } else if (p->loaded) {
        /* A load before any store reads the caller's values, whatever
         * pairs come after. */
        out->effect = AL_EFFECT_READS;
        why = "reads it before writing it";
        if (!p->n)
            region = p->loaded, at = p->loaded_at;
        al_chain_add(&out->chain, env->path, p->loaded_row, "%s", why);
        al_chain_append(&out->chain, &p->loaded_chain);
    } else if (p->paired) {
        out->effect = AL_EFFECT_UNREAD;
        why = "loads only the elements it stored first";
        al_chain_append(&out->chain, &p->chain);
    } else {
        out->effect = AL_EFFECT_SKIPS;
        why = "hands it to a callee that may skip elements";
        if (p->n == 1)
            region = p->items[0].region, at = p->items[0].at;
        al_chain_add(&out->chain, env->path, p->items[0].row, "%s", why);
        al_chain_append(&out->chain, &p->items[0].chain);
    }
    out->why = al_xstrdup(why);
    if (region && !touched && only_the_launch(env->pf, func, at, region)) {
        out->region = al_xstrdup(region);
        out->region_writes = out->effect == AL_EFFECT_SKIPS;
    }
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
    free(p->loaded);
    al_chain_free(&p->loaded_chain);
    al_chain_free(&p->chain);
    memset(p, 0, sizeof *p);
}

static char *region_value(const al_pyfile *pf, TSNode func, TSNode at, TSNode e, int depth)
{
    static const char *const rounding[] = {"next_power_of_2", "cdiv", "max", "min", "len", "int",
                                           NULL};
    e = al_py_unparen(e);
    TSNode v = al_node_is(e, "identifier") && depth < 4
                   ? al_py_unparen(al_value_single_binding(pf, func, at, e))
                   : e;
    TSNode fn = al_node_is(v, "call") ? al_node_field(v, "function") : (TSNode){0};
    TSNode last = al_node_is(fn, "attribute") ? al_node_field(fn, "attribute") : fn;
    size_t len = 0;
    const char *name = al_node_is(last, "identifier") && depth < 8 ? al_node_ptr(pf, last, &len)
                                                                    : NULL;
    if (name && al_str_in_list(rounding, name, len)) {
        e = v;
        /* `triton.next_power_of_2(head_dim)`: its arguments' values too. */
        al_py_args a;
        al_py_args_read(e, &a);
        char *f = al_node_text_compact(pf, fn);
        al_strbuf sb = {0};
        al_strbuf_printf(&sb, "%s(", f);
        free(f);
        for (int i = 0; i < a.nall; i++) {
            char *t = region_value(pf, func, at, a.all[i], depth + 1);
            al_strbuf_printf(&sb, "%s%s", i ? "," : "", t);
            free(t);
        }
        al_strbuf_putc(&sb, ')');
        return al_strbuf_detach(&sb);
    }
    char *t = al_value_text(pf, func, at, e);
    if (!al_region_stable_text(t) && al_node_is(e, "identifier")) {
        free(t);
        t = al_node_text(pf, e);
    }
    return t;
}

char *al_region_value(const al_pyfile *pf, TSNode func, TSNode at, TSNode e)
{
    return region_value(pf, func, at, e, 0);
}

/* How many distinct index ranges (`@{E}@`) a region has, compared
 * canonically. */
static size_t distinct_ranges(const char *region)
{
    char *c = al_region_canonical(region);
    al_strlist ranges = {0};
    index_ranges(c, &ranges);
    size_t n = ranges.n;
    al_strlist_free(&ranges);
    free(c);
    return n;
}

char *al_pairs_region_at_call(const al_file_env *caller, TSNode call, const al_pyfile *pf,
                              TSNode def, int param, const char *region)
{
    al_strlist params = {0};
    al_py_param_names(pf, def, &params);
    al_py_args a;
    al_py_args_read(call, &a);
    TSNode func = al_enclosing_function(call);
    bool ok = !a.splat && param >= 0 && param < (int)params.n;
    for (size_t i = 0; i < params.n && ok; i++)
        ok = params.items[i][0] != '*';
    TSNode *args = al_xcalloc(params.n ? params.n : 1, sizeof *args);
    al_def d = {.pf = pf, .def = def};
    for (size_t i = 0; i < params.n && ok; i++)
        args[i] = al_call_argument_for(caller->mod, call, &d, false, params.items[i]);
    ok = ok && al_node_is(args[param], "identifier");
    al_strbuf out = {0};
    al_strbuf_puts(&out, "");
    for (const char *p = region; *p && ok;) {
        if (isdigit((unsigned char)*p)) {
            while (isalnum((unsigned char)*p) || *p == '_' || *p == '.')
                al_strbuf_putc(&out, *p++);
            continue;
        }
        if (!isalpha((unsigned char)*p) && *p != '_') {
            al_strbuf_putc(&out, *p++);
            continue;
        }
        const char *s = p;
        while (isalnum((unsigned char)*p) || *p == '_')
            p++;
        size_t len = (size_t)(p - s);
        /* A line's tag (`A `, `M `, `G `), attributes, calls, `AR{`, `tl.`
         * and `triton.` stay as they are. */
        bool label = s == region || s[-1] == '\n' || s[-1] == '.' || *p == '(' || *p == '{' ||
                     (len == 2 && !memcmp(s, "tl", 2)) || (len == 6 && !memcmp(s, "triton", 6));
        if (label) {
            al_strbuf_append(&out, s, len);
            continue;
        }
        int k = -1;
        for (size_t i = 0; i < params.n; i++)
            if (strlen(params.items[i]) == len && !memcmp(params.items[i], s, len))
                k = (int)i;
        if (k < 0 || ts_node_is_null(args[k])) {
            ok = false;
            break;
        }
        char *t = k == param ? al_node_text(caller->pf, args[k])
                             : al_region_value(caller->pf, func, call, args[k]);
        ok = al_region_stable_text(t);
        bool plain = strspn(t, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.[]") ==
                     strlen(t);
        al_strbuf_printf(&out, plain ? "%s" : "(%s)", t);
        free(t);
    }
    ok = ok && distinct_ranges(out.data) == distinct_ranges(region);
    /* A tensor handed to a parameter the region does not read may be one
     * the function writes: it must not be one the region reads. */
    for (size_t i = 0; i < params.n && ok; i++) {
        if ((int)i == param || ts_node_is_null(args[i]) || !al_node_is(args[i], "identifier") ||
            al_region_mentions(region, params.items[i], strlen(params.items[i])))
            continue;
        size_t wl;
        const char *wp = al_node_ptr(caller->pf, args[i], &wl);
        ok = !al_region_reads_tensor(out.data, wp, wl);
    }
    free(args);
    al_strlist_free(&params);
    if (!ok) {
        al_strbuf_free(&out);
        return NULL;
    }
    return al_strbuf_detach(&out);
}
