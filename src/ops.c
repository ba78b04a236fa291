#include "ops.h"

#include "util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <tree_sitter/api.h>

const TSLanguage *tree_sitter_toml(void);

/* Generated from the TOML files in rules/ops/ by cmake/embed.cmake. */
extern const char *const al_builtin_ops_names[];
extern const char *const al_builtin_ops_texts[];
extern const size_t al_builtin_ops_lengths[];
extern const size_t al_builtin_ops_count;

static bool node_is(TSNode n, const char *type)
{
    return !ts_node_is_null(n) && strcmp(ts_node_type(n), type) == 0;
}

static char *node_text(const char *text, TSNode n)
{
    uint32_t s = ts_node_start_byte(n), e = ts_node_end_byte(n);
    return al_xstrndup(text + s, e - s);
}

/* The value of a TOML string node, quotes removed and the common escapes
 * resolved; NULL for multi-line or unusual forms. */
static char *string_value(const char *text, TSNode n)
{
    char *raw = node_text(text, n);
    size_t len = strlen(raw);
    char *out = NULL;
    if (len >= 2 && raw[0] == '\'' && raw[len - 1] == '\'' &&
        !(len >= 6 && strncmp(raw, "'''", 3) == 0)) {
        out = al_xstrndup(raw + 1, len - 2);
    } else if (len >= 2 && raw[0] == '"' && raw[len - 1] == '"' &&
               !(len >= 6 && strncmp(raw, "\"\"\"", 3) == 0)) {
        out = al_xmalloc(len);
        size_t k = 0;
        for (size_t i = 1; i + 1 < len; i++) {
            if (raw[i] == '\\' && i + 2 < len) {
                char c = raw[++i];
                out[k++] = c == 'n' ? '\n' : c == 't' ? '\t' : c;
            } else {
                out[k++] = raw[i];
            }
        }
        out[k] = '\0';
    }
    free(raw);
    return out;
}

static void set_error(al_ops_error *err, const char *origin, TSNode n,
                      const char *fmt, const char *detail)
{
    char msg[256];
    snprintf(msg, sizeof msg, fmt, detail);
    snprintf(err->message, sizeof err->message, "%s:%u: %s", origin,
             ts_node_start_point(n).row + 1, msg);
}

static bool read_op(al_op_table *table, const char *text, TSNode element,
                    const char *origin, al_ops_error *err)
{
    al_op_summary op = {.name = NULL, .out_keyword = NULL, .out_position = -1,
                        .full_write = false, .origin = al_xstrdup(origin)};
    bool have_out = false, have_full = false, ok = true;
    uint32_t k = ts_node_named_child_count(element);
    for (uint32_t i = 0; i < k && ok; i++) {
        TSNode pair = ts_node_named_child(element, i);
        if (!node_is(pair, "pair"))
            continue;
        TSNode key = ts_node_named_child(pair, 0);
        TSNode value = ts_node_named_child(pair, 1);
        char *keytext = node_text(text, key);
        if (strcmp(keytext, "name") == 0 && node_is(value, "string")) {
            free(op.name);
            op.name = string_value(text, value);
            ok = op.name != NULL;
            if (!ok)
                set_error(err, origin, pair, "key `%s` must be a one-line string", keytext);
        } else if (strcmp(keytext, "out") == 0 && node_is(value, "string")) {
            free(op.out_keyword);
            op.out_keyword = string_value(text, value);
            have_out = op.out_keyword != NULL;
        } else if (strcmp(keytext, "out") == 0 && node_is(value, "integer")) {
            char *num = node_text(text, value);
            char *end;
            long pos = strtol(num, &end, 10);
            if (*end || pos < 0 || pos > 64) {
                set_error(err, origin, pair, "key `%s` must be a keyword name or a position 0-64", keytext);
                ok = false;
            }
            op.out_position = (int)pos;
            have_out = true;
            free(num);
        } else if (strcmp(keytext, "full") == 0 && node_is(value, "boolean")) {
            char *b = node_text(text, value);
            op.full_write = strcmp(b, "true") == 0;
            have_full = true;
            free(b);
        } else {
            set_error(err, origin, pair,
                      "unknown key or wrong value type `%s` in [[op]] (expected name = \"...\", out = \"kw\" or N, full = true|false)",
                      keytext);
            ok = false;
        }
        free(keytext);
    }
    if (ok && (!op.name || !have_out || !have_full)) {
        set_error(err, origin, element, "[[op]] needs `name`, `out` and `full`%s", "");
        ok = false;
    }
    if (!ok) {
        free(op.name);
        free(op.out_keyword);
        free(op.origin);
        return false;
    }
    AL_PUSH(table->items, table->n, table->cap, op);
    return true;
}

static TSNode first_error(TSNode n)
{
    if ((strcmp(ts_node_type(n), "ERROR") == 0) || ts_node_is_missing(n))
        return n;
    uint32_t k = ts_node_child_count(n);
    for (uint32_t i = 0; i < k; i++) {
        TSNode c = ts_node_child(n, i);
        if (ts_node_has_error(c))
            return first_error(c);
    }
    return n;
}

bool al_ops_load_toml(al_op_table *table, const char *text, size_t len,
                      const char *origin, al_ops_error *err)
{
    TSParser *parser = ts_parser_new();
    if (!parser || !ts_parser_set_language(parser, tree_sitter_toml())) {
        snprintf(err->message, sizeof err->message, "%s: cannot load the TOML grammar", origin);
        if (parser)
            ts_parser_delete(parser);
        return false;
    }
    TSTree *tree = ts_parser_parse_string(parser, NULL, text, (uint32_t)len);
    bool ok = tree != NULL;
    if (!ok)
        snprintf(err->message, sizeof err->message, "%s: cannot parse", origin);
    TSNode root = ok ? ts_tree_root_node(tree) : (TSNode){0};
    if (ok && ts_node_has_error(root)) {
        set_error(err, origin, first_error(root), "TOML syntax error%s", "");
        ok = false;
    }
    uint32_t k = ok ? ts_node_named_child_count(root) : 0;
    for (uint32_t i = 0; i < k && ok; i++) {
        TSNode c = ts_node_named_child(root, i);
        if (!node_is(c, "table_array_element"))
            continue;
        TSNode key = ts_node_named_child(c, 0);
        char *keytext = node_text(text, key);
        if (strcmp(keytext, "op") == 0)
            ok = read_op(table, text, c, origin, err);
        free(keytext);
    }
    if (tree)
        ts_tree_delete(tree);
    ts_parser_delete(parser);
    return ok;
}

bool al_ops_load_builtin(al_op_table *table, al_ops_error *err)
{
    for (size_t i = 0; i < al_builtin_ops_count; i++)
        if (!al_ops_load_toml(table, al_builtin_ops_texts[i], al_builtin_ops_lengths[i],
                              al_builtin_ops_names[i], err))
            return false;
    return true;
}

const al_op_summary *al_ops_find(const al_op_table *table, const char *name)
{
    /* Later entries (user config) override earlier ones (built in). */
    for (size_t i = table->n; i-- > 0;)
        if (strcmp(table->items[i].name, name) == 0)
            return &table->items[i];
    return NULL;
}

void al_ops_free(al_op_table *table)
{
    for (size_t i = 0; i < table->n; i++) {
        free(table->items[i].name);
        free(table->items[i].out_keyword);
        free(table->items[i].origin);
    }
    free(table->items);
    memset(table, 0, sizeof *table);
}
