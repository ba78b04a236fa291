#include "kernel.h"

#include "../python/prefix.h"
#include "../python/values.h"
#include "../core/regions.h"
#include "../python/pairs.h"
#include "../../front/python/syntax.h"
#include "../../base/util.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------ */
/* Launches                                                             */

/* The argument node for kernel parameter i, or a null node. */
static TSNode arg_for(const al_pyfile *pf, const al_py_args *a, const al_kernel *k, size_t i)
{
    if ((int)i < a->npos)
        return a->pos[i];
    TSNode v = al_py_kwarg(pf, a, k->names[i]);
    return v;
}

typedef struct {
    const al_pyfile *pf;
    char *name;
    TSNode value; /* the last `name = value` */
    int count;
} assigned;

static al_visit assignment_to(TSNode n, void *arg)
{
    assigned *a = arg;
    if (al_node_is(n, "assignment") && al_node_text_eq(a->pf, al_node_field(n, "left"), a->name)) {
        a->count++;
        a->value = al_node_field(n, "right");
    }
    return AL_VISIT_INTO;
}

/* The element on `axis` of a grid: a tuple or list, a lambda returning
 * one, or a local name bound once to either. */
static TSNode grid_element(const al_pyfile *pf, TSNode grid, int axis, TSNode func, bool *lambda)
{
    *lambda = false;
    grid = al_py_unparen(grid);
    for (int hop = 0; hop < 4 && al_node_is(grid, "identifier") && !ts_node_is_null(func); hop++) {
        /* grid = (...) or grid = lambda meta: (...) earlier in the function */
        assigned a = {.pf = pf, .name = al_node_text(pf, grid)};
        al_node_preorder(al_node_field(func, "body"), assignment_to, &a);
        free(a.name);
        if (a.count != 1)
            return (TSNode){0};
        grid = al_py_unparen(a.value);
    }
    if (al_node_is(grid, "lambda")) {
        *lambda = true;
        grid = al_py_unparen(al_node_field(grid, "body"));
    }
    if (!al_node_is(grid, "tuple") && !al_node_is(grid, "list"))
        return (TSNode){0};
    uint32_t m = ts_node_named_child_count(grid);
    int k = 0;
    for (uint32_t i = 0; i < m; i++) {
        TSNode e = ts_node_named_child(grid, i);
        if (al_node_is(e, "comment"))
            continue;
        if (k++ == axis)
            return e;
    }
    return (TSNode){0};
}

/* Whether `e` is cdiv(N, B): triton.cdiv(N, B), cdiv(N, B) or
 * (N + B - 1) // B, with N and B spelled as `n` and `block` (a lambda's
 * meta["BLOCK"] stands for the parameter `block_param`). */
static bool is_cdiv(const al_pyfile *pf, TSNode func, TSNode call, TSNode e, const char *n,
                    const char *block, const char *block_param)
{
    e = al_py_unparen(e);
    TSNode x = {0}, y = {0};
    if (al_node_is(e, "call") && al_py_last_name_is(pf, al_node_field(e, "function"), "cdiv")) {
        al_py_args a;
        al_py_args_read(e, &a);
        if (a.npos != 2)
            return false;
        x = a.pos[0];
        y = a.pos[1];
    } else if (al_node_is(e, "binary_operator") &&
               al_node_text_eq(pf, al_node_field(e, "operator"), "//")) {
        y = al_node_field(e, "right");
        TSNode l = al_py_unparen(al_node_field(e, "left"));
        char *want = NULL;
        char *yt = al_value_text(pf, func, call, y);
        al_strbuf sb = {0};
        al_strbuf_printf(&sb, "(%s+%s)-1", n, yt);
        want = al_strbuf_detach(&sb);
        char *lt = al_value_text(pf, func, call, l);
        bool ok = !strcmp(lt, want);
        free(want);
        free(lt);
        free(yt);
        if (!ok)
            return false;
        char *bt = al_value_text(pf, func, call, y);
        ok = block && !strcmp(bt, block);
        free(bt);
        return ok;
    } else {
        return false;
    }
    char *xt = al_value_text(pf, func, call, x);
    bool ok = !strcmp(xt, n);
    free(xt);
    if (!ok)
        return false;
    y = al_py_unparen(y);
    if (al_node_is(y, "subscript") && block_param) {
        /* meta["BLOCK"] in a grid lambda */
        TSNode key[1];
        if (al_node_field_children(y, "subscript", key, 1) == 1 && al_node_is(key[0], "string")) {
            char *kt = al_node_text(pf, key[0]);
            size_t kl = strlen(kt);
            ok = kl >= 2 && kl - 2 == strlen(block_param) && !strncmp(kt + 1, block_param, kl - 2);
            free(kt);
            return ok;
        }
    }
    char *yt = al_value_text(pf, func, call, y);
    ok = block && !strcmp(yt, block);
    free(yt);
    return ok;
}

