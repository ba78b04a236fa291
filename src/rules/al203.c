/* AL203 zero-head-copy: `self.buf.copy_(F.pad(x, (1, 0)))` into a buffer
 * of the class whose element 0 stays zero from its allocation; copying x
 * into `self.buf[1:]` skips the padded temporary. GPU evidence in
 * rules/AL203.md. The proof is a fact about the whole class (every
 * method that touches the buffer) and about code outside it. */
#include "rules.h"

#include "../analysis/python/attrs.h"
#include "../analysis/python/pad.h"
#include "../base/util.h"

#include <stdlib.h>
#include <string.h>

/* `self.X` or `self.X[:k]` / `self.X[0:k]`: the attribute node, and the
 * slice's end (null for the whole buffer). */
static bool head_receiver(const al_pyfile *pf, TSNode r, TSNode *attr, TSNode *stop)
{
    *stop = (TSNode){0};
    r = al_py_unparen(r);
    if (al_node_is(r, "attribute")) {
        *attr = r;
        return true;
    }
    if (!al_node_is(r, "subscript") || !al_node_is(al_node_field(r, "value"), "attribute"))
        return false;
    /* [:k] or [0:k], no step */
    TSNode idx[2], parts[3];
    if (al_node_field_children(r, "subscript", idx, 2) != 1 || !al_node_is(idx[0], "slice") ||
        !al_py_slice_parts(idx[0], parts) || !ts_node_is_null(parts[2]) ||
        (!ts_node_is_null(parts[0]) && !al_node_text_eq(pf, parts[0], "0")))
        return false;
    *attr = al_node_field(r, "value");
    *stop = parts[1];
    return true;
}

static void zero_head_copy(const al_rule_input *in, TSNode call, al_findings *out)
{
    al_pymodule *m = in->py;
    const al_pyfile *pf = m->pf;
    TSNode fn = al_node_field(call, "function");
    if (!al_node_is(fn, "attribute") || !al_py_last_name_is(pf, fn, "copy_"))
        return;
    al_py_args a;
    al_py_args_read(call, &a);
    TSNode rest, attr, stop;
    bool promotes;
    if (a.splat || a.npos != 1 || a.nkw != 0 || !al_zero_head_value(m, a.pos[0], &rest, &promotes) ||
        !head_receiver(pf, al_node_field(fn, "object"), &attr, &stop))
        return;
    TSNode cls = al_self_attribute_class(pf, attr);
    if (ts_node_is_null(cls))
        return;
    char *name = al_node_text(pf, al_node_field(attr, "attribute"));
    al_attr_head h;
    al_attr_head_facts(m, cls, name, &h);
    /* Made by zeros in the class, 1-D: element 0 is the head F.pad wrote. */
    if (h.made_zero && h.rank == 1) {
        char *buf = al_node_text(pf, attr), *src = al_node_text(pf, rest);
        char *end = ts_node_is_null(stop) ? NULL : al_node_text(pf, stop);
        al_strbuf repl = {0}, msg = {0}, title = {0};
        al_strbuf_printf(&repl, "%s[1:%s].copy_(%s)", buf, end ? end : "", src);
        al_strbuf_printf(&msg, "element 0 of `%s` is zero from its allocation on line %zu; "
                               "copy into `%s[1:%s]` instead of padding a temporary",
                         buf, h.made_row, buf, end ? end : "");
        if (promotes && !h.breaker)
            al_strbuf_puts(&msg, " (unsafe: `torch.cat` may promote the copied values to the "
                                 "zero block's dtype, and copying them directly does not)");
        if (h.breaker) {
            if (h.breaker_path)
                al_strbuf_printf(&msg, " (unsafe: `%s` %s: `%s` of the project)", buf,
                                 h.breaker, h.breaker_path);
            else
                al_strbuf_printf(&msg, " (unsafe: on line %zu `%s` %s)", h.breaker_row, buf,
                                 h.breaker);
        } else if (!promotes) {
            al_strbuf_puts(&msg, "; every write to it in the class keeps element 0 zero");
        }
        al_strbuf_printf(&title, "Replace with `%s`", repl.data);
        al_fix *fix = al_fix_new(h.breaker || promotes ? AL_FIX_UNSAFE : AL_FIX_SAFE, title.data);
        al_fix_add_edit(fix, ts_node_start_byte(call), ts_node_end_byte(call), repl.data);
        al_findings_add(out, "AL203", "zero-head-copy", ts_node_start_byte(call),
                        ts_node_end_byte(call), al_strbuf_detach(&msg), fix);
        al_strbuf_free(&repl);
        al_strbuf_free(&title);
        free(buf), free(src), free(end);
    }
    al_attr_head_free(&h);
    free(name);
}

void al_rule_al203(const al_rule_input *in, al_findings *out)
{
    for (size_t i = 0; i < in->py->n_calls; i++)
        zero_head_copy(in, in->py->calls[i], out);
}
