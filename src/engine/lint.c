#include "lint.h"
#include "chain.h"
#include "wrap.h"

#include "diff.h"

#include "../analysis/python/module.h"
#include "../front/cxx/cxx.h"
#include "fix.h"
#include "../front/prefilter.h"
#include "../front/python/pyast.h"
#include "../rules/rules.h"
#include "comments.h"
#include "suppress.h"
#include "../base/paths.h"
#include "../base/util.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

static bool rule_enabled(const char *code, void *arg)
{
    const al_lint_options *opt = arg;
    for (size_t r = 0; r < al_rules_count; r++)
        if (!strcmp(al_rules[r].code, code))
            return opt->enabled[r];
    return false;
}

/* Whether an enabled C++ rule could fire on the file's tokens: if none
 * can, the file is not parsed. */
static bool prefilter_cxx(const al_source *src, const al_lint_options *opt)
{
    if (opt->no_prefilter)
        return true;
    unsigned wanted = 0;
    for (size_t r = 0; r < al_rules_count; r++)
        for (int k = 0; opt->enabled[r] && al_rules[r].lang == AL_LANG_CXX && k < AL_PREFILTER_TERMS; k++)
            wanted |= al_rules[r].needs[k];
    unsigned tokens = al_prefilter_scan(src->bytes, src->len, wanted);
    for (size_t r = 0; r < al_rules_count; r++)
        if (opt->enabled[r] && al_rules[r].lang == AL_LANG_CXX &&
            al_prefilter_admits(al_rules[r].needs, tokens))
            return true;
    return false;
}

/* What of a Python file is parsed: nothing (no enabled rule can fire),
 * the whole file, or (only when spans are wanted) the statements some
 * admitted rule could report in, with what their proofs read: imports,
 * kernels, suppressions and the functions they call; of a class, only its
 * header, its body's statements that define nothing and the methods that
 * could hold a finding, unless a class-wide rule wants it all. */
typedef struct {
    bool admitted;
    size_t (*spans)[2]; /* NULL: the whole file */
    size_t n_spans;
    size_t (*trimmed)[2]; /* classes parsed without some methods */
    size_t n_trimmed;
    /* What the spans leave out, as spans (a trimmed class's header with
     * the methods left out): where the rest of the file's syntax errors
     * would be. */
    size_t (*rest)[2];
    size_t n_rest;
    bool token_filter; /* walks may skip functions by their tokens (no renamed factory) */
    /* The prefilter's scan, kept for the rules' walks to read a function's
     * tokens from (its statement's or member's) while token_filter. */
    al_py_scan scan;
    bool scanned;
} parse_plan;

/* Whether some admitted rule (only a class-wide one, when asked) could
 * report in code with these tokens. */
static bool region_admitted(const bool *admitted, unsigned tokens, bool class_wide_only)
{
    for (size_t r = 0; r < al_rules_count; r++)
        if (admitted[r] && (al_rules[r].class_wide || !class_wide_only) &&
            al_prefilter_admits(al_rules[r].region_needs, tokens))
            return true;
    return false;
}

/* Marks what of a class with members to keep: all of it (keep) when some
 * rule could report in its header, or a class-wide rule in one of its
 * statements; else the statements some rule could report in, with those
 * that define nothing (attributes, docstring); or nothing. */
static void plan_class(const al_py_scan *scan, size_t i, const bool *admitted, bool *keep,
                       bool *keep_member)
{
    const al_statement_span *g = &scan->items[i];
    bool whole = (g->head_tokens & AL_TOK_KERNEL) || region_admitted(admitted, g->head_tokens, false);
    for (size_t k = 0; k < g->n_members && !whole; k++)
        whole = region_admitted(admitted, scan->members[g->first_member + k].tokens, true);
    if (whole) {
        keep[i] = true;
        return;
    }
    bool any = false;
    for (size_t k = 0; k < g->n_members; k++) {
        const al_statement_span *m = &scan->members[g->first_member + k];
        keep_member[g->first_member + k] =
            (m->tokens & AL_TOK_KERNEL) || region_admitted(admitted, m->tokens, false);
        any |= keep_member[g->first_member + k];
    }
    for (size_t k = 0; any && k < g->n_members; k++)
        keep_member[g->first_member + k] |= !scan->members[g->first_member + k].definition;
}

/* The statements keep and keep_member leave out, as spans: each top-level
 * statement not kept and without kept members, and of a class with some
 * members kept, its header and the others. */
static void plan_rest(const al_py_scan *scan, const bool *keep, const bool *keep_member,
                      parse_plan *plan)
{
    bool *out = al_xcalloc(scan->n ? scan->n : 1, sizeof *out);
    bool *out_member = al_xcalloc(scan->n_members ? scan->n_members : 1, sizeof *out_member);
    for (size_t i = 0; i < scan->n; i++) {
        const al_statement_span *g = &scan->items[i];
        bool some = false;
        for (size_t k = 0; k < g->n_members; k++)
            some |= keep_member[g->first_member + k];
        out[i] = !keep[i] && !some;
        for (size_t k = 0; some && !keep[i] && k < g->n_members; k++)
            out_member[g->first_member + k] = !keep_member[g->first_member + k];
    }
    plan->rest = al_xcalloc(scan->n + scan->n_members + 1, sizeof *plan->rest);
    size_t bytes;
    plan->n_rest = al_py_scan_spans(scan, out, out_member, plan->rest, &bytes);
    free(out);
    free(out_member);
}

