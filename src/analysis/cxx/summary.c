#include "summary.h"

#include "fn.h"
#include "kernel.h"
#include "values.h"
#include "../../base/util.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_DEPTH 6

static bool is(const al_cxx_unit *u, size_t i, const char *s)
{
    return al_cxx_is(u, i, s);
}

/* ------------------------------------------------------------------ */
/* Host functions                                                       */

static const char *const META[] = {"sizes", "size", "numel", "dim", "options", "dtype",
                                   "scalar_type", "device", "is_contiguous", "stride",
                                   "strides", "defined", "is_cuda", "get_device", "element_size",
                                   "nbytes", "itemsize", "layout", "is_cpu", NULL};
static const char *const FULL[] = {"copy_", "fill_", "zero_", NULL};
static const char *const PTRS[] = {"data_ptr", "mutable_data_ptr", "packed_accessor32",
                                   "packed_accessor64", "accessor", NULL};

static void host_param_effect(al_index *ix, const al_cxx_fn *f, int param, int depth,
                              al_call_effect *out);

/* The launch `k<<<...>>>(args)` in tokens [a, b), and which argument
 * holds token i: the kernel's name token and the argument index. */
static bool launch_holding(const al_cxx_unit *u, size_t a, size_t b, size_t i, size_t *kernel,
                           int *arg, size_t *args_open)
{
    for (size_t k = a + 1; k < b; k++) {
        if (!is(u, k, "<<<") && !(is(u, k, "<<") && is(u, k + 1, "<")))
            continue;
        size_t close = k;
        while (close < b && !is(u, close, ">>>") && !(is(u, close, ">>") && is(u, close + 1, ">")))
            close++;
        size_t open = close + (is(u, close, ">>>") ? 1 : 2);
        if (!is(u, open, "("))
            return false;
        size_t end = al_cxx_match(u, open);
        if (i <= open || i >= end)
            continue;
        int idx = 0, depth = 0;
        for (size_t t = open + 1; t < i; t++) {
            if (is(u, t, "(") || is(u, t, "<") || is(u, t, "[") || is(u, t, "{"))
                depth++;
            else if (is(u, t, ")") || is(u, t, ">") || is(u, t, "]") || is(u, t, "}"))
                depth--;
            else if (depth == 0 && is(u, t, ","))
                idx++;
        }
        *kernel = k - 1;
        *arg = idx;
        *args_open = open;
        return true;
    }
    return false;
}

/* The name of the kernel a launch starts, from token t before its `<<<`:
 * `k`, `ns::k`, `k<T>`, or a local bound once to one of those (`auto
 * kernel = ns::k<scalar_t>; kernel<<<...>>>`). */
static void kernel_name(const al_cxx_fn *f, size_t t, char *out, size_t len)
{
    const al_cxx_unit *u = f->u;
    if (is(u, t, ">") || is(u, t, ">>")) {
        int depth = 0;
        for (; t > f->body; t--) {
            if (is(u, t, ">"))
                depth++;
            else if (is(u, t, ">>"))
                depth += 2;
            else if (is(u, t, "<") && --depth == 0)
                break;
        }
        t--;
    }
    char *v = al_cxx_value(u, f->body, f->end, t, t + 1, t);
    char *angle = strchr(v, '<');
    if (angle)
        *angle = '\0';
    char *colon = strrchr(v, ':');
    snprintf(out, len, "%s", colon ? colon + 1 : v);
    free(v);
}

/* The statement bounds [a, b) around token i within the body. */
static void statement_of(const al_cxx_fn *f, size_t i, size_t *a, size_t *b)
{
    const al_cxx_unit *u = f->u;
    size_t s = i;
    while (s > f->body + 1 && !is(u, s - 1, ";") && !is(u, s - 1, "{") && !is(u, s - 1, "}"))
        s--;
    size_t e = i;
    int depth = 0;
    while (e < f->end) {
        if (is(u, e, "(") || is(u, e, "{") || is(u, e, "["))
            depth++;
        else if (is(u, e, ")") || is(u, e, "}") || is(u, e, "]"))
            depth--;
        if ((depth <= 0 && is(u, e, ";")) || depth < 0)
            break;
        e++;
    }
    *a = s;
    *b = e;
}

