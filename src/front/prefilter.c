#include "prefilter.h"

#include "pylex.h"
#include "pysites.h"

#include "../base/util.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* Whether `word` is called: followed (after blanks) by `(`, as in
 * `zeros(`, `zeros_like (`. */
static bool called(const char *p, const char *end, const char *word)
{
    size_t wl = strlen(word);
    for (const char *at = p; (at = memmem(at, (size_t)(end - at), word, wl)) != NULL; at += wl) {
        const char *q = at + wl;
        if (q < end && *q == '_') { /* zeros_like, full_like */
            while (q < end && (*q == '_' || (*q >= 'a' && *q <= 'z')))
                q++;
        }
        while (q < end && (*q == ' ' || *q == '\t' || *q == '\n' || *q == '\r' || *q == '\\'))
            q++;
        if (q < end && *q == '(')
            return true;
    }
    return false;
}

/* Whether `word` is imported under another name: `zeros as tz`. */
static bool aliased(const char *p, const char *end, const char *word)
{
    size_t wl = strlen(word);
    for (const char *at = p; (at = memmem(at, (size_t)(end - at), word, wl)) != NULL; at += wl) {
        const char *q = at + wl;
        while (q < end && (*q == '_' || (*q >= 'a' && *q <= 'z')))
            q++;
        const char *blank = q;
        while (q < end && (*q == ' ' || *q == '\t'))
            q++;
        if (q == blank)
            continue;
        if (end - q > 3 && q[0] == 'a' && q[1] == 's' && (q[2] == ' ' || q[2] == '\t'))
            return true;
    }
    return false;
}

static bool any_called(const char *p, const char *end, const char *const *words)
{
    for (int i = 0; words[i]; i++)
        if (called(p, end, words[i]) || aliased(p, end, words[i]))
            return true;
    return false;
}

unsigned al_prefilter_scan(const char *bytes, size_t len, unsigned wanted)
{
    const char *p = bytes, *end = bytes + len;
    unsigned t = 0;
    static const char *const factory[] = {"zeros", "ones", "full", NULL};
    /* Every other factory the rules know, spelled out: `rand` does not
     * find `randn(`. */
    static const char *const maker[] = {"empty", "arange", "tensor", "rand", "randn", "randint",
                                        "randperm", "normal", "bernoulli", "multinomial", "eye",
                                        "linspace", "logspace", "as_tensor", NULL};
    static const char *const cat[] = {"cat", "concat", "concatenate", "stack", "pad", NULL};
    static const char *const fill[] = {"fill_", "zero_", NULL};
    if ((wanted & AL_TOK_FACTORY) && any_called(p, end, factory))
        t |= AL_TOK_FACTORY;
    if ((wanted & AL_TOK_MAKER) && any_called(p, end, maker))
        t |= AL_TOK_MAKER;
    if ((wanted & AL_TOK_CAT) && any_called(p, end, cat))
        t |= AL_TOK_CAT;
    if ((wanted & AL_TOK_FILL) && any_called(p, end, fill))
        t |= AL_TOK_FILL;
    if ((wanted & AL_TOK_CUMSUM) && any_called(p, end, (const char *const[]){"cumsum", NULL}))
        t |= AL_TOK_CUMSUM;
    if ((wanted & AL_TOK_TRITON) && memmem(p, len, "triton", 6))
        t |= AL_TOK_TRITON;
    if ((wanted & AL_TOK_LOOP) && (memmem(p, len, "for ", 4) || memmem(p, len, "while ", 6)))
        t |= AL_TOK_LOOP;
    if ((wanted & AL_TOK_MOVE) && (memmem(p, len, ".to(", 4) || memmem(p, len, ".cuda(", 6)))
        t |= AL_TOK_MOVE;
    if ((wanted & AL_TOK_SUPPRESS) && (memmem(p, len, "noqa", 4) || memmem(p, len, "alloclint:", 10)))
        t |= AL_TOK_SUPPRESS;
    return t;
}

bool al_prefilter_admits(const unsigned needs[AL_PREFILTER_TERMS], unsigned tokens)
{
    for (int i = 0; i < AL_PREFILTER_TERMS; i++)
        if (needs[i] && !(needs[i] & tokens))
            return false;
    return true;
}

/* ------------------------------------------------------------------ */
/* Python: one pass over the bytes for the token classes and the
 * top-level statements that hold them. */

