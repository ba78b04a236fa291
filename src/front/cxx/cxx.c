#include "cxx.h"

#include "../../base/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool al_is_cxx_path(const char *path)
{
    /* Asked several times for every file of a run: the extension found
     * once, then compared whole. */
    static const char *const ext[] = {"cu", "cuh", "cpp", "cc", "cxx", "h", "hpp", NULL};
    const char *dot = strrchr(path, '.');
    if (!dot)
        return false;
    for (int i = 0; ext[i]; i++)
        if (!strcmp(dot + 1, ext[i]))
            return true;
    return false;
}

void al_cxx_unit_free(al_cxx_unit *u)
{
    for (size_t i = 0; i < u->n_functions; i++)
        free(u->functions[i].name);
    free(u->functions);
    free(u->tokens);
    free(u->comments);
    free(u->bodies);
    memset(u, 0, sizeof *u);
}

bool al_cxx_is(const al_cxx_unit *u, size_t i, const char *s)
{
    if (i >= u->n)
        return false;
    size_t len = u->tokens[i].end - u->tokens[i].start;
    return strlen(s) == len && memcmp(u->src->bytes + u->tokens[i].start, s, len) == 0;
}

bool al_cxx_word_in(const al_cxx_unit *u, size_t i, const char *const *list)
{
    for (int k = 0; list[k]; k++)
        if (al_cxx_is(u, i, list[k]))
            return true;
    return false;
}

static bool opens(const al_cxx_unit *u, size_t i)
{
    return al_cxx_is(u, i, "(") || al_cxx_is(u, i, "[") || al_cxx_is(u, i, "{");
}

static bool closes(const al_cxx_unit *u, size_t i)
{
    return al_cxx_is(u, i, ")") || al_cxx_is(u, i, "]") || al_cxx_is(u, i, "}");
}

size_t al_cxx_match(const al_cxx_unit *u, size_t i)
{
    int depth = 0;
    for (size_t k = i; k < u->n; k++) {
        if (opens(u, k))
            depth++;
        else if (closes(u, k) && --depth == 0)
            return k;
    }
    return u->n;
}

size_t al_cxx_split(const al_cxx_unit *u, size_t b, size_t e, al_cxx_stmt *out, size_t max)
{
    size_t n = 0, i = b + 1;
    while (i < e && n < max) {
        size_t s = i;
        bool control = al_cxx_is(u, i, "if") || al_cxx_is(u, i, "for") ||
                       al_cxx_is(u, i, "while") || al_cxx_is(u, i, "switch") ||
                       al_cxx_is(u, i, "do") || al_cxx_is(u, i, "try") || al_cxx_is(u, i, "{");
        int depth = 0;
        for (; i < e; i++) {
            if (opens(u, i)) {
                depth++;
            } else if (closes(u, i)) {
                depth--;
                if (depth == 0 && al_cxx_is(u, i, "}") && control && !al_cxx_is(u, i + 1, "else") &&
                    !al_cxx_is(u, i + 1, "while") && !al_cxx_is(u, i + 1, "catch")) {
                    i++;
                    break;
                }
            } else if (depth == 0 && al_cxx_is(u, i, ";")) {
                i++;
                break;
            }
        }
        if (i > s)
            out[n++] = (al_cxx_stmt){s, i, control};
    }
    return n;
}

char *al_cxx_text(const al_cxx_unit *u, size_t a, size_t b)
{
    if (a >= b)
        return al_xstrdup("");
    return al_xstrndup(u->src->bytes + u->tokens[a].start, u->tokens[b - 1].end - u->tokens[a].start);
}

size_t al_cxx_row(const al_cxx_unit *u, size_t offset)
{
    size_t row, col;
    al_source_position(u->src, offset, &row, &col);
    return row;
}

#ifndef ALLOCLINT_HAVE_LIBCLANG

bool al_cxx_built(void)
{
    return false;
}

bool al_cxx_available(void)
{
    return false;
}

const char *al_cxx_unavailable_reason(void)
{
    return "this alloclint was built without libclang";
}

const char *al_cxx_library(const char **origin)
{
    if (origin)
        *origin = "";
    return NULL;
}

void al_cxx_parse(const al_source *src, const char *const *args, int nargs, al_cxx_unit *out)
{
    (void)args, (void)nargs;
    memset(out, 0, sizeof *out);
    out->src = src;
    snprintf(out->error, sizeof out->error, "built without libclang");
}

#else

#include "libclang.h"

bool al_cxx_built(void)
{
    return true;
}

bool al_cxx_available(void)
{
    return al_libclang_get() != NULL;
}

const char *al_cxx_unavailable_reason(void)
{
    return al_libclang_error();
}

const char *al_cxx_library(const char **origin)
{
    return al_libclang_path(origin);
}

static size_t offset_of(CXSourceLocation loc)
{
    const al_libclang *lc = al_libclang_get();
    unsigned off;
    lc->getSpellingLocation(loc, NULL, NULL, NULL, &off);
    return off;
}

