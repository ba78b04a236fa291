/* libclang, loaded on first use instead of at start-up: mapping it (and
 * LLVM behind it) and running their initialisers takes 70 ms, which a run
 * with no C++ to parse (a warm cache, a Python-only commit) must not pay.
 * Only cxx.c calls it. */
#ifndef ALLOCLINT_LIBCLANG_H
#define ALLOCLINT_LIBCLANG_H

#ifdef ALLOCLINT_HAVE_LIBCLANG

#include <clang-c/Index.h>
#include <stdbool.h>

/* The entry points alloclint uses, by their names less `clang_`. */
#define AL_LIBCLANG_FUNCTIONS(X)                                                                 \
    X(createIndex) X(disposeIndex) X(parseTranslationUnit2) X(disposeTranslationUnit)           \
    X(getTranslationUnitCursor) X(visitChildren) X(getCursorKind) X(getCursorExtent)            \
    X(getCursorLocation) X(getCursorSpelling) X(Location_isFromMainFile) X(getSpellingLocation) \
    X(getRangeStart) X(getRangeEnd) X(getRange) X(getFile) X(getLocationForOffset)              \
    X(tokenize) X(getTokenExtent) X(getTokenKind) X(disposeTokens) X(getCString)                \
    X(disposeString)

#define AL_LIBCLANG_FIELD(name) __typeof__(&clang_##name) name;
typedef struct {
    AL_LIBCLANG_FUNCTIONS(AL_LIBCLANG_FIELD)
} al_libclang;
#undef AL_LIBCLANG_FIELD

/* The loaded library, or NULL when it cannot be loaded (then
 * al_libclang_error says why). Thread-safe; loads at most once. */
const al_libclang *al_libclang_get(void);
const char *al_libclang_error(void);
/* The file loaded, and where it was found ("the libclang Python package",
 * "the system", "ALLOCLINT_LIBCLANG", ...); NULL when none loaded. */
const char *al_libclang_path(const char **origin);

#endif
#endif