static void plan_python(const al_source *src, const al_lint_options *opt, bool spans_wanted,
                        parse_plan *plan)
{
    memset(plan, 0, sizeof *plan);
    if (opt->no_prefilter) {
        plan->admitted = true;
        return;
    }
    al_py_scan scan;
    al_prefilter_scan_python(src->bytes, src->len, &scan);
    bool admitted[AL_MAX_RULES] = {0};
    for (size_t r = 0; r < al_rules_count; r++) {
        admitted[r] = opt->enabled[r] && al_rules[r].lang != AL_LANG_CXX &&
                      al_prefilter_admits(al_rules[r].needs, scan.tokens);
        plan->admitted |= admitted[r];
    }
    plan->token_filter = !scan.renamed;
    /* A renamed factory hides its calls from the scan: the whole file. */
    if (!plan->admitted || scan.renamed || !spans_wanted) {
        al_py_scan_free(&scan);
        return;
    }
    plan->scan = scan;
    plan->scanned = true;
    bool *keep = al_xcalloc(scan.n ? scan.n : 1, sizeof *keep);
    bool *keep_member = al_xcalloc(scan.n_members ? scan.n_members : 1, sizeof *keep_member);
    for (size_t i = 0; i < scan.n; i++) {
        const al_statement_span *g = &scan.items[i];
        /* Suppressions can reach past their statement; kernels are read
         * from every launch in the file (al_pymodule.kernel_names), so
         * every kernel definition is kept, in a class or not; of the
         * module-level code, what a rule could report in and the imports
         * (names resolve through them; nothing else there is read). */
        if ((g->tokens & AL_TOK_SUPPRESS) || ((g->tokens & AL_TOK_KERNEL) && !g->n_members) ||
            (!g->definition && (g->tokens & AL_TOK_IMPORT)))
            keep[i] = true;
        else if (g->n_members)
            plan_class(&scan, i, admitted, keep, keep_member);
        else
            keep[i] = region_admitted(admitted, g->tokens, false);
    }
    /* The functions of the file that kept code calls by name, the
     * methods it calls through `self.`, and theirs: a proof may follow a
     * call into them. */
    al_py_scan_keep_called(&scan, src->bytes, keep, keep_member);
    size_t (*spans)[2] = al_xcalloc(scan.n + scan.n_members + 1, sizeof *spans);
    size_t kept;
    size_t n = al_py_scan_spans(&scan, keep, keep_member, spans, &kept);
    /* Everything kept: the whole file, as one parse. Any less is parsed in
     * part: a finding there costs only a parse of the rest for its errors
     * (al_lint), no longer the whole file again. */
    if (kept >= src->len) {
        free(spans);
    } else {
        plan->spans = spans;
        plan->n_spans = n;
        plan_rest(&scan, keep, keep_member, plan);
        for (size_t i = 0; i < scan.n; i++) {
            const al_statement_span *g = &scan.items[i];
            bool some_in = false, some_out = false;
            for (size_t k = 0; !keep[i] && k < g->n_members; k++) {
                some_in |= keep_member[g->first_member + k];
                some_out |= !keep_member[g->first_member + k];
            }
            if (!some_in || !some_out)
                continue;
            if (!plan->trimmed)
                plan->trimmed = al_xcalloc(scan.n, sizeof *plan->trimmed);
            plan->trimmed[plan->n_trimmed][0] = g->start;
            plan->trimmed[plan->n_trimmed++][1] = g->end;
        }
    }
    free(keep);
    free(keep_member);
}

/* The callee names whose calls the enabled Python rules read. */
static void wanted_calls(const al_lint_options *opt, const char **names, size_t max)
{
    size_t n = 0;
    for (size_t r = 0; r < al_rules_count; r++)
        for (size_t i = 0; opt->enabled[r] && al_rules[r].calls && al_rules[r].calls[i]; i++)
            if (n + 1 < max)
                names[n++] = al_rules[r].calls[i];
    names[n] = NULL;
}

/* Notes name files as the index read them (absolute): shown relative to
 * the current folder, as the findings' own files are. */
static void relative_notes(const al_lint_options *opt, al_findings *out)
{
    for (size_t i = 0; i < out->n; i++)
        for (size_t k = 0; k < out->items[i].n_notes; k++)
            al_path_relative_to(out->items[i].notes[k].path, opt->cwd);
}

/* Drops suppressed findings; adds AL900 for unused suppressions. */
static void suppress(const al_source *src, const al_lint_options *opt, const al_span *comments,
                     size_t n_comments, al_findings *out, al_suppressions *sup)
{
    al_findings_sort(out);
    al_suppressions_parse(sup, src, comments, n_comments);
    al_suppressions_apply(sup, src, out);
    if (rule_enabled("AL900", (void *)opt)) {
        al_suppressions_unused(sup, src, rule_enabled, (void *)opt, out);
        al_suppressions_apply(sup, src, out); /* `# noqa: AL900` */
        al_findings_sort(out);
    }
}

