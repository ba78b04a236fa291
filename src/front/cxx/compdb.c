#include "compdb.h"

#include "../../base/json.h"
#include "../../base/util.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

char **al_compdb_split_command(const char *command, size_t *n)
{
    char **words = NULL;
    size_t cap = 0;
    *n = 0;
    const char *p = command;
    for (;;) {
        while (*p == ' ' || *p == '\t' || *p == '\n')
            p++;
        if (!*p)
            break;
        al_strbuf w = {0};
        char quote = 0;
        for (; *p && (quote || (*p != ' ' && *p != '\t' && *p != '\n')); p++) {
            if (quote) {
                if (*p == quote)
                    quote = 0;
                else if (*p == '\\' && quote == '"' && p[1])
                    al_strbuf_putc(&w, *++p);
                else
                    al_strbuf_putc(&w, *p);
            } else if (*p == '"' || *p == '\'') {
                quote = *p;
            } else if (*p == '\\' && p[1]) {
                al_strbuf_putc(&w, *++p);
            } else {
                al_strbuf_putc(&w, *p);
            }
        }
        al_strbuf_putc(&w, '\0');
        AL_PUSH(words, *n, cap, al_strbuf_detach(&w));
    }
    return words;
}

/* A path relative to the entry's directory, made absolute and canonical
 * (the file may not exist, e.g. a generated source: then kept as joined). */
static char *resolve(const char *dir, const char *path)
{
    char joined[PATH_MAX];
    if (path[0] == '/' || !dir)
        snprintf(joined, sizeof joined, "%s", path);
    else
        snprintf(joined, sizeof joined, "%s/%s", dir, path);
    char real[PATH_MAX];
    return al_xstrdup(realpath(joined, real) ? real : joined);
}

/* The flags that change how a file parses. Two-word forms (-I dir) keep
 * their value; include directories are made absolute. */
static void keep_flags(al_compdb_entry *e, char **words, size_t n, const char *dir)
{
    size_t cap = 0;
    static const char *const with_path[] = {"-I", "-isystem", "-iquote", "-idirafter", "-include"};
    for (size_t i = 1; i < n; i++) { /* words[0] is the compiler */
        const char *w = words[i];
        bool taken = false;
        for (size_t k = 0; k < sizeof with_path / sizeof *with_path && !taken; k++) {
            size_t kl = strlen(with_path[k]);
            if (strncmp(w, with_path[k], kl) != 0)
                continue;
            const char *value = NULL;
            if (w[kl])
                value = (k == 0) ? w + kl : NULL; /* only -Idir is glued */
            else if (i + 1 < n)
                value = words[++i];
            if (!value)
                continue;
            AL_PUSH(e->args, e->n_args, cap, al_xstrdup(with_path[k]));
            AL_PUSH(e->args, e->n_args, cap, resolve(dir, value));
            taken = true;
        }
        if (taken)
            continue;
        if (!strncmp(w, "-D", 2) || !strncmp(w, "-U", 2)) {
            if (w[2])
                AL_PUSH(e->args, e->n_args, cap, al_xstrdup(w));
            else if (i + 1 < n) {
                AL_PUSH(e->args, e->n_args, cap, al_xstrdup(w));
                AL_PUSH(e->args, e->n_args, cap, al_xstrdup(words[++i]));
            }
        } else if (!strncmp(w, "-std=", 5) || !strncmp(w, "--std=", 6)) {
            /* nvcc spells it --std=c++17 */
            AL_PUSH(e->args, e->n_args, cap, al_xstrdup(w[1] == '-' ? w + 1 : w));
        }
    }
}

int al_compdb_load(al_compdb *db, const char *dir, char *err, size_t errlen)
{
    memset(db, 0, sizeof *db);
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/compile_commands.json", dir);
    FILE *fp = fopen(path, "rb");
    if (!fp) {
        if (errno == ENOENT)
            return 0;
        snprintf(err, errlen, "%s: %s", path, strerror(errno));
        return -1;
    }
    al_strbuf sb = {0};
    bool read_ok = al_strbuf_read(&sb, fp, 0, NULL);
    fclose(fp);
    if (!read_ok) {
        snprintf(err, errlen, "%s: read error", path);
        al_strbuf_free(&sb);
        return -1;
    }
    bool ok = al_compdb_parse(db, path, sb.data, sb.len, err, errlen);
    al_strbuf_free(&sb);
    return ok ? 1 : -1;
}

bool al_compdb_parse(al_compdb *db, const char *path, const char *text, size_t len, char *err,
                     size_t errlen)
{
    memset(db, 0, sizeof *db);
    cJSON *root = cJSON_ParseWithLength(text, len);
    if (!cJSON_IsArray(root)) {
        snprintf(err, errlen, "%s: not a JSON array of compile commands", path);
        cJSON_Delete(root);
        return false;
    }
    db->path = al_xstrdup(path);
    const cJSON *item;
    size_t number = 0;
    cJSON_ArrayForEach(item, root)
    {
        number++;
        const char *twice = al_json_duplicate_key(item);
        if (twice) {
            /* Which "file" or "arguments" counts would be a guess, and
             * flags from the wrong one change what the parse sees. */
            snprintf(err, errlen,
                     "%s: entry %zu holds the key \"%s\" twice: which one counts is not "
                     "defined, so the file is not used",
                     path, number, twice);
            cJSON_Delete(root);
            al_compdb_free(db);
            return false;
        }
        const char *d = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(item, "directory"));
        const char *f = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(item, "file"));
        const cJSON *arguments = cJSON_GetObjectItemCaseSensitive(item, "arguments");
        const char *command =
            cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(item, "command"));
        if (!f || (!cJSON_IsArray(arguments) && !command))
            continue; /* an entry we cannot use; clang-tidy skips these too */
        char **words = NULL;
        size_t n = 0, cap = 0;
        if (cJSON_IsArray(arguments)) {
            const cJSON *a;
            cJSON_ArrayForEach(a, arguments)
            {
                const char *s = cJSON_GetStringValue(a);
                if (s)
                    AL_PUSH(words, n, cap, al_xstrdup(s));
            }
        } else {
            words = al_compdb_split_command(command, &n);
        }
        al_compdb_entry e = {resolve(d, f), NULL, 0};
        keep_flags(&e, words, n, d);
        for (size_t i = 0; i < n; i++)
            free(words[i]);
        free(words);
        AL_PUSH(db->entries, db->n, db->cap, e);
    }
    cJSON_Delete(root);
    return true;
}

const al_compdb_entry *al_compdb_find(const al_compdb *db, const char *path)
{
    if (!db || !db->n)
        return NULL;
    char real[PATH_MAX];
    if (!realpath(path, real))
        return NULL;
    for (size_t i = 0; i < db->n; i++)
        if (!strcmp(db->entries[i].file, real))
            return &db->entries[i];
    return NULL;
}

void al_compdb_free(al_compdb *db)
{
    for (size_t i = 0; i < db->n; i++) {
        free(db->entries[i].file);
        for (size_t k = 0; k < db->entries[i].n_args; k++)
            free(db->entries[i].args[k]);
        free(db->entries[i].args);
    }
    free(db->entries);
    free(db->path);
    memset(db, 0, sizeof *db);
}
