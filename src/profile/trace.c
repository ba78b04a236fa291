#include "trace.h"

#include "../base/jsonstream.h"
#include "../base/util.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <xxhash.h>
#include <zlib.h>

/* Kineto nests args two levels down and flows and counters no deeper;
 * anything past this is not a trace. */
#define MAX_DEPTH 64
/* The longest name kept: C++ kernel names run to a few kilobytes. */
#define MAX_STRING (1u << 20)

/* --- interned strings: an open-addressing index over t->names. */
typedef struct {
    uint32_t *slots; /* id + 1; 0 empty */
    size_t cap;
} intern_index;

static uint32_t intern_in(char ***items, size_t *n, size_t *cap, intern_index *ix, const char *s,
                          size_t len)
{
    if ((*n + 1) * 2 > ix->cap) {
        size_t ncap = ix->cap ? ix->cap * 2 : 1024;
        uint32_t *slots = al_xcalloc(ncap, sizeof *slots);
        for (size_t i = 0; i < ix->cap; i++) {
            uint32_t id = ix->slots[i];
            if (!id)
                continue;
            const char *v = (*items)[id - 1];
            size_t h = (size_t)XXH3_64bits(v, strlen(v)) & (ncap - 1);
            while (slots[h])
                h = (h + 1) & (ncap - 1);
            slots[h] = id;
        }
        free(ix->slots);
        ix->slots = slots;
        ix->cap = ncap;
    }
    size_t h = (size_t)XXH3_64bits(s, len) & (ix->cap - 1);
    while (ix->slots[h]) {
        const char *v = (*items)[ix->slots[h] - 1];
        if (strlen(v) == len && !memcmp(v, s, len))
            return ix->slots[h] - 1;
        h = (h + 1) & (ix->cap - 1);
    }
    AL_PUSH(*items, *n, *cap, al_xstrndup(s, len));
    ix->slots[h] = (uint32_t)*n;
    return (uint32_t)(*n - 1);
}

typedef struct {
    intern_index names, threads;
} interns;

/* --- the byte sources: zlib reads gzip and plain files alike. */
typedef struct {
    gzFile gz;
} file_source;

static size_t read_gz(void *ctx, char *buf, size_t cap, bool *failed, char *err, size_t err_size)
{
    file_source *fs = ctx;
    int n = gzread(fs->gz, buf, (unsigned)cap);
    int code = Z_OK;
    const char *msg = gzerror(fs->gz, &code);
    if (n < 0 || (code != Z_OK && code != Z_STREAM_END)) {
        *failed = true;
        if (code == Z_ERRNO)
            snprintf(err, err_size, "read error: %s", strerror(errno));
        else if (code == Z_BUF_ERROR)
            snprintf(err, err_size, "the gzip data ends early (truncated?)");
        else
            snprintf(err, err_size, "corrupt gzip data (%s)", msg ? msg : "zlib error");
        return 0;
    }
    return (size_t)n;
}

typedef struct {
    const char *bytes;
    size_t len, pos;
} memory_source;

static size_t read_memory(void *ctx, char *buf, size_t cap, bool *failed, char *err,
                          size_t err_size)
{
    (void)failed, (void)err, (void)err_size;
    memory_source *ms = ctx;
    size_t n = ms->len - ms->pos < cap ? ms->len - ms->pos : cap;
    memcpy(buf, ms->bytes + ms->pos, n);
    ms->pos += n;
    return n;
}

/* --- one event object. */
typedef struct {
    char ph[4], cat[48];
    al_strbuf name;
    char pid[48], tid[48];
    double ts, dur;
    bool has_ts;
    int64_t ext, corr;
} event_fields;

static void copy_small(char *dst, size_t cap, const char *s, size_t len)
{
    if (len >= cap)
        len = cap - 1;
    memcpy(dst, s, len);
    dst[len] = '\0';
}

/* A pid or tid: a number or a string ("Spans", "PyTorch Profiler"). */
static bool read_id(al_jsonstream *js, char *dst, size_t cap)
{
    al_js_token t = al_js_next(js);
    size_t len;
    const char *s = al_js_text(js, &len);
    if (t == AL_JS_NUMBER || t == AL_JS_STRING) {
        copy_small(dst, cap, s, len);
        return true;
    }
    return al_js_skip(js, t);
}

