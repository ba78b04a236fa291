#include "cxx.h"

#include "../util.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool al_is_cxx_path(const char *path)
{
    static const char *const ext[] = {".cu", ".cuh", ".cpp", ".cc", ".cxx", ".h", ".hpp", NULL};
    for (int i = 0; ext[i]; i++)
        if (al_str_ends_with(path, ext[i]))
            return true;
    return false;
}

void al_cxx_facts_free(al_cxx_facts *f)
{
    for (size_t i = 0; i < f->n; i++) {
        free(f->allocs[i].factory);
        free(f->allocs[i].var);
        free(f->allocs[i].evidence);
        free(f->allocs[i].why);
    }
    free(f->allocs);
    free(f->comments);
    memset(f, 0, sizeof *f);
}

#ifndef ALLOCLINT_HAVE_LIBCLANG

bool al_cxx_available(void)
{
    return false;
}

void al_cxx_analyse(const al_source *src, const char *const *args, int nargs,
                    const al_op_table *ops, al_cxx_facts *out)
{
    (void)src, (void)args, (void)nargs, (void)ops;
    memset(out, 0, sizeof *out);
    snprintf(out->error, sizeof out->error, "built without libclang");
}

#else

#include <clang-c/Index.h>

bool al_cxx_available(void)
{
    return true;
}

typedef enum { TK_PUNCT, TK_KEYWORD, TK_IDENT, TK_LITERAL, TK_COMMENT } tk_kind;

typedef struct {
    tk_kind kind;
    size_t start, end;
} tok;

typedef struct {
    const al_source *src;
    const al_op_table *ops;
    al_cxx_facts *out;
    tok *t; /* the tokens of the whole file */
    size_t n;
    char **atomic_kernels; /* __global__ functions that accumulate (atomics, out[i] += v) */
    size_t n_atomic, cap_atomic;
} ctx;

static bool is(const ctx *c, size_t i, const char *s)
{
    if (i >= c->n)
        return false;
    size_t len = c->t[i].end - c->t[i].start;
    return strlen(s) == len && memcmp(c->src->bytes + c->t[i].start, s, len) == 0;
}

static char *text(const ctx *c, size_t a, size_t b) /* tokens a..b-1 */
{
    if (a >= b)
        return al_xstrdup("");
    return al_xstrndup(c->src->bytes + c->t[a].start, c->t[b - 1].end - c->t[a].start);
}

static size_t row_of(const ctx *c, size_t off)
{
    size_t row, col;
    al_source_position(c->src, off, &row, &col);
    return row;
}

/* The token index matching an opening ( [ { at i, or n. */
static size_t match(const ctx *c, size_t i)
{
    int depth = 0;
    for (size_t k = i; k < c->n; k++) {
        if (is(c, k, "(") || is(c, k, "[") || is(c, k, "{"))
            depth++;
        else if (is(c, k, ")") || is(c, k, "]") || is(c, k, "}")) {
            if (--depth == 0)
                return k;
        }
    }
    return c->n;
}

/* The statements of a block { ... } at token b: [start, end) each. */
typedef struct {
    size_t start, end;
    bool control; /* if/for/while/switch/do/try or a nested block */
} stmt;

static size_t split(const ctx *c, size_t b, size_t e, stmt *out, size_t max)
{
    size_t n = 0, i = b + 1;
    while (i < e && n < max) {
        size_t s = i;
        bool control = is(c, i, "if") || is(c, i, "for") || is(c, i, "while") ||
                       is(c, i, "switch") || is(c, i, "do") || is(c, i, "try") || is(c, i, "{");
        int depth = 0;
        for (; i < e; i++) {
            if (is(c, i, "(") || is(c, i, "[") || is(c, i, "{"))
                depth++;
            else if (is(c, i, ")") || is(c, i, "]") || is(c, i, "}")) {
                depth--;
                if (depth == 0 && is(c, i, "}") && control && !is(c, i + 1, "else") &&
                    !is(c, i + 1, "while") && !is(c, i + 1, "catch")) {
                    i++;
                    break;
                }
            } else if (depth == 0 && is(c, i, ";")) {
                i++;
                break;
            }
        }
        if (i > s)
            out[n++] = (stmt){s, i, control};
    }
    return n;
}

static const char *const META[] = {"sizes", "size", "numel", "dim", "options", "dtype",
                                   "scalar_type", "device", "is_contiguous", "stride",
                                   "strides", "defined", "is_cuda", "get_device", "element_size",
                                   "nbytes", "itemsize", "layout", NULL};
