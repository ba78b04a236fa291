/* Control-flow graph of one Python function body, at statement grain.
 * Each node evaluates one piece of syntax (a simple statement, a
 * condition, a loop target, a nested definition); edges follow Python's
 * control flow through if/elif/else, for/while (with break, continue and
 * else), try/except/else/finally, with, match, return and raise. */
#ifndef ALLOCLINT_CFG_H
#define ALLOCLINT_CFG_H

#include <stddef.h>
#include <tree_sitter/api.h>

typedef enum {
    AL_CFG_ENTRY,
    AL_CFG_EXIT,
    AL_CFG_SIMPLE,     /* a simple statement: eval is the statement */
    AL_CFG_COND,       /* a condition, iterable, with item or match subject */
    AL_CFG_FOR_TARGET, /* binds the loop target; ast is the for_statement */
    AL_CFG_EXCEPT,     /* an except clause header */
    AL_CFG_DEF,        /* a nested def/class: names used inside are captured */
    AL_CFG_JOIN,       /* evaluates nothing */
} al_cfg_kind;

typedef struct {
    al_cfg_kind kind;
    TSNode eval; /* syntax evaluated here (null for ENTRY/EXIT/JOIN) */
    TSNode ast;  /* the statement this node belongs to */
    int *succ;
    size_t n_succ, cap_succ;
} al_cfg_node;

typedef struct {
    al_cfg_node *nodes;
    size_t n, cap;
    int entry, exit;
} al_cfg;

/* Builds the graph of `body` (a block). Never fails short of memory. */
void al_cfg_build(al_cfg *cfg, TSNode body);
void al_cfg_free(al_cfg *cfg);

#endif
