#include "rules.h"

#include "../base/util.h"

#include <stdlib.h>
#include <string.h>

static const char *const FILL_CALLS[] = {"fill_", "zero_", NULL};
static const char *const CAT_CALLS[] = {"cat", "concat", "concatenate", "pad", NULL};
static const char *const MOVE_CALLS[] = {"to", "cuda", NULL};
static const char *const COPY_CALLS[] = {"copy_", NULL};

const al_rule al_rules[] = {
    {"AL101", "zeros-overwritten",
     "`torch.zeros/ones/full` buffer fully overwritten before it is read", true, "safe/unsafe",
     AL_LANG_PYTHON, al_rule_al101, {AL_TOK_FILLSITE}, NULL, {AL_TOK_FILLSITE}, false,
     AL_REMOVES_FACTORY_FILL},
    {"AL102", "cpp-zeros-overwritten",
     "`torch::zeros/ones/full` in C++/CUDA fully written before it is read", true, "safe/unsafe",
     AL_LANG_CXX, al_rule_al102, {AL_TOK_FACTORY}, NULL, {0}, false, AL_REMOVES_FACTORY_FILL},
    {"AL103", "redundant-fill", "a fill the allocation or a later write makes redundant", true,
     "safe", AL_LANG_PYTHON, al_rule_al103, {AL_TOK_FILL, AL_TOK_FACTORY | AL_TOK_MAKER},
     FILL_CALLS, {AL_TOK_FILL}, false, AL_REMOVES_FILL_CALL},
    {"AL104", "triton-redundant-store",
     "redundant zero accumulators and dead stores in Triton kernels", true, "safe",
     AL_LANG_PYTHON, al_rule_al104, {AL_TOK_KERNEL}, NULL, {AL_TOK_KERNEL}, false,
     AL_REMOVES_NOTHING},
    {"AL201", "cat-with-zeros", "`torch.cat` with a freshly made block of zeros", true,
     "safe/unsafe/display", AL_LANG_PYTHON, al_rule_al201,
     {AL_TOK_CAT, AL_TOK_FACTORY | AL_TOK_MAKER | AL_TOK_CUMSUM}, CAT_CALLS,
     {AL_TOK_CAT, AL_TOK_FACTORY | AL_TOK_MAKER | AL_TOK_CUMSUM}, false, AL_REMOVES_CAT},
    {"AL202", "cat-in-loop", "a tensor grown by `torch.cat` inside a loop", true, "unsafe",
     AL_LANG_PYTHON, al_rule_al202, {AL_TOK_LOOPCAT}, NULL, {AL_TOK_LOOPCAT}, false,
     AL_REMOVES_ALL_BUT_ONE},
    {"AL203", "zero-head-copy",
     "a zero-padded copy into a class buffer whose element 0 stays zero", true, "safe/unsafe",
     AL_LANG_PYTHON, al_rule_al203, {AL_TOK_CAT, AL_TOK_FACTORY, AL_TOK_COPY}, COPY_CALLS,
     {AL_TOK_CAT, AL_TOK_COPY}, true, AL_REMOVES_CAT},
    {"AL204", "cat-of-results",
     "`torch.cat` of elementwise results of one tensor, each copied again", true,
     "safe/unsafe", AL_LANG_PYTHON, al_rule_al204, {AL_TOK_CAT, AL_TOK_ELEMWISE}, CAT_CALLS,
     {AL_TOK_CAT, AL_TOK_ELEMWISE}, false, AL_REMOVES_CAT},
    /* Off by default: most of its findings have no fix (the element's
     * shape is not proved), and small lists gain nothing worth the noise;
     * the memory it saves is measured in rules/AL205.md. */
    {"AL205", "list-then-stack",
     "a list of per-iteration tensors stacked after the loop", false, "unsafe/display",
     AL_LANG_PYTHON, al_rule_al205, {AL_TOK_CAT, AL_TOK_LOOPAPPEND}, NULL,
     {AL_TOK_CAT, AL_TOK_LOOPAPPEND},
     false, AL_REMOVES_NOTHING},
    /* Off by default: GPU evidence shows no gain under PyTorch's caching
     * allocator (rules/AL301.md) or from Triton's own hoisting (AL302). */
    {"AL301", "alloc-in-loop", "a loop-invariant allocation made every iteration", false,
     "unsafe", AL_LANG_PYTHON, al_rule_al301, {AL_TOK_LOOPALLOC}, NULL, {AL_TOK_LOOPALLOC},
     false, AL_REMOVES_ALL_BUT_ONE},
    {"AL302", "triton-loop-invariant", "loop-invariant `tl.arange` inside a kernel loop", false,
     "safe", AL_LANG_PYTHON, al_rule_al302, {AL_TOK_KERNEL}, NULL, {AL_TOK_KERNEL}, false,
     AL_REMOVES_NOTHING},
    {"AL303", "fill-loop", "a loop that fills one index of a buffer per iteration", true,
     "safe/unsafe", AL_LANG_PYTHON, al_rule_al303, {AL_TOK_LOOPFILL}, NULL, {AL_TOK_LOOPFILL},
     true, AL_REMOVES_ALL_BUT_ONE},
    {"AL401", "inplace-candidate", "`x = x - y` on a fresh local tensor", false, "unsafe",
     AL_LANG_PYTHON, al_rule_al401, {AL_TOK_REBIND}, NULL, {AL_TOK_REBIND}, false,
     AL_REMOVES_NOTHING},
    {"AL501", "host-alloc-then-copy", "a tensor made on the host, then moved to the device",
     true, "safe/unsafe", AL_LANG_PYTHON, al_rule_al501, {AL_TOK_HOSTMOVE}, MOVE_CALLS,
     {AL_TOK_HOSTMOVE}, false, AL_REMOVES_COPY},
    /* Reported by the lint pipeline itself, after suppressions apply. */
    {"AL900", "unused-suppression",
     "a suppression comment naming an AL code that suppressed nothing", true, "safe",
     AL_LANG_NONE, NULL, {AL_TOK_SUPPRESS}, NULL, {AL_TOK_SUPPRESS}, false, AL_REMOVES_NOTHING},
};