static const char *const FULL[] = {"copy_", "fill_", "zero_", "normal_", "uniform_", "random_",
                                   NULL};
static const char *const PTRS[] = {"data_ptr", "mutable_data_ptr", "packed_accessor32",
                                   "packed_accessor64", "accessor", "const_data_ptr", NULL};

static bool word_in(const ctx *c, size_t i, const char *const *list)
{
    for (int k = 0; list[k]; k++)
        if (is(c, i, list[k]))
            return true;
    return false;
}

typedef enum { U_NONE, U_META, U_WRITE, U_OUTPUT, U_READ, U_ESCAPE, U_RMW, U_OFFSET, U_KILL } use_kind;

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
    for (size_t i = 0; i < c->n_atomic; i++)
        if (is(c, k, c->atomic_kernels[i]))
            return true;
    return false;
}

/* What one occurrence of the variable at token i (in statement a..b) does. */
static use_kind classify(const ctx *c, size_t i, size_t a, size_t b, char **evidence)
{
    if (i > a && (is(c, i - 1, ".") || is(c, i - 1, "->") || is(c, i - 1, "::")))
        return U_NONE; /* a member of something else */
    /* var.method(...) or var.method<T>(...) */
    size_t paren = i + 3;
    if (is(c, i + 1, ".") && is(c, i + 3, "<")) {
        int angle = 0;
        for (size_t k = i + 3; k < b; k++) {
            if (is(c, k, "<"))
                angle++;
            else if (is(c, k, ">") && --angle == 0) {
                paren = k + 1;
                break;
            } else if (is(c, k, ">>") && (angle -= 2) <= 0) {
                paren = k + 1;
                break;
            }
        }
    }
    if (is(c, i + 1, ".") && paren < b && is(c, paren, "(")) {
        size_t m = i + 2, close = match(c, paren);
        if (word_in(c, m, META))
            return U_META;
        if (word_in(c, m, FULL)) {
            *evidence = text(c, m, m + 1);
            return U_WRITE;
        }
        if (word_in(c, m, PTRS)) {
            size_t after = close + 1;
            if (is(c, after, "+") || is(c, after, "["))
                return U_OFFSET; /* ptr + 1: element 0 keeps its fill */
            size_t k = launch_of(c, a, b);
            if (k != (size_t)-1) {
                if (atomic_kernel(c, k))
                    return U_RMW;
                *evidence = text(c, k, k + 1);
                return U_OUTPUT;
            }
            return U_ESCAPE; /* a raw pointer handed elsewhere */
        }
        if (is(c, m, "slice") || is(c, m, "narrow") || is(c, m, "index") || is(c, m, "select"))
            return U_OFFSET;
        size_t len = c->t[m].end - c->t[m].start;
        if (len > 1 && c->src->bytes[c->t[m].end - 1] == '_')
            return U_RMW;
        return U_READ;
    }
    if (is(c, i + 1, "+=") || is(c, i + 1, "-=") || is(c, i + 1, "*=") || is(c, i + 1, "/="))
        return U_RMW;
    if (is(c, i + 1, "=") && !is(c, i + 2, "="))
        return U_KILL;
    if (i > a && is(c, i - 1, "return"))
        return U_ESCAPE;
    /* at::mm_out(out, a, b): an _out op with the variable first. */
    if (i >= 2 && is(c, i - 1, "(") && c->t[i - 2].kind == TK_IDENT) {
        size_t f = i - 2;
        size_t fl = c->t[f].end - c->t[f].start;
        const char *fp = c->src->bytes + c->t[f].start;
        if (fl > 4 && !memcmp(fp + fl - 4, "_out", 4) && f >= 2 && is(c, f - 1, "::")) {
            char name[128];
            snprintf(name, sizeof name, "%.*s::%.*s",
                     (int)(c->t[f - 2].end - c->t[f - 2].start),
                     c->src->bytes + c->t[f - 2].start, (int)fl, fp);
            const al_op_summary *op = al_ops_find_output(c->ops, name, 0, NULL, 0);
            *evidence = al_xstrdup(name);
            return op && op->full_write ? U_WRITE : U_OUTPUT;
        }
    }
    return U_READ;
}

static const char *const PAD[] = {"round_up", "cdiv", "align", "pad", "max_", "ceil", NULL};

