#include "toml.h"

#include "util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const TSLanguage *tree_sitter_toml(void);

static TSNode first_error(TSNode n)
{
    if (strcmp(ts_node_type(n), "ERROR") == 0 || ts_node_is_missing(n))
        return n;
    uint32_t k = ts_node_child_count(n);
    for (uint32_t i = 0; i < k; i++) {
        TSNode c = ts_node_child(n, i);
        if (ts_node_has_error(c))
            return first_error(c);
    }
    return n;
}

/* The key of a pair or a table header, as written (dotted, no blanks). */
static TSNode key_of(TSNode n)
{
    return ts_node_named_child_count(n) ? ts_node_named_child(n, 0) : n;
}

/* Whether a key is defined twice among the pairs directly under n (one
 * table's scope), looking into inline tables as scopes of their own. */
static bool duplicate_pair(const al_toml *doc, TSNode n, TSNode *dup, TSNode *first)
{
    uint32_t k = ts_node_named_child_count(n);
    for (uint32_t i = 0; i < k; i++) {
        TSNode p = ts_node_named_child(n, i);
        if (!al_toml_is(p, "pair"))
            continue;
        char *key = al_toml_key(doc, key_of(p));
        for (uint32_t j = 0; j < i; j++) {
            TSNode q = ts_node_named_child(n, j);
            if (!al_toml_is(q, "pair"))
                continue;
            char *other = al_toml_key(doc, key_of(q));
            bool same = !strcmp(key, other);
            free(other);
            if (same) {
                free(key);
                *dup = p;
                *first = q;
                return true;
            }
        }
        free(key);
        TSNode value = ts_node_named_child(p, ts_node_named_child_count(p) - 1);
        if (al_toml_is(value, "inline_table") && duplicate_pair(doc, value, dup, first))
            return true;
    }
    return false;
}

/* A key defined twice in one table, a [table] header written twice, or a
 * table header naming a key of the root: TOML calls each invalid. */
static bool duplicate_key(al_toml *doc, TSNode *at)
{
    TSNode dup, first;
    uint32_t k = ts_node_named_child_count(doc->root);
    bool found = duplicate_pair(doc, doc->root, &dup, &first);
    for (uint32_t i = 0; i < k && !found; i++) {
        TSNode t = ts_node_named_child(doc->root, i);
        if (al_toml_is(t, "table") || al_toml_is(t, "table_array_element"))
            found = duplicate_pair(doc, t, &dup, &first);
        if (found || !al_toml_is(t, "table"))
            continue;
        char *name = al_toml_key(doc, key_of(t));
        for (uint32_t j = 0; j < i && !found; j++) {
            TSNode o = ts_node_named_child(doc->root, j);
            if (al_toml_is(o, "table") || al_toml_is(o, "pair")) {
                char *other = al_toml_key(doc, key_of(o));
                if (!strcmp(name, other))
                    found = true, dup = t, first = o;
                free(other);
            }
        }
        free(name);
    }
    if (found) {
        char *key = al_toml_key(doc, key_of(dup));
        snprintf(doc->error, sizeof doc->error,
                 "`%.120s` is defined twice (first on line %zu); TOML allows one definition",
                 key, al_toml_row(first));
        free(key);
        *at = dup;
    }
    return found;
}

bool al_toml_parse(al_toml *doc, const char *text, size_t len, TSNode *error_node)
{
    memset(doc, 0, sizeof *doc);
    doc->text = text;
    doc->parser = ts_parser_new();
    if (!doc->parser || !ts_parser_set_language(doc->parser, tree_sitter_toml()))
        return false;
    doc->tree = ts_parser_parse_string(doc->parser, NULL, text, (uint32_t)len);
    if (!doc->tree)
        return false;
    doc->root = ts_tree_root_node(doc->tree);
    if (ts_node_has_error(doc->root)) {
        *error_node = first_error(doc->root);
        snprintf(doc->error, sizeof doc->error, "TOML syntax error");
        return false;
    }
    return !duplicate_key(doc, error_node);
}

void al_toml_free(al_toml *doc)
{
    if (doc->tree)
        ts_tree_delete(doc->tree);
    if (doc->parser)
        ts_parser_delete(doc->parser);
    memset(doc, 0, sizeof *doc);
}

bool al_toml_is(TSNode n, const char *type)
{
    return !ts_node_is_null(n) && strcmp(ts_node_type(n), type) == 0;
}

char *al_toml_text(const al_toml *doc, TSNode n)
{
    uint32_t s = ts_node_start_byte(n), e = ts_node_end_byte(n);
    return al_xstrndup(doc->text + s, e - s);
}

char *al_toml_key(const al_toml *doc, TSNode key)
{
    char *raw = al_toml_text(doc, key);
    size_t k = 0;
    for (size_t i = 0; raw[i]; i++)
        if (raw[i] != ' ' && raw[i] != '\t' && raw[i] != '"' && raw[i] != '\'')
            raw[k++] = raw[i];
    raw[k] = '\0';
    return raw;
}

char *al_toml_string(const al_toml *doc, TSNode n)
{
    char *raw = al_toml_text(doc, n);
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

size_t al_toml_row(TSNode n)
{
    return ts_node_start_point(n).row + 1;
}

bool al_toml_strings(const al_toml *doc, TSNode value, al_strlist *out, TSNode *bad)
{
    *bad = value;
    if (!al_toml_is(value, "array"))
        return false;
    uint32_t k = ts_node_named_child_count(value);
    for (uint32_t i = 0; i < k; i++) {
        TSNode c = ts_node_named_child(value, i);
        if (al_toml_is(c, "comment"))
            continue;
        char *s = al_toml_is(c, "string") ? al_toml_string(doc, c) : NULL;
        if (!s) {
            *bad = c;
            return false;
        }
        al_strlist_add(out, s);
    }
    return true;
}
