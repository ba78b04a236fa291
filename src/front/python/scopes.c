/* Where Python binds a name, as far as a call's callee depends on it:
 * the def a module or class body holds (and whether the body binds the
 * name again), a nested function, a local bound once to what a call
 * returns, and a byte filter for bindings before any syntax walk. */
#include "scopes.h"
#include "syntax.h"

#include "../../base/util.h"

#include <stdlib.h>
#include <string.h>

static bool may_bind_except(const char *p, const char *end, const char *word, const char *skip,
                            bool imports, bool module);
static bool binds_parsed(const al_pyfile *pf, const char *p, const char *end, const char *word,
                         const char *skip, bool imports, bool module);
static int defs_named(const al_pyfile *pf, TSNode n, const char *name, TSNode *last, int depth);

typedef struct {
    const al_pyfile *pf;
    const char *name;
    bool found;   /* an import or `del` names it */
    int imports;  /* import statements naming it */
    bool deleted; /* a `del` names it */
    TSNode stmt;  /* the last import naming it */
} import_binds;

static al_visit visit_import(TSNode n, void *arg)
{
    import_binds *ib = arg;
    if (al_node_is(n, "function_definition") || al_node_is(n, "class_definition") ||
        al_node_is(n, "lambda"))
        return AL_VISIT_OVER;
    bool del = al_node_is(n, "delete_statement");
    if (al_node_is(n, "import_statement") || al_node_is(n, "import_from_statement") || del) {
        if (al_py_count_ident(ib->pf, n, ib->name) > 0) {
            ib->found = true;
            ib->deleted |= del;
            if (!del) {
                ib->imports++;
                ib->stmt = n;
            }
        }
        return AL_VISIT_OVER;
    }
    return AL_VISIT_INTO;
}

static bool word_char(char c);

/* Whether a statement of bp is `global ..., name, ...` (a function that
 * may bind the module's name). */
static bool declares_global(const char *bp, size_t blen, const char *name)
{
    size_t nl = strlen(name);
    for (const char *g = bp; (g = memmem(g, (size_t)(bp + blen - g), "global ", 7)) != NULL; g += 7) {
        const char *ls = g;
        while (ls > bp && (ls[-1] == ' ' || ls[-1] == '\t'))
            ls--;
        if (ls > bp && ls[-1] != '\n')
            continue; /* not a statement's first word */
        const char *eol = memchr(g, '\n', (size_t)(bp + blen - g));
        eol = eol ? eol : bp + blen;
        for (const char *w = g + 7; (w = memmem(w, (size_t)(eol - w), name, nl)) != NULL; w += nl)
            if (!word_char(w[-1]) && (w + nl >= eol || !word_char(w[nl])))
                return true;
    }
    return false;
}

/* Whether the statements of block (not its nested scopes) bind name: by
 * more than defs definitions, an assignment or other target, or, with
 * imports, an import or `del`. */
static bool statements_bind(const al_pyfile *pf, TSNode block, const char *name, int defs,
                            bool imports)
{
    TSNode last;
    if (defs_named(pf, block, name, &last, 0) > defs)
        return true;
    al_strlist bound = {0};
    al_py_bound_names(pf, block, &bound);
    bool other = al_strlist_has(&bound, name, strlen(name));
    al_strlist_free(&bound);
    import_binds ib = {pf, name, false, 0, false, {{0}, NULL, NULL}};
    if (!other && imports)
        al_node_preorder(block, visit_import, &ib);
    return other || ib.found;
}

/* Whether block binds name otherwise than by def (`fill =
 * wrap(fill)`, a second def, an import, `del`, a function declaring it
 * `global`): then what the name holds when called is not that def. The
 * bytes are looked at first; most names have one binding. */
static bool binds_elsewhere(const al_pyfile *pf, TSNode block, TSNode def, const char *name)
{
    size_t blen;
    const char *bp = al_node_ptr(pf, block, &blen);
    const char *skip = pf->src->bytes + ts_node_start_byte(al_node_field(def, "name"));
    /* A partial parse's root ends where its last part does: a module's
     * statements are looked for in all of its bytes. A class body is whole
     * unless the parse trimmed it (then the class is asked for whole). */
    bool root = ts_node_eq(block, pf->root);
    size_t from, to;
    bool trimmed = !root && al_pyfile_class_extent(pf, ts_node_parent(block), &from, &to);
    const char *end = root ? pf->src->bytes + pf->src->len
                      : trimmed ? pf->src->bytes + to
                                : bp + blen;
    if (root)
        bp = pf->src->bytes;
    blen = (size_t)(end - bp);
    if (!may_bind_except(bp, end, name, skip, true, root))
        return declares_global(bp, blen, name); /* a def's `global name` */
    /* A partial parse may lack the statement that binds it: the class,
     * or the whole file, answers (the check runs again on it; an index
     * view says no). */
    if (!binds_parsed(pf, bp, end, name, skip, true, root)) {
        if (trimmed && al_pyfile_class_trimmed(pf, ts_node_parent(block)))
            return true;
        if (!al_pyfile_holds_all(pf))
            return true;
    }
    /* `global name` in a function of the block: it may bind it there. */
    return statements_bind(pf, block, name, 1, true) || declares_global(bp, blen, name);
}