typedef struct {
    al_fix *fix;
    size_t count;
} noqa_request;

/* Whether a note's path names the file being checked. */
static bool same_file(const char *note_path, const char *path)
{
    if (!note_path || !strcmp(note_path, path))
        return true;
    size_t a = strlen(note_path), b = strlen(path);
    return a > b && note_path[a - b - 1] == '/' && !strcmp(note_path + a - b, path);
}

/* The scope of each fix the rules made (findings from `first` on): the
 * top-level function or class holding it, or the whole file for code at
 * module level and for proofs whose notes reach elsewhere in the file
 * (a helper's summary). Fixes whose scopes meet go in different passes,
 * each proved again after the other (see al_fix_apply). */
static void scope_fixes(const al_pyfile *pf, const al_source *src, al_findings *out, size_t first)
{
    uint32_t k = ts_node_named_child_count(pf->root);
    for (size_t i = first; i < out->n; i++) {
        al_finding *f = &out->items[i];
        if (!f->fix)
            continue;
        TSNode def = {0};
        for (uint32_t c = 0; c < k; c++) {
            TSNode top = ts_node_named_child(pf->root, c);
            if (ts_node_start_byte(top) > f->start || ts_node_end_byte(top) < f->end)
                continue;
            if (al_node_is(top, "function_definition") || al_node_is(top, "class_definition") ||
                al_node_is(top, "decorated_definition"))
                def = top;
            break;
        }
        size_t start = 0, end = src->len;
        if (!ts_node_is_null(def)) {
            size_t first_row = ts_node_start_point(def).row + 1;
            size_t last_row = ts_node_end_point(def).row + 1;
            bool outside = false;
            for (size_t n = 0; n < f->n_notes && !outside; n++)
                outside = same_file(f->notes[n].path, src->path) &&
                          (f->notes[n].row < first_row || f->notes[n].row > last_row);
            if (!outside) {
                start = ts_node_start_byte(def);
                end = ts_node_end_byte(def);
            }
        }
        f->fix->scope_start = start;
        f->fix->scope_end = end > start ? end : start + 1;
    }
}

/* Spans (sorted, apart) with [a, b) added: into out, which holds n + 1. */
static size_t spans_with(const size_t (*in)[2], size_t n, size_t a, size_t b, size_t (*out)[2])
{
    size_t k = 0;
    bool placed = false;
    for (size_t i = 0; i <= n; i++) {
        size_t s, e;
        if (i < n && (placed || in[i][0] < a)) {
            s = in[i][0], e = in[i][1];
        } else if (!placed) {
            s = a, e = b, placed = true, i--;
        } else {
            break;
        }
        if (k && s <= out[k - 1][1]) {
            if (e > out[k - 1][1])
                out[k - 1][1] = e;
        } else {
            out[k][0] = s, out[k][1] = e, k++;
        }
    }
    return k;
}

/* Spans with [a, b) taken out: into out, which holds n + 1. */
static size_t spans_without(const size_t (*in)[2], size_t n, size_t a, size_t b, size_t (*out)[2])
{
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        if (in[i][0] < a)
            out[k][0] = in[i][0], out[k][1] = in[i][1] < a ? in[i][1] : a, k++;
        if (in[i][1] > b)
            out[k][0] = in[i][0] > b ? in[i][0] : b, out[k][1] = in[i][1], k++;
    }
    return k;
}

/* Parses again with the trimmed classes that were asked about kept
 * whole: they move from plan->trimmed to the spans, and out of the rest. */
static void keep_asked_classes(parse_plan *plan, const bool *asked)
{
    size_t kept = 0;
    for (size_t i = 0; i < plan->n_trimmed; i++) {
        size_t a = plan->trimmed[i][0], b = plan->trimmed[i][1];
        if (!asked[i]) {
            plan->trimmed[kept][0] = a, plan->trimmed[kept][1] = b, kept++;
            continue;
        }
        size_t (*spans)[2] = al_xcalloc(plan->n_spans + 1, sizeof *spans);
        plan->n_spans = spans_with((const size_t(*)[2])plan->spans, plan->n_spans, a, b, spans);
        free(plan->spans);
        plan->spans = spans;
        size_t (*rest)[2] = al_xcalloc(plan->n_rest + 1, sizeof *rest);
        plan->n_rest = spans_without((const size_t(*)[2])plan->rest, plan->n_rest, a, b, rest);
        free(plan->rest);
        plan->rest = rest;
    }
    plan->n_trimmed = kept;
}

/* Whether what plan's spans leave out of src parses without errors. */
static bool rest_parses_clean(const al_source *src, const parse_plan *plan)
{
    if (plan->n_rest == 0)
        return true;
    al_pyfile pf;
    bool clean = al_pyfile_parse_spans(&pf, src, (const size_t(*)[2])plan->rest, plan->n_rest) &&
                 !pf.has_error;
    al_pyfile_free(&pf);
    return clean;
}

/* What a run of the rules was asked and what it saw, besides findings. */
typedef struct {
    const bool *only;    /* run only these of the enabled rules (NULL: all) */
    bool token_filter;   /* walks may skip functions by their tokens */
    bool reported[AL_MAX_RULES]; /* out: rules that found something, suppressed or not */
    bool asked_trimmed;  /* out: a question about a class the partial parse
                          * trimmed, or about the whole file */
    bool *trimmed_asked; /* out, per trimmed class of the plan: asked about */
    bool asked_all;      /* out: a question only the whole file answers */
    const al_py_scan *scan; /* the file's scan (with token_filter), or NULL */
} rules_run;

