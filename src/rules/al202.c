/* AL202 cat-in-loop: x = torch.cat([x, y]) copies everything gathered so
 * far on every iteration. GPU evidence: 7-32x at 32 iterations. */
#include "rules.h"

#include "../util.h"

void al_rule_al202(const al_rule_input *in, al_findings *out)
{
    for (size_t i = 0; i < in->facts->n_catloops; i++) {
        const al_catloop_fact *f = &in->facts->catloops[i];
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
}
