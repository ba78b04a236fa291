/* The edit applier and the fix loop: overlaps, byte preservation,
 * idempotence and the re-parse guard. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <stdlib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/chain.h"
#include "engine/fix.h"
#include "engine/lint.h"
#include "engine/wrap.h"
#include "rules/rules.h"

static al_fix *fix1(size_t s, size_t e, const char *text)
{
    al_fix *f = al_fix_new(AL_FIX_SAFE, "m");
    al_fix_add_edit(f, s, e, text);
    return f;
}

static void free_fix(al_fix *f)
{
    al_findings list = {0};
    al_findings_add(&list, "AL101", "x", 0, 0, strdup("m"), f);
    al_findings_free(&list);
}

static void applies_in_order(void **state)
{
    (void)state;
    const char *src = "a = zeros(1)\nb = zeros(2)\n";
    al_fix *fixes[2] = {fix1(4, 9, "empty"), fix1(17, 22, "empty")};
    bool applied[2];
    size_t len;
    char *out = al_fix_apply(src, strlen(src), fixes, 2, applied, &len);
    assert_string_equal(out, "a = empty(1)\nb = empty(2)\n");
    assert_true(applied[0] && applied[1]);
    assert_int_equal(len, strlen(out));
    free(out);
    free_fix(fixes[0]);
    free_fix(fixes[1]);
}

static void overlapping_fix_is_skipped(void **state)
{
    (void)state;
    const char *src = "abcdef";
    al_fix *fixes[2] = {fix1(1, 4, "X"), fix1(3, 5, "Y")};
    bool applied[2];
    size_t len;
    char *out = al_fix_apply(src, 6, fixes, 2, applied, &len);
    assert_string_equal(out, "aXef");
    assert_true(applied[0]);
    assert_false(applied[1]);
    free(out);
    free_fix(fixes[0]);
    free_fix(fixes[1]);
}

/* Two fixes whose proofs read the same bytes go in different passes. */
static void fixes_with_meeting_scopes_are_not_applied_together(void **state)
{
    (void)state;
    const char *src = "def f():\n    a = zeros(1)\n    a.zero_()\ndef g():\n    b = zeros(2)\n";
    al_fix *fixes[3] = {fix1(17, 22, "empty"), fix1(30, 40, ""), fix1(57, 62, "empty")};
    fixes[0]->scope_start = fixes[1]->scope_start = 0;
    fixes[0]->scope_end = fixes[1]->scope_end = 40;
    fixes[2]->scope_start = 40;
    fixes[2]->scope_end = 66;
    bool applied[3];
    size_t len;
    char *out = al_fix_apply(src, strlen(src), fixes, 3, applied, &len);
    assert_string_equal(out, "def f():\n    a = empty(1)\n    a.zero_()\ndef g():\n    b = empty(2)\n");
    assert_true(applied[0]);
    assert_false(applied[1]);
    assert_true(applied[2]);
    free(out);
    /* A fix without a scope conflicts through its edits. */
    al_fix *lone = fix1(35, 36, "A");
    al_fix *both[2] = {fixes[0], lone};
    out = al_fix_apply(src, strlen(src), both, 2, applied, &len);
    assert_true(applied[0]);
    assert_false(applied[1]);
    free(out);
    for (int i = 0; i < 3; i++)
        free_fix(fixes[i]);
    free_fix(lone);
}

/* The defect of issue 12: zeros -> empty and dropping the "redundant"
 * fill are each right, and together return uninitialised memory. */
static void fix_loop_proves_each_fix_after_the_others(void **state);

static void adjacent_edits_both_apply(void **state)
{
    (void)state;
    const char *src = "abcdef";
    al_fix *fixes[2] = {fix1(0, 2, "X"), fix1(2, 4, "Y")};
    bool applied[2];
    size_t len;
    char *out = al_fix_apply(src, 6, fixes, 2, applied, &len);
    assert_string_equal(out, "XYef");
    free(out);
    free_fix(fixes[0]);
    free_fix(fixes[1]);
}

static void same_insertion_point_conflicts(void **state)
{
    (void)state;
    al_fix *fixes[2] = {fix1(2, 2, "X"), fix1(2, 2, "Y")};
    bool applied[2];
    size_t len;
    char *out = al_fix_apply("abcd", 4, fixes, 2, applied, &len);
    assert_string_equal(out, "abXcd");
    assert_false(applied[1]);
    free(out);
    free_fix(fixes[0]);
    free_fix(fixes[1]);
}

