/* Where a called name stands, read from the bytes around it: the tests
 * behind the prefilter's site classes (front/prefilter.c). Each must admit
 * every place the rule's own reading of the tree could report, and may
 * admit more; tests/prefilter.sh holds them to that. */
#ifndef ALLOCLINT_PYSITES_H
#define ALLOCLINT_PYSITES_H

#include <stdbool.h>

/* What the prefilter's scan knows of the logical line where a name is called. */
typedef struct {
    int depth;        /* open brackets */
    bool in_call;     /* the innermost is a call's parenthesis (or too deep to know) */
    bool name_target; /* the line started `name =` or `name:` */
    bool colon;       /* a `:` outside brackets came before (`if c: x = ...`, `x: T = ...`) */
} al_site_context;

/* Whether the FACTORY name at p (called; its `(` at open) may make one of
 * AL101's buffers: a call that is the whole value of an assignment to a
 * name (`x = torch.zeros(n)`, `x: T = ...`; see al_alloc_site_match) or
 * a whole argument of a call (`f(a, torch.zeros(n))`, `out=x.new_zeros(n)`,
 * `nn.Parameter(torch.zeros(n))`; see passed.c). Not in a list, a tuple, a
 * subscript, an operand, an attribute's or a subscript's assignment
 * (`self.buf = torch.zeros(n)`) or an augmented one. `ctx` says what the
 * scan knows of the logical line there. Across a line break, or after a
 * receiver not read back here (`a[0].new_zeros(n)`), it may. */
bool al_site_fill(const char *bytes, const char *p, const char *open, const char *end,
                  const al_site_context *ctx);
/* Whether the assigned name, met again at [p, w) on its logical line,
 * stands where AL401 could put the update in place: first in the value
 * before an operator or a method (`x = x * s`, `x = (x).clamp(0)`), first
 * argument of one of its methods (`torch.add(x, y)`), or last in the
 * value after + or * (`x = y + x`). */
bool al_site_rebind(const char *bytes, const char *p, const char *w, const char *end);

#endif
