/* AL202 cat-in-loop: x = torch.cat([x, y]) copies everything gathered so
 * far on every iteration. GPU evidence: 7-32x at 32 iterations. */
#include "rules.h"

#include "../analysis/python/lifetime.h"
#include "../base/util.h"

#include <stdlib.h>
#include <string.h>

/* x = torch.cat([x, y]) rebinding x in a loop. */
typedef struct {
    size_t start, end; /* the assignment */
    char *name, *rest_items, *rest_args, *parts, *indent;
    const char *torch;
    bool multiple_items;
    bool used_elsewhere; /* x read in the loop outside the cat */
    bool stack;
    size_t loop_start, loop_end, loop_row;
} catloop;

static void report(const catloop *f, al_findings *out)
{
    al_strbuf msg = {0};
    al_strbuf_printf(&msg, "`%s` grows by `torch.%s` in the loop on line %zu: every "
                           "iteration copies all of it again (quadratic)",
                     f->name, f->stack ? "stack" : "cat", f->loop_row);
    al_fix *fix = NULL;
    if (f->stack) {
        al_strbuf_puts(&msg, " (no fix: `torch.stack` adds a dimension each time)");
    } else if (f->used_elsewhere) {
        al_strbuf_printf(&msg, " (no fix: `%s` is read in the loop)", f->name);
    } else if (!f->indent) {
        al_strbuf_puts(&msg, " (no fix: the loop does not start its line)");
    } else {
        fix = al_fix_new(AL_FIX_UNSAFE, "Collect the pieces in a list and concatenate once "
                                        "after the loop");
        al_strbuf a = {0}, b = {0}, c = {0};
        al_strbuf_printf(&a, "%s = [%s]\n%s", f->parts, f->name, f->indent);
        if (f->multiple_items)
            al_strbuf_printf(&b, "%s.extend([%s])", f->parts, f->rest_items);
        else
            al_strbuf_printf(&b, "%s.append(%s)", f->parts, f->rest_items);
        al_strbuf_printf(&c, "\n%s%s = %s.cat(%s%s)", f->indent, f->name, f->torch, f->parts,
                         f->rest_args);
        al_fix_add_edit(fix, f->loop_start, f->loop_start, a.data);
        al_fix_add_edit(fix, f->start, f->end, b.data);
        al_fix_add_edit(fix, f->loop_end, f->loop_end, c.data);
        al_strbuf_free(&a);
        al_strbuf_free(&b);
        al_strbuf_free(&c);
    }
    al_findings_add(out, "AL202", "cat-in-loop", f->start, f->end, al_strbuf_detach(&msg), fix);
}

/* `name_parts`, made unique in the function. */
static char *parts_name(const al_pyfile *pf, TSNode func, const char *name)
{
    al_strbuf parts = {0};
    al_strbuf_printf(&parts, "%s_parts", name);
    for (int i = 2; al_py_count_ident(pf, func, parts.data) > 0 && i < 100; i++) {
        parts.len = 0;
        al_strbuf_printf(&parts, "%s_parts%d", name, i);
    }
    return al_strbuf_detach(&parts);
}

