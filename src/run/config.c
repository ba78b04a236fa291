#include "config.h"

#include "../analysis/core/memo.h"
#include "../base/source.h"
#include "../base/toml.h"
#include "../base/util.h"

#include <fnmatch.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static bool fail(al_config_error *err, const char *path, TSNode at, const char *key,
                 const char *what)
{
    snprintf(err->message, sizeof err->message, "%s:%zu: `%s`: %s", path, al_toml_row(at), key,
             what);
    return false;
}

static bool read_strings(const al_toml *doc, TSNode value, al_strlist *out, const char *path,
                         const char *key, al_config_error *err)
{
    TSNode bad;
    if (!al_toml_strings(doc, value, out, &bad))
        return fail(err, path, bad, key, "expected an array of strings");
    return true;
}

static bool read_pfi(al_config *cfg, const al_toml *doc, TSNode pairs_owner, const char *path,
                     al_config_error *err)
{
    uint32_t k = ts_node_named_child_count(pairs_owner);
    for (uint32_t i = 0; i < k; i++) {
        TSNode p = ts_node_named_child(pairs_owner, i);
        if (!al_toml_is(p, "pair"))
            continue;
        TSNode key = ts_node_named_child(p, 0), value = ts_node_named_child(p, 1);
        al_per_file_ignore e = {al_toml_key(doc, key), {0}};
        AL_PUSH(cfg->pfi, cfg->n_pfi, cfg->cap_pfi, e);
        if (!read_strings(doc, value, &cfg->pfi[cfg->n_pfi - 1].codes, path, "per-file-ignores",
                          err))
            return false;
    }
    return true;
}

static bool read_bool(const al_toml *doc, TSNode value, const char *path, const char *key,
                      al_config_error *err, bool *out)
{
    if (!al_toml_is(value, "boolean"))
        return fail(err, path, value, key, "expected true or false");
    char *v = al_toml_text(doc, value);
    *out = !strcmp(v, "true");
    free(v);
    return true;
}

/* The pairs of one table: [tool.alloclint] or alloclint.toml's top level. */
static bool read_pair(al_config *cfg, const al_toml *doc, TSNode pair, const char *path,
                      al_config_error *err)
{
    TSNode key = ts_node_named_child(pair, 0), value = ts_node_named_child(pair, 1);
    char *k = al_toml_key(doc, key);
    bool ok = true;
    if (!strcmp(k, "select")) {
        cfg->has_select = true;
        ok = read_strings(doc, value, &cfg->select, path, k, err);
    } else if (!strcmp(k, "extend-select")) {
        ok = read_strings(doc, value, &cfg->extend_select, path, k, err);
    } else if (!strcmp(k, "ignore")) {
        ok = read_strings(doc, value, &cfg->ignore, path, k, err);
    } else if (!strcmp(k, "exclude")) {
        ok = read_strings(doc, value, &cfg->exclude, path, k, err);
    } else if (!strcmp(k, "extend-exclude")) {
        ok = read_strings(doc, value, &cfg->extend_exclude, path, k, err);
    } else if (!strcmp(k, "unsafe-fixes")) {
        bool v;
        if ((ok = read_bool(doc, value, path, k, err, &v)))
            cfg->unsafe_fixes = v;
    } else if (!strcmp(k, "inference")) {
        ok = read_bool(doc, value, path, k, err, &cfg->inference);
    } else if (!strcmp(k, "per-file-ignores")) {
        if (al_toml_is(value, "inline_table"))
            ok = read_pfi(cfg, doc, value, path, err);
        else
            ok = fail(err, path, value, k, "expected a table of glob = [codes]");
    } else {
        ok = fail(err, path, key, k, "unknown key (expected select, extend-select, ignore, "
                                     "per-file-ignores, exclude, extend-exclude, unsafe-fixes, inference, ops)");
    }
    free(k);
    return ok;
}