/* The class of one `_`-separated part of a called name: `zeros` in
 * `new_zeros`, `zeros_like`; `copy` only when an underscore follows
 * (`copy_`, `index_copy_`). */
static unsigned part_class(const char *p, size_t n, bool underscore_follows)
{
    switch (n) {
    case 3:
        if (al_lex_word_is(p, n, "cat") || al_lex_word_is(p, n, "pad"))
            return AL_TOK_CAT;
        if (al_lex_word_is(p, n, "eye"))
            return AL_TOK_MAKER;
        if (al_lex_word_is(p, n, "sin") || al_lex_word_is(p, n, "cos") || al_lex_word_is(p, n, "tan") ||
            al_lex_word_is(p, n, "exp") || al_lex_word_is(p, n, "log") || al_lex_word_is(p, n, "erf") ||
            al_lex_word_is(p, n, "neg") || al_lex_word_is(p, n, "abs"))
            return AL_TOK_ELEMWISE;
        return 0;
    case 4:
        if (al_lex_word_is(p, n, "asin") || al_lex_word_is(p, n, "acos") || al_lex_word_is(p, n, "atan") ||
            al_lex_word_is(p, n, "sinh") || al_lex_word_is(p, n, "cosh") || al_lex_word_is(p, n, "tanh") ||
            al_lex_word_is(p, n, "exp2") || al_lex_word_is(p, n, "log2") || al_lex_word_is(p, n, "sqrt") ||
            al_lex_word_is(p, n, "erfc"))
            return AL_TOK_ELEMWISE;
        if (al_lex_word_is(p, n, "ones") || al_lex_word_is(p, n, "full"))
            return AL_TOK_FACTORY;
        if (al_lex_word_is(p, n, "rand"))
            return AL_TOK_MAKER;
        if (underscore_follows && al_lex_word_is(p, n, "copy"))
            return AL_TOK_COPY;
        return 0;
    case 5:
        if (al_lex_word_is(p, n, "zeros"))
            return AL_TOK_FACTORY;
        if (al_lex_word_is(p, n, "expm1") || al_lex_word_is(p, n, "log10") || al_lex_word_is(p, n, "log1p") ||
            al_lex_word_is(p, n, "rsqrt"))
            return AL_TOK_ELEMWISE;
        if (al_lex_word_is(p, n, "empty") || al_lex_word_is(p, n, "randn"))
            return AL_TOK_MAKER;
        if (al_lex_word_is(p, n, "stack"))
            return AL_TOK_CAT;
        return 0;
    case 6:
        if (al_lex_word_is(p, n, "arange") || al_lex_word_is(p, n, "tensor") || al_lex_word_is(p, n, "normal"))
            return AL_TOK_MAKER;
        if (al_lex_word_is(p, n, "concat"))
            return AL_TOK_CAT;
        return al_lex_word_is(p, n, "cumsum") ? AL_TOK_CUMSUM : 0;
    case 7:
        if (al_lex_word_is(p, n, "sigmoid"))
            return AL_TOK_ELEMWISE;
        return al_lex_word_is(p, n, "randint") ? AL_TOK_MAKER : 0;
    case 8:
        return al_lex_word_is(p, n, "randperm") || al_lex_word_is(p, n, "linspace") ||
                       al_lex_word_is(p, n, "logspace")
                   ? AL_TOK_MAKER
                   : 0;
    case 9:
        return al_lex_word_is(p, n, "bernoulli") ? AL_TOK_MAKER : 0;
    case 10:
        return al_lex_word_is(p, n, "reciprocal") ? AL_TOK_ELEMWISE : 0;
    case 11:
        if (al_lex_word_is(p, n, "multinomial"))
            return AL_TOK_MAKER;
        return al_lex_word_is(p, n, "concatenate") ? AL_TOK_CAT : 0;
    default:
        return 0;
    }
}

/* The classes a name stands for when called. */
static unsigned name_class(const char *p, size_t n)
{
    unsigned t = 0;
    size_t i = 0;
    while (i <= n) {
        size_t j = i;
        while (j < n && p[j] != '_')
            j++;
        if (j > i)
            t |= part_class(p + i, j - i, j < n);
        i = j + 1;
    }
    /* A fill is `fill_` or `zero_` itself, the methods AL103 and AL303
     * read (`masked_fill_`, `index_fill_` fill some elements only). */
    if (al_lex_word_is(p, n, "fill_") || al_lex_word_is(p, n, "zero_"))
        t |= AL_TOK_FILL;
    return t;
}

