/* AL301 alloc-in-loop. GPU evidence (rules/AL301.md): with PyTorch's
 * caching allocator hoisting buys nothing measurable (1.00-1.06x); it
 * pays with cudaMallocAsync or without a cache. Off by default. */
#include "rules.h"

#include "../util.h"

#include <stdbool.h>

void al_rule_al301(const al_rule_input *in, al_findings *out)
{
    for (size_t i = 0; i < in->facts->n_loopallocs; i++) {
        const al_loopalloc_fact *f = &in->facts->loopallocs[i];
        /* A zeros buffer fully overwritten every iteration needs no
         * re-zeroing once hoisted: AL101's proof says so. */
        bool overwritten = false;
        for (size_t k = 0; k < in->facts->n; k++)
            if (in->facts->allocs[k].call_start == f->start &&
                in->facts->allocs[k].proof == AL_PROOF_FULL_WRITE)
                overwritten = true;
        const char *refill = overwritten ? NULL : f->refill;
        al_strbuf msg = {0};
        al_strbuf_printf(&msg, "`%s` is allocated on every iteration of the loop on line %zu "
                               "with the same shape, dtype and device, and does not outlive "
                               "the iteration: hoist it",
                         f->name, f->loop_row);
        al_fix *fix = NULL;
        if (refill || f->body_has_other_statements) {
            fix = al_fix_new(AL_FIX_UNSAFE, refill ? "Hoist the allocation and refill it in "
                                                     "the loop"
                                                   : "Hoist the allocation before the loop");
            al_strbuf a = {0};
            al_strbuf_printf(&a, "%s = %s\n%s", f->name, f->call, f->indent);
            al_fix_add_edit(fix, f->loop_start, f->loop_start, a.data);
            if (refill) {
                al_strbuf r = {0};
                al_strbuf_printf(&r, "%s%s\n", f->stmt_indent ? f->stmt_indent : "", refill);
                al_fix_add_edit(fix, f->stmt_line_start, f->stmt_line_end, r.data);
                al_strbuf_free(&r);
            } else {
                al_fix_add_edit(fix, f->stmt_line_start, f->stmt_line_end, "");
            }
            al_strbuf_free(&a);
        }
        al_findings_add(out, "AL301", "alloc-in-loop", f->start, f->end, al_strbuf_detach(&msg),
                        fix);
    }
}
