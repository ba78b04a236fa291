#include "buffer.h"

#include "summary.h"
#include "../../base/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    const al_cxx_unit *u;
    const al_op_table *ops;
    al_index *ix;
    size_t body; /* the `{` of the block being read */
    al_cxx_buffers *out;
    al_strlist atomic_kernels; /* __global__ functions that accumulate */
    al_cxx_numel numel;        /* the element count of the buffer being read */
} ctx;

/* What a use found beyond its kind: what wrote it, what is missing, and
 * the callees behind it. */
typedef struct {
    char *evidence, *why;
    al_chain chain;
} use_info;

static bool is(const ctx *c, size_t i, const char *s)
{
    return al_cxx_is(c->u, i, s);
}

static const char *const META[] = {"sizes", "size", "numel", "dim", "options", "dtype",
                                   "scalar_type", "device", "is_contiguous", "stride",
                                   "strides", "defined", "is_cuda", "get_device", "element_size",
                                   "nbytes", "itemsize", "layout", NULL};
static const char *const FULL[] = {"copy_", "fill_", "zero_", "normal_", "uniform_", "random_",
                                   NULL};
static const char *const PTRS[] = {"data_ptr", "mutable_data_ptr", "packed_accessor32",
                                   "packed_accessor64", "accessor", "const_data_ptr", NULL};

typedef enum {
    U_NONE, U_META, U_WRITE, U_OUTPUT, U_READ, U_ESCAPE, U_RMW, U_OFFSET, U_KILL, U_SKIP
} use_kind;

/* A summary's effect as a use of the variable. */
static use_kind from_effect(al_call_effect *e, use_info *info)
{
    use_kind k;
    switch (e->effect) {
    case AL_EFFECT_WRITES_ALL: k = U_WRITE; break;
    case AL_EFFECT_WRITES_SOME: k = U_OUTPUT; break;
    case AL_EFFECT_SKIPS: k = U_SKIP; break;
    case AL_EFFECT_WRITES_PART: k = U_SKIP; break;
    case AL_EFFECT_UNREAD: k = U_SKIP; break; /* may stay: a C++ buffer is not proved by it */
    case AL_EFFECT_ACCUMULATES: k = U_RMW; break;
    case AL_EFFECT_READS: k = U_READ; break;
    case AL_EFFECT_UNUSED: k = U_META; break;
    default: k = U_ESCAPE; break;
    }
    info->evidence = al_xstrdup(e->callee ? e->callee : al_effect_name(e->effect));
    if (k == U_OUTPUT && e->why)
        info->why = al_xstrdup(e->why);
    al_chain_append(&info->chain, &e->chain);
    al_call_effect_free(e);
    return k;
}

/* The kernel launched in a statement, `name<<<...>>>(`, or (size_t)-1. */
static size_t launch_of(const ctx *c, size_t a, size_t b)
{
    for (size_t i = a + 1; i < b; i++)
        if (is(c, i, "<<<") || (is(c, i, "<<") && is(c, i + 1, "<")))
            return i - 1;
    return (size_t)-1;
}

static bool atomic_kernel(const ctx *c, size_t k)
{
    const al_cxx_token *t = &c->u->tokens[k];
    return al_strlist_has(&c->atomic_kernels, c->u->src->bytes + t->start, t->end - t->start);
}

/* The `(` of var.method(...) or var.method<T>(...) at token i. */
static size_t method_paren(const ctx *c, size_t i, size_t b)
{
    size_t paren = i + 3;
    if (is(c, i + 1, ".") && is(c, i + 3, "<")) {
        int angle = 0;
        for (size_t k = i + 3; k < b; k++) {
            if (is(c, k, "<")) {
                angle++;
            } else if (is(c, k, ">") && --angle == 0) {
                paren = k + 1;
                break;
            } else if (is(c, k, ">>") && (angle -= 2) <= 0) {
                paren = k + 1;
                break;
            }
        }
    }
    return paren;
}

