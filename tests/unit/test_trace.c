/* Profiler traces (profile/): reading Kineto's layouts and the legacy
 * profiler's, plain and gzipped, and refusing what is not a whole trace
 * with the file and the offset; the join of GPU events to the calls under
 * the tree's frames (nesting, threads, a frame outside the tree, a GPU
 * event without an External id, a CUDA-graph replay); a function's call
 * sites in evaluation order; and the sites' attribution: one site of a
 * kind, straight-line sites by rank, and a loop's sites left with the
 * function, said so. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "analysis/python/callsites.h"
#include "base/source.h"
#include "base/util.h"
#include "front/python/pyast.h"
#include "profile/join.h"
#include "profile/sites.h"
#include "profile/trace.h"

/* A trace of one decode step: `build` (a function of the tree) calls
 * torch.zeros twice and torch.cat once; a frame of a library sits between
 * for the cat; a second thread runs a fill outside the tree; one kernel
 * has no External id (found through its launch's correlation); one GPU
 * event belongs to a CUDA-graph replay. */
static const char STEP[] =
    "{\"schemaVersion\": 1, \"traceEvents\": [\n"
    "{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"aten::zeros\", \"pid\": 1, \"tid\": 1, \"ts\": 110, \"dur\": 20, \"args\": {\"External id\": 1}},\n"
    "{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"aten::fill_\", \"pid\": 1, \"tid\": 1, \"ts\": 115, \"dur\": 10, \"args\": {\"External id\": 2}},\n"
    "{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"aten::zeros\", \"pid\": 1, \"tid\": 1, \"ts\": 150, \"dur\": 20, \"args\": {\"External id\": 3}},\n"
    "{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"aten::fill_\", \"pid\": 1, \"tid\": 1, \"ts\": 155, \"dur\": 10, \"args\": {\"External id\": 4}},\n"
    "{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"aten::cat\", \"pid\": 1, \"tid\": 1, \"ts\": 200, \"dur\": 30, \"args\": {\"External id\": 5}},\n"
    "{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"aten::fill_\", \"pid\": 1, \"tid\": 2, \"ts\": 120, \"dur\": 5, \"args\": {\"External id\": 6}},\n"
    "{\"ph\": \"X\", \"cat\": \"python_function\", \"name\": \"eng/step.py(4): build\", \"pid\": 1, \"tid\": 1, \"ts\": 100, \"dur\": 200, \"args\": {\"Python id\": 1}},\n"
    "{\"ph\": \"X\", \"cat\": \"python_function\", \"name\": \"<built-in method zeros of type object at 0x7f00>\", \"pid\": 1, \"tid\": 1, \"ts\": 105, \"dur\": 30},\n"
    "{\"ph\": \"X\", \"cat\": \"python_function\", \"name\": \"<built-in method zeros of type object at 0x7f00>\", \"pid\": 1, \"tid\": 1, \"ts\": 145, \"dur\": 30},\n"
    "{\"ph\": \"X\", \"cat\": \"python_function\", \"name\": \"lib/ops.py(9): cat\", \"pid\": 1, \"tid\": 1, \"ts\": 190, \"dur\": 50},\n"
    "{\"ph\": \"X\", \"cat\": \"python_function\", \"name\": \"<built-in method replay of CUDAGraph object at 0x1>\", \"pid\": 1, \"tid\": 1, \"ts\": 250, \"dur\": 20},\n"
    "{\"ph\": \"X\", \"cat\": \"python_function\", \"name\": \"other/run.py(1): main\", \"pid\": 1, \"tid\": 2, \"ts\": 100, \"dur\": 50},\n"
    "{\"ph\": \"X\", \"cat\": \"cuda_runtime\", \"name\": \"cudaLaunchKernel\", \"pid\": 1, \"tid\": 1, \"ts\": 117, \"dur\": 3, \"args\": {\"External id\": 2, \"correlation\": 11}},\n"
    "{\"ph\": \"X\", \"cat\": \"cuda_runtime\", \"name\": \"cudaLaunchKernel\", \"pid\": 1, \"tid\": 1, \"ts\": 157, \"dur\": 3, \"args\": {\"External id\": 4, \"correlation\": 12}},\n"
    "{\"ph\": \"X\", \"cat\": \"cuda_runtime\", \"name\": \"cudaLaunchKernel\", \"pid\": 1, \"tid\": 1, \"ts\": 210, \"dur\": 3, \"args\": {\"External id\": 5, \"correlation\": 13}},\n"
    "{\"ph\": \"X\", \"cat\": \"cuda_runtime\", \"name\": \"cudaGraphLaunch\", \"pid\": 1, \"tid\": 1, \"ts\": 255, \"dur\": 5, \"args\": {\"correlation\": 14}},\n"
    "{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"fill\", \"pid\": 0, \"tid\": 7, \"ts\": 300, \"dur\": 2, \"args\": {\"External id\": 2, \"correlation\": 11}},\n"
    "{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"fill\", \"pid\": 0, \"tid\": 7, \"ts\": 310, \"dur\": 3, \"args\": {\"correlation\": 12}},\n"
    "{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"CatArrayBatchedCopy\", \"pid\": 0, \"tid\": 7, \"ts\": 320, \"dur\": 4, \"args\": {\"External id\": 5, \"correlation\": 13}},\n"
    "{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"graphed\", \"pid\": 0, \"tid\": 7, \"ts\": 330, \"dur\": 10, \"args\": {\"correlation\": 14}},\n"
    "{\"ph\": \"X\", \"cat\": \"gpu_memset\", \"name\": \"Memset\", \"pid\": 0, \"tid\": 7, \"ts\": 340, \"dur\": 1, \"args\": {\"External id\": 6}},\n"
    "{\"ph\": \"f\", \"id\": 11, \"pid\": 0, \"tid\": 7, \"ts\": 300, \"cat\": \"ac2g\", \"name\": \"ac2g\"},\n"
    "{\"name\": \"process_name\", \"ph\": \"M\", \"pid\": 1, \"args\": {\"name\": \"python3\"}}\n"
    "], \"traceName\": \"step\"}\n";

