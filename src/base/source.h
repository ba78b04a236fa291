/* A source file held in memory: its bytes, line starts and the properties
 * that decide whether alloclint may analyse or rewrite it. */
#ifndef ALLOCLINT_SOURCE_H
#define ALLOCLINT_SOURCE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Files larger than this are skipped with a warning: generated tables,
 * vendored blobs.  Real model files are well under 1 MiB. */
#define AL_SOURCE_MAX_BYTES (16u * 1024u * 1024u)

/* A byte range of a source: a comment, a string, a statement. */
typedef struct {
    size_t start, end;
} al_span;

typedef enum {
    AL_SOURCE_OK = 0,
    AL_SOURCE_ERR_OPEN,      /* missing, unreadable: errno in err_errno */
    AL_SOURCE_ERR_NOT_FILE,  /* a directory, device, fifo */
    AL_SOURCE_ERR_TOO_LARGE,
    AL_SOURCE_ERR_READ,
} al_source_status;

/* A line of an excerpt, in the file's coordinates. */
typedef struct {
    size_t row;      /* 1-based */
    size_t start;    /* offset of its first byte */
    size_t next;     /* the next line's start; len + 1 for the last line */
    size_t text;     /* its bytes (no terminator): bytes + text ... */
    size_t text_len;
} al_source_excerpt_line;

typedef struct {
    char *path;          /* as given, used in messages and diffs */
    char *bytes;         /* NUL-terminated copy; len excludes the NUL */
    size_t len;
    size_t *line_starts; /* byte offset of each line's first byte */
    size_t n_lines;
    bool has_bom;
    bool has_nul;        /* a NUL byte: tree-sitter would stop there */
    size_t nul_offset;
    bool bad_utf8;
    size_t bad_utf8_offset;
    uint64_t hash;       /* XXH3 of bytes, to detect a file changed on disk */
    const struct al_notebook *notebook; /* bytes are a notebook's code cells (borrowed) */
    int err_errno;
    /* An excerpt (a cached file's findings, shown without reading the
     * file): only these lines are held, sorted by row; bytes holds their
     * text, line_starts is NULL, and the line and position functions
     * below answer for offsets on them only. */
    al_source_excerpt_line *excerpt;
    size_t n_excerpt;
} al_source;

al_source_status al_source_load(al_source *src, const char *path);
/* The file's bytes, hash and NUL check only, for byte scans over a
 * project: no UTF-8 check and no line index, so the line and position
 * functions below must not be asked about it. */
al_source_status al_source_load_bytes(al_source *src, const char *path);
/* The bytes of a regular file (NUL-terminated; caller frees), at most
 * AL_SOURCE_MAX_BYTES, without a source's analysis; *err is errno on an
 * open or read error. */
al_source_status al_file_read_bytes(const char *path, char **out, size_t *out_len, int *err);
/* The hash (as al_source_load sets it) and size of a file's bytes,
 * read under the same rules, without keeping or analysing them. */
al_source_status al_source_hash_file(const char *path, uint64_t *hash, size_t *len);
/* What stat says of a file that any change of its bytes changes: the
 * status-change time moves on every write, rename or chmod and cannot be
 * set back (the modification time can). */
typedef struct {
    uint64_t dev, ino, size;
    int64_t mtime_ns, ctime_ns;
} al_file_stamp;
bool al_file_stamp_read(const char *path, al_file_stamp *out);
/* What is known of a file before it is read: whether a walk saw it as a
 * regular file (no link), and its stamp when read as it was found. */
typedef struct {
    bool regular;
    bool stamped;
    al_file_stamp stamp;
} al_file_seen;
bool al_file_stamp_equal(const al_file_stamp *a, const al_file_stamp *b);
/* The wall clock in the stamps' units (ns since the epoch). */
int64_t al_file_stamp_now(void);
/* Takes a copy of bytes; never fails. */
void al_source_from_memory(al_source *src, const char *path, const char *bytes,
                           size_t len);
void al_source_free(al_source *src);
/* The excerpt of src (a whole source) holding the lines of the given
 * offsets, each line once, with src's path, length and hash: false when
 * src is an excerpt itself. Free it with al_source_free. */
bool al_source_excerpt(const al_source *src, const size_t *offsets, size_t n_offsets,
                       al_source *out);
/* An excerpt source of a file of `len` bytes (takes lines and text).
 * False (nothing taken) when the lines are not sorted, overlap or point
 * outside text or the file. */
bool al_source_from_excerpt(al_source *src, const char *path, size_t len,
                            al_source_excerpt_line *lines, size_t n_lines, char *text,
                            size_t text_len);
/* Whether every offset lies on a line src holds (always, but for an
 * excerpt). */
bool al_source_holds(const al_source *src, size_t offset);
/* The byte at offset, and the rest of its line after it: src->bytes +
 * offset, or for an excerpt the copy of its line. Offsets past a line's
 * text (its terminator) point at the end of that text. */
const char *al_source_at(const al_source *src, size_t offset);

/* 1-based row and column (in characters) of a byte offset. */
void al_source_position(const al_source *src, size_t offset, size_t *row,
                        size_t *column);
/* As al_source_position, but for a notebook's source the row is counted
 * within its cell, whose number (1-based) is returned; 0 for other files. */
size_t al_source_place(const al_source *src, size_t offset, size_t *row, size_t *column);
/* A row of the source as users see it: the row within its cell. */
size_t al_source_shown_row(const al_source *src, size_t row, size_t *cell);
/* Byte range of line `row` (1-based) without its line terminator. */
void al_source_line(const al_source *src, size_t row, size_t *start,
                    size_t *end);

/* Returns the offset of the first invalid UTF-8 sequence, or len. */
size_t al_utf8_validate(const char *s, size_t len);
uint64_t al_hash_bytes(const char *s, size_t len);
/* Whether the bytes hold `.attr` with attr a whole name (read as text:
 * a comment or a string counts too). */
bool al_source_names_attribute(const al_source *src, const char *attr);
/* How many times src spells word as a whole word (a dot before it
 * counts), counting up to max. */
size_t al_source_count_word(const al_source *src, const char *word, size_t max);
/* The same over bytes[0, len), a word at bytes[0] starting there. */
size_t al_bytes_count_word(const char *bytes, size_t len, const char *word, size_t max);

const char *al_source_strerror(al_source_status status);

#endif
