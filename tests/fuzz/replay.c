/* Runs files (or every file of folders) through a fuzz target once each:
 * the corpus as a regression test in builds without libFuzzer. */
#include "fuzz.h"
#include "base/util.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static int run_file(const char *path, size_t *count)
{
    FILE *fp = fopen(path, "rb");
    if (!fp) {
        fprintf(stderr, "replay: %s: %s\n", path, strerror(errno));
        return -1;
    }
    al_strbuf sb = {0};
    bool ok = al_strbuf_read(&sb, fp, 0, NULL);
    fclose(fp);
    if (!ok) {
        fprintf(stderr, "replay: %s: read error\n", path);
        al_strbuf_free(&sb);
        return -1;
    }
    LLVMFuzzerTestOneInput((const uint8_t *)sb.data, sb.len);
    al_strbuf_free(&sb);
    (*count)++;
    return 0;
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static int run_path(const char *path, size_t *count)
{
    struct stat st;
    if (stat(path, &st) != 0) {
        fprintf(stderr, "replay: %s: %s\n", path, strerror(errno));
        return -1;
    }
    if (!S_ISDIR(st.st_mode))
        return run_file(path, count);
    DIR *d = opendir(path);
    if (!d) {
        fprintf(stderr, "replay: %s: %s\n", path, strerror(errno));
        return -1;
    }
    char **names = NULL;
    size_t n = 0, cap = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.')
            continue;
        if (n == cap) {
            cap = cap ? 2 * cap : 64;
            char **grown = realloc(names, cap * sizeof *names);
            if (!grown)
                abort();
            names = grown;
        }
        size_t need = strlen(path) + strlen(e->d_name) + 2;
        names[n] = malloc(need);
        if (!names[n])
            abort();
        snprintf(names[n++], need, "%s/%s", path, e->d_name);
    }
    closedir(d);
    if (n > 1)
        qsort(names, n, sizeof *names, by_name);
    int rc = 0;
    for (size_t i = 0; i < n; i++) {
        if (run_path(names[i], count) != 0)
            rc = -1;
        free(names[i]);
    }
    free(names);
    return rc;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: %s FILE|DIR...\n", argv[0]);
        return 2;
    }
    size_t count = 0;
    int rc = 0;
    for (int i = 1; i < argc; i++)
        if (run_path(argv[i], &count) != 0)
            rc = 2;
    if (count == 0) {
        fprintf(stderr, "replay: no inputs found\n");
        return 2;
    }
    printf("replay: %zu inputs\n", count);
    return rc;
}