TSNode al_py_def_in_block(const al_pyfile *pf, TSNode block, const char *name)
{
    uint32_t k = ts_node_named_child_count(block);
    for (uint32_t i = 0; i < k; i++) {
        TSNode s = ts_node_named_child(block, i);
        if (al_node_is(s, "decorated_definition"))
            s = al_node_field(s, "definition");
        if (al_node_is(s, "function_definition") &&
            al_node_text_eq(pf, al_node_field(s, "name"), name))
            return binds_elsewhere(pf, block, s, name) ? (TSNode){0} : s;
    }
    return (TSNode){0};
}

static void switched_defs(const al_pyfile *pf, TSNode n, const char *name, int depth, int *count,
                          TSNode *found)
{
    if (depth > 4)
        return;
    uint32_t k = ts_node_named_child_count(n);
    for (uint32_t i = 0; i < k; i++) {
        TSNode c = ts_node_named_child(n, i);
        if (al_node_is(c, "block")) {
            TSNode d = al_py_def_in_block(pf, c, name);
            if (!ts_node_is_null(d)) {
                (*count)++;
                *found = d;
            }
            switched_defs(pf, c, name, depth + 1, count, found);
        } else if (al_node_is(c, "if_statement") || al_node_is(c, "elif_clause") ||
                   al_node_is(c, "else_clause") || al_node_is(c, "try_statement") ||
                   al_node_is(c, "except_clause") || al_node_is(c, "finally_clause") ||
                   al_node_is(c, "with_statement")) {
            switched_defs(pf, c, name, depth + 1, count, found);
        }
    }
}

TSNode al_py_switched_def(const al_pyfile *pf, const char *name)
{
    int count = 0;
    TSNode found = {0};
    for (uint32_t i = 0; i < ts_node_named_child_count(pf->root); i++) {
        TSNode s = ts_node_named_child(pf->root, i);
        if (al_node_is(s, "if_statement") || al_node_is(s, "try_statement") ||
            al_node_is(s, "with_statement"))
            switched_defs(pf, s, name, 0, &count, &found);
    }
    return count == 1 && !binds_elsewhere(pf, pf->root, found, name) ? found : (TSNode){0};
}

TSNode al_py_top_class(const al_pyfile *pf, const char *cls)
{
    for (uint32_t i = 0; i < ts_node_named_child_count(pf->root); i++) {
        TSNode s = ts_node_named_child(pf->root, i);
        if (al_node_is(s, "decorated_definition"))
            s = al_node_field(s, "definition");
        if (al_node_is(s, "class_definition") && al_node_text_eq(pf, al_node_field(s, "name"), cls))
            return s;
    }
    return (TSNode){0};
}

TSNode al_py_bound_class_method(const al_pyfile *pf, const char *cls, const char *name)
{
    TSNode s = al_py_top_class(pf, cls);
    TSNode def = ts_node_is_null(s) ? s : al_py_def_in_block(pf, al_node_field(s, "body"), name);
    if (ts_node_is_null(def))
        return def;
    TSNode dec = ts_node_parent(def);
    if (!al_node_is(dec, "decorated_definition"))
        return (TSNode){0};
    for (uint32_t k = 0; k < ts_node_named_child_count(dec); k++) {
        TSNode d = ts_node_named_child(dec, k);
        TSNode e = al_node_is(d, "decorator") ? ts_node_named_child(d, 0) : d;
        if (al_node_text_eq(pf, e, "staticmethod") || al_node_text_eq(pf, e, "classmethod"))
            return def;
    }
    return (TSNode){0};
}