bool al_config_parse(al_config *cfg, const char *path, const char *text, size_t len,
                     bool pyproject, bool *found, al_config_error *err)
{
    memset(cfg, 0, sizeof *cfg);
    cfg->unsafe_fixes = -1;
    cfg->path = al_xstrdup(path);
    const char *slash = strrchr(path, '/');
    cfg->dir = slash ? al_xstrndup(path, (size_t)(slash - path)) : al_xstrdup(".");
    *found = !pyproject;
    al_ops_error operr;
    if (!al_ops_load_builtin(&cfg->ops, &operr)) {
        snprintf(err->message, sizeof err->message, "%s", operr.message);
        return false;
    }
    al_toml doc;
    TSNode bad = {0};
    if (!al_toml_parse(&doc, text, len, &bad)) {
        snprintf(err->message, sizeof err->message, "%s:%zu: %s", path,
                 ts_node_is_null(bad) ? (size_t)1 : al_toml_row(bad),
                 doc.error[0] ? doc.error : "cannot parse");
        al_toml_free(&doc);
        return false;
    }
    const char *prefix = pyproject ? "tool.alloclint" : "";
    bool ok = true;
    uint32_t k = ts_node_named_child_count(doc.root);
    for (uint32_t i = 0; i < k && ok; i++) {
        TSNode c = ts_node_named_child(doc.root, i);
        if (!pyproject && al_toml_is(c, "pair")) {
            ok = read_pair(cfg, &doc, c, path, err);
            continue;
        }
        if (!al_toml_is(c, "table"))
            continue;
        char *name = al_toml_key(&doc, ts_node_named_child(c, 0));
        char pfi_name[64];
        snprintf(pfi_name, sizeof pfi_name, "%s%sper-file-ignores", prefix, *prefix ? "." : "");
        if (!strcmp(name, prefix) && pyproject) {
            *found = true;
            uint32_t n = ts_node_named_child_count(c);
            for (uint32_t j = 1; j < n && ok; j++)
                if (al_toml_is(ts_node_named_child(c, j), "pair"))
                    ok = read_pair(cfg, &doc, ts_node_named_child(c, j), path, err);
        } else if (!strcmp(name, pfi_name)) {
            *found = true;
            ok = read_pfi(cfg, &doc, c, path, err);
        }
        free(name);
    }
    if (ok) {
        char ops_key[64];
        snprintf(ops_key, sizeof ops_key, "%s%sops", prefix, *prefix ? "." : "");
        al_ops_error e2;
        size_t before = cfg->ops.n, results_before = cfg->ops.n_results;
        if (!al_ops_read_array(&cfg->ops, &doc, ops_key, path, &e2)) {
            snprintf(err->message, sizeof err->message, "%s", e2.message);
            ok = false;
        }
        if (cfg->ops.n > before || cfg->ops.n_results > results_before)
            *found = true;
    }
    al_toml_free(&doc);
    return ok;
}

void al_config_free(al_config *cfg)
{
    free(cfg->path);
    free(cfg->dir);
    al_strlist_free(&cfg->select);
    al_strlist_free(&cfg->extend_select);
    al_strlist_free(&cfg->ignore);
    al_strlist_free(&cfg->exclude);
    al_strlist_free(&cfg->extend_exclude);
    for (size_t i = 0; i < cfg->n_pfi; i++) {
        free(cfg->pfi[i].glob);
        al_strlist_free(&cfg->pfi[i].codes);
    }
    free(cfg->pfi);
    al_ops_free(&cfg->ops);
    memset(cfg, 0, sizeof *cfg);
}

/* ------------------------------------------------------------------ */


/* Stands in the folder table for "no configuration applies". */
static char no_config;

struct al_config_cache {
    al_memo dirs;      /* folder -> its al_config, or &no_config */
    al_memo real_dirs; /* a folder as named -> its real path */
    const al_file_list *walk; /* what the walk saw, or NULL */
    al_memo lengths;   /* folder -> its line length + 1 (1: none) */
    al_config **owned;
    size_t n_owned, cap_owned;
};

al_config_cache *al_config_cache_new(void)
{
    return al_xcalloc(1, sizeof(al_config_cache));
}