/* Whether the value text t is u followed by `+c` (c a positive number),
 * bare or in parentheses: lengths padded by c. */
static bool padded_by(const char *t, const char *u)
{
    size_t ul = strlen(u);
    if (t[0] == '(' && t[strlen(t) - 1] == ')') {
        char *in = al_xstrndup(t + 1, strlen(t) - 2);
        bool yes = padded_by(in, u);
        free(in);
        return yes;
    }
    if (strncmp(t, u, ul) || t[ul] != '+' || !t[ul + 1])
        return false;
    for (const char *c = t + ul + 1; *c; c++)
        if (*c < '0' || *c > '9')
            return false;
    return atol(t + ul + 1) > 0;
}

/* Segments: the starts must be the exclusive prefix sum of the lengths
 * (the kernel's, or their own differences), over as many programs as
 * there are lengths; then the buffer must hold their sum (AL_REQ_NUMEL_IS_SUM).
 * Sets *why when that is not shown, and WRITES_PART when the starts are
 * proved to leave gaps (a prefix sum of padded lengths). */
static void segments(const al_file_env *caller, TSNode call, const al_kernel *k, const char *kernel,
                     const al_kparam *p, const al_py_args *a, TSNode grid, al_call_effect *out,
                     char **why)
{
    const al_pyfile *pf = caller->pf;
    TSNode func = al_enclosing_function(call);
    TSNode s_arg = al_py_unparen(arg_for(pf, a, k, (size_t)p->seg_start));
    TSNode l_arg = p->seg_len >= 0 ? arg_for(pf, a, k, (size_t)p->seg_len) : (TSNode){0};
    al_strbuf sb = {0};
    /* The starts, passed whole or as their first entries. */
    TSNode base = s_arg;
    if (al_node_is(base, "subscript")) {
        TSNode sub[2];
        TSNode parts[3];
        if (al_node_field_children(base, "subscript", sub, 2) == 1 && al_node_is(sub[0], "slice") &&
            al_py_slice_parts(sub[0], parts) && ts_node_is_null(parts[0]) && ts_node_is_null(parts[2]))
            base = al_py_unparen(al_node_field(base, "value"));
    }
    al_prefix_sum ps;
    char *no = NULL;
    if (!al_prefix_sum_at(caller->mod, func, call, base, &ps, &no)) {
        al_strbuf_printf(&sb, "%s writes the segments that `%s` starts; %s", kernel,
                         k->names[p->seg_start], no);
        free(no);
        *why = al_strbuf_detach(&sb);
        return;
    }
    char *xt = al_value_text(pf, func, ps.sums, ps.sums);
    if (p->seg_len >= 0) {
        char *lt = ts_node_is_null(l_arg) ? al_xstrdup("?") : al_value_text(pf, func, call, l_arg);
        if (padded_by(xt, lt)) {
            out->effect = AL_EFFECT_WRITES_PART;
            al_strbuf_printf(&sb, "%s writes `%s` elements per segment, but the segments start at "
                                  "the prefix sum of `%s` (line %zu): the padding between them "
                                  "keeps its values", kernel, lt, xt, ps.row);
        } else if (strcmp(xt, lt)) {
            al_strbuf_printf(&sb, "%s writes `%s` elements per segment, and alloclint could not "
                                  "prove the segments start at the prefix sum of those (line %zu "
                                  "sums `%s`)", kernel, lt, ps.row, xt);
        }
        free(lt);
        if (sb.len) {
            free(xt);
            *why = al_strbuf_detach(&sb);
            return;
        }
    }
    /* One program per length: the grid is x's length, or n where the
     * starts were made with n + 1 entries. */
    bool lambda;
    TSNode g = grid_element(pf, grid, p->axis, func, &lambda);
    bool grid_ok = false;
    if (!ts_node_is_null(g) && !lambda) {
        char *gt = al_value_text(pf, func, call, g);
        char numel[600];
        snprintf(numel, sizeof numel, "%s.numel()", xt);
        grid_ok = al_value_is_first_dim_of(gt, xt, strlen(xt)) || !strcmp(gt, numel);
        if (!grid_ok && !ts_node_is_null(ps.entries)) {
            char *et = al_value_text(pf, func, ps.entries, ps.entries);
            char want[512];
            snprintf(want, sizeof want, "%s+1", gt);
            grid_ok = !strcmp(et, want);
            free(et);
        }
        free(gt);
    }
    if (!grid_ok) {
        char *gt = ts_node_is_null(grid) ? al_xstrdup("?") : al_node_text_compact(pf, grid);
        al_strbuf_printf(&sb, "%s runs on the grid `%s`, which alloclint could not prove launches "
                              "one program per length of `%s` on axis %d", kernel, gt, xt, p->axis);
        free(gt);
        free(xt);
        *why = al_strbuf_detach(&sb);
        return;
    }
    free(xt);
    out->req = (al_req){.kind = AL_REQ_NUMEL_IS_SUM, .param = -1, .node = ps.sums, .node2 = base,
                        .node3 = g, .node4 = ps.done};
    char *bt = al_node_text_compact(pf, base);
    al_chain_add(&out->chain, caller->path, ps.row,
                 "`%s` is the exclusive prefix sum of the lengths: each segment starts where the "
                 "one before ends", bt);
    free(bt);
}