static const char STEP_PY[] = "import torch\n"
                              "\n"
                              "\n"
                              "def build(n, xs):\n"
                              "    a = torch.zeros(n)\n"
                              "    b = torch.zeros(2 * n)\n"
                              "    c = torch.cat([a, b])\n"
                              "    return c\n";

static void test_read(void **state)
{
    (void)state;
    al_trace t;
    al_trace_error err;
    assert_true(al_trace_read_memory("step.json", STEP, strlen(STEP), &t, &err));
    /* 6 ops, 6 frames, 4 launches, 5 GPU events; the flow and the
     * metadata are dropped. */
    assert_int_equal(t.n_events, 21);
    assert_int_equal(t.n_frames, 6);
    size_t gpu = 0, frames = 0;
    bool stripped = false;
    for (size_t i = 0; i < t.n_events; i++) {
        gpu += t.events[i].kind == AL_TRACE_GPU;
        frames += t.events[i].kind == AL_TRACE_FRAME;
        if (!strcmp(t.names[t.events[i].name], "<built-in method zeros of type object>"))
            stripped = true;
        assert_true(t.events[i].end >= t.events[i].start);
    }
    assert_int_equal(gpu, 5);
    assert_int_equal(frames, 6);
    assert_true(stripped);
    assert_int_equal(t.events[0].start, 110000); /* microseconds to nanoseconds */
    assert_int_equal(t.events[0].end, 130000);
    assert_int_equal(t.events[0].ext, 1);
    al_trace_free(&t);
}

