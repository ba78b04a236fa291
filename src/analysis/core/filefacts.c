#include "filefacts.h"

#include "memo.h"

#include <ctype.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

struct al_file_facts_table {
    pthread_mutex_t lock;
    al_memo by_path; /* path -> al_file_facts */
};

al_file_facts_table *al_file_facts_table_new(void)
{
    al_file_facts_table *t = al_xcalloc(1, sizeof *t);
    pthread_mutex_init(&t->lock, NULL);
    return t;
}

static void facts_free(void *v)
{
    al_file_facts *f = v;
    al_strlist_free(&f->methods);
    free(f);
}

void al_file_facts_table_free(al_file_facts_table *t)
{
    if (!t)
        return;
    al_memo_free(&t->by_path);
    pthread_mutex_destroy(&t->lock);
    free(t);
}

/* The methods a file defines: an indented `def name(`, not a dunder (a
 * byte scan; nothing is parsed). */
static void read_methods(const al_source *src, al_strlist *out)
{
    const char *b = src->bytes, *end = src->bytes + src->len;
    while ((b = memmem(b, (size_t)(end - b), "def ", 4)) != NULL) {
        const char *q = b + 4;
        while (q < end && (isalnum((unsigned char)*q) || *q == '_'))
            q++;
        const char *ls = b;
        while (ls > src->bytes && (ls[-1] == ' ' || ls[-1] == '\t'))
            ls--;
        bool method = ls < b && (ls == src->bytes || ls[-1] == '\n') && b[4] != '_';
        if (method && q < end && *q == '(' && q > b + 4) {
            if (!al_strlist_has(out, b + 4, (size_t)(q - b - 4)))
                al_strlist_add(out, al_xstrndup(b + 4, (size_t)(q - b - 4)));
        }
        b = q;
    }
}

const al_file_facts *al_file_facts_of(al_file_facts_table *t, const char *path)
{
    pthread_mutex_lock(&t->lock);
    al_file_facts *f = al_memo_get(&t->by_path, path);
    pthread_mutex_unlock(&t->lock);
    if (f)
        return f;
    /* Read outside the lock; a thread that read it meanwhile keeps its own. */
    f = al_xcalloc(1, sizeof *f);
    al_source src;
    f->status = al_source_load_bytes(&src, path);
    if (f->status == AL_SOURCE_OK) {
        f->hash = src.hash;
        f->markers = memmem(src.bytes, src.len, "custom_op", 9) || memmem(src.bytes, src.len, "impl(", 5);
        read_methods(&src, &f->methods);
    }
    al_source_free(&src);
    pthread_mutex_lock(&t->lock);
    al_file_facts *had = al_memo_get(&t->by_path, path);
    if (had) {
        facts_free(f);
        f = had;
    } else {
        al_memo_put(&t->by_path, path, f, facts_free);
    }
    pthread_mutex_unlock(&t->lock);
    return f;
}
