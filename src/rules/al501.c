/* AL501 host-alloc-then-copy: torch.zeros(n).to(device). GPU evidence
 * (rules/AL501.md): 1.6x at 640 bytes to about 1000x at 64 MiB. */
#include "rules.h"

#include "../analysis/python/lifetime.h"
#include "../analysis/python/values.h"
#include "../analysis/core/index.h"
#include "../base/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A tensor made on the host, then moved to the device. */
typedef struct {
    size_t start, end;     /* the whole chain */
    char *factory;         /* qualified */
    size_t insert_at;      /* before the factory call's ')' */
    bool args_empty;
    size_t move_start, move_end; /* `.to(...)` / `.cuda()` to delete */
    char *device;          /* NULL: unknown */
    char *dtype;           /* also converts dtype */
    bool non_blocking, random, has_device;
    bool from_data;        /* torch.tensor(data): the data is on the host anyway */
    bool requires_grad;    /* the factory makes an autograd leaf */
    bool foreign_generator; /* `generator=g`, g not known to be on the device */
    size_t async_line;     /* 1-based line of an earlier non_blocking copy; 0: none */
    size_t stream_line;    /* 1-based line of a use of another CUDA stream; 0: none */
    char *stream_callee;   /* the call the tensor is handed to, whose body uses one */
    bool async_in_loop;    /* that copy comes later in the loop's body: a pass before's */
} move;

/* Factories that copy Python data: made on the host whatever `device=`
 * says, so `device=` saves a call, not a host tensor or a copy. */
static bool copies_host_data(const char *factory)
{
    return !strcmp(factory, "torch.tensor") || !strcmp(factory, "torch.as_tensor") ||
           !strcmp(factory, "torch.asarray");
}

static void report(const move *f, al_findings *out)
{
    al_strbuf msg = {0};
    if (f->from_data)
        al_strbuf_printf(&msg, "`%s` copies its data to the device in a second call: pass "
                               "`device=%s` to the factory (one call; the data still "
                               "crosses from the host)",
                         f->factory, f->device);
    else
        al_strbuf_printf(&msg, "`%s` builds the tensor in host memory and then copies it to "
                               "the device: pass `device=%s` to the factory",
                         f->factory, f->device);
    al_fix *fix = NULL;
    if (f->has_device) {
        al_strbuf_puts(&msg, " (no fix: the factory already names a device or dtype)");
    } else if (f->foreign_generator) {
        al_strbuf_puts(&msg, " (no fix: its `generator=` draws on the generator's own device, "
                             "and a CPU generator raises once the factory makes the tensor on "
                             "another)");
    } else {
        al_applicability tier = AL_FIX_SAFE;
        if (f->random) {
            tier = AL_FIX_UNSAFE;
            al_strbuf_puts(&msg, "; the device's random generator gives other numbers than "
                                 "the host's");
        }
        if (f->non_blocking) {
            tier = AL_FIX_UNSAFE;
            al_strbuf_puts(&msg, "; `non_blocking` is dropped");
        }
        if (f->requires_grad) {
            tier = AL_FIX_UNSAFE;
            al_strbuf_puts(&msg, "; the moved tensor becomes the autograd leaf (`.grad` was the "
                                 "host tensor's)");
        }
        if (f->dtype) {
            tier = AL_FIX_UNSAFE;
            al_strbuf_puts(&msg, "; the dtype conversion moves into `dtype=`, which "
                                 "changes where rounding happens");
        }
        if (f->async_line) {
            tier = AL_FIX_UNSAFE;
            al_strbuf_printf(&msg, "; the copy from pageable memory makes the host wait for the "
                                   "stream, which orders the `non_blocking` copy on line %zu%s "
                                   "before what follows, and `device=` removes that wait",
                             f->async_line, f->async_in_loop ? " (the pass before's)" : "");
        }
        if (f->stream_line) {
            tier = AL_FIX_UNSAFE;
            al_strbuf where = {0};
            if (f->stream_callee)
                al_strbuf_printf(&where, "it is handed to `%s` (line %zu), whose body uses",
                                 f->stream_callee, f->stream_line);
            else
                al_strbuf_printf(&where, "line %zu uses", f->stream_line);
            al_strbuf_printf(&msg, "; the copy from pageable memory makes the host wait until "
                                   "the tensor is on the device, and %s another CUDA stream, "
                                   "which may read it without waiting on this one once `device=` "
                                   "removes that wait",
                             where.data);
            al_strbuf_free(&where);
        }
        al_strbuf kw = {0};
        al_strbuf_printf(&kw, "%sdevice=%s", f->args_empty ? "" : ", ", f->device);
        if (f->dtype)
            al_strbuf_printf(&kw, ", dtype=%s", f->dtype);
        al_strbuf fm = {0};
        al_strbuf_printf(&fm, "Pass `device=%s` to `%s`", f->device, f->factory);
        fix = al_fix_new(tier, fm.data);
        al_fix_add_edit(fix, f->insert_at, f->insert_at, kw.data);
        al_fix_add_edit(fix, f->move_start, f->move_end, "");
        al_strbuf_free(&kw);
        al_strbuf_free(&fm);
    }
    al_findings_add(out, "AL501", "host-alloc-then-copy", f->start, f->end,
                    al_strbuf_detach(&msg), fix);
    /* torch.tensor(data): the data crosses with device= too. */
    if (f->from_data)
        al_findings_set_removes(out, AL_REMOVES_NOTHING);
}

