/* What the project scans read of each Python file (analysis/core/filefacts.h):
 * the methods it defines, the attributes it assigns on self and on other
 * objects, each once, and whether it names a custom-op marker; read the
 * same with a NUL in the bytes (memmem instead of strstr). And the walk
 * that lists a project's files: once a table, Python apart from C++. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analysis/core/filefacts.h"

static const char MODEL[] =
    "import torch\n"
    "\n"
    "def top_level(x):  # not a method\n"
    "    return x\n"
    "\n"
    "class Block(torch.nn.Module):\n"
    "    def __init__(self, d):\n"
    "        self.proj = torch.nn.Linear(d, d)\n"
    "        self.proj = torch.nn.Linear(d, 2 * d)\n"
    "        self.scale: float = 1.0\n"
    "        self.__hidden = 0\n"
    "\n"
    "    def forward(self, x):\n"
    "        return self.proj(x)\n"
    "\n"
    "    def _fused(self, x):\n"
    "        return x\n"
    "\n"
    "    def __mangled(self):\n"
    "        pass\n"
    "\n"
    "    async def warm(self):  # `async def`: not read as a method\n"
    "        pass\n"
    "\n"
    "    def forward(self, x, y):  # the same name again: once\n"
    "        return x\n"
    "\n"
    "\tdef tabbed(self):\n"
    "\t\tpass\n"
    "\n"
    "def wire(layer, cfg):\n"
    "    layer.forward = layer._fused\n"
    "    layer.forward = layer._fused\n"
    "    cls.registry = {}\n"
    "    cfg.ratio: float = 0.5\n"
    "    if layer.depth == 2 or layer.width != 3:\n"
    "        x = layer.size <= 4\n"
    "    y = 1.5\n"
    "    setattr(layer, \"gate\", None)\n"
    "    setattr(layer, name, None)\n"
    "    text = \"def not_a_method(\"\n";

typedef struct {
    const al_file_facts *f;
    al_facts_list which;
} list_of;

static bool has(list_of l, const char *s)
{
    size_t n, hits = 0;
    const char *name = al_file_facts_names(l.f, l.which, &n);
    for (size_t i = 0; i < n; i++, name += strlen(name) + 1)
        hits += strcmp(name, s) == 0;
    assert_true(hits <= 1); /* each name once */
    return hits == 1;
}

static size_t count(list_of l)
{
    size_t n;
    al_file_facts_names(l.f, l.which, &n);
    return n;
}

static bool is_source(const char *name)
{
    size_t n = strlen(name);
    return (n > 3 && !strcmp(name + n - 3, ".py")) || (n > 3 && !strcmp(name + n - 3, ".cu"));
}

static bool is_py(const char *name)
{
    size_t n = strlen(name);
    return n > 3 && !strcmp(name + n - 3, ".py");
}

/* A project folder (dir, to remove) holding model.py with bytes, a CUDA
 * file and a text file: the facts of its one Python file. */
static const al_file_facts *facts_of(al_file_facts_table *t, const char *bytes, size_t len,
                                     char *dir)
{
    strcpy(dir, "/tmp/alloclint_facts_XXXXXX");
    assert_non_null(mkdtemp(dir));
    static const char *const names[] = {"model.py", "kernel.cu", "notes.txt"};
    for (size_t i = 0; i < 3; i++) {
        char path[128];
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        FILE *out = fopen(path, "wb");
        assert_non_null(out);
        if (i == 0)
            assert_int_equal(fwrite(bytes, 1, len, out), len);
        fclose(out);
    }
    al_project_files files = al_file_facts_project(t, dir, is_source, is_py);
    assert_int_equal(files.py.n, 1);
    assert_int_equal(files.cxx.n, 1);
    assert_non_null(strstr(files.py.items[0], "/model.py"));
    assert_non_null(strstr(files.cxx.items[0], "/kernel.cu"));
    /* Asked again: the same walk, not walked again. */
    al_project_files again = al_file_facts_project(t, dir, is_source, is_py);
    assert_ptr_equal(again.py.items, files.py.items);
    assert_ptr_equal(again.cxx.items, files.cxx.items);
    const al_file_facts *f = al_file_facts_of(t, files.py.items[0]);
    assert_non_null(f);
    assert_int_equal(f->status, AL_SOURCE_OK);
    assert_ptr_equal(f->path, files.py.items[0]);
    return f;
}

