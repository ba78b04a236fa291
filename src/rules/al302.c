/* AL302 triton-loop-invariant: tl.arange with loop-invariant bounds
 * inside a range loop of a kernel. GPU evidence (rules/AL302.md): the
 * compiler hoists it (0.99-1.11x); a readability fix, off by default. */
#include "rules.h"

#include "../util.h"

void al_rule_al302(const al_rule_input *in, al_findings *out)
{
    for (size_t i = 0; i < in->facts->n_tinvariants; i++) {
        const al_tinvariant_fact *f = &in->facts->tinvariants[i];
        al_fix *fix = al_fix_new(AL_FIX_SAFE, "Hoist it into a name before the loop");
        al_strbuf a = {0};
        al_strbuf_printf(&a, "%s = %s\n%s", f->name, f->source, f->indent);
        al_fix_add_edit(fix, f->loop_start, f->loop_start, a.data);
        for (size_t k = 0; k < f->n_occ; k++)
            al_fix_add_edit(fix, f->occ_start[k], f->occ_end[k], f->name);
        al_strbuf_free(&a);
        al_strbuf msg = {0};
        al_strbuf_printf(&msg, "`%s` does not change across the loop on line %zu%s: hoist it "
                               "(Triton hoists it too; a readability fix)",
                         f->source, f->loop_row,
                         f->n_occ > 1 ? " and is computed more than once" : "");
        al_findings_add(out, "AL302", "triton-loop-invariant", f->occ_start[0], f->occ_end[0],
                        al_strbuf_detach(&msg), fix);
    }
}
