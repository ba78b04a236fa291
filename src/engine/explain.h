/* Why alloclint says what it says about one line, or nothing: for each
 * allocation on the line, what was proved about it and the first thing
 * that could not be, step by step with lines (callee, store, mask, op
 * contract, alias, escape); then the findings every rule reports there,
 * with their notes. What `alloclint explain PATH:LINE` prints. No I/O. */
#ifndef ALLOCLINT_EXPLAIN_H
#define ALLOCLINT_EXPLAIN_H

#include "lint.h"

#include <stdbool.h>
#include <stddef.h>

typedef struct {
    char *path; /* NULL: the explained file */
    size_t row; /* 1-based; 0: no line */
    char *text;
    bool store; /* the store that carries a full-write proof */
} al_explain_step;

typedef enum {
    AL_EXPLAIN_PROVED,     /* every element written before any read: a safe fix */
    AL_EXPLAIN_LIKELY,     /* handed to a writer whose full write is not proved: unsafe */
    AL_EXPLAIN_NOT_PROVED, /* never fully written on the paths that use it */
    AL_EXPLAIN_BLOCKED,    /* some path needs the initial value, or may */
    AL_EXPLAIN_REPORTED,   /* a finding of a rule (its tier in `fix`) */
    AL_EXPLAIN_DECLINED,   /* a rule examined it and reports nothing: the first thing that failed */
} al_explain_verdict;

typedef struct {
    char *subject; /* "`kv = torch.zeros(...)`" or a rule's code and name */
    const char *code; /* the rule that would report it ("AL101"), static */
    al_explain_verdict verdict;
    char *summary;        /* one sentence: what was proved, or what was not */
    const char *fix;      /* "safe", "unsafe", "display-only", "none" */
    al_explain_step *steps;
    size_t n_steps, cap_steps;
} al_explain_item;

typedef struct {
    al_explain_item *items;
    size_t n, cap;
} al_explanation;

const char *al_explain_verdict_name(al_explain_verdict v);

/* Explains line `line` (1-based) of src under opt (its rules, op tables
 * and repo index). False with *err (caller frees) when the file cannot be
 * analysed (it does not parse, or libclang is not there for C++). */
bool al_explain(const al_source *src, const al_lint_options *opt, size_t line,
                al_explanation *out, char **err);
void al_explanation_free(al_explanation *e);

#endif