static void analyse_alloc(ctx *c, al_cxx_alloc *al, const stmt *ss, size_t ns, size_t at,
                          bool padded)
{
    al->proof = AL_PROOF_NONE;
    bool written = false;
    for (size_t s = at + 1; s < ns; s++) {
        const stmt *st = &ss[s];
        int writes = 0, outputs = 0, bad = 0, kills = 0;
        char *ev = NULL, *bad_why = NULL;
        for (size_t i = st->start; i < st->end; i++) {
            if (c->t[i].kind != TK_IDENT || !is(c, i, al->var))
                continue;
            char *e = NULL;
            use_kind u = classify(c, i, st->start, st->end, &e);
            switch (u) {
            case U_NONE:
            case U_META:
                break;
            case U_WRITE:
                writes++;
                free(ev);
                ev = e, e = NULL;
                break;
            case U_OUTPUT:
                outputs++;
                free(ev);
                ev = e, e = NULL;
                break;
            case U_KILL:
                kills++;
                break;
            default:
                bad++;
                if (!bad_why)
                    bad_why = al_xstrdup(u == U_RMW      ? "accumulated into"
                                         : u == U_OFFSET ? "written from an offset or in part"
                                         : u == U_ESCAPE ? "escapes before a full write"
                                                         : "read before a full write");
                break;
            }
            free(e);
        }
        if (written) {
            /* Accumulated into at any point: the fill is needed after all. */
            if (bad_why && !strcmp(bad_why, "accumulated into")) {
                al->proof = AL_PROOF_BLOCKED;
                al->why = bad_why, bad_why = NULL;
            }
            free(bad_why);
            free(ev);
            if (al->proof == AL_PROOF_BLOCKED)
                return;
            continue;
        }
        if (bad) {
            al->proof = AL_PROOF_BLOCKED;
            al->why = bad_why;
            free(ev);
            return;
        }
        if (kills) {
            free(ev);
            return; /* rebound before anything: no proof either way */
        }
        if (st->control) {
            /* A write under a condition proves nothing. */
            free(ev);
            continue;
        }
        if (writes + outputs > 0) {
            if (outputs && padded) {
                al->proof = AL_PROOF_BLOCKED;
                al->why = al_xstrdup("padded shape written by a kernel");
                free(ev);
                return;
            }
            al->proof = outputs ? AL_PROOF_OUTPUT_ONLY : AL_PROOF_FULL_WRITE;
            al->evidence = ev;
            al->evidence_row = row_of(c, c->t[st->start].start);
            written = true;
            continue;
        }
        free(ev);
    }
}

/* `T name = torch::zeros(...);` or `auto name = x.new_zeros(...);` */
static void allocations_in_block(ctx *c, size_t b, size_t e, int depth)
{
    if (depth > 64)
        return;
    stmt ss[1024];
    size_t ns = split(c, b, e, ss, 1024);
    for (size_t s = 0; s < ns; s++) {
        const stmt *st = &ss[s];
        /* Nested blocks are blocks of their own. */
        for (size_t i = st->start; i < st->end; i++)
            if (is(c, i, "{")) {
                size_t close = match(c, i);
                allocations_in_block(c, i, close, depth + 1);
                i = close;
            }
        if (st->control)
            continue;
        size_t eq = 0;
        for (size_t i = st->start; i < st->end; i++)
            if (is(c, i, "=")) {
                eq = i;
                break;
            }
        if (!eq || eq == st->start || c->t[eq - 1].kind != TK_IDENT)
            continue;
        size_t f = eq + 1, name = 0, call_start = eq + 1;
        bool method = false;
        if ((is(c, f, "torch") || is(c, f, "at")) && is(c, f + 1, "::")) {
            name = f + 2;
        } else if (c->t[f].kind == TK_IDENT && is(c, f + 1, ".")) {
            name = f + 2;
            method = true;
        } else {
            continue;
        }
        static const char *const fns[] = {"zeros", "ones", "full", NULL};
        static const char *const methods[] = {"new_zeros", "new_ones", "new_full", NULL};
        if (!word_in(c, name, method ? methods : fns) || !is(c, name + 1, "("))
            continue;
        size_t close = match(c, name + 1);
        if (close + 2 != st->end || !is(c, close + 1, ";"))
            continue; /* the call must be the whole initialiser */
        al_cxx_alloc al;
        memset(&al, 0, sizeof al);
        al.start = c->t[call_start].start;
        al.end = c->t[close].end;
        al.name_start = c->t[name].start;
        al.name_end = c->t[name].end;
        al.factory = text(c, name, name + 1);
        al.var = text(c, eq - 1, eq);
        if (strstr(al.factory, "full")) {
            /* full(size, value, options): drop `, value`. */
            int depth2 = 0;
            size_t commas[3];
            int nc = 0;
            for (size_t i = name + 2; i < close; i++) {
                if (is(c, i, "(") || is(c, i, "{") || is(c, i, "["))
                    depth2++;
                else if (is(c, i, ")") || is(c, i, "}") || is(c, i, "]"))
                    depth2--;
                else if (depth2 == 0 && is(c, i, ",") && nc < 3)
                    commas[nc++] = i;
            }
            if (nc >= 1) {
                al.fill_start = c->t[commas[0]].start;
                al.fill_end = nc >= 2 ? c->t[commas[1]].start : c->t[close].start;
            }
        }
        char *args = text(c, name + 1, close + 1);
        bool padded = false;
        for (int k = 0; PAD[k]; k++)
            if (strstr(args, PAD[k]))
                padded = true;
        free(args);
        analyse_alloc(c, &al, ss, ns, s, padded);
        AL_PUSH(c->out->allocs, c->out->n, c->out->cap, al);
    }
}

