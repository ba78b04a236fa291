/* The Python scanner's statements: top-level statements, and the body
 * statements ("members") of a top-level class, each with its tokens. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <stdio.h>
#include <string.h>

#include "front/prefilter.h"
#include "rules/rules.h"

static const char *bytes_of(const char *src, size_t start, size_t end, char *buf, size_t cap)
{
    size_t n = end - start < cap - 1 ? end - start : cap - 1;
    memcpy(buf, src + start, n);
    buf[n] = '\0';
    return buf;
}

static const char *text_of(const char *src, const al_statement_span *g, char *buf, size_t cap)
{
    return bytes_of(src, g->start, g->end, buf, cap);
}

static void name_is(const char *src, const al_statement_span *g, const char *name)
{
    assert_int_equal(g->name_len, strlen(name));
    assert_memory_equal(src + g->name, name, strlen(name));
}

static void class_body_is_split(void **state)
{
    (void)state;
    const char *src = "import torch\n"
                      "\n"
                      "@dataclass\n"
                      "class Runner(\n"
                      "    Base):\n"
                      "    \"\"\"Doc.\"\"\"\n"
                      "    size: int = 4\n"
                      "\n"
                      "    # noqa: AL101 -- goes with the next member\n"
                      "    @torch.no_grad()\n"
                      "    def forward(self, x):\n"
                      "        buf = torch.zeros(4)\n"
                      "        if x:\n"
                      "            pass\n"
                      "        else:\n"
                      "            pass\n"
                      "        return buf\n"
                      "\n"
                      "    async def helper(self):\n"
                      "        for i in range(3):\n"
                      "            self.cache[i].zero_()\n"
                      "    if TYPE_CHECKING:\n"
                      "        x = 1\n"
                      "    else:\n"
                      "        x = 2\n"
                      "def free():\n"
                      "    return 1\n";
    al_py_scan s;
    al_prefilter_scan_python(src, strlen(src), &s);
    char buf[512];
    /* the lines before `import`, `import`, the class, `free` */
    assert_int_equal(s.n, 4);
    const al_statement_span *cls = &s.items[2];
    assert_true(cls->definition);
    assert_int_equal(cls->n_members, 5);
    assert_int_equal(s.n_members, 5);
    const al_statement_span *m = &s.members[cls->first_member];
    /* The header runs to the first member. */
    assert_string_equal(bytes_of(src, cls->start, m[0].start, buf, sizeof buf),
                        "\n@dataclass\nclass Runner(\n    Base):\n");
    assert_string_equal(text_of(src, &m[0], buf, sizeof buf), "    \"\"\"Doc.\"\"\"\n");
    assert_false(m[0].definition);
    assert_string_equal(text_of(src, &m[1], buf, sizeof buf), "    size: int = 4\n");
    /* Comments and decorators go with the member below them. */
    assert_true(m[2].definition);
    name_is(src, &m[2], "forward");
    assert_true(strstr(text_of(src, &m[2], buf, sizeof buf), "# noqa") != NULL);
    assert_true(m[2].tokens & AL_TOK_SUPPRESS);
    assert_true(m[2].tokens & AL_TOK_FACTORY);
    assert_false(m[2].tokens & AL_TOK_FILL);
    /* `else:` inside a method stays with it. */
    assert_true(strstr(text_of(src, &m[2], buf, sizeof buf), "return buf") != NULL);
    name_is(src, &m[3], "helper");
    assert_true(m[3].tokens & AL_TOK_FILL);
    assert_true(m[3].tokens & AL_TOK_LOOP);
    assert_false(m[3].tokens & AL_TOK_FACTORY);
    /* A class-level `if ... else:` is one member. */
    assert_false(m[4].definition);
    assert_string_equal(text_of(src, &m[4], buf, sizeof buf),
                        "    if TYPE_CHECKING:\n        x = 1\n    else:\n        x = 2\n");
    assert_int_equal(m[4].end, cls->end);
    /* The class holds every member's tokens. */
    assert_true(cls->tokens & AL_TOK_FACTORY);
    assert_true(cls->tokens & AL_TOK_FILL);
    assert_int_equal(s.items[3].n_members, 0);
    name_is(src, &s.items[3], "free");
    al_py_scan_free(&s);
}