/* Whether token i sits in a statement that is not at the top level of
 * the body (under if/for/while/switch or a nested block). */
static bool nested(const al_cxx_fn *f, size_t i)
{
    const al_cxx_unit *u = f->u;
    int depth = 0;
    for (size_t k = f->body + 1; k < i; k++) {
        if (is(u, k, "{"))
            depth++;
        else if (is(u, k, "}"))
            depth--;
    }
    if (depth > 0)
        return true;
    size_t a, b;
    statement_of(f, i, &a, &b);
    return is(u, a, "if") || is(u, a, "for") || is(u, a, "while") || is(u, a, "switch");
}

/* `name(a, b)` computes ceil(a / b): ATen's or libcu++'s `ceil_div`, or a
 * function of the project whose body is `return (a + b - 1) / b;`. */
static bool ceil_div_function(al_index *ix, const char *path, const char *name)
{
    if (!strcmp(name, "at::ceil_div") || !strcmp(name, "cuda::ceil_div") ||
        !strcmp(name, "c10::ceil_div"))
        return true;
    if (strstr(name, "::"))
        return false;
    al_cxx_def d;
    al_cxx_fn cf;
    if (!al_index_cxx_function(ix, path, name, &d) || !al_cxx_fn_find(d.unit, d.path, d.function, &cf))
        return false;
    al_cxx_param ps[4];
    if (al_cxx_fn_params(&cf, ps, 4) != 2)
        return false;
    char want[300];
    const al_cxx_unit *u = cf.u;
    snprintf(want, sizeof want, "{return(%.*s+%.*s-1)/%.*s;}",
             (int)(u->tokens[ps[0].name].end - u->tokens[ps[0].name].start),
             u->src->bytes + u->tokens[ps[0].name].start,
             (int)(u->tokens[ps[1].name].end - u->tokens[ps[1].name].start),
             u->src->bytes + u->tokens[ps[1].name].start,
             (int)(u->tokens[ps[1].name].end - u->tokens[ps[1].name].start),
             u->src->bytes + u->tokens[ps[1].name].start);
    char *body = al_cxx_compact(u, cf.body, cf.end + 1);
    bool ok = !strcmp(body, want);
    free(body);
    return ok;
}

/* Whether the grid text g, with the block text bl, launches at least
 * `bound` threads along x: `(bound + bl - 1) / bl` or a ceil division. */