static use_kind method_use(const ctx *c, size_t i, size_t paren, size_t a, size_t b,
                           use_info *info)
{
    char **evidence = &info->evidence;
    size_t m = i + 2, close = al_cxx_match(c->u, paren);
    if (al_cxx_word_in(c->u, m, META))
        return U_META;
    if (al_cxx_word_in(c->u, m, FULL)) {
        *evidence = al_cxx_text(c->u, m, m + 1);
        return U_WRITE;
    }
    if (al_cxx_word_in(c->u, m, PTRS)) {
        size_t after = close + 1;
        if (is(c, after, "+") || is(c, after, "["))
            return U_OFFSET; /* ptr + 1: element 0 keeps its fill */
        size_t k = launch_of(c, a, b);
        if (k != (size_t)-1 && c->ix) {
            al_call_effect e;
            al_cxx_use_effect(c->ix, c->u, c->u->src->path, c->body, i, true, &c->numel, &e);
            return from_effect(&e, info);
        }
        if (k != (size_t)-1) {
            if (atomic_kernel(c, k))
                return U_RMW;
            *evidence = al_cxx_text(c->u, k, k + 1);
            return U_OUTPUT;
        }
        return U_ESCAPE; /* a raw pointer handed elsewhere */
    }
    if (is(c, m, "slice") || is(c, m, "narrow") || is(c, m, "index") || is(c, m, "select"))
        return U_OFFSET;
    const al_cxx_token *t = &c->u->tokens[m];
    if (t->end - t->start > 1 && c->u->src->bytes[t->end - 1] == '_')
        return U_RMW;
    return U_READ;
}

/* What one occurrence of the variable at token i (in statement a..b) does. */
static use_kind classify(const ctx *c, size_t i, size_t a, size_t b, use_info *info)
{
    char **evidence = &info->evidence;
    const al_cxx_unit *u = c->u;
    if (i > a && (is(c, i - 1, ".") || is(c, i - 1, "->") || is(c, i - 1, "::")))
        return U_NONE; /* a member of something else */
    size_t paren = method_paren(c, i, b);
    if (is(c, i + 1, ".") && paren < b && is(c, paren, "("))
        return method_use(c, i, paren, a, b, info);
    if (is(c, i + 1, "+=") || is(c, i + 1, "-=") || is(c, i + 1, "*=") || is(c, i + 1, "/="))
        return U_RMW;
    if (is(c, i + 1, "=") && !is(c, i + 2, "="))
        return U_KILL;
    if (i > a && is(c, i - 1, "return"))
        return U_ESCAPE;
    /* at::mm_out(out, a, b): an _out op with the variable first. */
    if (i >= 2 && is(c, i - 1, "(") && u->tokens[i - 2].kind == AL_CXX_IDENT) {
        size_t f = i - 2;
        size_t fl = u->tokens[f].end - u->tokens[f].start;
        const char *fp = u->src->bytes + u->tokens[f].start;
        if (fl > 4 && !memcmp(fp + fl - 4, "_out", 4) && f >= 2 && is(c, f - 1, "::")) {
            char name[128];
            snprintf(name, sizeof name, "%.*s::%.*s",
                     (int)(u->tokens[f - 2].end - u->tokens[f - 2].start),
                     u->src->bytes + u->tokens[f - 2].start, (int)fl, fp);
            const al_op_summary *op = al_ops_find_output(c->ops, name, 0, NULL, 0);
            *evidence = al_xstrdup(name);
            return op && op->full_write ? U_WRITE : U_OUTPUT;
        }
    }
    /* handed to a function of the project: its summary */
    if (c->ix && i > a && (is(c, i - 1, "(") || is(c, i - 1, ","))) {
        al_call_effect e;
        al_cxx_use_effect(c->ix, c->u, c->u->src->path, c->body, i, false, &c->numel, &e);
        if (e.effect != AL_EFFECT_READS || !e.why || !strstr(e.why, "in an expression"))
            return from_effect(&e, info);
        al_call_effect_free(&e);
    }
    return U_READ;
}

static const char *const PAD[] = {"round_up", "cdiv", "align", "pad", "max_", "ceil", NULL};

static const char *block_text(use_kind u)
{
    return u == U_RMW      ? "accumulated into"
           : u == U_SKIP   ? "handed to a callee that may leave elements unwritten"
           : u == U_OFFSET ? "written from an offset or in part"
           : u == U_ESCAPE ? "escapes before a full write"
                           : "read before a full write";
}

