/* A string-keyed table of owned values (open addressing), for what the
 * analysis computes once per run. Not locked: its owner locks. */
#ifndef ALLOCLINT_MEMO_H
#define ALLOCLINT_MEMO_H

#include <stddef.h>

typedef struct {
    char *key;
    void *value;
    void (*free_fn)(void *);
} al_memo_entry;

typedef struct {
    al_memo_entry *slots; /* cap a power of two */
    size_t n, cap;
} al_memo;

/* The value under key, or NULL. */
void *al_memo_get(const al_memo *m, const char *key);
/* Stores value under key, taking ownership (free_fn may be NULL); a value
 * already there is freed unless it is the same pointer. */
void al_memo_put(al_memo *m, const char *key, void *value, void (*free_fn)(void *));
/* The table's own copy of key, which lives as long as the table, or NULL. */
const char *al_memo_key(const al_memo *m, const char *key);
void al_memo_free(al_memo *m);

#endif