typedef struct {
    ctx *c;
    CXTranslationUnit tu;
} walk_ctx;

static size_t offset_of(CXSourceLocation loc)
{
    unsigned off;
    clang_getSpellingLocation(loc, NULL, NULL, NULL, &off);
    return off;
}

/* Token index of the first token starting at or after off. */
static size_t token_at(const ctx *c, size_t off)
{
    size_t lo = 0, hi = c->n;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (c->t[mid].start < off)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

static enum CXChildVisitResult find_bodies(CXCursor cur, CXCursor parent, CXClientData data)
{
    (void)parent;
    walk_ctx *w = data;
    if (!clang_Location_isFromMainFile(clang_getCursorLocation(cur)))
        return CXChildVisit_Continue;
    enum CXCursorKind k = clang_getCursorKind(cur);
    if (k == CXCursor_CompoundStmt) {
        CXCursor p = clang_getCursorSemanticParent(cur);
        (void)p;
        CXSourceRange r = clang_getCursorExtent(cur);
        size_t b = token_at(w->c, offset_of(clang_getRangeStart(r)));
        if (b < w->c->n && is(w->c, b, "{")) {
            size_t e = match(w->c, b);
            w->c->out->functions++;
            allocations_in_block(w->c, b, e, 0);
        }
        return CXChildVisit_Continue; /* nested blocks are walked by tokens */
    }
    return CXChildVisit_Recurse;
}

/* out[i] += v with `out` a pointer parameter of the function [a, b):
 * read-modify-write through memory the caller passed, as a kernel that
 * adds into its zero-filled output does. A local array (`float acc[3];
 * acc[0] *= w`) is not the caller's memory and does not count. */
static bool pointer_param_rmw(const ctx *c, size_t a, size_t b, size_t i)
{
    if (c->t[i].kind != TK_IDENT || i + 1 >= b || !is(c, i + 1, "["))
        return false;
    size_t close = match(c, i + 1);
    if (close + 1 >= b)
        return false;
    size_t op = close + 1;
    if (!(is(c, op, "+=") || is(c, op, "-=") || is(c, op, "*=") || is(c, op, "/=") ||
          is(c, op, "|=") || is(c, op, "&=") || is(c, op, "^=") || is(c, op, "++") ||
          is(c, op, "--")))
        return false;
    /* The parameter list: the first ( ... ) in the declaration. */
    size_t open = a;
    while (open < b && !is(c, open, "("))
        open++;
    if (open >= b)
        return false;
    size_t end = match(c, open);
    for (size_t k = open + 1; k < end && k < b; k++)
        if (c->t[k].kind == TK_IDENT &&
            (is(c, k - 1, "*") || (k >= 2 && is(c, k - 2, "*") &&
                                   (is(c, k - 1, "__restrict__") || is(c, k - 1, "__restrict")))) &&
            c->t[k].end - c->t[k].start == c->t[i].end - c->t[i].start &&
            !memcmp(c->src->bytes + c->t[k].start, c->src->bytes + c->t[i].start,
                    c->t[i].end - c->t[i].start))
            return true;
    return false;
}

static enum CXChildVisitResult find_kernels(CXCursor cur, CXCursor parent, CXClientData data)
{
    (void)parent;
    walk_ctx *w = data;
    if (!clang_Location_isFromMainFile(clang_getCursorLocation(cur)))
        return CXChildVisit_Continue;
    if (clang_getCursorKind(cur) == CXCursor_FunctionDecl ||
        clang_getCursorKind(cur) == CXCursor_FunctionTemplate) {
        CXSourceRange r = clang_getCursorExtent(cur);
        size_t a = token_at(w->c, offset_of(clang_getRangeStart(r)));
        size_t b = token_at(w->c, offset_of(clang_getRangeEnd(r)));
        bool global = false, atomic = false;
        for (size_t i = a; i < b && i < w->c->n; i++) {
            if (is(w->c, i, "__global__"))
                global = true;
            size_t len = w->c->t[i].end - w->c->t[i].start;
            if (len >= 6 && !memcmp(w->c->src->bytes + w->c->t[i].start, "atomic", 6))
                atomic = true;
            if (pointer_param_rmw(w->c, a, b, i))
                atomic = true;
        }
        if (global && atomic) {
            CXString name = clang_getCursorSpelling(cur);
            char *s = al_xstrdup(clang_getCString(name));
            clang_disposeString(name);
            AL_PUSH(w->c->atomic_kernels, w->c->n_atomic, w->c->cap_atomic, s);
        }
        return CXChildVisit_Continue;
    }
    return CXChildVisit_Recurse;
}

void al_cxx_analyse(const al_source *src, const char *const *args, int nargs,
                    const al_op_table *ops, al_cxx_facts *out)
{
    memset(out, 0, sizeof *out);
    const char *defaults[] = {"-x", "cuda", "--cuda-host-only", "-nocudainc", "-std=c++17"};
    int nd = 5;
    const char **all = al_xcalloc((size_t)(nd + nargs + 1), sizeof *all);
    int na = 0;
    bool is_cuda = al_str_ends_with(src->path, ".cu") || al_str_ends_with(src->path, ".cuh");
    for (int i = 0; i < nd; i++)
        if (is_cuda || i >= 4)
            all[na++] = defaults[i];
    if (!is_cuda) {
        all[na++] = "-x";
        all[na++] = "c++";
    }
    for (int i = 0; i < nargs; i++)
        all[na++] = args[i];
    CXIndex index = clang_createIndex(0, 0);
    struct CXUnsavedFile unsaved = {src->path, src->bytes, (unsigned long)src->len};
    CXTranslationUnit tu = NULL;
    enum CXErrorCode rc = clang_parseTranslationUnit2(
        index, src->path, all, na, &unsaved, 1,
        /* Without the user's arguments, skip #includes: the analysis reads
         * tokens of function bodies, which need no headers. */
        CXTranslationUnit_KeepGoing | (nargs == 0 ? CXTranslationUnit_SingleFileParse : 0), &tu);
    free(all);
    if (rc != CXError_Success || !tu) {
        snprintf(out->error, sizeof out->error, "libclang could not parse it (error %d)", rc);
        clang_disposeIndex(index);
        return;
    }
    out->parsed = true;
    /* All tokens of the file, once. */
    CXFile file = clang_getFile(tu, src->path);
    CXSourceRange whole = clang_getRange(clang_getLocationForOffset(tu, file, 0),
                                         clang_getLocationForOffset(tu, file, (unsigned)src->len));
    CXToken *toks = NULL;
    unsigned nt = 0;
    clang_tokenize(tu, whole, &toks, &nt);
    ctx c = {src, ops, out, al_xcalloc(nt ? nt : 1, sizeof(tok)), 0, NULL, 0, 0};
    for (unsigned i = 0; i < nt; i++) {
        CXSourceRange r = clang_getTokenExtent(tu, toks[i]);
        size_t s = offset_of(clang_getRangeStart(r)), e = offset_of(clang_getRangeEnd(r));
        if (e > src->len || s >= e)
            continue;
        tk_kind k;
        switch (clang_getTokenKind(toks[i])) {
        case CXToken_Punctuation: k = TK_PUNCT; break;
        case CXToken_Keyword: k = TK_KEYWORD; break;
        case CXToken_Identifier: k = TK_IDENT; break;
        case CXToken_Literal: k = TK_LITERAL; break;
        default: k = TK_COMMENT; break;
        }
        if (k == TK_COMMENT) {
            al_comment cm = {s, e};
            AL_PUSH(out->comments, out->n_comments, out->cap_comments, cm);
            continue;
        }
        c.t[c.n++] = (tok){k, s, e};
    }
    clang_disposeTokens(tu, toks, nt);
    walk_ctx w = {&c, tu};
    clang_visitChildren(clang_getTranslationUnitCursor(tu), find_kernels, &w);
    clang_visitChildren(clang_getTranslationUnitCursor(tu), find_bodies, &w);
    for (size_t i = 0; i < c.n_atomic; i++)
        free(c.atomic_kernels[i]);
    free(c.atomic_kernels);
    free(c.t);
    clang_disposeTranslationUnit(tu);
    clang_disposeIndex(index);
}

#endif
