#include "module.h"

#include "passed.h"

#include "../../front/prefilter.h"
#include "../../base/util.h"

#include <stdlib.h>
#include <string.h>

static bool text_contains(const al_pyfile *pf, TSNode n, const char *needle)
{
    size_t len;
    const char *p = al_node_ptr(pf, n, &len);
    return memmem(p, len, needle, strlen(needle)) != NULL;
}

static bool is_triton_kernel(const al_pyfile *pf, TSNode decorated)
{
    uint32_t k = ts_node_named_child_count(decorated);
    for (uint32_t j = 0; j < k; j++) {
        TSNode d = ts_node_named_child(decorated, j);
        if (al_node_is(d, "decorator") && text_contains(pf, d, "triton"))
            return true;
    }
    return false;
}

/* Whether the callee's last name is one of names, directly or through a
 * from-import alias (`from torch import cat as tcat`; imports come first
 * in the traversal, as they do in files). */
static bool call_wanted(const al_pymodule *m, TSNode call, const char *const *names)
{
    size_t len;
    TSNode fn = al_node_field(call, "function");
    const char *p = al_py_last_name(m->pf, fn, &len);
    if (!names)
        return false;
    if (al_str_in_list(names, p, len))
        return true;
    if (!al_node_is(fn, "identifier"))
        return false;
    char *q = al_imports_resolve(&m->imports, m->pf, fn);
    const char *last = q ? strrchr(q, '.') : NULL;
    bool hit = last && al_str_in_list(names, last + 1, strlen(last + 1));
    free(q);
    return hit;
}

/* A definition met in the traversal, waiting for its subtree's height. */
typedef struct {
    TSNode def;
    unsigned depth; /* of def in the traversal */
    bool kernel;
} open_def;

static void add_kernel(al_pymodule *m, TSNode def)
{
    const al_pyfile *pf = m->pf;
    char *name = al_node_text_compact(pf, al_node_field(def, "name"));
    if (text_contains(pf, al_node_field(def, "body"), "atomic_"))
        AL_PUSH(m->atomic_kernel_names.items, m->atomic_kernel_names.n,
                m->atomic_kernel_names.cap, al_xstrdup(name));
    AL_PUSH(m->kernel_names.items, m->kernel_names.n, m->kernel_names.cap, name);
}

/* A definition's subtree is done: analysable when no deeper than the
 * guard (its height counted in edges, over every node, named or not). */
static void close_def(al_pymodule *m, const open_def *d, unsigned height)
{
    bool deep = height > AL_MAX_FUNCTION_DEPTH;
    if (d->kernel) {
        if (!deep)
            AL_PUSH(m->kernels, m->n_kernels, m->cap_kernels, d->def);
    } else if (deep) {
        m->skipped_deep++;
    } else {
        AL_PUSH(m->functions, m->n_functions, m->cap_functions, d->def);
    }
}

static int compare_start(const void *x, const void *y)
{
    uint32_t a = ts_node_start_byte(*(const TSNode *)x), b = ts_node_start_byte(*(const TSNode *)y);
    return a < b ? -1 : a > b;
}

/* Past this depth the traversal does not go: a definition with a subtree
 * cut off there counts as too deep. */
#define MAX_TRAVERSAL_DEPTH 2000

/* The one traversal of the file: every node, so that each definition's
 * height is known when its subtree is done; what the module records is
 * read only outside imports, comments and strings, from named nodes. */
void al_pymodule_build(al_pymodule *m, const al_pyfile *pf, const al_op_table *ops,
                       const char *const *call_names)
{
    memset(m, 0, sizeof *m);
    m->pf = pf;
    m->ops = ops;
    unsigned *height = al_xcalloc(MAX_TRAVERSAL_DEPTH + 2, sizeof *height);
    open_def *defs = NULL;
    size_t n_defs = 0, cap_defs = 0;
    TSTreeCursor c = ts_tree_cursor_new(pf->root);
    unsigned depth = 0, inert = UINT32_MAX; /* below depth `inert`: nothing read */
    for (;;) {
        TSNode n = ts_tree_cursor_current_node(&c);
        height[depth] = 0;
        if (depth < inert && ts_node_is_named(n)) {
            uint32_t t = al_node_type_id(n); /* one lookup, several tests */
            if (t == al_type_id("import_statement") || t == al_type_id("import_from_statement")) {
                al_imports_add_statement(&m->imports, pf, n);
                inert = depth;
            } else if (t == al_type_id("function_definition")) {
                open_def d = {n, depth, false};
                AL_PUSH(defs, n_defs, cap_defs, d);
            } else if (t == al_type_id("decorated_definition")) {
                TSNode def = al_node_field(n, "definition");
                if (al_node_is(def, "function_definition") && is_triton_kernel(pf, n)) {
                    add_kernel(m, def);
                    /* Its function_definition is the child one level down. */
                    open_def d = {def, depth + 1, true};
                    AL_PUSH(defs, n_defs, cap_defs, d);
                }
            } else if (t == al_type_id("call") && call_wanted(m, n, call_names)) {
                AL_PUSH(m->calls, m->n_calls, m->cap_calls, n);
            } else if (t == al_type_id("comment")) {
                al_span s = {ts_node_start_byte(n), ts_node_end_byte(n)};
                AL_PUSH(m->comments, m->n_comments, m->cap_comments, s);
                inert = depth;
            } else if (t == al_type_id("string")) {
                if (ts_node_start_point(n).row != ts_node_end_point(n).row) {
                    al_span s = {ts_node_start_byte(n), ts_node_end_byte(n)};
                    AL_PUSH(m->long_strings, m->n_long_strings, m->cap_long_strings, s);
                }
                inert = depth;
            }
        } else if (depth < inert) {
            inert = depth; /* an anonymous node's children are not read */
        }
        if (ts_tree_cursor_goto_first_child(&c)) {
            if (depth < MAX_TRAVERSAL_DEPTH) {
                depth++;
                continue;
            }
            ts_tree_cursor_goto_parent(&c);
            height[depth] = UINT32_MAX / 2; /* cut off: too deep to tell */
        }
        /* The node is done; then its ancestors that have no next sibling. */
        for (;;) {
            while (n_defs && defs[n_defs - 1].depth == depth) {
                /* A kernel's definition sits one below the node that opened it. */
                close_def(m, &defs[n_defs - 1], height[depth]);
                n_defs--;
            }
            if (depth > 0 && height[depth] + 1 > height[depth - 1])
                height[depth - 1] = height[depth] + 1;
            if (inert == depth)
                inert = UINT32_MAX;
            if (depth == 0)
                goto done;
            if (ts_tree_cursor_goto_next_sibling(&c))
                break;
            ts_tree_cursor_goto_parent(&c);
            depth--;
        }
    }
done:
    ts_tree_cursor_delete(&c);
    free(height);
    free(defs);
    /* Closed innermost first: back to document order. */
    if (m->n_functions > 1)
        qsort(m->functions, m->n_functions, sizeof *m->functions, compare_start);
    if (m->n_kernels > 1)
        qsort(m->kernels, m->n_kernels, sizeof *m->kernels, compare_start);
    m->torch = al_imports_alias_for(&m->imports, "torch");
}

