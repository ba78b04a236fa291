/* AL101 zeros-overwritten: a zero/one/constant fill that no path reads.
 * The proof is the analysis core's (analysis/python/buffer.c); this file decides
 * the tier and writes the message and the edits. */
#include "rules.h"

#include "../base/util.h"

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
    const char *torch = in->py->torch;
    const al_buffers *buffers = al_proofs_of_module(in->py);
    for (size_t i = 0; i < buffers->n; i++) {
        const al_buffer *b = &buffers->items[i];
        const al_alloc_site *a = &b->site;
        if (b->proof != AL_PROOF_FULL_WRITE && b->proof != AL_PROOF_OUTPUT_ONLY &&
            b->proof != AL_PROOF_UNREAD)
            continue;
        const char *to = empty_name(a->factory);
        const char *callee = a->method ? a->qualified + 1 : a->qualified;

        al_applicability tier = AL_FIX_SAFE;
        al_strbuf why = {0};
        if (b->proof == AL_PROOF_OUTPUT_ONLY) {
            tier = AL_FIX_UNSAFE;
            al_strbuf_printf(&why, "is passed as an output to %s on line %zu before any read, "
                                   "but alloclint cannot prove that it writes every element",
                             b->evidence ? b->evidence : "an op", b->evidence_row);
            if (b->why)
                al_strbuf_printf(&why, " (%s)", b->why);
        } else if (b->proof == AL_PROOF_UNREAD) {
            if (b->assumed)
                tier = AL_FIX_UNSAFE;
            al_strbuf_printf(&why, "is never read: %s, to which it is handed on line %zu, "
                                   "never reads the values it is given",
                             b->evidence ? b->evidence : "a callee", b->evidence_row);
            if (al_chain_store(&b->chain)) {
                al_strbuf_puts(&why, ", overwriting them first or not at all");
                al_rule_store_clause(&b->chain, in->src->path, &why);
            }
            al_strbuf_puts(&why, ", and nothing uses it after");
            if (b->assumed && b->why)
                al_strbuf_printf(&why, " (%s)", b->why);
        } else {
            al_strbuf_printf(&why, "is fully overwritten by %s on line %zu",
                             b->evidence ? b->evidence : "a write", b->evidence_row);
            al_rule_store_clause(&b->chain, in->src->path, &why);
            al_strbuf_puts(&why, " before any read");
        }
        /* torch.full infers int64 from 7 and bool from True: the fix
         * spells that dtype where the fill value stood. */
        const char *dtype = a->fill_dtype == AL_FILL_DTYPE_INT64  ? "int64"
                            : a->fill_dtype == AL_FILL_DTYPE_BOOL ? "bool"
                                                                  : NULL;
        bool dtype_unknown = a->fill_dtype == AL_FILL_DTYPE_UNKNOWN || (dtype && !torch);
        size_t fill_start = 0, fill_end = 0;
        if (!ts_node_is_null(a->fill_arg))
            al_py_arg_delete_range(&a->args, a->fill_arg, &fill_start, &fill_end);

        /* A from-import (`zeros(...)`) needs a torch module name to call
         * `empty` through; without one the fix is not offered. */
        al_strbuf replacement = {0};
        TSNode renamed = a->callee_name;
        bool fixable = !dtype_unknown;
        if (a->callee_bare) {
            if (torch) {
                al_strbuf_printf(&replacement, "%s.%s", torch, to);
                renamed = a->callee;
            } else {
                fixable = false;
            }
        } else {
            al_strbuf_puts(&replacement, to);
        }
        /* `aten.zeros.default` -> `aten.empty.memory_format`: the overload
         * names differ (aten.empty has no `default`). */
        size_t renamed_end = ts_node_end_byte(renamed);
        if (!ts_node_is_null(a->callee_overload)) {
            al_strbuf_printf(&replacement, ".%s", strcmp(to, "empty") ? "default" : "memory_format");
            renamed_end = ts_node_end_byte(a->callee_overload);
        }

        al_strbuf msg = {0};
        /* A factory passed straight to a call has no name of its own. */
        bool named = !ts_node_is_null(a->target);
        al_strbuf_printf(&msg, "`%s` buffer %s%s%s %s; the %s is %swasted", callee,
                         named ? "`" : "", a->name, named ? "`" : "", why.data,
                         fill_word(a->factory), b->proof == AL_PROOF_OUTPUT_ONLY ? "likely " : "");

        al_fix *fix = NULL;
        if (fixable) {
            al_strbuf fixmsg = {0};
            al_strbuf_printf(&fixmsg, "Replace `%s` with `%s`%s%s%s", al_factory_name(a->factory),
                             to, dtype ? " and the fill value with `dtype=torch." : "",
                             dtype ? dtype : (fill_end > fill_start ? " and drop the fill value" : ""),
                             dtype ? "`" : "");
            fix = al_fix_new(tier, fixmsg.data);
            al_strbuf_free(&fixmsg);
            al_fix_add_edit(fix, ts_node_start_byte(renamed), renamed_end, replacement.data);
            if (dtype) {
                al_strbuf kw = {0};
                al_strbuf_printf(&kw, "dtype=%s.%s", torch, dtype);
                al_fix_add_edit(fix, ts_node_start_byte(a->fill_arg), ts_node_end_byte(a->fill_arg),
                                kw.data);
                al_strbuf_free(&kw);
            } else if (fill_end > fill_start) {
                al_fix_add_edit(fix, fill_start, fill_end, "");
            }
        } else if (dtype_unknown) {
            al_strbuf_puts(&msg, " (no fix: `torch.full` infers its dtype from the fill value; "
                                 "pass `dtype=` first)");
        } else {
            al_strbuf_puts(&msg, " (no fix: add `import torch` to call `torch.empty`)");
        }
        al_findings_add(out, "AL101", "zeros-overwritten", ts_node_start_byte(a->call),
                        ts_node_end_byte(a->call), al_strbuf_detach(&msg), fix);
        /* The callees and stores behind the proof, or behind its gap. */
        for (size_t k = 0; k < b->chain.n; k++)
            al_findings_note(out, b->chain.items[k].path, b->chain.items[k].row,
                             b->chain.items[k].text);
        al_strbuf_free(&why);
        al_strbuf_free(&replacement);
    }
}
