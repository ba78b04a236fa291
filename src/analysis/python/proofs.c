#include "proofs.h"
#include "passed.h"
#include "../../base/util.h"

#include <stdlib.h>

static int compare_buffers(const void *x, const void *y)
{
    uint32_t a = ts_node_start_byte(((const al_buffer *)x)->site.call);
    uint32_t b = ts_node_start_byte(((const al_buffer *)y)->site.call);
    return a < b ? -1 : a > b;
}

static void free_buffers(al_buffers *b)
{
    al_buffers_free(b);
    free(b);
}

const al_buffers *al_proofs_of_module(al_pymodule *m)
{
    if (m->buffers)
        return m->buffers;
    al_buffers *bs = al_xcalloc(1, sizeof *bs);
    m->buffers = bs;
    m->free_buffers = free_buffers;
    al_file_env env = {m->path, m->pf, m, m->ops, m->index, 0};
    for (size_t i = 0; i < m->n_functions; i++) {
        /* Every buffer is made at a fill site (AL_TOK_FILLSITE): a
         * function without one is not analysed. */
        if (m->token_filter && !(al_pymodule_function_tokens(m, i) & AL_TOK_FILLSITE))
            continue;
        al_buffers_analyse_function(bs, &env, m->functions[i]);
        al_passed_factories_analyse(bs, &env, m->functions[i]);
    }
    if (bs->n > 1)
        qsort(bs->items, bs->n, sizeof *bs->items, compare_buffers);
    return bs;
}
