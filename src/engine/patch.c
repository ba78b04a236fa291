#include "patch.h"

#include "../base/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *fail(const char *fmt, size_t line, const char *what)
{
    al_strbuf sb = {0};
    al_strbuf_printf(&sb, fmt, line, what);
    return al_strbuf_detach(&sb);
}

/* "a/x.py\t2024-..." -> "x.py"; NULL for /dev/null. */
static char *header_path(const char *s, size_t n)
{
    size_t end = 0;
    while (end < n && s[end] != '\t' && s[end] != '\n' && s[end] != '\r')
        end++;
    while (end > 0 && s[end - 1] == ' ')
        end--;
    if (end == 9 && !memcmp(s, "/dev/null", 9))
        return NULL;
    if (end > 2 && (s[0] == 'a' || s[0] == 'b') && s[1] == '/') {
        s += 2;
        end -= 2;
    }
    return al_xstrndup(s, end);
}

static void push_line(char ***arr, size_t *n, const char *s, size_t len)
{
    *arr = al_xrealloc(*arr, (*n + 1) * sizeof **arr);
    (*arr)[(*n)++] = al_xstrndup(s, len);
}

/* Drops the terminator of the last line of the current change's side. */
static void no_newline(al_patch_change *c, char side)
{
    char **arr = side == '-' ? c->removed : c->added;
    size_t n = side == '-' ? c->n_removed : c->n_added;
    if (!n)
        return;
    size_t l = strlen(arr[n - 1]);
    if (l && arr[n - 1][l - 1] == '\n')
        arr[n - 1][--l] = '\0';
    if (l && arr[n - 1][l - 1] == '\r')
        arr[n - 1][--l] = '\0';
}

/* A decimal line number or count: digits only, at most nine of them (no
 * sign, no blanks, nothing that overflows). */
static bool read_number(const char **s, const char *end, size_t *out)
{
    size_t v = 0, digits = 0;
    const char *p = *s;
    while (p < end && *p >= '0' && *p <= '9' && digits < 10)
        v = v * 10 + (size_t)(*p++ - '0'), digits++;
    if (digits == 0 || digits > 9)
        return false;
    *s = p;
    *out = v;
    return true;
}

bool al_patch_parse(const char *text, size_t len, al_patch *out, char **err)
{
    memset(out, 0, sizeof *out);
    *err = NULL;
    char *path = NULL;
    bool in_hunk = false, open = false;
    size_t old_left = 0, new_left = 0, o = 0, nl = 0, lineno = 0;
    char last = ' ';
    const char *p = text, *end = text + len;
    while (p < end && !*err) {
        const char *eol = memchr(p, '\n', (size_t)(end - p));
        size_t l = eol ? (size_t)(eol - p) + 1 : (size_t)(end - p);
        lineno++;
        if (in_hunk && (old_left || new_left) && l && (p[0] == ' ' || p[0] == '-' || p[0] == '+' ||
                                                       p[0] == '\n' || p[0] == '\r')) {
            char k = (p[0] == '\n' || p[0] == '\r') ? ' ' : p[0];
            if (k == ' ') {
                if (!old_left || !new_left)
                    *err = fail("patch line %zu: %s", lineno, "the hunk is longer than its header");
                open = false;
                old_left--, new_left--, o++, nl++;
            } else {
                if (!open) {
                    al_patch_change c = {al_xstrdup(path), o, nl, NULL, 0, NULL, 0};
                    AL_PUSH(out->items, out->n, out->cap, c);
                    open = true;
                }
                al_patch_change *c = &out->items[out->n - 1];
                const char *body = p + 1;
                size_t bl = l - 1;
                if (k == '-') {
                    if (!old_left)
                        *err = fail("patch line %zu: %s", lineno, "more removed lines than the header says");
                    else
                        old_left--, o++, push_line(&c->removed, &c->n_removed, body, bl);
                } else {
                    if (!new_left)
                        *err = fail("patch line %zu: %s", lineno, "more added lines than the header says");
                    else
                        new_left--, nl++, push_line(&c->added, &c->n_added, body, bl);
                }
            }
            last = k;
        } else if (l >= 1 && p[0] == '\\') {
            if (open && (last == '-' || last == '+'))
                no_newline(&out->items[out->n - 1], last);
        } else if (l >= 4 && !memcmp(p, "--- ", 4)) {
            in_hunk = false;
            const char *q = eol ? eol + 1 : end;
            if (q + 4 > end || memcmp(q, "+++ ", 4)) {
                *err = fail("patch line %zu: %s", lineno, "`---` not followed by `+++`");
                break;
            }
            char *from = header_path(p + 4, l - 4);
            const char *qe = memchr(q, '\n', (size_t)(end - q));
            size_t ql = qe ? (size_t)(qe - q) : (size_t)(end - q);
            char *to = header_path(q + 4, ql - 4);
            if (!from || !to)
                *err = fail("patch line %zu: %s", lineno,
                            "creates or deletes a file (only changes to existing files are supported)");
            else if (strcmp(from, to))
                *err = fail("patch line %zu: %s", lineno, "renames a file (not supported)");
            free(path);
            path = to;
            free(from);
            if (to == NULL)
                path = NULL;
            p = qe ? qe + 1 : end;
            lineno++;
            continue;
        } else if (l >= 4 && !memcmp(p, "@@ -", 4)) {
            size_t os = 0, oc = 1, ns = 0, nc = 1;
            const char *s = p + 4, *lend = p + l;
            bool good = read_number(&s, lend, &os);
            if (good && s < lend && *s == ',')
                s++, good = read_number(&s, lend, &oc);
            good = good && lend - s >= 2 && !memcmp(s, " +", 2);
            if (good)
                s += 2, good = read_number(&s, lend, &ns);
            if (good && s < lend && *s == ',')
                s++, good = read_number(&s, lend, &nc);
            good = good && lend - s >= 3 && !memcmp(s, " @@", 3);
            /* A side with lines starts on line 1 or later (git writes 0
             * only for an empty side). */
            good = good && (os >= 1 || oc == 0) && (ns >= 1 || nc == 0);
            if (!good) {
                *err = fail("patch line %zu: %s", lineno, "malformed hunk header");
                break;
            }
            if (!path) {
                *err = fail("patch line %zu: %s", lineno, "a hunk before any file header");
                break;
            }
            in_hunk = true;
            open = false;
            old_left = oc, new_left = nc;
            /* An empty side's start is the line before it. */
            o = oc ? os : os + 1;
            nl = nc ? ns : ns + 1;
        } else {
            /* git's "diff --git", "index", and anything between files. */
            in_hunk = false;
            open = false;
        }
        p += l;
    }
    free(path);
    if (!*err && in_hunk && (old_left || new_left))
        *err = fail("patch line %zu: %s", lineno, "the last hunk is shorter than its header");
    if (!*err && out->n == 0)
        *err = fail("%zu lines read: %s", lineno, "the patch holds no change");
    if (*err) {
        al_patch_free(out);
        return false;
    }
    return true;
}

