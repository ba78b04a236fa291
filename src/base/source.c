#include "source.h"

#include "notebook.h"

#include "util.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <xxhash.h>

uint64_t al_hash_bytes(const char *s, size_t len)
{
    return XXH3_64bits(s, len);
}

size_t al_utf8_validate(const char *s, size_t len)
{
    const unsigned char *p = (const unsigned char *)s;
    size_t i = 0;
    while (i < len) {
        /* Source is mostly ASCII: eight bytes at a time while it is. */
        while (i + 8 <= len) {
            uint64_t w;
            memcpy(&w, p + i, 8);
            if (w & 0x8080808080808080ULL)
                break;
            i += 8;
        }
        if (i >= len)
            break;
        unsigned c = p[i];
        if (c < 0x80) {
            i++;
            continue;
        }
        size_t need;
        unsigned min;
        if ((c & 0xE0) == 0xC0) {
            need = 1;
            min = 0x80;
            c &= 0x1F;
        } else if ((c & 0xF0) == 0xE0) {
            need = 2;
            min = 0x800;
            c &= 0x0F;
        } else if ((c & 0xF8) == 0xF0) {
            need = 3;
            min = 0x10000;
            c &= 0x07;
        } else {
            return i;
        }
        unsigned cp = c;
        for (size_t k = 1; k <= need; k++) {
            if (i + k >= len || (p[i + k] & 0xC0) != 0x80)
                return i;
            cp = (cp << 6) | (p[i + k] & 0x3F);
        }
        if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
            return i;
        i += need + 1;
    }
    return len;
}

/* One pass over the bytes (every file of a run is indexed): the array
 * starts at a guess of a line per 32 bytes and grows. */
static void index_lines(al_source *src)
{
    size_t cap = src->len / 32 + 16;
    const char *p = src->bytes, *end = src->bytes + src->len;
    src->line_starts = al_xmalloc(cap * sizeof(size_t));
    src->n_lines = 0;
    src->line_starts[src->n_lines++] = 0;
    for (; (p = memchr(p, '\n', (size_t)(end - p))) != NULL; p++) {
        if (src->n_lines == cap) {
            cap *= 2;
            src->line_starts = al_xrealloc(src->line_starts, cap * sizeof(size_t));
        }
        src->line_starts[src->n_lines++] = (size_t)(p - src->bytes) + 1;
    }
}

/* What a byte scan needs: the BOM, the first NUL, the hash. */
static void scan_facts(al_source *src)
{
    src->has_bom = src->len >= 3 && memcmp(src->bytes, "\xEF\xBB\xBF", 3) == 0;
    const char *nul = memchr(src->bytes, '\0', src->len);
    src->has_nul = nul != NULL;
    src->nul_offset = nul ? (size_t)(nul - src->bytes) : 0;
    src->hash = al_hash_bytes(src->bytes, src->len);
}

static void analyse(al_source *src)
{
    scan_facts(src);
    size_t bad = al_utf8_validate(src->bytes, src->len);
    src->bad_utf8 = bad != src->len;
    src->bad_utf8_offset = bad;
    index_lines(src);
}

void al_source_from_memory(al_source *src, const char *path, const char *bytes,
                           size_t len)
{
    memset(src, 0, sizeof *src);
    src->path = al_xstrdup(path);
    src->bytes = al_xstrndup(bytes, len);
    src->len = len;
    analyse(src);
}

al_source_status al_file_read_bytes(const char *path, char **out, size_t *out_len, int *err)
{
    *err = 0;
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        *err = errno;
        return AL_SOURCE_ERR_OPEN;
    }
    struct stat st;
    if (fstat(fd, &st) != 0) {
        *err = errno;
        close(fd);
        return AL_SOURCE_ERR_OPEN;
    }
    if (!S_ISREG(st.st_mode)) {
        close(fd);
        return AL_SOURCE_ERR_NOT_FILE;
    }
    if ((uint64_t)st.st_size > AL_SOURCE_MAX_BYTES) {
        close(fd);
        return AL_SOURCE_ERR_TOO_LARGE;
    }
    size_t cap = (size_t)st.st_size + 1, len = 0;
    char *bytes = al_xmalloc(cap + 1);
    for (;;) {
        if (len == cap) {
            /* The file grew while we read it; keep reading up to the cap. */
            if (cap > AL_SOURCE_MAX_BYTES) {
                free(bytes);
                close(fd);
                return AL_SOURCE_ERR_TOO_LARGE;
            }
            cap *= 2;
            bytes = al_xrealloc(bytes, cap + 1);
        }
        ssize_t n = read(fd, bytes + len, cap - len);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            *err = errno;
            free(bytes);
            close(fd);
            return AL_SOURCE_ERR_READ;
        }
        if (n == 0)
            break;
        len += (size_t)n;
    }
    close(fd);
    bytes[len] = '\0';
    *out = bytes;
    *out_len = len;
    return AL_SOURCE_OK;
}

/* Reads path into src: analysed whole, or (scan_only) only as far as a
 * byte scan needs. */
