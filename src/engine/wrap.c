#include "wrap.h"

#include "../base/util.h"

#include <stdlib.h>
#include <string.h>

/* Characters, not bytes: what a line length counts. */
static size_t width(const char *s, size_t n)
{
    size_t w = 0;
    for (size_t i = 0; i < n; i++)
        w += ((unsigned char)s[i] & 0xC0) != 0x80;
    return w;
}

size_t al_wrap_default_limit(const char *src, size_t len)
{
    size_t longest = 0;
    for (size_t a = 0; a < len;) {
        const char *nl = memchr(src + a, '\n', len - a);
        size_t b = nl ? (size_t)(nl - src) : len;
        size_t w = width(src + a, b - a);
        if (w > longest)
            longest = w;
        a = b + 1;
    }
    return longest > 79 ? longest : 79;
}

/* Steps over string literals: true when s[*i] is part of one (it opens,
 * continues or closes it, an escape included, *i moved past the escaped
 * character), which the caller then skips. *quote holds the open quote. */
static bool in_string(const char *s, size_t *i, char *quote)
{
    char c = s[*i];
    if (*quote) {
        if (c == '\\')
            (*i)++;
        else if (c == *quote)
            *quote = 0;
        return true;
    }
    if (c == '\'' || c == '"') {
        *quote = c;
        return true;
    }
    return false;
}

/* The bracket matching the one at open, skipping strings; or (size_t)-1.
 * Sets *comment when a `#` outside strings is met on the way. */
static size_t matching(const char *s, size_t n, size_t open, bool *comment)
{
    int depth = 0;
    char quote = 0;
    for (size_t i = open; i < n; i++) {
        char c = s[i];
        if (in_string(s, &i, &quote))
            continue;
        if (c == '#')
            *comment = true;
        else if (c == '(' || c == '[' || c == '{')
            depth++;
        else if ((c == ')' || c == ']' || c == '}') && --depth == 0)
            return i;
    }
    return (size_t)-1;
}

static size_t trim_end(const char *s, size_t n)
{
    while (n && (s[n - 1] == ' ' || s[n - 1] == '\t'))
        n--;
    return n;
}

/* The contents of the bracket pair split at its top-level commas, each
 * item trimmed: appended to out, one a line, at indent. */
static char *break_line(const char *line, size_t n, size_t limit);

static void one_item_a_line(al_strbuf *out, const char *body, size_t n, size_t indent,
                            size_t limit)
{
    int depth = 0;
    char quote = 0;
    size_t from = 0;
    for (size_t i = 0; i <= n; i++) {
        char c = i < n ? body[i] : ',';
        if (i < n && in_string(body, &i, &quote))
            continue;
        if (c == '(' || c == '[' || c == '{')
            depth++;
        else if (c == ')' || c == ']' || c == '}')
            depth--;
        else if (c == ',' && depth == 0) {
            size_t a = from, b = i;
            while (a < b && body[a] == ' ')
                a++;
            b = trim_end(body, b);
            if (b > a) {
                /* An item still too long is broken in turn. */
                al_strbuf item = {0};
                al_strbuf_printf(&item, "%*s%.*s%s", (int)indent, "", (int)(b - a), body + a,
                                 i < n ? "," : "");
                char *broken = width(item.data, item.len) > limit
                                   ? break_line(item.data, item.len, limit)
                                   : NULL;
                al_strbuf_printf(out, "%s\n", broken ? broken : item.data);
                free(broken);
                al_strbuf_free(&item);
            }
            from = i + 1;
        }
    }
}

/* Where a comment starts on line (outside strings), or n. */
static size_t comment_at(const char *line, size_t n)
{
    char quote = 0;
    for (size_t i = 0; i < n; i++)
        if (!in_string(line, &i, &quote) && line[i] == '#')
            return i;
    return n;
}

static char *break_code(const char *line, size_t n, size_t limit, const char *trailing,
                        size_t trailing_len);

/* line (no newline) broken inside its first bracket pair that closes at
 * the line's end (only closing brackets and `:` after it), or NULL. A
 * comment at its end goes to the end of the first line, where the
 * statement starts. */
static char *break_line(const char *line, size_t n, size_t limit)
{
    size_t h = comment_at(line, n);
    return break_code(line, trim_end(line, h), limit, line + h, n - h);
}