/* A run of the rules over what plan parses: its walks may skip functions
 * by the tokens the plan's scan found. */
static rules_run run_of_plan(const parse_plan *plan)
{
    rules_run r = {0};
    r.token_filter = plan->token_filter;
    r.scan = plan->scanned ? &plan->scan : NULL;
    return r;
}

/* Parses src (in part, by plan, when it has spans) and runs the rules. */
static bool run_rules(const al_source *src, const al_lint_options *opt, const parse_plan *plan,
                      al_findings *out, bool *syntax_error, noqa_request *add_noqa,
                      rules_run *run)
{
    al_pyfile pf;
    bool parsed = plan && plan->spans
                      ? al_pyfile_parse_spans(&pf, src, (const size_t(*)[2])plan->spans,
                                              plan->n_spans)
                      : al_pyfile_parse(&pf, src);
    if (!parsed) {
        al_pyfile_free(&pf);
        return false;
    }
    if (plan && plan->spans) {
        /* Its functions' summaries may lack what it left out: memoised
         * apart from any other parse of the file (a later round's, the
         * index's), never read by one. */
        static atomic_ullong partial_parses;
        pf.memo_tag = atomic_fetch_add(&partial_parses, 1) + 1;
        pf.trimmed = (const size_t(*)[2])plan->trimmed;
        pf.n_trimmed = plan->n_trimmed;
        pf.asked_trimmed = run ? &run->asked_trimmed : NULL;
        pf.trimmed_asked = run ? run->trimmed_asked : NULL;
        pf.asked_all = run ? &run->asked_all : NULL;
    }
    *syntax_error = pf.has_error;
    const char *calls[64];
    wanted_calls(opt, calls, 64);
    al_pymodule module;
    al_pymodule_build(&module, &pf, opt->ops, calls);
    if (opt->index)
        al_pymodule_use_index(&module, src->path, opt->index);
    module.token_filter = run && run->token_filter;
    module.scan = module.token_filter ? run->scan : NULL;
    al_rule_input in = {src, &module, NULL, opt->ops, opt->index, opt->inference, NULL,
                        opt->declined};
    size_t first = out->n;
    for (size_t r = 0; r < al_rules_count; r++)
        if (opt->enabled[r] && al_rules[r].run && al_rules[r].lang == AL_LANG_PYTHON &&
            (!run || !run->only || run->only[r])) {
            size_t before = out->n;
            in.region_needs = al_rules[r].region_needs;
            al_rules[r].run(&in, out);
            if (run)
                run->reported[r] = out->n > before;
        }
    al_comments_keep(src, module.comments, module.n_comments, out, first);
    scope_fixes(&pf, src, out, first);
    al_wrap_fixes(src->bytes, src->len, out, first, opt->line_length);
    relative_notes(opt, out);
    al_suppressions sup;
    suppress(src, opt, module.comments, module.n_comments, out, &sup);
    if (add_noqa) {
        /* Every finding still standing gets a directive on its line. */
        add_noqa->fix = al_fix_new(AL_FIX_SAFE, "Add noqa");
        add_noqa->count = al_suppressions_add_noqa(&sup, src, module.long_strings,
                                                   module.n_long_strings, out, add_noqa->fix);
    }
    al_suppressions_free(&sup);
    al_pymodule_free(&module);
    al_pyfile_free(&pf);
    return true;
}

bool al_lint_fix_wanted(const al_lint_options *opt, const al_fix *fix)
{
    if (!fix || fix->n_edits == 0)
        return false;
    if (fix->applicability == AL_FIX_SAFE)
        return opt->apply_safe;
    if (fix->applicability == AL_FIX_UNSAFE)
        return opt->apply_safe && opt->apply_unsafe;
    return false;
}

/* Applies the fixes the options want among `found`, but those excluded
 * (NULL: none). Returns the new text, or NULL when none is wanted;
 * *fixes lists the wanted ones, *applied says per wanted fix whether it
 * went in (overlapping ones do not), *count how many did. */
static char *apply_wanted(const al_lint_options *opt, const al_findings *found, const bool *excluded,
                          const char *text, size_t len, al_fix ***fixes, size_t *nf,
                          bool **applied, size_t *count, size_t *new_len)
{
    *fixes = al_xcalloc(found->n ? found->n : 1, sizeof **fixes);
    *nf = 0;
    for (size_t i = 0; i < found->n; i++)
        if (al_lint_fix_wanted(opt, found->items[i].fix) && !(excluded && excluded[i]))
            (*fixes)[(*nf)++] = found->items[i].fix;
    *applied = NULL;
    *count = 0;
    if (*nf == 0)
        return NULL;
    *applied = al_xcalloc(*nf, sizeof(bool));
    char *next = al_fix_apply(text, len, *fixes, *nf, *applied, new_len);
    for (size_t i = 0; i < *nf; i++)
        *count += (*applied)[i];
    return next;
}

