#include "schema.h"

#include "../util.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

/* Appends one identifier at *pp to ns, spelling TORCH_EXTENSION_NAME as
 * the `_C` that torch.utils.cpp_extension builds use. */
static void namespace_part(al_strbuf *ns, const char **pp, const char *end)
{
    const char *p = *pp, *q = p;
    while (q < end && (isalnum((unsigned char)*q) || *q == '_'))
        q++;
    if (q - p == 20 && !strncmp(p, "TORCH_EXTENSION_NAME", 20))
        al_strbuf_puts(ns, "_C");
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
                /* Tensor! out, Tensor(a!) out, Tensor(a!)? out */
                const char *bang = strchr(a, '!');
                if (bang && strstr(a, "Tensor")) {
                    al_op_summary op = {al_xstrdup(name.data), NULL, index, false,
                                        al_xstrdup(origin)};
                    AL_PUSH(out->items, out->n, out->cap, op);
                }
                index++;
            }
            free(a);
            if (*p == ')')
                break;
            arg = p + 1;
        }
    }
    al_strbuf_free(&name);
}

size_t al_schema_scan(const char *text, size_t len, const char *origin, al_op_table *out)
{
    size_t count = 0;
    const char *end = text + len;
    const char *p = text;
    while ((p = memmem(p, (size_t)(end - p), "TORCH_LIBRARY", 13)) != NULL) {
        const char *q = p + 13;
        if (end - q >= 8 && !strncmp(q, "_EXPAND(", 8))
            q += 8;
        else if (q < end && *q == '(')
            q++;
        else {
            p = q; /* TORCH_LIBRARY_IMPL and friends register no schemas */
            continue;
        }
        char *ns = namespace_of(q, end);
        /* The block: from the first `{` to its matching `}`. */
        const char *b = memchr(q, '{', (size_t)(end - q));
        if (!b) {
            free(ns);
            break;
        }
        int depth = 0;
        const char *e = b;
        for (; e < end; e++) {
            if (*e == '{')
                depth++;
            else if (*e == '}' && --depth == 0)
                break;
        }
        for (const char *d = b; d < e;) {
            const char *def = memmem(d, (size_t)(e - d), ".def(", 5);
            if (!def)
                break;
            const char *s = def + 5;
            char *schema = def_string(&s, e);
            if (schema) {
                parse_schema(schema, ns, origin, out);
                count++;
                free(schema);
            }
            d = s > def ? s : def + 5;
        }
        free(ns);
        p = e;
    }
    return count;
}
