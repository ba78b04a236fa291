/* Guarded regions: the elements of a pointer parameter that a kernel's
 * one store writes, or that all its loads read, written out as the
 * address, the mask and the conditions of the `if` statements around the
 * access, so that a second kernel's reads can be shown to fall inside a
 * first kernel's writes (DESIGN.md, "fills nothing reads").
 *
 * A region is first a template in the kernel's own terms: a parameter is
 * `$i$`, a program id `#k#`, a loop `for v in range(E)` `@{E}@`, a lane
 * vector `tl.arange(0, B)` `AR{B}`; locals assigned once are replaced by
 * their values, `a > b` is `b < a`, and the operands of a sum or product
 * are marked (`\x01+ a \x02 b \x03`): two always, three or more in a
 * pointer, or where none may be a float (a load, a float literal or
 * cast), since floats do not regroup exactly. At a launch (launch.c) each
 * parameter becomes the caller's argument and each program id `@{G}@`, G
 * the grid's extent on that axis. Two regions are then compared as text
 * (al_region_reads_within in core/regions.h), each marked sum or product
 * with its operands sorted (al_region_canonical), so that two orders of
 * one sum are one text: every index variable is named by the extent it runs
 * over, so a program id of one kernel and a loop of another that run
 * over the same caller value are the same variable. */
#ifndef ALLOCLINT_TRITON_REGION_H
#define ALLOCLINT_TRITON_REGION_H

#include "form.h"

#include <stdbool.h>

/* The templates of the parameters' regions, out[i] for want[i]: 1 the
 * one store that writes it (under `if` statements only: no loop or exit
 * around it), -1 every load that reads it (a region per load, separated
 * by "\n--\n"), 0 none. NULL when an access is not of that form. The
 * kernel's calls are read once for all of them. */
void al_tregion_templates(al_tf_kernel *k, const signed char *want, char **out);

#endif