void al_patch_free(al_patch *p)
{
    for (size_t i = 0; i < p->n; i++) {
        al_patch_change *c = &p->items[i];
        free(c->path);
        for (size_t k = 0; k < c->n_removed; k++)
            free(c->removed[k]);
        for (size_t k = 0; k < c->n_added; k++)
            free(c->added[k]);
        free(c->removed);
        free(c->added);
    }
    free(p->items);
    memset(p, 0, sizeof *p);
}

static bool same_line(const char *a, size_t al, const char *b)
{
    size_t bl = strlen(b);
    while (al && (a[al - 1] == '\n' || a[al - 1] == '\r'))
        al--;
    while (bl && (b[bl - 1] == '\n' || b[bl - 1] == '\r'))
        bl--;
    return al == bl && !memcmp(a, b, al);
}

char *al_patch_apply(const al_patch *p, const bool *selected, const char *path, const char *orig,
                     size_t len, size_t *out_len, char **err)
{
    *err = NULL;
    al_strbuf sb = {0};
    al_strbuf_reserve(&sb, len + 64);
    const char *cur = orig, *end = orig + len;
    size_t line = 1; /* the line `cur` starts */
    for (size_t i = 0; i < p->n; i++) {
        const al_patch_change *c = &p->items[i];
        if (strcmp(c->path, path) || (selected && !selected[i]))
            continue;
        if (c->old_line < line) {
            *err = fail("%zu: %s", c->old_line, "changes out of order");
            break;
        }
        while (line < c->old_line && cur < end) {
            const char *eol = memchr(cur, '\n', (size_t)(end - cur));
            const char *next = eol ? eol + 1 : end;
            al_strbuf_append(&sb, cur, (size_t)(next - cur));
            cur = next;
            line++;
        }
        if (line != c->old_line) {
            *err = fail("line %zu: %s", c->old_line, "past the end of the file");
            break;
        }
        for (size_t k = 0; k < c->n_removed && !*err; k++) {
            const char *eol = cur < end ? memchr(cur, '\n', (size_t)(end - cur)) : NULL;
            const char *next = eol ? eol + 1 : end;
            if (cur >= end || !same_line(cur, (size_t)(next - cur), c->removed[k]))
                *err = fail("line %zu: %s", line, "the file does not match the patch");
            cur = next;
            line++;
        }
        for (size_t k = 0; k < c->n_added && !*err; k++)
            al_strbuf_puts(&sb, c->added[k]);
    }
    if (*err) {
        al_strbuf_free(&sb);
        return NULL;
    }
    al_strbuf_append(&sb, cur, (size_t)(end - cur));
    *out_len = sb.len;
    return al_strbuf_detach(&sb);
}
