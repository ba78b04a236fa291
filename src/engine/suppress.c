#include "suppress.h"

#include "../base/util.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static size_t row_of(const al_source *src, size_t off)
{
    size_t row, col;
    al_source_position(src, off, &row, &col);
    return row;
}

/* Whether only blanks stand between the line start and off. */
static bool alone_on_line(const al_source *src, size_t off)
{
    while (off > 0 && src->bytes[off - 1] != '\n') {
        if (src->bytes[off - 1] != ' ' && src->bytes[off - 1] != '\t')
            return false;
        off--;
    }
    return true;
}

/* AL101, E501, RUF100: capitals, then digits. */
static bool code_like(const char *p, const char *q)
{
    const char *r = p;
    while (r < q && isupper((unsigned char)*r))
        r++;
    if (r == p || r == q)
        return false;
    while (r < q && isdigit((unsigned char)*r))
        r++;
    return r == q;
}

/* Reads "A, B C" codes from p; returns the end of the last code, so that
 * "# noqa: AL101 because ..." keeps its explanation. */
static const char *read_codes(al_suppression *s, const char *p, const char *end)
{
    const char *last = p;
    s->ncodes = 0;
    while (p < end) {
        const char *a = p;
        while (a < end && (*a == ' ' || *a == ','))
            a++;
        const char *q = a;
        while (q < end && isalnum((unsigned char)*q))
            q++;
        if (q == a || !code_like(a, q))
            break;
        if (s->ncodes < AL_SUPPRESS_MAX_CODES && q - a < 16) {
            memcpy(s->codes[s->ncodes], a, (size_t)(q - a));
            s->codes[s->ncodes][q - a] = '\0';
            s->ncodes++;
        }
        last = q;
        p = q;
    }
    return last;
}

/* The tail of a `noqa`: nothing (every rule) or `: A, B`. */
static const char *read_noqa_codes(al_suppression *s, const char *p, const char *e,
                                   const char *base)
{
    if (p < e && *p == ':') {
        p++;
        while (p < e && *p == ' ')
            p++;
        s->codes_start = (size_t)(p - base);
        p = read_codes(s, p, e);
        s->codes_end = (size_t)(p - base);
    }
    return p;
}

/* `noqa` as a word, in any case (flake8 accepts `NOQA`). */
static bool is_noqa(const char *p, const char *e)
{
    return (size_t)(e - p) >= 4 && !strncasecmp(p, "noqa", 4) &&
           (p + 4 == e || (!isalnum((unsigned char)p[4]) && p[4] != '_'));
}

/* C++ comments: // NOLINT(AL102), // NOLINTNEXTLINE(AL102), // noqa: AL102. */
static bool parse_cxx_comment(al_suppressions *out, const al_source *src, size_t start,
                              size_t end)
{
    const char *base = src->bytes, *e = base + end;
    if (end - start < 2 || base[start] != '/' || (base[start + 1] != '/' && base[start + 1] != '*'))
        return false;
    const char *p = base + start + 2;
    while (p < e && *p == ' ')
        p++;
    al_suppression s;
    memset(&s, 0, sizeof s);
    s.row = row_of(src, start);
    s.dir_start = start;
    const char *codes = NULL;
    if ((size_t)(e - p) >= 14 && !strncmp(p, "NOLINTNEXTLINE", 14)) {
        s.kind = AL_SUP_IGNORE;
        s.target_row = s.row + 1;
        codes = p + 14;
    } else if ((size_t)(e - p) >= 6 && !strncmp(p, "NOLINT", 6)) {
        s.kind = AL_SUP_NOQA;
        s.target_row = s.row;
        codes = p + 6;
    } else if (is_noqa(p, e)) {
        s.kind = AL_SUP_NOQA;
        s.target_row = s.row;
        p = read_noqa_codes(&s, p + 4, e, base);
        s.dir_end = (size_t)(p - base);
        AL_PUSH(out->items, out->n, out->cap, s);
        return true;
    } else {
        return true; /* a C++ comment, not a directive */
    }
    if (codes < e && *codes == '(') {
        const char *close = memchr(codes, ')', (size_t)(e - codes));
        if (!close)
            return true;
        s.codes_start = (size_t)(codes + 1 - base);
        read_codes(&s, codes + 1, close);
        s.codes_end = (size_t)(close - base);
        s.dir_end = (size_t)(close + 1 - base);
    } else {
        s.dir_end = (size_t)(codes - base);
    }
    AL_PUSH(out->items, out->n, out->cap, s);
    return true;
}

