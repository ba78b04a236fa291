/* Wording the rules share. */
#include "rules.h"

#include <stdarg.h>
#include <string.h>

void al_rule_decline(const al_rule_input *in, const char *code, const char *name, size_t start,
                     size_t end, const char *fmt, ...)
{
    if (!in->declined)
        return;
    al_strbuf sb = {0};
    va_list ap;
    va_start(ap, fmt);
    al_strbuf_vprintf(&sb, fmt, ap);
    va_end(ap);
    al_findings_add(in->declined, code, name, start, end, al_strbuf_detach(&sb), NULL);
}

static bool same_file(const char *a, const char *b)
{
    while (!strncmp(b, "./", 2))
        b += 2;
    size_t la = strlen(a), lb = strlen(b);
    if (la == lb)
        return !strcmp(a, b);
    return la > lb && !strcmp(a + la - lb, b) && a[la - lb - 1] == '/';
}

void al_rule_store_clause(const al_chain *chain, const char *checked, al_strbuf *sb)
{
    const al_link *s = al_chain_store(chain);
    if (!s)
        return;
    if (!s->path || same_file(s->path, checked)) {
        al_strbuf_printf(sb, " (the store on line %zu)", s->row);
        return;
    }
    const char *base = strrchr(s->path, '/');
    al_strbuf_printf(sb, " (the store on line %zu of `%s`)", s->row, base ? base + 1 : s->path);
}
