#include "cachekey.h"

#include "../front/cxx/compdb.h"
#include "../base/paths.h"
#include "../rules/rules.h"
#include "../base/util.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

uint64_t al_cachekey_ops(const al_op_table *ops)
{
    al_strbuf k = {0};
    for (size_t i = 0; ops && i < ops->n; i++) {
        const al_op_summary *op = &ops->items[i];
        al_strbuf_printf(&k, "|%s,%s,%d,%d,%s,%d,%d,%s,%s,%d", op->name,
                         op->out_keyword ? op->out_keyword : "", op->out_position, op->full_write,
                         op->origin ? op->origin : "", op->library, (int)op->writes,
                         op->params ? op->params : "", op->rows_param ? op->rows_param : "",
                         op->rows_dim);
    }
    for (size_t i = 0; ops && i < ops->n_results; i++) {
        const al_op_result *r = &ops->results[i];
        al_strbuf_printf(&k, "|r%s,%d,%d,%s", r->name, (int)r->returns, r->library,
                         r->origin ? r->origin : "");
    }
    uint64_t h = al_cache_hash(k.data ? k.data : "", k.len, 4);
    al_strbuf_free(&k);
    return h;
}

uint64_t al_cachekey_options(const al_lint_options *lo, const char *path,
                             const al_op_table **memo_ops, uint64_t *memo_hash)
{
    if (lo->ops != *memo_ops) {
        *memo_ops = lo->ops;
        *memo_hash = al_cachekey_ops(lo->ops);
    }
    /* Asked for every file: bytes appended, no formatting. */
    char enabled[AL_MAX_RULES];
    for (size_t i = 0; i < al_rules_count; i++)
        enabled[i] = lo->enabled[i] ? '1' : '0';
    al_strbuf k = {0};
    al_strbuf_append(&k, enabled, al_rules_count);
    al_strbuf_append(&k, "|", 1);
    al_strbuf_append(&k, (const char *)memo_hash, sizeof *memo_hash);
    al_strbuf_append(&k, lo->inference ? "|i1" : "|i0", 3);
    if (al_is_cxx_path(path)) {
        for (int i = 0; i < lo->n_cxx_args; i++)
            al_strbuf_printf(&k, "|a:%s", lo->cxx_args[i]);
        const al_compdb_entry *e = al_compdb_find(lo->compdb, path);
        for (size_t i = 0; e && i < e->n_args; i++)
            al_strbuf_printf(&k, "|c:%s", e->args[i]);
    }
    uint64_t h = al_cache_hash(k.data, k.len, 1);
    al_strbuf_free(&k);
    return h;
}

typedef struct {
    const char *path;
    size_t i;
} listed_path;

static int compare_listed(const void *a, const void *b)
{
    return strcmp(((const listed_path *)a)->path, ((const listed_path *)b)->path);
}

/* Whether every file the index read in the cache's run still has the
 * bytes it had then. A file of this run's list was hashed a moment ago
 * (`h`); only the others are read again. The index names files by
 * absolute path, the list as given: a relative one is joined to the
 * current folder to match (a miss is only read again). */
bool al_cachekey_deps_unchanged(const al_cache *c, const al_file_list *files,
                                const al_file_hash *h)
{
    size_t n;
    const al_cache_dep *deps = al_cache_deps(c, &n);
    listed_path *listed = al_xcalloc(files->n ? files->n : 1, sizeof *listed);
    char cwd[4096];
    bool have_cwd = getcwd(cwd, sizeof cwd) != NULL;
    for (size_t i = 0; i < files->n; i++) {
        const char *p = files->paths[i];
        listed[i] = (listed_path){
            p[0] == '/' || !have_cwd ? al_xstrdup(p) : al_path_join(cwd, p), i};
    }
    qsort(listed, files->n, sizeof *listed, compare_listed);
    char **rest = al_xcalloc(n ? n : 1, sizeof *rest);
    uint64_t *rest_hash = al_xcalloc(n ? n : 1, sizeof *rest_hash);
    size_t n_rest = 0;
    bool same = true;
    for (size_t i = 0; i < n && same; i++) {
        listed_path key = {deps[i].path, 0};
        const listed_path *hit = bsearch(&key, listed, files->n, sizeof *listed, compare_listed);
        if (hit) {
            same = h[hit->i].ok && h[hit->i].hash == deps[i].hash;
        } else {
            rest[n_rest] = deps[i].path;
            rest_hash[n_rest++] = deps[i].hash;
        }
    }
    al_file_hash *rh = al_xcalloc(n_rest ? n_rest : 1, sizeof *rh);
    if (same)
        al_hash_files(rest, n_rest, 0, NULL, NULL, false, rh);
    for (size_t i = 0; i < n_rest && same; i++)
        same = rh[i].ok && rh[i].hash == rest_hash[i];
    free(rh);
    free(rest_hash);
    free(rest);
    for (size_t i = 0; i < files->n; i++)
        free((char *)listed[i].path);
    free(listed);
    return same;
}

/* The run's files, each with its content hash and size. */
uint64_t al_cachekey_project(const al_file_list *files, const al_file_hash *h)
{
    al_strbuf fp = {0};
    for (size_t i = 0; i < files->n; i++) {
        uint64_t sum[2] = {h[i].hash, h[i].len};
        al_strbuf_append(&fp, files->paths[i], strlen(files->paths[i]) + 1);
        al_strbuf_append(&fp, (const char *)sum, sizeof sum);
    }
    uint64_t f = al_cache_hash(fp.data ? fp.data : "", fp.len, 3);
    al_strbuf_free(&fp);
    return f;
}
