#include "explain.h"

#include "../analysis/cxx/buffer.h"
#include "../analysis/python/loops.h"
#include "../analysis/python/module.h"
#include "../analysis/python/proofs.h"
#include "../base/paths.h"
#include "../base/util.h"
#include "../front/python/pyast.h"

#include <stdlib.h>
#include <string.h>

const char *al_explain_verdict_name(al_explain_verdict v)
{
    switch (v) {
    case AL_EXPLAIN_PROVED: return "proved";
    case AL_EXPLAIN_LIKELY: return "likely";
    case AL_EXPLAIN_NOT_PROVED: return "not-proved";
    case AL_EXPLAIN_BLOCKED: return "blocked";
    case AL_EXPLAIN_REPORTED: return "reported";
    case AL_EXPLAIN_DECLINED: return "declined";
    }
    return "?";
}

static void step(al_explain_item *it, const char *path, size_t row, bool store, const char *text)
{
    al_explain_step s = {path ? al_xstrdup(path) : NULL, row, al_xstrdup(text), store};
    AL_PUSH(it->steps, it->n_steps, it->cap_steps, s);
}

static void chain_steps(al_explain_item *it, const al_chain *c)
{
    for (size_t i = 0; i < c->n; i++)
        step(it, c->items[i].path, c->items[i].row, c->items[i].store, c->items[i].text);
}

/* The verdict of a proof and what AL101/AL102 make of it. */
static void judge(al_explain_item *it, al_proof proof, const char *evidence, size_t evidence_row,
                  const char *why, const char *block, size_t block_row)
{
    al_strbuf sb = {0};
    switch (proof) {
    case AL_PROOF_FULL_WRITE:
        it->verdict = AL_EXPLAIN_PROVED;
        it->fix = "safe";
        al_strbuf_printf(&sb, "every element is written by %s on line %zu before any read, on "
                              "every path",
                         evidence ? evidence : "a write", evidence_row);
        break;
    case AL_PROOF_OUTPUT_ONLY:
        it->verdict = AL_EXPLAIN_LIKELY;
        it->fix = "unsafe";
        al_strbuf_printf(&sb, "it is %s %s on line %zu before any read; not proved: %s",
                         al_evidence_is_loop(evidence) ? "written by" : "passed as an output to",
                         evidence ? evidence : "an op", evidence_row,
                         why ? why : "that every element is written");
        break;
    case AL_PROOF_UNREAD:
        it->verdict = why ? AL_EXPLAIN_LIKELY : AL_EXPLAIN_PROVED;
        it->fix = why ? "unsafe" : "safe";
        al_strbuf_printf(&sb, "no element is read: %s on line %zu never reads the values it "
                              "is given, and nothing uses the buffer after",
                         evidence ? evidence : "a callee", evidence_row);
        if (why)
            al_strbuf_printf(&sb, "; not proved: %s", why);
        break;
    case AL_PROOF_GUARDED:
        it->verdict = AL_EXPLAIN_PROVED;
        it->fix = "safe";
        al_strbuf_printf(&sb, "every element read is one written first: %s on line %zu loads "
                              "only elements that %s, and nothing else reads the buffer",
                         evidence ? evidence : "a kernel", evidence_row,
                         why ? why : "an earlier launch stores");
        break;
    case AL_PROOF_BLOCKED:
        it->verdict = AL_EXPLAIN_BLOCKED;
        it->fix = "none";
        al_strbuf_printf(&sb, "the initial value is needed, or may be: %s on line %zu%s%s", block,
                         block_row, why ? " (" : "", why ? why : "");
        if (why)
            al_strbuf_puts(&sb, ")");
        break;
    case AL_PROOF_NONE:
        it->verdict = AL_EXPLAIN_NOT_PROVED;
        it->fix = "none";
        al_strbuf_puts(&sb, "no path writes every element before the buffer's last use");
        if (why)
            al_strbuf_printf(&sb, " (%s)", why);
        break;
    }
    it->summary = al_strbuf_detach(&sb);
}