static void fix_is_all_or_nothing(void **state)
{
    (void)state;
    /* The second fix has one good edit and one that collides: none of it. */
    al_fix *a = fix1(0, 1, "A");
    al_fix *b = fix1(3, 4, "B");
    al_fix_add_edit(b, 0, 1, "C");
    al_fix *fixes[2] = {a, b};
    bool applied[2];
    size_t len;
    char *out = al_fix_apply("wxyz", 4, fixes, 2, applied, &len);
    assert_string_equal(out, "Axyz");
    free(out);
    free_fix(a);
    free_fix(b);
}

static void out_of_range_edit_is_rejected(void **state)
{
    (void)state;
    al_fix *fixes[1] = {fix1(2, 99, "X")};
    bool applied[1];
    size_t len;
    char *out = al_fix_apply("abc", 3, fixes, 1, applied, &len);
    assert_string_equal(out, "abc");
    assert_false(applied[0]);
    free(out);
    free_fix(fixes[0]);
}

static al_op_table ops;

static int load_ops(void **state)
{
    (void)state;
    al_ops_error err;
    return al_ops_load_builtin(&ops, &err) ? 0 : -1;
}

static int free_ops(void **state)
{
    (void)state;
    al_ops_free(&ops);
    return 0;
}

static void lint_text_with(const char *text, size_t len, bool fix, bool all_rules,
                           al_lint_result *res)
{
    al_source src;
    al_source_from_memory(&src, "m.py", text, len);
    al_lint_options opt;
    memset(&opt, 0, sizeof opt);
    for (size_t r = 0; r < al_rules_count; r++)
        opt.enabled[r] = all_rules || al_rules[r].default_on;
    opt.ops = &ops;
    opt.apply_safe = fix;
    al_lint(&src, &opt, res);
    al_source_free(&src);
}

static void lint_text(const char *text, size_t len, bool fix, al_lint_result *res)
{
    lint_text_with(text, len, fix, true, res);
}


/* Regions of text a first-pass fix wrote follow the later passes' edits;
 * a later fix meets the region it edits, and an untouched anchor finds
 * the same fix offered again. */
static int any_rule(size_t origin, const al_fix *fix, bool swallowed, void *arg)
{
    (void)origin, (void)fix, (void)swallowed, (void)arg;
    return 1;
}

static int no_rule(size_t origin, const al_fix *fix, bool swallowed, void *arg)
{
    (void)origin, (void)fix, (void)swallowed, (void)arg;
    return 0;
}

/* Origin 1's edit text is "B": that candidate is sure, the others only
 * plausible. */
static int edit_b(size_t origin, const al_fix *fix, bool swallowed, void *arg)
{
    (void)swallowed, (void)arg;
    return origin == 1 && !strcmp(fix->edits[0].content, "B") ? 2 : 1;
}

/* Two first-pass fixes that each rewrite the same whole line (a wrapped
 * call): anchors of one span, told apart by their edit; an anchor inside
 * a fix that rewrote its line is swallowed and found around its new text;
 * two of equal score are a guess and give none. */
static void anchors_of_one_span_and_swallowed(void **state)
{
    (void)state;
    al_chain_regions anchors = {0};
    al_chain_region a0 = {10, 20, 0, false}, a1 = {10, 20, 1, false};
    AL_PUSH(anchors.items, anchors.n, anchors.cap, a0);
    AL_PUSH(anchors.items, anchors.n, anchors.cap, a1);
    al_fix *b = al_fix_new(AL_FIX_UNSAFE, "b");
    al_fix_add_edit(b, 10, 20, "B");
    assert_int_equal(al_chain_anchor(&anchors, b, edit_b, NULL), 1);
    assert_int_equal(al_chain_anchor(&anchors, b, any_rule, NULL), AL_CHAIN_NONE);
    /* a fix rewrites [5, 25) into 30 bytes: both anchors are swallowed */
    al_fix *wide = al_fix_new(AL_FIX_UNSAFE, "w");
    al_fix_add_edit(wide, 5, 25, "012345678901234567890123456789");
    bool yes = true;
    al_chain_move(&anchors, &wide, &yes, 1);
    assert_true(anchors.items[0].swallowed && anchors.items[1].swallowed);
    assert_int_equal(anchors.items[0].start, 5);
    assert_int_equal(anchors.items[0].end, 35);
    al_fix *inside = al_fix_new(AL_FIX_UNSAFE, "i");
    al_fix_add_edit(inside, 12, 14, "B");
    assert_int_equal(al_chain_anchor(&anchors, inside, any_rule, NULL), AL_CHAIN_NONE);
    assert_int_equal(al_chain_anchor(&anchors, inside, edit_b, NULL), 1);
    al_fix *outside = al_fix_new(AL_FIX_UNSAFE, "o");
    al_fix_add_edit(outside, 40, 41, "B");
    assert_int_equal(al_chain_anchor(&anchors, outside, edit_b, NULL), AL_CHAIN_NONE);
    free_fix(b);
    free_fix(wide);
    free_fix(inside);
    free_fix(outside);
    al_chain_regions_free(&anchors);
}

