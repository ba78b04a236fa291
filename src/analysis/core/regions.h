/* Regions as text: the elements a Triton launch stores or loads, written
 * by triton/region.c in the kernel's terms and put in a caller's by
 * triton/launch.c and python/pairs.c (see triton/region.h for the form).
 * Here: what every side needs to compare two of them and to tell which
 * caller values may stand in one. No knowledge of any language's trees. */
#ifndef ALLOCLINT_REGIONS_H
#define ALLOCLINT_REGIONS_H

#include <stdbool.h>
#include <stddef.h>

/* Calls that only read a size or round one (`triton.next_power_of_2`,
 * `x.stride(0)`, `len`): what a value in a region, or a statement between
 * two launches, may call. NULL-terminated. */
extern const char *const al_region_size_calls[];

/* Whether every region of `read` (regions separated by "\n--\n") has the
 * address and mask of `written` and at least its conditions: each element
 * read is one the writer stored. When not, *why (static text, why may be
 * NULL) says which part differs. */
bool al_region_reads_within(const char *read, const char *written, const char **why);
/* The region with each marked sum or product (`\x01op a \x02 b \x03`)
 * written `(a op b)`, its operands sorted: two orders of one sum are one
 * text. Caller frees. */
char *al_region_canonical(const char *region);
/* Whether a caller's value text may stand in a region: names, numbers,
 * arithmetic, and what only describes a tensor (`x.shape[0]`,
 * `x.stride(1)`) or rounds a size (`triton.next_power_of_2`, `cdiv`), so
 * that it has one value at two calls when no statement between them
 * names it. No attribute of an object (`self.n` may change in any call),
 * no string, subscript of a mapping or lambda. */
bool al_region_stable_text(const char *t);
/* Whether a region's text names the identifier name[0..len). */
bool al_region_mentions(const char *region, const char *name, size_t len);
/* Whether it reads the tensor `name`'s elements: names it other than
 * through its shape or strides (`x.stride(0)`). */
bool al_region_reads_tensor(const char *region, const char *name, size_t len);

#endif
