#include "prefilter.h"

#include <string.h>

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

unsigned al_prefilter_scan(const char *bytes, size_t len)
{
    const char *p = bytes, *end = bytes + len;
    unsigned t = 0;
    static const char *const factory[] = {"zeros", "ones", "full", NULL};
    /* Every other factory the rules know, spelled out: `rand` does not
     * find `randn(`. */
    static const char *const maker[] = {"empty", "arange", "tensor", "rand", "randn", "randint",
                                        "randperm", "normal", "bernoulli", "multinomial", "eye",
                                        "linspace", "logspace", "as_tensor", NULL};
    static const char *const cat[] = {"cat", "concat", "concatenate", "stack", NULL};
    static const char *const fill[] = {"fill_", "zero_", NULL};
    if (any_called(p, end, factory))
        t |= AL_TOK_FACTORY;
    if (any_called(p, end, maker))
        t |= AL_TOK_MAKER;
    if (any_called(p, end, cat))
        t |= AL_TOK_CAT;
    if (any_called(p, end, fill))
        t |= AL_TOK_FILL;
    if (memmem(p, len, "triton", 6))
        t |= AL_TOK_TRITON;
    if (memmem(p, len, "for ", 4) || memmem(p, len, "while ", 6))
        t |= AL_TOK_LOOP;
    if (memmem(p, len, ".to(", 4) || memmem(p, len, ".cuda(", 6))
        t |= AL_TOK_MOVE;
    if (memmem(p, len, "noqa", 4) || memmem(p, len, "alloclint:", 10))
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
