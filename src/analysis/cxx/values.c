#include "values.h"

#include "../../base/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool is(const al_cxx_unit *u, size_t i, const char *s)
{
    return al_cxx_is(u, i, s);
}

char *al_cxx_compact(const al_cxx_unit *u, size_t a, size_t b)
{
    char *s = al_cxx_text(u, a, b);
    char *w = s;
    for (char *r = s; *r; r++)
        if (*r != ' ' && *r != '\t' && *r != '\n' && *r != '\r')
            *w++ = *r;
    *w = '\0';
    return s;
}

/* ------------------------------------------------------------------ */
/* Values of host expressions, as compact text                          */

/* Whether token k writes the identifier there: `k = `, `k += `, `++k`,
 * `&k` (its address escapes, so anything may write it). */
static bool writes_ident(const al_cxx_unit *u, size_t k)
{
    static const char *const ops[] = {"=", "+=", "-=", "*=", "/=", "%=", "<<=", ">>=", "&=",
                                      "|=", "^=", "++", "--", NULL};
    if (is(u, k - 1, ".") || is(u, k - 1, "->") || is(u, k - 1, "::"))
        return false;
    return al_cxx_word_in(u, k + 1, ops) || is(u, k - 1, "++") || is(u, k - 1, "--") ||
           (is(u, k - 1, "&") && (is(u, k - 2, "(") || is(u, k - 2, ",") || is(u, k - 2, "=")));
}

/* `T name = expr;`, `T name{expr};` or `dim3 name(expr);`: a declaration
 * with a value at token k, the value's tokens [*ea, *eb). */
static bool declaration_value(const al_cxx_unit *u, size_t k, size_t end, size_t *ea, size_t *eb)
{
    const al_cxx_token *prev = &u->tokens[k - 1];
    bool typed = (prev->kind == AL_CXX_KEYWORD && !is(u, k - 1, "return") && !is(u, k - 1, "case")) ||
                 prev->kind == AL_CXX_IDENT || is(u, k - 1, ">");
    if (!typed)
        return false;
    if (is(u, k + 1, "=")) {
        size_t e = k + 2;
        int depth = 0;
        while (e < end && !(depth == 0 && (is(u, e, ";") || is(u, e, ",")))) {
            if (is(u, e, "(") || is(u, e, "[") || is(u, e, "{"))
                depth++;
            else if (is(u, e, ")") || is(u, e, "]") || is(u, e, "}"))
                depth--;
            e++;
        }
        *ea = k + 2;
        *eb = e;
        return e < end && e > k + 2;
    }
    if (is(u, k + 1, "(") || is(u, k + 1, "{")) {
        size_t close = al_cxx_match(u, k + 1);
        if (close >= end || !is(u, close + 1, ";"))
            return false;
        *ea = k + 2;
        *eb = close;
        return close > k + 2;
    }
    return false;
}

/* The value of the local at token `name`, as the launch at token `at`
 * sees it: declared once with a value before `at`, never written again,
 * and with no name it reads written between the two. */
static bool local_value(const al_cxx_unit *u, size_t body, size_t end, size_t name, size_t at,
                        size_t *ea, size_t *eb)
{
    size_t decl = 0;
    int writes = 0;
    for (size_t k = body + 1; k < end; k++) {
        if (u->tokens[k].kind != AL_CXX_IDENT || !al_cxx_token_eq(u, k, name))
            continue;
        size_t a, b;
        if (!is(u, k - 1, ".") && !is(u, k - 1, "->") && !is(u, k - 1, "::") &&
            declaration_value(u, k, end, &a, &b)) {
            writes++;
            decl = k;
            *ea = a;
            *eb = b;
        } else if (writes_ident(u, k)) {
            writes++;
        }
    }
    if (writes != 1 || !decl || decl >= at)
        return false;
    for (size_t v = *ea; v < *eb; v++) {
        if (u->tokens[v].kind != AL_CXX_IDENT)
            continue;
        for (size_t k = *eb; k < at; k++)
            if (al_cxx_token_eq(u, k, v) && writes_ident(u, k))
                return false;
    }
    return true;
}

/* Whether compact text has an operator outside brackets that binds looser
 * than `*` and `/` (or than `+` and `-` when additive_ok): one that
 * `(...)` would be needed around. `->` and `::` are not operators here. */
bool al_cxx_needs_parens(const char *t, bool additive_ok)
{
    int depth = 0;
    for (const char *p = t; *p; p++) {
        if ((p[0] == '-' && p[1] == '>') || (p[0] == ':' && p[1] == ':')) {
            p++;
            continue;
        }
        if (*p == '(' || *p == '[' || *p == '{')
            depth++;
        else if (*p == ')' || *p == ']' || *p == '}')
            depth--;
        else if (depth == 0 && p > t && strchr("<>=&|^?:,!", *p))
            return true;
        else if (depth == 0 && p > t && !additive_ok && (*p == '+' || *p == '-'))
            return true;
    }
    return false;
}

static const char *const INT_TYPES[] = {"int", "long", "unsigned", "int64_t", "int32_t",
                                        "uint32_t", "uint64_t", "size_t", "int64", NULL};

/* The tokens [a, b) as compact text, each local replaced by its value
 * (see local_value) and integer casts dropped: what two expressions of
 * one host function are compared by. */