/* The factors of a value text's top-level product (`M*N` is M and N),
 * appended to out; a factor `1` is dropped. A text with any other
 * operator outside brackets (`4*N//2` is not 4 times `N//2`, `a+b*c` not
 * a product) is one factor. */
static void product_factors(const char *t, al_strlist *out)
{
    size_t cuts[16], ncuts = 0;
    int depth = 0;
    for (const char *c = t; *c; c++) {
        if (*c == '(' || *c == '[')
            depth++;
        else if (*c == ')' || *c == ']')
            depth--;
        else if (depth > 0 || c == t)
            continue;
        else if (*c == '*' && c[1] != '*' && c[-1] != '*' && ncuts < 16)
            cuts[ncuts++] = (size_t)(c - t);
        else if (strchr("+-/%@<>&|^~*", *c))
            ncuts = SIZE_MAX; /* `**`, or another operator: one factor */
        if (ncuts == SIZE_MAX)
            break;
    }
    if (ncuts == SIZE_MAX)
        ncuts = 0;
    size_t start = 0, len = strlen(t);
    for (size_t i = 0; i <= ncuts; i++) {
        size_t end = i < ncuts ? cuts[i] : len;
        if (end - start != 1 || t[start] != '1')
            al_strlist_add(out, al_xstrndup(t + start, end - start));
        start = end + 1;
    }
}

/* Whether two lists of value texts hold the same values, in any order. */
static bool same_factors(const al_strlist *a, const al_strlist *inside)
{
    char *const *b = inside->items;
    size_t nb = inside->n;
    if (a->n != nb)
        return false;
    bool used[16] = {false};
    if (nb > sizeof used / sizeof used[0])
        return false;
    for (size_t i = 0; i < a->n; i++) {
        size_t j = 0;
        while (j < nb && (used[j] || !al_value_text_same(a->items[i], b[j])))
            j++;
        if (j == nb)
            return false;
        used[j] = true;
    }
    return true;
}

