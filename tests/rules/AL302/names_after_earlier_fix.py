# The same range hoisted out of loops in two branches: two names, as --fix
# writes them (the second hoist is proved after the first, whose name is
# then taken), so the report's fixes can be applied together.
import triton
import triton.language as tl


@triton.jit
def signed_sum(x_ptr, out_ptr, n, negate, B: tl.constexpr):
    acc = tl.zeros([B], dtype=tl.float32)
    if negate:
        for s in range(0, n, B):
            acc -= tl.load(x_ptr + s + tl.arange(0, B))  # expect: AL302 safe
    else:
        for s in range(0, n, B):
            acc += tl.load(x_ptr + s + tl.arange(0, B))  # expect: AL302 safe
    tl.store(out_ptr + tl.arange(0, B), acc)