static void chain_regions_follow_the_passes(void **state)
{
    (void)state;
    /* pass 0: "abcdef" -> "aXYZcdef" (b -> XYZ, finding 4) */
    al_fix *f0 = al_fix_new(AL_FIX_SAFE, "b");
    al_fix_add_edit(f0, 1, 2, "XYZ");
    al_chain_regions regions = {0}, anchors = {0};
    bool yes = true;
    size_t origin = 4;
    al_chain_advance(&regions, &f0, &yes, &origin, 1);
    assert_int_equal(regions.n, 1);
    assert_int_equal(regions.items[0].start, 1);
    assert_int_equal(regions.items[0].end, 4);
    al_chain_region anchor = {5, 6, 7, false}; /* 'd' in the new text, finding 7 */
    AL_PUSH(anchors.items, anchors.n, anchors.cap, anchor);
    /* pass 1 deletes "a" (no origin): both move one byte left */
    al_fix *f1 = al_fix_new(AL_FIX_SAFE, "a");
    al_fix_add_edit(f1, 0, 1, "");
    size_t none = AL_CHAIN_NONE;
    al_chain_advance(&regions, &f1, &yes, &none, 1);
    al_chain_move(&anchors, &f1, &yes, 1);
    assert_int_equal(regions.n, 1);
    assert_int_equal(regions.items[0].start, 0);
    assert_int_equal(regions.items[0].end, 3);
    /* an unsafe edit of "Y" meets finding 4's text; one of "c" does not */
    al_fix *f2 = al_fix_new(AL_FIX_UNSAFE, "y");
    al_fix_add_edit(f2, 1, 2, "y");
    assert_int_equal(al_chain_origin(&regions, f2), 4);
    al_fix *f3 = al_fix_new(AL_FIX_UNSAFE, "c");
    al_fix_add_edit(f3, 3, 4, "C");
    assert_int_equal(al_chain_origin(&regions, f3), AL_CHAIN_NONE);
    al_fix *f4 = al_fix_new(AL_FIX_SAFE, "d");
    al_fix_add_edit(f4, 4, 5, "D");
    assert_int_equal(al_chain_anchor(&anchors, f4, any_rule, NULL), 7);
    assert_int_equal(al_chain_anchor(&anchors, f3, any_rule, NULL), AL_CHAIN_NONE);
    assert_int_equal(al_chain_anchor(&anchors, f4, no_rule, NULL), AL_CHAIN_NONE);
    free_fix(f0);
    free_fix(f1);
    free_fix(f2);
    free_fix(f3);
    free_fix(f4);
    al_chain_regions_free(&regions);
    al_chain_regions_free(&anchors);
}

/* `empty_like` + `fill_(0)` merged into `zeros_like` (AL103, safe), then
 * `zeros_like` -> `empty_like` (AL101, unsafe: the kernel's bound is not
 * the buffer's size): with --unsafe-fixes the merge is withheld and says
 * why, so the net patch never drops the fill unreported; without, the
 * merge stands. */
static const char CHAIN[] =
    "import torch\nimport triton\nimport triton.language as tl\n\n\n"
    "@triton.jit\ndef _k(out_ptr, n, BLOCK: tl.constexpr):\n"
    "    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)\n"
    "    tl.store(out_ptr + offs, 1.0, mask=offs < n)\n\n\n"
    "def f(x, n):\n    out = torch.empty_like(x)\n    out.fill_(0)\n"
    "    _k[(triton.cdiv(n, 128),)](out, n, BLOCK=128)\n    return out\n";