/* Calls f for each name called in [p, e): `name(`, and with attributes
 * also `x.name(`. */
static void each_call(const char *bytes, const char *p, const char *e, bool attributes,
                      void (*f)(const char *name, size_t len, void *arg), void *arg)
{
    while (p < e) {
        if (!al_lex_ident_start((unsigned char)*p) || (p > bytes && al_lex_ident_char((unsigned char)p[-1]))) {
            p++;
            continue;
        }
        const char *w = p;
        while (w < e && al_lex_ident_char((unsigned char)*w))
            w++;
        const char *after = al_lex_skip_blanks(w, e, true);
        if (after < e && *after == '(' && (attributes || !(p > bytes && p[-1] == '.')))
            f(p, (size_t)(w - p), arg);
        p = w;
    }
}

static void add_class(const char *name, size_t len, void *arg)
{
    *(unsigned *)arg |= name_class(name, len);
}

/* A comment's classes: a suppression naming AL codes, or alloclint's own
 * directive (what AL900 and the suppressions read). */
static unsigned comment_class(const char *p, const char *e)
{
    for (const char *q = p; q + 4 <= e; q++) {
        if ((*q == 'n' || *q == 'N') && !strncasecmp(q, "noqa", 4)) {
            for (const char *r = q + 4; r + 2 <= e; r++)
                if ((r[0] == 'A' || r[0] == 'a') && (r[1] == 'L' || r[1] == 'l'))
                    return AL_TOK_SUPPRESS;
            return 0;
        }
        if (*q == 'a' && q + 10 <= e && !strncmp(q, "alloclint:", 10))
            return AL_TOK_SUPPRESS;
    }
    return 0;
}

/* Whether the `(` at p calls what stands before it (a name, a call's or a
 * subscript's result) rather than grouping (`= (a, b)`, `return (x)`
 * counts as a call: a keyword is not told from a name here). */
static bool opens_call(const char *bytes, const char *p)
{
    while (p > bytes && al_lex_is_blank(p[-1], true))
        p--;
    return p > bytes && (al_lex_ident_char((unsigned char)p[-1]) || p[-1] == ')' || p[-1] == ']');
}

/* Whether the method name at p is called on a subscript: `buf[i].zero_(`. */
static bool on_subscript(const char *bytes, const char *p)
{
    const char *dot = al_lex_dot_before(bytes, p);
    if (!dot)
        return false;
    while (dot > bytes && al_lex_is_blank(dot[-1], true))
        dot--;
    return dot > bytes && dot[-1] == ']';
}

/* Whether the string whose quote is at p has an f in its prefix. */
static bool f_string(const char *bytes, const char *p)
{
    for (int i = 1; i <= 3 && p - i >= bytes && al_lex_ident_char((unsigned char)p[-i]); i++)
        if (p[-i] == 'f' || p[-i] == 'F')
            return true;
    return false;
}


/* The name a `def name` or `async def name` line at `at` defines, as an
 * offset and length (length 0: not a function). */
static void function_name(const char *bytes, const char *at, const char *end,
                          al_statement_span *out)
{
    const char *w = at;
    if (end - w > 6 && !memcmp(w, "async", 5) && !al_lex_ident_char((unsigned char)w[5]))
        w = al_lex_skip_blanks(w + 5, end, false);
    if (end - w > 4 && !memcmp(w, "def", 3) && !al_lex_ident_char((unsigned char)w[3])) {
        const char *nm = al_lex_skip_blanks(w + 3, end, false), *ne = nm;
        while (ne < end && al_lex_ident_char((unsigned char)*ne))
            ne++;
        out->name = (size_t)(nm - bytes);
        out->name_len = (size_t)(ne - nm);
    }
}

/* A statement starting at `start` whose first line's code is at `at`. */
static al_statement_span new_statement(const char *bytes, size_t start, const char *at,
                                       const char *end, unsigned tokens, bool definition)
{
    al_statement_span r = {start, start, tokens, definition, 0, 0, 0, 0, tokens};
    if (definition)
        function_name(bytes, at, end, &r);
    return r;
}

