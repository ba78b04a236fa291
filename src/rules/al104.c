/* AL104 triton-redundant-store. GPU evidence (rules/AL104.md): the zero
 * accumulator is folded by Triton (1.00x, readability); a dead store of
 * zeros costs up to 1.3x where the kernel is bandwidth bound. */
#include "rules.h"

#include "../util.h"

void al_rule_al104(const al_rule_input *in, al_findings *out)
{
    for (size_t i = 0; i < in->facts->n_tstores; i++) {
        const al_tstore_fact *f = &in->facts->tstores[i];
        al_strbuf msg = {0};
        al_fix *fix = NULL;
        switch (f->kind) {
        case AL_TSTORE_ZERO_ACC:
            al_strbuf_printf(&msg, "`%s` is made zero and then only gets one `tl.dot` added: "
                                   "assign the dot directly (Triton folds this already; a "
                                   "readability fix)",
                             f->acc);
            if (!f->out_dtype_conflict) {
                al_strbuf repl = {0};
                al_strbuf_printf(&repl, "%s = %s.dot(%s, %s%s, out_dtype=%s)", f->acc, f->tl,
                                 f->a, f->b, f->extra, f->dtype);
                al_strbuf fm = {0};
                al_strbuf_printf(&fm, "Replace with `%s`", repl.data);
                fix = al_fix_new(AL_FIX_SAFE, fm.data);
                al_fix_add_edit(fix, f->start, f->end, repl.data);
                al_strbuf_free(&fm);
                al_strbuf_free(&repl);
            } else {
                al_strbuf_puts(&msg, " (no fix: the dot names another out_dtype)");
            }
            break;
        case AL_TSTORE_DEAD_ZERO:
            al_strbuf_printf(&msg, "this store of zeros is overwritten by the store to the same "
                                   "pointers on line %zu before anything reads it",
                             f->row_other);
            fix = al_fix_new(AL_FIX_SAFE, "Delete the dead store");
            al_fix_add_edit(fix, f->del_start, f->del_end, "");
            break;
        case AL_TSTORE_DEAD_LOOP:
            al_strbuf_printf(&msg, "this loop stores zeros that the loop on line %zu overwrites "
                                   "with the same stores, unconditionally",
                             f->row_other);
            fix = al_fix_new(AL_FIX_SAFE, "Delete the loop of dead stores");
            al_fix_add_edit(fix, f->del_start, f->del_end, "");
            break;
        case AL_TSTORE_GUARD_LOOP:
            al_strbuf_printf(&msg, "this loop stores zeros to the pointers the loop on line %zu "
                                   "stores; it runs only when that loop did not, so it is dead "
                                   "if that loop always runs (not proved)",
                             f->row_other);
            break;
        }
        al_findings_add(out, "AL104", "triton-redundant-store", f->start, f->end,
                        al_strbuf_detach(&msg), fix);
    }
}
