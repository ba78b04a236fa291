#include "streams.h"

#include "values.h"

#include "../../base/util.h"

#include <stdlib.h>

#include <ctype.h>
#include <string.h>

/* Whether text holds the word `stream` in any case, alone or in a name
 * (`alt_stream`, `StreamContext`). */
static bool says_stream(const char *p, size_t len)
{
    for (size_t i = 0; i + 6 <= len; i++)
        if ((p[i] == 's' || p[i] == 'S') && !strncasecmp(p + i, "stream", 6))
            return true;
    return false;
}

static bool names_stream(const al_pyfile *pf, TSNode item)
{
    size_t len;
    const char *p = al_node_ptr(pf, item, &len);
    return p && says_stream(p, len);
}

/* Whether a loop of func holds both a and b. */
static bool in_common_loop(TSNode func, TSNode a, TSNode b)
{
    for (TSNode p = ts_node_parent(a); !ts_node_is_null(p) && !ts_node_eq(p, func); p = ts_node_parent(p))
        if ((al_node_is(p, "for_statement") || al_node_is(p, "while_statement")) &&
            ts_node_start_byte(b) >= ts_node_start_byte(p) && ts_node_end_byte(b) <= ts_node_end_byte(p))
            return true;
    return false;
}

typedef struct {
    const al_pymodule *m;
    TSNode func, stmt;
    const char *name;
    TSNode block, found;
    uint32_t from, to; /* the text a wait is looked for in */
    bool waited;
} stream_use;

/* Whether call makes the current stream wait for the others' queued work:
 * `torch.cuda.synchronize()`, or `S.wait_stream(...)` where S is
 * `torch.cuda.current_stream()` or a name the function binds to it. */
static bool waits(const stream_use *s, TSNode call)
{
    const al_pyfile *pf = s->m->pf;
    TSNode fn = al_node_field(call, "function");
    if (al_pymodule_resolves_to(s->m, fn, "torch.cuda.synchronize"))
        return true;
    if (!al_node_is(fn, "attribute") || !al_node_text_eq(pf, al_node_field(fn, "attribute"), "wait_stream"))
        return false;
    TSNode recv = al_py_unparen(al_node_field(fn, "object"));
    if (al_node_is(recv, "call"))
        return al_pymodule_resolves_to(s->m, al_node_field(recv, "function"), "torch.cuda.current_stream");
    if (!al_node_is(recv, "identifier"))
        return false;
    /* `current = torch.cuda.current_stream()`, the name's only binding. */
    TSNode v = al_value_single_binding(pf, s->func, call, recv);
    v = al_py_unparen(v);
    return al_node_is(v, "call") &&
           al_pymodule_resolves_to(s->m, al_node_field(v, "function"), "torch.cuda.current_stream");
}

static al_visit find_wait(TSNode n, void *arg)
{
    stream_use *s = arg;
    if (s->waited || ts_node_end_byte(n) <= s->from || ts_node_start_byte(n) >= s->to)
        return AL_VISIT_OVER;
    if (al_node_is(n, "function_definition") || al_node_is(n, "lambda"))
        return AL_VISIT_OVER;
    if (al_node_is(n, "call") && ts_node_start_byte(n) >= s->from && waits(s, n))
        s->waited = true;
    return AL_VISIT_INTO;
}

/* Whether the current stream waits for the others somewhere in func's
 * text [from, to). */
static bool waited_between(const al_pymodule *m, TSNode func, uint32_t from, uint32_t to)
{
    stream_use w = {.m = m, .func = func, .from = from, .to = to};
    al_node_preorder(al_node_field(func, "body"), find_wait, &w);
    return w.waited;
}

typedef struct {
    const al_pyfile *pf;
    const char *name;
    uint32_t from, to;
    TSNode found;
} read_search;

static al_visit find_read(TSNode n, void *arg)
{
    read_search *r = arg;
    if (!ts_node_is_null(r->found) || ts_node_end_byte(n) <= r->from || ts_node_start_byte(n) >= r->to)
        return AL_VISIT_OVER;
    if (al_node_is(n, "identifier") && ts_node_start_byte(n) >= r->from &&
        al_node_text_eq(r->pf, n, r->name) && !al_py_ident_is_label(n)) {
        r->found = n;
        return AL_VISIT_OVER;
    }
    return AL_VISIT_INTO;
}

/* The first use of name as a variable under root within [from, to), or a
 * null node. */
static TSNode first_read(const al_pyfile *pf, TSNode root, uint32_t from, uint32_t to,
                         const char *name)
{
    read_search r = {.pf = pf, .name = name, .from = from, .to = to};
    al_node_preorder(root, find_read, &r);
    return r.found;
}