static void parse_comment(al_suppressions *out, const al_source *src, size_t start, size_t end)
{
    const char *base = src->bytes;
    if (parse_cxx_comment(out, src, start, end))
        return;
    for (size_t i = start; i < end; i++) {
        if (base[i] != '#')
            continue;
        size_t j = i + 1;
        while (j < end && base[j] == ' ')
            j++;
        al_suppression s;
        memset(&s, 0, sizeof s);
        s.row = row_of(src, start);
        s.dir_start = i;
        const char *p = base + j, *e = base + end;
        if (is_noqa(p, e)) {
            s.kind = AL_SUP_NOQA;
            s.target_row = s.row;
            p = read_noqa_codes(&s, p + 4, e, base);
        } else if ((size_t)(e - p) >= 10 && !strncmp(p, "alloclint:", 10)) {
            p += 10;
            while (p < e && *p == ' ')
                p++;
            if ((size_t)(e - p) >= 7 && !strncmp(p, "ignore[", 7)) {
                s.kind = AL_SUP_IGNORE;
                /* On its own line it speaks of the next line. */
                s.target_row = alone_on_line(src, i) ? s.row + 1 : s.row;
                p += 7;
                s.codes_start = (size_t)(p - base);
                const char *close = memchr(p, ']', (size_t)(e - p));
                if (!close)
                    continue;
                read_codes(&s, p, close);
                s.codes_end = (size_t)(close - base);
                p = close + 1;
            } else if ((size_t)(e - p) >= 4 && !strncmp(p, "noqa", 4)) {
                s.kind = AL_SUP_FILE;
                p = read_noqa_codes(&s, p + 4, e, base);
            } else {
                continue;
            }
        } else {
            continue;
        }
        s.dir_end = (size_t)(p - base);
        AL_PUSH(out->items, out->n, out->cap, s);
    }
}

void al_suppressions_parse(al_suppressions *out, const al_source *src, const al_span *comments,
                           size_t n_comments)
{
    memset(out, 0, sizeof *out);
    for (size_t i = 0; i < n_comments; i++)
        parse_comment(out, src, comments[i].start, comments[i].end);
}

static bool covers(al_suppression *s, const char *code)
{
    if (s->ncodes == 0) {
        s->used_any = true;
        return true;
    }
    for (int k = 0; k < s->ncodes; k++)
        if (!strcmp(s->codes[k], code)) {
            s->used[k] = true;
            s->used_any = true;
            return true;
        }
    return false;
}

void al_suppressions_apply(al_suppressions *s, const al_source *src, al_findings *findings)
{
    size_t kept = 0;
    for (size_t i = 0; i < findings->n; i++) {
        al_finding *f = &findings->items[i];
        size_t first = row_of(src, f->start), last = row_of(src, f->end);
        bool suppressed = false;
        for (size_t k = 0; k < s->n && !suppressed; k++) {
            al_suppression *d = &s->items[k];
            if (d->kind == AL_SUP_FILE || d->target_row == first ||
                (d->kind == AL_SUP_NOQA && d->target_row == last))
                suppressed = covers(d, f->code);
        }
        if (suppressed) {
            al_finding_free(f);
            continue;
        }
        findings->items[kept++] = *f;
    }
    findings->n = kept;
}