static void free_applied(al_lint_result *res)
{
    for (size_t i = 0; i < res->n_applied; i++) {
        free(res->applied[i].message);
        free(res->applied[i].fix_message);
    }
    res->n_applied = 0;
}

/* Counts a pass that was kept: its fixes, and what each was. revealed:
 * per finding, found only in text an earlier pass's fixes wrote (NULL:
 * none was). */
static void count_pass(al_lint_result *res, const al_lint_options *opt, const al_findings *found,
                       const bool *excluded, const bool *applied, size_t count,
                       const bool *revealed, bool original)
{
    res->n_fixed += count;
    for (size_t i = 0, k = 0; i < found->n; i++)
        if (al_lint_fix_wanted(opt, found->items[i].fix) && !(excluded && excluded[i]) &&
            applied[k++]) {
            al_applied_fix fix = {found->items[i].code, found->items[i].fix->applicability,
                                  revealed && revealed[i],
                                  original ? found->items[i].start : SIZE_MAX,
                                  al_xstrdup(found->items[i].message),
                                  al_xstrdup(found->items[i].fix->message)};
            AL_PUSH(res->applied, res->n_applied, res->cap_applied, fix);
        }
}

/* Keeps the first run's findings, and which of them were fixed, for the
 * report; the findings of the fixed text come next. */
static void keep_initial(al_lint_result *res, const al_lint_options *opt, const bool *excluded,
                         const bool *applied)
{
    res->initial = res->findings;
    res->initial_applied = al_xcalloc(res->initial.n ? res->initial.n : 1, sizeof(bool));
    for (size_t i = 0, k = 0; i < res->initial.n; i++)
        if (al_lint_fix_wanted(opt, res->initial.items[i].fix) && !(excluded && excluded[i]))
            res->initial_applied[i] = applied[k++];
    memset(&res->findings, 0, sizeof res->findings);
}

/* The 0-based line of offset as the diff counts lines (by `\n` alone; a
 * source's own line index also ends lines at a lone `\r`). */
static size_t row_of(const char *text, size_t len, size_t offset)
{
    size_t row = 0;
    for (size_t i = 0; i < offset && i < len; i++)
        row += text[i] == '\n';
    return row;
}

/* Which of the first run's findings the fixed text still has: one of the
 * same rule on a line of the fixed text that is the finding's line, or
 * replaced it. --diff reports those, where they stand in the file it
 * leaves unchanged: not what the patch fixed, nor what only the fixed text
 * has. A finding whose fix was not applied is matched first. */
static void mark_remaining(const al_source *src, al_lint_result *res)
{
    size_t *lo, *hi;
    size_t n_lines = al_diff_line_origins(src->bytes, src->len, res->fixed, res->fixed_len, &lo, &hi);
    res->initial_remaining = al_xcalloc(res->initial.n ? res->initial.n : 1, sizeof(bool));
    size_t *initial_rows = al_xcalloc(res->initial.n ? res->initial.n : 1, sizeof(size_t));
    for (size_t i = 0; i < res->initial.n; i++)
        initial_rows[i] = row_of(src->bytes, src->len, res->initial.items[i].start);
    for (size_t f = 0; f < res->findings.n; f++) {
        const al_finding *left = &res->findings.items[f];
        size_t row = row_of(res->fixed, res->fixed_len, left->start);
        if (row >= n_lines)
            continue;
        bool matched = false;
        for (int applied = 0; applied < 2 && !matched; applied++)
            for (size_t i = 0; i < res->initial.n && !matched; i++)
                if (!res->initial_remaining[i] && res->initial_applied[i] == (applied == 1) &&
                    !strcmp(res->initial.items[i].code, left->code) && initial_rows[i] >= lo[row] &&
                    initial_rows[i] < hi[row])
                    matched = res->initial_remaining[i] = true;
    }
    free(initial_rows);
    free(lo);
    free(hi);
}

bool al_lint_parse_cxx(const al_source *src, const al_lint_options *opt, al_cxx_unit *unit)
{
    /* The file's own build flags first, so --cxx-arg can add to them. */
    const al_compdb_entry *entry = al_compdb_find(opt->compdb, src->path);
    size_t n_entry = entry ? entry->n_args : 0;
    const char **args = al_xcalloc(n_entry + (size_t)opt->n_cxx_args + 1, sizeof *args);
    for (size_t i = 0; i < n_entry; i++)
        args[i] = entry->args[i];
    for (int i = 0; i < opt->n_cxx_args; i++)
        args[n_entry + (size_t)i] = opt->cxx_args[i];
    al_cxx_parse(src, args, (int)(n_entry + (size_t)opt->n_cxx_args), unit);
    free(args);
    if (!unit->parsed) {
        al_cxx_unit_free(unit);
        return false;
    }
    return true;
}

/* C++/CUDA: the C++ rules on libclang's unit, then suppressions. */
static bool run_cxx_rules(const al_source *src, const al_lint_options *opt, al_findings *out)
{
    al_cxx_unit unit;
    if (!al_lint_parse_cxx(src, opt, &unit))
        return false;
    al_rule_input in = {src, NULL, &unit, opt->ops, opt->index, opt->inference, NULL, NULL};
    size_t first = out->n;
    for (size_t r = 0; r < al_rules_count; r++)
        if (opt->enabled[r] && al_rules[r].run && al_rules[r].lang == AL_LANG_CXX)
            al_rules[r].run(&in, out);
    al_comments_keep(src, unit.comments, unit.n_comments, out, first);
    relative_notes(opt, out);
    al_suppressions sup;
    suppress(src, opt, unit.comments, unit.n_comments, out, &sup);
    al_suppressions_free(&sup);
    al_cxx_unit_free(&unit);
    return true;
}

