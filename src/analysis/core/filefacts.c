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

/* FNV-1a of a word, split into the Bloom filter's three probes. */
static uint64_t word_hash(const char *w, size_t n)
{
    uint64_t h = 1469598103934665603ULL;
    for (size_t i = 0; i < n; i++)
        h = (h ^ (unsigned char)w[i]) * 1099511628211ULL;
    return h;
}

#define BLOOM_BITS (AL_WORD_BLOOM_WORDS * 64)

static void bloom_add(uint64_t *words, uint64_t h)
{
    for (int k = 0; k < 3; k++) {
        uint32_t bit = (uint32_t)(h >> (k * 21)) % BLOOM_BITS;
        words[bit / 64] |= 1ULL << (bit % 64);
    }
}

/* Bytes that continue an identifier (ASCII; a UTF-8 byte splits words,
 * as no identifier the analysis asks about holds one). */
static const bool word_byte[256] = {
    ['0'] = 1, ['1'] = 1, ['2'] = 1, ['3'] = 1, ['4'] = 1, ['5'] = 1, ['6'] = 1, ['7'] = 1,
    ['8'] = 1, ['9'] = 1, ['_'] = 1, ['a'] = 1, ['b'] = 1, ['c'] = 1, ['d'] = 1, ['e'] = 1,
    ['f'] = 1, ['g'] = 1, ['h'] = 1, ['i'] = 1, ['j'] = 1, ['k'] = 1, ['l'] = 1, ['m'] = 1,
    ['n'] = 1, ['o'] = 1, ['p'] = 1, ['q'] = 1, ['r'] = 1, ['s'] = 1, ['t'] = 1, ['u'] = 1,
    ['v'] = 1, ['w'] = 1, ['x'] = 1, ['y'] = 1, ['z'] = 1, ['A'] = 1, ['B'] = 1, ['C'] = 1,
    ['D'] = 1, ['E'] = 1, ['F'] = 1, ['G'] = 1, ['H'] = 1, ['I'] = 1, ['J'] = 1, ['K'] = 1,
    ['L'] = 1, ['M'] = 1, ['N'] = 1, ['O'] = 1, ['P'] = 1, ['Q'] = 1, ['R'] = 1, ['S'] = 1,
    ['T'] = 1, ['U'] = 1, ['V'] = 1, ['W'] = 1, ['X'] = 1, ['Y'] = 1, ['Z'] = 1,
};

static void read_words(const al_source *src, uint64_t *words)
{
    const unsigned char *p = (const unsigned char *)src->bytes, *end = p + src->len;
    while (p < end) {
        if (!word_byte[*p]) {
            p++;
            continue;
        }
        /* A word, hashed as it is read; one starting with a digit is a
         * number, which no name is. */
        bool number = *p >= '0' && *p <= '9';
        uint64_t h = 1469598103934665603ULL;
        while (p < end && word_byte[*p])
            h = (h ^ *p++) * 1099511628211ULL;
        if (!number)
            bloom_add(words, h);
    }
}

const al_file_facts *al_file_facts_words(al_file_facts_table *t, const char *path)
{
    al_file_facts *f = (al_file_facts *)al_file_facts_of(t, path);
    pthread_mutex_lock(&t->lock);
    bool have = f->words_read;
    pthread_mutex_unlock(&t->lock);
    if (have || f->status != AL_SOURCE_OK)
        return f;
    /* Read outside the lock, as the facts are; the same bits either way. */
    uint64_t words[AL_WORD_BLOOM_WORDS] = {0};
    al_source src;
    bool ok = al_source_load_bytes(&src, path) == AL_SOURCE_OK && src.hash == f->hash;
    if (ok)
        read_words(&src, words);
    al_source_free(&src);
    pthread_mutex_lock(&t->lock);
    if (!f->words_read) {
        if (ok)
            memcpy(f->words, words, sizeof words);
        else
            memset(f->words, 0xff, sizeof f->words); /* changed since: may name anything */
        f->words_read = true;
    }
    pthread_mutex_unlock(&t->lock);
    return f;
}

bool al_file_facts_may_name(const al_file_facts *f, const char *word, size_t len)
{
    uint64_t h = word_hash(word, len);
    for (int k = 0; k < 3; k++) {
        uint32_t bit = (uint32_t)(h >> (k * 21)) % BLOOM_BITS;
        if (!(f->words[bit / 64] & (1ULL << (bit % 64))))
            return false;
    }
    return true;
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
