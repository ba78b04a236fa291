/* The methods of torch.Tensor that return a tensor (generated from torch by
 * scripts/tensor_methods.py): what lets a call `v.name(...)` on a value not
 * otherwise known count as evidence of a tensor, and `config.get(...)`,
 * `tokenizer.encode(...)` not. */
#ifndef ALLOCLINT_TENSOR_METHODS_H
#define ALLOCLINT_TENSOR_METHODS_H

#include <stdbool.h>
#include <stddef.h>

bool al_tensor_method(const char *name, size_t len);

#endif
