/* Replacing a file's contents atomically. */
#ifndef ALLOCLINT_ATOMIC_H
#define ALLOCLINT_ATOMIC_H

#include <stddef.h>
#include <stdint.h>

typedef enum {
    AL_WRITE_OK = 0,
    AL_WRITE_CHANGED, /* the file's bytes differ from what was read */
    AL_WRITE_FAILED,  /* errno says why; the original is untouched */
} al_write_status;

/* Writes bytes to a temporary file in the same folder, keeps the
 * original's mode, flushes it and renames it over path - but only if the
 * file on disk still hashes to expected_hash. */
al_write_status al_write_atomic(const char *path, const char *bytes, size_t len,
                                uint64_t expected_hash, int *err);

#endif