size_t al_py_class_methods(const al_pyfile *pf, const char *name, TSNode *out, size_t max)
{
    size_t n = 0;
    for (uint32_t i = 0; i < ts_node_named_child_count(pf->root) && n < max; i++) {
        TSNode s = ts_node_named_child(pf->root, i);
        if (al_node_is(s, "decorated_definition"))
            s = al_node_field(s, "definition");
        if (!al_node_is(s, "class_definition"))
            continue;
        TSNode def = al_py_def_in_block(pf, al_node_field(s, "body"), name);
        if (ts_node_is_null(def))
            continue;
        TSNode dec = ts_node_parent(def);
        bool plain = true;
        for (uint32_t k = 0; al_node_is(dec, "decorated_definition") && k < ts_node_named_child_count(dec); k++) {
            TSNode d = ts_node_named_child(dec, k);
            TSNode e = al_node_is(d, "decorator") ? ts_node_named_child(d, 0) : d;
            if (al_node_text_eq(pf, e, "staticmethod") || al_node_text_eq(pf, e, "classmethod"))
                plain = false;
        }
        if (plain)
            out[n++] = def;
    }
    return n;
}

/* Definitions named `name` among the statements under n, not inside a
 * nested function or class body. */
static int defs_named(const al_pyfile *pf, TSNode n, const char *name, TSNode *last, int depth)
{
    int count = 0;
    uint32_t k = ts_node_named_child_count(n);
    for (uint32_t i = 0; i < k && depth < 50; i++) {
        TSNode c = ts_node_named_child(n, i);
        if (al_node_is(c, "function_definition") || al_node_is(c, "class_definition")) {
            if (al_node_text_eq(pf, al_node_field(c, "name"), name)) {
                count++;
                *last = c;
            }
            continue;
        }
        count += defs_named(pf, c, name, last, depth + 1);
    }
    return count;
}

int al_py_local_def(const al_pyfile *pf, TSNode site, const char *name, TSNode *def)
{
    *def = (TSNode){0};
    /* The functions and lambdas around site, outermost first, found from
     * the root down (a node's parent is a walk from the root each time). */
    TSNode scopes[64];
    int ns = 0;
    uint32_t at = ts_node_start_byte(site);
    for (TSNode n = pf->root; ns < 64;) {
        TSNode c = ts_node_first_child_for_byte(n, at);
        if (ts_node_is_null(c) || ts_node_start_byte(c) > at || ts_node_eq(c, site) ||
            ts_node_end_byte(c) < ts_node_end_byte(site))
            break;
        if (al_node_is(c, "function_definition") || al_node_is(c, "lambda"))
            scopes[ns++] = c;
        n = c;
    }
    for (int si = ns - 1; si >= 0; si--) {
        TSNode p = scopes[si];
        if (!al_node_is(p, "function_definition") && !al_node_is(p, "lambda"))
            continue; /* a class body is no scope its methods see */
        TSNode body = al_node_field(p, "body");
        if (al_node_is(p, "function_definition") && !al_py_is_param(pf, p, name)) {
            size_t blen;
            const char *bp = al_node_ptr(pf, body, &blen);
            if (!al_py_bytes_may_bind(bp, bp + blen, name))
                continue; /* its bytes bind the name nowhere */
        }
        bool param = al_node_is(p, "function_definition") ? al_py_is_param(pf, p, name) : true;
        al_strlist bound = {0};
        if (al_node_is(p, "function_definition"))
            al_py_bound_names(pf, body, &bound);
        bool assigned = al_strlist_has(&bound, name, strlen(name));
        al_strlist_free(&bound);
        import_binds ib = {pf, name, false, 0, false, {{0}, NULL, NULL}};
        size_t plen;
        const char *pb = al_node_ptr(pf, body, &plen);
        if (al_node_is(p, "function_definition") &&
            (memmem(pb, plen, "import", 6) || memmem(pb, plen, "del ", 4)))
            al_node_preorder(body, visit_import, &ib); /* `from m import f as name` */
        TSNode last = {0};
        int defs = al_node_is(p, "function_definition") ? defs_named(pf, body, name, &last, 0) : 0;
        /* Bound only by one import statement of its own: that import. */
        if (ib.imports == 1 && !ib.deleted && !assigned && !param && !defs) {
            *def = ib.stmt;
            return 2;
        }
        assigned |= ib.found;
        if (defs == 1 && !param && !assigned && al_node_is(last, "function_definition") &&
            al_node_is(ts_node_parent(last), "block") &&
            ts_node_eq(ts_node_parent(last), body)) {
            *def = last;
            return 1;
        }
        if (al_node_is(p, "lambda")) {
            /* A lambda binds only its parameters. */
            TSNode params = al_node_field(p, "parameters");
            if (!ts_node_is_null(params) && al_py_count_ident(pf, params, name) > 0)
                return -1;
            continue;
        }
        if (defs || param || assigned)
            return -1;
    }
    return 0;
}