static bool read_int(al_jsonstream *js, int64_t *out)
{
    al_js_token t = al_js_next(js);
    if (t == AL_JS_NUMBER) {
        double v = al_js_number(js);
        if (isfinite(v) && fabs(v) < 9e18)
            *out = (int64_t)v;
        return true;
    }
    return al_js_skip(js, t);
}

static bool read_time(al_jsonstream *js, double *out, bool *has)
{
    al_js_token t = al_js_next(js);
    if (t == AL_JS_NUMBER || t == AL_JS_STRING) {
        char *end;
        const char *s = al_js_text(js, NULL);
        double v = strtod(s, &end);
        if (end != s && isfinite(v) && fabs(v) < 9e15) {
            *out = v;
            if (has)
                *has = true;
        }
        return true;
    }
    return al_js_skip(js, t);
}

static bool read_args(al_jsonstream *js, event_fields *ev)
{
    for (;;) {
        al_js_token t = al_js_next(js);
        if (t == AL_JS_END_OBJECT)
            return true;
        if (t != AL_JS_KEY)
            return false;
        const char *k = al_js_text(js, NULL);
        bool ok;
        if (!strcmp(k, "External id"))
            ok = read_int(js, &ev->ext);
        else if (!strcmp(k, "correlation"))
            ok = read_int(js, &ev->corr);
        else
            ok = al_js_skip(js, t);
        if (!ok)
            return false;
    }
}

static bool read_fields(al_jsonstream *js, event_fields *ev)
{
    ev->ph[0] = ev->cat[0] = ev->pid[0] = ev->tid[0] = '\0';
    ev->name.len = 0;
    ev->ts = ev->dur = 0;
    ev->has_ts = false;
    ev->ext = ev->corr = -1;
    for (;;) {
        al_js_token t = al_js_next(js);
        if (t == AL_JS_END_OBJECT)
            return true;
        if (t != AL_JS_KEY)
            return false;
        size_t klen;
        const char *k = al_js_text(js, &klen);
        bool ok = true;
        if (!strcmp(k, "ph") || !strcmp(k, "cat") || !strcmp(k, "name")) {
            char which = k[0] == 'p' ? 'p' : k[0] == 'c' ? 'c' : 'n';
            al_js_token v = al_js_next(js);
            size_t len;
            const char *s = al_js_text(js, &len);
            if (v == AL_JS_STRING) {
                if (which == 'p')
                    copy_small(ev->ph, sizeof ev->ph, s, len);
                else if (which == 'c')
                    copy_small(ev->cat, sizeof ev->cat, s, len);
                else
                    al_strbuf_append(&ev->name, s, len);
            } else {
                ok = al_js_skip(js, v);
            }
        } else if (!strcmp(k, "pid")) {
            ok = read_id(js, ev->pid, sizeof ev->pid);
        } else if (!strcmp(k, "tid")) {
            ok = read_id(js, ev->tid, sizeof ev->tid);
        } else if (!strcmp(k, "ts")) {
            ok = read_time(js, &ev->ts, &ev->has_ts);
        } else if (!strcmp(k, "dur")) {
            ok = read_time(js, &ev->dur, NULL);
        } else if (!strcmp(k, "args")) {
            al_js_token v = al_js_next(js);
            ok = v == AL_JS_BEGIN_OBJECT ? read_args(js, ev) : al_js_skip(js, v);
        } else {
            ok = al_js_skip(js, t);
        }
        if (!ok)
            return false;
    }
}

static bool cat_is(const char *cat, const char *name)
{
    return !strcasecmp(cat, name);
}

#define LABEL_PREFIX "alloclint.site:"