static void test_legacy_layout(void **state)
{
    (void)state;
    static const char legacy[] =
        "[{\"name\": \"aten::zeros\", \"ph\": \"X\", \"ts\": 10, \"dur\": 4, \"tid\": 1, "
        "\"pid\": \"CPU functions\", \"args\": {}},\n"
        "{\"name\": \"alloclint.site:zeros:5:::/x/step.py\", \"ph\": \"X\", \"ts\": 9, "
        "\"dur\": 6, \"tid\": 1, \"pid\": \"CPU functions\", \"args\": {}}]";
    al_trace t;
    al_trace_error err;
    assert_true(al_trace_read_memory("legacy.json", legacy, strlen(legacy), &t, &err));
    assert_int_equal(t.n_events, 2);
    assert_int_equal(t.events[0].kind, AL_TRACE_OP);
    assert_int_equal(t.events[1].kind, AL_TRACE_LABEL);
    assert_int_equal(t.n_labels, 1);
    al_trace_free(&t);
}

static void expect_refused(const char *doc, const char *want)
{
    al_trace t;
    al_trace_error err;
    assert_false(al_trace_read_memory("bad.json", doc, strlen(doc), &t, &err));
    if (!strstr(err.message, want))
        fail_msg("`%s`: got `%s`, wanted `%s`", doc, err.message, want);
    assert_int_equal(t.n_events, 0);
    al_trace_free(&t);
}

static void test_refused(void **state)
{
    (void)state;
    expect_refused("", "bad.json: at byte 0: the document is empty");
    expect_refused("{\"traceEvents\": [{\"ph\": \"X\", \"name\": \"a\"}",
                   "bad.json: at byte 41: the document ends early");
    expect_refused("{\"other\": []}", "bad.json: not a Chrome trace: no traceEvents");
    expect_refused("{\"traceEvents\": [1 2]}", "at byte 19: expected ','");
    expect_refused("PK\x03\x04", "at byte 0:");
}

static char *temp_file(const char *suffix, const void *bytes, size_t len, bool gz)
{
    char *path = al_xmalloc(64);
    snprintf(path, 64, "/tmp/alloclint-trace-XXXXXX%s", suffix);
    int fd = mkstemps(path, (int)strlen(suffix));
    assert_true(fd >= 0);
    if (gz) {
        gzFile g = gzdopen(fd, "wb");
        assert_non_null(g);
        assert_int_equal(gzwrite(g, bytes, (unsigned)len), (int)len);
        assert_int_equal(gzclose(g), Z_OK);
    } else {
        assert_int_equal(write(fd, bytes, len), (ssize_t)len);
        close(fd);
    }
    return path;
}

static char *slurp(const char *path, size_t *len)
{
    char *bytes;
    int e;
    assert_int_equal(al_file_read_bytes(path, &bytes, len, &e), AL_SOURCE_OK);
    return bytes;
}

static void test_files(void **state)
{
    (void)state;
    al_trace t;
    al_trace_error err;
    char *plain = temp_file(".json", STEP, strlen(STEP), false);
    assert_true(al_trace_read(plain, &t, &err));
    assert_false(t.gzipped);
    assert_int_equal(t.n_events, 21);
    al_trace_free(&t);

    char *gz = temp_file(".json.gz", STEP, strlen(STEP), true);
    assert_true(al_trace_read(gz, &t, &err));
    assert_true(t.gzipped);
    assert_int_equal(t.n_events, 21);
    al_trace_free(&t);

    /* Cut short: the gzip stream ends early. */
    size_t len;
    char *bytes = slurp(gz, &len);
    char *cut = temp_file(".json.gz", bytes, len / 2, false);
    assert_false(al_trace_read(cut, &t, &err));
    assert_non_null(strstr(err.message, cut));
    assert_non_null(strstr(err.message, "of the decompressed data"));
    assert_non_null(strstr(err.message, "gzip data ends early"));
    /* Corrupt in the middle. */
    for (size_t i = 20; i < len - 12; i++)
        bytes[i] = (char)(bytes[i] ^ 0x5a);
    char *bad = temp_file(".json.gz", bytes, len, false);
    assert_false(al_trace_read(bad, &t, &err));
    assert_non_null(strstr(err.message, "corrupt gzip data"));
    /* Named .gz, but plain JSON. */
    char *misnamed = temp_file(".json.gz", STEP, strlen(STEP), false);
    assert_false(al_trace_read(misnamed, &t, &err));
    assert_non_null(strstr(err.message, "not gzip data"));
    assert_false(al_trace_read("/nonexistent/trace.json", &t, &err));
    assert_string_equal(err.message, "/nonexistent/trace.json: No such file or directory");
    const char *paths[] = {plain, gz, cut, bad, misnamed};
    for (size_t i = 0; i < 5; i++) {
        unlink(paths[i]);
        free((char *)paths[i]);
    }
    free(bytes);
}

