#include "kernel.h"

#include "values.h"
#include "../../base/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool is(const al_cxx_unit *u, size_t i, const char *s)
{
    return al_cxx_is(u, i, s);
}

/* ------------------------------------------------------------------ */
/* Kernels                                                              */

/* Whether tokens [a, b) read memory through a pointer parameter other
 * than `self` (`seq_lens[b]`), or a local loaded from one. */
static bool reads_memory(const al_cxx_fn *f, const al_cxx_param *ps, size_t np, size_t a, size_t b,
                         const al_strlist *loaded)
{
    const al_cxx_unit *u = f->u;
    for (size_t i = a; i < b; i++) {
        if (u->tokens[i].kind != AL_CXX_IDENT)
            continue;
        for (size_t k = 0; k < np; k++)
            if (ps[k].pointer && al_cxx_token_eq(u, i, ps[k].name) && is(u, i + 1, "["))
                return true;
        if (al_strlist_has(loaded, u->src->bytes + u->tokens[i].start,
                           u->tokens[i].end - u->tokens[i].start))
            return true;
        if (is(u, i, "__ldg"))
            return true;
    }
    return false;
}

/* Locals initialised from memory: `const int len = seq_lens[b];`. */
static void loaded_locals(const al_cxx_fn *f, const al_cxx_param *ps, size_t np, al_strlist *out)
{
    const al_cxx_unit *u = f->u;
    for (size_t i = f->body + 1; i + 2 < f->end; i++)
        if (u->tokens[i].kind == AL_CXX_IDENT && is(u, i + 1, "=") && !is(u, i + 2, "=")) {
            size_t e = i + 2;
            while (e < f->end && !is(u, e, ";"))
                e++;
            if (reads_memory(f, ps, np, i + 2, e, out))
                al_strlist_add(out, al_xstrndup(u->src->bytes + u->tokens[i].start,
                                                u->tokens[i].end - u->tokens[i].start));
        }
}

/* Whether token i is inside a nested block of the body. */
static bool nested_in_body(const al_cxx_fn *f, size_t i)
{
    int depth = 0;
    for (size_t k = f->body + 1; k < i; k++) {
        if (is(f->u, k, "{"))
            depth++;
        else if (is(f->u, k, "}"))
            depth--;
    }
    return depth > 0;
}

/* The last token of the statement a header `if (...)`/`for (...)` whose
 * `)` is close governs: its block's `}`, or the `;` of a lone statement. */
static size_t governed_end(const al_cxx_fn *f, size_t close)
{
    const al_cxx_unit *u = f->u;
    if (is(u, close + 1, "{"))
        return al_cxx_match(u, close + 1);
    size_t end = close + 1;
    while (end < f->end && !is(u, end, ";"))
        end++;
    return end;
}

/* The innermost `if (...)` whose body holds token i, as the token range
 * of its condition; false when there is none. */
static bool enclosing_if(const al_cxx_fn *f, size_t i, size_t *ca, size_t *cb)
{
    const al_cxx_unit *u = f->u;
    for (size_t k = i; k > f->body; k--) {
        if (!is(u, k, "if") || !is(u, k + 1, "("))
            continue;
        size_t close = al_cxx_match(u, k + 1);
        size_t stmt_end = governed_end(f, close);
        if (i > close && i <= stmt_end) {
            *ca = k + 2;
            *cb = close;
            return true;
        }
    }
    return false;
}

/* Whether a `for` around token i has a header that reads memory (`for (i
 * = cumsum[e]; i < cumsum[e + 1]; ...)`, a bound loaded into a local or
 * a shared variable): the data chooses how far the loop stores. */
static bool in_loop_bounded_by_data(const al_cxx_fn *f, const al_cxx_param *ps, size_t np,
                                    size_t i, const al_strlist *loaded)
{
    const al_cxx_unit *u = f->u;
    for (size_t k = i; k > f->body; k--) {
        if ((!is(u, k, "for") && !is(u, k, "while")) || !is(u, k + 1, "("))
            continue;
        size_t close = al_cxx_match(u, k + 1);
        if (i > close && i <= governed_end(f, close) && reads_memory(f, ps, np, k + 2, close, loaded))
            return true;
    }
    return false;
}

/* The variables a kernel declares `__shared__`: what one thread computed
 * there is memory to the others. */