static bool grid_text_covers(al_index *ix, const char *path, const char *g, const char *bl,
                             const char *bound)
{
    bool digits = *bl != '\0';
    for (const char *p = bl; *p; p++)
        digits &= *p >= '0' && *p <= '9';
    char forms[2][512];
    int nforms = 0;
    snprintf(forms[nforms++], sizeof forms[0], "(%s)", bound);
    if (!al_cxx_needs_parens(bound, true))
        snprintf(forms[nforms++], sizeof forms[0], "%s", bound);
    for (int i = 0; i < nforms; i++) {
        char want[1200];
        snprintf(want, sizeof want, "(%s+%s-1)/%s", forms[i], bl, bl);
        if (!strcmp(g, want))
            return true;
        snprintf(want, sizeof want, "(%s+(%s-1))/%s", forms[i], bl, bl);
        if (!strcmp(g, want))
            return true;
        if (digits && strlen(bl) < 10) {
            snprintf(want, sizeof want, "(%s+%ld)/%s", forms[i], atol(bl) - 1, bl);
            if (!strcmp(g, want))
                return true;
        }
    }
    const char *paren = strchr(g, '(');
    if (!paren || paren == g)
        return false;
    for (const char *p = g; p < paren; p++)
        if (!(*p == ':' || *p == '_' || (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
              (*p >= '0' && *p <= '9')))
            return false;
    char want[1200];
    snprintf(want, sizeof want, "%.*s(%s,%s)", (int)(paren - g), g, bound, bl);
    if (strcmp(g, want))
        return false;
    char *name = al_xstrndup(g, (size_t)(paren - g));
    bool ok = ceil_div_function(ix, path, name);
    free(name);
    return ok;
}

/* Takes what a kernel launched (or a host function called) on line `row`
 * does to the argument, when it is at least as severe as what `out` holds
 * from the function's other uses: the callee, its reason, and the chain
 * through it. */
static void adopt_effect(al_call_effect *out, al_call_effect *inner, const char *callee,
                         bool host_call, const char *path, size_t row)
{
    if (al_effect_severity(inner->effect) < al_effect_severity(out->effect) &&
        out->effect != AL_EFFECT_UNUSED)
        return;
    free(out->callee);
    out->callee = al_xstrdup(callee);
    out->effect = inner->effect;
    free(out->why);
    const char *why = inner->why ? inner->why : al_effect_name(inner->effect);
    al_strbuf sb = {0};
    if (host_call)
        al_strbuf_printf(&sb, "in `%s`, %s", callee, why);
    else
        al_strbuf_printf(&sb, "`%s` %s", callee, why);
    out->why = al_strbuf_detach(&sb);
    al_chain_free(&out->chain);
    if (host_call)
        al_chain_add(&out->chain, path, row, "calls `%s`", callee);
    else
        al_chain_add(&out->chain, path, row, "launches the CUDA kernel `%s`", callee);
    al_chain_append(&out->chain, &inner->chain);
}

/* A kernel that writes elements [0, n) of the pointer, launched at token
 * `kernel` with its arguments at `args_open`: proved to write the whole
 * buffer when the launch passes the buffer's element count as n (and,
 * when one thread stores one element, its grid covers n); otherwise the
 * effect drops to WRITES_SOME with the reason. The element count may be
 * truncated by an `int` bound; a kernel that indexes with `int` already
 * leaves elements past 2^31 unwritten with or without the fill. */
static void prove_bound(al_index *ix, const al_cxx_fn *f, size_t kernel, size_t args_open,
                        size_t pname, const al_cxx_numel *numel, al_call_effect *ke)
{
    const al_cxx_unit *u = f->u;
    size_t row = al_cxx_row(u, u->tokens[kernel].start);
    size_t a, b;
    char *bound = NULL, *shown = NULL;
    if (al_cxx_list_item(u, args_open, al_cxx_match(u, args_open), ke->req.param, &a, &b)) {
        bound = al_cxx_value(f->u, f->body, f->end, a, b, kernel);
        shown = al_cxx_compact(u, a, b);
    }
    char own[256];
    snprintf(own, sizeof own, "%.*s.numel()", (int)(u->tokens[pname].end - u->tokens[pname].start),
             u->src->bytes + u->tokens[pname].start);
    char *count = al_cxx_numel_text(f->u, f->body, f->end, numel, kernel);
    al_strbuf why = {0};
    bool proved = bound && (!strcmp(bound, own) || (count && !strcmp(bound, count)));
    if (!proved) {
        al_strbuf_printf(&why, "stores elements [0, `%s`)", shown ? shown : "?");
        if (bound && shown && strcmp(bound, shown))
            al_strbuf_printf(&why, " with `%s` = `%s`", shown, bound);
        al_strbuf_printf(&why, ", which alloclint could not prove equals the buffer's element "
                               "count `%s`",
                         count ? count : own);
    }
    size_t ga, gb, ba, bb;
    char *g = NULL, *bl = NULL;
    if (proved && ke->req.grid_covers) {
        proved = al_cxx_launch_config(u, kernel, &ga, &gb, &ba, &bb);
        if (proved) {
            g = al_cxx_value(f->u, f->body, f->end, ga, gb, kernel);
            bl = al_cxx_value(f->u, f->body, f->end, ba, bb, kernel);
            proved = grid_text_covers(ix, f->path, g, bl, bound);
        }
        if (!proved) {
            char *gs = proved || !g ? NULL : al_cxx_compact(u, ga, bb);
            al_strbuf_printf(&why, "stores one element per thread, and the launch `<<<%s>>>` may "
                                   "start fewer than `%s` threads",
                             gs ? gs : "?", shown);
            free(gs);
        }
    }
    if (proved) {
        al_chain_add(&ke->chain, f->path, row, "the launch passes `%s`%s%s%s, the buffer's element count%s",
                     shown, strcmp(bound, shown) ? " = `" : "", strcmp(bound, shown) ? bound : "",
                     strcmp(bound, shown) ? "`" : "",
                     ke->req.grid_covers ? ", and its grid starts a thread for each element" : "");
    } else {
        ke->effect = AL_EFFECT_WRITES_SOME;
        free(ke->why);
        ke->why = al_strbuf_detach(&why);
    }
    al_strbuf_free(&why);
    ke->req.kind = AL_REQ_NONE;
    free(bound);
    free(shown);
    free(count);
    free(g);
    free(bl);
}

static void pointer_use(al_index *ix, const al_cxx_fn *f, size_t i, size_t pname,
                        const al_cxx_numel *numel, int depth, al_call_effect *out)
{
    const al_cxx_unit *u = f->u;
    size_t row = al_cxx_row(u, u->tokens[i].start);
    size_t a, b, kernel, args_open;
    int arg;
    statement_of(f, i, &a, &b);
    if (!launch_holding(u, a, b, i, &kernel, &arg, &args_open)) {
        al_effect_set(out, AL_EFFECT_ESCAPES, f->path, row,
            "hands its data pointer to a call alloclint does not follow");
        return;
    }
    char kname[128];
    kernel_name(f, kernel, kname, sizeof kname);
    al_cxx_def kd;
    if (depth >= MAX_DEPTH || !al_index_cxx_function(ix, f->path, kname, &kd)) {
        al_effect_set(out, AL_EFFECT_ESCAPES, f->path, row, "launches `%s`, whose body was not found", kname);
        return;
    }
    al_cxx_fn kf;
    al_call_effect ke;
    memset(&ke, 0, sizeof ke);
    if (!al_cxx_fn_find(kd.unit, kd.path, kd.function, &kf)) {
        al_effect_set(out, AL_EFFECT_ESCAPES, f->path, row, "launches `%s`, whose body was not read", kname);
        return;
    }
    al_cxx_kernel_param_effect(&kf, arg, &ke);
    if (ke.effect == AL_EFFECT_WRITES_ALL && ke.req.kind == AL_REQ_NUMEL_IS_VALUE)
        prove_bound(ix, f, kernel, args_open, pname, numel, &ke);
    adopt_effect(out, &ke, kname, false, f->path, row);
    al_call_effect_free(&ke);
}

/* Calls that look at a tensor's metadata, not its elements: `device_of`
 * for a device guard, and the CHECK_* / TORCH_CHECK_* macros extensions
 * define for shapes, devices and contiguity. */
static bool metadata_call(const char *name)
{
    static const char *const names[] = {"device_of", "TORCH_CHECK", "TORCH_INTERNAL_ASSERT",
                                        "AT_ASSERT", NULL};
    if (al_str_in_list(names, name, strlen(name)))
        return true;
    const char *p = al_str_starts_with(name, "TORCH_") ? name + 6 : name;
    if (strncmp(p, "CHECK", 5))
        return false;
    for (p += 5; *p; p++)
        if (!(*p == '_' || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9')))
            return false;
    return true;
}

/* The `(` of the innermost call around token i, or 0. */
static size_t call_around(const al_cxx_fn *f, size_t i)
{
    const al_cxx_unit *u = f->u;
    int d = 0;
    for (size_t k = i; k > f->body; k--) {
        if (is(u, k, ")"))
            d++;
        else if (is(u, k, "(")) {
            if (d == 0)
                return k;
            d--;
        } else if (is(u, k, ";") || is(u, k, "{")) {
            break;
        }
    }
    return 0;
}

/* `fn(..., t, ...)` with fn a function of the project: its summary. */
static void argument_use(al_index *ix, const al_cxx_fn *f, size_t i, int depth, al_call_effect *out)
{
    const al_cxx_unit *u = f->u;
    size_t row = al_cxx_row(u, u->tokens[i].start);
    size_t open = call_around(f, i);
    if (!open || u->tokens[open - 1].kind != AL_CXX_IDENT) {
        al_effect_set(out, AL_EFFECT_READS, f->path, row, "uses it in an expression");
        return;
    }
    int arg = 0, d = 0;
    for (size_t t = open + 1; t < i; t++) {
        if (is(u, t, "(") || is(u, t, "<") || is(u, t, "[") || is(u, t, "{"))
            d++;
        else if (is(u, t, ")") || is(u, t, ">") || is(u, t, "]") || is(u, t, "}"))
            d--;
        else if (d == 0 && is(u, t, ","))
            arg++;
    }
    char name[128];
    snprintf(name, sizeof name, "%.*s", (int)(u->tokens[open - 1].end - u->tokens[open - 1].start),
             u->src->bytes + u->tokens[open - 1].start);
    size_t nl = strlen(name);
    /* Checks and device guards read only the tensor's metadata. */
    if (metadata_call(name)) {
        al_effect_set(out, AL_EFFECT_UNUSED, f->path, row, "checks it");
        return;
    }
    /* at::mm_out(out, a, b) and friends write their first argument. */
    if (nl > 4 && !strcmp(name + nl - 4, "_out") && arg == 0 && open >= 3 && is(u, open - 2, "::")) {
        al_effect_set(out, nested(f, i) ? AL_EFFECT_WRITES_SOME : AL_EFFECT_WRITES_ALL, f->path, row,
            "writes it with `%s`", name);
        return;
    }
    al_cxx_def cd;
    al_cxx_fn cf;
    if (depth >= MAX_DEPTH || !al_index_cxx_function(ix, f->path, name, &cd) ||
        !al_cxx_fn_find(cd.unit, cd.path, cd.function, &cf)) {
        al_effect_set(out, AL_EFFECT_ESCAPES, f->path, row, "hands it to `%s`, which alloclint does not follow",
            name);
        return;
    }
    al_call_effect ce;
    memset(&ce, 0, sizeof ce);
    host_param_effect(ix, &cf, arg, depth + 1, &ce);
    if (ce.effect == AL_EFFECT_WRITES_ALL && nested(f, i))
        ce.effect = AL_EFFECT_WRITES_SOME;
    adopt_effect(out, &ce, name, true, f->path, row);
    al_call_effect_free(&ce);
}

/* Whether the use at token i looks at the tensor's metadata only:
 * `t.sizes()`, `t.numel()`, `CHECK_INPUT(t)`, `TORCH_CHECK(t.is_cuda())`. */
static bool metadata_use(const al_cxx_fn *f, size_t i)
{
    const al_cxx_unit *u = f->u;
    if (is(u, i + 1, ".") && i + 3 < f->end && al_cxx_word_in(u, i + 2, META))
        return true;
    size_t open = call_around(f, i);
    if (!open || u->tokens[open - 1].kind != AL_CXX_IDENT || is(u, i + 1, "."))
        return false;
    char name[128];
    snprintf(name, sizeof name, "%.*s", (int)(u->tokens[open - 1].end - u->tokens[open - 1].start),
             u->src->bytes + u->tokens[open - 1].start);
    return metadata_call(name);
}

/* Whether the parameter's first use that is not metadata is a whole fill
 * (`t.zero_();`, `fill_`, `copy_`) standing as a statement of its own in
 * a braced block, with every other use after it in that block. Each run
 * of the block then overwrites the tensor before anything else touches
 * it, and a path that skips the block never touches it: the values it
 * was given are never read. A `case` label of the block or a `goto` in
 * the function could enter the block past the fill: refused. *fill is
 * the fill's name token (`t`). */
static bool filled_first_in_block(const al_cxx_fn *f, size_t name, size_t *fill)
{
    const al_cxx_unit *u = f->u;
    size_t first = 0;
    for (size_t i = f->body + 1; i < f->end; i++) {
        if (is(u, i, "goto"))
            return false;
        if (!first && al_cxx_fn_is_use(f, i, name) && !metadata_use(f, i))
            first = i;
    }
    if (!first || !is(u, first + 1, ".") || !al_cxx_word_in(u, first + 2, FULL) ||
        !is(u, first + 3, "("))
        return false;
    size_t a, b;
    statement_of(f, first, &a, &b);
    if (a != first || al_cxx_match(u, first + 3) + 1 != b || !is(u, b, ";"))
        return false;
    /* The innermost `{` around the fill. */
    size_t open = 0;
    int depth = 0;
    for (size_t k = first; k > f->body; k--) {
        if (is(u, k, "}"))
            depth++;
        else if (is(u, k, "{") && depth-- == 0) {
            open = k;
            break;
        }
    }
    if (!open)
        return false;
    size_t close = al_cxx_match(u, open);
    depth = 0;
    for (size_t k = open + 1; k < close; k++) {
        if (is(u, k, "{"))
            depth++;
        else if (is(u, k, "}"))
            depth--;
        else if (depth == 0 && (is(u, k, "case") || is(u, k, "default")))
            return false;
    }
    for (size_t i = f->body + 1; i < f->end; i++)
        if (i != first && al_cxx_fn_is_use(f, i, name) && !metadata_use(f, i) &&
            (i < first || i > close))
            return false;
    *fill = first;
    return true;
}

/* Whether a macro of the project names the parameter at token `name`: it
 * may then use it where the body does not show it. */
static bool named_by_macro(al_index *ix, const al_cxx_fn *f, size_t name)
{
    const al_cxx_unit *u = f->u;
    char word[128];
    snprintf(word, sizeof word, "%.*s", (int)(u->tokens[name].end - u->tokens[name].start),
             u->src->bytes + u->tokens[name].start);
    return al_index_macro_names(ix, f->path, word);
}

static void host_param_effect(al_index *ix, const al_cxx_fn *f, int param, int depth,
                              al_call_effect *out)
{
    const al_cxx_unit *u = f->u;
    al_cxx_param ps[64];
    size_t np = al_cxx_fn_params_for(f, param, ps, 64, out);
    if (np == 0)
        return;
    /* A `__global__` function is a kernel: its parameters are pointers. */
    bool global = false;
    for (size_t k = f->first; k < f->name; k++)
        global |= is(u, k, "__global__");
    if (global) {
        al_cxx_kernel_param_effect(f, param, out);
        return;
    }
    size_t name = ps[param].name;
    /* The values it was given are never read: all uses follow a whole
     * fill, or there are none. */
    size_t fill;
    if (filled_first_in_block(f, name, &fill) && nested(f, fill) && !named_by_macro(ix, f, name)) {
        al_effect_set(out, AL_EFFECT_UNREAD, f->path, al_cxx_row(u, u->tokens[fill].start),
                      "overwrites it with `%.*s` before any other use, in a block that may not "
                      "run: never reads the values it was given",
                      (int)(u->tokens[fill + 2].end - u->tokens[fill + 2].start),
                      u->src->bytes + u->tokens[fill + 2].start);
        al_chain_mark_store(&out->chain);
        return;
    }
    bool first = true;
    for (size_t i = f->body + 1; i < f->end; i++) {
        if (!al_cxx_fn_is_use(f, i, name))
            continue;
        size_t row = al_cxx_row(u, u->tokens[i].start);
        if (is(u, i + 1, ".") && i + 3 < f->end) {
            size_t m = i + 2;
            if (al_cxx_word_in(u, m, META))
                continue;
            if (al_cxx_word_in(u, m, FULL)) {
                if (first && !nested(f, i)) {
                    al_effect_set(out, AL_EFFECT_WRITES_ALL, f->path, row, "overwrites it with `%.*s`",
                        (int)(u->tokens[m].end - u->tokens[m].start), u->src->bytes + u->tokens[m].start);
                    return;
                }
                al_effect_set(out, AL_EFFECT_WRITES_SOME, f->path, row, "fills it under a condition");
            } else if (al_cxx_word_in(u, m, PTRS)) {
                pointer_use(ix, f, i, name, NULL, depth, out);
            } else if (is(u, m, "slice") || is(u, m, "narrow") || is(u, m, "select") ||
                       is(u, m, "index") || is(u, m, "view")) {
                al_effect_set(out, AL_EFFECT_UNKNOWN, f->path, row, "takes a view of it");
            } else {
                const al_cxx_token *t = &u->tokens[m];
                bool inplace = t->end - t->start > 1 && u->src->bytes[t->end - 1] == '_';
                al_effect_set(out, inplace ? AL_EFFECT_ACCUMULATES : AL_EFFECT_READS, f->path, row,
                    "calls `%.*s` on it", (int)(t->end - t->start), u->src->bytes + t->start);
            }
        } else if (is(u, i - 1, "return")) {
            al_effect_set(out, AL_EFFECT_ESCAPES, f->path, row, "returns it");
        } else if (is(u, i + 1, "=") && !is(u, i + 2, "=")) {
            al_effect_set(out, AL_EFFECT_UNKNOWN, f->path, row, "assigns another tensor to it");
            return;
        } else {
            argument_use(ix, f, i, depth, out);
        }
        first = false;
    }
    if (out->effect == AL_EFFECT_UNUSED && !out->why && !named_by_macro(ix, f, name))
        al_effect_set(out, AL_EFFECT_UNREAD, f->path, al_cxx_row(u, u->tokens[name].start),
                      "never uses it");
}

static void param_effect(al_index *ix, const al_cxx_def *def, int param, int depth,
                         al_call_effect *out)
{
    memset(out, 0, sizeof *out);
    al_cxx_fn f;
    const al_cxx_function *fn = &def->unit->functions[def->function];
    al_strbuf who = {0};
    al_strbuf_printf(&who, "the C++ function `%s`", fn->name);
    if (!al_cxx_fn_find(def->unit, def->path, def->function, &f)) {
        out->callee = al_strbuf_detach(&who);
        out->effect = AL_EFFECT_UNKNOWN;
        out->why = al_xstrdup("its body could not be read");
        return;
    }
    host_param_effect(ix, &f, param, depth, out);
    free(out->callee);
    out->callee = al_strbuf_detach(&who);
    if (out->why) {
        al_strbuf sb = {0};
        al_strbuf_printf(&sb, "in `%s`, %s", fn->name, out->why);
        free(out->why);
        out->why = al_strbuf_detach(&sb);
    }
    /* The function's own link first. */
    al_chain tail = out->chain;
    memset(&out->chain, 0, sizeof out->chain);
    al_chain_add(&out->chain, def->path, al_cxx_row(def->unit, def->unit->tokens[f.name].start),
                 "%s", out->why ? out->why : al_effect_name(out->effect));
    al_chain_append(&out->chain, &tail);
    al_chain_free(&tail);
}

static void use_effect(al_index *ix, const al_cxx_unit *u, const char *path, size_t body,
                       size_t i, bool pointer, const al_cxx_numel *numel, al_call_effect *out)
{
    memset(out, 0, sizeof *out);
    al_cxx_fn f;
    memset(&f, 0, sizeof f);
    f.u = u;
    f.path = path;
    f.body = body;
    f.end = al_cxx_match(u, body);
    f.first = f.name = body;
    if (pointer)
        pointer_use(ix, &f, i, i, numel, 0, out);
    else
        argument_use(ix, &f, i, 0, out);
    if (!out->callee)
        out->callee = al_xstrdup(pointer ? "the kernel launch" : "the call");
}

/* One summary at a time over the shared index (see al_callee_effect). */
void al_cxx_param_effect(al_index *ix, const al_cxx_def *def, int param, int depth,
                         al_call_effect *out)
{
    al_index_lock(ix);
    param_effect(ix, def, param, depth, out);
    al_index_unlock(ix);
}

void al_cxx_use_effect(al_index *ix, const al_cxx_unit *u, const char *path, size_t body,
                       size_t i, bool pointer, const al_cxx_numel *numel, al_call_effect *out)
{
    al_index_lock(ix);
    use_effect(ix, u, path, body, i, pointer, numel, out);
    al_index_unlock(ix);
}
