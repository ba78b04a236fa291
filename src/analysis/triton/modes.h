/* What decides whether a kernel's store is made at all, beyond its
 * offsets and masks: the launch's mode (a constexpr condition), a trip
 * count read from memory, the autotuner's reset_to_zero; and the value a
 * kernel name holds at a statement. */
#ifndef ALLOCLINT_TRITON_MODES_H
#define ALLOCLINT_TRITON_MODES_H

#include "form.h"

/* Whether cond is made of the kernel's constexpr parameters alone (`if
 * REDUCTION_NONE:`); *any is set when it names one. */
bool al_tf_mode_condition(const al_tf_kernel *k, TSNode cond, int depth, bool *any);
/* The value of the last `name = v` on every path before at, or null. */
TSNode al_tf_value_before(const al_tf_kernel *k, TSNode name, TSNode at);
/* A loop whose trip count is read from memory and whose variable its body
 * does not use (`for _ in range(tl.where(c, 1, 0))`): whether a store in
 * it is made at all is the data's choice. */
bool al_tf_loaded_trip(const al_tf_kernel *k, TSNode loop);
/* Whether `@triton.autotune(reset_to_zero=[...])` names the parameter. */
bool al_tf_reset_to_zero(const al_tf_kernel *k, const char *param);

#endif