void al_pymodule_use_index(al_pymodule *m, const char *path, struct al_index *index)
{
    m->path = path;
    m->index = index;
}

/* The token classes of the scanned statement, or class member, holding
 * byte at (the file's, when none does). */
static unsigned scanned_tokens(const al_py_scan *s, size_t at)
{
    size_t lo = 0, hi = s->n;
    while (hi - lo > 1) {
        size_t mid = lo + (hi - lo) / 2;
        if (s->items[mid].start <= at)
            lo = mid;
        else
            hi = mid;
    }
    if (!s->n || at < s->items[lo].start || at >= s->items[lo].end)
        return s->tokens;
    const al_statement_span *g = &s->items[lo];
    for (size_t k = 0; k < g->n_members; k++) {
        const al_statement_span *mb = &s->members[g->first_member + k];
        if (mb->start <= at && at < mb->end)
            return mb->tokens;
    }
    return g->tokens;
}

/* The prefilter's token classes of function i: those of its statement
 * or member when the file's scan is at hand, else of its own text
 * (nested definitions included); read once per module. */
unsigned al_pymodule_function_tokens(al_pymodule *m, size_t i)
{
    if (!m->function_tokens) {
        m->function_tokens = al_xcalloc(m->n_functions ? m->n_functions : 1, sizeof(unsigned));
        for (size_t k = 0; k < m->n_functions; k++) {
            size_t start = ts_node_start_byte(m->functions[k]);
            m->function_tokens[k] =
                m->scan ? scanned_tokens(m->scan, start)
                        : al_prefilter_tokens_python(m->pf->src->bytes + start,
                                                     ts_node_end_byte(m->functions[k]) - start);
        }
    }
    return m->function_tokens[i];
}

void al_pymodule_walk(const al_pymodule *m, const al_py_walker *w)
{
    for (size_t i = 0; i < m->n_functions; i++)
        al_py_walk_function(m->functions[i], w);
}

void al_pymodule_walk_where(al_pymodule *m, const unsigned *needs, const al_py_walker *w)
{
    if (!needs || !m->token_filter) {
        al_pymodule_walk(m, w);
        return;
    }
    for (size_t i = 0; i < m->n_functions; i++)
        if (al_prefilter_admits(needs, al_pymodule_function_tokens(m, i)))
            al_py_walk_function(m->functions[i], w);
}

al_pymodule al_pymodule_scoped(const al_pymodule *other, const char *path, const al_pymodule *from)
{
    al_pymodule scoped = *other;
    if (!scoped.index) {
        scoped.index = from->index;
        scoped.path = path;
    }
    if (!scoped.ops)
        scoped.ops = from->ops;
    return scoped;
}

char *al_pymodule_resolve(const al_pymodule *m, TSNode expr)
{
    return al_imports_resolve(&m->imports, m->pf, expr);
}

bool al_pymodule_resolves_to(const al_pymodule *m, TSNode expr, const char *qualified)
{
    char *q = al_pymodule_resolve(m, expr);
    bool yes = q && !strcmp(q, qualified);
    free(q);
    return yes;
}

bool al_pymodule_calls_torch_cat(const al_pymodule *m, TSNode call)
{
    if (!al_node_is(call, "call"))
        return false;
    char *q = al_pymodule_resolve(m, al_node_field(call, "function"));
    bool cat = q && (!strcmp(q, "torch.cat") || !strcmp(q, "torch.concat") ||
                     !strcmp(q, "torch.concatenate"));
    free(q);
    return cat;
}

const char *al_pymodule_alias_for(const al_pymodule *m, const char *module)
{
    return al_imports_alias_for(&m->imports, module);
}

void al_pymodule_free(al_pymodule *m)
{
    if (m->free_buffers)
        m->free_buffers(m->buffers);
    al_imports_free(&m->imports);
    al_strlist_free(&m->kernel_names);
    al_strlist_free(&m->atomic_kernel_names);
    free(m->functions);
    free(m->kernels);
    free(m->calls);
    free(m->comments);
    free(m->long_strings);
    free(m->function_tokens);
    memset(m, 0, sizeof *m);
}
