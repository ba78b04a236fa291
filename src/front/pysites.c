#include "pysites.h"

#include "pylex.h"

#include <string.h>

/* Whether the call whose `(` is at open is a whole value: what follows
 * its `)` ends an assignment's value or an argument (`x = f(a)`,
 * `g(f(a), b)`), not `f(a) + 1`, `f(a).cuda()` or `f(a)[0]`. A line
 * break there may continue the expression inside brackets: it may. */
static bool call_ends_value(const char *open, const char *end)
{
    const char *close = al_lex_closing_bracket(open, end);
    if (!close)
        return true;
    const char *q = close + 1;
    for (;;) {
        while (q < end && (*q == ' ' || *q == '\t' || *q == '\f'))
            q++;
        if (q + 1 < end && *q == '\\' && (q[1] == '\n' || q[1] == '\r')) {
            q += q[1] == '\r' && q + 2 < end && q[2] == '\n' ? 3 : 2;
            continue;
        }
        break;
    }
    /* `torch.zeros(n) if c else None`: a conditional allocation. */
    if (q + 3 < end && q[0] == 'i' && q[1] == 'f' && (q[2] == ' ' || q[2] == '\t' || q[2] == '('))
        return true;
    return q >= end || strchr("\n\r#;,)", *q);
}

/* The methods AL401 puts in place (rules/al401.c): `x.m(...)`, `torch.m(x, ...)`. */
static bool inplace_method(const char *p, size_t n)
{
    static const char *const m[] = {"add", "sub", "mul", "div", "clamp", "clamp_min",
                                    "clamp_max", "masked_fill", "masked_scatter", "minimum",
                                    "maximum", NULL};
    for (int i = 0; m[i]; i++)
        if (al_lex_word_is(p, n, m[i]))
            return true;
    return false;
}

static bool keyword_operator(const char *p, size_t n)
{
    static const char *const k[] = {"if", "else", "and", "or", "not", "in", "is", "lambda", NULL};
    for (int i = 0; k[i]; i++)
        if (al_lex_word_is(p, n, k[i]))
            return true;
    return false;
}

/* Whether the operator at op (+ - * /, right after the assigned name in
 * `x = x <op> ...`) may be the value's top operator, as AL401 needs
 * (`x = x - y`, not `x = x * a + b`, `x = x ** 2` or `x = x - a if c else b`):
 * false only when a later operator on the logical line, outside brackets
 * and strings, binds looser or as loose (Python's left associativity). */
static bool leads_value(const char *op, const char *end)
{
    bool mul = *op == '*' || *op == '/';
    if (end - op > 1 && mul && op[1] == *op)
        return false; /* `**`, `//` */
    const char *p = op + 1;
    int depth = 0;
    bool operand = false; /* the token before p ends an operand: a sign after it is binary */
    while (p < end) {
        char c = *p;
        if (c == '\\' && end - p > 1 && (p[1] == '\n' || p[1] == '\r')) {
            p += 2;
            continue;
        }
        if (c == '\n' || c == '\r') {
            if (depth == 0)
                return true;
            p++;
            continue;
        }
        if (c == '#') {
            if (depth == 0)
                return true;
            const char *e = memchr(p, '\n', (size_t)(end - p));
            p = e ? e : end;
            continue;
        }
        if (c == '"' || c == '\'') {
            p = al_lex_skip_string(p, end);
            operand = true;
            continue;
        }
        if (c >= '0' && c <= '9') {
            p = al_lex_skip_number(p, end);
            operand = true;
            continue;
        }
        if (al_lex_ident_start((unsigned char)c)) {
            const char *w = p;
            while (w < end && al_lex_ident_char((unsigned char)*w))
                w++;
            if (w < end && (*w == '"' || *w == '\'') && w - p <= 3) {
                p = w; /* a string's prefix */
                continue;
            }
            if (depth == 0 && keyword_operator(p, (size_t)(w - p)))
                return false;
            operand = !al_lex_word_is(p, (size_t)(w - p), "await");
            p = w;
            continue;
        }
        if (c == '(' || c == '[' || c == '{') {
            depth++;
            operand = false;
            p++;
            continue;
        }
        if (c == ')' || c == ']' || c == '}') {
            if (depth == 0)
                return true; /* not ours to judge */
            depth--;
            operand = true;
            p++;
            continue;
        }
        if (depth == 0) {
            if (c == ';')
                return true;
            if (c == ',' || c == '<' || c == '>' || c == '&' || c == '|' || c == '^' ||
                (c == '=' && end - p > 1 && p[1] == '=') || (c == '!' && end - p > 1 && p[1] == '='))
                return false;
            if ((c == '+' || c == '-') && operand)
                return false;
            if (mul && operand && (c == '%' || c == '@' || c == '/' ||
                                   (c == '*' && !(end - p > 1 && p[1] == '*'))))
                return false;
            if (c == '*' && end - p > 1 && p[1] == '*') {
                operand = false;
                p += 2;
                continue;
            }
        }
        if (c != ' ' && c != '\t' && c != '\f' && c != '.')
            operand = false;
        p++;
    }
    return true;
}