static void push_statement(al_py_scan *s, const char *bytes, size_t start, const char *at,
                           const char *end, unsigned tokens, bool definition)
{
    al_statement_span r = new_statement(bytes, start, at, end, tokens, definition);
    AL_PUSH(s->items, s->n, s->cap, r);
}

static void push_member(al_py_scan *s, const char *bytes, size_t start, const char *at,
                        const char *end, unsigned tokens, bool definition)
{
    al_statement_span r = new_statement(bytes, start, at, end, tokens, definition);
    AL_PUSH(s->members, s->n_members, s->cap_members, r);
    s->items[s->n - 1].n_members++;
}

/* Adds token classes to the current statement, and to its current member
 * when it is a class whose body has begun. */
static inline void add_tokens(al_py_scan *s, unsigned t)
{
    if (!t)
        return;
    al_statement_span *top = &s->items[s->n - 1];
    top->tokens |= t;
    if (top->n_members)
        s->members[s->n_members - 1].tokens |= t;
    else
        top->head_tokens |= t;
}

static inline bool word_at_n(const char *p, const char *end, const char *w, size_t n)
{
    return (size_t)(end - p) > n && *p == *w && !memcmp(p, w, n) &&
           !al_lex_ident_char((unsigned char)p[n]);
}

/* w a literal: its length is known where it is written (a scan asks a
 * dozen words of every line). */
#define word_at(p, end, w) word_at_n((p), (end), "" w "", sizeof(w) - 1)

/* The first word of a statement, and whether it opens a definition. */
static bool opens_definition(const char *p, const char *end)
{
    if (*p == '@')
        return true;
    const char *w = p;
    while (w < end && al_lex_ident_char((unsigned char)*w))
        w++;
    size_t n = (size_t)(w - p);
    if (al_lex_word_is(p, n, "def") || al_lex_word_is(p, n, "class"))
        return true;
    if (al_lex_word_is(p, n, "async")) {
        w = al_lex_skip_blanks(w, end, false);
        return end - w > 3 && !strncmp(w, "def", 3) && !al_lex_ident_char((unsigned char)w[3]);
    }
    return false;
}

/* A clause that continues the statement above it: else, elif, except,
 * finally (and `case` never starts at column 0). */
static bool continues_statement(const char *p, const char *end)
{
    const char *w = p;
    while (w < end && al_lex_ident_char((unsigned char)*w))
        w++;
    size_t n = (size_t)(w - p);
    return al_lex_word_is(p, n, "else") || al_lex_word_is(p, n, "elif") || al_lex_word_is(p, n, "except") ||
           al_lex_word_is(p, n, "finally");
}

