/* AL101 zeros-overwritten: a zero/one/constant fill that no path reads.
 * The proof is the analysis core's (analysis/python/buffer.c); this file decides
 * the tier and writes the message and the edits. */
#include "rules.h"

#include "../analysis/python/lifetime.h"
#include "../analysis/python/loops.h"

#include "../base/util.h"

#include <stdlib.h>
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

/* The edit that turns the factory into `to`: the bytes [start of *renamed,
 * *end) become *replacement. False when it cannot be written: a
 * from-import (`zeros(...)`) and no torch module name to call `empty`
 * through. */
static bool factory_rename(const al_alloc_site *a, const char *torch, const char *to,
                           al_strbuf *replacement, TSNode *renamed, size_t *end)
{
    *renamed = a->callee_name;
    if (a->callee_bare) {
        if (!torch)
            return false;
        al_strbuf_printf(replacement, "%s.%s", torch, to);
        *renamed = a->callee;
    } else {
        al_strbuf_puts(replacement, to);
    }
    /* `aten.zeros.default` -> `aten.empty.memory_format`: the overload
     * names differ (aten.empty has no `default`). */
    *end = ts_node_end_byte(*renamed);
    if (!ts_node_is_null(a->callee_overload)) {
        al_strbuf_printf(replacement, ".%s", strcmp(to, "empty") ? "default" : "memory_format");
        *end = ts_node_end_byte(a->callee_overload);
    }
    return true;
}

/* The bound gives the same value where the write and the added line read
 * it: it reads no element of the buffer (the write changes those), and
 * calls nothing but `.size()`, `.dim()`, `.numel()` (or `len()` of such)
 * that could change what it reads. */
static bool same_twice(const al_pyfile *pf, TSNode end, const al_strlist *buf)
{
    end = al_py_unparen(end);
    if (al_node_is(end, "call") && al_node_text_eq(pf, al_node_field(end, "function"), "len")) {
        TSNode args = al_node_field(end, "arguments");
        return ts_node_named_child_count(args) == 1 &&
               al_loop_invariant(pf, ts_node_named_child(args, 0), buf);
    }
    return al_loop_invariant(pf, end, buf);
}

/* The parts of a slice by the colons before them: `:end` gives end; a bare
 * `:` gives a null node with *full set. False for any other slice. */
static bool slice_parts(TSNode slice, TSNode *end, bool *full)
{
    *end = (TSNode){0};
    *full = false;
    if (!al_node_is(slice, "slice"))
        return false;
    int colons = 0;
    for (uint32_t i = 0; i < ts_node_child_count(slice); i++) {
        TSNode c = ts_node_child(slice, i);
        if (!ts_node_is_named(c)) {
            colons += !strcmp(ts_node_type(c), ":");
            continue;
        }
        if (al_node_is(c, "comment") || colons != 1 || !ts_node_is_null(*end))
            return false;
        *end = c;
    }
    if (colons != 1)
        return false;
    *full = ts_node_is_null(*end);
    return true;
}

/* `name[:end]`, or `name[:, ..., :end]` / `name[..., :end]` (whole leading
 * dimensions, then a prefix of one): its end, and in *lead the text of the
 * whole dimensions before it (`:, :, ` or `..., `; caller frees); null
 * otherwise. */
static TSNode prefix_end(const al_pyfile *pf, TSNode sub, const char *name, char **lead)
{
    TSNode idx[AL_MAX_DIMS + 1];
    *lead = NULL;
    if (!al_node_is(sub, "subscript") || !al_node_text_eq(pf, al_node_field(sub, "value"), name))
        return (TSNode){0};
    size_t n = al_node_field_children(sub, "subscript", idx, AL_MAX_DIMS + 1);
    if (n == 0 || n > AL_MAX_DIMS)
        return (TSNode){0};
    al_strbuf sb = {0};
    for (size_t i = 0; i + 1 < n; i++) {
        TSNode end;
        bool full;
        if (al_node_is(idx[i], "ellipsis") && i == 0) {
            al_strbuf_puts(&sb, "..., ");
            continue;
        }
        if (!slice_parts(idx[i], &end, &full) || !full) {
            al_strbuf_free(&sb);
            return (TSNode){0};
        }
        al_strbuf_puts(&sb, ":, ");
    }
    TSNode end;
    bool full;
    if (!slice_parts(idx[n - 1], &end, &full) || full) {
        al_strbuf_free(&sb);
        return (TSNode){0};
    }
    *lead = sb.data ? al_strbuf_detach(&sb) : al_xstrdup("");
    return end;
}