static bool tree_is_eng(void *ctx, const char *name, bool label)
{
    (void)ctx, (void)label;
    return !strncmp(name, "eng/", 4);
}

static void test_join(void **state)
{
    (void)state;
    al_trace t;
    al_trace_error err;
    assert_true(al_trace_read_memory("step.json", STEP, strlen(STEP), &t, &err));
    al_trace_calls calls;
    al_trace_join(&t, tree_is_eng, NULL, &calls);
    assert_int_equal(calls.tree_frames, 1);
    assert_int_equal(calls.gpu_total_ns, 20000);
    assert_int_equal(calls.gpu_graph_ns, 10000);
    /* Two fills and the cat under `build`; the other thread's memset is
     * outside the tree, the replay's kernel is the graph's. */
    assert_int_equal(calls.gpu_tree_ns, 9000);
    assert_int_equal(calls.n, 4);
    assert_string_equal(calls.items[0].kind, "zeros");
    assert_int_equal(calls.items[0].k, 0);
    assert_int_equal(calls.items[0].gpu_ns, 2000);
    assert_int_equal(calls.items[0].host_ns, 20000);
    assert_string_equal(t.names[calls.items[0].op], "aten::zeros");
    assert_string_equal(calls.items[1].kind, "zeros");
    assert_int_equal(calls.items[1].k, 1);
    /* Its kernel had no External id: its launch's correlation found it. */
    assert_int_equal(calls.items[1].gpu_ns, 3000);
    assert_string_equal(calls.items[2].kind, "cat"); /* a library frame: its name */
    assert_int_equal(calls.items[2].gpu_ns, 4000);
    assert_string_equal(calls.items[3].kind, "replay");
    assert_int_equal(calls.items[3].graph_ns, 10000);
    assert_int_equal(calls.items[3].gpu_ns, 0);
    al_trace_calls_free(&calls);
    al_trace_free(&t);
}

static void parse(const char *text, al_source *src, al_pyfile *pf)
{
    al_source_from_memory(src, "m.py", text, strlen(text));
    assert_true(al_pyfile_parse(pf, src));
}

static void test_callsites(void **state)
{
    (void)state;
    static const char code[] = "import torch\n"
                               "@torch.no_grad()\n"
                               "def f(x, n, flag):\n"
                               "    a = torch.cat([torch.zeros(1), x.to('cuda')])\n"
                               "    x[0] = a.sum()\n"
                               "    for i in range(n):\n"
                               "        b = torch.zeros(i)\n"
                               "    c = torch.ones(2) if flag else None\n"
                               "    def g():\n"
                               "        return torch.zeros(3)\n"
                               "    return a\n";
    al_source src;
    al_pyfile pf;
    parse(code, &src, &pf);
    TSNode fn;
    bool exact;
    /* A code object's first line is its decorator's. */
    assert_true(al_py_frame_function(&pf, 2, "f", &fn, &exact));
    assert_true(exact);
    assert_int_equal(al_py_def_row(fn), 3);
    /* A frame running when profiling began names the line it is on. */
    assert_true(al_py_frame_function(&pf, 7, "f", &fn, &exact));
    assert_false(exact);
    assert_false(al_py_frame_function(&pf, 7, "h", &fn, &exact));
    al_callsites s;
    al_py_callsites(&pf, fn, &s);
    const char *want[] = {"zeros", "to", "cat", "sum", "[]=", "range", "zeros", "ones", NULL};
    const bool straight[] = {true, true, true, true, true, true, false, false};
    size_t k = 0;
    for (; want[k]; k++) {
        assert_true(k < s.n);
        assert_string_equal(s.items[k].kind, want[k]);
        assert_int_equal(s.items[k].straight, straight[k]);
    }
    assert_int_equal(s.n, k); /* g's zeros is g's */
    al_callsites_free(&s);
    char kind[64];
    al_callsite_kind_of_frame("<built-in method zeros_like of type object>", kind, sizeof kind);
    assert_string_equal(kind, "zeros_like");
    al_callsite_kind_of_frame("<method 'fill_' of 'torch._C.TensorBase' objects>", kind,
                              sizeof kind);
    assert_string_equal(kind, "fill_");
    al_callsite_kind_of_frame("torch/nn/functional.py(5096): pad", kind, sizeof kind);
    assert_string_equal(kind, "pad");
    al_callsite_kind_of_op("aten::copy_", kind, sizeof kind);
    assert_string_equal(kind, AL_CALLSITE_SETITEM);
    al_pyfile_free(&pf);
    al_source_free(&src);
}

