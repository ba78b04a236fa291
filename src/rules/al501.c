/* AL501 host-alloc-then-copy: torch.zeros(n).to(device). GPU evidence
 * (rules/AL501.md): 1.6x at 640 bytes to about 1000x at 64 MiB. */
#include "rules.h"

#include "../util.h"

void al_rule_al501(const al_rule_input *in, al_findings *out)
{
    for (size_t i = 0; i < in->facts->n_moves; i++) {
        const al_move_fact *f = &in->facts->moves[i];
        al_strbuf msg = {0};
        al_strbuf_printf(&msg, "`%s` builds the tensor in host memory and then copies it to "
                               "the device: pass `device=%s` to the factory",
                         f->factory, f->device);
        al_fix *fix = NULL;
        if (f->has_device) {
            al_strbuf_puts(&msg, " (no fix: the factory already names a device or dtype)");
        } else {
            al_applicability tier = AL_FIX_SAFE;
            if (f->random) {
                tier = AL_FIX_UNSAFE;
                al_strbuf_puts(&msg, "; the device's random generator gives other numbers than "
                                     "the host's");
            }
            if (f->non_blocking) {
                tier = AL_FIX_UNSAFE;
                al_strbuf_puts(&msg, "; `non_blocking` is dropped");
            }
            if (f->dtype) {
                tier = AL_FIX_UNSAFE;
                al_strbuf_puts(&msg, "; the dtype conversion moves into `dtype=`, which "
                                     "changes where rounding happens");
            }
            al_strbuf kw = {0};
            al_strbuf_printf(&kw, "%sdevice=%s", f->args_empty ? "" : ", ", f->device);
            if (f->dtype)
                al_strbuf_printf(&kw, ", dtype=%s", f->dtype);
            al_strbuf fm = {0};
            al_strbuf_printf(&fm, "Pass `device=%s` to `%s`", f->device, f->factory);
            fix = al_fix_new(tier, fm.data);
            al_fix_add_edit(fix, f->insert_at, f->insert_at, kw.data);
            al_fix_add_edit(fix, f->move_start, f->move_end, "");
            al_strbuf_free(&kw);
            al_strbuf_free(&fm);
        }
        al_findings_add(out, "AL501", "host-alloc-then-copy", f->start, f->end,
                        al_strbuf_detach(&msg), fix);
    }
}
