/* Prints what the analysis core says each function of a file does to each
 * of its parameters, one line per parameter that it touches:
 *
 *   name(param): effect — why
 *     requires: what a caller must prove for writes-all
 *
 * Python: Triton kernels through their kernel summary, other functions
 * through the parameter-rooted dataflow. C++/CUDA: `__global__` kernels
 * and host functions through the token-level summaries. The golden
 * summary tests compare this output with tests/summaries/<case>.txt.
 *
 * Usage: summaries FILE */
#include "analysis/python/buffer.h"
#include "analysis/cxx/summary.h"
#include "analysis/core/index.h"
#include "analysis/python/module.h"
#include "analysis/core/ops.h"
#include "analysis/triton/kernel.h"
#include "front/cxx/cxx.h"
#include "front/python/syntax.h"
#include "base/source.h"
#include "base/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void print_effect(const char *func, const char *param, al_effect e, const char *why)
{
    printf("%s(%s): %s", func, param, al_effect_name(e));
    if (why)
        printf(" — %s", why);
    putchar('\n');
}

static const char *requirement(al_req_kind k)
{
    switch (k) {
    case AL_REQ_NUMEL_IS_VALUE: return "numel equals the value of";
    case AL_REQ_NUMEL_IS_NUMEL: return "numel equals the numel of";
    case AL_REQ_SHAPE_IS_SHAPE: return "shape equals the shape of";
    case AL_REQ_ROWS: return "rows and columns given by";
    case AL_REQ_ROWS_OF: return "first dimension equals a dimension of";
    case AL_REQ_NUMEL_IS_SUM: return "numel equals the sum of the lengths summed into";
    case AL_REQ_SHAPE_DIMS: return "shape equals the extents of";
    case AL_REQ_NONE: break;
    }
    return "";
}

static void kernel_requirement(const al_kernel *k, const al_kparam *p)
{
    if (p->effect != AL_EFFECT_WRITES_ALL || p->n < 0 || (size_t)p->n >= k->n)
        return;
    switch (p->cover) {
    case AL_TCOVER_GRID:
        printf("  requires: numel equals `%s`, and a grid of cdiv(`%s`, %s) programs on axis %d\n",
               k->names[p->n], k->names[p->n],
               p->block >= 0 ? k->names[p->block] : (p->block_text ? p->block_text : "?"),
               p->axis);
        break;
    case AL_TCOVER_LOOP:
        printf("  requires: numel equals `%s`\n", k->names[p->n]);
        break;
    case AL_TCOVER_ROWS:
        printf("  requires: one program per row on axis %d, `%s` columns, rows `%s` apart\n",
               p->axis, k->names[p->n],
               p->stride >= 0 && (size_t)p->stride < k->n ? k->names[p->stride] : "?");
        break;
    case AL_TCOVER_SEGMENT:
        printf("  requires: `%s` the exclusive prefix sum of %s%s%s, one program per segment on "
               "axis %d, numel their sum\n",
               k->names[p->seg_start], p->seg_len >= 0 ? "`" : "",
               p->seg_len >= 0 ? k->names[p->seg_len] : "its own differences",
               p->seg_len >= 0 ? "`" : "", p->axis);
        break;
    case AL_TCOVER_TILES:
        printf("  requires: tiles over");
        for (int i = 0; i < p->ntiles; i++) {
            const al_tile_dim *d = &p->tiles[i];
            printf("%s axis %d%s ", i ? "," : "", d->axis,
                   d->split == 1 ? " (quotient)" : d->split == 2 ? " (remainder)" : "");
            if (d->bound >= 0)
                printf("`%s` in blocks of %s", k->names[d->bound],
                       d->block >= 0 ? k->names[d->block] : (d->block_text ? d->block_text : "?"));
            else
                printf("one per program");
            printf(", stride ");
            for (int j = 0; j < d->nstride; j++)
                printf("%s`%s`", j ? " * " : "",
                       d->stride[j] >= 0 ? k->names[d->stride[j]] : "?");
            if (!d->nstride)
                printf("1");
        }
        putchar('\n');
        break;
    default:
        break;
    }
}