static void lint_cxx(const al_source *src, const al_lint_options *opt, al_lint_result *res)
{
    if (!prefilter_cxx(src, opt)) {
        res->skipped_by_prefilter = true;
        return;
    }
    if (!al_cxx_available()) {
        res->cxx_unavailable = true;
        return;
    }
    if (!run_cxx_rules(src, opt, &res->findings)) {
        res->parse_failed = true;
        return;
    }
    if (!opt->apply_safe)
        al_fix_withhold_overlapping(src, &res->findings);
    if (!opt->apply_safe || src->has_nul || src->bad_utf8)
        return;
    /* One round: the edits rename a factory and drop an argument. */
    bool *applied;
    al_fix **fixes;
    size_t count, len, nf;
    char *next = apply_wanted(opt, &res->findings, NULL, src->bytes, src->len, &fixes, &nf,
                              &applied, &count, &len);
    free(fixes);
    if (!next)
        return;
    count_pass(res, opt, &res->findings, NULL, applied, count, NULL, true);
    keep_initial(res, opt, NULL, applied);
    free(applied);
    al_source fixed;
    al_source_from_memory(&fixed, src->path, next, len);
    run_cxx_rules(&fixed, opt, &res->findings);
    al_source_free(&fixed);
    res->fixed = next;
    res->fixed_len = len;
    mark_remaining(src, res);
}

/* Undoes a fix loop's work on res: the first pass's findings back in
 * res->findings, nothing fixed. */
static void start_over(al_lint_result *res)
{
    if (res->initial_applied) {
        al_findings_free(&res->findings);
        res->findings = res->initial;
        memset(&res->initial, 0, sizeof res->initial);
    }
    free(res->initial_applied);
    res->initial_applied = NULL;
    free(res->initial_remaining);
    res->initial_remaining = NULL;
    free(res->fixed);
    res->fixed = NULL;
    res->fixed_len = 0;
    res->n_fixed = 0;
    free_applied(res);
    res->fix_reverted = false;
    res->fix_unconverged = 0;
}

/* Whether a later pass's fix is the first-pass finding `origin` offered
 * again: its rule (else 0); its first edit's text, or, where a fix that
 * rewrote the whole statement swallowed its place, its message (2). */
static int same_finding(size_t origin, const al_fix *fix, bool swallowed, void *arg)
{
    const al_lint_result *res = arg;
    const al_finding *was = &res->initial.items[origin];
    const al_finding *now = NULL;
    for (size_t i = 0; i < res->findings.n && !now; i++)
        if (res->findings.items[i].fix == fix)
            now = &res->findings.items[i];
    if (!now || strcmp(was->code, now->code))
        return 0;
    if (swallowed)
        return strcmp(was->message, now->message) ? 0 : 2;
    return was->fix && was->fix->n_edits &&
                   !strcmp(was->fix->edits[0].content, fix->edits[0].content)
               ? 2
               : 1;
}

/* The fix loop from res->findings, the first pass's findings marked in
 * `excluded` left out. Returns the first-pass finding that began a chain
 * into an unsafe fix (the loop stopped before it), or AL_CHAIN_NONE. */