void al_prefilter_scan_python(const char *bytes, size_t len, al_py_scan *s)
{
    memset(s, 0, sizeof *s);
    const char *p = bytes, *end = bytes + len;
    int depth = 0;              /* open brackets */
    bool line_start = true;     /* at the start of a physical line */
    bool logical_start = true;  /* ...that starts a logical line */
    bool after_decorator = false;
    bool line_has_code = false;
    unsigned pending = 0;       /* tokens of comment lines not yet placed */
    size_t last_code_end = 0;   /* end of the last line holding code */
    const char *lhs = NULL;     /* `name =` at the start of this logical line */
    size_t lhs_len = 0;
    bool expect_lhs = false;
    /* The body of a top-level class: its indentation once seen (0: not
     * yet), and whether the current top-level statement is such a class. */
    bool in_class = false, member_decorated = false;
    size_t body_indent = 0;
    const char *decorator_at = NULL; /* the logical line of a decorator */
    unsigned line_tokens = 0;        /* called names' classes on this logical line */
    /* The indentation of the loops open at this line (`for`, `while`),
     * innermost last, and whether this logical line is in one. */
    size_t loops[64];
    size_t n_loops = 0;
    bool line_in_loop = false;
    bool line_compound = false; /* a compound statement's line: its body may follow on it */
    /* Whether each open bracket (the first 64) is a call's parenthesis,
     * and whether a `:` outside brackets came before on this logical line. */
    bool open_call[64];
    bool line_colon = false;
    push_statement(s, bytes, 0, bytes, end, 0, false);
    /* A byte-order mark is not code: the first line starts after it. */
    if (len >= 3 && !memcmp(bytes, "\xEF\xBB\xBF", 3))
        p += 3;
    while (p < end) {
        unsigned char c = (unsigned char)*p;
        if (line_start) {
            line_start = false;
            const char *q = p;
            while (q < end && (*q == ' ' || *q == '\t' || *q == '\f'))
                q++;
            if (q < end && *q != '\n' && *q != '\r' && *q != '#' && logical_start) {
                size_t indent = (size_t)(q - p);
                al_statement_span *top = &s->items[s->n - 1];
                if (q == p && depth == 0 && !continues_statement(q, end) && !after_decorator) {
                    /* A statement at column 0: a new region from the end of
                     * the code above (its comments come with it). */
                    top->end = last_code_end;
                    if (top->n_members)
                        s->members[s->n_members - 1].end = last_code_end;
                    push_statement(s, bytes, last_code_end, q, end, pending,
                                   opens_definition(q, end));
                    pending = 0;
                    in_class = word_at(q, end, "class");
                    body_indent = 0;
                } else if (in_class && indent > 0 && depth == 0 &&
                           (body_indent == 0 || indent == body_indent) &&
                           (top->n_members == 0 || !continues_statement(q, end)) &&
                           !member_decorated) {
                    /* A statement of the class's body: a member, from the
                     * end of the code above, as at the top level. */
                    if (body_indent == 0) {
                        body_indent = indent;
                        top->first_member = s->n_members;
                    } else {
                        s->members[s->n_members - 1].end = last_code_end;
                    }
                    top->tokens |= pending;
                    push_member(s, bytes, last_code_end, q, end, pending, opens_definition(q, end));
                    pending = 0;
                } else {
                    if (q == p && after_decorator && depth == 0) {
                        if (top->name_len == 0)
                            /* The `def` under decorators names the statement. */
                            function_name(bytes, q, end, top);
                        in_class = word_at(q, end, "class");
                    }
                    if (member_decorated && indent == body_indent && depth == 0 &&
                        s->members[s->n_members - 1].name_len == 0)
                        function_name(bytes, q, end, &s->members[s->n_members - 1]);
                    add_tokens(s, pending);
                    pending = 0;
                }
                after_decorator = q == p && *q == '@';
                if (*q == '@')
                    decorator_at = q;
                if (word_at(q, end, "import") || word_at(q, end, "from"))
                    add_tokens(s, AL_TOK_IMPORT);
                member_decorated = in_class && body_indent && indent == body_indent && *q == '@';
                /* A line indented no deeper than a loop ends it (its
                 * `else:` too, which runs once). */
                while (n_loops && indent <= loops[n_loops - 1])
                    n_loops--;
                const char *kw = word_at(q, end, "async") ? al_lex_skip_blanks(q + 5, end, false) : q;
                bool header = word_at(kw, end, "for") || word_at(kw, end, "while");
                /* Past 64 open loops, the outer ones keep every line in a loop. */
                if (header && n_loops < sizeof loops / sizeof loops[0])
                    loops[n_loops++] = indent;
                line_in_loop = n_loops > 0 || header;
                line_compound = header || word_at(q, end, "if") || word_at(q, end, "elif") ||
                                word_at(q, end, "else") || word_at(q, end, "with") ||
                                word_at(q, end, "try") || word_at(q, end, "except") ||
                                word_at(q, end, "finally") || word_at(q, end, "async");
                expect_lhs = true;
                lhs = NULL;
                line_tokens = 0;
                line_colon = false;
            }
            p = q;
            continue;
        }
        if (c == '\n') {
            if (line_has_code)
                last_code_end = (size_t)(p + 1 - bytes);
            line_has_code = false;
            line_start = true;
            const char *b = p > bytes && p[-1] == '\r' ? p - 1 : p;
            logical_start = depth == 0 && !(b > bytes && b[-1] == '\\');
            if (logical_start && decorator_at) {
                /* A kernel, as al_pymodule reads one: the decorator's text
                 * names triton anywhere. */
                if (memmem(decorator_at, (size_t)(p - decorator_at), "triton", 6))
                    add_tokens(s, AL_TOK_KERNEL);
                decorator_at = NULL;
            }
            p++;
            continue;
        }
        if (c == '#') {
            const char *e = memchr(p, '\n', (size_t)(end - p));
            e = e ? e : end;
            unsigned t = comment_class(p, e);
            if (line_has_code || depth > 0 || !logical_start)
                add_tokens(s, t);
            else
                pending |= t;
            p = e;
            continue;
        }
        line_has_code = true;
        if (c == ' ') { /* the commonest byte: changes nothing else */
            p++;
            continue;
        }
        if (c == '"' || c == '\'') {
            /* An f-string's fields are code: the names called there count
             * (a factory there may be a site); another string's bytes are
             * text, which no rule reads as code. Only the string's end
             * matters for the statement structure. */
            const char *e = al_lex_skip_string(p, end);
            unsigned t = 0;
            if (f_string(bytes, p)) {
                each_call(bytes, p + 1, e, true, add_class, &t);
                if (t & AL_TOK_FACTORY)
                    t |= AL_TOK_FILLSITE;
            }
            add_tokens(s, t);
            expect_lhs = false;
            p = e;
            continue;
        }
        if (al_lex_ident_start(c)) {
            const char *w = p;
            while (w < end && al_lex_ident_char((unsigned char)*w))
                w++;
            size_t n = (size_t)(w - p);
            /* A string prefix: r"...", f'...', rb"..." */
            if (n <= 3 && w < end && (*w == '"' || *w == '\'')) {
                bool prefix = true;
                for (const char *k = p; k < w; k++)
                    prefix &= strchr("rRbBfFuU", *k) != NULL;
                if (prefix) {
                    p = w;
                    continue;
                }
            }
            unsigned t = 0;
            if (al_lex_word_is(p, n, "for") || al_lex_word_is(p, n, "while"))
                t |= AL_TOK_LOOP;
            else if (al_lex_word_is(p, n, "tl") || al_lex_word_is(p, n, "jit") ||
                     (n >= 6 && !memcmp(p, "triton", 6)))
                t |= AL_TOK_TRITON; /* a kernel, its decorator or its launch */
            const char *after = al_lex_skip_blanks(w, end, true);
            if (after < end && *after == '(') {
                unsigned k = name_class(p, n);
                /* `torch.ops.aten.zeros.default(`: the op's name is the
                 * word before the overload's. */
                if (al_lex_word_is(p, n, "default") && p - 1 > bytes && p[-1] == '.') {
                    const char *b = p - 1;
                    while (b > bytes && al_lex_ident_char((unsigned char)b[-1]))
                        b--;
                    k |= name_class(b, (size_t)(p - 1 - b));
                }
                t |= k;
                if (k & AL_TOK_FACTORY) {
                    al_site_context ctx = {depth, depth > 64 || (depth > 0 && open_call[depth - 1]),
                                        lhs != NULL, line_colon};
                    if (al_site_fill(bytes, p, after, end, &ctx))
                        t |= AL_TOK_FILLSITE;
                }
                /* `x = torch.zeros(...)` in a loop's body, or any call on a
                 * compound statement's line there (`if c: x = torch.zeros(n)`). */
                if ((k & (AL_TOK_FACTORY | AL_TOK_MAKER)) && line_in_loop && (lhs || line_compound))
                    t |= AL_TOK_LOOPALLOC;
                if ((k & AL_TOK_CAT) && line_in_loop && (lhs || line_compound))
                    t |= AL_TOK_LOOPCAT;
                if (line_in_loop && al_lex_word_is(p, n, "append") && al_lex_after_dot(bytes, p))
                    t |= AL_TOK_LOOPAPPEND;
                if (line_in_loop && (k & AL_TOK_FILL) && on_subscript(bytes, p))
                    t |= AL_TOK_LOOPFILL;
                if ((al_lex_word_is(p, n, "to") || al_lex_word_is(p, n, "cuda")) && al_lex_after_dot(bytes, p)) {
                    t |= AL_TOK_MOVE;
                    if (line_tokens & (AL_TOK_FACTORY | AL_TOK_MAKER))
                        t |= AL_TOK_HOSTMOVE;
                }
                line_tokens |= t;
            } else if (end - after > 3 && after > w && after[0] == 'a' && after[1] == 's' &&
                       (after[2] == ' ' || after[2] == '\t') && name_class(p, n)) {
                s->renamed = true; /* `from torch import zeros as z` */
            }
            if (expect_lhs && !lhs) {
                const char *eq = al_lex_skip_blanks(w, end, false);
                /* `x = ...`, `x: T = ...` */
                if (eq < end && ((*eq == '=' && (eq + 1 >= end || eq[1] != '=')) || *eq == ':')) {
                    lhs = p;
                    lhs_len = n;
                    expect_lhs = false;
                    p = eq + 1;
                    add_tokens(s, t);
                    continue;
                }
            } else if (lhs && n == lhs_len && *p == *lhs && !memcmp(p, lhs, n) &&
                       !(p > bytes && p[-1] == '.') && al_site_rebind(bytes, p, w, end)) {
                t |= AL_TOK_REBIND;
            }
            expect_lhs = false;
            add_tokens(s, t);
            p = w;
            continue;
        }
        if (c == '(' || c == '[' || c == '{') {
            if (depth < 64)
                open_call[depth] = c == '(' && opens_call(bytes, p);
            depth++;
        } else if ((c == ')' || c == ']' || c == '}') && depth > 0) {
            depth--;
        } else if (c == ':' && depth == 0) {
            line_colon = true;
        }
        if (c != ' ' && c != '\t' && c != '\r' && c != '\\')
            expect_lhs = false;
        if (c == ';' && depth == 0) {
            line_colon = false;
            const char *q = al_lex_skip_blanks(p + 1, end, false);
            if (word_at(q, end, "import") || word_at(q, end, "from"))
                add_tokens(s, AL_TOK_IMPORT);
            expect_lhs = true;
            lhs = NULL;
        }
        p++;
    }
    add_tokens(s, pending);
    if (decorator_at && memmem(decorator_at, (size_t)(end - decorator_at), "triton", 6))
        add_tokens(s, AL_TOK_KERNEL);
    s->items[s->n - 1].end = len;
    if (s->items[s->n - 1].n_members)
        s->members[s->n_members - 1].end = len;
    for (size_t i = 0; i < s->n; i++)
        s->tokens |= s->items[i].tokens;
}