bool al_site_rebind(const char *bytes, const char *p, const char *w, const char *end)
{
    const char *b = p;
    while (b > bytes && al_lex_is_blank(b[-1], true))
        b--;
    const char *v = b;
    while (v > bytes && (al_lex_is_blank(v[-1], true) || v[-1] == '('))
        v--;
    bool first = v > bytes && v[-1] == '=' && !(v - 1 > bytes && strchr("=<>!", v[-2]));
    const char *a = w;
    while (a < end && (*a == ' ' || *a == '\t' || *a == ')'))
        a++;
    if (first && a < end && strchr("+-*/", *a))
        return leads_value(a, end);
    if (first && a < end && *a == '.') {
        /* `x = x.clamp(...)`: only a method AL401 has an in-place form
         * of (`x = x.view(...)` is no candidate). */
        const char *m = al_lex_skip_blanks(a + 1, end, true), *me = m;
        while (me < end && al_lex_ident_char((unsigned char)*me))
            me++;
        const char *open = al_lex_skip_blanks(me, end, true);
        if (open < end && *open == '(' && inplace_method(m, (size_t)(me - m)))
            return true;
    }
    if (b > bytes && b[-1] == '(') {
        const char *ne = b - 1, *nm = ne;
        while (nm > bytes && al_lex_ident_char((unsigned char)nm[-1]))
            nm--;
        if (inplace_method(nm, (size_t)(ne - nm)))
            return true;
    }
    /* `x = torch.maximum(c, x)`: x second, in the same call, on one line. */
    if (b > bytes && b[-1] == ',') {
        int depth = 0;
        const char *o = b - 1;
        while (o > bytes && o[-1] != '\n' && (depth > 0 || o[-1] != '(')) {
            depth += o[-1] == ')' || o[-1] == ']';
            depth -= o[-1] == '(' || o[-1] == '[';
            o--;
        }
        if (o > bytes && o[-1] == '(') {
            const char *ne = o - 1, *nm = ne;
            while (nm > bytes && al_lex_ident_char((unsigned char)nm[-1]))
                nm--;
            if (al_lex_word_is(nm, (size_t)(ne - nm), "minimum") ||
                al_lex_word_is(nm, (size_t)(ne - nm), "maximum"))
                return true;
        }
    }
    return b > bytes && (b[-1] == '+' || b[-1] == '*') &&
           (a >= end || *a == '\n' || *a == '\r' || *a == '#' || *a == ';');
}

bool al_site_fill(const char *bytes, const char *p, const char *open, const char *end,
                  const al_site_context *ctx)
{
    const char *q = p;
    for (;;) {
        while (q > bytes && al_lex_is_blank(q[-1], false))
            q--;
        if (q > bytes && (q[-1] == '\n' || q[-1] == '\r'))
            return true;
        if (q == bytes || q[-1] != '.')
            break;
        q--;
        while (q > bytes && al_lex_is_blank(q[-1], false))
            q--;
        if (q > bytes && (strchr(")]}'\"\n\r", q[-1])))
            return true;
        while (q > bytes && al_lex_ident_char((unsigned char)q[-1]))
            q--;
    }
    if (q == bytes)
        return false;
    char c = q[-1];
    /* `x = None if c else torch.zeros(n)` */
    if (q - bytes >= 5 && !memcmp(q - 4, "else", 4) && al_lex_is_blank(q[-5], false) &&
        ctx->depth == 0 && ctx->name_target)
        return call_ends_value(open, end);
    if (c == '=') {
        if (q - 1 > bytes && strchr("=!<>+-*/%@&|^:", q[-2]))
            return false; /* a comparison, an augmented assignment, `:=` */
        /* At the top of the line: an assignment, to a name only when the
         * line started `name =` or `name:` (or follows a compound
         * statement's colon: `if c: x = ...`). In brackets: a keyword
         * argument, of a call only. */
        if (ctx->depth == 0 ? !(ctx->name_target || ctx->colon) : !ctx->in_call)
            return false;
    } else if (c == '(' || c == ',') {
        if (ctx->depth == 0 || !ctx->in_call)
            return false;
    } else {
        return false;
    }
    return call_ends_value(open, end);
}