static size_t fix_loop(const al_source *src, const al_lint_options *opt, al_lint_result *res,
                       const bool *excluded, const char **chained_code)
{
    char *cur = NULL;
    size_t cur_len = 0;
    const char *text = src->bytes;
    size_t len = src->len;
    long base_errors = al_python_error_count(src->bytes, src->len);
    al_chain_regions regions = {0}, anchors = {0};
    size_t chained = AL_CHAIN_NONE;
    for (int round = 0;; round++) {
        if (round == AL_LINT_MAX_PASSES) {
            for (size_t i = 0; i < res->findings.n; i++)
                res->fix_unconverged += al_lint_fix_wanted(opt, res->findings.items[i].fix);
            break;
        }
        /* Which first-pass finding each finding's fix continues, and
         * which stay left out: an excluded one, offered again. */
        size_t nfound = res->findings.n;
        size_t *from = al_xcalloc(nfound ? nfound : 1, sizeof *from);
        bool *left_out = al_xcalloc(nfound ? nfound : 1, sizeof *left_out);
        bool *revealed = al_xcalloc(nfound ? nfound : 1, sizeof *revealed);
        for (size_t i = 0; i < nfound; i++) {
            const al_finding *f = &res->findings.items[i];
            size_t a = round == 0 ? i : al_chain_anchor(&anchors, f->fix, same_finding, res);
            from[i] = a != AL_CHAIN_NONE ? a : al_chain_origin(&regions, f->fix);
            left_out[i] = a != AL_CHAIN_NONE && excluded[a];
            revealed[i] = round > 0 && a == AL_CHAIN_NONE;
            if (round > 0 && a == AL_CHAIN_NONE && from[i] != AL_CHAIN_NONE &&
                al_lint_fix_wanted(opt, f->fix) && f->fix->applicability == AL_FIX_UNSAFE &&
                chained == AL_CHAIN_NONE) {
                chained = from[i];
                *chained_code = f->code;
            }
        }
        if (chained != AL_CHAIN_NONE) {
            free(from);
            free(left_out);
            free(revealed);
            break;
        }
        bool *applied;
        al_fix **fixes;
        size_t count, new_len, nf;
        char *next = apply_wanted(opt, &res->findings, left_out, text, len, &fixes, &nf, &applied,
                                  &count, &new_len);
        long errors = next ? al_python_error_count(next, new_len) : 0;
        if (!next || count == 0 || errors < 0 || errors > base_errors) {
            if (next && count)
                res->fix_reverted = true;
            free(from);
            free(left_out);
            free(revealed);
            free(fixes);
            free(applied);
            free(next);
            break;
        }
        size_t *origins = al_xcalloc(nf, sizeof *origins);
        for (size_t i = 0, k = 0; i < nfound && k < nf; i++)
            if (res->findings.items[i].fix == fixes[k])
                origins[k++] = from[i];
        /* First-pass fixes not applied become anchors, placed in the
         * text they were found in: the pass's edits move them. */
        for (size_t i = 0, k = 0; round == 0 && i < nfound; i++) {
            const al_fix *fix = res->findings.items[i].fix;
            bool wanted = al_lint_fix_wanted(opt, fix) && !left_out[i];
            bool went_in = wanted && applied[k];
            k += wanted;
            if (!went_in && fix && fix->n_edits) {
                al_chain_region g = {fix->edits[0].start, fix->edits[0].end, i, false};
                AL_PUSH(anchors.items, anchors.n, anchors.cap, g);
            }
        }
        /* A first-pass finding offered again and now applied is no
         * longer waiting: its anchor goes. */
        for (size_t i = 0, k = 0; round > 0 && i < nfound; i++) {
            bool wanted = al_lint_fix_wanted(opt, res->findings.items[i].fix) && !left_out[i];
            if (wanted && applied[k] && !revealed[i])
                al_chain_drop(&anchors, from[i]);
            k += wanted;
        }
        al_chain_move(&anchors, fixes, applied, nf);
        al_chain_advance(&regions, fixes, applied, origins, nf);
        free(origins);
        free(fixes);
        free(from);
        count_pass(res, opt, &res->findings, left_out, applied, count, revealed, round == 0);
        if (round == 0)
            keep_initial(res, opt, left_out, applied);
        free(left_out);
        free(revealed);
        free(applied);
        free(cur);
        cur = next;
        cur_len = new_len;
        text = cur;
        len = cur_len;
        al_source fixed_src;
        al_source_from_memory(&fixed_src, src->path, cur, cur_len);
        if (round > 0)
            al_findings_free(&res->findings);
        bool se = false;
        bool ok = run_rules(&fixed_src, opt, NULL, &res->findings, &se, NULL, NULL);
        al_source_free(&fixed_src);
        if (!ok)
            break;
    }
    al_chain_regions_free(&regions);
    al_chain_regions_free(&anchors);
    if (chained != AL_CHAIN_NONE) {
        free(cur); /* the loop starts over: nothing of this one is kept */
        return chained;
    }
    if (cur) {
        res->fixed = cur;
        res->fixed_len = cur_len;
        mark_remaining(src, res);
    }
    return chained;
}