static int python(const char *path)
{
    al_source src;
    if (al_source_load(&src, path) != AL_SOURCE_OK) {
        fprintf(stderr, "summaries: %s: cannot read\n", path);
        return 2;
    }
    al_op_table ops = {0};
    al_ops_error err;
    al_pyfile pf;
    if (!al_ops_load_builtin(&ops, &err) || !al_pyfile_parse(&pf, &src)) {
        fprintf(stderr, "summaries: cannot start\n");
        return 2;
    }
    al_index *ix = al_index_new();
    al_pymodule m;
    al_pymodule_build(&m, &pf, &ops, NULL);
    al_pymodule_use_index(&m, src.path, ix);
    al_file_env env = {src.path, &pf, &m, &ops, ix, 0};
    for (size_t i = 0; i < m.n_functions; i++) {
        TSNode def = m.functions[i];
        char *name = al_node_text(&pf, al_node_field(def, "name"));
        bool kernel = false;
        for (size_t k = 0; k < m.n_kernels; k++)
            kernel |= ts_node_eq(m.kernels[k], def);
        if (kernel) {
            al_kernel k;
            al_triton_summarise(&pf, &m, def, &k);
            for (size_t p = 0; p < k.n; p++)
                if (k.params[p].effect != AL_EFFECT_UNUSED) {
                    print_effect(name, k.names[p], k.params[p].effect, k.params[p].why);
                    kernel_requirement(&k, &k.params[p]);
                }
            al_kernel_free(&k);
        } else {
            al_strlist params = {0};
            al_py_param_names(&pf, def, &params);
            for (size_t p = 0; p < params.n; p++) {
                if (params.items[p][0] == '*' || !strcmp(params.items[p], "self"))
                    continue;
                al_call_effect e;
                al_index_lock(ix);
                al_buffer_param_effect(&env, def, params.items[p], &e);
                al_index_unlock(ix);
                if (e.effect != AL_EFFECT_UNUSED) {
                    print_effect(name, params.items[p], e.effect, e.why);
                    if (e.effect == AL_EFFECT_RETURNS_ALIAS)
                        printf("  returns: %s\n", e.returns_whole ? "a view of every element"
                                                                  : "a view of a part");
                    if (e.req.kind != AL_REQ_NONE && e.req.param >= 0 &&
                        (size_t)e.req.param < params.n)
                        printf("  requires: %s `%s`\n", requirement(e.req.kind),
                               params.items[e.req.param]);
                }
                al_call_effect_free(&e);
            }
            al_strlist_free(&params);
        }
        free(name);
    }
    al_pymodule_free(&m);
    al_index_free(ix);
    al_pyfile_free(&pf);
    al_ops_free(&ops);
    al_source_free(&src);
    return 0;
}

/* The parameter names of a C++ function, from its tokens. */
static size_t cxx_params(const al_cxx_unit *u, const al_cxx_function *fn, char **names, size_t max)
{
    size_t open = 0;
    for (size_t i = fn->first; i + 1 < fn->last; i++)
        if (al_cxx_is(u, i, fn->name) && al_cxx_is(u, i + 1, "(")) {
            open = i + 1;
            break;
        }
    if (!open)
        return 0;
    size_t close = al_cxx_match(u, open), n = 0, last = 0;
    int depth = 0;
    bool in_default = false; /* after `=`: the name came before */
    for (size_t t = open + 1; t <= close && n < max; t++) {
        if (t == close || (depth == 0 && al_cxx_is(u, t, ","))) {
            if (last)
                names[n++] = al_cxx_text(u, last, last + 1);
            last = 0;
            in_default = false;
            continue;
        }
        if (al_cxx_is(u, t, "(") || al_cxx_is(u, t, "<") || al_cxx_is(u, t, "["))
            depth++;
        else if (al_cxx_is(u, t, ")") || al_cxx_is(u, t, ">") || al_cxx_is(u, t, "]"))
            depth--;
        else if (depth == 0 && al_cxx_is(u, t, "="))
            in_default = true;
        else if (u->tokens[t].kind == AL_CXX_IDENT && depth == 0 && !in_default)
            last = t;
    }
    return n;
}

static int cxx(const char *path)
{
    al_source src;
    if (al_source_load(&src, path) != AL_SOURCE_OK) {
        fprintf(stderr, "summaries: %s: cannot read\n", path);
        return 2;
    }
    al_cxx_unit u;
    al_cxx_parse(&src, NULL, 0, &u);
    if (!u.parsed) {
        fprintf(stderr, "summaries: %s: %s\n", path, u.error);
        return 2;
    }
    al_index *ix = al_index_new();
    for (size_t f = 0; f < u.n_functions; f++) {
        char *names[32];
        size_t n = cxx_params(&u, &u.functions[f], names, 32);
        al_cxx_def def = {src.path, &u, f};
        for (size_t p = 0; p < n; p++) {
            al_call_effect e;
            al_cxx_param_effect(ix, &def, (int)p, 0, &e);
            if (e.effect != AL_EFFECT_UNUSED && e.effect != AL_EFFECT_UNKNOWN)
                print_effect(u.functions[f].name, names[p], e.effect, e.why);
            if (e.effect == AL_EFFECT_WRITES_ALL && e.req.kind != AL_REQ_NONE && e.req.param >= 0 &&
                (size_t)e.req.param < n)
                printf("  requires: %s `%s`%s\n", requirement(e.req.kind), names[e.req.param],
                       e.req.grid_covers ? ", and a grid of a thread per element" : "");
            al_call_effect_free(&e);
            free(names[p]);
        }
    }
    al_index_free(ix);
    al_cxx_unit_free(&u);
    al_source_free(&src);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: summaries FILE\n");
        return 2;
    }
    return al_is_cxx_path(argv[1]) ? cxx(argv[1]) : python(argv[1]);
}
