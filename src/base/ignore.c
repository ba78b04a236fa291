#include "ignore.h"

#include "util.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

typedef enum { WM_MATCH, WM_NO_MATCH, WM_GIVE_UP, WM_BACK_TO_STARSTAR } wm_result;

static unsigned char fold(unsigned char c, bool icase)
{
    return icase && isupper(c) ? (unsigned char)tolower(c) : c;
}

static bool in_named_class(const char *name, size_t len, unsigned char c, bool icase, bool *known)
{
    *known = true;
#define CLASS_IS(s) (len == sizeof s - 1 && memcmp(name, s, len) == 0)
    if (CLASS_IS("alnum"))
        return isalnum(c);
    if (CLASS_IS("alpha"))
        return isalpha(c);
    if (CLASS_IS("blank"))
        return c == ' ' || c == '\t';
    if (CLASS_IS("cntrl"))
        return iscntrl(c);
    if (CLASS_IS("digit"))
        return isdigit(c);
    if (CLASS_IS("graph"))
        return isgraph(c);
    if (CLASS_IS("lower"))
        return islower(c) || (icase && isupper(c));
    if (CLASS_IS("print"))
        return isprint(c);
    if (CLASS_IS("punct"))
        return ispunct(c);
    if (CLASS_IS("space"))
        return isspace(c);
    if (CLASS_IS("upper"))
        return isupper(c) || (icase && islower(c));
    if (CLASS_IS("xdigit"))
        return isxdigit(c);
#undef CLASS_IS
    *known = false;
    return false;
}

/* A bracket expression at *pp (just past '['), against c. Leaves *pp on
 * its closing ']'. WM_GIVE_UP when the pattern ends inside it. */
static wm_result match_class(const unsigned char **pp, unsigned char c, bool icase)
{
    const unsigned char *p = *pp;
    unsigned char pc = *p;
    bool negated = pc == '!' || pc == '^';
    if (negated)
        pc = *++p;
    bool matched = false;
    unsigned char prev = 0;
    /* The first member may be ']' (taken literally). */
    do {
        if (!pc)
            return WM_GIVE_UP;
        if (pc == '\\') {
            pc = *++p;
            if (!pc)
                return WM_GIVE_UP;
            matched |= c == pc;
        } else if (pc == '-' && prev && p[1] && p[1] != ']') {
            pc = *++p;
            if (pc == '\\' && !(pc = *++p))
                return WM_GIVE_UP;
            if (c >= prev && c <= pc)
                matched = true;
            else if (icase && islower(c)) {
                unsigned char up = (unsigned char)toupper(c);
                matched |= up >= prev && up <= pc;
            }
            pc = 0; /* a range cannot start a range */
        } else if (pc == '[' && p[1] == ':') {
            const unsigned char *name = p + 2, *q = name;
            while (*q && *q != ']')
                q++;
            if (!*q)
                return WM_GIVE_UP;
            if (q - name < 1 || q[-1] != ':') {
                /* No ":]": the '[' is a member like any other. */
                matched |= c == '[';
                pc = '[';
            } else {
                bool known;
                matched |= in_named_class((const char *)name, (size_t)(q - name - 1), c, icase,
                                          &known);
                if (!known)
                    return WM_GIVE_UP;
                p = q;
                pc = 0;
            }
        } else {
            matched |= c == pc;
        }
        prev = pc;
        pc = *++p;
    } while (pc != ']');
    *pp = p;
    return matched == negated || c == '/' ? WM_NO_MATCH : WM_MATCH;
}

static wm_result wild(const unsigned char *start, const unsigned char *p, const unsigned char *text,
                      bool icase)
{
    for (; *p; p++, text++) {
        unsigned char t = fold(*text, icase);
        unsigned char pc = *p;
        if (!t && pc != '*')
            return WM_GIVE_UP;
        switch (pc) {
        case '?':
            if (t == '/')
                return WM_NO_MATCH;
            break;
        case '[': {
            p++;
            wm_result r = match_class(&p, t, icase);
            if (r != WM_MATCH)
                return r;
            break;
        }
        case '*': {
            bool any_folders = false;
            if (p[1] == '*') {
                const unsigned char *before = p - 1;
                p++;
                while (p[1] == '*')
                    p++;
                const unsigned char *after = p + 1;
                /* "**" counts only as a whole path component. */
                if ((before < start || *before == '/') &&
                    (!*after || *after == '/' || (after[0] == '\\' && after[1] == '/'))) {
                    if (*after == '/' && wild(start, after + 1, text, icase) == WM_MATCH)
                        return WM_MATCH; /* "**" + "/" matching no folder at all */
                    any_folders = true;
                }
            }
            p++;
            if (!*p)
                return any_folders || !strchr((const char *)text, '/') ? WM_MATCH : WM_NO_MATCH;
            if (!any_folders && *p == '/') {
                const char *slash = strchr((const char *)text, '/');
                if (!slash)
                    return WM_NO_MATCH;
                text = (const unsigned char *)slash;
                break; /* the loop steps over both slashes */
            }
            for (;; text++) {
                if (!*text)
                    return WM_GIVE_UP;
                wm_result r = wild(start, p, text, icase);
                if (r != WM_NO_MATCH) {
                    if (!any_folders || r != WM_BACK_TO_STARSTAR)
                        return r;
                } else if (!any_folders && *text == '/') {
                    return WM_BACK_TO_STARSTAR;
                }
            }
        }
        case '\\':
            /* The next character, literally (not folded, as git does). */
            if (t != *++p)
                return WM_NO_MATCH;
            break;
        default:
            if (t != fold(pc, icase))
                return WM_NO_MATCH;
            break;
        }
    }
    return *text ? WM_NO_MATCH : WM_MATCH;
}