static void unsafe_fix_does_not_chain_on_a_fix(void **state)
{
    (void)state;
    al_source src;
    al_source_from_memory(&src, "m.py", CHAIN, sizeof CHAIN - 1);
    al_lint_options opt;
    memset(&opt, 0, sizeof opt);
    for (size_t r = 0; r < al_rules_count; r++)
        opt.enabled[r] = true;
    opt.ops = &ops;
    opt.apply_safe = true;
    opt.apply_unsafe = true;
    al_lint_result res;
    al_lint(&src, &opt, &res);
    assert_null(res.fixed);
    assert_int_equal(res.n_fixed, 0);
    assert_int_equal(res.findings.n, 1);
    assert_string_equal(res.findings.items[0].code, "AL103");
    const al_finding *f = &res.findings.items[0];
    assert_true(f->n_notes >= 1);
    assert_non_null(strstr(f->notes[f->n_notes - 1].message, "unsafe AL101 fix"));
    al_lint_result_free(&res);
    opt.apply_unsafe = false;
    al_lint(&src, &opt, &res);
    assert_non_null(res.fixed);
    assert_non_null(strstr(res.fixed, "out = torch.zeros_like(x)\n"));
    assert_int_equal(res.n_fixed, 1);
    al_lint_result_free(&res);
    al_source_free(&src);
}

static const char CRLF_BOM[] = "\xEF\xBB\xBFimport torch\r\n\r\ndef f(x):\r\n"
                               "\tbuf = torch.zeros(x.shape)  \t# keep\r\n"
                               "\tbuf.copy_(x)\r\n\treturn buf";

static void crlf_bom_tabs_survive_and_fix_is_idempotent(void **state)
{
    (void)state;
    al_lint_result res;
    lint_text(CRLF_BOM, sizeof CRLF_BOM - 1, true, &res);
    assert_non_null(res.fixed);
    assert_int_equal(res.n_fixed, 1);
    const char *want = "\xEF\xBB\xBFimport torch\r\n\r\ndef f(x):\r\n"
                       "\tbuf = torch.empty(x.shape)  \t# keep\r\n"
                       "\tbuf.copy_(x)\r\n\treturn buf";
    assert_int_equal(res.fixed_len, strlen(want));
    assert_memory_equal(res.fixed, want, res.fixed_len);
    assert_int_equal(res.findings.n, 0);

    al_lint_result again;
    lint_text(res.fixed, res.fixed_len, true, &again);
    assert_null(again.fixed);
    assert_int_equal(again.findings.n, 0);
    al_lint_result_free(&again);
    al_lint_result_free(&res);
}

static void fix_loop_proves_each_fix_after_the_others(void **state)
{
    (void)state;
    const char *text = "import torch\n\n\ndef reset(n):\n    buf = torch.zeros(n)\n"
                       "    buf.zero_()\n    return buf\n\n\ndef pad_to(x, n):\n"
                       "    buf = torch.zeros(n, dtype=x.dtype)\n    buf.fill_(0)\n"
                       "    buf[: x.numel()] = x\n    return buf\n";
    al_lint_result res;
    lint_text(text, strlen(text), true, &res);
    assert_non_null(res.fixed);
    /* Whatever went in, each buffer is still zero where it is read: the
     * whole of reset's, and pad_to's past the written prefix, which the
     * last pass zeroes alone. */
    assert_non_null(strstr(res.fixed, "buf = torch.zeros(n)\n    return buf"));
    assert_non_null(strstr(res.fixed, "buf = torch.empty(n, dtype=x.dtype)\n"
                                      "    buf[: x.numel()] = x\n"
                                      "    buf[x.numel():].zero_()\n    return buf\n"));
    assert_null(strstr(res.fixed, "fill_"));
    assert_int_equal(strstr(res.fixed, "empty") - res.fixed,
                     strstr(res.fixed, "torch.empty(n, dtype") + 6 - res.fixed);
    assert_int_equal(res.fix_unconverged, 0);
    al_lint_result_free(&res);
}

static void syntax_error_file_is_not_fixed(void **state)
{
    (void)state;
    const char *text = "import torch\ndef f(x):\n    b = torch.zeros(3)\n    b.copy_(x)\n"
                       "    return b\ndef g(:\n";
    al_lint_result res;
    lint_text(text, strlen(text), true, &res);
    assert_null(res.fixed);
    assert_true(res.syntax_error);
    assert_int_equal(res.findings.n, 1);
    assert_int_equal(res.findings.items[0].fix->applicability, AL_FIX_DISPLAY_ONLY);
    al_lint_result_free(&res);
}

