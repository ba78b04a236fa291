/* Small shared helpers: allocation that aborts on exhaustion, a growable
 * byte buffer and a growable array macro.  Everything else in alloclint
 * returns errors; running out of memory is the one condition we do not try
 * to recover from, as in git's xmalloc. */
#ifndef ALLOCLINT_UTIL_H
#define ALLOCLINT_UTIL_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

void *al_xmalloc(size_t n);
void *al_xcalloc(size_t count, size_t size);
void *al_xrealloc(void *p, size_t n);
/* al_xcalloc for an array of one entry per file of a run (megabytes),
 * its pages mapped in with one system call: one page fault per page,
 * taken as each entry is first written, costs more (most on virtual
 * machines). */
void *al_xcalloc_filled(size_t count, size_t size);
/* Maps in the whole pages of [p, p + len) for writing, where the kernel
 * can (Linux 5.14); nothing otherwise. */
void al_prefault(void *p, size_t len);
char *al_xstrdup(const char *s);
char *al_xstrndup(const char *s, size_t n);

typedef struct {
    char *data;
    size_t len;
    size_t cap;
} al_strbuf;

void al_strbuf_reserve(al_strbuf *sb, size_t extra);
void al_strbuf_append(al_strbuf *sb, const char *s, size_t n);
void al_strbuf_puts(al_strbuf *sb, const char *s);
void al_strbuf_putc(al_strbuf *sb, char c);
void al_strbuf_printf(al_strbuf *sb, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
void al_strbuf_vprintf(al_strbuf *sb, const char *fmt, va_list ap)
    __attribute__((format(printf, 2, 0)));
/* Returns the NUL-terminated contents and leaves sb empty. */
char *al_strbuf_detach(al_strbuf *sb);
/* Appends everything left in f to sb. False on a read error, or once sb
 * would hold more than limit bytes (0: no limit; *too_large set then). */
bool al_strbuf_read(al_strbuf *sb, FILE *f, size_t limit, bool *too_large);
void al_strbuf_free(al_strbuf *sb);

/* Growable array: declare `T *items; size_t n, cap;` and use AL_PUSH. */
#define AL_PUSH(arr, n, cap, value)                                        \
    do {                                                                   \
        if ((n) == (cap)) {                                                \
            (cap) = (cap) ? (cap) * 2 : 8;                                 \
            (arr) = al_xrealloc((arr), (cap) * sizeof(*(arr)));            \
        }                                                                  \
        (arr)[(n)++] = (value);                                            \
    } while (0)

/* A growable list of owned strings. */
typedef struct {
    char **items;
    size_t n, cap;
} al_strlist;

/* Takes ownership of s. */
void al_strlist_add(al_strlist *l, char *s);
bool al_strlist_has(const al_strlist *l, const char *s, size_t len);
size_t al_strlist_count(const al_strlist *l, const char *s);
/* Removes (and frees) every copy of s, keeping the order of the rest; s
 * itself must not be one of the list's strings. */
void al_strlist_remove(al_strlist *l, const char *s);
/* Sorts the list and frees every copy of a string but the first: for a
 * list gathered with repeats, once, where al_strlist_has before each add
 * is quadratic. */
void al_strlist_sort_unique(al_strlist *l);
void al_strlist_free(al_strlist *l);

bool al_str_starts_with(const char *s, const char *prefix);
bool al_str_ends_with(const char *s, const char *suffix);
/* Whether s[0..len) is one of the strings of a NULL-terminated list. */
bool al_str_in_list(const char *const *list, const char *s, size_t len);

#endif