void al_lint(const al_source *src, const al_lint_options *opt, al_lint_result *res)
{
    memset(res, 0, sizeof *res);
    if (al_is_cxx_path(src->path)) {
        lint_cxx(src, opt, res);
        return;
    }
    parse_plan plan;
    plan_python(src, opt, true, &plan);
    if (!plan.admitted) {
        res->skipped_by_prefilter = true;
        return;
    }
    rules_run partial = run_of_plan(&plan);
    partial.trimmed_asked = al_xcalloc(plan.n_trimmed ? plan.n_trimmed : 1, sizeof(bool));
    bool ok = run_rules(src, opt, &plan, &res->findings, &res->syntax_error, NULL, &partial);
    /* A question about a class the partial parse trimmed: parsed again
     * with that class whole, not the whole file (each round keeps at least
     * one more class whole, so this ends). */
    while (ok && plan.spans && partial.asked_trimmed && !partial.asked_all &&
           !res->syntax_error) {
        keep_asked_classes(&plan, partial.trimmed_asked);
        bool *asked = partial.trimmed_asked;
        partial = run_of_plan(&plan);
        partial.trimmed_asked = asked;
        memset(asked, 0, (plan.n_trimmed ? plan.n_trimmed : 1) * sizeof(bool));
        al_findings_free(&res->findings);
        ok = run_rules(src, opt, &plan, &res->findings, &res->syntax_error, NULL, &partial);
    }
    free(partial.trimmed_asked);
    /* Each rule's regions, and all their proofs read, were in the partial
     * parse, so what it found stands once the rest of the file is known
     * to parse cleanly (errors anywhere withhold every fix): the rest is
     * parsed for its errors alone, and nothing runs on it. Findings that
     * offer no fix have nothing for errors to withhold: the rest is not
     * parsed (a fifth of the files with findings in the engines). */
    bool rest_clean = plan.spans && ok && res->findings.n && !res->syntax_error &&
                      !partial.asked_trimmed &&
                      (!al_findings_any_fix(&res->findings) || rest_parses_clean(src, &plan));
    if (plan.spans && !rest_clean &&
        (!ok || res->findings.n || res->syntax_error || partial.asked_trimmed)) {
        /* Errors in the partial parse or the rest, or a question about a
         * class the partial parse trimmed: the whole file is read again.
         * Only the rules that found something run again, unless the
         * partial parse had errors or trimmed too much; AL900 still
         * judges every enabled rule's suppressions. */
        rules_run whole = run_of_plan(&plan);
        if (ok && !res->syntax_error && !partial.asked_trimmed)
            whole.only = partial.reported;
        al_findings_free(&res->findings);
        res->syntax_error = false;
        ok = run_rules(src, opt, NULL, &res->findings, &res->syntax_error, NULL, &whole);
    }
    free(plan.spans);
    free(plan.trimmed);
    free(plan.rest);
    if (plan.scanned)
        al_py_scan_free(&plan.scan);
    if (!ok) {
        res->parse_failed = true;
        return;
    }
    if (res->syntax_error || src->has_nul || src->bad_utf8) {
        /* Report, but promise no fix that will not be applied. */
        const char *why = res->syntax_error ? "the file has syntax errors"
                          : src->has_nul    ? "the file contains a NUL byte"
                                            : "the file is not valid UTF-8";
        for (size_t i = 0; i < res->findings.n; i++) {
            al_fix *fix = res->findings.items[i].fix;
            if (!fix)
                continue;
            al_strbuf m = {0};
            al_strbuf_printf(&m, "%s (not applied: %s)", fix->message, why);
            free(fix->message);
            fix->message = al_strbuf_detach(&m);
            fix->applicability = AL_FIX_DISPLAY_ONLY;
        }
    }
    bool may_fix = opt->apply_safe && !res->syntax_error && !src->has_nul && !src->bad_utf8;
    if (!opt->apply_safe)
        al_fix_withhold_overlapping(src, &res->findings);
    if (!may_fix)
        return;

    /* Apply, re-check, repeat, as ruff does: each pass takes the fixes
     * whose scopes do not meet, then the file is parsed and analysed again,
     * so a fix left out is proved again on the text the others made (and
     * one that is no longer right is no longer offered). A later pass's
     * unsafe fix on text a fix of this run wrote is a chain the first
     * pass never reported: the loop starts over without the fix that
     * began it (chain.h). */
    size_t n_first = res->findings.n;
    bool *excluded = al_xcalloc(n_first ? n_first : 1, sizeof *excluded);
    for (;;) {
        const char *code = NULL;
        size_t origin = fix_loop(src, opt, res, excluded, &code);
        if (origin == AL_CHAIN_NONE || origin >= n_first || excluded[origin])
            break;
        excluded[origin] = true;
        start_over(res);
        al_finding *f = &res->findings.items[origin];
        al_findings one = {f, 1, 1}; /* the note goes on f itself */
        char why[300];
        snprintf(why, sizeof why,
                 "fix withheld with --unsafe-fixes: on the text it writes, a later pass offers "
                 "an unsafe %s fix that this report does not show; fixes chain only through "
                 "proved ones",
                 code ? code : "");
        al_findings_note(&one, NULL, row_of(src->bytes, src->len, f->start) + 1, why);
        al_strbuf m = {0};
        al_strbuf_printf(&m, "%s (fix withheld: it would chain into an unsafe %s fix)",
                         f->message, code ? code : "");
        free(f->message);
        f->message = al_strbuf_detach(&m);
    }
    free(excluded);
}

char *al_lint_add_noqa(const al_source *src, const al_lint_options *opt, size_t *added,
                       size_t *out_len)
{
    *added = 0;
    parse_plan plan;
    plan_python(src, opt, false, &plan);
    if (!plan.admitted || src->has_nul || src->bad_utf8)
        return NULL;
    al_findings findings = {0};
    noqa_request req = {NULL, 0};
    bool syntax_error = false;
    char *text = NULL;
    if (run_rules(src, opt, NULL, &findings, &syntax_error, &req, NULL) && !syntax_error &&
        req.count) {
        bool applied;
        al_fix *fixes[1] = {req.fix};
        text = al_fix_apply(src->bytes, src->len, fixes, 1, &applied, out_len);
        if (!applied || al_python_error_count(text, *out_len) != 0) {
            free(text);
            text = NULL;
        } else {
            *added = req.count;
        }
    }
    if (req.fix) {
        al_findings holder = {0};
        al_findings_add(&holder, "AL900", "x", 0, 0, al_xstrdup(""), req.fix);
        al_findings_free(&holder);
    }
    al_findings_free(&findings);
    return text;
}

void al_lint_result_free(al_lint_result *res)
{
    al_findings_free(&res->findings);
    al_findings_free(&res->initial);
    free(res->initial_applied);
    free(res->initial_remaining);
    free_applied(res);
    free(res->applied);
    free(res->fixed);
    memset(res, 0, sizeof *res);
}