unsigned al_prefilter_tokens_python(const char *bytes, size_t len)
{
    al_py_scan s;
    al_prefilter_scan_python(bytes, len, &s);
    unsigned t = s.tokens;
    al_py_scan_free(&s);
    return t;
}

void al_py_scan_free(al_py_scan *s)
{
    free(s->items);
    free(s->members);
    memset(s, 0, sizeof *s);
}

static bool defines(const al_statement_span *g, const char *bytes, const char *name, size_t len)
{
    return g->name_len == len && !memcmp(bytes + g->name, name, len);
}

bool al_py_scan_defines(const al_py_scan *s, const char *bytes, size_t i, const char *name,
                        size_t len)
{
    return defines(&s->items[i], bytes, name, len);
}

bool al_text_assigns_attribute(const char *bytes, size_t start, size_t end, const char *name,
                               size_t n)
{
    const char *p = bytes + start, *e = bytes + end;
    for (; (p = memmem(p, (size_t)(e - p), name, n)) != NULL; p += n) {
        const char *b = p, *q = p + n;
        while (b > bytes && (b[-1] == ' ' || b[-1] == '\t'))
            b--;
        if (b == bytes || b[-1] != '.' || (q < e && al_lex_ident_char((unsigned char)*q)))
            continue;
        q = al_lex_skip_blanks(q, e, false);
        if (q < e && (*q == ':' || (*q == '=' && !(q + 1 < e && q[1] == '='))))
            return true;
    }
    return false;
}