static void one_line_and_last_classes(void **state)
{
    (void)state;
    /* A body on the class's own line has no members; the last class's
     * last member ends with the file. */
    const char *src = "class A: pass\n"
                      "class B:\n"
                      "\tdef f(self):\n"
                      "\t\treturn torch.ones(2)\n"
                      "\tdef g(self):\n"
                      "\t\tpass";
    al_py_scan s;
    al_prefilter_scan_python(src, strlen(src), &s);
    assert_int_equal(s.n, 3);
    assert_int_equal(s.items[1].n_members, 0);
    assert_int_equal(s.items[2].n_members, 2);
    const al_statement_span *m = &s.members[s.items[2].first_member];
    name_is(src, &m[0], "f");
    name_is(src, &m[1], "g");
    assert_true(m[0].tokens & AL_TOK_FACTORY);
    assert_false(m[1].tokens & AL_TOK_FACTORY);
    assert_int_equal(m[1].end, strlen(src));
    al_py_scan_free(&s);
}

static void brackets_and_strings_do_not_split(void **state)
{
    (void)state;
    /* Lines at the body's indentation inside brackets or a string are not
     * members. */
    const char *src = "class C:\n"
                      "    table = [\n"
                      "    1,\n"
                      "    ]\n"
                      "    doc = \"\"\"\n"
                      "    def not_a_member(self):\n"
                      "    \"\"\"\n"
                      "    def real(self):\n"
                      "        pass\n";
    al_py_scan s;
    al_prefilter_scan_python(src, strlen(src), &s);
    assert_int_equal(s.items[1].n_members, 3);
    const al_statement_span *m = &s.members[s.items[1].first_member];
    assert_false(m[0].definition);
    assert_false(m[1].definition);
    name_is(src, &m[2], "real");
    al_py_scan_free(&s);
}

static unsigned tokens_of(const char *src, size_t statement)
{
    al_py_scan s;
    al_prefilter_scan_python(src, strlen(src), &s);
    unsigned t = statement < s.n ? s.items[statement].tokens : 0;
    al_py_scan_free(&s);
    return t;
}

static void fills_by_their_own_names(void **state)
{
    (void)state;
    /* AL103 reads fill_ and zero_ themselves: a masked or indexed fill
     * writes some elements only. */
    assert_true(tokens_of("def f(x):\n    x.fill_(0)\n", 1) & AL_TOK_FILL);
    assert_true(tokens_of("def f(n):\n    return torch.empty(n).zero_()\n", 1) & AL_TOK_FILL);
    assert_false(tokens_of("def f(x, m):\n    x.masked_fill_(m, 0)\n", 1) & AL_TOK_FILL);
    assert_false(tokens_of("def f(x, i):\n    x.index_fill_(0, i, 1)\n", 1) & AL_TOK_FILL);
    assert_false(tokens_of("def f(x):\n    x.fill_diagonal_(0)\n", 1) & AL_TOK_FILL);
}

static void names_in_f_strings_only(void **state)
{
    (void)state;
    /* An f-string's fields are code tree-sitter parses; another string is
     * text (a docstring's example, a log message). */
    assert_true(tokens_of("def f(n):\n    s = f'{torch.zeros(n)}'\n", 1) & AL_TOK_FACTORY);
    assert_true(tokens_of("def f(n):\n    s = rf\"{torch.cat(n)}\"\n", 1) & AL_TOK_CAT);
    assert_false(tokens_of("def f(n):\n    \"\"\"x = torch.zeros(n)\"\"\"\n", 1) &
                 AL_TOK_FACTORY);
    assert_false(tokens_of("def f(n):\n    log(b'torch.cat(n)', 'x.fill_(0)')\n", 1) &
                 (AL_TOK_CAT | AL_TOK_FILL));
}

