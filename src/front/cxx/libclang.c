#include "libclang.h"

#ifdef ALLOCLINT_HAVE_LIBCLANG

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

static al_libclang loaded;
static const al_libclang *usable;
static char error[512];
static pthread_once_t once = PTHREAD_ONCE_INIT;

static void load(void)
{
    /* $ALLOCLINT_LIBCLANG when set (the C API is stable across LLVM
     * releases, so another one serves); else the library file found at
     * configure time, then its soname, which outlives a point release. */
    const char *chosen = getenv("ALLOCLINT_LIBCLANG");
    const char *const names[] = {ALLOCLINT_LIBCLANG_PATH, ALLOCLINT_LIBCLANG_SONAME};
    void *lib = NULL;
    if (chosen && *chosen)
        lib = dlopen(chosen, RTLD_NOW | RTLD_LOCAL);
    else
        for (size_t i = 0; i < sizeof names / sizeof *names && !lib; i++)
            lib = dlopen(names[i], RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        const char *why = dlerror();
        snprintf(error, sizeof error, "libclang could not be loaded: %s", why ? why : "unknown error");
        return;
    }
    /* ISO C has no cast from void * to a function pointer; POSIX
     * guarantees dlsym's result can be used as one. */
#define AL_LIBCLANG_LOAD(name)                                                                 \
    *(void **)(&loaded.name) = dlsym(lib, "clang_" #name);                                     \
    if (!loaded.name) {                                                                        \
        snprintf(error, sizeof error, "libclang has no clang_%s", #name);                     \
        return;                                                                                \
    }
    AL_LIBCLANG_FUNCTIONS(AL_LIBCLANG_LOAD)
#undef AL_LIBCLANG_LOAD
    /* Never unloaded: LLVM's finalisers belong to process exit. */
    usable = &loaded;
}

const al_libclang *al_libclang_get(void)
{
    pthread_once(&once, load);
    return usable;
}

const char *al_libclang_error(void)
{
    pthread_once(&once, load);
    return usable ? NULL : error;
}

#endif