/* The statement after the allocation writes all of `name[:end]` from a
 * value that does not read the buffer: `name[:end] = v`,
 * `name[:end].copy_(v)`, `.fill_(v)`, `.zero_()`. Its end, or null. */
static TSNode prefix_write(const al_pyfile *pf, TSNode st, const char *name, char **lead)
{
    *lead = NULL;
    if (!al_node_is(st, "expression_statement") || ts_node_named_child_count(st) != 1)
        return (TSNode){0};
    TSNode e = ts_node_named_child(st, 0), target, value = {0};
    if (al_node_is(e, "assignment")) {
        target = al_node_field(e, "left");
        value = al_node_field(e, "right");
        if (ts_node_is_null(value) || !ts_node_is_null(al_node_field(e, "type")))
            return (TSNode){0};
    } else if (al_node_is(e, "call") && al_node_is(al_node_field(e, "function"), "attribute")) {
        TSNode fn = al_node_field(e, "function");
        al_py_args a;
        al_py_args_read(e, &a);
        target = al_node_field(fn, "object");
        bool copy = al_py_last_name_is(pf, fn, "copy_"), fill = al_py_last_name_is(pf, fn, "fill_");
        if (a.splat || (!copy && !fill && !al_py_last_name_is(pf, fn, "zero_")) ||
            a.npos != (copy || fill ? 1 : 0) || a.nkw > (copy ? 1 : 0))
            return (TSNode){0};
        if (a.nkw && !al_node_text_eq(pf, al_node_field(a.kw[0], "name"), "non_blocking"))
            return (TSNode){0};
        if (a.npos)
            value = a.pos[0];
    } else {
        return (TSNode){0};
    }
    TSNode end = prefix_end(pf, target, name, lead);
    al_strlist buf = {0};
    al_strlist_add(&buf, al_xstrdup(name));
    /* `buf[:n].copy_(v)` reads n before v: a call in v runs between n and
     * the added line's n, and must be one that changes nothing (the same
     * test). `buf[:n] = v` reads n after v: only the store is between. */
    bool ok = !ts_node_is_null(end) && same_twice(pf, end, &buf) &&
              (ts_node_is_null(value) || !al_py_count_ident(pf, value, name)) &&
              (al_node_is(e, "assignment") || ts_node_is_null(value) ||
               al_loop_invariant(pf, value, &buf));
    al_strlist_free(&buf);
    if (!ok) {
        free(*lead);
        *lead = NULL;
    }
    return ok ? end : (TSNode){0};
}

/* `buf = x.new_zeros(n + k)` then `buf[:n].copy_(x)`: only the rows past n
 * need the zeros. `buf[:n]` and `buf[n:]` are complementary for any
 * integer n, so `buf[n:].zero_()` after the write leaves the buffer as the
 * zero fill did, whatever n is. */
