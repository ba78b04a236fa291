#include "companion.h"

#include "../base/util.h"

#include <errno.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

extern const char *const al_builtin_site_names[];
extern const char *const al_builtin_site_texts[];
extern const size_t al_builtin_site_lengths[];

static bool write_all(const char *path, const char *bytes, size_t len)
{
    FILE *f = fopen(path, "wb");
    if (!f)
        return false;
    bool ok = fwrite(bytes, 1, len, f) == len;
    return fclose(f) == 0 && ok;
}

char *al_companion_make(const char *purpose, char *err, size_t err_size)
{
    al_strbuf tmpl = {0};
    al_strbuf_printf(&tmpl, "/tmp/alloclint-%s-XXXXXX", purpose);
    if (!mkdtemp(tmpl.data)) {
        snprintf(err, err_size, "cannot make a temporary folder: %s", strerror(errno));
        al_strbuf_free(&tmpl);
        return NULL;
    }
    al_strbuf site = {0};
    al_strbuf_printf(&site, "%s/site", tmpl.data);
    bool made = mkdir(site.data, 0700) == 0;
    al_strbuf_printf(&site, "/%s", al_builtin_site_names[0]);
    made = made && write_all(site.data, al_builtin_site_texts[0], al_builtin_site_lengths[0]);
    al_strbuf_free(&site);
    if (!made) {
        snprintf(err, err_size, "cannot prepare %s: %s", tmpl.data, strerror(errno));
        al_companion_remove(tmpl.data);
        al_strbuf_free(&tmpl);
        return NULL;
    }
    return al_strbuf_detach(&tmpl);
}

char *al_companion_pythonpath(const char *root)
{
    const char *old = getenv("PYTHONPATH");
    al_strbuf pp = {0};
    al_strbuf_printf(&pp, "PYTHONPATH=%s/site%s%s", root, old && *old ? ":" : "", old ? old : "");
    return al_strbuf_detach(&pp);
}

static int remove_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st, (void)flag, (void)ftw;
    remove(path);
    return 0;
}

void al_companion_remove(const char *root)
{
    if (root && *root)
        nftw(root, remove_one, 16, FTW_DEPTH | FTW_PHYS);
}
