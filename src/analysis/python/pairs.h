/* Pairs of Triton launches on one buffer: a first that stores a region
 * of it (al_call_effect.region) and a second that loads only elements of
 * that region, with nothing between them that can change what the region
 * reads. The buffer analysis (buffer.c) keeps, per allocation, the
 * launches that stored a region and the first pair it found; its fill is
 * then never read where it is not written (AL_PROOF_GUARDED). */
#ifndef ALLOCLINT_PAIRS_H
#define ALLOCLINT_PAIRS_H

#include "uses.h"
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
bool al_pairs_read(al_launch_pairs *p, const al_pyfile *pf, int stored, const al_use *e);
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