/* Where a new keyword argument goes: right after the last argument, so
 * that a call closed on a line of its own (`torch.zeros(\n    n\n)`) gets
 * `n, device=d` and no line starts with a comma; before `)` when there is
 * no argument. */
static size_t after_last_argument(TSNode args)
{
    size_t at = ts_node_end_byte(args) - 1;
    for (uint32_t i = ts_node_named_child_count(args); i-- > 0;) {
        TSNode a = ts_node_named_child(args, i);
        if (!al_node_is(a, "comment")) {
            at = ts_node_end_byte(a);
            break;
        }
    }
    return at;
}

/* A `.to(...)` argument that names a device, not a dtype or a tensor. */
static bool looks_like_device(const al_pymodule *m, TSNode v)
{
    if (al_node_is(v, "string"))
        return true;
    if (al_node_is(v, "call"))
        return al_pymodule_resolves_to(m, al_node_field(v, "function"), "torch.device");
    size_t len;
    const char *p = al_py_last_name(m->pf, v, &len);
    if (!len)
        return false;
    char name[64];
    snprintf(name, sizeof name, "%.*s", (int)(len < 63 ? len : 63), p);
    return !strcmp(name, "device") || !strcmp(name, "dev") || al_str_ends_with(name, "_device") ||
           al_str_ends_with(name, "_dev");
}

static bool looks_like_dtype(const al_pymodule *m, TSNode v)
{
    char *q = al_pymodule_resolve(m, v);
    bool yes = false;
    if (q) {
        static const char *const d[] = {"float", "half", "bfloat16", "int", "long", "bool",
                                        "uint8", "int8", "int16", "double", "float8", NULL};
        if (!strncmp(q, "torch.", 6))
            for (int i = 0; d[i]; i++)
                if (!strncmp(q + 6, d[i], strlen(d[i])))
                    yes = true;
    }
    free(q);
    size_t len;
    const char *p = al_py_last_name(m->pf, v, &len);
    if (len >= 5 && !memcmp(p + len - 5, "dtype", 5))
        yes = true;
    return yes;
}

/* The device (and dtype) of `.cuda(...)` / `.to(...)`; false when the
 * call is not a plain move to a device: .to(x), .to(dtype), .cuda(i). */
