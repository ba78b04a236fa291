/* AL401 inplace-candidate: x = x - y on a fresh local tensor. GPU
 * evidence (rules/AL401.md): 0.99-1.04x, no gain. Off by default and
 * always unsafe (views, autograd, broadcasting, dtype promotion). */
#include "rules.h"

#include "../util.h"

void al_rule_al401(const al_rule_input *in, al_findings *out)
{
    for (size_t i = 0; i < in->facts->n_inplaces; i++) {
        const al_inplace_fact *f = &in->facts->inplaces[i];
        al_strbuf repl = {0};
        al_strbuf_printf(&repl, "%s.%s(%s)", f->name, f->method, f->operand);
        al_strbuf msg = {0};
        al_strbuf_printf(&msg, "`%s` is a fresh local tensor rebound to a new one: `%s` would "
                               "reuse its memory (no speed gain measured; unsafe under autograd, "
                               "broadcasting or dtype promotion)",
                         f->name, repl.data);
        al_strbuf fm = {0};
        al_strbuf_printf(&fm, "Replace with `%s`", repl.data);
        al_fix *fix = al_fix_new(AL_FIX_UNSAFE, fm.data);
        al_fix_add_edit(fix, f->start, f->end, repl.data);
        al_findings_add(out, "AL401", "inplace-candidate", f->start, f->end,
                        al_strbuf_detach(&msg), fix);
        al_strbuf_free(&repl);
        al_strbuf_free(&fm);
    }
}