static void cat_in_loop(TSNode func, TSNode stmt, void *arg)
{
    al_rule_visit *w = arg;
    const al_pymodule *m = w->in->py;
    const al_pyfile *pf = m->pf;
    TSNode asg = al_py_name_assignment(stmt);
    if (ts_node_is_null(asg))
        return;
    TSNode call = al_node_field(asg, "right");
    if (!al_node_is(call, "call"))
        return;
    bool cat = al_pymodule_calls_torch_cat(m, call);
    bool stack = !cat && al_pymodule_resolves_to(m, al_node_field(call, "function"), "torch.stack");
    if (!cat && !stack)
        return;
    al_py_args a;
    al_py_args_read(call, &a);
    if (a.splat || a.npos < 1)
        return;
    TSNode seq = al_py_unparen(a.pos[0]);
    if (!al_node_is(seq, "list") && !al_node_is(seq, "tuple"))
        return;
    TSNode items[16];
    int n = 0;
    uint32_t k = ts_node_named_child_count(seq);
    for (uint32_t i = 0; i < k && n < 16; i++) {
        TSNode ch = ts_node_named_child(seq, i);
        if (al_node_is(ch, "comment"))
            continue;
        if (al_node_is(ch, "list_splat"))
            return;
        items[n++] = ch;
    }
    TSNode target = al_node_field(asg, "left");
    char *name = al_node_text(pf, target);
    TSNode loop = al_enclosing_loop(func, stmt);
    if (n < 2 || !al_node_is(items[0], "identifier") || !al_node_text_eq(pf, items[0], name) ||
        ts_node_is_null(loop)) {
        /* explain: the name grows in a loop, but not as AL202 rewrites. */
        bool grows = !ts_node_is_null(loop) && n >= 2;
        for (int i = 1; grows && i < n; i++)
            if (al_node_is(items[i], "identifier") && al_node_text_eq(pf, items[i], name)) {
                al_rule_decline(w->in, "AL202", "cat-in-loop", ts_node_start_byte(stmt),
                                ts_node_end_byte(stmt),
                                "`%s` grows in the loop on line %zu, but not at the end (it is not "
                                "the first element of the list): AL202 rewrites `%s = "
                                "torch.%s([%s, ...])` only",
                                name, al_node_row(loop), name, cat ? "cat" : "stack", name);
                break;
            }
        free(name);
        return;
    }
    /* It grows only if it carries over from one iteration to the next:
     * the cat must be its only binding in the loop. */
    al_strlist bound = {0};
    al_py_bound_names(pf, loop, &bound);
    size_t binds = al_strlist_count(&bound, name);
    al_strlist_free(&bound);
    if (binds != 1) {
        al_rule_decline(w->in, "AL202", "cat-in-loop", ts_node_start_byte(stmt),
                        ts_node_end_byte(stmt),
                        "`%s` is bound again in the loop on line %zu besides this `torch.%s`: it "
                        "does not carry over from one iteration to the next",
                        name, al_node_row(loop), cat ? "cat" : "stack");
        free(name);
        return;
    }
    catloop f;
    memset(&f, 0, sizeof f);
    f.start = ts_node_start_byte(stmt);
    f.end = ts_node_end_byte(stmt);
    f.name = name;
    f.stack = stack;
    al_strbuf items_text = {0};
    for (int i = 1; i < n; i++) {
        char *t = al_node_text(pf, items[i]);
        al_strbuf_printf(&items_text, "%s%s", i > 1 ? ", " : "", t);
        free(t);
        if (al_py_count_ident(pf, items[i], name))
            f.used_elsewhere = true; /* cat([x, f(x)]) */
    }
    f.rest_items = al_strbuf_detach(&items_text);
    f.multiple_items = n > 2;
    al_strbuf rest = {0};
    for (int i = 1; i < a.npos; i++) {
        char *t = al_node_text(pf, a.pos[i]);
        al_strbuf_printf(&rest, ", %s", t);
        free(t);
    }
    char *kw = al_py_kwargs_text(pf, &a, NULL);
    al_strbuf_puts(&rest, kw);
    free(kw);
    f.rest_args = al_strbuf_detach(&rest);
    if (al_py_count_ident(pf, loop, name) - 2 > 0)
        f.used_elsewhere = true;
    f.parts = parts_name(pf, func, name);
    f.indent = al_py_indent_of(pf, loop);
    f.loop_start = ts_node_start_byte(loop);
    f.loop_end = ts_node_end_byte(loop);
    f.loop_row = al_node_row(loop);
    f.torch = m->torch ? m->torch : "torch";
    report(&f, w->out);
    free(f.name), free(f.rest_items), free(f.rest_args), free(f.parts), free(f.indent);
}

void al_rule_al202(const al_rule_input *in, al_findings *out)
{
    al_rule_visit w = {in, out};
    al_pymodule_walk_where(in->py, in->region_needs, &(al_py_walker){NULL, cat_in_loop, &w});
}
