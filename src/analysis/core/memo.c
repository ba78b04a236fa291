#include "memo.h"

#include "../../base/source.h"
#include "../../base/util.h"

#include <stdlib.h>
#include <string.h>

static al_memo_entry *slot(al_memo_entry *s, size_t cap, const char *key)
{
    size_t h = (size_t)al_hash_bytes(key, strlen(key));
    for (size_t i = 0;; i++) {
        al_memo_entry *e = &s[(h + i) & (cap - 1)];
        if (!e->key || !strcmp(e->key, key))
            return e;
    }
}

void *al_memo_get(const al_memo *m, const char *key)
{
    if (!m->cap)
        return NULL;
    al_memo_entry *e = slot(m->slots, m->cap, key);
    return e->key ? e->value : NULL;
}

void al_memo_put(al_memo *m, const char *key, void *value, void (*free_fn)(void *))
{
    if (2 * (m->n + 1) > m->cap) {
        size_t cap = m->cap ? m->cap * 2 : 256;
        al_memo_entry *s = al_xcalloc(cap, sizeof *s);
        for (size_t i = 0; i < m->cap; i++)
            if (m->slots[i].key)
                *slot(s, cap, m->slots[i].key) = m->slots[i];
        free(m->slots);
        m->slots = s;
        m->cap = cap;
    }
    al_memo_entry *e = slot(m->slots, m->cap, key);
    if (e->key) {
        if (e->free_fn && e->value != value)
            e->free_fn(e->value);
    } else {
        e->key = al_xstrdup(key);
        m->n++;
    }
    e->value = value;
    e->free_fn = free_fn;
}

const char *al_memo_key(const al_memo *m, const char *key)
{
    return m->cap ? slot(m->slots, m->cap, key)->key : NULL;
}

void al_memo_free(al_memo *m)
{
    for (size_t i = 0; i < m->cap; i++)
        if (m->slots[i].key) {
            if (m->slots[i].free_fn)
                m->slots[i].free_fn(m->slots[i].value);
            free(m->slots[i].key);
        }
    free(m->slots);
    memset(m, 0, sizeof *m);
}