static bool on_line(size_t first, size_t last, size_t line)
{
    return first <= line && line <= last;
}

/* Line `row` of src, without its indentation and line break, shortened. */
static char *line_text(const al_source *src, size_t row)
{
    size_t start, end;
    al_source_line(src, row, &start, &end);
    while (start < end && (src->bytes[start] == ' ' || src->bytes[start] == '\t'))
        start++;
    while (end > start && (src->bytes[end - 1] == '\n' || src->bytes[end - 1] == '\r'))
        end--;
    al_strbuf sb = {0};
    al_strbuf_printf(&sb, "%.*s%s", (int)(end - start > 72 ? 72 : end - start), src->bytes + start,
                     end - start > 72 ? "..." : "");
    return al_strbuf_detach(&sb);
}

/* A fill factory on the line that is no allocation site: bound to an
 * attribute, an item or unpacked, passed as an argument or returned. Its
 * buffer is not analysed (state kept on an object is read at CUDA-graph
 * capture, an argument by its callee): say so, so that silence is not a
 * mystery. */
static void unanalysed_factories(const al_source *src, al_pymodule *m, const al_pyfile *pf,
                                 TSNode n, size_t line, bool has_site, al_explanation *out,
                                 int depth)
{
    if (depth > 400 || al_node_row(n) > line || ts_node_end_point(n).row + 1 < line)
        return;
    al_alloc_site s;
    if (al_node_is(n, "call") && al_node_row(n) == line &&
        al_alloc_call_match(pf, &m->imports, n, &s)) {
        al_alloc_site_free(&s);
        if (!has_site) {
            TSNode parent = ts_node_parent(n);
            const char *where = "used in a larger expression";
            if (al_node_is(parent, "assignment")) {
                TSNode left = al_node_field(parent, "left");
                where = al_node_is(left, "attribute")   ? "bound to an attribute (state kept on "
                                                          "an object: read wherever the object "
                                                          "goes, at CUDA-graph capture too)"
                        : al_node_is(left, "subscript") ? "stored into a container or slice"
                        : al_node_is(left, "identifier")
                            ? "bound to a name in code that is not analysed (module level, or "
                              "a function too deep or too large)"
                            : "unpacked into several names";
            } else if (al_node_is(parent, "argument_list") ||
                       al_node_is(parent, "keyword_argument")) {
                where = "handed straight to a call, which alone decides, and nothing "
                        "proved it writes every element (an unknown callee, a contract that "
                        "leaves or adds to part of it, rows not shown to match, or for "
                        "nn.Parameter no initializer before the first use)";
            } else if (al_node_is(parent, "return_statement")) {
                where = "returned";
            }
            al_explain_item it = {0};
            char *call = al_node_text_compact(pf, n);
            al_strbuf sb = {0};
            al_strbuf_printf(&sb, "`%.*s%s`", 60, call, strlen(call) > 60 ? "..." : "");
            it.subject = al_strbuf_detach(&sb);
            free(call);
            it.code = "AL101";
            it.verdict = AL_EXPLAIN_BLOCKED;
            it.fix = "none";
            al_strbuf_printf(&sb, "no finding: %s", where);
            it.summary = al_strbuf_detach(&sb);
            char *text = line_text(src, line);
            step(&it, NULL, line, false, text);
            free(text);
            AL_PUSH(out->items, out->n, out->cap, it);
        }
    }
    uint32_t k = ts_node_named_child_count(n);
    for (uint32_t i = 0; i < k; i++)
        unanalysed_factories(src, m, pf, ts_node_named_child(n, i), line, has_site, out,
                             depth + 1);
}