/* Calls `name(...)` under n, and the assignments `name = <call>` outside
 * nested scopes (the last in *asg). */
static int direct_calls(const al_pyfile *pf, TSNode n, const char *name, TSNode *asg, int *nasg,
                        bool nested, int depth)
{
    if (depth > 200)
        return -1000;
    int calls = 0;
    if (al_node_is(n, "call") && al_node_is(al_node_field(n, "function"), "identifier") &&
        al_node_text_eq(pf, al_node_field(n, "function"), name))
        calls++;
    if (!nested && al_node_is(n, "assignment") && al_node_text_eq(pf, al_node_field(n, "left"), name) &&
        al_node_is(al_node_field(n, "left"), "identifier") &&
        al_node_is(al_py_unparen(al_node_field(n, "right")), "call")) {
        *asg = n;
        ++*nasg;
    }
    nested |= al_node_is(n, "function_definition") || al_node_is(n, "lambda") ||
              al_node_is(n, "class_definition");
    uint32_t k = ts_node_named_child_count(n);
    for (uint32_t i = 0; i < k; i++)
        calls += direct_calls(pf, ts_node_named_child(n, i), name, asg, nasg, nested, depth + 1);
    return calls;
}

TSNode al_py_sole_call_binding(const al_pyfile *pf, TSNode site, const char *name)
{
    TSNode func = ts_node_parent(site);
    while (!ts_node_is_null(func) && !al_node_is(func, "function_definition")) {
        if (al_node_is(func, "lambda") || al_node_is(func, "class_definition"))
            return (TSNode){0};
        func = ts_node_parent(func);
    }
    if (ts_node_is_null(func) || al_py_is_param(pf, func, name))
        return (TSNode){0};
    TSNode body = al_node_field(func, "body"), asg = {0};
    int nasg = 0;
    int calls = direct_calls(pf, body, name, &asg, &nasg, false, 0);
    /* Every other occurrence is a call: nothing rebinds, hands on or
     * declares the name global. */
    if (nasg != 1 || calls < 1 || al_py_count_ident(pf, body, name) != calls + 1)
        return (TSNode){0};
    return al_py_unparen(al_node_field(asg, "right"));
}