/* Errors withhold fixes only: a file whose findings offer none is not
 * parsed past them, and its findings stand as the sound part found them.
 * A fix among them brings the rest's parse, and its errors, back. */
static void syntax_error_matters_only_to_fixes(void **state)
{
    (void)state;
    const char *text = "import torch\n"
                       "def f(experts, n):\n"
                       "    ws = []\n"
                       "    for e in range(n):\n"
                       "        w = experts[e].weight.float().t()\n"
                       "        ws.append(w)\n"
                       "    return torch.stack(ws)\n"
                       "def g(:\n";
    al_lint_result res;
    lint_text(text, strlen(text), false, &res);
    assert_false(res.syntax_error);
    assert_int_equal(res.findings.n, 1);
    assert_string_equal(res.findings.items[0].code, "AL205");
    assert_null(res.findings.items[0].fix);
    assert_false(al_findings_any_fix(&res.findings));
    al_lint_result_free(&res);
    const char *with_fix = "import torch\n"
                           "def f(x):\n"
                           "    b = torch.zeros(3)\n"
                           "    b.copy_(x)\n"
                           "    return b\n"
                           "def g(:\n";
    lint_text(with_fix, strlen(with_fix), false, &res);
    assert_true(res.syntax_error);
    assert_true(al_findings_any_fix(&res.findings));
    assert_int_equal(res.findings.items[0].fix->applicability, AL_FIX_DISPLAY_ONLY);
    al_lint_result_free(&res);
}

static void nul_byte_file_is_not_fixed(void **state)
{
    (void)state;
    const char text[] = "import torch\ndef f(x):\n    b = torch.zeros(3)\n    b.copy_(x)\n"
                        "    return b\n# \0\n";
    al_lint_result res;
    lint_text(text, sizeof text - 1, true, &res);
    assert_null(res.fixed);
    al_lint_result_free(&res);
}

static void prefilter_skips_files_without_factories(void **state)
{
    (void)state;
    /* No call a default rule looks at: nothing is parsed. */
    const char *text = "import torch\ndef f(x):\n    return torch.relu(x) + 1\n";
    al_lint_result res;
    lint_text_with(text, strlen(text), false, false, &res);
    assert_true(res.skipped_by_prefilter);
    assert_int_equal(res.findings.n, 0);
    al_lint_result_free(&res);
    /* A random factory moved to the device must be parsed (AL501). */
    const char *moved = "import torch\ndef f():\n    return torch.randn(4).cuda()\n";
    lint_text_with(moved, strlen(moved), false, false, &res);
    assert_false(res.skipped_by_prefilter);
    assert_int_equal(res.findings.n, 1);
    al_lint_result_free(&res);
    /* AL401 (off by default) needs a name rebound from itself: selected,
     * a file without one is still skipped, one with it is parsed. */
    lint_text_with(text, strlen(text), false, true, &res);
    assert_true(res.skipped_by_prefilter);
    al_lint_result_free(&res);
    const char *rebound = "import torch\ndef f(x):\n    y = x * 2\n    y = y - x\n    return y\n";
    lint_text_with(rebound, strlen(rebound), false, true, &res);
    assert_false(res.skipped_by_prefilter);
    al_lint_result_free(&res);
}

/* What the fix makes of src, applied alone. */
static char *fixed_by(const char *src, al_fix *f)
{
    bool applied = false;
    size_t n;
    al_fix *const list[1] = {f};
    return al_fix_apply(src, strlen(src), list, 1, &applied, &n);
}

static void wrap_leaves_short_lines(void **state)
{
    (void)state;
    const char *src = "def f(n, d):\n    return torch.zeros(n).to(d)\n";
    al_fix *f = fix1(37, 44, "");
    al_fix_add_edit(f, 35, 35, ", device=d");
    assert_false(al_wrap_fix(src, strlen(src), f, 40));
    assert_int_equal(f->n_edits, 2);
    free_fix(f);
}

/* The call broken inside its brackets, the trailing comment on its first
 * line; with nl the file's line ending, which every new line keeps. */