static void shared_names(const al_cxx_fn *f, al_strlist *out)
{
    const al_cxx_unit *u = f->u;
    for (size_t i = f->body + 1; i < f->end; i++) {
        if (!is(u, i, "__shared__"))
            continue;
        size_t last = 0;
        for (size_t k = i + 1; k < f->end && !is(u, k, ";") && !is(u, k, "[") && !is(u, k, "=");
             k++)
            if (u->tokens[k].kind == AL_CXX_IDENT)
                last = k;
        if (last)
            al_strlist_add(out, al_xstrndup(u->src->bytes + u->tokens[last].start,
                                            u->tokens[last].end - u->tokens[last].start));
    }
}

/* Whether tokens a..b hold a store `name[...] = ...`. */
static bool stores_between(const al_cxx_fn *f, size_t name, size_t a, size_t b)
{
    const al_cxx_unit *u = f->u;
    for (size_t k = a; k < b && k < f->end; k++)
        if (al_cxx_fn_is_use(f, k, name) && is(u, k + 1, "[")) {
            size_t close = al_cxx_match(u, k + 1);
            if (is(u, close + 1, "=") && !is(u, close + 2, "="))
                return true;
        }
    return false;
}

/* `for (... i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i +=
 * blockDim.x * gridDim.x)` around token at: the bound parameter's index,
 * or -1. The store's index must be the loop variable alone. */
static int grid_stride_bound(const al_cxx_fn *f, const al_cxx_param *ps, size_t np, size_t at,
                             size_t index_a, size_t index_b)
{
    const al_cxx_unit *u = f->u;
    if (index_b != index_a + 1 || u->tokens[index_a].kind != AL_CXX_IDENT)
        return -1;
    for (size_t k = at; k > f->body; k--) {
        if (!is(u, k, "for") || !is(u, k + 1, "("))
            continue;
        size_t close = al_cxx_match(u, k + 1);
        size_t body_end = close + 1;
        if (is(u, body_end, "{")) {
            body_end = al_cxx_match(u, body_end);
        } else {
            int depth = 0;
            while (body_end < f->end && !(depth == 0 && is(u, body_end, ";"))) {
                if (is(u, body_end, "(") || is(u, body_end, "[") || is(u, body_end, "{"))
                    depth++;
                else if (is(u, body_end, ")") || is(u, body_end, "]") || is(u, body_end, "}"))
                    depth--;
                body_end++;
            }
        }
        if (body_end < at || close > at) /* a loop that ended before the store */
            continue;
        char *header = al_cxx_text(u, k + 2, close);
        /* Compact: drop blanks. */
        char *w = header;
        for (char *r = header; *r; r++)
            if (*r != ' ' && *r != '\t' && *r != '\n')
                *w++ = *r;
        *w = '\0';
        char var[128];
        snprintf(var, sizeof var, "%.*s", (int)(u->tokens[index_a].end - u->tokens[index_a].start),
                 u->src->bytes + u->tokens[index_a].start);
        int bound = -1;
        for (size_t p = 0; p < np && bound < 0; p++) {
            char want[600];
            char n[128];
            snprintf(n, sizeof n, "%.*s", (int)(u->tokens[ps[p].name].end - u->tokens[ps[p].name].start),
                     u->src->bytes + u->tokens[ps[p].name].start);
            static const char *const starts[] = {"blockIdx.x*blockDim.x+threadIdx.x",
                                                 "threadIdx.x+blockIdx.x*blockDim.x", NULL};
            static const char *const steps[] = {"blockDim.x*gridDim.x", "gridDim.x*blockDim.x",
                                                NULL};
            for (int s = 0; starts[s] && bound < 0; s++)
                for (int t = 0; steps[t] && bound < 0; t++) {
                    snprintf(want, sizeof want, "=%s;%s<%s;%s+=%s", starts[s], var, n, var, steps[t]);
                    const char *at_eq = strchr(header, '=');
                    if (at_eq && !strcmp(at_eq, want))
                        bound = (int)p;
                }
        }
        free(header);
        return bound;
    }
    return -1;
}

static bool is_thread_index(const char *t)
{
    static const char *const forms[] = {"blockIdx.x*blockDim.x+threadIdx.x",
                                        "threadIdx.x+blockIdx.x*blockDim.x",
                                        "blockDim.x*blockIdx.x+threadIdx.x",
                                        "threadIdx.x+blockDim.x*blockIdx.x", NULL};
    return al_str_in_list(forms, t, strlen(t));
}

