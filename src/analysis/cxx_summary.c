#include "cxx_summary.h"

#include "cxx_values.h"
#include "../util.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_DEPTH 6

typedef struct {
    const al_cxx_unit *u;
    const char *path;
    size_t first;       /* its first token */
    size_t name;        /* the function's name token */
    size_t open, close; /* its parameter list */
    size_t body, end;   /* `{` and `}` of its body */
} fn_tokens;

typedef struct {
    size_t first, last; /* the parameter's tokens, without a default */
    size_t name;        /* its name token */
    bool tensor, pointer, const_pointee;
} param_tokens;

static bool is(const al_cxx_unit *u, size_t i, const char *s)
{
    return al_cxx_is(u, i, s);
}

static bool token_eq(const al_cxx_unit *u, size_t a, size_t b)
{
    size_t la = u->tokens[a].end - u->tokens[a].start, lb = u->tokens[b].end - u->tokens[b].start;
    return la == lb && !memcmp(u->src->bytes + u->tokens[a].start, u->src->bytes + u->tokens[b].start, la);
}

static bool find_tokens(const al_cxx_unit *u, const char *path, size_t fi, fn_tokens *f)
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
static size_t read_params(const fn_tokens *f, param_tokens *out, size_t max)
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
            param_tokens p = {start, i, 0, false, false, false};
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
static bool is_use(const fn_tokens *f, size_t i, size_t name)
{
    const al_cxx_unit *u = f->u;
    if (u->tokens[i].kind != AL_CXX_IDENT || !token_eq(u, i, name))
        return false;
    return !(is(u, i - 1, ".") || is(u, i - 1, "->") || is(u, i - 1, "::"));
}

static int severity(al_effect e)
{
    switch (e) {
    case AL_EFFECT_ACCUMULATES: return 7;
    case AL_EFFECT_READS: return 6;
    case AL_EFFECT_SKIPS: return 5;
    case AL_EFFECT_ESCAPES: return 4;
    case AL_EFFECT_UNKNOWN: return 3;
    case AL_EFFECT_RETURNS_ALIAS: return 4;
    case AL_EFFECT_WRITES_SOME: return 2;
    case AL_EFFECT_WRITES_ALL: return 1;
    case AL_EFFECT_UNUSED: return 0;
    }
    return 0;
}

static void set(al_call_effect *out, al_effect e, const char *path, size_t row, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));

