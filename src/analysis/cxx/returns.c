#include "returns.h"
#include "fn.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Factories of torch's C++ API: a new tensor each call. */
static const char *const factories[] = {"empty",      "zeros",      "ones",      "full",
                                        "empty_like", "zeros_like", "ones_like", "full_like",
                                        "rand",       "randn",      NULL};
/* Methods and functions whose result is always a new tensor (a reduction
 * or a product; not `.to`, `.contiguous`, `.view`: they may give back
 * their input). */
static const char *const allocating[] = {"sum",  "mean", "clone", "prod",   "amax", "amin",
                                         "argmax", "argmin", "matmul", "mm", "bmm",
                                         NULL};

/* `torch::f(` or `at::f(` with f a factory at token i: the `(`, else 0. */
static size_t factory_at(const al_cxx_unit *u, size_t i)
{
    if ((al_cxx_is(u, i, "torch") || al_cxx_is(u, i, "at")) && al_cxx_is(u, i + 1, "::") &&
        al_cxx_word_in(u, i + 2, factories) && al_cxx_is(u, i + 3, "("))
        return i + 3;
    return 0;
}

/* The expression [a, b) is one call that allocates: a factory, or
 * `x.sum(...)`, `torch::matmul(...)` and the like, the call ending at b. */
static bool allocating_call(const al_cxx_unit *u, size_t a, size_t b)
{
    size_t open = factory_at(u, a);
    if (!open && (al_cxx_is(u, a, "torch") || al_cxx_is(u, a, "at")) && al_cxx_is(u, a + 1, "::") &&
        al_cxx_word_in(u, a + 2, allocating) && al_cxx_is(u, a + 3, "("))
        open = a + 3;
    /* `name.method(...)`: a plain name as the receiver. */
    if (!open && u->tokens[a].kind == AL_CXX_IDENT && al_cxx_is(u, a + 1, ".") &&
        al_cxx_word_in(u, a + 2, allocating) && al_cxx_is(u, a + 3, "("))
        open = a + 3;
    return open && al_cxx_match(u, open) + 1 == b;
}

/* The local x is declared in [body, end) as `T x = factory(...);` once,
 * and nothing else assigns it: the row of the factory, else 0. */
static size_t made_by_factory(const al_cxx_fn *f, size_t x)
{
    const al_cxx_unit *u = f->u;
    size_t row = 0, decls = 0;
    for (size_t i = f->body + 1; i < f->end; i++) {
        if (!al_cxx_token_eq(u, i, x) || (i > 0 && (al_cxx_is(u, i - 1, ".") || al_cxx_is(u, i - 1, "->") ||
                                                     al_cxx_is(u, i - 1, "::"))))
            continue;
        bool declared = i > f->body + 1 && (u->tokens[i - 1].kind == AL_CXX_IDENT ||
                                            u->tokens[i - 1].kind == AL_CXX_KEYWORD);
        if (al_cxx_is(u, i + 1, "=") && declared) {
            size_t open = factory_at(u, i + 2);
            decls++;
            if (!open || !al_cxx_is(u, al_cxx_match(u, open) + 1, ";"))
                return 0;
            row = al_cxx_row(u, u->tokens[i].start);
        } else if (al_cxx_is(u, i + 1, "=") || al_cxx_is(u, i + 1, "(") || al_cxx_is(u, i + 1, "{") ||
                   (i > 0 && al_cxx_is(u, i - 1, "&"))) {
            /* Assigned again, constructed another way, or its address
             * taken: what it holds at a return is not read here. */
            return 0;
        }
    }
    return decls == 1 ? row : 0;
}

bool al_cxx_returns_new(const al_cxx_def *def, char *why, size_t len)
{
    al_cxx_fn f;
    if (!al_cxx_fn_find(def->unit, def->path, def->function, &f)) {
        snprintf(why, len, "it has no body");
        return false;
    }
    const al_cxx_unit *u = f.u;
    size_t returns = 0, row = 0;
    for (size_t i = f.body + 1; i < f.end; i++) {
        if (!al_cxx_is(u, i, "return"))
            continue;
        size_t e = i + 1;
        while (e < f.end && !al_cxx_is(u, e, ";")) {
            if (al_cxx_is(u, e, "(") || al_cxx_is(u, e, "{") || al_cxx_is(u, e, "["))
                e = al_cxx_match(u, e);
            e++;
        }
        size_t r = al_cxx_row(u, u->tokens[i].start);
        returns++;
        if (e == i + 2 && u->tokens[i + 1].kind == AL_CXX_IDENT) {
            size_t made = made_by_factory(&f, i + 1);
            if (!made) {
                char *t = al_cxx_text(u, i + 1, e);
                snprintf(why, len, "line %zu returns `%s`, not shown to be made by a factory there", r, t);
                free(t);
                return false;
            }
            row = row ? row : made;
        } else if (e > i + 1 && allocating_call(u, i + 1, e)) {
            row = row ? row : r;
        } else {
            char *t = al_cxx_text(u, i + 1, e);
            snprintf(why, len, "line %zu returns `%s`", r, t);
            free(t);
            return false;
        }
    }
    if (!returns) {
        snprintf(why, len, "it returns nothing");
        return false;
    }
    snprintf(why, len, "every return is a tensor it makes (the first made on line %zu)", row);
    return true;
}
