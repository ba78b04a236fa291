/* One file through the pipeline: prefilter, parse, facts, rules, and the
 * fix loop with its re-parse check. No output, no writing. */
#ifndef ALLOCLINT_LINT_H
#define ALLOCLINT_LINT_H

#include "../front/cxx/compdb.h"
#include "../front/cxx/cxx.h"
#include "../base/finding.h"
#include "../analysis/core/ops.h"
#include "../rules/rules.h"
#include "../base/source.h"

#include <stdbool.h>

typedef struct {
    bool enabled[AL_MAX_RULES]; /* indexed like al_rules */
    const al_op_table *ops;
    bool apply_safe;   /* --fix or --diff */
    bool apply_unsafe; /* --unsafe-fixes */
    const char *const *cxx_args; /* extra clang arguments for C++/CUDA files */
    int n_cxx_args;
    const al_compdb *compdb; /* compile_commands.json, or NULL */
    struct al_index *index;  /* the repo index, shared by every file of a run; NULL: calls
                              * are not followed */
    const char *cwd;         /* notes' paths are shown relative to it (may be NULL) */
    bool no_prefilter;       /* parse every file whole (--no-prefilter) */
    bool inference;          /* the configuration says no autograd runs */
    size_t line_length;      /* what fixes keep their lines to; 0: the file's longest line */
    al_findings *declined;   /* explain: where rules looked and reported nothing, and why */
} al_lint_options;

/* A fix --fix applied: its rule, tier, whether it was found only in text
 * an earlier fix wrote (not in the file as it was), and the finding's and
 * the fix's messages. */
typedef struct {
    const char *code;
    al_applicability tier;
    bool revealed;
    size_t start; /* the finding's offset in the file as it was; SIZE_MAX: found in
                   * text an earlier pass wrote */
    char *message, *fix_message;
} al_applied_fix;

typedef struct {
    al_findings findings; /* remaining, positions in `fixed` when fixed */
    al_findings initial;  /* the first run's findings, when fixes were applied */
    bool *initial_applied; /* per initial finding: its fix was applied */
    bool *initial_remaining; /* per initial finding: the fixed text still has it */
    char *fixed;          /* new bytes when fixes were applied, else NULL */
    size_t fixed_len;
    size_t n_fixed;
    al_applied_fix *applied; /* each fix applied, over every pass */
    size_t n_applied, cap_applied;
    bool parse_failed;
    bool syntax_error;      /* analysed, but no fix may touch the file */
    bool fix_reverted;      /* a fix made the parse worse and was dropped */
    size_t fix_unconverged; /* fixes still wanted after AL_LINT_MAX_PASSES passes */
    bool skipped_by_prefilter;
    bool cxx_unavailable; /* a C++/CUDA file, and libclang is not built in or will not load */
} al_lint_result;

/* Passes of the fix loop before it gives up on a file (ruff's bound). */
#define AL_LINT_MAX_PASSES 100

void al_lint(const al_source *src, const al_lint_options *opt, al_lint_result *res);
void al_lint_result_free(al_lint_result *res);
/* The file with `# noqa: CODE` added on every line that has findings, or
 * NULL when nothing is added (or the file cannot take it safely). */
char *al_lint_add_noqa(const al_source *src, const al_lint_options *opt, size_t *added,
                       size_t *out_len);
/* A C++/CUDA file parsed as the C++ rules see it: its compile_commands.json
 * flags, then the extra arguments. False (unit freed) when libclang
 * cannot parse it. */
bool al_lint_parse_cxx(const al_source *src, const al_lint_options *opt, al_cxx_unit *unit);
/* Whether a fix of this tier is applied under these options. */
bool al_lint_fix_wanted(const al_lint_options *opt, const al_fix *fix);

#endif