void al_config_cache_set_walk(al_config_cache *c, const al_file_list *walk)
{
    c->walk = walk;
}

void al_config_cache_forget_folders(al_config_cache *c)
{
    al_memo_free(&c->dirs);
    al_memo_free(&c->real_dirs);
    al_memo_free(&c->lengths);
    c->walk = NULL;
}

void al_config_cache_free(al_config_cache *c)
{
    if (!c)
        return;
    al_memo_free(&c->dirs);
    al_memo_free(&c->real_dirs);
    al_memo_free(&c->lengths);
    for (size_t i = 0; i < c->n_owned; i++) {
        al_config_free(c->owned[i]);
        free(c->owned[i]);
    }
    free(c->owned);
    free(c);
}

static bool try_file(al_config_cache *c, const char *dir, const char *name, bool pyproject,
                     al_config **out, al_config_error *err)
{
    al_strbuf p = {0};
    al_strbuf_printf(&p, "%s/%s", dir, name);
    struct stat st;
    bool ok = true;
    *out = NULL;
    if (stat(p.data, &st) == 0 && S_ISREG(st.st_mode)) {
        al_source src;
        if (al_source_load(&src, p.data) != AL_SOURCE_OK) {
            snprintf(err->message, sizeof err->message, "%s: cannot read", p.data);
            ok = false;
        } else {
            al_config *cfg = al_xcalloc(1, sizeof *cfg);
            bool found;
            ok = al_config_parse(cfg, p.data, src.bytes, src.len, pyproject, &found, err);
            if (ok && found) {
                AL_PUSH(c->owned, c->n_owned, c->cap_owned, cfg);
                *out = cfg;
            } else {
                al_config_free(cfg);
                free(cfg);
            }
            al_source_free(&src);
        }
    }
    al_strbuf_free(&p);
    return ok;
}

/* The canonical absolute path of path, which need not exist (a name given
 * with --stdin-filename): the nearest existing folder above it resolved,
 * the rest appended as written. */
static bool absolute_path(const char *path, char out[PATH_MAX])
{
    if (realpath(path, out))
        return true;
    const char *slash = strrchr(path, '/');
    const char *name = slash ? slash + 1 : path;
    char parent[PATH_MAX];
    if (!slash)
        snprintf(parent, sizeof parent, ".");
    else if (slash == path)
        snprintf(parent, sizeof parent, "/");
    else
        snprintf(parent, sizeof parent, "%.*s", (int)(slash - path), path);
    if (!*name || !strcmp(name, ".") || !strcmp(name, "..") || !strcmp(parent, path) ||
        !absolute_path(parent, out))
        return false;
    size_t n = strlen(out);
    return (size_t)snprintf(out + n, PATH_MAX - n, "%s%s", n && out[n - 1] == '/' ? "" : "/",
                            name) < PATH_MAX - n;
}

/* The real path of folder `dir`, each folder resolved once: from its
 * parent's when it is not a link itself (one lstat instead of realpath's
 * walk over every component). NULL when it cannot be resolved. */
static const char *real_dir(al_config_cache *c, const char *dir)
{
    const char *known = al_memo_get(&c->real_dirs, dir);
    if (known)
        return known;
    char buf[PATH_MAX];
    const char *slash = strrchr(dir, '/');
    const char *name = slash ? slash + 1 : dir;
    bool done = false;
    if (slash && slash != dir && *name && strcmp(name, ".") && strcmp(name, "..")) {
        char parent[PATH_MAX];
        snprintf(parent, sizeof parent, "%.*s", (int)(slash - dir), dir);
        const char *up = real_dir(c, parent);
        struct stat st;
        /* A folder the walk entered from its parent (not one named as a
         * root) is a directory and no link. */
        al_dir_listing seen;
        bool entered = c->walk && al_file_list_dir(c->walk, dir, &seen) && !seen.root;
        if (up && (entered || (lstat(dir, &st) == 0 && S_ISDIR(st.st_mode)))) {
            size_t n = strlen(up);
            done = (size_t)snprintf(buf, sizeof buf, "%s%s%s", up, n && up[n - 1] == '/' ? "" : "/",
                                    name) < sizeof buf;
        }
    }
    if (!done && !absolute_path(dir, buf))
        return NULL;
    char *copy = al_xstrdup(buf);
    al_memo_put(&c->real_dirs, dir, copy, free);
    return copy;
}