const size_t al_rules_count = sizeof al_rules / sizeof al_rules[0];

/* Generated from rules/AL*.md by cmake/embed.cmake. */
extern const char *const al_builtin_pages_names[];
extern const char *const al_builtin_pages_texts[];
extern const size_t al_builtin_pages_lengths[];
extern const size_t al_builtin_pages_count;

const char *al_rule_page(const char *code, size_t *len)
{
    for (size_t i = 0; i < al_builtin_pages_count; i++)
        if (!strncmp(al_builtin_pages_names[i], code, strlen(code)) &&
            !strcmp(al_builtin_pages_names[i] + strlen(code), ".md")) {
            *len = al_builtin_pages_lengths[i];
            return al_builtin_pages_texts[i];
        }
    return NULL;
}

const al_rule *al_rule_find(const char *code)
{
    for (size_t i = 0; i < al_rules_count; i++)
        if (strcmp(al_rules[i].code, code) == 0)
            return &al_rules[i];
    return NULL;
}

bool al_rules_select(bool *enabled, const char *list, bool value, al_strlist *unknown)
{
    char *copy = al_xstrdup(list);
    bool ok = true;
    char *save = NULL;
    for (char *tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        while (*tok == ' ')
            tok++;
        size_t tl = strlen(tok);
        while (tl && tok[tl - 1] == ' ')
            tok[--tl] = '\0';
        if (!*tok)
            continue;
        bool matched = false;
        for (size_t r = 0; r < al_rules_count; r++) {
            if (strcmp(tok, "ALL") == 0 || al_str_starts_with(al_rules[r].code, tok)) {
                enabled[r] = value;
                matched = true;
            }
        }
        if (!matched) {
            if (unknown)
                al_strlist_add(unknown, al_xstrdup(tok));
            ok = false;
        }
    }
    free(copy);
    return ok;
}