/* Tiles: each axis of the grid must count its dimension's tiles (or, an
 * axis split into rows and columns of tiles, their product), and the
 * strides must be the buffer's own: each the product of the extents
 * inside it, or `buf.stride(d)` of the buffer itself. Then the buffer
 * must have the dimensions' extents as its shape (AL_REQ_SHAPE_DIMS). */
static void tiles(const al_file_env *caller, TSNode call, const al_kernel *k, const char *kernel,
                  const al_kparam *p, const al_py_args *a, TSNode grid, TSNode buffer,
                  al_call_effect *out, char **why)
{
    const al_pyfile *pf = caller->pf;
    TSNode func = al_enclosing_function(call);
    int nd = p->ntiles;
    TSNode ext[AL_TILE_DIMS];
    memset(ext, 0, sizeof ext);
    char *ext_text[AL_TILE_DIMS] = {0};
    al_strlist strides[AL_TILE_DIMS] = {{0}};
    int explicit_dim[AL_TILE_DIMS];
    al_strbuf sb = {0};
    char *gt = ts_node_is_null(grid) ? al_xstrdup("?") : al_node_text_compact(pf, grid);
    /* `buf.stride(d)` beside `buf` at this call: the same binding. */
    char *buf_text = al_node_is(al_py_unparen(buffer), "identifier")
                         ? al_node_text_compact(pf, al_py_unparen(buffer))
                         : al_xstrdup("?");
    for (int i = 0; i < nd && !sb.len; i++) {
        const al_tile_dim *d = &p->tiles[i];
        bool lambda;
        TSNode g = grid_element(pf, grid, d->axis, func, &lambda);
        const char *meta = lambda && d->block >= 0 ? k->names[d->block] : NULL;
        ext[i] = d->bound < 0 ? g : arg_for(pf, a, k, (size_t)d->bound);
        if (ts_node_is_null(ext[i])) {
            al_strbuf_printf(&sb, "%s runs on the grid `%s`, which alloclint could not read on "
                                  "axis %d", kernel, gt, d->axis);
            break;
        }
        ext_text[i] = al_value_text(pf, func, call, ext[i]);
        TSNode b_arg = d->block >= 0 ? arg_for(pf, a, k, (size_t)d->block) : (TSNode){0};
        char *bt = !ts_node_is_null(b_arg) ? al_value_text(pf, func, call, b_arg)
                                           : d->block < 0 && d->block_text ? al_xstrdup(d->block_text)
                                                                           : NULL;
        bool counted = true;
        if (d->bound >= 0 && d->split == 0) {
            counted = !ts_node_is_null(g) && is_cdiv(pf, func, call, g, ext_text[i], bt, meta);
        } else if (d->split == 1) {
            /* cdiv(M, BM) * cdiv(N, BN), in either order */
            const al_tile_dim *col = NULL;
            for (int j = 0; j < nd; j++)
                if (p->tiles[j].axis == d->axis && p->tiles[j].split == 2)
                    col = &p->tiles[j];
            TSNode cn = col ? arg_for(pf, a, k, (size_t)col->bound) : (TSNode){0};
            TSNode cb = col && col->block >= 0 ? arg_for(pf, a, k, (size_t)col->block) : (TSNode){0};
            TSNode e = ts_node_is_null(g) ? g : al_py_unparen(g);
            counted = false;
            if (!ts_node_is_null(e) && !ts_node_is_null(cn) && al_node_is(e, "binary_operator") &&
                al_node_text_eq(pf, al_node_field(e, "operator"), "*")) {
                char *ct = al_value_text(pf, func, call, cn);
                char *cbt = ts_node_is_null(cb) ? NULL : al_value_text(pf, func, call, cb);
                const char *cmeta = lambda && col->block >= 0 ? k->names[col->block] : NULL;
                TSNode l = al_node_field(e, "left"), r = al_node_field(e, "right");
                counted = (is_cdiv(pf, func, call, l, ext_text[i], bt, meta) &&
                           is_cdiv(pf, func, call, r, ct, cbt, cmeta)) ||
                          (is_cdiv(pf, func, call, r, ext_text[i], bt, meta) &&
                           is_cdiv(pf, func, call, l, ct, cbt, cmeta));
                free(ct);
                free(cbt);
            }
        }
        if (!counted)
            al_strbuf_printf(&sb, "%s runs on the grid `%s`, which alloclint could not prove "
                                  "launches a program for every tile of `%s` on axis %d",
                             kernel, gt, ext_text[i], d->axis);
        free(bt);
        /* The stride's factors as the caller spells them. */
        explicit_dim[i] = -1;
        for (int j = 0; j < d->nstride && !sb.len; j++) {
            TSNode s_arg = d->stride[j] >= 0 ? arg_for(pf, a, k, (size_t)d->stride[j]) : (TSNode){0};
            if (ts_node_is_null(s_arg)) {
                al_strbuf_printf(&sb, "%s is launched without its strides in plain sight", kernel);
                break;
            }
            char *st = al_value_text(pf, func, call, s_arg);
            for (int dim = -1; dim < nd && d->nstride == 1; dim++) {
                char want[600];
                snprintf(want, sizeof want, "%s.stride(%d)", buf_text, dim);
                if (!strcmp(st, want))
                    explicit_dim[i] = dim < 0 ? nd - 1 : dim;
            }
            if (explicit_dim[i] < 0)
                product_factors(st, &strides[i]);
            free(st);
        }
    }
    /* Innermost first: each stride is the product of the extents inside it. */
    int order[AL_TILE_DIMS] = {0};
    bool placed[AL_TILE_DIMS] = {false};
    al_strlist inside = {0};
    for (int pos = nd - 1; pos >= 0 && !sb.len; pos--) {
        int found = -1;
        for (int i = 0; i < nd && found < 0; i++)
            if (!placed[i] && (explicit_dim[i] == pos ||
                               (explicit_dim[i] < 0 && same_factors(&strides[i], &inside))))
                found = i;
        if (found < 0) {
            al_strbuf_printf(&sb, "%s stores into `%s` with strides alloclint could not prove "
                                  "are those of a buffer of %d dimensions", kernel, buf_text, nd);
            break;
        }
        placed[found] = true;
        order[pos] = found;
        product_factors(ext_text[found], &inside);
    }
    if (!sb.len) {
        TSNode none = {0};
        bool own = false, products = false;
        for (int i = 0; i < nd; i++) {
            own |= explicit_dim[i] >= 0;
            products |= explicit_dim[i] < 0;
        }
        out->req = (al_req){.kind = AL_REQ_SHAPE_DIMS, .param = -1, .dim = nd,
                            .contiguous = own && products, .products = products};
        out->req.node = ext[order[0]];
        out->req.node2 = nd > 1 ? ext[order[1]] : none;
        out->req.node3 = nd > 2 ? ext[order[2]] : none;
        al_strbuf shape = {0};
        for (int pos = 0; pos < nd; pos++) {
            char *t = al_node_text_compact(pf, ext[order[pos]]);
            al_strbuf_printf(&shape, "%s%s", pos ? ", " : "", t);
            free(t);
        }
        if (!shape.data)
            al_strbuf_puts(&shape, "");
        al_chain_add(&out->chain, caller->path, al_node_row(call),
                     "the grid `%s` launches a program for every tile of the shape (%s)", gt,
                     shape.data);
        al_strbuf_free(&shape);
    } else {
        *why = al_strbuf_detach(&sb);
    }
    for (int i = 0; i < nd; i++) {
        free(ext_text[i]);
        al_strlist_free(&strides[i]);
    }
    al_strlist_free(&inside);
    free(gt);
    free(buf_text);
}