static void kernels_moves_and_copies(void **state)
{
    (void)state;
    /* A kernel: a decorator naming triton anywhere in its text, here on
     * its second line; `jit` alone is not one (al_pymodule's test). */
    assert_true(tokens_of("@functools.partial(\n    triton.jit, debug=True)\ndef k(x):\n    pass\n",
                          1) &
                AL_TOK_KERNEL);
    assert_false(tokens_of("@jit\ndef k(x):\n    pass\n", 1) & AL_TOK_KERNEL);
    assert_false(tokens_of("def k(x):\n    return triton.cdiv(x, 2)\n", 1) & AL_TOK_KERNEL);
    /* A move of what a factory made, on one logical line... */
    assert_true(tokens_of("def f(n):\n    return torch.zeros(\n        n).to(dev)\n", 1) &
                AL_TOK_HOSTMOVE);
    assert_true(tokens_of("def f(n):\n    return torch.arange(n) \\\n        .cuda()\n", 1) &
                AL_TOK_HOSTMOVE);
    assert_true(tokens_of("def f(n):\n    return torch.zeros(n) . to(dev)\n", 1) &
                AL_TOK_HOSTMOVE);
    /* ...not a move before the factory, nor on another line. */
    assert_false(tokens_of("def f(x, n):\n    return x.to(dev) + torch.zeros(n)\n", 1) &
                 AL_TOK_HOSTMOVE);
    unsigned t = tokens_of("def f(x, n):\n    y = torch.zeros(n)\n    return y.to(dev)\n", 1);
    assert_true(t & AL_TOK_MOVE);
    assert_true(t & AL_TOK_FACTORY);
    assert_false(t & AL_TOK_HOSTMOVE);
    assert_true(tokens_of("def f(b, x):\n    b[1:].copy_(x)\n", 1) & AL_TOK_COPY);
    /* An import is seen after a byte-order mark and after a semicolon. */
    assert_true(tokens_of("\xEF\xBB\xBFimport torch\n", 1) & AL_TOK_IMPORT);
    assert_true(tokens_of("x = 1; from torch import zeros\n", 1) & AL_TOK_IMPORT);
    assert_false(tokens_of("y = x.importance\n", 1) & AL_TOK_IMPORT);
    assert_false(tokens_of("def f(b, x):\n    return b.copy()\n", 1) & AL_TOK_COPY);
    /* AL204's ops, as functions, methods or parts of a longer name */
    assert_true(tokens_of("def f(a):\n    return torch.cat([torch.cos(a), a.sin()])\n", 1) &
                AL_TOK_ELEMWISE);
    assert_true(tokens_of("def f(a):\n    return a.log1p() + a.rsqrt()\n", 1) & AL_TOK_ELEMWISE);
    assert_true(tokens_of("def f(a):\n    return F.log_softmax(a, -1)\n", 1) & AL_TOK_ELEMWISE);
    assert_true(tokens_of("def f(a):\n    return a.reciprocal()\n", 1) & AL_TOK_ELEMWISE);
    /* every op AL204 reads, called as a method: a file holding only it
     * must not be skipped */
    for (int i = 0; al_rule_al204_ops[i]; i++) {
        char text[128];
        snprintf(text, sizeof text, "def f(a):\n    return a.%s()\n", al_rule_al204_ops[i]);
        if (!(tokens_of(text, 1) & AL_TOK_ELEMWISE))
            fail_msg("`%s(` is not in the prefilter's AL_TOK_ELEMWISE", al_rule_al204_ops[i]);
    }
    /* named, not called; a longer word */
    assert_false(tokens_of("def f(a):\n    return a.cos + cosine(a) + logits(a)\n", 1) &
                 AL_TOK_ELEMWISE);
}

static bool rebinds(const char *line)
{
    char src[256];
    snprintf(src, sizeof src, "def f(x, y, s):\n    %s\n", line);
    return tokens_of(src, 1) & AL_TOK_REBIND;
}

