/* Pairs of Triton launches on one buffer: a first that stores a region
 * of it (al_call_effect.region) and a second that loads only elements of
 * that region, with nothing between them that can change what the region
 * reads. The buffer analysis (buffer.c) keeps, per allocation, the
 * launches that stored a region and the first pair it found; its fill is
 * then never read where it is not written (AL_PROOF_GUARDED). */
#ifndef ALLOCLINT_PAIRS_H
#define ALLOCLINT_PAIRS_H

#include "uses.h"
#include "../core/regions.h"
#include "../core/summary.h"
#include "../../front/python/pyast.h"

#include <stdbool.h>

typedef struct {
    struct al_stored_launch {
        TSNode at;
        char *region, *callee, *why;
        size_t row;
        al_chain chain;
    } *items;
    size_t n, cap;
    int paired;  /* 1 + the store of the first pair found, or 0 */
    char *by;    /* that pair's loading launch, */
    char *why;   /* ... what stored the elements it loads, */
    size_t row;  /* ... its line, */
    al_chain chain; /* ... and both launches' steps */
    char *miss;     /* why the first load after a store was not paired, or NULL */
    /* A function's parameter: its one launch that loads a region of it
     * with no store before (the region, its line, its steps). */
    char *loaded;
    TSNode loaded_at;
    size_t loaded_row;
    al_chain loaded_chain;
} al_launch_pairs;

/* Records the launch e (a use with a stored region): 1 + its index. */
int al_pairs_store(al_launch_pairs *p, const al_use *e);
/* The launch `stored` (1 + its index; -1: paths that disagree, the
 * first), or NULL when 0. */
const struct al_stored_launch *al_pairs_stored(const al_launch_pairs *p, int stored);
/* Whether launch e (a use with a loaded region) loads only elements the
 * launch `stored` (1 + its index; 0 or less: none on some path) stored,
 * and is adjacent to it (al_launches_adjacent); the first such pair is
 * kept. */
bool al_pairs_read(al_launch_pairs *p, const al_file_env *env, int stored, const al_use *e);
/* Launch e loads a region of the buffer: whether the load is accounted
 * for, as paired with the launch `stored` stored (al_pairs_read) or, for a
 * parameter (`param`) no launch stored before (`stored` 0), as its first
 * such load, which the function's callers may pair (al_pairs_export). */
bool al_pairs_load(al_launch_pairs *p, const al_file_env *env, int stored, bool param,
                   const al_use *e);
/* What a function does to its parameter when a launch stored or loaded a
 * region of it and nothing blocked: a store not paired inside leaves
 * elements (SKIPS), a load reads them (READS), a pair inside reads none
 * of the caller's values (UNREAD); one that returns it hands back what
 * the launch left (ESCAPES). The region goes to the callers
 * (al_call_effect.region, in the function's own terms) when the function
 * does nothing else: one launch, the parameter not written otherwise
 * (`touched`), and every other statement of its body one that
 * only binds names the region does not mention, calling only what reads
 * a size or makes a tensor, or an `if` of such statements. */
void al_pairs_export(const al_launch_pairs *p, const al_file_env *env, TSNode func,
                     bool returned, bool touched, al_call_effect *out);
/* What an argument `e` at `at` stands for in a region: its value text
 * (al_value_text: sizes through the locals they were bound to, and the
 * arguments of `next_power_of_2`, `cdiv`, `max`, `min`, `len`, `int`
 * through theirs) when that is a value the caller can be shown to hand
 * two calls alike, else the name it is handed by (a tensor made by a
 * factory is the same object at both calls when no statement between
 * them names it). */
char *al_region_value(const al_pyfile *pf, TSNode func, TSNode at, TSNode e);
/* A function's exported region (al_pairs_export) at a call of it in the
 * caller: each of its parameters replaced by the value the call hands it
 * (the buffer, parameter `param`, by its name), each a value the caller
 * can be shown to hand two calls alike (al_region_stable_text). NULL when
 * a name is not a parameter, an argument is not such a value, two index
 * ranges become one, or an argument of a parameter the region does not
 * read is a tensor it reads (an output that is also an input). */
char *al_pairs_region_at_call(const al_file_env *caller, TSNode call, const al_pyfile *pf,
                              TSNode def, int param, const char *region);
/* Why launch l blocks the buffer: what it leaves, and why the load after
 * it was not paired (`miss`); NULL when neither is known. */
char *al_pairs_block_why(const al_launch_pairs *p, const struct al_stored_launch *l);
/* Moves the first pair's proof (the loading launch, its line, what
 * stored, both launches' steps) into the buffer's, freeing what was there. */
void al_pairs_take(al_launch_pairs *p, char **by, size_t *row, char **why, al_chain *chain);
void al_pairs_free(al_launch_pairs *p);

/* Whether first and second (calls) are statements of one block, first
 * before second, and every statement between them is an assignment that
 * binds no name the region mentions and calls nothing but what only
 * reads sizes or makes a new tensor (`triton.next_power_of_2(n)`,
 * `x.stride(0)`, `torch.empty(...)`): no call that could write a tensor
 * the region's conditions load, or bind its names again. When not, *why
 * (static text) says what failed, and *row the statement's line (0 for
 * none). */
bool al_launches_adjacent(const al_pyfile *pf, TSNode first, TSNode second, const char *region,
                          const char **why, size_t *row);

#endif
