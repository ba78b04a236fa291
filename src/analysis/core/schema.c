#include "schema.h"

#include "../../base/util.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

/* Appends one identifier at *pp to ns. TORCH_EXTENSION_NAME is whatever
 * the build names the extension (`_C` for torch.utils.cpp_extension,
 * `_moe_C` for one of vLLM's CMake targets): `*`, any namespace. */
static void namespace_part(al_strbuf *ns, const char **pp, const char *end)
{
    const char *p = *pp, *q = p;
    while (q < end && (isalnum((unsigned char)*q) || *q == '_'))
        q++;
    if (q - p == 20 && !strncmp(p, "TORCH_EXTENSION_NAME", 20))
        al_strbuf_puts(ns, "*");
    else
        al_strbuf_append(ns, p, (size_t)(q - p));
    *pp = q;
}

/* The namespace of TORCH_LIBRARY(ns, m) / TORCH_LIBRARY_EXPAND(ns, m) /
 * CONCAT(TORCH_EXTENSION_NAME, _suffix). */
static char *namespace_of(const char *p, const char *end)
{
    while (p < end && isspace((unsigned char)*p))
        p++;
    al_strbuf ns = {0};
    if (end - p > 7 && !strncmp(p, "CONCAT(", 7)) {
        p += 7;
        for (int part = 0; part < 2 && p < end; part++) {
            while (p < end && (isspace((unsigned char)*p) || *p == ','))
                p++;
            namespace_part(&ns, &p, end);
        }
        if (ns.data && ns.data[0] == '*') { /* CONCAT(TORCH_EXTENSION_NAME, _x): unknown too */
            al_strbuf_free(&ns);
            return al_xstrdup("*");
        }
        return al_strbuf_detach(&ns);
    }
    namespace_part(&ns, &p, end);
    return al_strbuf_detach(&ns);
}

/* The string literals right after `.def(`, concatenated; NULL if none. */
static char *def_string(const char **pp, const char *end)
{
    const char *p = *pp;
    al_strbuf s = {0};
    bool any = false;
    for (;;) {
        while (p < end && isspace((unsigned char)*p))
            p++;
        if (p >= end || *p != '"')
            break;
        p++;
        while (p < end && *p != '"') {
            if (*p == '\\' && p + 1 < end)
                p++;
            al_strbuf_putc(&s, *p++);
        }
        if (p < end)
            p++;
        any = true;
    }
    *pp = p;
    if (!any) {
        al_strbuf_free(&s);
        return NULL;
    }
    return al_strbuf_detach(&s);
}

/* After the argument list: `-> Tensor`, `-> Tensor[]` or `-> (Tensor,
 * Tensor)` with no alias annotation is a new tensor; `-> Tensor(a)` is
 * (a view of) an argument. */
static void read_result(const char *after, const char *name, const char *origin,
                        al_op_table *out)
{
    const char *arrow = strstr(after, "->");
    if (!arrow)
        return;
    const char *r = arrow + 2;
    while (isspace((unsigned char)*r))
        r++;
    if (!strstr(r, "Tensor"))
        return;
    for (const char *t = strstr(r, "Tensor"); t; t = strstr(t + 6, "Tensor"))
        if (t[6] == '(') { /* Tensor(a): an alias of an argument */
            al_ops_add_result(out, name, AL_RETURNS_ALIAS, false, origin);
            return;
        }
    al_ops_add_result(out, name, AL_RETURNS_NEW, false, origin);
}

/* "name.overload(Tensor! out, Tensor x, *, int k) -> ()" */
static void parse_schema(const char *schema, const char *ns, const char *origin, al_op_table *out)
{
    const char *open = strchr(schema, '(');
    if (!open)
        return;
    size_t nl = (size_t)(open - schema);
    const char *dot = memchr(schema, '.', nl);
    if (dot)
        nl = (size_t)(dot - schema);
    while (nl && isspace((unsigned char)schema[nl - 1]))
        nl--;
    const char *start = schema;
    while (isspace((unsigned char)*start))
        start++, nl--;
    al_strbuf name = {0};
    al_strbuf_printf(&name, "torch.ops.%s.%.*s", ns, (int)nl, start);
    int depth = 0, index = 0;
    const char *arg = open + 1;
    for (const char *p = open + 1; *p; p++) {
        if (*p == '(' || *p == '[')
            depth++;
        else if ((*p == ')' || *p == ']') && depth > 0)
            depth--;
        else if ((*p == ',' || *p == ')') && depth == 0) {
            size_t len = (size_t)(p - arg);
            char *a = al_xstrndup(arg, len);
            bool keyword_only = strchr(a, '*') && !strchr(a, '!') && strlen(a) <= 3;
            if (!keyword_only) {
                /* Tensor! out, Tensor(a!) out, Tensor(a!)? out: the op may
                 * change it, which says nothing of reading it first (a GEMM's
                 * `Tensor!` scales are read). */
                const char *bang = strchr(a, '!');
                if (bang && strstr(a, "Tensor")) {
                    al_op_summary op = {.name = al_xstrdup(name.data),
                                        .out_position = index,
                                        .origin = al_xstrdup(origin),
                                        .writes = AL_OP_MUTATES,
                                        .out_element = -1};
                    AL_PUSH(out->items, out->n, out->cap, op);
                }
                index++;
            }
            free(a);
            if (*p == ')') {
                read_result(p + 1, name.data, origin, out);
                break;
            }
            arg = p + 1;
        }
    }
    al_strbuf_free(&name);
}