static int kind_of(const event_fields *ev)
{
    const char *c = ev->cat;
    bool labelled = ev->name.len > strlen(LABEL_PREFIX) &&
                    !memcmp(ev->name.data, LABEL_PREFIX, strlen(LABEL_PREFIX));
    /* The legacy profiler (torch built without Kineto, as Debian's is)
     * writes a bare array of ops with no category: labels and ops. */
    if (!c[0])
        return labelled ? AL_TRACE_LABEL : ev->name.len ? AL_TRACE_OP : -1;
    if (cat_is(c, "python_function"))
        return AL_TRACE_FRAME;
    if (cat_is(c, "cpu_op") || cat_is(c, "operator"))
        return AL_TRACE_OP;
    if (cat_is(c, "cuda_runtime") || cat_is(c, "cuda_driver") || cat_is(c, "runtime"))
        return AL_TRACE_LAUNCH;
    if (cat_is(c, "kernel") || cat_is(c, "gpu_memcpy") || cat_is(c, "gpu_memset") ||
        cat_is(c, "memcpy") || cat_is(c, "memset"))
        return AL_TRACE_GPU;
    if (cat_is(c, "user_annotation") && labelled)
        return AL_TRACE_LABEL;
    return -1;
}

/* `<built-in method zeros of type object at 0x7f65f5d3e180>`: the address
 * differs between runs and objects; the method is the same. */
static size_t without_address(const char *s, size_t len)
{
    if (len < 8 || s[0] != '<' || s[len - 1] != '>')
        return len;
    const char *at = NULL;
    for (const char *p = s; p + 6 < s + len; p++)
        if (!memcmp(p, " at 0x", 6))
            at = p;
    if (!at)
        return len;
    for (const char *p = at + 6; p < s + len - 1; p++)
        if (!((*p >= '0' && *p <= '9') || (*p >= 'a' && *p <= 'f') || (*p >= 'A' && *p <= 'F')))
            return len;
    return (size_t)(at - s);
}

/* Microseconds (Kineto's unit, to the nanosecond) to nanoseconds. */
static int64_t nanoseconds(double us)
{
    double ns = us * 1000.0;
    return (int64_t)(ns >= 0 ? ns + 0.5 : ns - 0.5);
}

static void keep_event(al_trace *t, interns *ix, const event_fields *ev, al_strbuf *scratch)
{
    if (strcmp(ev->ph, "X") || !ev->has_ts)
        return;
    int kind = kind_of(ev);
    if (kind < 0)
        return;
    al_trace_event e;
    memset(&e, 0, sizeof e);
    e.kind = (uint8_t)kind;
    e.start = nanoseconds(ev->ts);
    int64_t dur = nanoseconds(ev->dur);
    e.end = e.start + (dur > 0 ? dur : 0);
    e.ext = ev->ext;
    e.corr = ev->corr;
    /* A \u0000 in a name ends it: the interned names are C strings. */
    const char *name = ev->name.len ? ev->name.data : "";
    size_t nlen = strnlen(name, ev->name.len);
    scratch->len = 0;
    if (kind == AL_TRACE_FRAME) {
        size_t kept = without_address(name, nlen);
        if (kept < nlen) {
            al_strbuf_append(scratch, name, kept);
            al_strbuf_putc(scratch, '>');
            name = scratch->data;
            nlen = scratch->len;
        }
        t->n_frames++;
    }
    t->n_labels += kind == AL_TRACE_LABEL;
    e.name = intern_in(&t->names, &t->n_names, &t->cap_names, &ix->names, name, nlen);
    scratch->len = 0;
    al_strbuf_printf(scratch, "%s/%s", ev->pid, ev->tid);
    e.thread = intern_in(&t->threads, &t->n_threads, &t->cap_threads, &ix->threads, scratch->data,
                         scratch->len);
    AL_PUSH(t->events, t->n_events, t->cap_events, e);
}

static bool read_events(al_jsonstream *js, al_trace *t, interns *ix)
{
    event_fields ev;
    memset(&ev, 0, sizeof ev);
    al_strbuf scratch = {0};
    bool ok = true;
    for (;;) {
        al_js_token tk = al_js_next(js);
        if (tk == AL_JS_END_ARRAY)
            break;
        if (tk == AL_JS_BEGIN_OBJECT) {
            if (!read_fields(js, &ev)) {
                ok = false;
                break;
            }
            keep_event(t, ix, &ev, &scratch);
        } else if (!al_js_skip(js, tk) || tk == AL_JS_END_OBJECT || tk == AL_JS_KEY) {
            ok = false;
            break;
        }
    }
    al_strbuf_free(&ev.name);
    al_strbuf_free(&scratch);
    return ok;
}

