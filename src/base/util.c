#include "util.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

static void out_of_memory(size_t n)
{
    fprintf(stderr, "alloclint: out of memory (requested %zu bytes)\n", n);
    abort();
}

void *al_xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p)
        out_of_memory(n);
    return p;
}

void *al_xcalloc(size_t count, size_t size)
{
    void *p = calloc(count ? count : 1, size ? size : 1);
    if (!p)
        out_of_memory(count * size);
    return p;
}

void *al_xrealloc(void *p, size_t n)
{
    void *q = realloc(p, n ? n : 1);
    if (!q)
        out_of_memory(n);
    return q;
}

char *al_xstrdup(const char *s)
{
    return al_xstrndup(s, strlen(s));
}

char *al_xstrndup(const char *s, size_t n)
{
    char *p = al_xmalloc(n + 1);
    memcpy(p, s, n);
    p[n] = '\0';
    return p;
}

void al_strbuf_reserve(al_strbuf *sb, size_t extra)
{
    if (sb->len + extra + 1 <= sb->cap)
        return;
    size_t cap = sb->cap ? sb->cap : 64;
    while (cap < sb->len + extra + 1)
        cap *= 2;
    sb->data = al_xrealloc(sb->data, cap);
    sb->cap = cap;
    sb->data[sb->len] = '\0'; /* a reserved, still empty buffer is a valid string */
}

void al_strbuf_append(al_strbuf *sb, const char *s, size_t n)
{
    al_strbuf_reserve(sb, n);
    if (n)
        memcpy(sb->data + sb->len, s, n);
    sb->len += n;
    sb->data[sb->len] = '\0';
}

void al_strbuf_puts(al_strbuf *sb, const char *s)
{
    al_strbuf_append(sb, s, strlen(s));
}

void al_strbuf_putc(al_strbuf *sb, char c)
{
    al_strbuf_append(sb, &c, 1);
}

void al_strbuf_printf(al_strbuf *sb, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    al_strbuf_vprintf(sb, fmt, ap);
    va_end(ap);
}

void al_strbuf_vprintf(al_strbuf *sb, const char *fmt, va_list ap)
{
    va_list ap2;
    va_copy(ap2, ap);
    int n = vsnprintf(NULL, 0, fmt, ap);
    if (n < 0) {
        va_end(ap2);
        return;
    }
    al_strbuf_reserve(sb, (size_t)n);
    vsnprintf(sb->data + sb->len, (size_t)n + 1, fmt, ap2);
    va_end(ap2);
    sb->len += (size_t)n;
}

bool al_strbuf_read(al_strbuf *sb, FILE *f, size_t limit, bool *too_large)
{
    char buf[65536];
    size_t got;
    if (too_large)
        *too_large = false;
    al_strbuf_reserve(sb, 0);
    while ((got = fread(buf, 1, sizeof buf, f)) > 0) {
        if (limit && sb->len + got > limit) {
            if (too_large)
                *too_large = true;
            return false;
        }
        al_strbuf_append(sb, buf, got);
    }
    return !ferror(f);
}

char *al_strbuf_detach(al_strbuf *sb)
{
    if (!sb->data)
        return al_xstrdup("");
    char *p = sb->data;
    sb->data = NULL;
    sb->len = sb->cap = 0;
    return p;
}

void al_strbuf_free(al_strbuf *sb)
{
    free(sb->data);
    sb->data = NULL;
    sb->len = sb->cap = 0;
}

bool al_str_starts_with(const char *s, const char *prefix)
{
    return strncmp(s, prefix, strlen(prefix)) == 0;
}

bool al_str_ends_with(const char *s, const char *suffix)
{
    size_t a = strlen(s), b = strlen(suffix);
    return a >= b && memcmp(s + a - b, suffix, b) == 0;
}

bool al_str_in_list(const char *const *list, const char *s, size_t len)
{
    for (int i = 0; list[i]; i++)
        if (strlen(list[i]) == len && memcmp(list[i], s, len) == 0)
            return true;
    return false;
}

void al_strlist_add(al_strlist *l, char *s)
{
    AL_PUSH(l->items, l->n, l->cap, s);
}

bool al_strlist_has(const al_strlist *l, const char *s, size_t len)
{
    for (size_t i = 0; i < l->n; i++)
        if (strlen(l->items[i]) == len && memcmp(l->items[i], s, len) == 0)
            return true;
    return false;
}

size_t al_strlist_count(const al_strlist *l, const char *s)
{
    size_t n = 0;
    for (size_t i = 0; i < l->n; i++)
        n += strcmp(l->items[i], s) == 0;
    return n;
}

void al_strlist_remove(al_strlist *l, const char *s)
{
    size_t kept = 0;
    for (size_t i = 0; i < l->n; i++) {
        if (strcmp(l->items[i], s) != 0)
            l->items[kept++] = l->items[i];
        else
            free(l->items[i]);
    }
    l->n = kept;
}

static int by_text(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

void al_strlist_sort_unique(al_strlist *l)
{
    if (l->n < 2)
        return;
    qsort(l->items, l->n, sizeof *l->items, by_text);
    size_t k = 1;
    for (size_t i = 1; i < l->n; i++) {
        if (strcmp(l->items[i], l->items[k - 1]))
            l->items[k++] = l->items[i];
        else
            free(l->items[i]);
    }
    l->n = k;
}

void al_strlist_free(al_strlist *l)
{
    for (size_t i = 0; i < l->n; i++)
        free(l->items[i]);
    free(l->items);
    memset(l, 0, sizeof *l);
}

void al_prefault(void *p, size_t len)
{
#ifdef MADV_POPULATE_WRITE
    long got = sysconf(_SC_PAGESIZE);
    size_t page = got > 0 ? (size_t)got : 4096;
    uintptr_t start = ((uintptr_t)p + page - 1) & ~(uintptr_t)(page - 1);
    uintptr_t end = ((uintptr_t)p + len) & ~(uintptr_t)(page - 1);
    if (end > start)
        (void)madvise((void *)start, end - start, MADV_POPULATE_WRITE);
#else
    (void)p;
    (void)len;
#endif
}

void *al_xcalloc_filled(size_t count, size_t size)
{
    void *p = al_xcalloc(count, size); /* fails on an overflowing count * size */
    if (count * size >= (256u << 10))
        al_prefault(p, count * size);
    return p;
}
