#include "imports.h"

#include "../../base/util.h"

#include <stdlib.h>
#include <string.h>

static void add(al_imports *im, const char *local, size_t local_len,
                const char *target)
{
    al_import entry = {al_xstrndup(local, local_len), al_xstrdup(target)};
    AL_PUSH(im->items, im->n, im->cap, entry);
}

static void import_statement(al_imports *im, const al_pyfile *pf, TSNode stmt)
{
    uint32_t k = ts_node_named_child_count(stmt);
    for (uint32_t i = 0; i < k; i++) {
        TSNode c = ts_node_named_child(stmt, i);
        if (al_node_is(c, "dotted_name")) {
            /* `import a.b` binds `a` to `a`. */
            TSNode first = ts_node_named_child(c, 0);
            char *base = al_node_text(pf, first);
            add(im, base, strlen(base), base);
            free(base);
        } else if (al_node_is(c, "aliased_import")) {
            char *name = al_node_text(pf, al_node_field(c, "name"));
            char *alias = al_node_text(pf, al_node_field(c, "alias"));
            add(im, alias, strlen(alias), name);
            free(name);
            free(alias);
        }
    }
}

static void import_from(al_imports *im, const al_pyfile *pf, TSNode stmt)
{
    TSNode module = al_node_field(stmt, "module_name");
    if (!al_node_is(module, "dotted_name") && !al_node_is(module, "relative_import"))
        return;
    /* `from ..pkg import x` binds x to "..pkg.x"; `from . import x` to ".x". */
    char *mod = al_node_text_compact(pf, module);
    bool dots_only = mod[strspn(mod, ".")] == '\0';
    uint32_t k = ts_node_named_child_count(stmt);
    for (uint32_t i = 0; i < k; i++) {
        TSNode c = ts_node_named_child(stmt, i);
        if (ts_node_eq(c, module))
            continue;
        TSNode name_node = c, alias_node = c;
        if (al_node_is(c, "aliased_import")) {
            name_node = al_node_field(c, "name");
            alias_node = al_node_field(c, "alias");
        } else if (!al_node_is(c, "dotted_name")) {
            continue;
        }
        char *name = al_node_text(pf, name_node);
        char *alias = al_node_text(pf, alias_node);
        al_strbuf target = {0};
        al_strbuf_printf(&target, dots_only ? "%s%s" : "%s.%s", mod, name);
        add(im, alias, strlen(alias), target.data);
        al_strbuf_free(&target);
        free(name);
        free(alias);
    }
    free(mod);
}

void al_imports_add_statement(al_imports *im, const al_pyfile *pf, TSNode stmt)
{
    if (al_node_is(stmt, "import_statement"))
        import_statement(im, pf, stmt);
    else if (al_node_is(stmt, "import_from_statement"))
        import_from(im, pf, stmt);
}

static const char *lookup(const al_imports *im, const char *local, size_t len)
{
    for (size_t i = 0; i < im->n; i++)
        if (strlen(im->items[i].local) == len &&
            memcmp(im->items[i].local, local, len) == 0)
            return im->items[i].target;
    return NULL;
}

char *al_imports_resolve(const al_imports *im, const al_pyfile *pf, TSNode expr)
{
    /* Walk down the attribute chain to its base identifier. */
    TSNode base = expr;
    int depth = 0;
    while (al_node_is(base, "attribute") && depth++ < 64) {
        TSNode attr = al_node_field(base, "attribute");
        if (!al_node_is(attr, "identifier"))
            return NULL;
        base = al_node_field(base, "object");
    }
    if (!al_node_is(base, "identifier"))
        return NULL;
    size_t blen;
    const char *bptr = al_node_ptr(pf, base, &blen);
    const char *target = lookup(im, bptr, blen);
    if (!target)
        return NULL;
    size_t elen;
    const char *eptr = al_node_ptr(pf, expr, &elen);
    al_strbuf out = {0};
    al_strbuf_puts(&out, target);
    /* The rest of the chain, without whitespace or line breaks. */
    for (size_t i = blen; i < elen; i++) {
        char c = eptr[i];
        if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\\')
            continue;
        al_strbuf_putc(&out, c);
    }
    return al_strbuf_detach(&out);
}

const char *al_imports_alias_for(const al_imports *im, const char *module)
{
    for (size_t i = 0; i < im->n; i++)
        if (strcmp(im->items[i].target, module) == 0)
            return im->items[i].local;
    return NULL;
}

void al_imports_free(al_imports *im)
{
    for (size_t i = 0; i < im->n; i++) {
        free(im->items[i].local);
        free(im->items[i].target);
    }
    free(im->items);
    memset(im, 0, sizeof *im);
}