static bool read_document(al_jsonstream *js, al_trace *t, interns *ix, const char **why)
{
    al_js_token tk = al_js_next(js);
    bool found = false;
    if (tk == AL_JS_BEGIN_ARRAY) {
        if (!read_events(js, t, ix))
            return false;
        found = true;
    } else if (tk == AL_JS_BEGIN_OBJECT) {
        for (;;) {
            tk = al_js_next(js);
            if (tk == AL_JS_END_OBJECT)
                break;
            if (tk != AL_JS_KEY)
                return false;
            if (!strcmp(al_js_text(js, NULL), "traceEvents") && !found) {
                al_js_token v = al_js_next(js);
                if (v == AL_JS_BEGIN_ARRAY) {
                    if (!read_events(js, t, ix))
                        return false;
                    found = true;
                } else if (!al_js_skip(js, v)) {
                    return false;
                }
            } else if (!al_js_skip(js, tk)) {
                return false;
            }
        }
    } else if (tk == AL_JS_ERROR) {
        return false;
    } else if (!al_js_skip(js, tk)) {
        return false;
    }
    if (al_js_next(js) != AL_JS_END)
        return false;
    if (!found) {
        *why = "not a Chrome trace: no traceEvents array";
        return false;
    }
    return true;
}

static bool read_stream(const char *name, bool gz, al_js_reader read, void *ctx, al_trace *t,
                        al_trace_error *err)
{
    memset(t, 0, sizeof *t);
    t->path = al_xstrdup(name);
    t->gzipped = gz;
    interns ix;
    memset(&ix, 0, sizeof ix);
    al_jsonstream *js = al_js_new(read, ctx, MAX_DEPTH, MAX_STRING);
    const char *why = NULL;
    bool ok = read_document(js, t, &ix, &why);
    t->read_bytes = al_js_offset(js);
    if (!ok) {
        if (why)
            snprintf(err->message, sizeof err->message, "%s: %s", name, why);
        else
            snprintf(err->message, sizeof err->message, "%s: at byte %llu%s: %s", name,
                     (unsigned long long)al_js_offset(js),
                     gz ? " of the decompressed data" : "",
                     al_js_error(js)[0] ? al_js_error(js) : "not a Chrome trace");
    }
    al_js_free(js);
    free(ix.names.slots);
    free(ix.threads.slots);
    if (!ok)
        al_trace_free(t);
    return ok;
}

static bool gzip_magic(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return false;
    unsigned char m[2] = {0, 0};
    size_t n = fread(m, 1, 2, f);
    fclose(f);
    return n == 2 && m[0] == 0x1f && m[1] == 0x8b;
}

bool al_trace_read(const char *path, al_trace *t, al_trace_error *err)
{
    memset(t, 0, sizeof *t);
    struct stat st;
    if (stat(path, &st) != 0) {
        snprintf(err->message, sizeof err->message, "%s: %s", path, strerror(errno));
        return false;
    }
    if (S_ISDIR(st.st_mode)) {
        snprintf(err->message, sizeof err->message, "%s: is a directory, not a trace", path);
        return false;
    }
    size_t plen = strlen(path);
    bool says_gz = plen > 3 && !strcmp(path + plen - 3, ".gz");
    bool gz = gzip_magic(path);
    if (says_gz && !gz) {
        snprintf(err->message, sizeof err->message,
                 "%s: at byte 0: named .gz, but not gzip data (no gzip header)", path);
        return false;
    }
    file_source fs;
    fs.gz = gzopen(path, "rb");
    if (!fs.gz) {
        snprintf(err->message, sizeof err->message, "%s: %s", path, strerror(errno));
        return false;
    }
    gzbuffer(fs.gz, 256 * 1024);
    bool ok = read_stream(path, gz, read_gz, &fs, t, err);
    gzclose(fs.gz);
    return ok;
}

bool al_trace_read_memory(const char *name, const char *bytes, size_t len, al_trace *t,
                          al_trace_error *err)
{
    memory_source ms = {bytes, len, 0};
    return read_stream(name, false, read_memory, &ms, t, err);
}

void al_trace_free(al_trace *t)
{
    for (size_t i = 0; i < t->n_names; i++)
        free(t->names[i]);
    for (size_t i = 0; i < t->n_threads; i++)
        free(t->threads[i]);
    free(t->names);
    free(t->threads);
    free(t->events);
    free(t->path);
    memset(t, 0, sizeof *t);
}
