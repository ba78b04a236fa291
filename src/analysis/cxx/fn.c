#include "fn.h"

#include "../../base/util.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool is(const al_cxx_unit *u, size_t i, const char *s)
{
    return al_cxx_is(u, i, s);
}

bool al_cxx_fn_find(const al_cxx_unit *u, const char *path, size_t fi, al_cxx_fn *f)
{
    const al_cxx_function *fn = &u->functions[fi];
    memset(f, 0, sizeof *f);
    f->u = u;
    f->path = path;
    f->first = fn->first;
    for (size_t i = fn->first; i + 1 < fn->last; i++)
        if (is(u, i, fn->name) && is(u, i + 1, "(")) {
            f->name = i;
            f->open = i + 1;
            f->close = al_cxx_match(u, i + 1);
            break;
        }
    if (!f->open || f->close >= fn->last)
        return false;
    for (size_t i = f->close; i < fn->last; i++)
        if (is(u, i, "{")) {
            f->body = i;
            f->end = al_cxx_match(u, i);
            return f->end < u->n;
        }
    return false;
}

/* The parameters, split at top-level commas (template brackets nest). */
size_t al_cxx_fn_params(const al_cxx_fn *f, al_cxx_param *out, size_t max)
{
    const al_cxx_unit *u = f->u;
    size_t n = 0, start = f->open + 1;
    int depth = 0;
    for (size_t i = f->open + 1; i <= f->close && n < max; i++) {
        if (i < f->close && (is(u, i, "(") || is(u, i, "<") || is(u, i, "[") || is(u, i, "{"))) {
            depth++;
        } else if (i < f->close && (is(u, i, ")") || is(u, i, ">") || is(u, i, "]") || is(u, i, "}"))) {
            depth--;
        } else if (i < f->close && is(u, i, ">>")) {
            depth -= 2;
        } else if ((i == f->close || (depth == 0 && is(u, i, ","))) && i > start) {
            al_cxx_param p = {start, i, 0, false, false, false};
            for (size_t k = start; k < i; k++)
                if (is(u, k, "=")) {
                    p.last = k;
                    break;
                }
            bool star_seen = false;
            for (size_t k = p.first; k < p.last; k++) {
                if (u->tokens[k].kind == AL_CXX_IDENT)
                    p.name = k;
                if (is(u, k, "Tensor") || is(u, k, "PackedTensorAccessor32") ||
                    is(u, k, "PackedTensorAccessor64"))
                    p.tensor = true;
                if (is(u, k, "*")) {
                    p.pointer = true;
                    star_seen = true;
                }
                if (is(u, k, "const") && !star_seen)
                    p.const_pointee = true;
            }
            if (p.name)
                out[n++] = p;
            start = i + 1;
        }
    }
    return n;
}

/* Uses of the parameter: its name, not a member of something else. */
bool al_cxx_fn_is_use(const al_cxx_fn *f, size_t i, size_t name)
{
    const al_cxx_unit *u = f->u;
    if (u->tokens[i].kind != AL_CXX_IDENT || !al_cxx_token_eq(u, i, name))
        return false;
    return !(is(u, i - 1, ".") || is(u, i - 1, "->") || is(u, i - 1, "::"));
}

int al_effect_severity(al_effect e)
{
    switch (e) {
    case AL_EFFECT_ACCUMULATES: return 8;
    case AL_EFFECT_READS: return 7;
    case AL_EFFECT_SKIPS: return 6;
    case AL_EFFECT_WRITES_PART: return 6;
    case AL_EFFECT_ESCAPES: return 5;
    case AL_EFFECT_UNKNOWN: return 4;
    case AL_EFFECT_RETURNS_ALIAS: return 5;
    case AL_EFFECT_WRITES_SOME: return 3;
    case AL_EFFECT_UNREAD: return 2;
    case AL_EFFECT_WRITES_ALL: return 1;
    case AL_EFFECT_UNUSED: return 0;
    }
    return 0;
}

/* Keeps the most severe effect seen, with its reason. */
void al_effect_set(al_call_effect *out, al_effect e, const char *path, size_t row, const char *fmt, ...)
{
    if (al_effect_severity(e) < al_effect_severity(out->effect) && out->effect != AL_EFFECT_UNUSED)
        return;
    char buf[600];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    out->effect = e;
    free(out->why);
    out->why = al_xstrdup(buf);
    al_chain_free(&out->chain);
    al_chain_add(&out->chain, path, row, "%s", buf);
    if (e == AL_EFFECT_WRITES_ALL)
        al_chain_mark_store(&out->chain);
}

size_t al_cxx_fn_params_for(const al_cxx_fn *f, int param, al_cxx_param *ps, size_t max,
                            al_call_effect *out)
{
    size_t np = al_cxx_fn_params(f, ps, max);
    out->effect = AL_EFFECT_UNUSED;
    if (param >= 0 && (size_t)param < np)
        return np;
    al_effect_set(out, AL_EFFECT_UNKNOWN, f->path, al_cxx_row(f->u, f->u->tokens[f->name].start),
                  "has no parameter %d", param);
    return 0;
}