static al_source_status load(al_source *src, const char *path, bool scan_only)
{
    memset(src, 0, sizeof *src);
    char *bytes;
    size_t len;
    al_source_status st = al_file_read_bytes(path, &bytes, &len, &src->err_errno);
    if (st != AL_SOURCE_OK)
        return st;
    src->path = al_xstrdup(path);
    src->bytes = bytes;
    src->len = len;
    if (scan_only)
        scan_facts(src);
    else
        analyse(src);
    return AL_SOURCE_OK;
}

al_source_status al_source_load(al_source *src, const char *path)
{
    return load(src, path, false);
}

al_source_status al_source_load_bytes(al_source *src, const char *path)
{
    return load(src, path, true);
}

al_source_status al_source_hash_file(const char *path, uint64_t *hash, size_t *len)
{
    char *bytes;
    int err;
    al_source_status st = al_file_read_bytes(path, &bytes, len, &err);
    if (st == AL_SOURCE_OK) {
        *hash = al_hash_bytes(bytes, *len);
        free(bytes);
    }
    return st;
}

bool al_file_stamp_read(const char *path, al_file_stamp *out)
{
    struct stat st;
    memset(out, 0, sizeof *out);
    if (stat(path, &st) != 0 || !S_ISREG(st.st_mode))
        return false;
    out->dev = (uint64_t)st.st_dev;
    out->ino = (uint64_t)st.st_ino;
    out->size = (uint64_t)st.st_size;
    out->mtime_ns = (int64_t)st.st_mtim.tv_sec * 1000000000 + st.st_mtim.tv_nsec;
    out->ctime_ns = (int64_t)st.st_ctim.tv_sec * 1000000000 + st.st_ctim.tv_nsec;
    return true;
}

bool al_file_stamp_equal(const al_file_stamp *a, const al_file_stamp *b)
{
    return a->dev == b->dev && a->ino == b->ino && a->size == b->size &&
           a->mtime_ns == b->mtime_ns && a->ctime_ns == b->ctime_ns;
}

int64_t al_file_stamp_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_REALTIME, &t);
    return (int64_t)t.tv_sec * 1000000000 + t.tv_nsec;
}

void al_source_free(al_source *src)
{
    free(src->path);
    free(src->bytes);
    free(src->line_starts);
    free(src->excerpt);
    memset(src, 0, sizeof *src);
}

/* The 0-based index of the line holding offset (offset <= len). */
static size_t line_index(const al_source *src, size_t offset)
{
    size_t lo = 0, hi = src->n_lines;
    while (hi - lo > 1) {
        size_t mid = lo + (hi - lo) / 2;
        if (src->line_starts[mid] <= offset)
            lo = mid;
        else
            hi = mid;
    }
    return lo;
}

static int compare_sizes(const void *x, const void *y)
{
    size_t a = *(const size_t *)x, b = *(const size_t *)y;
    return a < b ? -1 : a > b;
}

bool al_source_excerpt(const al_source *src, const size_t *offsets, size_t n_offsets,
                       al_source *out)
{
    if (src->excerpt)
        return false;
    size_t *rows = al_xcalloc(n_offsets ? n_offsets : 1, sizeof *rows);
    for (size_t i = 0; i < n_offsets; i++)
        rows[i] = line_index(src, offsets[i] > src->len ? src->len : offsets[i]);
    qsort(rows, n_offsets, sizeof *rows, compare_sizes);
    al_source_excerpt_line *lines = al_xcalloc(n_offsets ? n_offsets : 1, sizeof *lines);
    size_t n = 0;
    al_strbuf t = {0};
    for (size_t i = 0; i < n_offsets; i++) {
        if (i && rows[i] == rows[i - 1])
            continue;
        size_t s, e;
        al_source_line(src, rows[i] + 1, &s, &e);
        size_t next = rows[i] + 1 < src->n_lines ? src->line_starts[rows[i] + 1] : src->len + 1;
        lines[n++] = (al_source_excerpt_line){rows[i] + 1, s, next, t.len, e - s};
        al_strbuf_append(&t, src->bytes + s, e - s);
    }
    free(rows);
    size_t text_len = t.len;
    char *text = t.data ? al_strbuf_detach(&t) : al_xstrdup("");
    if (!al_source_from_excerpt(out, src->path, src->len, lines, n, text, text_len)) {
        free(lines);
        free(text);
        return false;
    }
    out->hash = src->hash;
    return true;
}

bool al_source_from_excerpt(al_source *src, const char *path, size_t len,
                            al_source_excerpt_line *lines, size_t n_lines, char *text,
                            size_t text_len)
{
    for (size_t i = 0; i < n_lines; i++) {
        const al_source_excerpt_line *l = &lines[i];
        if (l->row == 0 || l->start > len || l->next <= l->start || l->next > len + 1 ||
            l->text_len > l->next - l->start || l->text > text_len ||
            l->text_len > text_len - l->text ||
            (i && (l->row <= lines[i - 1].row || l->start < lines[i - 1].next)))
            return false;
    }
    memset(src, 0, sizeof *src);
    src->path = al_xstrdup(path);
    src->bytes = text;
    src->len = len;
    src->excerpt = lines;
    src->n_excerpt = n_lines;
    return true;
}