static bool read_move(const al_pymodule *m, bool cuda, const al_py_args *ma, move *f)
{
    const al_pyfile *pf = m->pf;
    bool unknown = false;
    if (cuda) {
        if (ma->npos == 0)
            f->device = al_xstrdup("\"cuda\"");
        else
            unknown = true;
        for (int i = 0; i < ma->nkw; i++) {
            if (al_node_text_eq(pf, al_node_field(ma->kw[i], "name"), "non_blocking"))
                f->non_blocking = true;
            else
                unknown = true;
        }
        return f->device && !unknown;
    }
    for (int i = 0; i < ma->npos; i++) {
        if (looks_like_device(m, ma->pos[i]) && !f->device)
            f->device = al_node_text(pf, ma->pos[i]);
        else if (looks_like_dtype(m, ma->pos[i]) && !f->dtype)
            f->dtype = al_node_text(pf, ma->pos[i]);
        else
            unknown = true;
    }
    for (int i = 0; i < ma->nkw; i++) {
        TSNode name = al_node_field(ma->kw[i], "name");
        if (al_node_text_eq(pf, name, "device") && !f->device)
            f->device = al_node_text(pf, al_node_field(ma->kw[i], "value"));
        else if (al_node_text_eq(pf, name, "dtype") && !f->dtype)
            f->dtype = al_node_text(pf, al_node_field(ma->kw[i], "value"));
        else if (al_node_text_eq(pf, name, "non_blocking"))
            f->non_blocking = true;
        else
            unknown = true;
    }
    return f->device && !unknown;
}

/* Whether the statement holding call keeps nothing of its value: an
 * expression statement, `_ = ...`, or a local name no other line of its
 * function mentions. Such a move exists for what it does, not for the
 * tensor: `torch.zeros(1).cuda()` as a health probe or a warm-up makes
 * the host wait for the device (and raises a device-side error queued
 * before it), which `device=` would remove. */
static bool value_discarded(const al_pyfile *pf, TSNode call)
{
    TSNode e = call, p = ts_node_parent(call);
    while (!ts_node_is_null(p) && al_node_is(p, "parenthesized_expression"))
        e = p, p = ts_node_parent(p);
    if (ts_node_is_null(p))
        return false;
    if (al_node_is(p, "expression_statement"))
        return true;
    if (!al_node_is(p, "assignment") || !al_py_node_eq(al_node_field(p, "right"), e))
        return false;
    TSNode left = al_node_field(p, "left");
    if (!al_node_is(left, "identifier") || !al_node_is(ts_node_parent(p), "expression_statement"))
        return false;
    if (al_node_text_eq(pf, left, "_"))
        return true;
    TSNode fn = al_enclosing_function(p);
    if (ts_node_is_null(fn) || al_py_reads_locals(pf, fn))
        return false;
    char *name = al_node_text(pf, left);
    bool unused = al_py_count_ident(pf, fn, name) == 1;
    free(name);
    return unused;
}

typedef struct {
    const al_pyfile *pf;
    TSNode site, loop;
    size_t line; /* of the first non_blocking copy found */
    bool after;  /* it comes after the site, in the loop */
} async_search;

/* A call with `non_blocking=` (not False) before the site, or anywhere in
 * the loop around it (the next pass's wait orders it). */
static al_visit find_async_copy(TSNode n, void *arg)
{
    async_search *s = arg;
    if (s->line)
        return AL_VISIT_STOP;
    if (!al_node_is(n, "call") || al_py_node_eq(n, s->site))
        return AL_VISIT_INTO;
    bool before = ts_node_start_byte(n) < ts_node_start_byte(s->site);
    bool in_loop = !ts_node_is_null(s->loop) && ts_node_start_byte(n) >= ts_node_start_byte(s->loop) &&
                   ts_node_end_byte(n) <= ts_node_end_byte(s->loop);
    if (!before && !in_loop)
        return AL_VISIT_INTO;
    al_py_args a;
    al_py_args_read(n, &a);
    TSNode nb = al_py_kwarg(s->pf, &a, "non_blocking");
    if (!ts_node_is_null(nb) && !al_node_text_eq(s->pf, nb, "False")) {
        s->line = ts_node_start_point(n).row + 1;
        s->after = !before;
    }
    return AL_VISIT_INTO;
}