static void rebinds_where_al401_rewrites(void **state)
{
    (void)state;
    assert_true(rebinds("x = x * s"));
    assert_true(rebinds("x = (x) - 1"));
    assert_true(rebinds("x = x.clamp(min=0)"));
    assert_true(rebinds("x: torch.Tensor = x / s"));
    assert_true(rebinds("x = torch.add(x, y)"));
    assert_true(rebinds("x = th.masked_fill( x, x < 0, 0)"));
    assert_true(rebinds("x = y + x"));
    assert_true(rebinds("x = (y * x)  # scaled"));
    assert_false(rebinds("x = self.norm(x)"));
    assert_false(rebinds("x = f(x) + 1"));
    assert_false(rebinds("x = y - x"));
    assert_false(rebinds("x = x"));
    assert_false(rebinds("x = y if x is None else x"));
    assert_false(rebinds("x == x + 1"));
    /* The operator after x must be the value's top one (rules/al401.c
     * reads `x = x <op> y` from the tree): a sign inside a number, a
     * string, brackets or after another operator is none... */
    assert_true(rebinds("x = x * 1e-5"));
    assert_true(rebinds("x = x - y * s"));
    assert_true(rebinds("x = x * -s"));
    assert_true(rebinds("x = x - (y + s)"));
    assert_true(rebinds("x = x / s ** 2"));
    assert_true(rebinds("x = x + y[s - 1]"));
    assert_true(rebinds("x = x + f\"{s - 1}\""));
    assert_true(rebinds("x = x * s  # s - 1"));
    assert_true(rebinds("x = x - \\\n        y"));
    assert_true(rebinds("x = x.add(y)"));
    assert_true(rebinds("x = x .clamp_min (0)"));
    /* ...a looser or equal one later on the line is, and other forms of
     * x are not AL401's. */
    assert_false(rebinds("x = x * s + y"));
    assert_false(rebinds("x = x - y - s"));
    assert_false(rebinds("x = x * y @ s"));
    assert_false(rebinds("x = x ** 2"));
    assert_false(rebinds("x = x // 2"));
    assert_false(rebinds("x = x - y if s else y"));
    assert_false(rebinds("x = x - y > 0"));
    assert_false(rebinds("x = x + y, s"));
    assert_false(rebinds("x = x + y and s"));
    assert_false(rebinds("x = x.view(-1)"));
    assert_false(rebinds("x = x.to(y)"));
    assert_false(rebinds("x = x.add"));
    assert_false(rebinds("x = x + 0x1e-5")); /* hexadecimal: (x + 0x1e) - 5 */
}

static bool fill_site(const char *line)
{
    char src[256];
    snprintf(src, sizeof src, "def f(a, n, x):\n    %s\n", line);
    return tokens_of(src, 1) & AL_TOK_FILLSITE;
}

static void fill_sites_where_al101_reads_buffers(void **state)
{
    (void)state;
    /* A buffer bound to a name, or handed to a call (rules/al101.c and
     * analysis/python/passed.c)... */
    assert_true(fill_site("x = torch.zeros(n)"));
    assert_true(fill_site("x: torch.Tensor = torch.ones(n)"));
    assert_true(fill_site("x = a.new_zeros(n, 4)"));
    assert_true(fill_site("f(a, torch.full((n,), 0.5))"));
    assert_true(fill_site("f(out=torch.zeros_like(a))"));
    assert_true(fill_site("w = nn.Parameter(torch.zeros(n))"));
    assert_true(fill_site("x = a[0].new_zeros(n)"));
    assert_true(fill_site("x = f(a).new_ones(n)"));
    assert_true(fill_site("f(a,\n      torch.zeros(n))"));
    assert_true(fill_site("x = torch . zeros(n)"));
    assert_true(fill_site("x = torch.zeros(n)  # the staging buffer"));
    assert_true(fill_site("x = torch.zeros(n); y = 1"));
    assert_true(fill_site("if a: x = torch.zeros(n)"));
    assert_true(fill_site("f(torch.zeros(n)\n      , a)"));
    assert_true(fill_site("f(a)(torch.zeros(n))"));
    assert_true(fill_site("f(a, torch.zeros((n, 2), dtype=torch.int32))"));
    assert_true(fill_site("x = torch.zeros(n) \\\n"));
    assert_true(fill_site("s = f'{g(torch.zeros(n))}'"));
    /* ...a conditional allocation, either way round... */
    assert_true(fill_site("x = torch.zeros(n) if a else None"));
    assert_true(fill_site("x = None if a else torch.zeros(n)"));
    /* ...not a value made and used in one expression... */
    assert_false(fill_site("return torch.zeros(n)"));
    assert_false(fill_site("x = a + torch.zeros(n)"));
    assert_false(fill_site("x = [torch.zeros(n)]"));
    assert_false(fill_site("ok = a == torch.zeros(n)"));
    assert_false(fill_site("g = lambda: torch.zeros(n)"));
    assert_false(fill_site("x = torch.empty(n)"));
    assert_false(fill_site("x = torch.zeros(n).cuda()"));
    assert_false(fill_site("x = torch.zeros(n)[0]"));
    assert_false(fill_site("f(torch.zeros(n) * 2)"));
    assert_false(fill_site("f([a, torch.zeros(n)])"));
    assert_false(fill_site("f((a, torch.zeros(n)))"));
    assert_false(fill_site("x = (torch.zeros(n))"));
    assert_false(fill_site("x = a, torch.zeros(n)[0]"));
    assert_false(fill_site("d = {'k': torch.zeros(n)}"));
    assert_false(fill_site("y = a[torch.zeros(n)]"));
    /* ...nor one bound to an attribute, a subscript or by an operator. */
    assert_false(fill_site("self.buf = torch.zeros(n)"));
    assert_false(fill_site("a[0] = torch.zeros(n)"));
    assert_false(fill_site("a, b = torch.zeros(n)"));
    assert_false(fill_site("x += torch.zeros(n)"));
    assert_false(fill_site("x //= torch.ones(n)"));
    assert_false(fill_site("f(x := torch.zeros(n))"));
}

