/* Prints what the analysis core says each function of a Python file does
 * to each of its parameters: Triton kernels through their kernel summary,
 * other functions through the parameter-rooted dataflow. The golden
 * summary tests compare this output with tests/summaries/<case>.txt.
 *
 * Usage: summaries FILE.py */
#include "analysis/buffer.h"
#include "analysis/index.h"
#include "analysis/module.h"
#include "analysis/ops.h"
#include "analysis/triton.h"
#include "python/syntax.h"
#include "source.h"
#include "util.h"

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

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: summaries FILE.py\n");
        return 2;
    }
    al_source src;
    if (al_source_load(&src, argv[1]) != AL_SOURCE_OK) {
        fprintf(stderr, "summaries: %s: cannot read\n", argv[1]);
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
                if (k.params[p].effect != AL_EFFECT_UNUSED)
                    print_effect(name, k.names[p], k.params[p].effect, k.params[p].why);
            al_kernel_free(&k);
        } else {
            al_strlist params = {0};
            al_py_param_names(&pf, def, &params);
            for (size_t p = 0; p < params.n; p++) {
                if (params.items[p][0] == '*' || !strcmp(params.items[p], "self"))
                    continue;
                al_call_effect e;
                al_buffer_param_effect(&env, def, params.items[p], &e);
                if (e.effect != AL_EFFECT_UNUSED) {
                    print_effect(name, params.items[p], e.effect, e.why);
                    if (e.req.kind != AL_REQ_NONE && e.req.param >= 0 &&
                        (size_t)e.req.param < params.n)
                        printf("  requires: %s of `%s`\n",
                               e.req.kind == AL_REQ_NUMEL_IS_VALUE ? "numel equals the value"
                               : e.req.kind == AL_REQ_NUMEL_IS_NUMEL ? "numel equals the numel"
                                                                     : "shape equals the shape",
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