/* The closure's work: statements (unit < s->n) and members (unit - s->n)
 * whose code is kept and not yet read for calls. */
typedef struct {
    const al_py_scan *scan;
    const char *bytes;
    bool *keep, *keep_member;
    size_t *owner; /* per member: its class among the statements */
    size_t *work, n_work;
    size_t current_class; /* of the member being read; SIZE_MAX: none */
} called_closure;

static void keep_called(const char *name, size_t len, void *arg)
{
    called_closure *c = arg;
    for (size_t i = 0; i < c->scan->n; i++)
        if (!c->keep[i] && al_py_scan_defines(c->scan, c->bytes, i, name, len)) {
            c->keep[i] = true;
            c->work[c->n_work++] = i;
        }
}

/* A method of the current class called through `self.` or `cls.` (all
 * that the index resolves to a method). */
static void keep_method(called_closure *c, const char *name, size_t len)
{
    const al_statement_span *cls = &c->scan->items[c->current_class];
    /* The members defining it; else, not a method of the class, a layer
     * (`self.proj = nn.Linear(...)`): what a call returns is read from
     * the members assigning it. */
    for (int pass = 0; pass < 2; pass++) {
        bool found = false;
        for (size_t k = 0; k < cls->n_members; k++) {
            size_t j = cls->first_member + k;
            const al_statement_span *m = &c->scan->members[j];
            if (pass == 0 ? !defines(m, c->bytes, name, len)
                          : !al_text_assigns_attribute(c->bytes, m->start, m->end, name, len))
                continue;
            found = true;
            if (!c->keep_member[j]) {
                c->keep_member[j] = true;
                c->work[c->n_work++] = c->scan->n + j;
            }
        }
        if (found)
            return;
    }
}