bool al_wildmatch(const char *pattern, const char *text, bool icase)
{
    const unsigned char *p = (const unsigned char *)pattern;
    return wild(p, p, (const unsigned char *)text, icase) == WM_MATCH;
}

/* git drops trailing spaces unless the last one is escaped. */
static size_t trim_trailing_spaces(const char *s, size_t len)
{
    size_t end = len;
    while (end > 0 && s[end - 1] == ' ') {
        size_t backslashes = 0;
        for (size_t k = end - 1; k > 0 && s[k - 1] == '\\'; k--)
            backslashes++;
        if (backslashes % 2)
            break; /* "\ " keeps this space, and those before it */
        end--;
    }
    return end;
}

static bool has_wildcard(const char *s)
{
    return strpbrk(s, "*?[\\") != NULL;
}

/* The literal text before a glob's first special character and after
 * its last. A "**" + "/" may match nothing, so a tail's leading slash
 * after "**" is not required. */
static void literal_ends(al_ignore_pattern *pat)
{
    const char *g = pat->glob;
    size_t len = strlen(g);
    pat->head_len = strcspn(g, "*?[\\");
    size_t tail = len;
    while (tail > 0 && !strchr("*?[]\\", g[tail - 1]))
        tail--;
    if (tail < len && g[tail] == '/' && tail >= 2 && g[tail - 1] == '*' && g[tail - 2] == '*')
        tail++;
    pat->tail_len = len - tail;
}

static bool ends_fit(const al_ignore_pattern *pat, const char *text, bool icase)
{
    /* Head and tail stand for disjoint parts of any text matched. */
    size_t tl = strlen(text);
    if (pat->head_len + pat->tail_len > tl)
        return false;
    if (pat->head_len &&
        (icase ? strncasecmp(text, pat->glob, pat->head_len) : strncmp(text, pat->glob, pat->head_len)))
        return false;
    if (pat->tail_len) {
        const char *want = pat->glob + strlen(pat->glob) - pat->tail_len;
        const char *have = text + tl - pat->tail_len;
        if (icase ? strcasecmp(have, want) : strcmp(have, want))
            return false;
    }
    return true;
}

static void add_line(al_ignore_rules *rules, const char *s, size_t len)
{
    if (len && s[len - 1] == '\r')
        len--;
    if (!len || s[0] == '#')
        return;
    len = trim_trailing_spaces(s, len);
    if (!len)
        return;
    al_ignore_pattern pat = {0};
    if (s[0] == '!') {
        pat.negated = true;
        s++, len--;
    }
    if (len && s[len - 1] == '/') {
        pat.dir_only = true;
        len--;
    }
    if (!len)
        return;
    pat.anchored = memchr(s, '/', len) != NULL;
    if (s[0] == '/') {
        s++, len--;
        if (!len)
            return;
    }
    pat.glob = al_xstrndup(s, len);
    if (!has_wildcard(pat.glob))
        pat.form = AL_IGNORE_LITERAL;
    else if (pat.glob[0] == '*' && !has_wildcard(pat.glob + 1))
        pat.form = AL_IGNORE_SUFFIX;
    literal_ends(&pat);
    AL_PUSH(rules->items, rules->n, rules->cap, pat);
}

void al_ignore_parse(al_ignore_rules *rules, const char *bytes, size_t len)
{
    if (len >= 3 && memcmp(bytes, "\xEF\xBB\xBF", 3) == 0)
        bytes += 3, len -= 3;
    const char *end = bytes + len;
    while (bytes < end) {
        const char *nl = memchr(bytes, '\n', (size_t)(end - bytes));
        size_t n = nl ? (size_t)(nl - bytes) : (size_t)(end - bytes);
        add_line(rules, bytes, n);
        bytes += n + (nl != NULL);
    }
}

void al_ignore_rules_free(al_ignore_rules *rules)
{
    for (size_t i = 0; i < rules->n; i++)
        free(rules->items[i].glob);
    free(rules->items);
    memset(rules, 0, sizeof *rules);
}

al_ignore_verdict al_ignore_match(const al_ignore_rules *rules, const char *rel, bool is_dir,
                                  bool icase)
{
    const char *slash = strrchr(rel, '/');
    const char *base = slash ? slash + 1 : rel;
    for (size_t i = rules->n; i-- > 0;) {
        const al_ignore_pattern *pat = &rules->items[i];
        if (pat->dir_only && !is_dir)
            continue;
        const char *text = pat->anchored ? rel : base;
        bool hit;
        if (pat->form == AL_IGNORE_LITERAL) {
            hit = icase ? !strcasecmp(pat->glob, text) : !strcmp(pat->glob, text);
        } else if (pat->form == AL_IGNORE_SUFFIX) {
            /* The whole glob is its tail after one '*', which never
             * crosses '/': no slash may come before the tail. */
            hit = ends_fit(pat, text, icase) &&
                  !memchr(text, '/', strlen(text) - pat->tail_len);
        } else {
            hit = ends_fit(pat, text, icase) && al_wildmatch(pat->glob, text, icase);
        }
        if (hit)
            return pat->negated ? AL_IGNORE_INCLUDED : AL_IGNORE_EXCLUDED;
    }
    return AL_IGNORE_NO_MATCH;
}
