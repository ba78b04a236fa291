#include "rules.h"

#include <string.h>

const al_rule al_rules[] = {
    {"AL101", "zeros-overwritten",
     "`torch.zeros/ones/full` buffer fully overwritten before it is read", true, "safe/unsafe",
     al_rule_al101, false},
    {"AL102", "cpp-zeros-overwritten", "`torch::zeros/ones/full` in C++/CUDA fully written "
     "before it is read", true, "safe/unsafe", al_rule_al102, true},
    {"AL103", "redundant-fill", "a fill the allocation or a later write makes redundant", true, "safe",
     al_rule_al103, false},
    {"AL104", "triton-redundant-store", "redundant zero accumulators and dead stores in Triton "
     "kernels", true, "safe", al_rule_al104, false},
    {"AL201", "cat-with-zeros", "`torch.cat` with a freshly made block of zeros", true, "safe/display",
     al_rule_al201, false},
    {"AL202", "cat-in-loop", "a tensor grown by `torch.cat` inside a loop", true, "unsafe", al_rule_al202, false},
    /* Off by default: GPU evidence shows no gain under PyTorch's caching
     * allocator (rules/AL301.md) or from Triton's own hoisting (AL302). */
    {"AL301", "alloc-in-loop", "a loop-invariant allocation made every iteration", false, "unsafe",
     al_rule_al301, false},
    {"AL302", "triton-loop-invariant", "loop-invariant `tl.arange` inside a kernel loop", false, "safe",
     al_rule_al302, false},
    {"AL401", "inplace-candidate", "`x = x - y` on a fresh local tensor", false, "unsafe", al_rule_al401, false},
    {"AL501", "host-alloc-then-copy", "a tensor made on the host, then moved to the device",
     true, "safe/unsafe", al_rule_al501, false},
    /* Reported by the lint pipeline itself, after suppressions apply. */
    {"AL900", "unused-suppression", "a suppression comment naming an AL code that suppressed "
     "nothing", true, "safe", NULL, false},
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