/* A TORCH_LIBRARY* block: its namespace and its bytes [b, e). */
typedef struct {
    char *ns;
    const char *b, *e;
    bool impl_only; /* TORCH_LIBRARY_IMPL: bindings, no schemas */
} library_block;

/* The next block at or after *pp; false when there is none. */
static bool next_block(const char **pp, const char *end, library_block *out)
{
    const char *p = *pp;
    while ((p = memmem(p, (size_t)(end - p), "TORCH_LIBRARY", 13)) != NULL) {
        const char *q = p + 13;
        bool impl = false;
        if (end - q >= 8 && !strncmp(q, "_EXPAND(", 8))
            q += 8;
        else if (end - q >= 10 && !strncmp(q, "_FRAGMENT(", 10))
            q += 10;
        else if (end - q >= 6 && !strncmp(q, "_IMPL(", 6))
            q += 6, impl = true;
        else if (q < end && *q == '(')
            q++;
        else {
            p = q;
            continue;
        }
        /* The block: from the first `{` to its matching `}`. */
        const char *b = memchr(q, '{', (size_t)(end - q));
        if (!b)
            return false;
        int depth = 0;
        const char *e = b;
        for (; e < end; e++) {
            if (*e == '{')
                depth++;
            else if (*e == '}' && --depth == 0)
                break;
        }
        out->ns = namespace_of(q, end);
        out->b = b;
        out->e = e;
        out->impl_only = impl;
        *pp = e;
        return true;
    }
    return false;
}

size_t al_schema_scan(const char *text, size_t len, const char *origin, al_op_table *out)
{
    size_t count = 0;
    const char *end = text + len;
    const char *p = text;
    library_block blk;
    while (next_block(&p, end, &blk)) {
        for (const char *d = blk.b; !blk.impl_only && d < blk.e;) {
            const char *def = memmem(d, (size_t)(blk.e - d), ".def(", 5);
            if (!def)
                break;
            const char *s = def + 5;
            char *schema = def_string(&s, blk.e);
            if (schema && strchr(schema, '(')) {
                parse_schema(schema, blk.ns, origin, out);
                count++;
            }
            free(schema);
            d = s > def ? s : def + 5;
        }
        free(blk.ns);
    }
    return count;
}

/* The function an impl/def call names after its op string: `&fn`,
 * `&ns::fn`, `TORCH_FN(fn)`, or a bare name, before the call's `)`. */
static char *bound_function(const char *p, const char *end)
{
    int depth = 0;
    const char *last = NULL, *last_end = NULL;
    for (const char *q = p; q < end; q++) {
        if (*q == '[' || *q == '{')
            return NULL; /* a lambda: no named function */
        if (*q == '(' || *q == '<')
            depth++;
        else if (*q == ')' || *q == '>') {
            if (depth-- == 0)
                break;
        } else if (*q == '"') {
            return NULL; /* a second string: a schema or a name, no function */
        } else if (isalpha((unsigned char)*q) || *q == '_') {
            const char *s = q;
            while (q < end && (isalnum((unsigned char)*q) || *q == '_'))
                q++;
            last = s;
            last_end = q;
            q--;
        }
    }
    if (!last)
        return NULL;
    size_t n = (size_t)(last_end - last);
    static const char *const not_functions[] = {"torch", "kCUDA", "kCPU", "kMeta", "c10",
                                                "DispatchKey", "CUDA", "CPU", "TORCH_FN",
                                                "CompositeExplicitAutograd", NULL};
    if (al_str_in_list(not_functions, last, n))
        return NULL;
    return al_xstrndup(last, n);
}

void al_schema_bindings(const char *text, size_t len, al_op_bindings *out)
{
    const char *end = text + len;
    const char *p = text;
    library_block blk;
    while (next_block(&p, end, &blk)) {
        static const char *const calls[] = {".impl(", ".def(", NULL};
        for (int c = 0; calls[c]; c++) {
            size_t cl = strlen(calls[c]);
            for (const char *d = blk.b; d < blk.e;) {
                const char *at = memmem(d, (size_t)(blk.e - d), calls[c], cl);
                if (!at)
                    break;
                const char *s = at + cl;
                char *name = def_string(&s, blk.e);
                d = s > at ? s : at + cl;
                if (!name)
                    continue;
                char *fn = NULL;
                if (!strchr(name, '(') && s < blk.e && *s == ',')
                    fn = bound_function(s + 1, blk.e);
                if (fn) {
                    size_t nl = strcspn(name, ". \t");
                    al_strbuf op = {0};
                    al_strbuf_printf(&op, "torch.ops.%s.%.*s", blk.ns, (int)nl, name);
                    al_op_binding bnd = {al_strbuf_detach(&op), fn};
                    AL_PUSH(out->items, out->n, out->cap, bnd);
                }
                free(name);
            }
        }
        free(blk.ns);
    }
}

void al_op_bindings_free(al_op_bindings *b)
{
    for (size_t i = 0; i < b->n; i++) {
        free(b->items[i].op);
        free(b->items[i].function);
    }
    free(b->items);
    memset(b, 0, sizeof *b);
}