/* Token index of the first token starting at or after off. */
static size_t token_at(const al_cxx_unit *u, size_t off)
{
    size_t lo = 0, hi = u->n;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (u->tokens[mid].start < off)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

static enum CXChildVisitResult find_bodies(CXCursor cur, CXCursor parent, CXClientData data)
{
    const al_libclang *lc = al_libclang_get();
    (void)parent;
    al_cxx_unit *u = data;
    if (!lc->Location_isFromMainFile(lc->getCursorLocation(cur)))
        return CXChildVisit_Continue;
    if (lc->getCursorKind(cur) == CXCursor_CompoundStmt) {
        CXSourceRange r = lc->getCursorExtent(cur);
        size_t b = token_at(u, offset_of(lc->getRangeStart(r)));
        if (b < u->n && al_cxx_is(u, b, "{"))
            AL_PUSH(u->bodies, u->n_bodies, u->cap_bodies, b);
        return CXChildVisit_Continue; /* nested blocks are read from the tokens */
    }
    return CXChildVisit_Recurse;
}

static enum CXChildVisitResult find_functions(CXCursor cur, CXCursor parent, CXClientData data)
{
    const al_libclang *lc = al_libclang_get();
    (void)parent;
    al_cxx_unit *u = data;
    if (!lc->Location_isFromMainFile(lc->getCursorLocation(cur)))
        return CXChildVisit_Continue;
    if (lc->getCursorKind(cur) == CXCursor_FunctionDecl ||
        lc->getCursorKind(cur) == CXCursor_FunctionTemplate) {
        CXSourceRange r = lc->getCursorExtent(cur);
        CXString name = lc->getCursorSpelling(cur);
        al_cxx_function f = {token_at(u, offset_of(lc->getRangeStart(r))),
                             token_at(u, offset_of(lc->getRangeEnd(r))),
                             al_xstrdup(lc->getCString(name))};
        lc->disposeString(name);
        if (f.last > u->n)
            f.last = u->n;
        AL_PUSH(u->functions, u->n_functions, u->cap_functions, f);
        return CXChildVisit_Continue;
    }
    return CXChildVisit_Recurse;
}

static void read_tokens(al_cxx_unit *u, CXTranslationUnit tu)
{
    const al_libclang *lc = al_libclang_get();
    const al_source *src = u->src;
    CXFile file = lc->getFile(tu, src->path);
    CXSourceRange whole = lc->getRange(lc->getLocationForOffset(tu, file, 0),
                                      lc->getLocationForOffset(tu, file, (unsigned)src->len));
    CXToken *toks = NULL;
    unsigned nt = 0;
    lc->tokenize(tu, whole, &toks, &nt);
    u->tokens = al_xcalloc(nt ? nt : 1, sizeof *u->tokens);
    for (unsigned i = 0; i < nt; i++) {
        CXSourceRange r = lc->getTokenExtent(tu, toks[i]);
        size_t s = offset_of(lc->getRangeStart(r)), e = offset_of(lc->getRangeEnd(r));
        if (e > src->len || s >= e)
            continue;
        al_cxx_token_kind k;
        switch (lc->getTokenKind(toks[i])) {
        case CXToken_Punctuation: k = AL_CXX_PUNCT; break;
        case CXToken_Keyword: k = AL_CXX_KEYWORD; break;
        case CXToken_Identifier: k = AL_CXX_IDENT; break;
        case CXToken_Literal: k = AL_CXX_LITERAL; break;
        default: {
            al_span cm = {s, e};
            AL_PUSH(u->comments, u->n_comments, u->cap_comments, cm);
            continue;
        }
        }
        u->tokens[u->n++] = (al_cxx_token){k, s, e};
    }
    lc->disposeTokens(tu, toks, nt);
}

void al_cxx_parse(const al_source *src, const char *const *args, int nargs, al_cxx_unit *out)
{
    memset(out, 0, sizeof *out);
    out->src = src;
    const al_libclang *lc = al_libclang_get();
    if (!lc) {
        snprintf(out->error, sizeof out->error, "%s", al_libclang_error());
        return;
    }
    const char *defaults[] = {"-x", "cuda", "--cuda-host-only", "-nocudainc", "-std=c++17"};
    int nd = 5;
    const char **all = al_xcalloc((size_t)(nd + nargs + 3), sizeof *all);
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
    CXIndex index = lc->createIndex(0, 0);
    struct CXUnsavedFile unsaved = {src->path, src->bytes, (unsigned long)src->len};
    CXTranslationUnit tu = NULL;
    enum CXErrorCode rc = lc->parseTranslationUnit2(
        index, src->path, all, na, &unsaved, 1,
        /* Without the user's arguments, skip #includes: the analysis reads
         * tokens of function bodies, which need no headers. */
        CXTranslationUnit_KeepGoing | (nargs == 0 ? CXTranslationUnit_SingleFileParse : 0), &tu);
    free(all);
    if (rc != CXError_Success || !tu) {
        snprintf(out->error, sizeof out->error, "libclang could not parse it (error %d)", rc);
        lc->disposeIndex(index);
        return;
    }
    out->parsed = true;
    read_tokens(out, tu);
    lc->visitChildren(lc->getTranslationUnitCursor(tu), find_functions, out);
    lc->visitChildren(lc->getTranslationUnitCursor(tu), find_bodies, out);
    lc->disposeTranslationUnit(tu);
    lc->disposeIndex(index);
}

#endif

bool al_cxx_token_eq(const al_cxx_unit *u, size_t a, size_t b)
{
    size_t la = u->tokens[a].end - u->tokens[a].start, lb = u->tokens[b].end - u->tokens[b].start;
    return la == lb && !memcmp(u->src->bytes + u->tokens[a].start, u->src->bytes + u->tokens[b].start, la);
}
