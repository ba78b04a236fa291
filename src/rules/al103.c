/* AL103 redundant-fill: a fill that the allocation or another fill makes
 * redundant. GPU evidence (rules/AL103.md): dropping a redundant fill is
 * about 2x; empty().fill_(v) -> full(v) is the same kernel (1.00x). */
#include "rules.h"

#include "../util.h"

#include <string.h>

static const char *full_of(const char *factory)
{
    return strstr(factory, "_like") ? "full_like" : "full";
}

void al_rule_al103(const al_rule_input *in, al_findings *out)
{
    const char *torch = in->facts->torch_alias ? in->facts->torch_alias : "torch";
    for (size_t i = 0; i < in->facts->n_refills; i++) {
        const al_refill_fact *f = &in->facts->refills[i];
        bool zeros = strstr(f->factory, "zeros") != NULL;
        bool empty = strstr(f->factory, "empty") != NULL;
        al_strbuf msg = {0};
        al_fix *fix = NULL;
        if (f->kind == AL_REFILL_ALREADY_ZERO || (zeros && f->fill_is_zero)) {
            al_strbuf_printf(&msg, "the buffer is still all zeros from `torch.%s` here: the "
                                   "fill on line %zu writes it again for nothing",
                             f->factory, f->row_fill);
            if (f->del_end > f->del_start) {
                fix = al_fix_new(AL_FIX_SAFE, "Delete the redundant fill");
                al_fix_add_edit(fix, f->del_start, f->del_end, "");
            } else if (f->kind == AL_REFILL_CHAINED && f->alloc_end > f->call_start) {
                fix = al_fix_new(AL_FIX_SAFE, "Drop the redundant fill");
                al_fix_add_edit(fix, f->alloc_end, f->end, "");
            }
        } else if (empty && (f->fill_is_zero || f->fill_is_one) && f->name_end > f->name_start) {
            /* torch.empty(...) + zero_() is torch.zeros(...): no size needed. */
            const char *to = f->fill_is_zero ? (f->like ? "zeros_like" : "zeros")
                                             : (f->like ? "ones_like" : "ones");
            al_strbuf_printf(&msg, "`torch.%s` followed by `%s` is `torch.%s` (a "
                                   "simplification, not faster)",
                             f->factory, f->fill_is_zero ? "zero_()" : "fill_(1)", to);
            al_strbuf name = {0}, fm = {0};
            al_strbuf_printf(&name, "%s.%s", torch, to);
            al_strbuf_printf(&fm, "Replace with `%s`", name.data);
            fix = al_fix_new(AL_FIX_SAFE, fm.data);
            al_fix_add_edit(fix, f->name_start, f->name_end, name.data);
            if (f->kind == AL_REFILL_CHAINED)
                al_fix_add_edit(fix, f->alloc_end, f->end, "");
            else
                al_fix_add_edit(fix, f->del_start, f->del_end, "");
            al_strbuf_free(&name);
            al_strbuf_free(&fm);
        } else {
            al_strbuf_printf(&msg, "`torch.%s` followed by `fill_(%s)` writes the buffer %s: "
                                   "use `torch.%s`",
                             f->factory, f->value ? f->value : "...",
                             empty ? "once, as `torch.full` does (a simplification, not faster)"
                                   : "twice",
                             full_of(f->factory));
            if (f->size && f->value && f->kwargs) {
                al_strbuf repl = {0};
                al_strbuf_printf(&repl, "%s.%s(%s, %s%s)", torch, full_of(f->factory), f->size,
                                 f->value, f->kwargs);
                al_strbuf fm = {0};
                al_strbuf_printf(&fm, "Replace with `%s`", repl.data);
                fix = al_fix_new(AL_FIX_SAFE, fm.data);
                al_strbuf_free(&fm);
                al_fix_add_edit(fix, f->call_start, f->call_end, repl.data);
                if (f->del_end > f->del_start)
                    al_fix_add_edit(fix, f->del_start, f->del_end, "");
                al_strbuf_free(&repl);
            } else {
                al_strbuf_puts(&msg, " (no fix: the size or the fill value's dtype is not "
                                     "known)");
            }
        }
        al_findings_add(out, "AL103", "redundant-fill", f->start, f->end,
                        al_strbuf_detach(&msg), fix);
    }
}
