#include "ops.h"

#include "../../base/util.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../../base/toml.h"

#include <tree_sitter/api.h>

/* Generated from the TOML files in rules/ops/ by cmake/embed.cmake. */
extern const char *const al_builtin_ops_names[];
extern const char *const al_builtin_ops_texts[];
extern const size_t al_builtin_ops_lengths[];
extern const size_t al_builtin_ops_count;

static void set_error(al_ops_error *err, const char *origin, TSNode n,
                      const char *fmt, const char *detail)
{
    char msg[400];
    snprintf(msg, sizeof msg, fmt, detail);
    snprintf(err->message, sizeof err->message, "%s:%u: %s", origin,
             ts_node_start_point(n).row + 1, msg);
}

static void op_free(al_op_summary *op)
{
    free(op->name);
    free(op->out_keyword);
    free(op->origin);
    free(op->params);
    free(op->rows_param);
    free(op->unless);
}

static const char IDENT[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_";

/* `args = ["q", "kv", "out"]`: the names joined with commas. */
static char *read_params(const al_toml *doc, TSNode array)
{
    al_strlist names = {0};
    TSNode bad;
    al_strbuf sb = {0};
    bool ok = al_toml_strings(doc, array, &names, &bad);
    for (size_t i = 0; ok && i < names.n; i++) {
        const char *s = names.items[i];
        ok = *s && strspn(s, IDENT) == strlen(s);
        al_strbuf_printf(&sb, "%s%s", i ? "," : "", s);
    }
    al_strlist_free(&names);
    if (!ok || !sb.data) {
        al_strbuf_free(&sb);
        return NULL;
    }
    return al_strbuf_detach(&sb);
}

/* `rows = "q.shape[0]"` (or `q.size(0)`): the parameter and the dim. */
static bool read_rows(const char *text, char **param, int *dim)
{
    size_t n = strspn(text, IDENT);
    const char *rest = text + n;
    int d = -1, used = 0;
    if (n == 0 || (sscanf(rest, ".shape[%d]%n", &d, &used) != 1 &&
                   sscanf(rest, ".size(%d)%n", &d, &used) != 1) ||
        rest[used] != '\0' || d < 0 || d > 7)
        return false;
    *param = al_xstrndup(text, n);
    *dim = d;
    return true;
}

static const char *const WRITES[] = {"some", "all", "rows", "part", "accumulates", "mutates"};
static const char *const RETURNS[] = {"new", "alias", "may_alias", "not_tensor", "shared_view"};

/* An integer 0-64 (a position, an element): false for anything else. */
static bool small_index(const al_toml *doc, TSNode value, int *out)
{
    char *num = al_toml_text(doc, value);
    char *end;
    long v = strtol(num, &end, 10);
    bool ok = !*end && v >= 0 && v <= 64;
    if (ok)
        *out = (int)v;
    free(num);
    return ok;
}

static bool read_op(al_op_table *table, const al_toml *doc, TSNode element,
                    const char *origin, al_ops_error *err)
{
    al_op_summary op = {.name = NULL, .out_keyword = NULL, .out_position = -1,
                        .full_write = false, .origin = al_xstrdup(origin), .out_element = -1};
    bool have_out = false, have_full = false, have_writes = false, have_returns = false, ok = true;
    al_op_returns returns = AL_RETURNS_NEW;
    uint32_t k = ts_node_named_child_count(element);
    for (uint32_t i = 0; i < k && ok; i++) {
        TSNode pair = ts_node_named_child(element, i);
        if (!al_toml_is(pair, "pair"))
            continue;
        TSNode key = ts_node_named_child(pair, 0);
        TSNode value = ts_node_named_child(pair, 1);
        char *keytext = al_toml_key(doc, key);
        if (strcmp(keytext, "name") == 0 && al_toml_is(value, "string")) {
            free(op.name);
            op.name = al_toml_string(doc, value);
            ok = op.name != NULL;
            if (!ok)
                set_error(err, origin, pair, "key `%s` must be a one-line string", keytext);
        } else if (strcmp(keytext, "out") == 0 && al_toml_is(value, "string")) {
            free(op.out_keyword);
            op.out_keyword = al_toml_string(doc, value);
            have_out = op.out_keyword != NULL;
        } else if (strcmp(keytext, "out") == 0 && al_toml_is(value, "integer")) {
            ok = small_index(doc, value, &op.out_position);
            if (!ok)
                set_error(err, origin, pair, "key `%s` must be a keyword name or a position 0-64", keytext);
            have_out = true;
        } else if (strcmp(keytext, "full") == 0 && al_toml_is(value, "boolean")) {
            char *b = al_toml_text(doc, value);
            op.full_write = strcmp(b, "true") == 0;
            have_full = true;
            free(b);
        } else if (strcmp(keytext, "library") == 0 && al_toml_is(value, "boolean")) {
            char *b = al_toml_text(doc, value);
            op.library = strcmp(b, "true") == 0;
            free(b);
        } else if (strcmp(keytext, "writes") == 0 && al_toml_is(value, "string")) {
            char *w = al_toml_string(doc, value);
            have_writes = false;
            for (size_t j = 0; w && j < sizeof WRITES / sizeof *WRITES; j++)
                if (!strcmp(w, WRITES[j])) {
                    op.writes = (al_op_writes)j;
                    have_writes = true;
                }
            free(w);
            if (!have_writes) {
                set_error(err, origin, pair, "key `%s` must be \"all\", \"rows\", \"part\", "
                                             "\"accumulates\", \"mutates\" or \"some\"",
                          keytext);
                ok = false;
            }
        } else if (strcmp(keytext, "returns") == 0 && al_toml_is(value, "string")) {
            char *w = al_toml_string(doc, value);
            have_returns = false;
            for (size_t j = 0; w && j < sizeof RETURNS / sizeof *RETURNS; j++)
                if (!strcmp(w, RETURNS[j])) {
                    returns = (al_op_returns)j;
                    have_returns = true;
                }
            free(w);
            if (!have_returns) {
                set_error(err, origin, pair,
                          "key `%s` must be \"new\", \"alias\", \"may_alias\", \"not_tensor\" or "
                          "\"shared_view\"",
                          keytext);
                ok = false;
            }
        } else if (strcmp(keytext, "rows") == 0 && al_toml_is(value, "string")) {
            char *r = al_toml_string(doc, value);
            free(op.rows_param);
            op.rows_param = NULL;
            if (!r || !read_rows(r, &op.rows_param, &op.rows_dim)) {
                set_error(err, origin, pair,
                          "key `%s` must name a parameter's dimension: \"q.shape[0]\"", keytext);
                ok = false;
            }
            free(r);
        } else if (strcmp(keytext, "element") == 0 && al_toml_is(value, "integer")) {
            ok = small_index(doc, value, &op.out_element);
            if (!ok)
                set_error(err, origin, pair, "key `%s` must be an element index 0-64", keytext);
        } else if (strcmp(keytext, "unless") == 0 && al_toml_is(value, "array")) {
            free(op.unless);
            op.unless = read_params(doc, value);
            if (!op.unless) {
                set_error(err, origin, pair,
                          "key `%s` must list parameters' names", keytext);
                ok = false;
            }
        } else if (strcmp(keytext, "args") == 0 && al_toml_is(value, "array")) {
            free(op.params);
            op.params = read_params(doc, value);
            if (!op.params) {
                set_error(err, origin, pair,
                          "key `%s` must list the positional parameters' names", keytext);
                ok = false;
            }
        } else {
            set_error(err, origin, pair,
                      "unknown key or wrong value type `%s` in [[op]] (expected name = \"...\", out = \"kw\" or N, element = N, full = true|false or writes = \"all\"|\"rows\"|\"part\"|\"accumulates\", rows = \"arg.shape[0]\", args = [...], unless = [...], library = true|false, returns = \"new\"|\"alias\"|\"may_alias\"|\"not_tensor\"|\"shared_view\")",
                      keytext);
            ok = false;
        }
        free(keytext);
    }
    /* An entry says what the op writes (`out` with `full` or `writes`),
     * what it returns (`returns`), or both. */
    bool says_writes = have_out || have_full || have_writes || op.rows_param;
    if (ok && (!op.name || (!says_writes && !have_returns) ||
               (says_writes && (!have_out || have_full == have_writes)))) {
        set_error(err, origin, element,
                  "[[op]] needs `name`, and `out` with one of `full` or `writes`, or "
                  "`returns`%s", "");
        ok = false;
    }
    if (ok && have_full)
        op.writes = op.full_write ? AL_OP_WRITES_ALL : AL_OP_WRITES_SOME;
    op.full_write = op.writes == AL_OP_WRITES_ALL;
    if (ok && (op.writes == AL_OP_WRITES_ROWS) != (op.rows_param != NULL)) {
        set_error(err, origin, element, "%s", op.rows_param
                                                   ? "`rows` goes with writes = \"rows\""
                                                   : "writes = \"rows\" needs `rows`");
        ok = false;
    }
    if (ok && op.rows_param && al_op_param_position(&op, op.rows_param) < 0 &&
        (!op.out_keyword || strcmp(op.out_keyword, op.rows_param)) && op.params) {
        set_error(err, origin, element, "`rows` names `%s`, which `args` does not list",
                  op.rows_param);
        ok = false;
    }
    if (!ok) {
        op_free(&op);
        return false;
    }
    if (have_returns)
        al_ops_add_result(table, op.name, returns, op.library, origin);
    if (says_writes)
        AL_PUSH(table->items, table->n, table->cap, op);
    else
        op_free(&op);
    return true;
}

bool al_ops_read_array(al_op_table *table, const al_toml *doc, const char *array_key,
                       const char *origin, al_ops_error *err)
{
    bool ok = true;
    uint32_t k = ts_node_named_child_count(doc->root);
    for (uint32_t i = 0; i < k && ok; i++) {
        TSNode c = ts_node_named_child(doc->root, i);
        if (!al_toml_is(c, "table_array_element"))
            continue;
        char *keytext = al_toml_key(doc, ts_node_named_child(c, 0));
        if (strcmp(keytext, array_key) == 0)
            ok = read_op(table, doc, c, origin, err);
        free(keytext);
    }
    return ok;
}

bool al_ops_load_toml(al_op_table *table, const char *text, size_t len,
                      const char *origin, al_ops_error *err)
{
    al_toml doc;
    TSNode bad = {0};
    if (!al_toml_parse(&doc, text, len, &bad)) {
        if (!ts_node_is_null(bad))
            set_error(err, origin, bad, "%s", doc.error);
        else
            snprintf(err->message, sizeof err->message, "%s: cannot parse", origin);
        al_toml_free(&doc);
        return false;
    }
    bool ok = al_ops_read_array(table, &doc, "op", origin, err);
    al_toml_free(&doc);
    return ok;
}

/* The built-in tables, parsed once: every configuration of a run starts
 * from a copy (parsing them took a fifth of a warm run's instructions). */
static al_op_table builtin;
static al_ops_error builtin_err;
static bool builtin_ok;
static pthread_once_t builtin_once = PTHREAD_ONCE_INIT;

static void parse_builtin(void)
{
    builtin_ok = true;
    for (size_t i = 0; i < al_builtin_ops_count && builtin_ok; i++)
        builtin_ok = al_ops_load_toml(&builtin, al_builtin_ops_texts[i], al_builtin_ops_lengths[i],
                                      al_builtin_ops_names[i], &builtin_err);
}

static char *copy_or_null(const char *s)
{
    return s ? al_xstrdup(s) : NULL;
}

bool al_ops_load_builtin(al_op_table *table, al_ops_error *err)
{
    pthread_once(&builtin_once, parse_builtin);
    if (!builtin_ok) {
        *err = builtin_err;
        return false;
    }
    al_ops_append(table, &builtin);
    return true;
}

bool al_op_name_matches(const char *pattern, const char *name)
{
    if (!strcmp(pattern, name))
        return true;
    /* torch.ops.*.op: the op in any namespace */
    if (strncmp(pattern, "torch.ops.*.", 12) || strncmp(name, "torch.ops.", 10))
        return false;
    const char *dot = strchr(name + 10, '.');
    return dot && !strcmp(dot + 1, pattern + 12);
}

const al_op_summary *al_ops_find(const al_op_table *table, const char *name)
{
    /* Later entries (user config) override earlier ones (built in). */
    for (size_t i = table->n; i-- > 0;)
        if (al_op_name_matches(table->items[i].name, name))
            return &table->items[i];
    return NULL;
}

/* The position of the parameter named name[0..n) in op's args, or -1. */
static int param_position(const al_op_summary *op, const char *name, size_t n)
{
    int pos = 0;
    for (const char *p = op->params; p && *p; pos++) {
        const char *end = strchr(p, ',');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        if (len == n && !memcmp(p, name, n))
            return pos;
        p = end ? end + 1 : p + len;
    }
    return -1;
}

static const al_op_summary *find_output(const al_op_table *table, const char *name, int pos,
                                        const char *kw, size_t kwlen, int elem)
{
    for (size_t i = table->n; i-- > 0;) {
        const al_op_summary *op = &table->items[i];
        if (op->out_element != elem || !al_op_name_matches(op->name, name))
            continue;
        if (kw ? (op->out_keyword && strlen(op->out_keyword) == kwlen &&
                  memcmp(op->out_keyword, kw, kwlen) == 0)
               : (pos >= 0 && op->out_position == pos))
            return op;
        /* Through `args`: the output's keyword at its position, its
         * position under its keyword. */
        if (!op->params)
            continue;
        if (!kw && op->out_keyword && pos >= 0 && al_op_param_position(op, op->out_keyword) == pos)
            return op;
        if (kw && op->out_position >= 0 && param_position(op, kw, kwlen) == op->out_position)
            return op;
    }
    return NULL;
}

const al_op_summary *al_ops_find_output(const al_op_table *table, const char *name, int pos,
                                        const char *kw, size_t kwlen)
{
    return find_output(table, name, pos, kw, kwlen, -1);
}

const al_op_summary *al_ops_find_output_element(const al_op_table *table, const char *name,
                                                int pos, const char *kw, size_t kwlen, int elem)
{
    return elem < 0 ? NULL : find_output(table, name, pos, kw, kwlen, elem);
}

int al_op_param_position(const al_op_summary *op, const char *name)
{
    return param_position(op, name, strlen(name));
}

void al_ops_free(al_op_table *table)
{
    for (size_t i = 0; i < table->n; i++)
        op_free(&table->items[i]);
    free(table->items);
    for (size_t i = 0; i < table->n_results; i++) {
        free(table->results[i].name);
        free(table->results[i].key);
        free(table->results[i].origin);
    }
    free(table->results);
    memset(table, 0, sizeof *table);
}

void al_ops_add_result(al_op_table *table, const char *name, al_op_returns returns,
                       bool library, const char *origin)
{
    al_op_result r = {al_xstrdup(name), al_op_key(name), returns, library,
                      copy_or_null(origin)};
    AL_PUSH(table->results, table->n_results, table->cap_results, r);
}

const al_op_result *al_ops_find_result(const al_op_table *table, const char *op)
{
    if (!table || !table->n_results)
        return NULL;
    char *key = al_op_key(op);
    const al_op_result *found = NULL;
    for (size_t i = table->n_results; i-- > 0 && !found;) {
        const char *k = table->results[i].key;
        size_t n = strlen(k);
        /* "numpy.*": every function of the module and its submodules */
        bool module = n > 2 && !strcmp(k + n - 2, ".*") && !strncmp(key, k, n - 1);
        if (module || al_op_key_matches(k, key))
            found = &table->results[i];
    }
    free(key);
    return found;
}

void al_ops_append(al_op_table *table, const al_op_table *from)
{
    for (size_t i = 0; i < from->n; i++) {
        al_op_summary op = from->items[i];
        op.name = al_xstrdup(op.name);
        op.out_keyword = copy_or_null(op.out_keyword);
        op.origin = copy_or_null(op.origin);
        op.params = copy_or_null(op.params);
        op.rows_param = copy_or_null(op.rows_param);
        op.unless = copy_or_null(op.unless);
        AL_PUSH(table->items, table->n, table->cap, op);
    }
    for (size_t i = 0; i < from->n_results; i++) {
        const al_op_result *r = &from->results[i];
        al_ops_add_result(table, r->name, r->returns, r->library, r->origin);
    }
}

/* "torch.ops.ns.op(.default)" -> "ns.op"; "ns::op" -> "ns.op". */
char *al_op_key(const char *op)
{
    const char *p = al_str_starts_with(op, "torch.ops.") ? op + 10 : op;
    al_strbuf sb = {0};
    for (; *p; p++) {
        if (p[0] == ':' && p[1] == ':') {
            al_strbuf_putc(&sb, '.');
            p++;
        } else {
            al_strbuf_putc(&sb, *p);
        }
    }
    char *k = al_strbuf_detach(&sb);
    if (al_str_ends_with(k, ".default"))
        k[strlen(k) - 8] = '\0';
    return k;
}

/* Whether a binding's key names the op: the same "ns.op", or the same op
 * name when the binding's namespace is unknown. */
bool al_op_key_matches(const char *binding, const char *wanted)
{
    if (!strcmp(binding, wanted))
        return true;
    if (binding[0] != '*')
        return false;
    const char *w = strrchr(wanted, '.');
    return w && !strcmp(binding + 2, w + 1);
}