/* Whether identifier token v is a thread index: declared once in the
 * body as `v = blockIdx.x * blockDim.x + threadIdx.x`. */
static bool thread_var(const al_cxx_fn *f, size_t v)
{
    const al_cxx_unit *u = f->u;
    int writes = 0;
    bool thread = false;
    for (size_t i = f->body + 1; i + 1 < f->end; i++)
        if (al_cxx_token_eq(u, i, v) && (is(u, i + 1, "=") || is(u, i + 1, "+=") || is(u, i + 1, "++") ||
                                  is(u, i - 1, "++"))) {
            writes++;
            size_t e = i + 2;
            while (e < f->end && !is(u, e, ";"))
                e++;
            char *t = al_cxx_compact(u, i + 2, e);
            thread = is(u, i + 1, "=") && is_thread_index(t);
            free(t);
        }
    return writes == 1 && thread;
}

/* `i = blockIdx.x * blockDim.x + threadIdx.x` declared once in the body,
 * and the store `p[i] = ...` guarded by `if (i < n)` around it or by a
 * top-level `if (i >= n) return;` before it: the bound parameter, or -1. */
static int thread_index_bound(const al_cxx_fn *f, const al_cxx_param *ps, size_t np, size_t at,
                              size_t index_a, size_t index_b)
{
    const al_cxx_unit *u = f->u;
    if (index_b != index_a + 1 || u->tokens[index_a].kind != AL_CXX_IDENT ||
        !thread_var(f, index_a))
        return -1;
    char var[128];
    snprintf(var, sizeof var, "%.*s", (int)(u->tokens[index_a].end - u->tokens[index_a].start),
             u->src->bytes + u->tokens[index_a].start);
    for (size_t p = 0; p < np; p++) {
        char n[128], lt[300], ge[300];
        snprintf(n, sizeof n, "%.*s", (int)(u->tokens[ps[p].name].end - u->tokens[ps[p].name].start),
                 u->src->bytes + u->tokens[ps[p].name].start);
        snprintf(lt, sizeof lt, "%s<%s", var, n);
        snprintf(ge, sizeof ge, "%s>=%s", var, n);
        size_t ca, cb;
        if (enclosing_if(f, at, &ca, &cb)) {
            char *c = al_cxx_compact(u, ca, cb);
            bool ok = !strcmp(c, lt);
            free(c);
            if (ok)
                return (int)p;
            continue;
        }
        /* `if (i >= n) return;` at the top level, before the store. */
        for (size_t k = f->body + 1; k < at; k++) {
            if (!is(u, k, "if") || !is(u, k + 1, "("))
                continue;
            size_t close = al_cxx_match(u, k + 1);
            char *c = al_cxx_compact(u, k + 2, close);
            bool ok = !strcmp(c, ge) && is(u, close + 1, "return") && is(u, close + 2, ";");
            free(c);
            if (ok && !nested_in_body(f, k))
                return (int)p;
        }
    }
    return -1;
}

/* A store index that leaves elements out by its form: `p[i + 1]` or
 * `p[2 * i]` with i a thread index. The reason, or NULL. */
static char *index_gap(const al_cxx_fn *f, size_t a, size_t b)
{
    const al_cxx_unit *u = f->u;
    if (b != a + 3)
        return NULL;
    size_t var = 0, lit = 0;
    if (u->tokens[a].kind == AL_CXX_IDENT && u->tokens[a + 2].kind == AL_CXX_LITERAL)
        var = a, lit = a + 2;
    else if (u->tokens[a].kind == AL_CXX_LITERAL && u->tokens[a + 2].kind == AL_CXX_IDENT)
        var = a + 2, lit = a;
    else
        return NULL;
    char *lt = al_cxx_text(u, lit, lit + 1);
    char *end = NULL;
    long v = strtol(lt, &end, 0);
    bool number = end && end != lt && (*end == '\0' || strchr("uUlL", *end));
    free(lt);
    if (!number || !thread_var(f, var))
        return NULL;
    char *idx = al_cxx_text(u, a, b);
    al_strbuf sb = {0};
    if (is(u, a + 1, "+") && v > 0)
        al_strbuf_printf(&sb, "stores `[%s]`, %ld element%s past the start: the first keep their "
                              "values", idx, v, v == 1 ? "" : "s");
    else if (is(u, a + 1, "*") && v >= 2)
        al_strbuf_printf(&sb, "stores `[%s]`, one element in %ld only", idx, v);
    free(idx);
    return sb.len ? al_strbuf_detach(&sb) : (al_strbuf_free(&sb), NULL);
}

