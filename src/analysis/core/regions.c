#include "regions.h"

#include "../../base/util.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

const char *const al_region_size_calls[] = {"next_power_of_2", "cdiv", "len", "max", "min",
                                             "int", "stride", "size", "numel", "dim", NULL};

/* The lines of a region (`A addr`, `M mask`, then its `G cond` lines)
 * from p up to its end or the next region's separator. */
static const char *region_end(const char *p)
{
    const char *e = strstr(p, "\n--\n");
    return e ? e : p + strlen(p);
}

static bool has_line(const char *from, const char *to, const char *line, size_t len)
{
    for (const char *p = from; p < to;) {
        const char *nl = memchr(p, '\n', (size_t)(to - p));
        const char *e = nl ? nl : to;
        if ((size_t)(e - p) == len && !memcmp(p, line, len))
            return true;
        p = e + 1;
    }
    return false;
}

static int cmp_text(const void *x, const void *y)
{
    return strcmp(*(char *const *)x, *(char *const *)y);
}

/* The group `\x01op a \x02 b \x03` at *p, its operands canonical and
 * sorted, appended as `(a op b)`; *p moves past it. */
static void sorted_group(const char **p, al_strbuf *out)
{
    const char *op = ++*p;
    while (**p == '+' || **p == '*' || **p == '&' || **p == '|')
        ++*p;
    size_t oplen = (size_t)(*p - op);
    char *texts[64];
    int n = 0;
    for (;;) {
        al_strbuf sb = {0};
        al_strbuf_puts(&sb, "");
        /* One operand: up to this group's \x02 or \x03. */
        while (**p && **p != '\x02' && **p != '\x03') {
            if (**p == '\x01')
                sorted_group(p, &sb);
            else
                al_strbuf_putc(&sb, *(*p)++);
        }
        if (n < 64)
            texts[n++] = al_strbuf_detach(&sb);
        else
            al_strbuf_free(&sb);
        if (**p != '\x02')
            break;
        ++*p;
    }
    if (**p == '\x03')
        ++*p;
    qsort(texts, (size_t)n, sizeof texts[0], cmp_text);
    al_strbuf_putc(out, '(');
    for (int k = 0; k < n; k++) {
        if (k)
            al_strbuf_append(out, op, oplen);
        al_strbuf_puts(out, texts[k]);
        free(texts[k]);
    }
    al_strbuf_putc(out, ')');
}

char *al_region_canonical(const char *region)
{
    al_strbuf sb = {0};
    al_strbuf_puts(&sb, "");
    for (const char *p = region; *p;) {
        if (*p == '\x01')
            sorted_group(&p, &sb);
        else
            al_strbuf_putc(&sb, *p++);
    }
    return al_strbuf_detach(&sb);
}

static bool reads_within(const char *read, const char *written, const char **why)
{
    const char *wend = written + strlen(written);
    for (const char *r = read;;) {
        const char *rend = region_end(r);
        /* Every line of the written region (its address, its mask and each
         * condition) is a line of this read region. */
        for (const char *p = written; p < wend;) {
            const char *nl = memchr(p, '\n', (size_t)(wend - p));
            const char *e = nl ? nl : wend;
            if (!has_line(r, rend, p, (size_t)(e - p))) {
                *why = *p == 'A'   ? "it loads at other addresses than the store's"
                       : *p == 'M' ? "it loads under another mask than the store's"
                                   : "it loads without one of the store's conditions";
                return false;
            }
            p = e + 1;
        }
        /* ... and it has no address or mask of its own besides. */
        size_t alines = 0;
        for (const char *p = r; p < rend; p++)
            if (p == r || p[-1] == '\n')
                alines += (*p == 'A' || *p == 'M');
        if (alines != 2)
            return false;
        if (!*rend) {
            *why = NULL;
            return true;
        }
        r = rend + 4;
    }
}

bool al_region_reads_within(const char *read, const char *written, const char **why)
{
    const char *ignored;
    why = why ? why : &ignored;
    *why = "its loads or the other's store are not of a form alloclint compares";
    if (!read || !written || strstr(written, "\n--\n"))
        return false;
    char *r = al_region_canonical(read), *w = al_region_canonical(written);
    bool ok = reads_within(r, w, why);
    free(r);
    free(w);
    return ok;
}

bool al_region_stable_text(const char *t)
{
    for (const char *p = t; *p;) {
        if (*p == '"' || *p == '\'' || *p == '{' || *p == ':' || *p == '@' || *p == '$' ||
            *p == '#')
            return false;
        if (isdigit((unsigned char)*p)) {
            while (isalnum((unsigned char)*p) || *p == '_' || *p == '.')
                p++;
            continue;
        }
        if (isalpha((unsigned char)*p) || *p == '_') {
            const char *s = p;
            while (isalnum((unsigned char)*p) || *p == '_')
                p++;
            size_t len = (size_t)(p - s);
            bool attr = s > t && s[-1] == '.';
            bool sized = al_str_in_list(al_region_size_calls, s, len);
            if (attr && !sized && !(len == 5 && !memcmp(s, "shape", 5)))
                return false;
            if (!attr && *p == '(' && !sized)
                return false;
            if (len == 6 && !memcmp(s, "lambda", 6))
                return false;
            continue;
        }
        p++;
    }
    return true;
}

/* Whether name[0..len) stands in the region as a whole identifier, not an
 * attribute's name; with `elements`, not only through its metadata
 * (`x.stride(0)`, `x.shape[1]`) either. */
static bool names(const char *region, const char *name, size_t len, bool elements)
{
    if (!region || !len)
        return false;
    for (const char *p = region; *p; p++) {
        if (strncmp(p, name, len) != 0)
            continue;
        bool before = p > region && (isalnum((unsigned char)p[-1]) || p[-1] == '_' || p[-1] == '.');
        bool after = isalnum((unsigned char)p[len]) || p[len] == '_' || (elements && p[len] == '.');
        if (!before && !after)
            return true;
    }
    return false;
}

bool al_region_mentions(const char *region, const char *name, size_t len)
{
    return names(region, name, len, false);
}

bool al_region_reads_tensor(const char *region, const char *name, size_t len)
{
    return names(region, name, len, true);
}