/* Keeps the most severe effect seen, with its reason. */
static void set(al_call_effect *out, al_effect e, const char *path, size_t row, const char *fmt, ...)
{
    if (severity(e) < severity(out->effect) && out->effect != AL_EFFECT_UNUSED)
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

/* ------------------------------------------------------------------ */
/* Kernels                                                              */

/* Whether tokens [a, b) read memory through a pointer parameter other
 * than `self` (`seq_lens[b]`), or a local loaded from one. */
static bool reads_memory(const fn_tokens *f, const param_tokens *ps, size_t np, size_t a, size_t b,
                         const al_strlist *loaded)
{
    const al_cxx_unit *u = f->u;
    for (size_t i = a; i < b; i++) {
        if (u->tokens[i].kind != AL_CXX_IDENT)
            continue;
        for (size_t k = 0; k < np; k++)
            if (ps[k].pointer && token_eq(u, i, ps[k].name) && is(u, i + 1, "["))
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
static void loaded_locals(const fn_tokens *f, const param_tokens *ps, size_t np, al_strlist *out)
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
static bool nested_in_body(const fn_tokens *f, size_t i)
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

/* The innermost `if (...)` whose body holds token i, as the token range
 * of its condition; false when there is none. */
static bool enclosing_if(const fn_tokens *f, size_t i, size_t *ca, size_t *cb)
{
    const al_cxx_unit *u = f->u;
    for (size_t k = i; k > f->body; k--) {
        if (!is(u, k, "if") || !is(u, k + 1, "("))
            continue;
        size_t close = al_cxx_match(u, k + 1);
        size_t stmt_end;
        if (is(u, close + 1, "{")) {
            stmt_end = al_cxx_match(u, close + 1);
        } else {
            stmt_end = close + 1;
            while (stmt_end < f->end && !is(u, stmt_end, ";"))
                stmt_end++;
        }
        if (i > close && i <= stmt_end) {
            *ca = k + 2;
            *cb = close;
            return true;
        }
    }
    return false;
}

/* `for (... i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i +=
 * blockDim.x * gridDim.x)` around token at: the bound parameter's index,
 * or -1. The store's index must be the loop variable alone. */
static int grid_stride_bound(const fn_tokens *f, const param_tokens *ps, size_t np, size_t at,
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

/* `i = blockIdx.x * blockDim.x + threadIdx.x` declared once in the body,
 * and the store `p[i] = ...` guarded by `if (i < n)` around it or by a
 * top-level `if (i >= n) return;` before it: the bound parameter, or -1. */
static int thread_index_bound(const fn_tokens *f, const param_tokens *ps, size_t np, size_t at,
                              size_t index_a, size_t index_b)
{
    const al_cxx_unit *u = f->u;
    if (index_b != index_a + 1 || u->tokens[index_a].kind != AL_CXX_IDENT)
        return -1;
    int decls = 0;
    bool thread = false;
    for (size_t i = f->body + 1; i + 1 < f->end; i++)
        if (token_eq(u, i, index_a) && (is(u, i + 1, "=") || is(u, i + 1, "+=") || is(u, i + 1, "++") ||
                                        is(u, i - 1, "++"))) {
            decls++;
            size_t e = i + 2;
            while (e < f->end && !is(u, e, ";"))
                e++;
            char *t = al_cxx_compact(u, i + 2, e);
            thread = is(u, i + 1, "=") && is_thread_index(t);
            free(t);
        }
    if (decls != 1 || !thread)
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

static void kernel_param_effect(const fn_tokens *f, int param, al_call_effect *out)
{
    const al_cxx_unit *u = f->u;
    param_tokens ps[64];
    size_t np = read_params(f, ps, 64);
    out->effect = AL_EFFECT_UNUSED;
    if (param < 0 || (size_t)param >= np) {
        set(out, AL_EFFECT_UNKNOWN, f->path, al_cxx_row(u, u->tokens[f->name].start),
            "has no parameter %d", param);
        return;
    }
    const param_tokens *p = &ps[param];
    size_t prow = al_cxx_row(u, u->tokens[p->name].start);
    if (!p->pointer) {
        if (p->tensor)
            set(out, AL_EFFECT_UNKNOWN, f->path, prow, "takes a tensor accessor it does not follow");
        return;
    }
    if (p->const_pointee) {
        set(out, AL_EFFECT_READS, f->path, prow, "takes it as a pointer to const (an input)");
        return;
    }
    al_strlist loaded = {0};
    loaded_locals(f, ps, np, &loaded);
    int stores = 0;
    size_t store_at = 0, index_a = 0, index_b = 0;
    for (size_t i = f->body + 1; i < f->end; i++) {
        if (!is_use(f, i, p->name))
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
            set(out, AL_EFFECT_ACCUMULATES, f->path, row, "updates it with an atomic");
            continue;
        }
        if (is(u, i + 1, "[")) {
            size_t close = al_cxx_match(u, i + 1);
            static const char *const rmw[] = {"+=", "-=", "*=", "/=", "|=", "&=", "^=", "++",
                                              "--", NULL};
            if (al_cxx_word_in(u, close + 1, rmw) || is(u, i - 1, "++") || is(u, i - 1, "--")) {
                set(out, AL_EFFECT_ACCUMULATES, f->path, row, "adds into it (`[...] op=`)");
            } else if (is(u, close + 1, "=") && !is(u, close + 2, "=")) {
                stores++;
                store_at = i;
                index_a = i + 2;
                index_b = close;
            } else {
                set(out, AL_EFFECT_READS, f->path, row, "reads it");
            }
            continue;
        }
        set(out, AL_EFFECT_UNKNOWN, f->path, row,
            "uses the pointer in a way alloclint does not follow (a cast or an offset)");
    }
    if (stores && severity(out->effect) <= severity(AL_EFFECT_WRITES_SOME)) {
        size_t row = al_cxx_row(u, u->tokens[store_at].start);
        /* An early return anywhere: a skip when it depends on loaded data. */
        for (size_t i = f->body + 1; i < f->end; i++) {
            if (!is(u, i, "return") || i + 2 >= f->end)
                continue;
            size_t ca, cb;
            if (enclosing_if(f, i, &ca, &cb) && reads_memory(f, ps, np, ca, cb, &loaded))
                set(out, AL_EFFECT_SKIPS, f->path, al_cxx_row(u, u->tokens[i].start),
                    "returns early on data loaded from memory");
            else if (i < store_at && !(stores == 1 && thread_index_bound(f, ps, np, store_at, index_a,
                                                                        index_b) >= 0))
                set(out, AL_EFFECT_WRITES_SOME, f->path, al_cxx_row(u, u->tokens[i].start),
                    "returns early before storing");
        }
        size_t ca, cb;
        if (out->effect != AL_EFFECT_SKIPS && enclosing_if(f, store_at, &ca, &cb) &&
            !(stores == 1 && thread_index_bound(f, ps, np, store_at, index_a, index_b) >= 0)) {
            if (reads_memory(f, ps, np, ca, cb, &loaded))
                set(out, AL_EFFECT_SKIPS, f->path, row, "stores only under a condition on loaded data");
            else
                set(out, AL_EFFECT_WRITES_SOME, f->path, row, "stores only under a condition");
        }
        if (severity(out->effect) <= severity(AL_EFFECT_WRITES_ALL)) {
            int bound = stores == 1 ? grid_stride_bound(f, ps, np, store_at, index_a, index_b) : -1;
            int guarded = stores == 1 && bound < 0
                              ? thread_index_bound(f, ps, np, store_at, index_a, index_b)
                              : -1;
            if (guarded >= 0) {
                int il = (int)(u->tokens[index_a].end - u->tokens[index_a].start);
                const char *ip = u->src->bytes + u->tokens[index_a].start;
                set(out, AL_EFFECT_WRITES_ALL, f->path, row,
                    "stores element `%.*s` of every thread with `%.*s < %.*s`, %.*s = blockIdx.x * "
                    "blockDim.x + threadIdx.x",
                    il, ip, il, ip,
                    (int)(u->tokens[ps[guarded].name].end - u->tokens[ps[guarded].name].start),
                    u->src->bytes + u->tokens[ps[guarded].name].start, il, ip);
                out->req = (al_req){.kind = AL_REQ_NUMEL_IS_VALUE, .param = guarded,
                                    .grid_covers = true};
            } else if (bound >= 0) {
                int il = (int)(u->tokens[index_a].end - u->tokens[index_a].start);
                set(out, AL_EFFECT_WRITES_ALL, f->path, row,
                    "stores element `%.*s` of a grid-stride loop over every `%.*s < %.*s`", il,
                    u->src->bytes + u->tokens[index_a].start, il,
                    u->src->bytes + u->tokens[index_a].start,
                    (int)(u->tokens[ps[bound].name].end - u->tokens[ps[bound].name].start),
                    u->src->bytes + u->tokens[ps[bound].name].start);
                out->req = (al_req){.kind = AL_REQ_NUMEL_IS_VALUE, .param = bound};
            } else {
                set(out, AL_EFFECT_WRITES_SOME, f->path, row,
                    "stores through it; could not prove the stores cover the buffer");
            }
        }
    }
    al_strlist_free(&loaded);
}

/* ------------------------------------------------------------------ */
/* Host functions                                                       */

static const char *const META[] = {"sizes", "size", "numel", "dim", "options", "dtype",
                                   "scalar_type", "device", "is_contiguous", "stride",
                                   "strides", "defined", "is_cuda", "get_device", "element_size",
                                   "nbytes", "itemsize", "layout", "is_cpu", NULL};
static const char *const FULL[] = {"copy_", "fill_", "zero_", NULL};
static const char *const PTRS[] = {"data_ptr", "mutable_data_ptr", "packed_accessor32",
                                   "packed_accessor64", "accessor", NULL};

static void host_param_effect(al_index *ix, const fn_tokens *f, int param, int depth,
                              al_call_effect *out);

/* The launch `k<<<...>>>(args)` in tokens [a, b), and which argument
 * holds token i: the kernel's name token and the argument index. */
static bool launch_holding(const al_cxx_unit *u, size_t a, size_t b, size_t i, size_t *kernel,
                           int *arg, size_t *args_open)
{
    for (size_t k = a + 1; k < b; k++) {
        if (!is(u, k, "<<<") && !(is(u, k, "<<") && is(u, k + 1, "<")))
            continue;
        size_t close = k;
        while (close < b && !is(u, close, ">>>") && !(is(u, close, ">>") && is(u, close + 1, ">")))
            close++;
        size_t open = close + (is(u, close, ">>>") ? 1 : 2);
        if (!is(u, open, "("))
            return false;
        size_t end = al_cxx_match(u, open);
        if (i <= open || i >= end)
            continue;
        int idx = 0, depth = 0;
        for (size_t t = open + 1; t < i; t++) {
            if (is(u, t, "(") || is(u, t, "<") || is(u, t, "[") || is(u, t, "{"))
                depth++;
            else if (is(u, t, ")") || is(u, t, ">") || is(u, t, "]") || is(u, t, "}"))
                depth--;
            else if (depth == 0 && is(u, t, ","))
                idx++;
        }
        *kernel = k - 1;
        *arg = idx;
        *args_open = open;
        return true;
    }
    return false;
}

/* The statement bounds [a, b) around token i within the body. */
static void statement_of(const fn_tokens *f, size_t i, size_t *a, size_t *b)
{
    const al_cxx_unit *u = f->u;
    size_t s = i;
    while (s > f->body + 1 && !is(u, s - 1, ";") && !is(u, s - 1, "{") && !is(u, s - 1, "}"))
        s--;
    size_t e = i;
    int depth = 0;
    while (e < f->end) {
        if (is(u, e, "(") || is(u, e, "{") || is(u, e, "["))
            depth++;
        else if (is(u, e, ")") || is(u, e, "}") || is(u, e, "]"))
            depth--;
        if ((depth <= 0 && is(u, e, ";")) || depth < 0)
            break;
        e++;
    }
    *a = s;
    *b = e;
}

/* Whether token i sits in a statement that is not at the top level of
 * the body (under if/for/while/switch or a nested block). */
static bool nested(const fn_tokens *f, size_t i)
{
    const al_cxx_unit *u = f->u;
    int depth = 0;
    for (size_t k = f->body + 1; k < i; k++) {
        if (is(u, k, "{"))
            depth++;
        else if (is(u, k, "}"))
            depth--;
    }
    if (depth > 0)
        return true;
    size_t a, b;
    statement_of(f, i, &a, &b);
    return is(u, a, "if") || is(u, a, "for") || is(u, a, "while") || is(u, a, "switch");
}

/* `name(a, b)` computes ceil(a / b): ATen's or libcu++'s `ceil_div`, or a
 * function of the project whose body is `return (a + b - 1) / b;`. */
static bool ceil_div_function(al_index *ix, const char *path, const char *name)
{
    if (!strcmp(name, "at::ceil_div") || !strcmp(name, "cuda::ceil_div") ||
        !strcmp(name, "c10::ceil_div"))
        return true;
    if (strstr(name, "::"))
        return false;
    al_cxx_def d;
    fn_tokens cf;
    if (!al_index_cxx_function(ix, path, name, &d) || !find_tokens(d.unit, d.path, d.function, &cf))
        return false;
    param_tokens ps[4];
    if (read_params(&cf, ps, 4) != 2)
        return false;
    char want[300];
    const al_cxx_unit *u = cf.u;
    snprintf(want, sizeof want, "{return(%.*s+%.*s-1)/%.*s;}",
             (int)(u->tokens[ps[0].name].end - u->tokens[ps[0].name].start),
             u->src->bytes + u->tokens[ps[0].name].start,
             (int)(u->tokens[ps[1].name].end - u->tokens[ps[1].name].start),
             u->src->bytes + u->tokens[ps[1].name].start,
             (int)(u->tokens[ps[1].name].end - u->tokens[ps[1].name].start),
             u->src->bytes + u->tokens[ps[1].name].start);
    char *body = al_cxx_compact(u, cf.body, cf.end + 1);
    bool ok = !strcmp(body, want);
    free(body);
    return ok;
}

/* Whether the grid text g, with the block text bl, launches at least
 * `bound` threads along x: `(bound + bl - 1) / bl` or a ceil division. */
static bool grid_text_covers(al_index *ix, const char *path, const char *g, const char *bl,
                             const char *bound)
{
    bool digits = *bl != '\0';
    for (const char *p = bl; *p; p++)
        digits &= *p >= '0' && *p <= '9';
    char forms[2][512];
    int nforms = 0;
    snprintf(forms[nforms++], sizeof forms[0], "(%s)", bound);
    if (!al_cxx_needs_parens(bound, true))
        snprintf(forms[nforms++], sizeof forms[0], "%s", bound);
    for (int i = 0; i < nforms; i++) {
        char want[1200];
        snprintf(want, sizeof want, "(%s+%s-1)/%s", forms[i], bl, bl);
        if (!strcmp(g, want))
            return true;
        snprintf(want, sizeof want, "(%s+(%s-1))/%s", forms[i], bl, bl);
        if (!strcmp(g, want))
            return true;
        if (digits && strlen(bl) < 10) {
            snprintf(want, sizeof want, "(%s+%ld)/%s", forms[i], atol(bl) - 1, bl);
            if (!strcmp(g, want))
                return true;
        }
    }
    const char *paren = strchr(g, '(');
    if (!paren || paren == g)
        return false;
    for (const char *p = g; p < paren; p++)
        if (!(*p == ':' || *p == '_' || (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
              (*p >= '0' && *p <= '9')))
            return false;
    char want[1200];
    snprintf(want, sizeof want, "%.*s(%s,%s)", (int)(paren - g), g, bound, bl);
    if (strcmp(g, want))
        return false;
    char *name = al_xstrndup(g, (size_t)(paren - g));
    bool ok = ceil_div_function(ix, path, name);
    free(name);
    return ok;
}

/* A kernel that writes elements [0, n) of the pointer, launched at token
 * `kernel` with its arguments at `args_open`: proved to write the whole
 * buffer when the launch passes the buffer's element count as n (and,
 * when one thread stores one element, its grid covers n); otherwise the
 * effect drops to WRITES_SOME with the reason. The element count may be
 * truncated by an `int` bound; a kernel that indexes with `int` already
 * leaves elements past 2^31 unwritten with or without the fill. */
static void prove_bound(al_index *ix, const fn_tokens *f, size_t kernel, size_t args_open,
                        size_t pname, const al_cxx_numel *numel, al_call_effect *ke)
{
    const al_cxx_unit *u = f->u;
    size_t row = al_cxx_row(u, u->tokens[kernel].start);
    size_t a, b;
    char *bound = NULL, *shown = NULL;
    if (al_cxx_list_item(u, args_open, al_cxx_match(u, args_open), ke->req.param, &a, &b)) {
        bound = al_cxx_value(f->u, f->body, f->end, a, b, kernel);
        shown = al_cxx_compact(u, a, b);
    }
    char own[256];
    snprintf(own, sizeof own, "%.*s.numel()", (int)(u->tokens[pname].end - u->tokens[pname].start),
             u->src->bytes + u->tokens[pname].start);
    char *count = al_cxx_numel_text(f->u, f->body, f->end, numel, kernel);
    al_strbuf why = {0};
    bool proved = bound && (!strcmp(bound, own) || (count && !strcmp(bound, count)));
    if (!proved) {
        al_strbuf_printf(&why, "stores elements [0, `%s`)", shown ? shown : "?");
        if (bound && shown && strcmp(bound, shown))
            al_strbuf_printf(&why, " with `%s` = `%s`", shown, bound);
        al_strbuf_printf(&why, ", which alloclint could not prove equals the buffer's element "
                               "count `%s`",
                         count ? count : own);
    }
    size_t ga, gb, ba, bb;
    char *g = NULL, *bl = NULL;
    if (proved && ke->req.grid_covers) {
        proved = al_cxx_launch_config(u, kernel, &ga, &gb, &ba, &bb);
        if (proved) {
            g = al_cxx_value(f->u, f->body, f->end, ga, gb, kernel);
            bl = al_cxx_value(f->u, f->body, f->end, ba, bb, kernel);
            proved = grid_text_covers(ix, f->path, g, bl, bound);
        }
        if (!proved) {
            char *gs = proved || !g ? NULL : al_cxx_compact(u, ga, bb);
            al_strbuf_printf(&why, "stores one element per thread, and the launch `<<<%s>>>` may "
                                   "start fewer than `%s` threads",
                             gs ? gs : "?", shown);
            free(gs);
        }
    }
    if (proved) {
        al_chain_add(&ke->chain, f->path, row, "the launch passes `%s`%s%s%s, the buffer's element count%s",
                     shown, strcmp(bound, shown) ? " = `" : "", strcmp(bound, shown) ? bound : "",
                     strcmp(bound, shown) ? "`" : "",
                     ke->req.grid_covers ? ", and its grid starts a thread for each element" : "");
    } else {
        ke->effect = AL_EFFECT_WRITES_SOME;
        free(ke->why);
        ke->why = al_strbuf_detach(&why);
    }
    al_strbuf_free(&why);
    ke->req.kind = AL_REQ_NONE;
    free(bound);
    free(shown);
    free(count);
    free(g);
    free(bl);
}

static void pointer_use(al_index *ix, const fn_tokens *f, size_t i, size_t pname,
                        const al_cxx_numel *numel, int depth, al_call_effect *out)
{
    const al_cxx_unit *u = f->u;
    size_t row = al_cxx_row(u, u->tokens[i].start);
    size_t a, b, kernel, args_open;
    int arg;
    statement_of(f, i, &a, &b);
    if (!launch_holding(u, a, b, i, &kernel, &arg, &args_open)) {
        set(out, AL_EFFECT_ESCAPES, f->path, row,
            "hands its data pointer to a call alloclint does not follow");
        return;
    }
    char kname[128];
    snprintf(kname, sizeof kname, "%.*s", (int)(u->tokens[kernel].end - u->tokens[kernel].start),
             u->src->bytes + u->tokens[kernel].start);
    al_cxx_def kd;
    if (depth >= MAX_DEPTH || !al_index_cxx_function(ix, f->path, kname, &kd)) {
        set(out, AL_EFFECT_ESCAPES, f->path, row, "launches `%s`, whose body was not found", kname);
        return;
    }
    fn_tokens kf;
    al_call_effect ke;
    memset(&ke, 0, sizeof ke);
    if (!find_tokens(kd.unit, kd.path, kd.function, &kf)) {
        set(out, AL_EFFECT_ESCAPES, f->path, row, "launches `%s`, whose body was not read", kname);
        return;
    }
    kernel_param_effect(&kf, arg, &ke);
    if (ke.effect == AL_EFFECT_WRITES_ALL && ke.req.kind == AL_REQ_NUMEL_IS_VALUE)
        prove_bound(ix, f, kernel, args_open, pname, numel, &ke);
    int sev_before = severity(out->effect);
    if (severity(ke.effect) >= sev_before || out->effect == AL_EFFECT_UNUSED) {
        free(out->callee);
        out->callee = al_xstrdup(kname);
        out->effect = ke.effect;
        free(out->why);
        al_strbuf sb = {0};
        al_strbuf_printf(&sb, "`%s` %s", kname, ke.why ? ke.why : al_effect_name(ke.effect));
        out->why = al_strbuf_detach(&sb);
        al_chain_free(&out->chain);
        al_chain_add(&out->chain, f->path, row, "launches the CUDA kernel `%s`", kname);
        al_chain_append(&out->chain, &ke.chain);
    }
    al_call_effect_free(&ke);
}

/* `fn(..., t, ...)` with fn a function of the project: its summary. */
static void argument_use(al_index *ix, const fn_tokens *f, size_t i, int depth, al_call_effect *out)
{
    const al_cxx_unit *u = f->u;
    size_t row = al_cxx_row(u, u->tokens[i].start);
    /* The innermost call around token i. */
    int d = 0;
    size_t open = 0;
    for (size_t k = i; k > f->body; k--) {
        if (is(u, k, ")"))
            d++;
        else if (is(u, k, "(")) {
            if (d == 0) {
                open = k;
                break;
            }
            d--;
        } else if (is(u, k, ";") || is(u, k, "{")) {
            break;
        }
    }
    if (!open || u->tokens[open - 1].kind != AL_CXX_IDENT) {
        set(out, AL_EFFECT_READS, f->path, row, "uses it in an expression");
        return;
    }
    int arg = 0;
    d = 0;
    for (size_t t = open + 1; t < i; t++) {
        if (is(u, t, "(") || is(u, t, "<") || is(u, t, "[") || is(u, t, "{"))
            d++;
        else if (is(u, t, ")") || is(u, t, ">") || is(u, t, "]") || is(u, t, "}"))
            d--;
        else if (d == 0 && is(u, t, ","))
            arg++;
    }
    char name[128];
    snprintf(name, sizeof name, "%.*s", (int)(u->tokens[open - 1].end - u->tokens[open - 1].start),
             u->src->bytes + u->tokens[open - 1].start);
    size_t nl = strlen(name);
    /* at::mm_out(out, a, b) and friends write their first argument. */
    if (nl > 4 && !strcmp(name + nl - 4, "_out") && arg == 0 && open >= 3 && is(u, open - 2, "::")) {
        set(out, nested(f, i) ? AL_EFFECT_WRITES_SOME : AL_EFFECT_WRITES_ALL, f->path, row,
            "writes it with `%s`", name);
        return;
    }
    al_cxx_def cd;
    fn_tokens cf;
    if (depth >= MAX_DEPTH || !al_index_cxx_function(ix, f->path, name, &cd) ||
        !find_tokens(cd.unit, cd.path, cd.function, &cf)) {
        set(out, AL_EFFECT_ESCAPES, f->path, row, "hands it to `%s`, which alloclint does not follow",
            name);
        return;
    }
    al_call_effect ce;
    memset(&ce, 0, sizeof ce);
    host_param_effect(ix, &cf, arg, depth + 1, &ce);
    if (ce.effect == AL_EFFECT_WRITES_ALL && nested(f, i))
        ce.effect = AL_EFFECT_WRITES_SOME;
    if (severity(ce.effect) >= severity(out->effect) || out->effect == AL_EFFECT_UNUSED) {
        free(out->callee);
        out->callee = al_xstrdup(name);
        out->effect = ce.effect;
        free(out->why);
        al_strbuf sb = {0};
        al_strbuf_printf(&sb, "in `%s`, %s", name, ce.why ? ce.why : al_effect_name(ce.effect));
        out->why = al_strbuf_detach(&sb);
        al_chain_free(&out->chain);
        al_chain_add(&out->chain, f->path, row, "calls `%s`", name);
        al_chain_append(&out->chain, &ce.chain);
    }
    al_call_effect_free(&ce);
}

static void host_param_effect(al_index *ix, const fn_tokens *f, int param, int depth,
                              al_call_effect *out)
{
    const al_cxx_unit *u = f->u;
    param_tokens ps[64];
    size_t np = read_params(f, ps, 64);
    out->effect = AL_EFFECT_UNUSED;
    if (param < 0 || (size_t)param >= np) {
        set(out, AL_EFFECT_UNKNOWN, f->path, al_cxx_row(u, u->tokens[f->name].start),
            "has no parameter %d", param);
        return;
    }
    /* A `__global__` function is a kernel: its parameters are pointers. */
    bool global = false;
    for (size_t k = f->first; k < f->name; k++)
        global |= is(u, k, "__global__");
    if (global) {
        kernel_param_effect(f, param, out);
        return;
    }
    size_t name = ps[param].name;
    bool first = true;
    for (size_t i = f->body + 1; i < f->end; i++) {
        if (!is_use(f, i, name))
            continue;
        size_t row = al_cxx_row(u, u->tokens[i].start);
        if (is(u, i + 1, ".") && i + 3 < f->end) {
            size_t m = i + 2;
            if (al_cxx_word_in(u, m, META))
                continue;
            if (al_cxx_word_in(u, m, FULL)) {
                if (first && !nested(f, i)) {
                    set(out, AL_EFFECT_WRITES_ALL, f->path, row, "overwrites it with `%.*s`",
                        (int)(u->tokens[m].end - u->tokens[m].start), u->src->bytes + u->tokens[m].start);
                    return;
                }
                set(out, AL_EFFECT_WRITES_SOME, f->path, row, "fills it under a condition");
            } else if (al_cxx_word_in(u, m, PTRS)) {
                pointer_use(ix, f, i, name, NULL, depth, out);
            } else if (is(u, m, "slice") || is(u, m, "narrow") || is(u, m, "select") ||
                       is(u, m, "index") || is(u, m, "view")) {
                set(out, AL_EFFECT_UNKNOWN, f->path, row, "takes a view of it");
            } else {
                const al_cxx_token *t = &u->tokens[m];
                bool inplace = t->end - t->start > 1 && u->src->bytes[t->end - 1] == '_';
                set(out, inplace ? AL_EFFECT_ACCUMULATES : AL_EFFECT_READS, f->path, row,
                    "calls `%.*s` on it", (int)(t->end - t->start), u->src->bytes + t->start);
            }
        } else if (is(u, i - 1, "return")) {
            set(out, AL_EFFECT_ESCAPES, f->path, row, "returns it");
        } else if (is(u, i + 1, "=") && !is(u, i + 2, "=")) {
            set(out, AL_EFFECT_UNKNOWN, f->path, row, "assigns another tensor to it");
            return;
        } else {
            argument_use(ix, f, i, depth, out);
        }
        first = false;
    }
}

static void param_effect(al_index *ix, const al_cxx_def *def, int param, int depth,
                         al_call_effect *out)
{
    memset(out, 0, sizeof *out);
    fn_tokens f;
    const al_cxx_function *fn = &def->unit->functions[def->function];
    al_strbuf who = {0};
    al_strbuf_printf(&who, "the C++ function `%s`", fn->name);
    if (!find_tokens(def->unit, def->path, def->function, &f)) {
        out->callee = al_strbuf_detach(&who);
        out->effect = AL_EFFECT_UNKNOWN;
        out->why = al_xstrdup("its body could not be read");
        return;
    }
    host_param_effect(ix, &f, param, depth, out);
    free(out->callee);
    out->callee = al_strbuf_detach(&who);
    if (out->why) {
        al_strbuf sb = {0};
        al_strbuf_printf(&sb, "in `%s`, %s", fn->name, out->why);
        free(out->why);
        out->why = al_strbuf_detach(&sb);
    }
    /* The function's own link first. */
    al_chain tail = out->chain;
    memset(&out->chain, 0, sizeof out->chain);
    al_chain_add(&out->chain, def->path, al_cxx_row(def->unit, def->unit->tokens[f.name].start),
                 "%s", out->why ? out->why : al_effect_name(out->effect));
    al_chain_append(&out->chain, &tail);
    al_chain_free(&tail);
}

static void use_effect(al_index *ix, const al_cxx_unit *u, const char *path, size_t body,
                       size_t i, bool pointer, const al_cxx_numel *numel, al_call_effect *out)
{
    memset(out, 0, sizeof *out);
    fn_tokens f;
    memset(&f, 0, sizeof f);
    f.u = u;
    f.path = path;
    f.body = body;
    f.end = al_cxx_match(u, body);
    f.first = f.name = body;
    if (pointer)
        pointer_use(ix, &f, i, i, numel, 0, out);
    else
        argument_use(ix, &f, i, 0, out);
    if (!out->callee)
        out->callee = al_xstrdup(pointer ? "the kernel launch" : "the call");
}

/* One summary at a time over the shared index (see al_callee_effect). */
void al_cxx_param_effect(al_index *ix, const al_cxx_def *def, int param, int depth,
                         al_call_effect *out)
{
    al_index_lock(ix);
    param_effect(ix, def, param, depth, out);
    al_index_unlock(ix);
}

void al_cxx_use_effect(al_index *ix, const al_cxx_unit *u, const char *path, size_t body,
                       size_t i, bool pointer, const al_cxx_numel *numel, al_call_effect *out)
{
    al_index_lock(ix);
    use_effect(ix, u, path, body, i, pointer, numel, out);
    al_index_unlock(ix);
}