/* absolute_path, with each folder resolved once. A symbolic link to a
 * file is resolved whole; `regular` says the caller knows path is no
 * link (a walk saw it as a regular file), which saves an lstat a file. */
static bool absolute_path_cached(al_config_cache *c, const char *path, bool regular,
                                 char out[PATH_MAX])
{
    struct stat st;
    const char *slash = strrchr(path, '/');
    if (!slash || (!regular && (lstat(path, &st) != 0 || S_ISLNK(st.st_mode))))
        return absolute_path(path, out);
    char dir[PATH_MAX];
    snprintf(dir, sizeof dir, "%.*s", slash == path ? 1 : (int)(slash - path), path);
    const char *rd = real_dir(c, dir);
    if (!rd)
        return absolute_path(path, out);
    size_t n = strlen(rd);
    return (size_t)snprintf(out, PATH_MAX, "%s%s%s", rd, n && rd[n - 1] == '/' ? "" : "/",
                            slash + 1) < PATH_MAX;
}

/* The folder part of path ("." for a bare name, "/" for one in the
 * root) into out (which may be path itself); false when too long. */
static bool folder_of(const char *path, char out[PATH_MAX])
{
    const char *slash = strrchr(path, '/');
    if (!slash)
        return snprintf(out, PATH_MAX, ".") < PATH_MAX;
    size_t n = slash == path ? 1 : (size_t)(slash - path);
    if (n >= PATH_MAX)
        return false;
    memmove(out, path, n);
    out[n] = '\0';
    return true;
}

/* The folders above a file, from its own up to the root, for the
 * lookups that stop at the nearest folder holding a configuration. Beside
 * each real folder, while the walk entered each from its parent, the same
 * folder as the walk wrote it: its listing says which configuration files
 * are there to read, where otherwise each is asked of the file system. */
typedef struct {
    char dir[PATH_MAX];    /* the real folder */
    char walked[PATH_MAX]; /* the same folder as the walk wrote it */
    bool in_walk;          /* walked holds it: each folder below was entered from it */
    bool listed;           /* the walk listed it: seen holds what it saw */
    al_dir_listing seen;
} folder_up;

/* Starts at path's folder; false when path cannot be resolved. `regular`:
 * path is no link (a link resolves elsewhere than the folder the walk
 * listed, so its walk is not read). */
static bool folder_up_start(folder_up *u, al_config_cache *c, const char *path, bool regular)
{
    char real[PATH_MAX];
    if (!absolute_path_cached(c, path, regular, real))
        return false;
    char *slash = strrchr(real, '/');
    if (slash)
        *slash = '\0';
    snprintf(u->dir, sizeof u->dir, "%s", real[0] ? real : "/");
    u->in_walk = c->walk && regular && folder_of(path, u->walked);
    u->listed = false;
    return true;
}

/* Reads what the walk saw in the current folder, before the files are
 * tried and before stepping up (a folder found in a memo needs neither). */
static void folder_up_list(folder_up *u, const al_config_cache *c)
{
    u->seen = (al_dir_listing){0};
    u->listed = u->in_walk && al_file_list_dir(c->walk, u->walked, &u->seen);
}

/* Whether the current folder may hold a file the listing flags: yes when
 * the walk did not list it. */
static bool folder_up_may_hold(const folder_up *u, bool listed_flag)
{
    return !u->listed || listed_flag;
}

