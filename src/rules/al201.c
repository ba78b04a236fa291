/* AL201 cat-with-zeros. GPU evidence (rules/AL201.md): F.pad is never
 * faster than cat (0.82-0.99x); for a cumsum, writing it into an n + 1
 * buffer with element 0 set is 1.1-2.1x faster. The fix follows that. */
#include "rules.h"

#include "../util.h"

#include <string.h>

/* F.pad's tuple for padding `extent` before or after dim of a rank-r
 * tensor: pairs run from the last dim backwards. */
static char *pad_tuple(const al_catzero_fact *f)
{
    if (!f->extent || f->rank < 1 || f->dim < 0 || f->dim >= f->rank)
        return NULL;
    al_strbuf sb = {0};
    al_strbuf_putc(&sb, '(');
    for (int d = f->rank - 1; d >= f->dim; d--) {
        if (d != f->rank - 1)
            al_strbuf_puts(&sb, ", ");
        if (d == f->dim)
            al_strbuf_printf(&sb, f->zeros_first ? "%s, 0" : "0, %s", f->extent);
        else
            al_strbuf_puts(&sb, "0, 0");
    }
    al_strbuf_putc(&sb, ')');
    return al_strbuf_detach(&sb);
}

void al_rule_al201(const al_rule_input *in, al_findings *out)
{
    for (size_t i = 0; i < in->facts->n_catzeros; i++) {
        const al_catzero_fact *f = &in->facts->catzeros[i];
        al_strbuf msg = {0};
        al_fix *fix = NULL;
        bool buffer_form = f->cumsum && f->zeros_first && f->extent &&
                           !strcmp(f->extent, "1") && f->rank == 1 && f->dim == 0 &&
                           f->target && f->cumsum_dtype && f->dtype_same;
        if (f->cumsum) {
            al_strbuf_printf(&msg, "a prefix sum with a leading zero, concatenated: write the "
                                   "cumsum into an `n + 1` buffer with element 0 set "
                                   "(`out=buf[1:]`), 1.1-2.1x faster on an H200");
            if (buffer_form) {
                const char *dev = f->device ? f->device : NULL;
                al_strbuf repl = {0};
                al_strbuf_printf(&repl, "%s = %s.empty(%s.shape[0] + 1, dtype=%s", f->target,
                                 f->torch, f->cumsum_input, f->cumsum_dtype);
                if (dev)
                    al_strbuf_printf(&repl, ", device=%s", dev);
                else
                    al_strbuf_printf(&repl, ", device=%s.device", f->cumsum_input);
                al_strbuf_printf(&repl, ")\n%s%s[0] = 0\n%s%s.cumsum(%s, 0, dtype=%s, out=%s[1:])",
                                 f->indent, f->target, f->indent, f->torch, f->cumsum_input,
                                 f->cumsum_dtype, f->target);
                fix = al_fix_new(AL_FIX_SAFE, "Write the cumsum into an n + 1 buffer");
                al_fix_add_edit(fix, f->stmt_start, f->stmt_end, repl.data);
                al_strbuf_free(&repl);
            } else {
                al_strbuf_puts(&msg, " (no fix: needs `name = torch.cat(...)` on its own, a "
                                     "1-element zero block first, and the same `dtype=` spelled "
                                     "on both)");
            }
        } else {
            char *pad = pad_tuple(f);
            const char *F = f->functional ? f->functional : "torch.nn.functional";
            if (pad)
                al_strbuf_printf(&msg, "`torch.cat` with a freshly made zero block is "
                                       "`%s.pad(%s, %s)`; not faster on a GPU (0.82-0.99x), a "
                                       "readability change",
                                 F, f->other, pad);
            else
                al_strbuf_printf(&msg, "`torch.cat` with a freshly made zero block could be "
                                       "`%s.pad(...)`; not faster on a GPU (0.82-0.99x)",
                                 F);
            if (pad) {
                al_strbuf repl = {0};
                al_strbuf_printf(&repl, "%s.pad(%s, %s)", F, f->other, pad);
                /* cat promotes dtypes, pad does not; and pad is not faster. */
                fix = al_fix_new(AL_FIX_DISPLAY_ONLY, repl.data);
                al_fix_add_edit(fix, f->start, f->end, repl.data);
                al_strbuf_free(&repl);
                if (!f->dtype_same)
                    al_strbuf_puts(&msg, "; `torch.cat` promotes dtypes and `F.pad` does not");
            }
            free(pad);
        }
        al_findings_add(out, "AL201", "cat-with-zeros", f->start, f->end, al_strbuf_detach(&msg),
                        fix);
    }
}
