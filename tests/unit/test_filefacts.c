/* What the project scans read of each Python file (analysis/core/filefacts.h):
 * the methods it defines, the attributes it assigns on self and on other
 * objects, each once, and whether it names a custom-op marker; read the
 * same with a NUL in the bytes (memmem instead of strstr). */
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

static bool has(const al_strlist *l, const char *s)
{
    size_t n = 0;
    for (size_t i = 0; i < l->n; i++)
        n += strcmp(l->items[i], s) == 0;
    assert_true(n <= 1); /* each name once */
    return n == 1;
}

static const al_file_facts *facts_of(al_file_facts_table *t, const char *bytes, size_t len,
                                     char *path)
{
    strcpy(path, "/tmp/alloclint_facts_XXXXXX");
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    assert_int_equal(write(fd, bytes, len), (ssize_t)len);
    close(fd);
    const al_file_facts *f = al_file_facts_of(t, path);
    assert_non_null(f);
    assert_int_equal(f->status, AL_SOURCE_OK);
    return f;
}

static void check_model(const al_file_facts *f)
{
    assert_true(has(&f->methods, "forward"));
    assert_true(has(&f->methods, "_fused"));
    assert_true(has(&f->methods, "tabbed"));
    assert_true(has(&f->methods, "__init__") == false); /* dunder */
    assert_false(has(&f->methods, "__mangled"));
    assert_false(has(&f->methods, "top_level"));      /* not indented */
    assert_false(has(&f->methods, "warm"));           /* async def */
    assert_false(has(&f->methods, "not_a_method"));   /* in a string, not at a line's start */
    assert_int_equal(f->methods.n, 3);

    assert_true(has(&f->self_attrs, "proj"));
    assert_true(has(&f->self_attrs, "scale"));
    assert_true(has(&f->self_attrs, "__hidden"));
    assert_true(has(&f->self_attrs, "registry")); /* `cls.registry` */
    assert_int_equal(f->self_attrs.n, 4);

    assert_true(has(&f->attrs, "forward"));
    assert_true(has(&f->attrs, "ratio"));
    assert_true(has(&f->attrs, "gate"));
    assert_false(has(&f->attrs, "depth")); /* `==` */
    assert_false(has(&f->attrs, "width")); /* `!=` */
    assert_false(has(&f->attrs, "size"));  /* `<=` */
    assert_false(has(&f->attrs, "5"));     /* `1.5` */
    assert_int_equal(f->attrs.n, 3);
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
    assert_ptr_equal(al_file_facts_of(t, path), f);
    unlink(path);
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
    unlink(path);
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
        unlink(path);
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
