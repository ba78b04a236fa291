/* The C++ side of the repo index: the definitions of the project's C++
 * functions by name, the ops its TORCH_LIBRARY blocks register and the
 * functions bound to them, and the names its macros mention. */
#include "index.h"
#include "index_internal.h"
#include "impls.h"
#include "schema.h"
#include "../../base/paths.h"
#include "../../base/util.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

static void read_pybind(const al_source *src, al_impls *out);

/* One pass over the project's C++ files for what they register: the ops
 * of TORCH_LIBRARY blocks (schemas, bound functions) and the functions
 * pybind11 modules bind. */
static void read_cxx_ops(al_index *ix, project *p)
{
    if (p->cxx_ops_read)
        return;
    p->cxx_ops_read = true;
    al_index_walk_project(ix, p);
    for (size_t i = 0; i < p->cxx_files.n; i++) {
        al_source src;
        if (al_index_load(ix, &src, p->cxx_files.items[i]) == AL_SOURCE_OK &&
            memmem(src.bytes, src.len, "TORCH_LIBRARY", 13)) {
            al_schema_scan(src.bytes, src.len, src.path, &p->schemas);
            al_op_bindings b = {0};
            al_schema_bindings(src.bytes, src.len, &b);
            for (size_t k = 0; k < b.n; k++) {
                al_impl ob = {al_op_key(b.items[k].op), al_xstrdup(src.path),
                                 al_xstrdup(b.items[k].function)};
                AL_PUSH(p->cxx_ops.items, p->cxx_ops.n, p->cxx_ops.cap, ob);
            }
            al_op_bindings_free(&b);
        }
        if (memmem(src.bytes, src.len, "PYBIND11_MODULE", 15))
            read_pybind(&src, &p->pybind);
        al_source_free(&src);
    }
}

/* The identifiers of a file's #define lines (with their continuation
 * lines): a macro that names a local uses it where the code calling the
 * macro does not show it. */
static void add_macro_words(project *p, const char *bytes, size_t len)
{
    static char present;
    const char *b = bytes, *end = bytes + len;
    while ((b = memmem(b, (size_t)(end - b), "define", 6)) != NULL) {
        const char *h = b;
        while (h > bytes && (h[-1] == ' ' || h[-1] == '\t'))
            h--;
        bool directive = h > bytes && h[-1] == '#';
        const char *q = b + 6;
        while (directive && q < end && *q != '\n') {
            if (*q == '\\' && q + 1 < end && q[1] == '\n') {
                q += 2;
                continue;
            }
            if (isalpha((unsigned char)*q) || *q == '_') {
                const char *w = q;
                while (q < end && (isalnum((unsigned char)*q) || *q == '_'))
                    q++;
                char *word = al_xstrndup(w, (size_t)(q - w));
                if (!al_memo_get(&p->macro_words, word))
                    al_memo_put(&p->macro_words, word, &present, NULL);
                free(word);
                continue;
            }
            q++;
        }
        b = q;
    }
}

static void read_definitions(al_index *ix, project *p);

bool al_index_macro_names(al_index *ix, const char *from_path, const char *name)
{
    al_index_lock(ix);
    project *p = al_index_project_of(ix, from_path);
    if (p)
        read_definitions(ix, p);
    bool named = !p || al_memo_get(&p->macro_words, name) != NULL;
    al_index_unlock(ix);
    return named;
}

/* Whether a function is a template: `template <...>` opens its tokens or
 * stands just before them. */
static bool is_template(const al_cxx_unit *u, const al_cxx_function *fn)
{
    if (al_cxx_is(u, fn->first, "template"))
        return true;
    size_t t = fn->first;
    if (t == 0 || !al_cxx_is(u, t - 1, ">"))
        return false;
    int depth = 0;
    for (t = t - 1; t > 0; t--) {
        if (al_cxx_is(u, t, ">"))
            depth++;
        else if (al_cxx_is(u, t, "<") && --depth == 0)
            return al_cxx_is(u, t - 1, "template");
        else if (al_cxx_is(u, t, ";") || al_cxx_is(u, t, "{") || al_cxx_is(u, t, "}"))
            return false;
    }
    return false;
}

/* A function of the unit named `name` whose extent holds a body; with
 * `plain`, not a template (`&fn` in a registration cannot name one). */
static bool function_in(const al_cxx_unit *u, const char *name, bool plain, size_t *out)
{
    for (size_t i = 0; i < u->n_functions; i++) {
        const al_cxx_function *fn = &u->functions[i];
        if (strcmp(fn->name, name) != 0 || (plain && is_template(u, fn)))
            continue;
        for (size_t t = fn->first; t < fn->last; t++)
            if (al_cxx_is(u, t, "{")) {
                *out = i;
                return true;
            }
    }
    return false;
}

