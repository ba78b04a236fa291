/* Python text read byte by byte, as the prefilter and its site tests read
 * it: identifier characters, blanks between tokens, string and number
 * literals, brackets. No tree: each answer is about the bytes around p. */
#ifndef ALLOCLINT_PYLEX_H
#define ALLOCLINT_PYLEX_H

#include <stdbool.h>
#include <stddef.h>
#include <string.h>

/* Per byte: 1 starts a name (letters, `_`, any byte of a multi-byte
 * UTF-8 character), 2 continues one (those and digits). One load where
 * the scan meets every byte of every file. */
extern const unsigned char al_lex_name_class[256];

static inline bool al_lex_ident_start(unsigned char c)
{
    return al_lex_name_class[c] & 1;
}

static inline bool al_lex_ident_char(unsigned char c)
{
    return al_lex_name_class[c] & 2;
}

/* (The length compared is w's: a literal's, known to the compiler, so the
 * comparison is inlined.) */
static inline bool al_lex_word_is(const char *p, size_t n, const char *w)
{
    return strlen(w) == n && !memcmp(p, w, strlen(w));
}

/* Blanks between tokens: spaces, tabs, form feeds, line continuations,
 * and with newlines, line ends (inside brackets). */
static inline bool al_lex_is_blank(char c, bool newlines)
{
    return c == ' ' || c == '\t' || c == '\\' || c == '\f' || (newlines && (c == '\n' || c == '\r'));
}

static inline const char *al_lex_skip_blanks(const char *q, const char *end, bool newlines)
{
    while (q < end && al_lex_is_blank(*q, newlines))
        q++;
    return q;
}

/* The `.` that makes the name at p an attribute (blanks, and line breaks,
 * which only brackets allow there, between), or NULL. */
static inline const char *al_lex_dot_before(const char *bytes, const char *p)
{
    while (p > bytes && al_lex_is_blank(p[-1], true))
        p--;
    return p > bytes && p[-1] == '.' ? p - 1 : NULL;
}

/* Whether the name at p is an attribute. */
static inline bool al_lex_after_dot(const char *bytes, const char *p)
{
    return al_lex_dot_before(bytes, p) != NULL;
}

/* Where a string literal that opens at p (on its quote) ends. */
const char *al_lex_skip_string(const char *p, const char *end);
/* Where the bracket that opens at p closes (its partner, matched past
 * strings and comments), or NULL when the text ends first. */
const char *al_lex_closing_bracket(const char *p, const char *end);
/* Past a number literal that starts at p: `1e-5` holds a sign that is no
 * operator. */
const char *al_lex_skip_number(const char *p, const char *end);

#endif