static void value_text(const al_cxx_unit *u, size_t body, size_t end, size_t a, size_t b, size_t at,
                       int depth, al_strbuf *sb)
{
    for (size_t k = a; k < b; k++) {
        /* static_cast<int64_t>(e) and (int)e: the value of e. */
        if (is(u, k, "static_cast") && is(u, k + 1, "<") && al_cxx_word_in(u, k + 2, INT_TYPES) &&
            is(u, k + 3, ">") && is(u, k + 4, "(")) {
            size_t close = al_cxx_match(u, k + 4);
            al_strbuf inner = {0};
            value_text(u, body, end, k + 5, close, at, depth, &inner);
            char *t = al_strbuf_detach(&inner);
            bool wrap = al_cxx_needs_parens(t, false);
            al_strbuf_printf(sb, wrap ? "(%s)" : "%s", t);
            free(t);
            k = close;
            continue;
        }
        if (is(u, k, "(") && al_cxx_word_in(u, k + 1, INT_TYPES) && is(u, k + 2, ")") && k + 3 < b) {
            k += 2;
            continue;
        }
        const al_cxx_token *t = &u->tokens[k];
        size_t ea = 0, eb = 0;
        if (t->kind == AL_CXX_IDENT && depth < 4 && !is(u, k - 1, ".") && !is(u, k - 1, "->") &&
            !is(u, k - 1, "::") && !is(u, k + 1, "(") && !is(u, k + 1, ".") && !is(u, k + 1, "->") &&
            !is(u, k + 1, "::") && local_value(u, body, end, k, at, &ea, &eb)) {
            al_strbuf inner = {0};
            value_text(u, body, end, ea, eb, at, depth + 1, &inner);
            char *v = al_strbuf_detach(&inner);
            bool wrap = al_cxx_needs_parens(v, false) && (k > a || k + 1 < b);
            al_strbuf_printf(sb, wrap ? "(%s)" : "%s", v);
            free(v);
            continue;
        }
        al_strbuf_append(sb, u->src->bytes + t->start, t->end - t->start);
    }
}

char *al_cxx_value(const al_cxx_unit *u, size_t body, size_t end, size_t a, size_t b, size_t at)
{
    al_strbuf sb = {0};
    value_text(u, body, end, a, b, at, 0, &sb);
    return sb.len ? al_strbuf_detach(&sb) : (al_strbuf_free(&sb), al_xstrdup(""));
}

/* The tokens [*a, *b) of argument `arg` in the parenthesised list that
 * opens at token `open` (a launch's arguments, a call's). */
bool al_cxx_list_item(const al_cxx_unit *u, size_t open, size_t close, int arg, size_t *a, size_t *b)
{
    size_t start = open + 1;
    int idx = 0, depth = 0;
    for (size_t t = open + 1; t <= close; t++) {
        bool sep = t == close || (depth == 0 && is(u, t, ","));
        if (!sep) {
            if (is(u, t, "(") || is(u, t, "<") || is(u, t, "[") || is(u, t, "{"))
                depth++;
            else if (is(u, t, ")") || is(u, t, ">") || is(u, t, "]") || is(u, t, "}"))
                depth--;
            continue;
        }
        if (idx == arg) {
            *a = start;
            *b = t;
            return t > start;
        }
        idx++;
        start = t + 1;
    }
    return false;
}

/* The launch configuration of `k<<<grid, block, ...>>>` with the kernel
 * name at token k: the grid's and the block's tokens. */
bool al_cxx_launch_config(const al_cxx_unit *u, size_t k, size_t *ga, size_t *gb, size_t *ba,
                          size_t *bb)
{
    size_t open = is(u, k + 1, "<<<") ? k + 1 : k + 2;
    size_t close = open + 1;
    while (close < u->n && !is(u, close, ">>>") && !(is(u, close, ">>") && is(u, close + 1, ">")) &&
           !is(u, close, ";"))
        close++;
    if (close >= u->n || is(u, close, ";"))
        return false;
    return al_cxx_list_item(u, open, close, 0, ga, gb) && al_cxx_list_item(u, open, close, 1, ba, bb);
}

/* Whether a name the tokens [a, b) read is written between b and at
 * (`n -= 1` after `torch::zeros({n})`): then their text at `at` is not
 * the value they had. */
static bool written_before(const al_cxx_unit *u, size_t a, size_t b, size_t at)
{
    for (size_t v = a; v < b; v++) {
        if (u->tokens[v].kind != AL_CXX_IDENT || is(u, v - 1, ".") || is(u, v - 1, "->"))
            continue;
        for (size_t k = b; k < at && k < u->n; k++)
            if (al_cxx_token_eq(u, k, v) && writes_ident(u, k))
                return true;
    }
    return false;
}

/* The buffer's element count as value text, or NULL. */
char *al_cxx_numel_text(const al_cxx_unit *u, size_t body, size_t end, const al_cxx_numel *numel,
                        size_t at)
{
    if (!numel || numel->kind == AL_CXX_NUMEL_UNKNOWN)
        return NULL;
    if (written_before(u, numel->kind == AL_CXX_NUMEL_OF ? numel->a : numel->a - 1, numel->b, at))
        return NULL;
    if (numel->kind == AL_CXX_NUMEL_OF) {
        char *t = al_cxx_value(u, body, end, numel->a, numel->b, at);
        al_strbuf sb = {0};
        al_strbuf_printf(&sb, al_cxx_needs_parens(t, false) ? "(%s).numel()" : "%s.numel()", t);
        free(t);
        return al_strbuf_detach(&sb);
    }
    al_strbuf sb = {0};
    size_t n = 0;
    for (int k = 0;; k++) {
        size_t a, b;
        if (!al_cxx_list_item(u, numel->a - 1, numel->b, k, &a, &b))
            break;
        char *d = al_cxx_value(u, body, end, a, b, at);
        bool wrap = al_cxx_needs_parens(d, false);
        al_strbuf_printf(&sb, "%s%s%s%s", n ? "*" : "", wrap ? "(" : "", d, wrap ? ")" : "");
        free(d);
        n++;
    }
    return n ? al_strbuf_detach(&sb) : (al_strbuf_free(&sb), NULL);
}

