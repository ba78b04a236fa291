#include "pylex.h"

#define NAME_START 3 /* starts and continues a name */
#define DIGIT 2
#define TEN(v) v, v, v, v, v, v, v, v, v, v
#define SIXTEEN(v) v, v, v, v, v, v, v, v, v, v, v, v, v, v, v, v
const unsigned char al_lex_name_class[256] = {
    SIXTEEN(0), SIXTEEN(0), SIXTEEN(0),
    TEN(DIGIT), 0, 0, 0, 0, 0, 0,                                     /* 0-9 */
    0, TEN(NAME_START), TEN(NAME_START), NAME_START, NAME_START, NAME_START, NAME_START,
    NAME_START, NAME_START, 0, 0, 0, 0, NAME_START,                   /* A-Z, _ */
    0, TEN(NAME_START), TEN(NAME_START), NAME_START, NAME_START, NAME_START, NAME_START,
    NAME_START, NAME_START, 0, 0, 0, 0, 0,                            /* a-z */
    SIXTEEN(NAME_START), SIXTEEN(NAME_START), SIXTEEN(NAME_START), SIXTEEN(NAME_START),
    SIXTEEN(NAME_START), SIXTEEN(NAME_START), SIXTEEN(NAME_START), SIXTEEN(NAME_START),
};

/* Where a string literal that opens at p (on its quote) ends. */
const char *al_lex_skip_string(const char *p, const char *end)
{
    char q = *p;
    bool triple = end - p >= 3 && p[1] == q && p[2] == q;
    p += triple ? 3 : 1;
    while (p < end) {
        if (*p == '\\') {
            p += 2;
            continue;
        }
        if (*p == q) {
            if (!triple)
                return p + 1;
            if (end - p >= 3 && p[1] == q && p[2] == q)
                return p + 3;
        } else if (*p == '\n' && !triple) {
            return p; /* unterminated: the line ends it */
        }
        p++;
    }
    return end;
}

/* Where the bracket that opens at p closes (its partner, matched past
 * strings and comments), or NULL when the text ends first. */
const char *al_lex_closing_bracket(const char *p, const char *end)
{
    int depth = 0;
    while (p < end) {
        char c = *p;
        if (c == '"' || c == '\'') {
            p = al_lex_skip_string(p, end);
            continue;
        }
        if (c == '#') {
            const char *e = memchr(p, '\n', (size_t)(end - p));
            p = e ? e : end;
            continue;
        }
        if (c == '(' || c == '[' || c == '{')
            depth++;
        else if ((c == ')' || c == ']' || c == '}') && --depth == 0)
            return p;
        p++;
    }
    return NULL;
}

/* Past a number literal that starts at p: `1e-5` holds a sign that is no
 * operator. */
const char *al_lex_skip_number(const char *p, const char *end)
{
    bool radix = end - p > 1 && p[0] == '0' && strchr("xXoObB", p[1]);
    while (p < end) {
        if (!radix && (*p == 'e' || *p == 'E') && end - p > 1 && (p[1] == '+' || p[1] == '-'))
            p += 2;
        else if (al_lex_ident_char((unsigned char)*p) || *p == '.')
            p++;
        else
            break;
    }
    return p;
}
