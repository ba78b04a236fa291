/* AL203 zero-head-copy: `self.buf.copy_(F.pad(x, (1, 0)))` into a buffer
 * of the class whose element 0 stays zero from its allocation; copying x
 * into `self.buf[1:]` skips the padded temporary. GPU evidence in
 * rules/AL203.md. The proof is a fact about the whole class (every
 * method that touches the buffer) and about code outside it. */
#include "rules.h"

#include "../analysis/attrs.h"
#include "../analysis/pad.h"
#include "../util.h"

#include <stdlib.h>
#include <string.h>

/* `self.X` or `self.X[:k]` / `self.X[0:k]`: the attribute node, and the
 * slice's end (null for the whole buffer). */
static bool head_receiver(const al_pyfile *pf, TSNode r, TSNode *attr, TSNode *stop, bool *sliced)
{
    *sliced = false;
    *stop = (TSNode){0};
    r = al_py_unparen(r);
    if (al_node_is(r, "attribute")) {
        *attr = r;
        return true;
    }
    if (!al_node_is(r, "subscript") || !al_node_is(al_node_field(r, "value"), "attribute"))
        return false;
    TSNode idx[2];
    if (al_node_field_children(r, "subscript", idx, 2) != 1 || !al_node_is(idx[0], "slice"))
        return false;
    /* [:k] or [0:k]: at most a 0 before the colon, one end after it. */
    TSNode s = idx[0];
    const char *b = pf->src->bytes;
    const char *colon = memchr(b + ts_node_start_byte(s), ':',
                               ts_node_end_byte(s) - ts_node_start_byte(s));
    if (!colon || memchr(colon + 1, ':', b + ts_node_end_byte(s) - colon - 1))
        return false;
    size_t at = (size_t)(colon - b);
    uint32_t k = ts_node_named_child_count(s);
    TSNode before = {0}, after = {0};
    for (uint32_t i = 0; i < k; i++) {
        TSNode c = ts_node_named_child(s, i);
        if (ts_node_end_byte(c) <= at)
            before = c;
        else
            after = c;
    }
    if (!ts_node_is_null(before) && !al_node_text_eq(pf, before, "0"))
        return false;
    *attr = al_node_field(r, "value");
    *stop = after;
    *sliced = true;
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
    bool sliced, promotes;
    if (a.splat || a.npos != 1 || a.nkw != 0 || !al_zero_head_value(m, a.pos[0], &rest, &promotes) ||
        !head_receiver(pf, al_node_field(fn, "object"), &attr, &stop, &sliced))
        return;
    char *self = NULL;
    TSNode cls = al_enclosing_method_class(pf, call, &self);
    TSNode obj = al_node_field(attr, "object");
    bool on_self = !ts_node_is_null(cls) && self && al_node_is(obj, "identifier") &&
                   al_node_text_eq(pf, obj, self);
    free(self);
    if (!on_self)
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