static al_visit find_use(TSNode n, void *arg)
{
    stream_use *s = arg;
    if (!ts_node_is_null(s->found))
        return AL_VISIT_OVER;
    if (!al_node_is(n, "with_statement"))
        return AL_VISIT_INTO;
    /* A block that holds the update runs it on the same stream, after what
     * the block queued before it. */
    if (ts_node_start_byte(s->stmt) >= ts_node_start_byte(n) &&
        ts_node_end_byte(s->stmt) <= ts_node_end_byte(n))
        return AL_VISIT_INTO;
    /* After the update with no loop to come back: it reads the updated
     * tensor in either form. */
    if (ts_node_start_byte(n) >= ts_node_end_byte(s->stmt) && !in_common_loop(s->func, n, s->stmt))
        return AL_VISIT_OVER;
    TSNode clause = ts_node_named_child(n, 0);
    bool stream = false;
    for (uint32_t i = 0; !stream && i < ts_node_named_child_count(clause); i++)
        stream = names_stream(s->m->pf, ts_node_named_child(clause, i));
    if (!stream)
        return AL_VISIT_INTO;
    /* Waited for between the block and the update: the queued work is
     * done before the update runs. */
    if (ts_node_end_byte(n) <= ts_node_start_byte(s->stmt) &&
        waited_between(s->m, s->func, ts_node_end_byte(n), ts_node_start_byte(s->stmt)))
        return AL_VISIT_OVER;
    TSNode body = al_node_field(n, "body");
    s->found = first_read(s->m->pf, body, ts_node_start_byte(body), ts_node_end_byte(body), s->name);
    if (!ts_node_is_null(s->found))
        s->block = n;
    return AL_VISIT_OVER;
}

typedef struct {
    const al_pymodule *m;
    TSNode func, stmt;
    const char *name;
    TSNode call, found; /* the set_stream call, and the read after it */
} set_stream_use;

/* `torch.cuda.set_stream(s)` before stmt (or in a loop around both): what
 * follows it runs on s until it is set again, which is not followed, so
 * every read of name from the call to stmt counts, unless the current
 * stream waits after it. */
static al_visit find_set_stream(TSNode n, void *arg)
{
    set_stream_use *s = arg;
    if (!ts_node_is_null(s->found))
        return AL_VISIT_OVER;
    if (al_node_is(n, "function_definition") || al_node_is(n, "lambda"))
        return AL_VISIT_OVER;
    if (!al_node_is(n, "call") ||
        !al_pymodule_resolves_to(s->m, al_node_field(n, "function"), "torch.cuda.set_stream"))
        return AL_VISIT_INTO;
    uint32_t end = ts_node_end_byte(n), at = ts_node_start_byte(s->stmt), to;
    if (end <= at) {
        to = at;
    } else if (in_common_loop(s->func, n, s->stmt)) {
        /* To the end of the innermost loop that holds both. */
        TSNode loop = ts_node_parent(s->stmt);
        while ((!al_node_is(loop, "for_statement") && !al_node_is(loop, "while_statement")) ||
               ts_node_end_byte(loop) < end)
            loop = ts_node_parent(loop);
        to = ts_node_end_byte(loop);
    } else {
        return AL_VISIT_OVER;
    }
    TSNode read = first_read(s->m->pf, al_node_field(s->func, "body"), end, to, s->name);
    if (!ts_node_is_null(read) &&
        (end > at || !waited_between(s->m, s->func, ts_node_end_byte(read), at)))
        s->found = read, s->call = n;
    return AL_VISIT_OVER;
}

TSNode al_stream_use(const al_pymodule *m, TSNode func, TSNode stmt, const char *name, TSNode *block)
{
    /* Asked of every in-place candidate: a function whose text never says
     * `stream` switches none (names_stream reads the same word). */
    size_t len;
    const char *p = al_node_ptr(m->pf, func, &len);
    *block = (TSNode){0};
    if (!p || !says_stream(p, len))
        return (TSNode){0};
    stream_use s = {.m = m, .func = func, .stmt = stmt, .name = name};
    al_node_preorder(al_node_field(func, "body"), find_use, &s);
    *block = s.block;
    if (!ts_node_is_null(s.found) || !memmem(p, len, "set_stream", 10))
        return s.found;
    set_stream_use u = {.m = m, .func = func, .stmt = stmt, .name = name};
    al_node_preorder(al_node_field(func, "body"), find_set_stream, &u);
    *block = u.call;
    return u.found;
}