static bool allocates_in_loop(const char *body)
{
    char src[512];
    snprintf(src, sizeof src, "def f(rows, n, acc, c):\n%s", body);
    return tokens_of(src, 1) & AL_TOK_LOOPALLOC;
}

static unsigned loop_tokens(const char *body)
{
    char src[512];
    snprintf(src, sizeof src, "def f(rows, n, acc, c, parts):\n%s", body);
    return tokens_of(src, 1);
}

static void loop_cats_and_appends(void **state)
{
    (void)state;
    /* AL202: a tensor rebound to a cat in a loop's body */
    assert_true(loop_tokens("    for r in rows:\n        acc = torch.cat([acc, r])\n") &
                AL_TOK_LOOPCAT);
    assert_true(loop_tokens("    while c:\n        if c: acc = th.concat((acc, r), 0)\n") &
                AL_TOK_LOOPCAT);
    assert_false(loop_tokens("    acc = torch.cat([acc, n])\n    for r in rows:\n        pass\n") &
                 AL_TOK_LOOPCAT);
    assert_false(loop_tokens("    for r in rows:\n        pass\n    out = torch.cat(parts)\n") &
                 AL_TOK_LOOPCAT);
    /* AL205: a list filled in a loop's body */
    assert_true(loop_tokens("    for r in rows:\n        parts.append(r)\n") & AL_TOK_LOOPAPPEND);
    assert_true(loop_tokens("    for r in rows: parts . append (r)\n") & AL_TOK_LOOPAPPEND);
    assert_false(loop_tokens("    parts.append(n)\n    for r in rows:\n        pass\n") &
                 AL_TOK_LOOPAPPEND);
    assert_false(loop_tokens("    for r in rows:\n        append(r)\n") & AL_TOK_LOOPAPPEND);
    /* AL303: one index of a buffer filled in a loop's body */
    assert_true(loop_tokens("    for i in range(n):\n        acc[i].zero_()\n") & AL_TOK_LOOPFILL);
    assert_true(loop_tokens("    for i in range(n): acc[i] . fill_(0)\n") & AL_TOK_LOOPFILL);
    assert_false(loop_tokens("    acc[0].zero_()\n    for i in range(n):\n        pass\n") &
                 AL_TOK_LOOPFILL);
    assert_false(loop_tokens("    for i in range(n):\n        acc.zero_()\n") & AL_TOK_LOOPFILL);
    assert_false(loop_tokens("    for i in range(n):\n        acc[i].masked_fill_(c, 0)\n") &
                 AL_TOK_LOOPFILL);
}