static void zero_the_rest(const al_rule_input *in, const al_buffer *b, al_findings *out)
{
    const al_alloc_site *a = &b->site;
    const al_pyfile *pf = in->py->pf;
    if (a->factory != AL_FACTORY_ZEROS && a->factory != AL_FACTORY_ZEROS_LIKE &&
        a->factory != AL_FACTORY_NEW_ZEROS)
        return;
    if (ts_node_is_null(a->target) || !al_node_is(a->target, "identifier") ||
        ts_node_is_null(a->stmt) || !al_node_is(ts_node_parent(a->stmt), "block"))
        return;
    TSNode next = ts_node_next_named_sibling(a->stmt);
    while (!ts_node_is_null(next) && al_node_is(next, "comment"))
        next = ts_node_next_named_sibling(next);
    char *lead = NULL;
    TSNode end = ts_node_is_null(next) ? next : prefix_write(pf, next, a->name, &lead);
    if (ts_node_is_null(end))
        return;
    const char *to = empty_name(a->factory);
    al_strbuf replacement = {0};
    TSNode renamed;
    size_t renamed_end;
    if (!factory_rename(a, in->py->torch, to, &replacement, &renamed, &renamed_end)) {
        al_strbuf_free(&replacement);
        free(lead);
        return;
    }
    /* On the line after the write's (its trailing comment stays); not
     * when another statement shares that line (`; y = buf.sum()` would run
     * before the zeros). The file's own line ending. */
    size_t line, after;
    char *indent = al_py_indent_of(pf, next);
    if (!indent || !al_py_statement_lines(pf, next, &line, &after)) {
        free(indent);
        free(lead);
        al_strbuf_free(&replacement);
        return;
    }
    const char *bytes = pf->src->bytes;
    bool ended = after > 0 && bytes[after - 1] == '\n';
    size_t nl = ended ? after - 1 : line;
    while (nl > 0 && bytes[nl] != '\n')
        nl--;
    const char *eol = nl > 0 && bytes[nl - 1] == '\r' ? "\r\n" : "\n";
    char *e = al_node_text(pf, end);
    al_strbuf rest = {0}, msg = {0}, fm = {0};
    al_strbuf_printf(&rest, "%s%s%s[%s%s:].zero_()%s", ended ? "" : eol, indent, a->name, lead, e,
                     ended ? eol : "");
    free(indent);
    if (!lead[0])
        al_strbuf_printf(&msg, "`%s` buffer `%s` is written on rows `[:%s]` on line %zu before "
                               "any read: only the rows past them need the zero fill "
                               "(`%s[%s:].zero_()`)",
                         a->method ? a->qualified + 1 : a->qualified, a->name, e,
                         al_node_row(next), a->name, e);
    else
        al_strbuf_printf(&msg, "`%s` buffer `%s` is written on `[%s:%s]` on line %zu before any "
                               "read: only the elements past them in that dimension need the "
                               "zero fill (`%s[%s%s:].zero_()`)",
                         a->method ? a->qualified + 1 : a->qualified, a->name, lead, e,
                         al_node_row(next), a->name, lead, e);
    al_strbuf_printf(&fm, "Replace `%s` with `%s` and zero `%s[%s%s:]` after the write",
                     al_factory_name(a->factory), to, a->name, lead, e);
    free(lead);
    al_fix *fix = al_fix_new(AL_FIX_SAFE, fm.data);
    al_fix_add_edit(fix, ts_node_start_byte(renamed), renamed_end, replacement.data);
    al_fix_add_edit(fix, after, after, rest.data);
    al_findings_add(out, "AL101", "zeros-overwritten", ts_node_start_byte(a->call),
                    ts_node_end_byte(a->call), al_strbuf_detach(&msg), fix);
    al_findings_set_removes(out, AL_REMOVES_PART);
    al_strbuf_free(&fm);
    al_strbuf_free(&rest);
    al_strbuf_free(&replacement);
    free(e);
}

void al_rule_al101(const al_rule_input *in, al_findings *out)
{
    const char *torch = in->py->torch;
    const al_buffers *buffers = al_proofs_of_module(in->py);
    for (size_t i = 0; i < buffers->n; i++) {
        const al_buffer *b = &buffers->items[i];
        const al_alloc_site *a = &b->site;
        if (b->proof != AL_PROOF_FULL_WRITE && b->proof != AL_PROOF_OUTPUT_ONLY &&
            b->proof != AL_PROOF_UNREAD && b->proof != AL_PROOF_GUARDED) {
            zero_the_rest(in, b, out);
            continue;
        }
        const char *to = empty_name(a->factory);
        const char *callee = a->method ? a->qualified + 1 : a->qualified;

        al_applicability tier = AL_FIX_SAFE;
        al_strbuf why = {0};
        if (b->proof == AL_PROOF_OUTPUT_ONLY) {
            tier = AL_FIX_UNSAFE;
            al_strbuf_printf(&why, "is %s %s on line %zu before any read, but alloclint cannot "
                                   "prove that it writes every element",
                             al_evidence_is_loop(b->evidence) ? "written by" : "passed as an output to",
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
        } else if (b->proof == AL_PROOF_GUARDED) {
            al_strbuf_printf(&why, "is never read where it is not written: %s, to which it is "
                                   "handed on line %zu, loads only elements that %s (the same "
                                   "addresses, mask and conditions, over the same programs), and "
                                   "nothing else reads it",
                             b->evidence ? b->evidence : "a kernel", b->evidence_row,
                             b->why ? b->why : "an earlier launch stores");
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

        al_strbuf replacement = {0};
        TSNode renamed;
        size_t renamed_end;
        bool fixable = !dtype_unknown && factory_rename(a, torch, to, &replacement, &renamed,
                                                        &renamed_end);
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