/* Skips blanks, comments and C++ qualifiers after a parameter list. */
static const char *after_signature(const char *p, const char *end)
{
    static const char *const words[] = {"const", "noexcept", "override", "final", "mutable", NULL};
    for (;;) {
        while (p < end && (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r'))
            p++;
        if (end - p >= 2 && p[0] == '/' && p[1] == '/') {
            while (p < end && *p != '\n')
                p++;
            continue;
        }
        if (end - p >= 2 && p[0] == '/' && p[1] == '*') {
            const char *c = memmem(p + 2, (size_t)(end - p - 2), "*/", 2);
            p = c ? c + 2 : end;
            continue;
        }
        bool word = false;
        for (int i = 0; words[i]; i++) {
            size_t wl = strlen(words[i]);
            if ((size_t)(end - p) > wl && !strncmp(p, words[i], wl) && !isalnum((unsigned char)p[wl]) &&
                p[wl] != '_') {
                p += wl;
                word = true;
            }
        }
        if (!word)
            return p;
    }
}

static int compare_defs(const void *x, const void *y)
{
    const cxx_definition *a = x, *b = y;
    int c = strcmp(a->name, b->name);
    return c ? c : (a->file < b->file ? -1 : a->file > b->file);
}

/* One textual pass over every C++ file: `name(...) {` defines name (it
 * over-collects: a constructor call followed by a block; the parse of the
 * file decides), and the words of its macros. */
static void read_definitions(al_index *ix, project *p)
{
    if (p->defs_read)
        return;
    p->defs_read = true;
    al_index_walk_project(ix, p);
    static const char *const keywords[] = {"if", "for", "while", "switch", "catch", "sizeof",
                                           "return", "do", "else", "decltype", "alignas",
                                           "__launch_bounds__", "__attribute__", NULL};
    for (size_t f = 0; f < p->cxx_files.n; f++) {
        al_source src;
        if (al_index_load(ix, &src, p->cxx_files.items[f]) != AL_SOURCE_OK) {
            al_source_free(&src);
            continue;
        }
        add_macro_words(p, src.bytes, src.len);
        const char *b = src.bytes, *end = src.bytes + src.len;
        for (const char *q = b; q < end; q++) {
            if (*q != '(' || q == b)
                continue;
            /* `Tensor gptq_gemm\n(\n...`: the name may end a line. */
            const char *e = q;
            while (e > b && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\n' || e[-1] == '\r'))
                e--;
            const char *s0 = e;
            while (s0 > b && (isalnum((unsigned char)s0[-1]) || s0[-1] == '_'))
                s0--;
            if (s0 == e || isdigit((unsigned char)*s0) || al_str_in_list(keywords, s0, (size_t)(e - s0)))
                continue;
            int depth = 0;
            const char *c = q;
            for (; c < end; c++) {
                if (*c == '(')
                    depth++;
                else if (*c == ')' && --depth == 0)
                    break;
            }
            if (c >= end)
                break;
            const char *after = after_signature(c + 1, end);
            if (after < end && *after == '{') {
                cxx_definition d = {al_xstrndup(s0, (size_t)(e - s0)), f};
                AL_PUSH(p->defs, p->n_defs, p->cap_defs, d);
            }
        }
        al_source_free(&src);
    }
    if (p->n_defs > 1)
        qsort(p->defs, p->n_defs, sizeof *p->defs, compare_defs);
}

/* How many leading path components a and b share. */
static size_t shared_dirs(const char *a, const char *b)
{
    size_t n = 0;
    for (size_t i = 0; a[i] && a[i] == b[i]; i++)
        if (a[i] == '/')
            n++;
    return n;
}

/* The definition of C++ function `name` in the project: in the file
 * `prefer` if it has one, else the one nearest to it in the tree (the
 * most folders in common), sources before headers. Two different files
 * equally near: ambiguous, none is chosen (a CPU and a CUDA version of an
 * op, or per-architecture copies, must not be mixed up). */
static bool find_cxx_function(al_index *ix, project *p, const char *prefer, const char *name,
                              bool plain, al_cxx_def *out)
{
    read_definitions(ix, p);
    size_t lo = 0, hi = p->n_defs;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (strcmp(p->defs[mid].name, name) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    long best_rank = -1;
    bool tie = false;
    al_cxx_def best = {0};
    for (size_t i = lo; i < p->n_defs && !strcmp(p->defs[i].name, name); i++) {
        const char *path = p->cxx_files.items[p->defs[i].file];
        bool header = al_str_ends_with(path, ".h") || al_str_ends_with(path, ".hpp") ||
                      al_str_ends_with(path, ".cuh");
        long rank = prefer && !strcmp(path, prefer)
                        ? 1000000
                        : (long)(prefer ? shared_dirs(path, prefer) : 0) * 2 + (header ? 0 : 1);
        if (rank < best_rank)
            continue;
        cxxfile *f = al_index_load_cxx(ix, path);
        size_t fi;
        if (!f || !function_in(&f->unit, name, plain, &fi))
            continue;
        if (rank == best_rank && strcmp(best.path, f->path)) {
            tie = true;
            continue;
        }
        if (rank > best_rank)
            tie = false;
        best_rank = rank;
        best = (al_cxx_def){f->path, &f->unit, fi};
    }
    if (best_rank < 0 || tie)
        return false;
    *out = best;
    return true;
}

bool al_index_cxx_op(al_index *ix, const char *from_path, const char *op, al_cxx_def *out)
{
    bool ok = false;
    al_index_lock(ix);
    project *p = from_path ? al_index_project_of(ix, from_path) : NULL;
    if (p) {
        read_cxx_ops(ix, p);
        /* Builds for several platforms each register the op (SGLang's
         * CUDA and ROCm extensions): one function only if every
         * registration finds the same definition. */
        char *key = al_op_key(op);
        size_t found = 0;
        ok = true;
        for (size_t i = 0; ok && i < p->cxx_ops.n; i++) {
            const al_impl *b = &p->cxx_ops.items[i];
            al_cxx_def d;
            if (!al_op_key_matches(b->op, key))
                continue;
            ok = find_cxx_function(ix, p, b->path, b->func, true, &d) &&
                 (!found || (!strcmp(d.path, out->path) && d.function == out->function));
            if (ok)
                *out = d;
            found++;
        }
        ok = ok && found;
        free(key);
    }
    al_index_unlock(ix);
    return ok;
}

bool al_index_cxx_function(al_index *ix, const char *from_path, const char *name,
                           al_cxx_def *out)
{
    bool ok = false;
    al_index_lock(ix);
    project *p = from_path ? al_index_project_of(ix, from_path) : NULL;
    char *real = from_path ? al_path_real(from_path) : NULL;
    if (p)
        ok = find_cxx_function(ix, p, real, name, false, out);
    free(real);
    al_index_unlock(ix);
    return ok;
}

const al_op_table *al_index_schemas(al_index *ix, const char *from_path)
{
    al_index_lock(ix);
    project *p = from_path ? al_index_project_of(ix, from_path) : NULL;
    if (p)
        read_cxx_ops(ix, p);
    al_index_unlock(ix);
    return p ? &p->schemas : NULL;
}

/* The functions a pybind11 module binds in src: `.def("name", &fn`
 * (`&ns::fn` too), as op "name", func fn. */
static void read_pybind(const al_source *src, al_impls *out)
{
    const char *b = src->bytes, *end = src->bytes + src->len;
    while ((b = memmem(b, (size_t)(end - b), ".def(", 5)) != NULL) {
        const char *q = b + 5;
        b += 5;
        while (q < end && isspace((unsigned char)*q))
            q++;
        if (q >= end || *q != '"')
            continue;
        const char *name = ++q;
        while (q < end && *q != '"' && *q != '\\' && *q != '\n')
            q++;
        if (q >= end || *q != '"' || q == name)
            continue;
        size_t nlen = (size_t)(q - name);
        for (q++; q < end && isspace((unsigned char)*q); q++)
            ;
        if (q >= end || *q != ',')
            continue;
        for (q++; q < end && isspace((unsigned char)*q); q++)
            ;
        if (q >= end || *q != '&')
            continue;
        const char *fn = ++q;
        while (q < end && (isalnum((unsigned char)*q) || *q == '_' || *q == ':'))
            q++;
        /* The last name of `ns::fn`. */
        const char *last = fn;
        for (const char *c = fn; c < q; c++)
            if (*c == ':')
                last = c + 1;
        if (last == q)
            continue;
        al_impl ob = {al_xstrndup(name, nlen), al_xstrdup(src->path),
                      al_xstrndup(last, (size_t)(q - last))};
        AL_PUSH(out->items, out->n, out->cap, ob);
    }
}

bool al_index_pybind_function(al_index *ix, const char *from_path, const char *module,
                              const char *name, al_cxx_def *out, const char **bound_in)
{
    bool ok = false;
    al_index_lock(ix);
    project *p = from_path ? al_index_project_of(ix, from_path) : NULL;
    /* A module of the project's own packages (its first name one of
     * them) that no Python file holds: compiled. */
    char first[200];
    size_t k = strcspn(module, ".");
    if (p && k < sizeof first && module[k] == '.') {
        memcpy(first, module, k);
        first[k] = '\0';
        ok = al_index_module_in_project(ix, from_path, first) &&
             !al_index_module_in_project(ix, from_path, module);
    }
    if (ok) {
        read_cxx_ops(ix, p);
        /* One binding of that name, or every one binding the same
         * definition. */
        size_t found = 0;
        for (size_t i = 0; ok && i < p->pybind.n; i++) {
            const al_impl *b = &p->pybind.items[i];
            al_cxx_def d;
            if (strcmp(b->op, name))
                continue;
            ok = find_cxx_function(ix, p, b->path, b->func, true, &d) &&
                 (!found || (!strcmp(d.path, out->path) && d.function == out->function));
            if (ok) {
                *out = d;
                *bound_in = b->path;
            }
            found++;
        }
        ok = ok && found;
    }
    al_index_unlock(ix);
    return ok;
}
