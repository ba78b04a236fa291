#include "atomic.h"

#include "../base/source.h"
#include "../base/util.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

al_write_status al_write_atomic(const char *path, const char *bytes, size_t len,
                                uint64_t expected_hash, int *err)
{
    *err = 0;
    al_source now;
    if (al_source_load(&now, path) != AL_SOURCE_OK) {
        *err = now.err_errno ? now.err_errno : EIO;
        return AL_WRITE_FAILED;
    }
    bool same = now.hash == expected_hash;
    al_source_free(&now);
    if (!same)
        return AL_WRITE_CHANGED;

    struct stat st;
    if (stat(path, &st) != 0) {
        *err = errno;
        return AL_WRITE_FAILED;
    }
    al_strbuf tmp = {0};
    al_strbuf_printf(&tmp, "%s.alloclint-XXXXXX", path);
    int fd = mkstemp(tmp.data);
    if (fd < 0) {
        *err = errno;
        al_strbuf_free(&tmp);
        return AL_WRITE_FAILED;
    }
    size_t done = 0;
    while (done < len) {
        ssize_t n = write(fd, bytes + done, len - done);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            goto fail;
        }
        done += (size_t)n;
    }
    if (fchmod(fd, st.st_mode & 07777) != 0 || fsync(fd) != 0)
        goto fail;
    if (close(fd) != 0) {
        fd = -1;
        goto fail;
    }
    fd = -1;
    if (rename(tmp.data, path) != 0)
        goto fail;
    al_strbuf_free(&tmp);
    return AL_WRITE_OK;
fail:
    *err = errno;
    if (fd >= 0)
        close(fd);
    unlink(tmp.data);
    al_strbuf_free(&tmp);
    return AL_WRITE_FAILED;
}
