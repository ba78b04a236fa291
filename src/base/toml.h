/* Reading TOML with the pinned tree-sitter grammar: the few helpers the
 * op tables and the configuration need. */
#ifndef ALLOCLINT_TOML_H
#define ALLOCLINT_TOML_H

#include "util.h"

#include <stdbool.h>
#include <stddef.h>
#include <tree_sitter/api.h>

typedef struct {
    TSParser *parser;
    TSTree *tree;
    TSNode root;
    const char *text;
    char error[200]; /* after a failed parse: what is wrong, for messages */
} al_toml;

/* Parses text; false with *error_node set at the first syntax error, or
 * at the second definition of a key (TOML forbids it; a reader that kept
 * one of them would disagree with another reader), and doc->error says
 * which. */
bool al_toml_parse(al_toml *doc, const char *text, size_t len, TSNode *error_node);
void al_toml_free(al_toml *doc);

bool al_toml_is(TSNode n, const char *type);
/* A node's text, and a key's dotted text without blanks; caller frees. */
char *al_toml_text(const al_toml *doc, TSNode n);
char *al_toml_key(const al_toml *doc, TSNode key);
/* A one-line string's value, quotes and escapes resolved; NULL otherwise. */
char *al_toml_string(const al_toml *doc, TSNode n);
size_t al_toml_row(TSNode n); /* 1-based */
/* The strings of an array (`["a", "b"]`) added to out; false when value
 * is not an array or holds something else, with *bad that node (out then
 * holds what came before it). */
bool al_toml_strings(const al_toml *doc, TSNode value, al_strlist *out, TSNode *bad);

#endif