static void remove_project(const char *dir)
{
    static const char *const names[] = {"model.py", "kernel.cu", "notes.txt"};
    for (size_t i = 0; i < 3; i++) {
        char path[128];
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        unlink(path);
    }
    rmdir(dir);
}

static void check_model(const al_file_facts *f)
{
    list_of methods = {f, AL_FACTS_METHODS}, attrs = {f, AL_FACTS_ATTRS},
            self_attrs = {f, AL_FACTS_SELF_ATTRS};
    assert_true(has(methods, "forward"));
    assert_true(has(methods, "_fused"));
    assert_true(has(methods, "tabbed"));
    assert_true(has(methods, "__init__") == false); /* dunder */
    assert_false(has(methods, "__mangled"));
    assert_false(has(methods, "top_level"));      /* not indented */
    assert_false(has(methods, "warm"));           /* async def */
    assert_false(has(methods, "not_a_method"));   /* in a string, not at a line's start */
    assert_int_equal(count(methods), 3);

    assert_true(has(self_attrs, "proj"));
    assert_true(has(self_attrs, "scale"));
    assert_true(has(self_attrs, "__hidden"));
    assert_true(has(self_attrs, "registry")); /* `cls.registry` */
    assert_int_equal(count(self_attrs), 4);

    assert_true(has(attrs, "forward"));
    assert_true(has(attrs, "ratio"));
    assert_true(has(attrs, "gate"));
    assert_false(has(attrs, "depth")); /* `==` */
    assert_false(has(attrs, "width")); /* `!=` */
    assert_false(has(attrs, "size"));  /* `<=` */
    assert_false(has(attrs, "5"));     /* `1.5` */
    assert_int_equal(count(attrs), 3);
}

static void methods_and_attributes(void **state)
{
    (void)state;
    al_file_facts_table *t = al_file_facts_table_new();
    char path[64];
    const al_file_facts *f = facts_of(t, MODEL, strlen(MODEL), path);
    check_model(f);
    assert_false(f->markers);
    /* Asked again: the same facts, not read again. */
    assert_ptr_equal(al_file_facts_of(t, f->path), f);
    remove_project(path);
    al_file_facts_table_free(t);
}

/* A NUL byte: strstr would stop there; the words past it are found. */
static void past_a_nul(void **state)
{
    (void)state;
    size_t n = strlen(MODEL);
    char *bytes = malloc(n + 64);
    assert_non_null(bytes);
    memcpy(bytes, "# \0\n", 4);
    memcpy(bytes + 4, MODEL, n);
    const char tail[] = "direct_register_custom_op(op_name=\"f\")\n";
    memcpy(bytes + 4 + n, tail, sizeof tail - 1);
    al_file_facts_table *t = al_file_facts_table_new();
    char path[64];
    const al_file_facts *f = facts_of(t, bytes, 4 + n + sizeof tail - 1, path);
    check_model(f);
    assert_true(f->markers); /* after the NUL */
    remove_project(path);
    al_file_facts_table_free(t);
    free(bytes);
}

static void markers(void **state)
{
    (void)state;
    static const char *const texts[] = {
        "from torch.library import custom_op\n",
        "    @fused_add.impl(\"cuda\")\n",
        "x = 1\n",
    };
    static const bool want[] = {true, true, false};
    for (size_t i = 0; i < 3; i++) {
        al_file_facts_table *t = al_file_facts_table_new();
        char path[64];
        const al_file_facts *f = facts_of(t, texts[i], strlen(texts[i]), path);
        assert_int_equal(f->markers, want[i]);
        remove_project(path);
        al_file_facts_table_free(t);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(methods_and_attributes),
        cmocka_unit_test(past_a_nul),
        cmocka_unit_test(markers),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