/* The excerpt's line holding offset, or NULL. */
static const al_source_excerpt_line *excerpt_line(const al_source *src, size_t offset)
{
    size_t lo = 0, hi = src->n_excerpt;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        const al_source_excerpt_line *l = &src->excerpt[mid];
        if (offset < l->start)
            hi = mid;
        else if (offset >= l->next)
            lo = mid + 1;
        else
            return l;
    }
    return NULL;
}

bool al_source_holds(const al_source *src, size_t offset)
{
    if (!src->excerpt)
        return true;
    return excerpt_line(src, offset > src->len ? src->len : offset) != NULL;
}

const char *al_source_at(const al_source *src, size_t offset)
{
    if (offset > src->len)
        offset = src->len;
    if (!src->excerpt)
        return src->bytes + offset;
    const al_source_excerpt_line *l = excerpt_line(src, offset);
    if (!l)
        return ""; /* not held: callers ask al_source_holds first */
    size_t in = offset - l->start;
    return src->bytes + l->text + (in < l->text_len ? in : l->text_len);
}

void al_source_position(const al_source *src, size_t offset, size_t *row,
                        size_t *column)
{
    if (offset > src->len)
        offset = src->len;
    if (src->excerpt) {
        const al_source_excerpt_line *l = excerpt_line(src, offset);
        size_t col = 1, in = l ? offset - l->start : 0;
        /* Past the text, the terminator's bytes: one column each. */
        for (size_t i = 0; l && i < in; i++)
            if (i >= l->text_len || ((unsigned char)src->bytes[l->text + i] & 0xC0) != 0x80)
                col++;
        *row = l ? l->row : 1;
        *column = col;
        return;
    }
    size_t lo = line_index(src, offset);
    size_t col = 1;
    for (size_t i = src->line_starts[lo]; i < offset; i++)
        if (((unsigned char)src->bytes[i] & 0xC0) != 0x80)
            col++;
    *row = lo + 1;
    *column = col;
}

void al_source_line(const al_source *src, size_t row, size_t *start,
                    size_t *end)
{
    if (src->excerpt) {
        *start = *end = src->len;
        for (size_t i = 0; i < src->n_excerpt; i++)
            if (src->excerpt[i].row == row) {
                *start = src->excerpt[i].start;
                *end = *start + src->excerpt[i].text_len;
                break;
            }
        return;
    }
    if (row == 0 || row > src->n_lines) {
        *start = *end = src->len;
        return;
    }
    size_t s = src->line_starts[row - 1];
    size_t e = row < src->n_lines ? src->line_starts[row] : src->len;
    if (e > s && src->bytes[e - 1] == '\n')
        e--;
    if (e > s && src->bytes[e - 1] == '\r')
        e--;
    *start = s;
    *end = e;
}

const char *al_source_strerror(al_source_status status)
{
    switch (status) {
    case AL_SOURCE_OK:
        return "ok";
    case AL_SOURCE_ERR_OPEN:
        return "cannot open";
    case AL_SOURCE_ERR_NOT_FILE:
        return "not a regular file";
    case AL_SOURCE_ERR_TOO_LARGE:
        return "file larger than 16 MiB, skipped";
    case AL_SOURCE_ERR_READ:
        return "read error";
    }
    return "unknown error";
}

size_t al_source_shown_row(const al_source *src, size_t row, size_t *cell)
{
    *cell = 0;
    if (!src->notebook)
        return row;
    size_t in_cell;
    al_notebook_cell_line(src->notebook, row, cell, &in_cell);
    return in_cell;
}

size_t al_source_place(const al_source *src, size_t offset, size_t *row, size_t *column)
{
    al_source_position(src, offset, row, column);
    size_t cell;
    *row = al_source_shown_row(src, *row, &cell);
    return cell;
}

bool al_source_names_attribute(const al_source *src, const char *attr)
{
    size_t n = strlen(attr);
    const char *p = src->bytes, *end = src->bytes + src->len;
    while ((p = memmem(p, (size_t)(end - p), attr, n)) != NULL) {
        bool dot = p > src->bytes && p[-1] == '.';
        bool whole = p + n == end || !(isalnum((unsigned char)p[n]) || p[n] == '_');
        if (dot && whole)
            return true;
        p += n;
    }
    return false;
}

size_t al_bytes_count_word(const char *bytes, size_t len, const char *word, size_t max)
{
    size_t n = strlen(word), count = 0;
    const char *p = bytes, *end = bytes + len;
    while (count < max && (p = memmem(p, (size_t)(end - p), word, n)) != NULL) {
        bool start = p == bytes || !(isalnum((unsigned char)p[-1]) || p[-1] == '_');
        bool whole = p + n == end || !(isalnum((unsigned char)p[n]) || p[n] == '_');
        count += start && whole;
        p += n;
    }
    return count;
}

size_t al_source_count_word(const al_source *src, const char *word, size_t max)
{
    return al_bytes_count_word(src->bytes, src->len, word, max);
}