static size_t earlier_async_copy(const al_pyfile *pf, TSNode call, bool *in_loop)
{
    TSNode fn = al_enclosing_function(call);
    TSNode scope = ts_node_is_null(fn) ? ts_tree_root_node(pf->tree) : al_node_field(fn, "body");
    async_search s = {.pf = pf, .site = call};
    if (!ts_node_is_null(fn))
        s.loop = al_enclosing_loop(fn, call);
    al_node_preorder(scope, find_async_copy, &s);
    *in_loop = s.after;
    return s.line;
}

/* The offset + 1 of the first needle wholly inside [from, to) of the
 * file's bytes, or 0. */
static size_t bytes_find(const al_source *src, size_t from, size_t to, const char *needle)
{
    if (to > src->len)
        to = src->len;
    if (from >= to)
        return 0;
    const char *p = memmem(src->bytes + from, to - from, needle, strlen(needle));
    return p ? (size_t)(p - src->bytes) + 1 : 0;
}

/* The first use of a CUDA stream other than the current one in
 * [from, to) of a file's bytes: one made (`torch.cuda.Stream(...)`,
 * `ExternalStream(...)`; not with made_too false), entered
 * (`torch.cuda.stream(s)`), or waited on or set (`wait_stream`,
 * `set_stream`). 0 when none; else its offset + 1. */
static size_t stream_use(const al_source *src, size_t from, size_t to, bool made_too)
{
    static const char *const USES[] = {".stream(", "wait_stream(", "set_stream(", "Stream(", NULL};
    size_t first = 0;
    for (int i = 0; USES[i]; i++) {
        if (!made_too && !strcmp(USES[i], "Stream("))
            continue;
        size_t at = bytes_find(src, from, to, USES[i]);
        if (at && (!first || at < first))
            first = at;
    }
    return first;
}

/* Whether `torch.cuda.synchronize()` (or `torch.cuda.current_stream().
 * synchronize()`) is in [from, to): the host waits for the fill there. */
static bool synchronized_in(const al_source *src, size_t from, size_t to)
{
    return bytes_find(src, from, to, "synchronize()") != 0;
}

typedef struct {
    const al_pymodule *m;
    const char *name; /* the tensor's name, or NULL: the move is the argument */
    TSNode move;      /* the move call, when it is an argument itself */
    size_t after;
    size_t line;
    char *callee;
} handed_search;

/* Whether arg holds the tensor: its name anywhere in it (`iter(params)`,
 * `[bias]`), or the move itself. */
static bool handed(const al_pyfile *pf, TSNode arg, const handed_search *s)
{
    if (s->name)
        return al_py_count_ident(pf, arg, s->name) > 0;
    return ts_node_start_byte(arg) <= ts_node_start_byte(s->move) &&
           ts_node_end_byte(s->move) <= ts_node_end_byte(arg);
}

/* A call after the move that hands the tensor to a function of the
 * project whose body uses another CUDA stream. */
static al_visit find_stream_callee(TSNode n, void *arg)
{
    handed_search *s = arg;
    const al_pyfile *pf = s->m->pf;
    if (s->line)
        return AL_VISIT_STOP;
    if (!al_node_is(n, "call") || ts_node_end_byte(n) <= s->after)
        return AL_VISIT_INTO;
    TSNode args = al_node_field(n, "arguments");
    bool given = false;
    for (uint32_t i = 0; i < ts_node_named_child_count(args) && !given; i++)
        given = handed(pf, ts_node_named_child(args, i), s);
    if (!given)
        return AL_VISIT_INTO;
    al_def d;
    al_pysite site = {s->m->path, pf, s->m};
    TSNode fn = al_node_field(n, "function");
    if (al_index_resolve(s->m->index, &site, fn, n, &d) && d.pf && d.pf->src &&
        !ts_node_is_null(d.def) &&
        stream_use(d.pf->src, ts_node_start_byte(d.def), ts_node_end_byte(d.def), true)) {
        s->line = ts_node_start_point(n).row + 1;
        s->callee = al_node_text_compact(pf, fn);
        /* Its body, not its callees': those are not followed. */
        return AL_VISIT_STOP;
    }
    return AL_VISIT_INTO;
}