/* Steps to the parent folder (after folder_up_list); false at the root. */
static bool folder_up_next(folder_up *u)
{
    if (!strcmp(u->dir, "/"))
        return false;
    char *s = strrchr(u->dir, '/');
    if (s == u->dir)
        u->dir[1] = '\0';
    else
        *s = '\0';
    u->in_walk = u->listed && !u->seen.root && folder_of(u->walked, u->walked);
    u->listed = false;
    return true;
}

bool al_config_for(al_config_cache *c, const char *path, bool regular, const al_config **out,
                   al_config_error *err)
{
    *out = NULL;
    folder_up u;
    if (!folder_up_start(&u, c, path, regular))
        return true;
    /* Walk up, remembering every folder passed on the way. */
    char *stack[256];
    size_t depth = 0;
    al_config *found = NULL;
    bool ok = true;
    do {
        void *known = al_memo_get(&c->dirs, u.dir);
        if (known) {
            found = known == &no_config ? NULL : known;
            break;
        }
        if (depth < 256)
            stack[depth++] = al_xstrdup(u.dir);
        folder_up_list(&u, c);
        if (folder_up_may_hold(&u, u.seen.alloclint_toml))
            ok = try_file(c, u.dir, "alloclint.toml", false, &found, err);
        if (ok && !found && folder_up_may_hold(&u, u.seen.pyproject_toml))
            ok = try_file(c, u.dir, "pyproject.toml", true, &found, err);
    } while (ok && !found && folder_up_next(&u));
    for (size_t i = 0; i < depth; i++) {
        if (ok)
            al_memo_put(&c->dirs, stack[i], found ? (void *)found : &no_config, NULL);
        free(stack[i]);
    }
    *out = found;
    return ok;
}

/* path relative to the config's folder, when inside it. */
static const char *relative(const al_config *cfg, const char *real)
{
    char dir[PATH_MAX];
    if (!realpath(cfg->dir, dir))
        return real;
    size_t n = strlen(dir);
    if (!strncmp(real, dir, n) && real[n] == '/')
        return real + n + 1;
    return real;
}

static bool glob_hits(const char *glob, const char *rel)
{
    if (fnmatch(glob, rel, 0) == 0)
        return true;
    /* A folder or file name anywhere on the path: "build", "*_pb2.py". */
    const char *p = rel;
    for (;;) {
        const char *slash = strchr(p, '/');
        size_t len = slash ? (size_t)(slash - p) : strlen(p);
        char part[NAME_MAX + 1];
        if (len <= NAME_MAX) {
            memcpy(part, p, len);
            part[len] = '\0';
            if (fnmatch(glob, part, 0) == 0)
                return true;
        }
        if (!slash)
            return false;
        p = slash + 1;
    }
}

bool al_config_excludes(const al_config *cfg, const char *path)
{
    char real[PATH_MAX];
    if (!cfg || !absolute_path(path, real))
        return false;
    const char *rel = relative(cfg, real);
    for (size_t i = 0; i < cfg->exclude.n; i++)
        if (glob_hits(cfg->exclude.items[i], rel))
            return true;
    for (size_t i = 0; i < cfg->extend_exclude.n; i++)
        if (glob_hits(cfg->extend_exclude.items[i], rel))
            return true;
    return false;
}

void al_config_file_ignores(const al_config *cfg, const char *path, al_strlist *out)
{
    char real[PATH_MAX];
    if (!cfg || !absolute_path(path, real))
        return;
    const char *rel = relative(cfg, real);
    for (size_t i = 0; i < cfg->n_pfi; i++)
        if (glob_hits(cfg->pfi[i].glob, rel))
            for (size_t k = 0; k < cfg->pfi[i].codes.n; k++)
                al_strlist_add(out, al_xstrdup(cfg->pfi[i].codes.items[k]));
}

void al_config_cache_add_ops(al_config_cache *c, const al_op_table *extra)
{
    for (size_t i = 0; i < c->n_owned; i++)
        al_ops_append(&c->owned[i]->ops, extra);
}

/* ------------------------------------------------------------------ */
/* The formatter's line length                                          */

/* `line-length = N` among the pairs of table (or the top level), 0 when
 * absent. */
