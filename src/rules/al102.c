/* AL102 cpp-zeros-overwritten: the C++/CUDA side of AL101, on the
 * token-level buffer facts of analysis/cxx/buffer.c. */
#include "rules.h"

#include "../analysis/cxx/buffer.h"
#include "../base/util.h"

#include <string.h>

void al_rule_al102(const al_rule_input *in, al_findings *out)
{
    if (!in->cxx)
        return;
    al_cxx_buffers buffers;
    al_cxx_buffers_analyse(in->cxx, in->ops, in->index, &buffers);
    for (size_t i = 0; i < buffers.n; i++) {
        const al_cxx_buffer *a = &buffers.items[i];
        if (a->proof != AL_PROOF_FULL_WRITE && a->proof != AL_PROOF_OUTPUT_ONLY)
            continue;
        bool method = !strncmp(a->factory, "new_", 4);
        bool like = al_str_ends_with(a->factory, "_like");
        const char *to = like ? "empty_like" : method ? "new_empty" : "empty";
        al_strbuf msg = {0};
        if (a->proof == AL_PROOF_FULL_WRITE) {
            al_strbuf_printf(&msg, "`%s` tensor `%s` is fully overwritten by `%s` on line %zu",
                             a->factory, a->var, a->evidence ? a->evidence : "a write",
                             a->evidence_row);
            al_rule_store_clause(&a->chain, in->src->path, &msg);
            al_strbuf_puts(&msg, " before any read; the fill is wasted");
        } else
            al_strbuf_printf(&msg, "`%s` tensor `%s` is passed as an output to `%s` on line %zu "
                                   "before any read, but alloclint cannot prove that it writes "
                                   "every element%s%s%s; the fill is likely wasted",
                             a->factory, a->var, a->evidence ? a->evidence : "a kernel",
                             a->evidence_row, a->why ? " (" : "", a->why ? a->why : "",
                             a->why ? ")" : "");
        al_strbuf fm = {0};
        al_strbuf_printf(&fm, "Replace `%s` with `%s`%s", a->factory, to,
                         a->fill_end > a->fill_start ? " and drop the fill value" : "");
        al_fix *fix = al_fix_new(a->proof == AL_PROOF_FULL_WRITE ? AL_FIX_SAFE : AL_FIX_UNSAFE,
                                 fm.data);
        al_fix_add_edit(fix, a->name_start, a->name_end, to);
        if (a->fill_end > a->fill_start)
            al_fix_add_edit(fix, a->fill_start, a->fill_end, "");
        al_strbuf_free(&fm);
        al_findings_add(out, "AL102", "cpp-zeros-overwritten", a->start, a->end,
                        al_strbuf_detach(&msg), fix);
        for (size_t k = 0; k < a->chain.n; k++)
            al_findings_note(out, a->chain.items[k].path, a->chain.items[k].row,
                             a->chain.items[k].text);
    }
    al_cxx_buffers_free(&buffers);
}