/* Where another CUDA stream may read the moved tensor: a use of one in the
 * function (the file, at module level), or a function of the project the
 * tensor is handed to whose body uses one. `.cuda()` of a pageable tensor
 * made the host wait until the data was on the device, so work queued
 * after it on any stream saw it; the factory with `device=` only queues
 * its fill on the current stream. */
static void find_stream(const al_pymodule *m, TSNode call, move *f)
{
    const al_pyfile *pf = m->pf;
    TSNode fn = al_enclosing_function(call);
    TSNode scope = ts_node_is_null(fn) ? pf->root : fn;
    TSNode loop = ts_node_is_null(fn) ? (TSNode){0} : al_enclosing_loop(fn, call);
    /* A `with torch.cuda.stream(s):` around the move puts its fill on s.
     * After the move (in its loop, anywhere in the loop), until the host
     * waits for the device (`torch.cuda.synchronize()`), any use. */
    size_t start = ts_node_start_byte(ts_node_is_null(loop) ? call : loop);
    size_t end = ts_node_end_byte(call);
    size_t at = 0;
    for (TSNode p = ts_node_parent(call); !ts_node_is_null(p) && !ts_node_eq(p, scope) && !at;
         p = ts_node_parent(p))
        if (al_node_is(p, "with_statement")) {
            TSNode body = al_node_field(p, "body");
            size_t head_end = ts_node_is_null(body) ? ts_node_end_byte(p) : ts_node_start_byte(body);
            at = stream_use(pf->src, ts_node_start_byte(p), head_end, false);
        }
    if (!at) {
        size_t after = stream_use(pf->src, ts_node_is_null(loop) ? end : start,
                                  ts_node_end_byte(scope), true);
        if (after && !(ts_node_is_null(loop) && synchronized_in(pf->src, end, after - 1)))
            at = after;
    }
    if (at) {
        size_t column;
        al_source_position(pf->src, at - 1, &f->stream_line, &column);
        return;
    }
    if (!m->index || ts_node_is_null(fn))
        return;
    handed_search s = {.m = m, .move = call, .after = ts_node_start_byte(call)};
    /* The name the statement binds it to, whole or inside a container
     * (`params = [("w", torch.randn(n).cuda())]`). */
    char *name = NULL;
    for (TSNode e = call, p = ts_node_parent(call); !ts_node_is_null(p);
         e = p, p = ts_node_parent(p)) {
        if (al_node_is(p, "assignment")) {
            if (al_py_node_eq(al_node_field(p, "right"), e) &&
                al_node_is(al_node_field(p, "left"), "identifier"))
                s.name = name = al_node_text(pf, al_node_field(p, "left"));
            break;
        }
        if (al_node_is(p, "expression_statement") || al_node_is(p, "block") ||
            al_node_is(p, "lambda") || al_node_is(p, "call"))
            break;
    }
    al_node_preorder(al_node_field(fn, "body"), find_stream_callee, &s);
    free(name);
    f->stream_line = s.line;
    f->stream_callee = s.callee;
}

/* Whether generator g was made on the move's device: bound once in the
 * function to `torch.Generator(device=D)` (or its first argument D) with D
 * spelled as the move's device. */
static bool generator_on(const al_pymodule *m, TSNode call, TSNode g, const char *device)
{
    const al_pyfile *pf = m->pf;
    TSNode func = al_enclosing_function(call);
    TSNode v = al_node_is(g, "identifier") && !ts_node_is_null(func)
                   ? al_value_single_binding(pf, func, call, g)
                   : g;
    if (ts_node_is_null(v) || !al_node_is(v, "call") ||
        !al_pymodule_resolves_to(m, al_node_field(v, "function"), "torch.Generator") || !device)
        return false;
    al_py_args a;
    al_py_args_read(v, &a);
    TSNode d = al_py_kwarg(pf, &a, "device");
    if (ts_node_is_null(d) && a.npos == 1)
        d = a.pos[0];
    if (ts_node_is_null(d))
        return false;
    char *t = al_node_text_compact(pf, d);
    bool same = !strcmp(t, device);
    free(t);
    return same;
}