static void python_allocations(const al_source *src, al_pymodule *m, const al_pyfile *pf,
                               size_t line, al_explanation *out)
{
    const al_buffers *bs = al_proofs_of_module(m);
    for (size_t i = 0; i < bs->n; i++) {
        const al_buffer *b = &bs->items[i];
        const al_alloc_site *a = &b->site;
        /* A factory handed straight to a call has no statement of its own. */
        bool bound = !ts_node_is_null(a->stmt);
        TSNode where = bound ? a->stmt : a->call;
        if (!on_line(al_node_row(where), ts_node_end_point(where).row + 1, line))
            continue;
        al_explain_item it = {0};
        char *call = al_node_text_compact(pf, a->call);
        al_strbuf subject = {0};
        al_strbuf_printf(&subject, "`%s%s%.*s%s`", bound ? a->name : "", bound ? " = " : "", 60,
                         call, strlen(call) > 60 ? "..." : "");
        free(call);
        it.subject = al_strbuf_detach(&subject);
        it.code = "AL101";
        al_strbuf sb = {0};
        al_strbuf_printf(&sb, "`%s` makes %s%s%s", a->method ? a->qualified + 1 : a->qualified,
                         bound ? "`" : "a buffer ", a->name, bound ? "`" : "");
        step(&it, NULL, al_node_row(a->call), false, sb.data);
        al_strbuf_free(&sb);
        bool other = b->proof == AL_PROOF_BLOCKED && b->shown_row &&
                     (b->shown_block != b->block || b->shown_row != b->block_row);
        judge(&it, b->proof, b->evidence, b->evidence_row, b->why,
              al_block_reason_text(other ? b->shown_block : b->block),
              other ? b->shown_row : b->block_row);
        if (b->proof == AL_PROOF_BLOCKED) {
            al_strbuf bl = {0};
            size_t row = other ? b->shown_row : b->block_row;
            char *text = line_text(src, row);
            al_strbuf_printf(&bl, "%s: `%s`", al_block_reason_text(other ? b->shown_block : b->block),
                             text);
            free(text);
            step(&it, NULL, row, false, bl.data);
            al_strbuf_free(&bl);
            if (other) {
                /* The first found, and what its chain says. */
                text = line_text(src, b->block_row);
                al_strbuf_printf(&bl, "also %s: `%s`", al_block_reason_text(b->block), text);
                free(text);
                step(&it, NULL, b->block_row, false, bl.data);
                al_strbuf_free(&bl);
            }
        } else if (b->evidence) {
            al_strbuf ev = {0};
            al_strbuf_printf(&ev, "%s by %s", b->proof == AL_PROOF_FULL_WRITE ? "written whole"
                                              : b->proof == AL_PROOF_UNREAD   ? "never read"
                                              : b->proof == AL_PROOF_GUARDED  ? "read only where written"
                                              : al_evidence_is_loop(b->evidence) ? "written, if the assumption holds,"
                                                                              : "passed as an output",
                             b->evidence);
            step(&it, NULL, b->evidence_row, b->proof == AL_PROOF_FULL_WRITE &&
                                                  !al_chain_store(&b->chain),
                 ev.data);
            al_strbuf_free(&ev);
        }
        chain_steps(&it, &b->chain);
        AL_PUSH(out->items, out->n, out->cap, it);
    }
}

static void cxx_allocations(const al_source *src, const al_lint_options *opt,
                            const al_cxx_unit *u, size_t line, al_explanation *out)
{
    al_cxx_buffers bs = {0};
    al_cxx_buffers_analyse(u, opt->ops, opt->index, &bs);
    for (size_t i = 0; i < bs.n; i++) {
        const al_cxx_buffer *b = &bs.items[i];
        size_t first = al_cxx_row(u, b->start), last = al_cxx_row(u, b->end ? b->end - 1 : 0);
        if (!on_line(first, last, line))
            continue;
        al_explain_item it = {0};
        al_strbuf subject = {0};
        al_strbuf_printf(&subject, "`%s = %.*s`", b->var ? b->var : "?",
                         (int)(b->end - b->start > 60 ? 60 : b->end - b->start),
                         src->bytes + b->start);
        it.subject = al_strbuf_detach(&subject);
        it.code = "AL102";
        al_strbuf sb = {0};
        al_strbuf_printf(&sb, "`%s` makes `%s`", b->factory, b->var ? b->var : "?");
        step(&it, NULL, first, false, sb.data);
        al_strbuf_free(&sb);
        judge(&it, b->proof, b->evidence, b->evidence_row, b->why, "a use that needs the fill",
              b->evidence_row);
        chain_steps(&it, &b->chain);
        AL_PUSH(out->items, out->n, out->cap, it);
    }
    al_cxx_buffers_free(&bs);
}