static void broken_call_case(const char *nl)
{
    char src[200], want[300];
    snprintf(src, sizeof src,
             "def f(num_tokens, device):%s"
             "    pos = torch.arange(num_tokens, dtype=torch.int64).to(device)  # why%s", nl, nl);
    snprintf(want, sizeof want,
             "def f(num_tokens, device):%s    pos = torch.arange(  # why%s"
             "        num_tokens, dtype=torch.int64, device=device%s    )%s", nl, nl, nl, nl);
    size_t at = strstr(src, ".to(") - src;
    al_fix *f = fix1(at, at + strlen(".to(device)"), "");
    al_fix_add_edit(f, at - 1, at - 1, ", device=device");
    assert_true(al_wrap_fix(src, strlen(src), f, 60));
    char *out = fixed_by(src, f);
    assert_string_equal(out, want);
    free(out);
    free_fix(f);
}

static void wrap_breaks_inside_the_call(void **state)
{
    (void)state;
    broken_call_case("\n");
}

/* A CRLF file's broken line is CRLF line by line: no bare \n appears. */
static void wrap_keeps_crlf(void **state)
{
    (void)state;
    broken_call_case("\r\n");
}

static void wrap_puts_one_item_a_line(void **state)
{
    (void)state;
    const char *src = "    x = 1\n";
    al_fix *f = fix1(4, 9, "starts = torch.empty(lens.shape[0] + 1, dtype=torch.int32, "
                           "device=lens.device)");
    assert_true(al_wrap_fix(src, strlen(src), f, 40));
    char *out = fixed_by(src, f);
    assert_string_equal(out, "    starts = torch.empty(\n"
                             "        lens.shape[0] + 1,\n"
                             "        dtype=torch.int32,\n"
                             "        device=lens.device\n"
                             "    )\n");
    free(out);
    free_fix(f);
}

static void wrap_skips_strings_and_untouched_lines(void **state)
{
    (void)state;
    /* The bracket inside the string is not one; the long line above the
     * edit is the project's own. */
    const char *src = "    s = 'a very long string with a ( in it that goes on and on'\n"
                      "    y = f(x)\n";
    size_t at = strstr(src, "f(x)") - src;
    al_fix *f = fix1(at, at + 4, "g(x, 'one ( two', another_argument_name)");
    assert_true(al_wrap_fix(src, strlen(src), f, 30));
    char *out = fixed_by(src, f);
    assert_string_equal(out, "    s = 'a very long string with a ( in it that goes on and on'\n"
                             "    y = g(\n"
                             "        x,\n"
                             "        'one ( two',\n"
                             "        another_argument_name\n"
                             "    )\n");
    free(out);
    free_fix(f);
}

static void wrap_gives_up_without_brackets(void **state)
{
    (void)state;
    const char *src = "    y = 1\n";
    al_fix *f = fix1(8, 9, "first_long_name + second_long_name + third_long_name");
    assert_false(al_wrap_fix(src, strlen(src), f, 30));
    free_fix(f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(applies_in_order),
        cmocka_unit_test(overlapping_fix_is_skipped),
        cmocka_unit_test(fixes_with_meeting_scopes_are_not_applied_together),
        cmocka_unit_test(fix_loop_proves_each_fix_after_the_others),
        cmocka_unit_test(chain_regions_follow_the_passes),
        cmocka_unit_test(anchors_of_one_span_and_swallowed),
        cmocka_unit_test(unsafe_fix_does_not_chain_on_a_fix),
        cmocka_unit_test(adjacent_edits_both_apply),
        cmocka_unit_test(same_insertion_point_conflicts),
        cmocka_unit_test(fix_is_all_or_nothing),
        cmocka_unit_test(out_of_range_edit_is_rejected),
        cmocka_unit_test(crlf_bom_tabs_survive_and_fix_is_idempotent),
        cmocka_unit_test(syntax_error_file_is_not_fixed),
        cmocka_unit_test(syntax_error_matters_only_to_fixes),
        cmocka_unit_test(nul_byte_file_is_not_fixed),
        cmocka_unit_test(prefilter_skips_files_without_factories),
        cmocka_unit_test(wrap_leaves_short_lines),
        cmocka_unit_test(wrap_breaks_inside_the_call),
        cmocka_unit_test(wrap_keeps_crlf),
        cmocka_unit_test(wrap_puts_one_item_a_line),
        cmocka_unit_test(wrap_skips_strings_and_untouched_lines),
        cmocka_unit_test(wrap_gives_up_without_brackets),
    };
    return cmocka_run_group_tests(tests, load_ops, free_ops);
}