/* ------------------------------------------------------------------ */
/* Regions at a launch                                                  */

#define MAX_ORIGINS 12

typedef struct {
    const al_file_env *caller;
    TSNode call, func, grid;
    const al_kernel *k;
    al_py_args args;
    const char *buffer; /* the buffer's argument, an identifier */
    size_t buffer_len;
    int buffer_param;
    const char *keys[MAX_ORIGINS]; /* an index variable: `#k` or a loop's extent template */
    size_t key_lens[MAX_ORIGINS];
    char *texts[MAX_ORIGINS];      /* ... and the caller's extent it runs over */
    int n;
    bool ok;
} launch_subst;

static void origin(launch_subst *s, const char *key, size_t len, const char *marked)
{
    char *text = al_region_canonical(marked);
    for (int i = 0; i < s->n; i++) {
        bool same_key = s->key_lens[i] == len && !memcmp(s->keys[i], key, len);
        /* Two index variables over one extent would be one in the text. */
        if (!same_key && !strcmp(s->texts[i], text))
            s->ok = false;
        if (same_key) {
            free(text);
            return;
        }
    }
    if (s->n == MAX_ORIGINS) {
        s->ok = false;
        free(text);
        return;
    }
    s->keys[s->n] = key;
    s->key_lens[s->n] = len;
    s->texts[s->n++] = text;
}