/* The uses of the variable in one statement. */
typedef struct {
    int writes, outputs, bad, kills;
    char *evidence, *why, *gap;
    al_chain chain;
} stmt_uses;

static void uses_in(const ctx *c, const al_cxx_buffer *al, const al_cxx_stmt *st, stmt_uses *s)
{
    memset(s, 0, sizeof *s);
    for (size_t i = st->start; i < st->end; i++) {
        if (c->u->tokens[i].kind != AL_CXX_IDENT || !is(c, i, al->var))
            continue;
        use_info info = {NULL, NULL, {0}};
        use_kind u = classify(c, i, st->start, st->end, &info);
        char *e = info.evidence;
        switch (u) {
        case U_NONE:
        case U_META:
            break;
        case U_WRITE:
        case U_OUTPUT:
            if (u == U_WRITE)
                s->writes++;
            else
                s->outputs++;
            free(s->evidence);
            s->evidence = e, e = NULL;
            free(s->gap);
            s->gap = info.why, info.why = NULL;
            al_chain_free(&s->chain);
            s->chain = info.chain;
            memset(&info.chain, 0, sizeof info.chain);
            break;
        case U_KILL:
            s->kills++;
            break;
        default:
            s->bad++;
            if (!s->why)
                s->why = al_xstrdup(block_text(u));
            break;
        }
        free(e);
        free(info.why);
        al_chain_free(&info.chain);
    }
}

static void analyse_alloc(ctx *c, al_cxx_buffer *al, const al_cxx_stmt *ss, size_t ns, size_t at,
                          bool padded)
{
    al->proof = AL_PROOF_NONE;
    bool written = false;
    for (size_t s = at + 1; s < ns; s++) {
        const al_cxx_stmt *st = &ss[s];
        stmt_uses u;
        uses_in(c, al, st, &u);
        if (written) {
            /* Accumulated into at any point: the fill is needed after all. */
            bool rmw = u.why && !strcmp(u.why, "accumulated into");
            if (rmw) {
                al->proof = AL_PROOF_BLOCKED;
                free(al->why);
                al->why = u.why, u.why = NULL;
            }
        } else if (u.bad) {
            al->proof = AL_PROOF_BLOCKED;
            al->why = u.why, u.why = NULL;
        } else if (u.kills || st->control) {
            /* Rebound before anything: no proof either way. A write under
             * a condition proves nothing. */
            if (!u.kills) {
                free(u.evidence), free(u.gap), al_chain_free(&u.chain);
                continue;
            }
        } else if (u.writes + u.outputs > 0) {
            if (u.outputs && padded) {
                al->proof = AL_PROOF_BLOCKED;
                al->why = al_xstrdup("padded shape written by a kernel");
            } else {
                al->proof = u.outputs ? AL_PROOF_OUTPUT_ONLY : AL_PROOF_FULL_WRITE;
                al->evidence = u.evidence, u.evidence = NULL;
                al->why = u.outputs ? u.gap : NULL;
                if (u.outputs)
                    u.gap = NULL;
                al->chain = u.chain;
                memset(&u.chain, 0, sizeof u.chain);
                al->evidence_row = al_cxx_row(c->u, c->u->tokens[st->start].start);
                written = true;
            }
        }
        bool stop = al->proof == AL_PROOF_BLOCKED || (!written && u.kills);
        free(u.why), free(u.evidence), free(u.gap), al_chain_free(&u.chain);
        if (stop)
            return;
    }
}

/* full(size, value, options): the bytes of `, value`. */
static void fill_range(const ctx *c, size_t name, size_t close, al_cxx_buffer *al)
{
    int depth = 0;
    size_t commas[3];
    int nc = 0;
    for (size_t i = name + 2; i < close; i++) {
        if (is(c, i, "(") || is(c, i, "{") || is(c, i, "["))
            depth++;
        else if (is(c, i, ")") || is(c, i, "}") || is(c, i, "]"))
            depth--;
        else if (depth == 0 && is(c, i, ",") && nc < 3)
            commas[nc++] = i;
    }
    if (nc >= 1) {
        al->fill_start = c->u->tokens[commas[0]].start;
        al->fill_end = nc >= 2 ? c->u->tokens[commas[1]].start : c->u->tokens[close].start;
    }
}