void al_suppressions_unused(const al_suppressions *s, const al_source *src,
                            bool (*enabled)(const char *code, void *arg), void *arg,
                            al_findings *out)
{
    for (size_t i = 0; i < s->n; i++) {
        const al_suppression *d = &s->items[i];
        char unused[256] = "";
        int n_unused = 0, n_ours = 0;
        for (int k = 0; k < d->ncodes; k++) {
            /* AL900 names itself: it suppresses AL900, it is never unused. */
            if (strncmp(d->codes[k], "AL", 2) != 0 || !strcmp(d->codes[k], "AL900"))
                continue;
            n_ours++;
            if (d->used[k] || !enabled(d->codes[k], arg))
                continue;
            n_unused++;
            snprintf(unused + strlen(unused), sizeof unused - strlen(unused), "%s`%s`",
                     n_unused > 1 ? ", " : "", d->codes[k]);
        }
        if (n_unused == 0)
            continue;
        al_strbuf msg = {0};
        al_strbuf_printf(&msg, "unused suppression: %s suppressed nothing on this line", unused);
        al_fix *fix = al_fix_new(AL_FIX_SAFE, "Remove the unused code(s)");
        if (n_unused == d->ncodes) {
            /* Nothing left of the directive. Alone on its line: the line
             * goes. Followed by more comment: keep the indentation. After
             * code: take the blanks before it too. */
            size_t a = d->dir_start, b = d->dir_end;
            size_t rest = b;
            while (rest < src->len && (src->bytes[rest] == ' ' || src->bytes[rest] == '\t'))
                rest++;
            bool at_line_start = alone_on_line(src, a);
            bool rest_blank = rest >= src->len || src->bytes[rest] == '\n' ||
                              src->bytes[rest] == '\r';
            if (at_line_start && rest_blank) {
                while (a > 0 && src->bytes[a - 1] != '\n')
                    a--;
                b = rest;
                if (b < src->len && src->bytes[b] == '\r')
                    b++;
                if (b < src->len && src->bytes[b] == '\n')
                    b++;
            } else if (at_line_start) {
                b = rest;
            } else {
                while (a > 0 && (src->bytes[a - 1] == ' ' || src->bytes[a - 1] == '\t'))
                    a--;
            }
            al_fix_add_edit(fix, a, b, "");
        } else {
            al_strbuf keep = {0};
            for (int k = 0; k < d->ncodes; k++) {
                bool drop = !strncmp(d->codes[k], "AL", 2) && strcmp(d->codes[k], "AL900") &&
                            !d->used[k] && enabled(d->codes[k], arg);
                if (!drop)
                    al_strbuf_printf(&keep, "%s%s", keep.len ? ", " : "", d->codes[k]);
            }
            al_fix_add_edit(fix, d->codes_start, d->codes_end, keep.data ? keep.data : "");
            al_strbuf_free(&keep);
        }
        (void)n_ours;
        al_findings_add(out, "AL900", "unused-suppression", d->dir_start, d->dir_end,
                        al_strbuf_detach(&msg), fix);
    }
}

size_t al_suppressions_add_noqa(const al_suppressions *s, const al_source *src,
                                const al_span *long_strings, size_t n_long_strings,
                                const al_findings *findings, al_fix *fix)
{
    size_t added = 0;
    size_t last_row = 0;
    for (size_t i = 0; i < findings->n; i++) {
        size_t row = row_of(src, findings->items[i].start);
        if (row == last_row || !strcmp(findings->items[i].code, "AL900"))
            continue; /* one directive per line; never a noqa for a noqa */
        last_row = row;
        size_t ls, le;
        al_source_line(src, row, &ls, &le);
        bool in_string = false;
        for (size_t k = 0; k < n_long_strings; k++)
            if (long_strings[k].start < le && le < long_strings[k].end)
                in_string = true;
        if (in_string)
            continue;
        /* The codes of every finding on this line, in order, once each. */
        al_strbuf codes = {0};
        for (size_t j = i; j < findings->n && row_of(src, findings->items[j].start) == row; j++)
            if (strcmp(findings->items[j].code, "AL900") &&
                (!codes.data || !strstr(codes.data, findings->items[j].code)))
                al_strbuf_printf(&codes, "%s%s", codes.len ? ", " : "", findings->items[j].code);
        const al_suppression *existing = NULL;
        for (size_t k = 0; k < s->n; k++)
            if (s->items[k].kind == AL_SUP_NOQA && s->items[k].row == row)
                existing = &s->items[k];
        al_strbuf text = {0};
        if (existing && existing->ncodes > 0) {
            al_strbuf_printf(&text, ", %s", codes.data);
            al_fix_add_edit(fix, existing->codes_end, existing->codes_end, text.data);
        } else if (!existing) {
            al_strbuf_printf(&text, "  # noqa: %s", codes.data);
            al_fix_add_edit(fix, le, le, text.data);
        }
        if (!existing || existing->ncodes > 0)
            added++;
        al_strbuf_free(&text);
        al_strbuf_free(&codes);
    }
    return added;
}

void al_suppressions_free(al_suppressions *s)
{
    free(s->items);
    memset(s, 0, sizeof *s);
}