static char *break_code(const char *line, size_t n, size_t limit, const char *trailing,
                        size_t trailing_len)
{
    size_t indent = 0;
    while (indent < n && line[indent] == ' ')
        indent++;
    char quote = 0;
    for (size_t i = indent; i < n; i++) {
        char c = line[i];
        if (in_string(line, &i, &quote))
            continue;
        if (c == '#')
            return NULL;
        if (c != '(' && c != '[' && c != '{')
            continue;
        bool comment = false;
        size_t close = matching(line, n, i, &comment);
        if (close == (size_t)-1 || comment)
            return NULL;
        size_t k = close + 1;
        while (k < n && strchr(")]}:,", line[k]))
            k++;
        if (trim_end(line, n) != k || close == i + 1)
            continue;
        size_t a = i + 1, b = close;
        while (a < b && line[a] == ' ')
            a++;
        b = trim_end(line, b);
        if (b > a && line[b - 1] == ',')
            b--; /* a trailing comma comes back with one item a line */
        al_strbuf out = {0};
        al_strbuf_printf(&out, "%.*s%s%.*s\n", (int)(i + 1), line, trailing_len ? "  " : "",
                         (int)trailing_len, trailing);
        if (indent + 4 + width(line + a, b - a) <= limit)
            al_strbuf_printf(&out, "%*s%.*s\n", (int)(indent + 4), "", (int)(b - a), line + a);
        else
            one_item_a_line(&out, line + a, b - a, indent + 4, limit);
        al_strbuf_printf(&out, "%*s%.*s", (int)indent, "", (int)(trim_end(line, n) - close),
                         line + close);
        if (width(line, i + 1) > limit) {
            al_strbuf_free(&out);
            return NULL;
        }
        return al_strbuf_detach(&out);
    }
    return NULL;
}

static int by_start(const void *a, const void *b)
{
    const al_edit *x = a, *y = b;
    return x->start < y->start ? -1 : x->start > y->start;
}

/* Whether text holds line (whole, as a line of its own). */
static bool has_line(const char *text, size_t tn, const char *line, size_t n)
{
    for (size_t a = 0; a <= tn;) {
        const char *nl = memchr(text + a, '\n', tn - a);
        size_t b = nl ? (size_t)(nl - text) : tn;
        if (b - a == n && !memcmp(text + a, line, n))
            return true;
        a = b + 1;
    }
    return false;
}

bool al_wrap_fix(const char *src, size_t len, al_fix *fix, size_t limit)
{
    if (!fix || !fix->n_edits || !limit)
        return false;
    qsort(fix->edits, fix->n_edits, sizeof *fix->edits, by_start);
    for (size_t i = 0; i < fix->n_edits; i++)
        if (fix->edits[i].end > len || fix->edits[i].start > fix->edits[i].end ||
            (i && fix->edits[i].start < fix->edits[i - 1].end))
            return false;
    size_t from = fix->edits[0].start, to = fix->edits[fix->n_edits - 1].end;
    while (from > 0 && src[from - 1] != '\n')
        from--;
    while (to < len && src[to] != '\n')
        to++;
    /* The lines the edits touch, as the fix leaves them. */
    al_strbuf made = {0};
    size_t at = from;
    for (size_t i = 0; i < fix->n_edits; i++) {
        al_strbuf_printf(&made, "%.*s%s", (int)(fix->edits[i].start - at), src + at,
                         fix->edits[i].content);
        at = fix->edits[i].end;
    }
    al_strbuf_printf(&made, "%.*s", (int)(to - at), src + at);
    const char *t = made.data ? made.data : "";
    size_t tn = made.len;
    al_strbuf out = {0};
    bool changed = false;
    for (size_t a = 0; a <= tn;) {
        const char *nl = memchr(t + a, '\n', tn - a);
        size_t b = nl ? (size_t)(nl - t) : tn;
        char *broken = NULL;
        if (width(t + a, b - a) > limit && !has_line(src + from, to - from, t + a, b - a))
            broken = break_line(t + a, b - a, limit);
        if (broken) {
            /* A CRLF line breaks into CRLF lines. */
            bool crlf = b > a && t[b - 1] == '\r';
            for (const char *c = broken; crlf && *c; c++)
                if (*c == '\n' && (c == broken || c[-1] != '\r'))
                    al_strbuf_puts(&out, "\r\n");
                else
                    al_strbuf_printf(&out, "%c", *c);
            /* the line's own \r may have gone with a trailing comment */
            if (crlf && (!out.len || out.data[out.len - 1] != '\r'))
                al_strbuf_puts(&out, "\r");
            if (!crlf)
                al_strbuf_puts(&out, broken);
            changed = true;
            free(broken);
        } else {
            al_strbuf_printf(&out, "%.*s", (int)(b - a), t + a);
        }
        if (!nl)
            break;
        al_strbuf_puts(&out, "\n");
        a = b + 1;
    }
    if (changed) {
        for (size_t i = 0; i < fix->n_edits; i++)
            free(fix->edits[i].content);
        fix->n_edits = 0;
        al_fix_add_edit(fix, from, to, out.data ? out.data : "");
    }
    al_strbuf_free(&out);
    al_strbuf_free(&made);
    return changed;
}

void al_wrap_fixes(const char *src, size_t len, al_findings *findings, size_t first, size_t limit)
{
    for (size_t i = first; i < findings->n; i++) {
        al_fix *fix = findings->items[i].fix;
        if (!fix)
            continue;
        /* No configured length: as the function or class around the fix
         * (its scope) is written. */
        bool scoped = fix->scope_end > fix->scope_start && fix->scope_end <= len;
        size_t a = scoped ? fix->scope_start : 0, b = scoped ? fix->scope_end : len;
        al_wrap_fix(src, len, fix, limit ? limit : al_wrap_default_limit(src + a, b - a));
    }
}