void al_cxx_kernel_param_effect(const al_cxx_fn *f, int param, al_call_effect *out)
{
    const al_cxx_unit *u = f->u;
    al_cxx_param ps[64];
    size_t np = al_cxx_fn_params_for(f, param, ps, 64, out);
    if (np == 0)
        return;
    const al_cxx_param *p = &ps[param];
    size_t prow = al_cxx_row(u, u->tokens[p->name].start);
    if (!p->pointer) {
        if (p->tensor)
            al_effect_set(out, AL_EFFECT_UNKNOWN, f->path, prow, "takes a tensor accessor it does not follow");
        return;
    }
    if (p->const_pointee) {
        al_effect_set(out, AL_EFFECT_READS, f->path, prow, "takes it as a pointer to const (an input)");
        return;
    }
    al_strlist loaded = {0};
    shared_names(f, &loaded);
    loaded_locals(f, ps, np, &loaded);
    int stores = 0;
    size_t store_at = 0, index_a = 0, index_b = 0;
    size_t loaded_index_at = 0; /* a store at an index read from memory, or 0 */
    size_t data_loop_at = 0;    /* a store in a loop whose bounds are read from memory */
    for (size_t i = f->body + 1; i < f->end; i++) {
        if (!al_cxx_fn_is_use(f, i, p->name))
            continue;
        size_t row = al_cxx_row(u, u->tokens[i].start);
        /* In the arguments of an atomic: accumulates. */
        bool atomic = false;
        for (size_t k = i; k > f->body && !atomic; k--) {
            if (is(u, k, ";") || is(u, k, "{") || is(u, k, "}"))
                break;
            size_t len = u->tokens[k].end - u->tokens[k].start;
            if (u->tokens[k].kind == AL_CXX_IDENT && len >= 6 &&
                !memcmp(u->src->bytes + u->tokens[k].start, "atomic", 6) && is(u, k + 1, "(") &&
                al_cxx_match(u, k + 1) > i)
                atomic = true;
        }
        if (atomic) {
            al_effect_set(out, AL_EFFECT_ACCUMULATES, f->path, row, "updates it with an atomic");
            continue;
        }
        if (is(u, i + 1, "[")) {
            size_t close = al_cxx_match(u, i + 1);
            static const char *const rmw[] = {"+=", "-=", "*=", "/=", "|=", "&=", "^=", "++",
                                              "--", NULL};
            if (al_cxx_word_in(u, close + 1, rmw) || is(u, i - 1, "++") || is(u, i - 1, "--")) {
                al_effect_set(out, AL_EFFECT_ACCUMULATES, f->path, row, "adds into it (`[...] op=`)");
            } else if (is(u, close + 1, "=") && !is(u, close + 2, "=")) {
                stores++;
                store_at = i;
                index_a = i + 2;
                index_b = close;
                if (!loaded_index_at && reads_memory(f, ps, np, index_a, index_b, &loaded))
                    loaded_index_at = i;
                if (!data_loop_at && in_loop_bounded_by_data(f, ps, np, i, &loaded))
                    data_loop_at = i;
            } else {
                al_effect_set(out, AL_EFFECT_READS, f->path, row, "reads it");
            }
            continue;
        }
        al_effect_set(out, AL_EFFECT_UNKNOWN, f->path, row,
            "uses the pointer in a way alloclint does not follow (a cast or an offset)");
    }
    if (stores && al_effect_severity(out->effect) <= al_effect_severity(AL_EFFECT_WRITES_SOME)) {
        size_t row = al_cxx_row(u, u->tokens[store_at].start);
        /* The one store guarded by its thread index's bound, or -1. */
        int thread_guard = stores == 1 ? thread_index_bound(f, ps, np, store_at, index_a, index_b) : -1;
        /* An early return anywhere: a skip when it depends on loaded data. */
        for (size_t i = f->body + 1; i < f->end; i++) {
            if (!is(u, i, "return") || i + 2 >= f->end)
                continue;
            size_t ca, cb;
            if (enclosing_if(f, i, &ca, &cb) && reads_memory(f, ps, np, ca, cb, &loaded)) {
                /* A branch that stores before it leaves (`if (miss) { out[i] = 0;
                 * return; }`) writes on that path too: coverage is unproved,
                 * not skipped. */
                if (stores_between(f, p->name, cb + 1, i))
                    al_effect_set(out, AL_EFFECT_WRITES_SOME, f->path,
                        al_cxx_row(u, u->tokens[i].start),
                        "returns early on data loaded from memory, storing on that path too");
                else
                    al_effect_set(out, AL_EFFECT_SKIPS, f->path, al_cxx_row(u, u->tokens[i].start),
                        "returns early on data loaded from memory");
            }
            else if (i < store_at && thread_guard < 0)
                al_effect_set(out, AL_EFFECT_WRITES_SOME, f->path, al_cxx_row(u, u->tokens[i].start),
                    "returns early before storing");
        }
        /* `out[idx] = v` with idx read from memory: the data chooses the
         * elements (a scatter of accepted tokens), the rest keep the fill. */
        if (loaded_index_at)
            al_effect_set(out, AL_EFFECT_SKIPS, f->path, al_cxx_row(u, u->tokens[loaded_index_at].start),
                "stores at an index loaded from memory");
        else if (data_loop_at)
            al_effect_set(out, AL_EFFECT_SKIPS, f->path, al_cxx_row(u, u->tokens[data_loop_at].start),
                "stores in a loop whose bounds are loaded from memory");
        size_t ca, cb;
        if (out->effect != AL_EFFECT_SKIPS && enclosing_if(f, store_at, &ca, &cb) &&
            thread_guard < 0) {
            if (reads_memory(f, ps, np, ca, cb, &loaded))
                al_effect_set(out, AL_EFFECT_SKIPS, f->path, row, "stores only under a condition on loaded data");
            else
                al_effect_set(out, AL_EFFECT_WRITES_SOME, f->path, row, "stores only under a condition");
        }
        char *gap = stores == 1 ? index_gap(f, index_a, index_b) : NULL;
        if (gap)
            al_effect_set(out, AL_EFFECT_WRITES_PART, f->path, row, "%s", gap);
        free(gap);
        if (al_effect_severity(out->effect) <= al_effect_severity(AL_EFFECT_WRITES_ALL)) {
            int bound = stores == 1 ? grid_stride_bound(f, ps, np, store_at, index_a, index_b) : -1;
            int guarded = bound < 0 ? thread_guard : -1;
            if (guarded >= 0) {
                int il = (int)(u->tokens[index_a].end - u->tokens[index_a].start);
                const char *ip = u->src->bytes + u->tokens[index_a].start;
                al_effect_set(out, AL_EFFECT_WRITES_ALL, f->path, row,
                    "stores element `%.*s` of every thread with `%.*s < %.*s`, %.*s = blockIdx.x * "
                    "blockDim.x + threadIdx.x",
                    il, ip, il, ip,
                    (int)(u->tokens[ps[guarded].name].end - u->tokens[ps[guarded].name].start),
                    u->src->bytes + u->tokens[ps[guarded].name].start, il, ip);
                out->req = (al_req){.kind = AL_REQ_NUMEL_IS_VALUE, .param = guarded,
                                    .grid_covers = true};
            } else if (bound >= 0) {
                int il = (int)(u->tokens[index_a].end - u->tokens[index_a].start);
                al_effect_set(out, AL_EFFECT_WRITES_ALL, f->path, row,
                    "stores element `%.*s` of a grid-stride loop over every `%.*s < %.*s`", il,
                    u->src->bytes + u->tokens[index_a].start, il,
                    u->src->bytes + u->tokens[index_a].start,
                    (int)(u->tokens[ps[bound].name].end - u->tokens[ps[bound].name].start),
                    u->src->bytes + u->tokens[ps[bound].name].start);
                out->req = (al_req){.kind = AL_REQ_NUMEL_IS_VALUE, .param = bound};
            } else {
                al_effect_set(out, AL_EFFECT_WRITES_SOME, f->path, row,
                    "stores through it; could not prove the stores cover the buffer");
            }
        }
    }
    al_strlist_free(&loaded);
}