static size_t length_in(const al_toml *doc, TSNode table, uint32_t first)
{
    size_t found = 0;
    for (uint32_t j = first; j < ts_node_named_child_count(table); j++) {
        TSNode p = ts_node_named_child(table, j);
        if (!al_toml_is(p, "pair"))
            continue;
        char *key = al_toml_key(doc, ts_node_named_child(p, 0));
        if (!strcmp(key, "line-length")) {
            char *v = al_toml_text(doc, ts_node_named_child(p, 1));
            char *end;
            long n = strtol(v, &end, 10);
            if (!*end && n > 0 && n < 100000)
                found = (size_t)n;
            free(v);
        }
        free(key);
    }
    return found;
}

/* The line length file path sets: ruff's `line-length` (ruff.toml,
 * .ruff.toml: at the top; pyproject.toml: in [tool.ruff]), else black's
 * ([tool.black]), each 88 when the tool is configured there without one;
 * 0 when neither is. */
static size_t length_of_file(const char *path, bool pyproject)
{
    struct stat st;
    if (stat(path, &st) != 0 || !S_ISREG(st.st_mode))
        return 0;
    al_source src;
    if (al_source_load(&src, path) != AL_SOURCE_OK)
        return 0;
    al_toml doc;
    TSNode bad = {0};
    size_t ruff = 0, black = 0;
    bool has_ruff = !pyproject, has_black = false;
    if (al_toml_parse(&doc, src.bytes, src.len, &bad)) {
        if (!pyproject)
            ruff = length_in(&doc, doc.root, 0);
        for (uint32_t i = 0; pyproject && i < ts_node_named_child_count(doc.root); i++) {
            TSNode c = ts_node_named_child(doc.root, i);
            if (!al_toml_is(c, "table"))
                continue;
            char *name = al_toml_key(&doc, ts_node_named_child(c, 0));
            if (!strcmp(name, "tool.ruff"))
                ruff = length_in(&doc, c, 1);
            else if (!strcmp(name, "tool.black"))
                black = length_in(&doc, c, 1);
            has_ruff |= !strncmp(name, "tool.ruff", 9) && (!name[9] || name[9] == '.');
            has_black |= !strncmp(name, "tool.black", 10) && (!name[10] || name[10] == '.');
            free(name);
        }
    }
    al_toml_free(&doc);
    al_source_free(&src);
    if (has_ruff)
        return ruff ? ruff : 88;
    return has_black ? (black ? black : 88) : 0;
}

size_t al_config_line_length(al_config_cache *c, const char *path)
{
    folder_up u;
    if (!folder_up_start(&u, c, path, true))
        return 0;
    char *stack[256];
    size_t depth = 0, length = 0;
    do {
        /* The memo holds length + 1 (NULL: not known). */
        void *known = al_memo_get(&c->lengths, u.dir);
        if (known) {
            length = (size_t)(uintptr_t)known - 1;
            break;
        }
        if (depth < 256)
            stack[depth++] = al_xstrdup(u.dir);
        folder_up_list(&u, c);
        static const char *const names[] = {"ruff.toml", ".ruff.toml", "pyproject.toml"};
        bool there[] = {folder_up_may_hold(&u, u.seen.ruff_toml),
                        folder_up_may_hold(&u, u.seen.dot_ruff_toml),
                        folder_up_may_hold(&u, u.seen.pyproject_toml)};
        for (int i = 0; i < 3 && !length; i++) {
            if (!there[i])
                continue;
            al_strbuf p = {0};
            al_strbuf_printf(&p, "%s/%s", strcmp(u.dir, "/") ? u.dir : "", names[i]);
            length = length_of_file(p.data, i == 2);
            al_strbuf_free(&p);
        }
    } while (!length && folder_up_next(&u));
    for (size_t i = 0; i < depth; i++) {
        al_memo_put(&c->lengths, stack[i], (void *)(uintptr_t)(length + 1), NULL);
        free(stack[i]);
    }
    return length;
}