static bool word_char(char c)
{
    return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

/* Whether the line starting at ls holds an assignment `=` at bracket
 * depth 0 (counted from ls) after `after`. */
static bool assigns_later(const char *ls, const char *after, const char *end)
{
    int d = 0;
    for (const char *c = ls; c < end && *c != '\n'; c++) {
        if (*c == '#')
            break;
        if (*c == '"' || *c == '\'') {
            const char *e = c + 1;
            while (e < end && *e != *c && *e != '\n')
                e += *e == '\\' ? 2 : 1;
            if (e >= end || *e != *c)
                return c > after; /* a string that goes on: not read */
            c = e;
            continue;
        }
        if (*c == '(' || *c == '[' || *c == '{')
            d++;
        else if (*c == ')' || *c == ']' || *c == '}')
            d--;
        else if (*c == '=' && c > after && d <= 0 && !strchr("=!<>", c[-1]) &&
                 !(c + 1 < end && c[1] == '='))
            return true;
    }
    return false;
}

/* Whether the statement on the line at ls starts with `word` (after
 * indentation and `async`) before q: prose in a docstring rarely does. */
static bool line_starts(const char *ls, const char *q, const char *word)
{
    while (ls < q && (*ls == ' ' || *ls == '\t'))
        ls++;
    if (q - ls > 6 && !memcmp(ls, "async ", 6))
        ls += 6;
    size_t wl = strlen(word);
    return ls + wl < q && !memcmp(ls, word, wl) && !word_char(ls[wl]);
}

static bool may_bind_at(const char *p, const char *end, const char *q, size_t wl)
{
    const char *a = q + wl;
    while (a < end && *a == ' ')
        a++;
    if (a < end && *a == '=' && !(a + 1 < end && a[1] == '='))
        return true;
    if (a + 1 < end && a[1] == '=' && strchr("+-*/%&|^:@", *a))
        return true;
    if (a + 2 < end && a[2] == '=' && (!memcmp(a, "//", 2) || !memcmp(a, "**", 2) ||
                                       !memcmp(a, ">>", 2) || !memcmp(a, "<<", 2)))
        return true;
    const char *ls = q;
    while (ls > p && ls[-1] != '\n')
        ls--;
    const char *b = q;
    while (b > p && b[-1] == ' ')
        b--;
    /* `name,` or `name)` opening a line: a target or an import continued. */
    if (a < end && (*a == ',' || *a == ')') && (b == p || b[-1] == '\n'))
        return true;
    /* `a, name = ...`, `(a, name) = ...`, `name: T = ...`: a target of an
     * assignment further along the line. */
    if (a < end && strchr(",)]:", *a) && assigns_later(ls, a, end))
        return true;
    /* `for a, name in`, `with f() as (a, name)`, `from m import a, name`
     * (a comprehension's names are its own). */
    if (line_starts(ls, q, "for") || line_starts(ls, q, "with") || line_starts(ls, q, "import") ||
        line_starts(ls, q, "from"))
        return true;
    static const char *const before[] = {"del", "nonlocal", "global", "def", "class", NULL};
    for (int k = 0; before[k]; k++) {
        size_t kl = strlen(before[k]);
        if ((size_t)(b - p) >= kl && !memcmp(b - kl, before[k], kl) &&
            (b - kl == p || !word_char(b[-(long)kl - 1])))
            return true;
    }
    return false;
}

/* Whether the line at ls lies in a function or class body of a module
 * (its nearest line above at column 0 opens a def, a class or a
 * decorator): a binding there is not the module's. */
static bool in_module_def(const char *p, const char *ls)
{
    if (ls == p || *ls != ' ')
        return false;
    for (const char *c = ls; c > p;) {
        const char *prev = c - 1; /* the '\n' ending the line above */
        while (prev > p && prev[-1] != '\n')
            prev--;
        c = prev;
        if (*c == ' ' || *c == '\t' || *c == '\n' || *c == '#' || *c == '\r')
            continue;
        return !strncmp(c, "def ", 4) || !strncmp(c, "async ", 6) || !strncmp(c, "class ", 6) ||
               *c == '@';
    }
    return false;
}

/* The first place at or after from in p..end that may bind word, but at
 * skip (the name of a definition already known); unless imports, not on
 * a line that starts an import; with module, not inside a def or class of
 * the module (where it binds a local; `global` is looked for apart).
 * NULL when none may. */
static const char *next_bind(const char *p, const char *from, const char *end, const char *word,
                             const char *skip, bool imports, bool module)
{
    size_t wl = strlen(word);
    for (const char *q = from; q + wl <= end; q++) {
        q = memmem(q, (size_t)(end - q), word, wl);
        if (!q)
            return NULL;
        if (q == skip || (q > p && word_char(q[-1])) || (q + wl < end && word_char(q[wl])))
            continue;
        const char *ls = q;
        while (ls > p && ls[-1] != '\n')
            ls--;
        if (!imports && (line_starts(ls, q, "import") || line_starts(ls, q, "from")))
            continue;
        if (may_bind_at(p, end, q, wl) && !(module && in_module_def(p, ls)))
            return q;
    }
    return NULL;
}

static bool may_bind_except(const char *p, const char *end, const char *word, const char *skip,
                            bool imports, bool module)
{
    return next_bind(p, p, end, word, skip, imports, module) != NULL;
}

/* Whether every place of p..end that may bind word lies in what pf
 * parsed: then its statements answer, and a partial parse need not be
 * read again whole. */
static bool binds_parsed(const al_pyfile *pf, const char *p, const char *end, const char *word,
                         const char *skip, bool imports, bool module)
{
    if (!pf->partial)
        return true;
    uint32_t n;
    TSRange *r = ts_tree_included_ranges(pf->tree, &n);
    bool all = true;
    for (const char *h = p; all && (h = next_bind(p, h, end, word, skip, imports, module)) != NULL;
         h += strlen(word)) {
        uint32_t at = (uint32_t)(h - pf->src->bytes);
        bool in = false;
        for (uint32_t k = 0; k < n && !in; k++)
            in = r[k].start_byte <= at && at < r[k].end_byte;
        all = in;
    }
    free(r);
    return all;
}

bool al_py_bytes_may_bind(const char *p, const char *end, const char *word)
{
    return may_bind_except(p, end, word, NULL, true, false);
}

bool al_py_module_binds_besides_imports(const al_pyfile *pf, const char *name)
{
    size_t blen = pf->src->len;
    const char *bp = pf->src->bytes;
    if (!may_bind_except(bp, bp + blen, name, NULL, false, true))
        return declares_global(bp, blen, name);
    if (!binds_parsed(pf, bp, bp + blen, name, NULL, false, true) && !al_pyfile_holds_all(pf))
        return true;
    return statements_bind(pf, pf->root, name, 0, false) || declares_global(bp, blen, name);
}