static void loop_allocations_by_indentation(void **state)
{
    (void)state;
    assert_true(allocates_in_loop("    for r in rows:\n        b = torch.zeros(n)\n"));
    assert_true(allocates_in_loop("    while c:\n        if c:\n            b = torch.empty(n)\n"));
    assert_true(allocates_in_loop("    async for r in rows:\n        b = zeros(n)\n"));
    assert_true(allocates_in_loop("    for r in rows: b = torch.zeros(n)\n"));
    assert_true(allocates_in_loop("    for r in rows:\n        if c: b = torch.ones(n)\n"));
    assert_true(allocates_in_loop("    for r in rows:\n        a = 1; b = x.new_zeros(n)\n"));
    /* the loop's line ends with a bracket left open: still its body */
    assert_true(allocates_in_loop("    for r in f(\n  rows):\n        b = torch.zeros(n)\n"));
    /* an outer loop holds an inner loop's `else:` */
    assert_true(allocates_in_loop("    for rows in acc:\n        for r in rows:\n            pass\n"
                                  "        else:\n            b = torch.zeros(n)\n"));
    assert_false(allocates_in_loop("    b = torch.zeros(n)\n    for r in rows:\n        pass\n"));
    assert_false(allocates_in_loop("    for r in rows:\n        pass\n    b = torch.zeros(n)\n"));
    assert_false(allocates_in_loop("    for r in rows:\n        pass\n    else:\n"
                                   "        b = torch.zeros(n)\n"));
    assert_false(allocates_in_loop("    for r in rows:\n        acc.append(torch.zeros(n))\n"));
    assert_false(allocates_in_loop("    b = [torch.zeros(n) for r in rows]\n"));
    assert_false(allocates_in_loop("    for r in rows:\n        b = r.view(n)\n"));
}

/* The members of the one class in src that al_py_scan_keep_called keeps
 * when member `first` is kept, as a string of 0/1 per member. */
static void kept_members(const char *src, size_t first, char *out)
{
    al_py_scan s;
    al_prefilter_scan_python(src, strlen(src), &s);
    bool keep[8] = {0}, keep_member[16] = {0};
    assert_true(s.n <= 8 && s.n_members <= 16);
    keep_member[first] = true;
    al_py_scan_keep_called(&s, src, keep, keep_member);
    for (size_t k = 0; k < s.n_members; k++)
        out[k] = keep_member[k] ? '1' : '0';
    out[s.n_members] = '\0';
    al_py_scan_free(&s);
}

static void called_methods_and_layers_kept(void **state)
{
    (void)state;
    const char *src = "class Block(nn.Module):\n"
                      "    def forward(self, x):\n"
                      "        y = self.norm(x)\n"
                      "        return self.proj(y)\n"
                      "\n"
                      "    def __init__(self, d):\n"
                      "        super().__init__()\n"
                      "        self.proj = nn.Linear(d, d)\n"
                      "\n"
                      "    def norm(self, x):\n"
                      "        return x / x.norm()\n"
                      "\n"
                      "    def reset(self):\n"
                      "        self.proj.reset_parameters()\n"
                      "        self.cache == None\n";
    char got[17];
    /* forward calls norm (a method: kept) and proj (no method: a layer,
     * so what assigns it is kept: __init__); reset only uses proj. */
    kept_members(src, 0, got);
    assert_string_equal(got, "1110");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(class_body_is_split),
        cmocka_unit_test(one_line_and_last_classes),
        cmocka_unit_test(brackets_and_strings_do_not_split),
        cmocka_unit_test(kernels_moves_and_copies),
        cmocka_unit_test(rebinds_where_al401_rewrites),
        cmocka_unit_test(loop_allocations_by_indentation),
        cmocka_unit_test(loop_cats_and_appends),
        cmocka_unit_test(called_methods_and_layers_kept),
        cmocka_unit_test(fill_sites_where_al101_reads_buffers),
        cmocka_unit_test(names_in_f_strings_only),
        cmocka_unit_test(fills_by_their_own_names),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
