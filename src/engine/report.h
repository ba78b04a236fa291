/* Writing findings: text (with a source excerpt), concise, and JSON. */
#ifndef ALLOCLINT_REPORT_H
#define ALLOCLINT_REPORT_H

#include "../base/finding.h"
#include "../base/source.h"
#include "../base/util.h"

#include <stdbool.h>
#include <stdio.h>

typedef enum {
    AL_FORMAT_TEXT,
    AL_FORMAT_CONCISE,
    AL_FORMAT_JSON,
    AL_FORMAT_JSON_LINES,
    AL_FORMAT_GITHUB, /* GitHub Actions workflow commands */
    AL_FORMAT_SARIF,  /* SARIF 2.1.0, fixes included */
} al_format;

/* What SARIF says about each rule. */
typedef struct {
    const char *code, *name, *summary;
    bool default_on;
} al_report_rule;

typedef struct {
    al_format format;
    bool show_fix_marks; /* [*] for fixes that --fix would apply */
    bool unsafe_fixes;   /* unsafe fixes count as applicable */
    bool statistics;     /* a count per rule instead of the findings */
    bool color;          /* ANSI colour (a TTY without NO_COLOR) */
    const al_report_rule *rules; /* every rule, for SARIF's driver */
    size_t n_rules;
    bool profiled;     /* a profile was given: findings may carry al_cost */
    bool sort_by_cost; /* the costliest first (else in file order) */
} al_report_options;

typedef struct al_report al_report;

al_report *al_report_new(const al_report_options *opt);
/* Adds a file's findings; src holds the text their offsets refer to. */
void al_report_add(al_report *r, const al_source *src, const al_findings *findings);
/* A fix --fix applied (JSON and JSON lines list it, `"applied": true`,
 * `"after_earlier_fix"` when found only in text an earlier fix wrote;
 * the other formats do not). start: the finding's offset in src, the file
 * as it was; SIZE_MAX when it was found in text a fix wrote (no location). */
void al_report_add_applied(al_report *r, const al_source *src, size_t start, const char *code,
                           const char *name, al_applicability tier, bool revealed,
                           const char *message, const char *fix_message);
/* Writes the whole report; returns false when writing failed. */
bool al_report_write(al_report *r, FILE *out);
size_t al_report_count(const al_report *r);
size_t al_report_fixable(const al_report *r, bool unsafe);
void al_report_free(al_report *r);

#endif