/* tmpl[0..len) with parameters, program ids and loop extents in the
 * caller's terms, appended to out. */
static void substitute(launch_subst *s, const char *tmpl, size_t len, al_strbuf *out)
{
    const al_pyfile *pf = s->caller->pf;
    for (size_t i = 0; i < len && s->ok;) {
        char c = tmpl[i];
        if (c == '$' || c == '#') {
            size_t j = i + 1;
            while (j < len && isdigit((unsigned char)tmpl[j]))
                j++;
            if (j == i + 1 || j >= len || tmpl[j] != c) {
                al_strbuf_putc(out, c);
                i++;
                continue;
            }
            int num = atoi(tmpl + i + 1);
            TSNode e = {0};
            bool lambda = false;
            if (c == '$' && num < (int)s->k->n)
                e = arg_for(pf, &s->args, s->k, (size_t)num);
            else if (c == '#')
                e = grid_element(pf, s->grid, num, s->func, &lambda);
            char *t = ts_node_is_null(e) || lambda ? NULL
                      : c == '$' && num == s->buffer_param ? al_node_text(pf, e)
                                                            : al_region_value(pf, s->func, s->call, e);
            if (!t || !al_region_stable_text(t)) {
                s->ok = false;
            } else if (c == '$') {
                al_strbuf_puts(out, t);
            } else {
                origin(s, tmpl + i, j + 1 - i, t);
                al_strbuf_printf(out, "@{%s}@", t);
            }
            free(t);
            i = j + 1;
        } else if (c == '@' && i + 1 < len && tmpl[i + 1] == '{') {
            /* A loop's extent: `@{...}@`, perhaps around others. */
            size_t j = i + 2;
            int nest = 1;
            while (j + 1 < len && nest > 0) {
                if (tmpl[j] == '@' && tmpl[j + 1] == '{')
                    nest++, j += 2;
                else if (tmpl[j] == '}' && tmpl[j + 1] == '@')
                    nest--, j += 2;
                else
                    j++;
            }
            if (nest) {
                s->ok = false;
                return;
            }
            al_strbuf inner = {0};
            al_strbuf_puts(&inner, "");
            substitute(s, tmpl + i + 2, j - 2 - (i + 2), &inner);
            if (s->ok) {
                origin(s, tmpl + i + 2, j - 2 - (i + 2), inner.data);
                al_strbuf_printf(out, "@{%s}@", inner.data);
            }
            al_strbuf_free(&inner);
            i = j;
        } else {
            al_strbuf_putc(out, c);
            i++;
        }
    }
}

/* The region of parameter pi at this launch, in the caller's terms; NULL
 * when an argument it names is not a value the caller can be shown to
 * hand both launches alike, or a parameter the kernel writes is handed a
 * name the region reads (an output that may be an input). */
