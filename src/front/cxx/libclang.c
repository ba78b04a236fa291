#include "libclang.h"

#include "../../base/paths.h"

#ifdef ALLOCLINT_HAVE_LIBCLANG

#include <dlfcn.h>
#include <glob.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static al_libclang loaded;
static const al_libclang *usable;
static char error[1024];
static char found_path[PATH_MAX];
static const char *found_origin = "";
static pthread_once_t once = PTHREAD_ONCE_INIT;

/* Opens one candidate and takes every entry point from it. On failure
 * writes why into why (the first failure is the one reported when nothing
 * loads) and returns false. */
static bool try_open(const char *path, const char *origin, char *why, size_t why_size)
{
    void *lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        if (!*why) {
            const char *e = dlerror();
            snprintf(why, why_size, "%s", e ? e : path);
        }
        return false;
    }
    al_libclang got;
    /* ISO C has no cast from void * to a function pointer; POSIX
     * guarantees dlsym's result can be used as one. */
#define AL_LIBCLANG_LOAD(name)                                                                 \
    *(void **)(&got.name) = dlsym(lib, "clang_" #name);                                        \
    if (!got.name) {                                                                           \
        snprintf(why, why_size, "%s has no clang_%s (not a libclang, or too old)", path, #name); \
        dlclose(lib);                                                                          \
        return false;                                                                          \
    }
    AL_LIBCLANG_FUNCTIONS(AL_LIBCLANG_LOAD)
#undef AL_LIBCLANG_LOAD
    /* Never unloaded: LLVM's finalisers belong to process exit. */
    loaded = got;
    snprintf(found_path, sizeof found_path, "%s", path);
    found_origin = origin;
    return true;
}

/* The libclang of PyPI's `libclang` package installed beside this binary:
 * pip puts a package's scripts in PREFIX/bin and its modules in
 * PREFIX/lib/pythonX.Y/site-packages (a virtual environment, --user, a
 * system prefix), so alloclint, installed from its wheel, finds the one
 * `pip install libclang` put in the same environment. */
static bool try_python_package(char *why, size_t why_size)
{
    char *bin = al_path_self_dir();
    if (!bin)
        return false;
    static const char *const tails[] = {
        "lib/python3*/site-packages/clang/native/libclang*.so*",
        "lib/python3*/dist-packages/clang/native/libclang*.so*",
    };
    bool ok = false;
    for (size_t t = 0; t < sizeof tails / sizeof *tails && !ok; t++) {
        char pattern[PATH_MAX + 128];
        snprintf(pattern, sizeof pattern, "%s/../%s", bin, tails[t]);
        glob_t g;
        if (glob(pattern, 0, NULL, &g) != 0)
            continue;
        for (size_t i = g.gl_pathc; i-- > 0 && !ok;) /* the newest Python's first */
            ok = try_open(g.gl_pathv[i], "the libclang Python package", why, why_size);
        globfree(&g);
    }
    free(bin);
    return ok;
}

static bool try_system(char *why, size_t why_size)
{
#ifdef ALLOCLINT_LIBCLANG_PATH
    /* A development build: the file CMake found. */
    if (try_open(ALLOCLINT_LIBCLANG_PATH, "found when alloclint was built", why, why_size))
        return true;
#endif
    /* By soname on the library path: the unversioned development link,
     * Debian's and Ubuntu's libclang-NN.so.1, Fedora's and Arch's
     * libclang.so.NN; the newest LLVM first (the C API is stable). */
    if (try_open("libclang.so", "the system", why, why_size) ||
        try_open("libclang.so.1", "the system", why, why_size))
        return true;
    for (int v = 21; v >= 7; v--) {
        char name[32];
        snprintf(name, sizeof name, "libclang-%d.so.1", v);
        if (try_open(name, "the system", why, why_size))
            return true;
        snprintf(name, sizeof name, "libclang.so.%d", v);
        if (try_open(name, "the system", why, why_size))
            return true;
    }
    return false;
}

static void load(void)
{
    char why[600] = "";
    const char *chosen = getenv("ALLOCLINT_LIBCLANG");
    if (chosen && *chosen) {
        /* Named by the user: that one or none, never a silent substitute. */
        if (try_open(chosen, "ALLOCLINT_LIBCLANG", why, sizeof why))
            usable = &loaded;
        else
            snprintf(error, sizeof error, "libclang could not be loaded: %s (ALLOCLINT_LIBCLANG)", why);
        return;
    }
    if (try_python_package(why, sizeof why) || try_system(why, sizeof why)) {
        usable = &loaded;
        return;
    }
    /* The first reason is a dlerror of the first name tried, which says
     * nothing when no libclang is installed at all; name what to do. */
    if (strstr(why, "has no clang_"))
        snprintf(error, sizeof error,
                 "no usable libclang (%s); install one (`pip install libclang` where alloclint is "
                 "installed, or the system's libclang package) or set ALLOCLINT_LIBCLANG",
                 why);
    else
        snprintf(error, sizeof error,
                 "libclang was not found (looked for the libclang Python package beside alloclint "
                 "and libclang.so, libclang-NN.so.1 on the library path); install it with "
                 "`pip install libclang` where alloclint is installed, or the system's package "
                 "(Debian, Ubuntu: libclang1-14), or set ALLOCLINT_LIBCLANG");
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

const char *al_libclang_path(const char **origin)
{
    pthread_once(&once, load);
    if (origin)
        *origin = found_origin;
    return usable ? found_path : NULL;
}

#endif
