/* AL101 zeros-overwritten: a zero/one/constant fill that no path reads.
 * The proof is the facts layer's; this file decides the tier and writes
 * the message and the edits. */
#include "rules.h"

#include "../util.h"

#include <string.h>

static const char *empty_name(al_factory f)
{
    switch (f) {
    case AL_FACTORY_ZEROS:
    case AL_FACTORY_ONES:
    case AL_FACTORY_FULL:
        return "empty";
    case AL_FACTORY_ZEROS_LIKE:
    case AL_FACTORY_ONES_LIKE:
    case AL_FACTORY_FULL_LIKE:
        return "empty_like";
    case AL_FACTORY_NEW_ZEROS:
    case AL_FACTORY_NEW_ONES:
    case AL_FACTORY_NEW_FULL:
        return "new_empty";
    }
    return "empty";
}

static const char *fill_word(al_factory f)
{
    switch (f) {
    case AL_FACTORY_ZEROS:
    case AL_FACTORY_ZEROS_LIKE:
    case AL_FACTORY_NEW_ZEROS:
        return "zero fill";
    case AL_FACTORY_ONES:
    case AL_FACTORY_ONES_LIKE:
    case AL_FACTORY_NEW_ONES:
        return "fill with ones";
    default:
        return "constant fill";
    }
}

void al_rule_al101(const al_rule_input *in, al_findings *out)
{
    for (size_t i = 0; i < in->facts->n; i++) {
        const al_alloc_fact *a = &in->facts->allocs[i];
        if (a->proof != AL_PROOF_FULL_WRITE && a->proof != AL_PROOF_OUTPUT_ONLY)
            continue;
        const char *to = empty_name(a->factory);
        al_strbuf callee = {0};
        bool method = a->qualified[0] == '.';
        if (method) {
            al_strbuf_printf(&callee, "%s", a->qualified + 1);
        } else {
            al_strbuf_puts(&callee, a->qualified);
        }

        al_applicability tier = AL_FIX_SAFE;
        al_strbuf why = {0};
        if (a->proof == AL_PROOF_OUTPUT_ONLY) {
            tier = AL_FIX_UNSAFE;
            al_strbuf_printf(&why, "is passed as an output to %s on line %zu before any read, "
                                   "but alloclint cannot prove that it writes every element",
                             a->evidence ? a->evidence : "an op", a->evidence_row);
        } else {
            al_strbuf_printf(&why, "is fully overwritten by %s on line %zu before any read",
                             a->evidence ? a->evidence : "a write", a->evidence_row);
        }
        /* torch.full infers int64 from 7 and bool from True: the fix
         * spells that dtype where the fill value stood. */
        const char *dtype = a->fill_dtype == AL_FILL_DTYPE_INT64  ? "int64"
                            : a->fill_dtype == AL_FILL_DTYPE_BOOL ? "bool"
                                                                  : NULL;
        bool dtype_unknown = a->fill_dtype == AL_FILL_DTYPE_UNKNOWN ||
                             (dtype && !in->facts->torch_alias);

        /* A from-import (`zeros(...)`) needs a torch module name to call
         * `empty` through; without one the fix is not offered. */
        al_strbuf replacement = {0};
        size_t edit_start = a->callee_name_start, edit_end = a->callee_name_end;
        bool fixable = !dtype_unknown;
        if (a->callee_bare) {
            if (in->facts->torch_alias) {
                al_strbuf_printf(&replacement, "%s.%s", in->facts->torch_alias, to);
                edit_start = a->callee_start;
                edit_end = a->callee_end;
            } else {
                fixable = false;
            }
        } else {
            al_strbuf_puts(&replacement, to);
        }

        al_strbuf msg = {0};
        al_strbuf_printf(&msg, "`%s` buffer `%s` %s; the %s is %swasted", callee.data, a->name,
                         why.data, fill_word(a->factory),
                         a->proof == AL_PROOF_OUTPUT_ONLY ? "likely " : "");

        al_fix *fix = NULL;
        if (fixable) {
            al_strbuf fixmsg = {0};
            al_strbuf_printf(&fixmsg, "Replace `%s` with `%s`%s%s%s", al_factory_name(a->factory),
                             to,
                             dtype ? " and the fill value with `dtype=torch." : "",
                             dtype ? dtype : (a->fill_end > a->fill_start ? " and drop the fill value" : ""),
                             dtype ? "`" : "");
            fix = al_fix_new(tier, fixmsg.data);
            al_strbuf_free(&fixmsg);
            al_fix_add_edit(fix, edit_start, edit_end, replacement.data);
            if (dtype) {
                al_strbuf kw = {0};
                al_strbuf_printf(&kw, "dtype=%s.%s", in->facts->torch_alias, dtype);
                al_fix_add_edit(fix, a->fill_arg_start, a->fill_arg_end, kw.data);
                al_strbuf_free(&kw);
            } else if (a->fill_end > a->fill_start) {
                al_fix_add_edit(fix, a->fill_start, a->fill_end, "");
            }
        } else if (dtype_unknown) {
            al_strbuf_puts(&msg, " (no fix: `torch.full` infers its dtype from the fill value; "
                                 "pass `dtype=` first)");
        } else {
            al_strbuf_puts(&msg, " (no fix: add `import torch` to call `torch.empty`)");
        }
        al_findings_add(out, "AL101", "zeros-overwritten", a->call_start, a->call_end,
                        al_strbuf_detach(&msg), fix);
        al_strbuf_free(&callee);
        al_strbuf_free(&why);
        al_strbuf_free(&replacement);
    }
}