static void self_calls(called_closure *c, const char *p, const char *e)
{
    for (const char *at = p; at < e; at++) {
        size_t w = (size_t)(e - at) > 5 && !memcmp(at, "self.", 5)  ? 5
                   : (size_t)(e - at) > 4 && !memcmp(at, "cls.", 4) ? 4
                                                                      : 0;
        if (!w || (at > c->bytes && al_lex_ident_char((unsigned char)at[-1])))
            continue;
        const char *nm = at + w, *ne = nm;
        while (ne < e && al_lex_ident_char((unsigned char)*ne))
            ne++;
        const char *after = al_lex_skip_blanks(ne, e, true);
        if (ne > nm && after < e && *after == '(')
            keep_method(c, nm, (size_t)(ne - nm));
        at = ne - 1;
    }
}

void al_py_scan_keep_called(const al_py_scan *s, const char *bytes, bool *keep,
                            bool *keep_member)
{
    size_t units = s->n + (keep_member ? s->n_members : 0);
    called_closure c = {s, bytes, keep, keep_member, NULL,
                        al_xcalloc(units ? units : 1, sizeof *c.work), 0, SIZE_MAX};
    if (keep_member) {
        c.owner = al_xcalloc(s->n_members ? s->n_members : 1, sizeof *c.owner);
        for (size_t i = 0; i < s->n; i++)
            for (size_t k = 0; k < s->items[i].n_members; k++)
                c.owner[s->items[i].first_member + k] = i;
    }
    for (size_t u = 0; u < units; u++)
        if (u < s->n ? keep[u] : keep_member[u - s->n])
            c.work[c.n_work++] = u;
    while (c.n_work) {
        size_t u = c.work[--c.n_work];
        if (u < s->n) {
            const al_statement_span *g = &s->items[u];
            each_call(bytes, bytes + g->start, bytes + g->end, false, keep_called, &c);
        } else {
            const al_statement_span *m = &s->members[u - s->n];
            each_call(bytes, bytes + m->start, bytes + m->end, false, keep_called, &c);
            /* A whole class's methods are all there already. */
            c.current_class = c.owner[u - s->n];
            if (!keep[c.current_class])
                self_calls(&c, bytes + m->start, bytes + m->end);
        }
    }
    free(c.owner);
    free(c.work);
}

/* Appends [start, end) to spans, merged with the last span when they
 * meet. */
static void add_span(size_t (*spans)[2], size_t *n, size_t start, size_t end, size_t *kept)
{
    if (end <= start)
        return;
    if (*n && spans[*n - 1][1] == start)
        spans[*n - 1][1] = end;
    else
        spans[*n][0] = start, spans[(*n)++][1] = end;
    *kept += end - start;
}

size_t al_py_scan_spans(const al_py_scan *s, const bool *keep, const bool *keep_member,
                        size_t (*spans)[2], size_t *kept)
{
    size_t n = 0;
    *kept = 0;
    for (size_t i = 0; i < s->n; i++) {
        const al_statement_span *g = &s->items[i];
        if (keep[i]) {
            add_span(spans, &n, g->start, g->end, kept);
            continue;
        }
        bool any = false;
        for (size_t k = 0; keep_member && k < g->n_members && !any; k++)
            any = keep_member[g->first_member + k];
        if (!any)
            continue;
        /* The class's header, then the members kept. */
        add_span(spans, &n, g->start, s->members[g->first_member].start, kept);
        for (size_t k = 0; k < g->n_members; k++) {
            const al_statement_span *m = &s->members[g->first_member + k];
            if (keep_member[g->first_member + k])
                add_span(spans, &n, m->start, m->end, kept);
        }
    }
    return n;
}