/* The element count of `zeros({A, B}, ...)`, `zeros(x.sizes(), ...)`,
 * `zeros_like(x)` or `y.new_zeros({A})`, whose name is token `name`. */
static al_cxx_numel element_count(const ctx *c, size_t name, size_t close)
{
    al_cxx_numel n = {AL_CXX_NUMEL_UNKNOWN, 0, 0};
    size_t a, b;
    if (!al_cxx_list_item(c->u, name + 1, close, 0, &a, &b))
        return n;
    const al_cxx_token *t = &c->u->tokens[name];
    bool like = t->end - t->start > 5 && !memcmp(c->u->src->bytes + t->end - 5, "_like", 5);
    if (like) {
        n = (al_cxx_numel){AL_CXX_NUMEL_OF, a, b};
    } else if (is(c, a, "{") && al_cxx_match(c->u, a) + 1 == b) {
        n = (al_cxx_numel){AL_CXX_NUMEL_DIMS, a + 1, b - 1};
    } else if (b == a + 5 && c->u->tokens[a].kind == AL_CXX_IDENT && is(c, a + 1, ".") &&
               is(c, a + 2, "sizes") && is(c, a + 3, "(") && is(c, a + 4, ")")) {
        n = (al_cxx_numel){AL_CXX_NUMEL_OF, a, a + 1};
    }
    return n;
}

/* `T name = torch::zeros(...);` as statement s of ss: the allocation. */
static void allocation_statement(ctx *c, const al_cxx_stmt *ss, size_t ns, size_t s)
{
    const al_cxx_unit *u = c->u;
    const al_cxx_stmt *st = &ss[s];
    size_t eq = 0;
    for (size_t i = st->start; i < st->end; i++)
        if (is(c, i, "=")) {
            eq = i;
            break;
        }
    if (!eq || eq == st->start || u->tokens[eq - 1].kind != AL_CXX_IDENT)
        return;
    size_t f = eq + 1, name = 0, call_start = eq + 1;
    bool method = false;
    if ((is(c, f, "torch") || is(c, f, "at")) && is(c, f + 1, "::")) {
        name = f + 2;
    } else if (f < u->n && u->tokens[f].kind == AL_CXX_IDENT && is(c, f + 1, ".")) {
        name = f + 2;
        method = true;
    } else {
        return;
    }
    static const char *const fns[] = {"zeros", "ones", "full", "zeros_like", "ones_like",
                                      "full_like", NULL};
    static const char *const methods[] = {"new_zeros", "new_ones", "new_full", NULL};
    if (!al_cxx_word_in(u, name, method ? methods : fns) || !is(c, name + 1, "("))
        return;
    size_t close = al_cxx_match(u, name + 1);
    if (close + 2 != st->end || !is(c, close + 1, ";"))
        return; /* the call must be the whole initialiser */
    al_cxx_buffer al;
    memset(&al, 0, sizeof al);
    al.start = u->tokens[call_start].start;
    al.end = u->tokens[close].end;
    al.name_start = u->tokens[name].start;
    al.name_end = u->tokens[name].end;
    al.factory = al_cxx_text(u, name, name + 1);
    al.var = al_cxx_text(u, eq - 1, eq);
    if (strstr(al.factory, "full"))
        fill_range(c, name, close, &al);
    c->numel = element_count(c, name, close);
    char *args = al_cxx_text(u, name + 1, close + 1);
    bool padded = false;
    for (int k = 0; PAD[k]; k++)
        if (strstr(args, PAD[k]))
            padded = true;
    free(args);
    analyse_alloc(c, &al, ss, ns, s, padded);
    AL_PUSH(c->out->items, c->out->n, c->out->cap, al);
}

