/* The rule registry.  A rule reads facts and appends findings; it does no
 * I/O and never sees the syntax tree. */
#ifndef ALLOCLINT_RULES_H
#define ALLOCLINT_RULES_H

#include "../cxx/cxx.h"
#include "../facts.h"
#include "../finding.h"

#include <stdbool.h>

typedef struct {
    const char *source; /* file bytes, for composing replacement text */
    size_t len;
    const al_facts *facts;   /* Python files */
    const al_cxx_facts *cxx; /* C++/CUDA files (rules that read it ignore facts) */
} al_rule_input;

typedef struct {
    const char *code;
    const char *name;
    const char *summary;
    bool default_on;
    const char *fix; /* the tiers its fixes come in */
    void (*run)(const al_rule_input *in, al_findings *out);
    bool cxx; /* runs on C++/CUDA files, not Python */
} al_rule;

extern const al_rule al_rules[];
extern const size_t al_rules_count;

const al_rule *al_rule_find(const char *code);
/* The rule's documentation page (rules/<CODE>.md, embedded at build
 * time), or NULL. */
const char *al_rule_page(const char *code, size_t *len);

void al_rule_al101(const al_rule_input *in, al_findings *out);
void al_rule_al102(const al_rule_input *in, al_findings *out);
void al_rule_al103(const al_rule_input *in, al_findings *out);
void al_rule_al104(const al_rule_input *in, al_findings *out);
void al_rule_al201(const al_rule_input *in, al_findings *out);
void al_rule_al202(const al_rule_input *in, al_findings *out);
void al_rule_al301(const al_rule_input *in, al_findings *out);
void al_rule_al302(const al_rule_input *in, al_findings *out);
void al_rule_al401(const al_rule_input *in, al_findings *out);
void al_rule_al501(const al_rule_input *in, al_findings *out);

#endif