static char *region_at_launch(const al_file_env *caller, TSNode call, const al_kernel *k, int pi)
{
    launch_subst s = {.caller = caller, .call = call, .k = k, .buffer_param = pi, .ok = true};
    s.func = al_enclosing_function(call);
    s.grid = al_node_field(al_node_field(call, "function"), "subscript");
    al_py_args_read(call, &s.args);
    TSNode b = arg_for(caller->pf, &s.args, k, (size_t)pi);
    if (s.args.splat || ts_node_is_null(b) || !al_node_is(b, "identifier"))
        return NULL;
    s.buffer = al_node_ptr(caller->pf, b, &s.buffer_len);
    al_strbuf out = {0};
    al_strbuf_puts(&out, "");
    const char *tmpl = k->params[pi].region;
    substitute(&s, tmpl, strlen(tmpl), &out);
    for (size_t j = 0; j < k->n && s.ok; j++) {
        if ((int)j == pi || !k->params[j].stored)
            continue;
        TSNode w = arg_for(caller->pf, &s.args, k, j);
        if (ts_node_is_null(w))
            continue;
        size_t wl;
        const char *wp = al_node_ptr(caller->pf, w, &wl);
        if (!al_node_is(w, "identifier") || al_region_reads_tensor(out.data, wp, wl) ||
            (wl == s.buffer_len && !memcmp(wp, s.buffer, wl))) {
            s.ok = false;
        }
    }
    for (int i = 0; i < s.n; i++)
        free(s.texts[i]);
    if (!s.ok) {
        al_strbuf_free(&out);
        return NULL;
    }
    return al_strbuf_detach(&out);
}