/* The sites: the trace above against eng/step.py on disk. */
static void test_sites(void **state)
{
    (void)state;
    char dir[] = "/tmp/alloclint-sites-XXXXXX";
    assert_non_null(mkdtemp(dir));
    char path[128];
    snprintf(path, sizeof path, "%s/eng", dir);
    assert_int_equal(mkdir(path, 0700), 0);
    snprintf(path, sizeof path, "%s/eng/step.py", dir);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(STEP_PY, f);
    fclose(f);
    al_trace t, *traces[] = {&t};
    al_trace_error err;
    assert_true(al_trace_read_memory("step.json", STEP, strlen(STEP), &t, &err));
    char *paths[] = {path};
    al_site_costs costs;
    al_site_costs_build(traces, 1, paths, 1, &costs);
    /* zeros on lines 5 and 6 (straight, by rank), cat on 7 (its only
     * one), replay: no call of that name, with the function. */
    assert_int_equal(costs.n, 4);
    size_t lines[] = {5, 6, 7, 4};
    const char *kinds[] = {"zeros", "zeros", "cat", "replay"};
    for (size_t i = 0; i < 4; i++) {
        assert_int_equal(costs.items[i].line, lines[i]);
        assert_string_equal(costs.items[i].kind, kinds[i]);
        assert_string_equal(costs.items[i].function, "build");
    }
    assert_false(costs.items[0].by_function);
    assert_int_equal(costs.items[1].gpu_ns, 3000);
    assert_true(costs.items[3].by_function);
    assert_non_null(strstr(costs.items[3].why, "no call of that name"));
    assert_int_equal(costs.items[3].graph_ns, 10000);
    assert_int_equal(costs.tree_frames, 1);
    al_site_costs_free(&costs);
    al_trace_free(&t);

    /* The same calls against a body that makes them in a loop: left with
     * the function, and why. */
    f = fopen(path, "w");
    fputs("import torch\n\n\ndef build(n, xs):\n"
          "    for x in xs:\n        a = torch.zeros(n)\n    b = torch.zeros(n)\n"
          "    return torch.cat([a, b])\n",
          f);
    fclose(f);
    assert_true(al_trace_read_memory("step.json", STEP, strlen(STEP), &t, &err));
    al_site_costs_build(traces, 1, paths, 1, &costs);
    bool found = false;
    for (size_t i = 0; i < costs.n; i++)
        if (!strcmp(costs.items[i].kind, "zeros")) {
            assert_true(costs.items[i].by_function);
            assert_int_equal(costs.items[i].sharing, 2);
            assert_int_equal(costs.items[i].calls, 2);
            assert_non_null(strstr(costs.items[i].why, "not all on one straight path"));
            found = true;
        }
    assert_true(found);
    al_site_costs_free(&costs);
    al_trace_free(&t);
    unlink(path);
    snprintf(path, sizeof path, "%s/eng", dir);
    rmdir(path);
    rmdir(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_read),  cmocka_unit_test(test_legacy_layout),
        cmocka_unit_test(test_refused), cmocka_unit_test(test_files),
        cmocka_unit_test(test_join),  cmocka_unit_test(test_callsites),
        cmocka_unit_test(test_sites),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