static void move_to_device(const al_rule_input *in, TSNode call, al_findings *out)
{
    const al_pymodule *m = in->py;
    const al_pyfile *pf = m->pf;
    TSNode fn = al_node_field(call, "function");
    if (!al_node_is(fn, "attribute"))
        return;
    bool to = al_py_last_name_is(pf, fn, "to"), cuda = al_py_last_name_is(pf, fn, "cuda");
    if (!to && !cuda)
        return;
    TSNode inner = al_py_unparen(al_node_field(fn, "object"));
    bool random = false;
    const char *factory = al_torch_factory(pf, &m->imports, inner, &random);
    /* zeros_like(x) is made where x lives: nothing was on the host. */
    if (!factory || strstr(factory, "_like"))
        return;
    al_py_args ma, fa;
    al_py_args_read(call, &ma);
    al_py_args_read(inner, &fa);
    /* `out=buf`: the factory writes the caller's host buffer, which the
     * move copies; `pin_memory=True` is for host memory, and the factory
     * refuses it with a device. Neither is a host allocation `device=`
     * replaces. */
    TSNode pin = al_py_kwarg(pf, &fa, "pin_memory");
    if (ma.splat || fa.splat || !ts_node_is_null(al_py_kwarg(pf, &fa, "out")) ||
        (!ts_node_is_null(pin) && !al_node_text_eq(pf, pin, "False")))
        return;
    move f;
    memset(&f, 0, sizeof f);
    f.start = ts_node_start_byte(call);
    f.end = ts_node_end_byte(call);
    f.random = random;
    f.insert_at = after_last_argument(al_node_field(inner, "arguments"));
    f.args_empty = fa.npos == 0 && fa.nkw == 0;
    f.has_device = !ts_node_is_null(al_py_kwarg(pf, &fa, "device"));
    TSNode rg = al_py_kwarg(pf, &fa, "requires_grad");
    f.requires_grad = !ts_node_is_null(rg) && !al_node_text_eq(pf, rg, "False");
    TSNode gen = al_py_kwarg(pf, &fa, "generator");
    f.move_start = ts_node_end_byte(inner);
    f.move_end = f.end;
    if (read_move(m, cuda, &ma, &f)) {
        if (f.dtype && !ts_node_is_null(al_py_kwarg(pf, &fa, "dtype"))) {
            free(f.dtype); /* two dtypes: leave it to the reader */
            f.dtype = NULL;
            f.has_device = true;
        }
        f.factory = al_pymodule_resolve(m, al_node_field(inner, "function"));
        f.from_data = f.factory && copies_host_data(f.factory);
        if (!ts_node_is_null(gen) && !al_node_is(gen, "none"))
            f.foreign_generator = !generator_on(m, call, gen, f.device);
        /* torch.tensor(data).to(dev, non_blocking=True) already copies
         * asynchronously; `device=` would copy and wait for the stream. */
        if (f.from_data && f.non_blocking)
            ;
        else if (!f.from_data && value_discarded(pf, call))
            al_rule_decline(in, "AL501", "host-alloc-then-copy", f.start, f.end,
                            "the statement keeps nothing of the tensor: it is made for the copy's "
                            "side effects (the host waits for the device, and a device error "
                            "queued before it is raised here), which `device=` would remove");
        else {
            /* The data of torch.tensor(...) crosses with device= too, and
             * that copy waits as this one does. */
            if (!f.from_data && !f.non_blocking) {
                f.async_line = earlier_async_copy(pf, call, &f.async_in_loop);
                find_stream(m, call, &f);
            }
            report(&f, out);
        }
    }
    free(f.factory), free(f.device), free(f.dtype), free(f.stream_callee);
}

void al_rule_al501(const al_rule_input *in, al_findings *out)
{
    for (size_t i = 0; i < in->py->n_calls; i++)
        move_to_device(in, in->py->calls[i], out);
}
