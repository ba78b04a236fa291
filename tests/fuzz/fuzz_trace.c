/* The trace reader and its JSON tokenizer: any bytes either read as a
 * trace whose events are well formed (each ends after it starts, names a
 * known thread and string) and join without a fault, or are refused with
 * a message naming the file and saying where; and what the tokenizer
 * accepts, cJSON parses too (it is no more lenient than a full parser),
 * but for an unpaired surrogate escape: RFC 8259's grammar allows one,
 * which the tokenizer reads as U+FFFD and cJSON refuses. */
#include "fuzz.h"
#include "base/jsonstream.h"
#include "profile/join.h"
#include "profile/trace.h"

#include <cjson/cJSON.h>
#include <stdio.h>
#include <string.h>

typedef struct {
    const uint8_t *data;
    size_t size, pos;
} bytes;

static size_t give(void *ctx, char *buf, size_t cap, bool *failed, char *err, size_t err_size)
{
    (void)failed, (void)err, (void)err_size;
    bytes *b = ctx;
    size_t n = b->size - b->pos;
    /* Small, uneven chunks: tokens cross every boundary. */
    if (n > 7)
        n = 7;
    if (n > cap)
        n = cap;
    memcpy(buf, b->data + b->pos, n);
    b->pos += n;
    return n;
}

/* Whether the bytes hold a \\uD800-\\uDFFF escape. */
static bool surrogate_escape(const uint8_t *data, size_t size)
{
    for (size_t i = 0; i + 5 < size; i++)
        if (data[i] == '\\' && data[i + 1] == 'u' && (data[i + 2] == 'd' || data[i + 2] == 'D') &&
            data[i + 3] != 0 && strchr("89abcdefABCDEF", data[i + 3]))
            return true;
    return false;
}

static bool every_frame(void *ctx, const char *name, bool label)
{
    (void)ctx, (void)label;
    return name[0] != '<';
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    bytes b = {data, size, 0};
    al_jsonstream *js = al_js_new(give, &b, 64, 1 << 16);
    al_js_token t;
    unsigned depth = 0;
    while ((t = al_js_next(js)) != AL_JS_END && t != AL_JS_ERROR) {
        if (t == AL_JS_BEGIN_OBJECT || t == AL_JS_BEGIN_ARRAY)
            depth++;
        if (t == AL_JS_END_OBJECT || t == AL_JS_END_ARRAY) {
            FUZZ_CHECK(depth > 0, size);
            depth--;
        }
        FUZZ_CHECK(al_js_depth(js) == depth, size);
    }
    if (t == AL_JS_END) {
        FUZZ_CHECK(depth == 0, size);
        cJSON *doc = cJSON_ParseWithLength((const char *)data, size);
        /* cJSON stops at a NUL inside a string, which JSON forbids raw. */
        FUZZ_CHECK(doc != NULL || memchr(data, '\0', size) != NULL || surrogate_escape(data, size),
                   size);
        cJSON_Delete(doc);
    } else {
        FUZZ_CHECK(al_js_error(js)[0] != '\0', size);
        FUZZ_CHECK(al_js_offset(js) <= size, size);
    }
    al_js_free(js);

    al_trace trace;
    al_trace_error err;
    if (!al_trace_read_memory("fuzz.json", (const char *)data, size, &trace, &err)) {
        FUZZ_CHECK(!strncmp(err.message, "fuzz.json: ", 11), size);
        FUZZ_CHECK(trace.n_events == 0, size);
        al_trace_free(&trace);
        return 0;
    }
    for (size_t i = 0; i < trace.n_events; i++) {
        const al_trace_event *e = &trace.events[i];
        FUZZ_CHECK(e->end >= e->start, size);
        FUZZ_CHECK(e->thread < trace.n_threads, size);
        FUZZ_CHECK(e->name < trace.n_names, size);
    }
    al_trace_calls calls;
    al_trace_join(&trace, every_frame, NULL, &calls);
    for (size_t i = 0; i < calls.n; i++) {
        FUZZ_CHECK(calls.items[i].gpu_ns >= 0 && calls.items[i].host_ns >= 0, size);
        FUZZ_CHECK(calls.items[i].op < (int64_t)trace.n_names, size);
    }
    FUZZ_CHECK(calls.gpu_tree_ns + calls.gpu_orphan_ns <= calls.gpu_total_ns + calls.gpu_graph_ns,
               size);
    al_trace_calls_free(&calls);
    al_trace_free(&trace);
    return 0;
}
