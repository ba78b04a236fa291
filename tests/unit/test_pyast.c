/* Partial parses (front/python/pyast.h) and the questions that must send
 * lint back to what they left out: a class that lost methods, a method
 * it may have lost, the whole file. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <stdbool.h>
#include <string.h>

#include "front/python/pyast.h"

static const char TEXT[] =
    "import torch\n"
    "\n"
    "\n"
    "class Gate(Base):\n"
    "    def __init__(self, d):\n"
    "        self.proj = torch.nn.Identity()\n"
    "\n"
    "    async def warm(self):\n"
    "        pass\n"
    "\n"
    "    def forward(self, x):\n"
    "        self.seen = x\n"
    "        return self.proj(x) + self.undefined_here(x)\n";

/* TEXT parsed with the import and forward only; the class trimmed. */
typedef struct {
    al_source src;
    al_pyfile pf;
    size_t spans[3][2];
    size_t trimmed[1][2];
    bool asked, asked_all, trimmed_asked[1];
    TSNode cls;
} partial;

static void parse_partial(partial *p)
{
    memset(p, 0, sizeof *p);
    al_source_from_memory(&p->src, "gate.py", TEXT, strlen(TEXT));
    const char *cls = strstr(TEXT, "class Gate"), *init = strstr(TEXT, "    def __init__");
    const char *fwd = strstr(TEXT, "    def forward");
    p->spans[0][0] = 0, p->spans[0][1] = (size_t)(strstr(TEXT, "\n\n") + 1 - TEXT);
    p->spans[1][0] = (size_t)(cls - TEXT), p->spans[1][1] = (size_t)(init - TEXT);
    p->spans[2][0] = (size_t)(fwd - TEXT), p->spans[2][1] = strlen(TEXT);
    assert_true(al_pyfile_parse_spans(&p->pf, &p->src, (const size_t(*)[2])p->spans, 3));
    assert_true(p->pf.partial);
    assert_false(p->pf.has_error);
    p->trimmed[0][0] = (size_t)(cls - TEXT), p->trimmed[0][1] = strlen(TEXT);
    p->pf.trimmed = (const size_t(*)[2])p->trimmed;
    p->pf.n_trimmed = 1;
    p->pf.asked_trimmed = &p->asked;
    p->pf.asked_all = &p->asked_all;
    p->pf.trimmed_asked = p->trimmed_asked;
    p->cls = ts_node_named_child(p->pf.root, 1);
    assert_true(al_node_is(p->cls, "class_definition"));
}

static void free_partial(partial *p)
{
    al_pyfile_free(&p->pf);
    al_source_free(&p->src);
}

static void trimmed_class_questions(void **state)
{
    (void)state;
    partial p;
    parse_partial(&p);
    /* A method the class's text does not define is not in what was left
     * out: no question. */
    assert_false(al_pyfile_class_trimmed_def(&p.pf, p.cls, "undefined_here"));
    assert_false(al_pyfile_class_trimmed_def(&p.pf, p.cls, "war"));
    assert_false(p.asked);
    /* One it defines (`async def` too) is: the class was asked about. */
    assert_true(al_pyfile_class_trimmed_def(&p.pf, p.cls, "warm"));
    assert_true(p.asked);
    assert_true(p.trimmed_asked[0]);
    assert_false(p.asked_all);
    free_partial(&p);

    parse_partial(&p);
    assert_true(al_pyfile_class_trimmed(&p.pf, p.cls));
    assert_true(p.asked && p.trimmed_asked[0]);
    free_partial(&p);

    /* What is assigned to `self.proj`: the left-out __init__ does. */
    parse_partial(&p);
    assert_false(al_pyfile_class_trimmed_assigns(&p.pf, p.cls, "undefined_here"));
    assert_false(al_pyfile_class_trimmed_assigns(&p.pf, p.cls, "pro"));
    /* assigned only in what the parse holds */
    assert_false(al_pyfile_class_trimmed_assigns(&p.pf, p.cls, "seen"));
    assert_false(p.asked);
    assert_true(al_pyfile_class_trimmed_assigns(&p.pf, p.cls, "proj"));
    assert_true(p.asked);
    free_partial(&p);
}

static void whole_file_questions(void **state)
{
    (void)state;
    partial p;
    parse_partial(&p);
    assert_false(al_pyfile_holds_all(&p.pf));
    assert_true(p.asked_all);
    assert_true(p.asked);
    free_partial(&p);

    al_source src;
    al_pyfile pf;
    al_source_from_memory(&src, "gate.py", TEXT, strlen(TEXT));
    assert_true(al_pyfile_parse(&pf, &src));
    assert_true(al_pyfile_holds_all(&pf));
    assert_false(al_pyfile_class_trimmed_def(&pf, ts_node_named_child(pf.root, 1), "warm"));
    al_pyfile_free(&pf);
    al_source_free(&src);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(trimmed_class_questions),
        cmocka_unit_test(whole_file_questions),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
