#include "rules.h"

#include <ctype.h>
#include <string.h>

static bool ident_char(char c)
{
    return isalnum((unsigned char)c) || c == '_';
}

/* Whether text holds name as a whole identifier. */
static bool writes_name(const char *text, const char *name)
{
    size_t n = strlen(name);
    for (const char *p = strstr(text, name); p; p = strstr(p + 1, name))
        if ((p == text || !ident_char(p[-1])) && !ident_char(p[n]))
            return true;
    return false;
}

bool al_rule_name_taken(const al_findings *found, const char *code, size_t from, size_t to,
                        const char *name, al_applicability tier)
{
    for (size_t i = 0; i < found->n; i++) {
        const al_fix *fix = found->items[i].fix;
        if (strcmp(found->items[i].code, code) || !fix || !fix->n_edits ||
            fix->applicability > tier || fix->edits[0].start < from || fix->edits[0].start >= to)
            continue;
        for (size_t e = 0; e < fix->n_edits; e++)
            if (writes_name(fix->edits[e].content, name))
                return true;
    }
    return false;
}