/* The findings every enabled rule reports on the line, with their notes:
 * fills, concatenations, loops, in-place candidates; then what a rule
 * examined there and declined, and why. */
static void findings_on_line(const al_source *src, const al_findings *findings, bool declined,
                             size_t line, al_explanation *out)
{
    for (size_t i = 0; i < findings->n; i++) {
        const al_finding *f = &findings->items[i];
        size_t first, last, col;
        al_source_position(src, f->start, &first, &col);
        al_source_position(src, f->end > f->start ? f->end - 1 : f->start, &last, &col);
        if (!on_line(first, last, line))
            continue;
        al_explain_item it = {0};
        al_strbuf subject = {0};
        al_strbuf_printf(&subject, "%s %s", f->code, f->name);
        it.subject = al_strbuf_detach(&subject);
        it.code = f->code;
        it.verdict = declined ? AL_EXPLAIN_DECLINED : AL_EXPLAIN_REPORTED;
        it.summary = al_xstrdup(f->message);
        it.fix = f->fix ? al_applicability_name(f->fix->applicability) : "none";
        for (size_t k = 0; k < f->n_notes; k++)
            step(&it, f->notes[k].path, f->notes[k].row, false, f->notes[k].message);
        AL_PUSH(out->items, out->n, out->cap, it);
    }
}

bool al_explain(const al_source *src, const al_lint_options *opt, size_t line,
                al_explanation *out, char **err)
{
    memset(out, 0, sizeof *out);
    *err = NULL;
    al_lint_options lint = *opt;
    lint.apply_safe = lint.apply_unsafe = false;
    lint.no_prefilter = true; /* the whole file: nothing skipped unasked */
    bool cxx = al_is_cxx_path(src->path);
    if (cxx) {
        al_cxx_unit u;
        if (!al_cxx_available()) {
            *err = al_xstrdup("C++/CUDA files need libclang, which is not available");
            return false;
        }
        if (!al_lint_parse_cxx(src, &lint, &u)) {
            *err = al_xstrdup("libclang could not parse it");
            return false;
        }
        cxx_allocations(src, &lint, &u, line, out);
        al_cxx_unit_free(&u);
    } else {
        al_pyfile pf;
        if (!al_pyfile_parse(&pf, src)) {
            al_pyfile_free(&pf);
            *err = al_xstrdup("it does not parse as Python");
            return false;
        }
        al_pymodule m;
        al_pymodule_build(&m, &pf, lint.ops, NULL);
        if (lint.index)
            al_pymodule_use_index(&m, src->path, lint.index);
        python_allocations(src, &m, &pf, line, out);
        unanalysed_factories(src, &m, &pf, pf.root, line, out->n > 0, out, 0);
        al_pymodule_free(&m);
        al_pyfile_free(&pf);
    }
    al_findings declined = {0};
    lint.declined = &declined;
    al_lint_result res;
    al_lint(src, &lint, &res);
    findings_on_line(src, &res.findings, false, line, out);
    findings_on_line(src, &declined, true, line, out);
    al_lint_result_free(&res);
    al_findings_free(&declined);
    /* Paths in the current folder are shown relative to it, as notes are. */
    for (size_t i = 0; i < out->n; i++)
        for (size_t k = 0; k < out->items[i].n_steps; k++)
            al_path_relative_to(out->items[i].steps[k].path, opt->cwd);
    return true;
}

void al_explanation_free(al_explanation *e)
{
    for (size_t i = 0; i < e->n; i++) {
        al_explain_item *it = &e->items[i];
        free(it->subject);
        free(it->summary);
        for (size_t k = 0; k < it->n_steps; k++) {
            free(it->steps[k].path);
            free(it->steps[k].text);
        }
        free(it->steps);
    }
    free(e->items);
    memset(e, 0, sizeof *e);
}