static void allocations_in_block(ctx *c, size_t b, size_t e, int depth)
{
    if (depth > 64)
        return;
    size_t outer = c->body;
    c->body = b;
    al_cxx_stmt ss[1024];
    size_t ns = al_cxx_split(c->u, b, e, ss, 1024);
    for (size_t s = 0; s < ns; s++) {
        const al_cxx_stmt *st = &ss[s];
        /* Nested blocks are blocks of their own. */
        for (size_t i = st->start; i < st->end; i++)
            if (is(c, i, "{")) {
                size_t close = al_cxx_match(c->u, i);
                allocations_in_block(c, i, close, depth + 1);
                i = close;
            }
        if (!st->control)
            allocation_statement(c, ss, ns, s);
    }
    c->body = outer;
}

/* out[i] += v with `out` a pointer parameter of the function [a, b):
 * read-modify-write through memory the caller passed, as a kernel that
 * adds into its zero-filled output does. A local array (`float acc[3];
 * acc[0] *= w`) is not the caller's memory and does not count. */
static bool pointer_param_rmw(const ctx *c, size_t a, size_t b, size_t i)
{
    const al_cxx_unit *u = c->u;
    if (u->tokens[i].kind != AL_CXX_IDENT || i + 1 >= b || !is(c, i + 1, "["))
        return false;
    size_t close = al_cxx_match(u, i + 1);
    if (close + 1 >= b)
        return false;
    size_t op = close + 1;
    static const char *const rmw_ops[] = {"+=", "-=", "*=", "/=", "|=", "&=", "^=", "++", "--",
                                          NULL};
    if (!al_cxx_word_in(u, op, rmw_ops))
        return false;
    /* The parameter list: the first ( ... ) in the declaration. */
    size_t open = a;
    while (open < b && !is(c, open, "("))
        open++;
    if (open >= b)
        return false;
    size_t end = al_cxx_match(u, open);
    size_t len = u->tokens[i].end - u->tokens[i].start;
    for (size_t k = open + 1; k < end && k < b; k++)
        if (u->tokens[k].kind == AL_CXX_IDENT &&
            (is(c, k - 1, "*") ||
             (k >= 2 && is(c, k - 2, "*") &&
              (is(c, k - 1, "__restrict__") || is(c, k - 1, "__restrict")))) &&
            u->tokens[k].end - u->tokens[k].start == len &&
            !memcmp(u->src->bytes + u->tokens[k].start, u->src->bytes + u->tokens[i].start, len))
            return true;
    return false;
}

/* `__global__` functions that use atomics or add into a pointer parameter. */
static void find_atomic_kernels(ctx *c)
{
    const al_cxx_unit *u = c->u;
    for (size_t f = 0; f < u->n_functions; f++) {
        size_t a = u->functions[f].first, b = u->functions[f].last;
        bool global = false, atomic = false;
        for (size_t i = a; i < b; i++) {
            if (is(c, i, "__global__"))
                global = true;
            size_t len = u->tokens[i].end - u->tokens[i].start;
            if (len >= 6 && !memcmp(u->src->bytes + u->tokens[i].start, "atomic", 6))
                atomic = true;
            if (pointer_param_rmw(c, a, b, i))
                atomic = true;
        }
        if (global && atomic)
            AL_PUSH(c->atomic_kernels.items, c->atomic_kernels.n, c->atomic_kernels.cap,
                    al_xstrdup(u->functions[f].name));
    }
}

void al_cxx_buffers_analyse(const al_cxx_unit *u, const al_op_table *ops, struct al_index *ix,
                            al_cxx_buffers *out)
{
    memset(out, 0, sizeof *out);
    ctx c;
    memset(&c, 0, sizeof c);
    c.u = u;
    c.ops = ops;
    c.ix = ix;
    c.out = out;
    find_atomic_kernels(&c);
    for (size_t i = 0; i < u->n_bodies; i++)
        allocations_in_block(&c, u->bodies[i], al_cxx_match(u, u->bodies[i]), 0);
    al_strlist_free(&c.atomic_kernels);
}

void al_cxx_buffers_free(al_cxx_buffers *b)
{
    for (size_t i = 0; i < b->n; i++) {
        free(b->items[i].factory);
        free(b->items[i].var);
        free(b->items[i].evidence);
        free(b->items[i].why);
        al_chain_free(&b->items[i].chain);
    }
    free(b->items);
    memset(b, 0, sizeof *b);
}
