/* Conditions whose value is known where a buffer is held, so that the
 * buffer's dataflow follows only the branch that runs then: `x is not None`
 * of a name that surely holds it (a tensor is not None), or the guard of
 * its conditional allocation (`x = zeros(n) if use else None`: where the
 * buffer exists, `use` held, unless bound again since). */
#ifndef ALLOCLINT_GUARDS_H
#define ALLOCLINT_GUARDS_H

#include "alloc.h"
#include "../../front/python/cfg.h"

#include <stdbool.h>
#include <stddef.h>

/* For an if/elif condition node: 1 when it holds, 0 when it does not, -1
 * not known. holds(ctx, name, len) says whether a name surely holds the
 * buffer there; site (may be NULL) is the allocation. */
int al_guard_known(const al_pyfile *pf, TSNode func, const al_cfg_node *node,
                   const al_alloc_site *site, bool (*holds)(void *ctx, const char *name, size_t len),
                   void *ctx);

#endif
