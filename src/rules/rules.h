/* The rules and their registry. A rule is one C file: it matches the code
 * shapes it is about, asks the analysis core what it needs proved, picks a
 * fix tier, and writes the message and the edits. It does no I/O. To add
 * one: src/rules/alNNN.c, a line in registry.c, rules/ALNNN.md and
 * tests/rules/ALNNN/ (README, "Adding a rule"). */
#ifndef ALLOCLINT_RULES_H
#define ALLOCLINT_RULES_H

#include "../analysis/python/module.h"
#include "../analysis/python/proofs.h"
#include "../analysis/core/ops.h"
#include "../analysis/core/summary.h"
#include "../front/cxx/cxx.h"
#include "../base/finding.h"
#include "../front/prefilter.h"
#include "../base/source.h"
#include "../base/util.h"

#include <stdbool.h>

typedef enum {
    AL_LANG_PYTHON,
    AL_LANG_CXX,
    AL_LANG_NONE, /* reported by the pipeline itself (AL900) */
} al_rule_lang;

typedef struct {
    const al_source *src;   /* the file's bytes, to compose replacement text */
    al_pymodule *py;        /* Python: the analysed module */
    const al_cxx_unit *cxx; /* C++/CUDA: the parsed unit */
    const al_op_table *ops;
    struct al_index *index; /* the repo index (C++ rules; Python ones reach it through py) */
    bool inference;         /* configured: the code runs without autograd */
    /* The running rule's region needs (al_rule.region_needs): its walks
     * may skip a function whose text does not meet them. */
    const unsigned *region_needs;
    /* `alloclint explain` only (NULL in a check): the candidates a rule
     * examined and declined, each with the first thing that failed. */
    al_findings *declined;
} al_rule_input;

/* What a rule's visitor callbacks (al_pymodule_walk) need. */
typedef struct {
    const al_rule_input *in;
    al_findings *out;
} al_rule_visit;

typedef struct {
    const char *code;
    const char *name;
    const char *summary;
    bool default_on;
    const char *fix; /* the tiers its fixes come in */
    al_rule_lang lang;
    void (*run)(const al_rule_input *in, al_findings *out);
    /* The token classes a file must hold for the rule to fire: each entry
     * a set of classes, one of which must be present (all zero: always). */
    unsigned needs[AL_PREFILTER_TERMS];
    /* Callee names whose calls the rule reads from al_pymodule.calls. */
    const char *const *calls;
    /* Python: the token classes the statement holding a finding must hold
     * (same form as needs): a top-level statement, or a statement of a
     * top-level class's body. What a proof reads outside it is
     * module-level code (always parsed), the methods it calls through
     * `self.` (kept with it), a function the repo index resolves, or,
     * for a class_wide rule, every method of the class (the whole class
     * is parsed when one of its statements meets region_needs). */
    unsigned region_needs[AL_PREFILTER_TERMS];
    bool class_wide;
    /* What its fixes take off the GPU, unless a finding says otherwise
     * (al_findings_set_removes): the measured cost's removable part. */
    al_removes removes;
} al_rule;

extern const al_rule al_rules[];
extern const size_t al_rules_count;
#define AL_MAX_RULES 16

const al_rule *al_rule_find(const char *code);
/* Sets enabled[r] = value for the rules a selector list names
 * ("AL101,AL2", "ALL"; comma-separated, blanks ignored). Returns false
 * when a selector names no rule, adding it to unknown (may be NULL); the
 * known ones are applied all the same. */
bool al_rules_select(bool *enabled, const char *list, bool value, al_strlist *unknown);
/* The rule's documentation page (rules/<CODE>.md, embedded at build
 * time), or NULL. */
const char *al_rule_page(const char *code, size_t *len);

/* " (the store on line 8 of `kernels.py`)": which store carried a proof
 * that crossed a call, for the message; nothing when the chain has none.
 * checked is the path of the file being linted. */
void al_rule_store_clause(const al_chain *chain, const char *checked, al_strbuf *sb);
/* Whether an earlier fix of rule `code` in found, at least as safe as
 * `tier`, with its first edit in [from, to) (one function), writes the
 * identifier `name`. A rule choosing a new name skips those: --fix applies
 * that fix in an earlier pass and then picks the next free name, and a
 * report must show the name --fix writes. */
bool al_rule_name_taken(const al_findings *found, const char *code, size_t from, size_t to,
                        const char *name, al_applicability tier);
/* Records, for `explain`, that the rule examined [start, end) and reports
 * nothing there, and why (the first thing that failed); nothing in a
 * check. */
void al_rule_decline(const al_rule_input *in, const char *code, const char *name, size_t start,
                     size_t end, const char *fmt, ...) __attribute__((format(printf, 6, 7)));

void al_rule_al101(const al_rule_input *in, al_findings *out);
void al_rule_al102(const al_rule_input *in, al_findings *out);
void al_rule_al103(const al_rule_input *in, al_findings *out);
void al_rule_al104(const al_rule_input *in, al_findings *out);
void al_rule_al201(const al_rule_input *in, al_findings *out);
void al_rule_al202(const al_rule_input *in, al_findings *out);
void al_rule_al203(const al_rule_input *in, al_findings *out);
void al_rule_al204(const al_rule_input *in, al_findings *out);
void al_rule_al205(const al_rule_input *in, al_findings *out);
/* The elementwise ops AL204 reads (NULL-terminated). */
extern const char *const al_rule_al204_ops[];
void al_rule_al301(const al_rule_input *in, al_findings *out);
void al_rule_al302(const al_rule_input *in, al_findings *out);
void al_rule_al303(const al_rule_input *in, al_findings *out);
void al_rule_al401(const al_rule_input *in, al_findings *out);
void al_rule_al501(const al_rule_input *in, al_findings *out);

#endif