void al_triton_launch(const al_file_env *caller, TSNode call, const al_kernel *k,
                      const char *kernel, const char *path, int pos, TSNode kw,
                      al_call_effect *out)
{
    const al_pyfile *pf = caller->pf;
    memset(out, 0, sizeof *out);
    out->callee = al_xstrdup(kernel);
    int pi = -1;
    if (pos >= 0) {
        pi = pos < (int)k->n ? pos : -1;
    } else if (!ts_node_is_null(kw)) {
        for (size_t i = 0; i < k->n; i++)
            if (al_node_text_eq(pf, kw, k->names[i]))
                pi = (int)i;
    }
    if (pi < 0) {
        out->effect = AL_EFFECT_UNKNOWN;
        out->why = al_xstrdup("the argument matches no parameter of the kernel");
        return;
    }
    const al_kparam *p = &k->params[pi];
    out->effect = p->effect;
    if (p->why) {
        al_chain_add(&out->chain, path, p->row, "%s %s", kernel, p->why);
        if (p->effect == AL_EFFECT_WRITES_ALL)
            al_chain_mark_store(&out->chain);
        al_strbuf sb = {0};
        al_strbuf_printf(&sb, "%s %s", kernel, p->why);
        out->why = al_strbuf_detach(&sb);
    }
    if (p->region) {
        out->region = region_at_launch(caller, call, k, pi);
        out->region_writes = p->region_writes;
    }
    if (p->effect != AL_EFFECT_WRITES_ALL)
        return;
    TSNode func = al_enclosing_function(call);
    al_py_args a;
    al_py_args_read(call, &a);
    /* Tiles of one index per program on every axis (an unmasked store on a
     * grid of the buffer's shape) have no bound: tiles() reads the grid. */
    TSNode n_arg = p->n >= 0 ? arg_for(pf, &a, k, (size_t)p->n) : (TSNode){0};
    TSNode grid = al_node_field(al_node_field(call, "function"), "subscript");
    char *why = NULL;
    if ((p->n >= 0 || p->cover != AL_TCOVER_TILES) && (ts_node_is_null(n_arg) || a.splat)) {
        al_strbuf sb = {0};
        al_strbuf_printf(&sb, "%s is launched without the bound of its mask in plain sight", kernel);
        why = al_strbuf_detach(&sb);
    } else if (p->cover == AL_TCOVER_GRID) {
        char *nt = al_value_text(pf, func, call, n_arg);
        TSNode b_arg = p->block >= 0 ? arg_for(pf, &a, k, (size_t)p->block) : (TSNode){0};
        char *bt = !ts_node_is_null(b_arg) ? al_value_text(pf, func, call, b_arg)
                                           : (p->block < 0 ? al_xstrdup(p->block_text) : NULL);
        bool lambda;
        TSNode g = grid_element(pf, grid, p->axis, func, &lambda);
        if (ts_node_is_null(g) ||
            !is_cdiv(pf, func, call, g, nt, bt, lambda && p->block >= 0 ? k->names[p->block] : NULL)) {
            char *gt = ts_node_is_null(grid) ? al_xstrdup("?") : al_node_text_compact(pf, grid);
            al_strbuf sb = {0};
            al_strbuf_printf(&sb, "%s runs on the grid `%s`, which alloclint could not prove "
                                  "launches cdiv(%s, %s) programs on axis %d",
                             kernel, gt, nt, bt ? bt : k->names[p->block >= 0 ? p->block : 0],
                             p->axis);
            why = al_strbuf_detach(&sb);
            free(gt);
        }
        free(nt);
        free(bt);
    } else if (p->cover == AL_TCOVER_ROWS) {
        TSNode s_arg = p->stride >= 0 ? arg_for(pf, &a, k, (size_t)p->stride) : (TSNode){0};
        bool lambda;
        TSNode g = grid_element(pf, grid, p->axis, func, &lambda);
        bool cols_ok = p->block_cols < 0;
        if (!cols_ok) {
            TSNode bn = arg_for(pf, &a, k, (size_t)p->block_cols);
            bn = al_py_unparen(bn);
            if (al_node_is(bn, "call") &&
                al_py_last_name_is(pf, al_node_field(bn, "function"), "next_power_of_2")) {
                al_py_args ba;
                al_py_args_read(bn, &ba);
                char *x = ba.npos == 1 ? al_value_text(pf, func, call, ba.pos[0]) : al_xstrdup("");
                char *nt = al_value_text(pf, func, call, n_arg);
                cols_ok = !strcmp(x, nt);
                free(x);
                free(nt);
            }
        }
        if (ts_node_is_null(g) || ts_node_is_null(s_arg) || lambda || !cols_ok) {
            al_strbuf sb = {0};
            al_strbuf_printf(&sb, "%s %s", kernel,
                             !cols_ok ? "covers every column only if its column block is "
                                        "`triton.next_power_of_2` of the column count, which "
                                        "alloclint could not prove"
                                      : "runs one program per row of a grid alloclint could not "
                                        "read");
            why = al_strbuf_detach(&sb);
        } else {
            out->req = (al_req){.kind = AL_REQ_ROWS, .param = -1, .node = g, .node2 = n_arg,
                                .node3 = s_arg};
        }
    } else if (p->cover == AL_TCOVER_TILES) {
        tiles(caller, call, k, kernel, p, &a, grid, arg_for(pf, &a, k, (size_t)pi), out, &why);
        if (!why)
            return;
    } else if (p->cover == AL_TCOVER_SEGMENT) {
        segments(caller, call, k, kernel, p, &a, grid, out, &why);
        if (out->effect == AL_EFFECT_WRITES_PART) {
            al_chain_add(&out->chain, caller->path, al_node_row(call), "%s", why);
            free(out->why);
            out->why = why;
            return;
        }
    }
    if (why) {
        out->effect = AL_EFFECT_WRITES_SOME;
        al_chain_add(&out->chain, caller->path, al_node_row(call), "%s", why);
        free(out->why);
        out->why = why;
        return;
    }
    char *gt = ts_node_is_null(grid) ? al_xstrdup("?") : al_node_text_compact(pf, grid);
    char *nt = al_node_text_compact(pf, n_arg);
    if (p->cover == AL_TCOVER_SEGMENT)
        al_chain_add(&out->chain, caller->path, al_node_row(call),
                     "the grid `%s` launches one program per segment, starting at the exclusive "
                     "prefix sum `%s` of the lengths",
                     gt, nt);
    else if (p->cover == AL_TCOVER_ROWS)
        al_chain_add(&out->chain, caller->path, al_node_row(call),
                     "the grid `%s` launches one program per row, each covering the `%s` columns",
                     gt, nt);
    else
        al_chain_add(&out->chain, caller->path, al_node_row(call),
                     "the grid `%s` launches every program the bound `%s` needs", gt, nt);
    free(gt);
    free(nt);
    if (out->req.kind == AL_REQ_NONE)
        out->req = (al_req){.kind = AL_REQ_NUMEL_IS_VALUE, .param = -1, .node = n_arg};
}
