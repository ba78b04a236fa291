# AL302 fixtures (off by default): loop-invariant tl.arange in kernel loops.
import triton
import triton.language as tl


@triton.jit
def row_sum(x_ptr, out_ptr, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for start in range(0, n_cols, BLOCK):
        offs = start + tl.arange(0, BLOCK)  # expect: AL302 safe
        acc += tl.load(x_ptr + row * n_cols + offs, mask=offs < n_cols, other=0.0)
    tl.store(out_ptr + row, tl.sum(acc, axis=0))


@triton.jit
def tl_range_loop(x_ptr, out_ptr, n, BLOCK_SIZE: tl.constexpr):
    total = 0.0
    for i in tl.range(0, n, BLOCK_SIZE):
        idx = i + tl.arange(0, BLOCK_SIZE)  # expect: AL302 safe
        total += tl.sum(tl.load(x_ptr + idx, mask=idx < n, other=0.0))
    tl.store(out_ptr, total)


@triton.jit
def used_twice(x_ptr, y_ptr, out_ptr, n, B: tl.constexpr):
    acc = tl.zeros([B], dtype=tl.float32)
    for s in range(0, n, B):
        a = tl.load(x_ptr + s + tl.arange(0, B), mask=s + tl.arange(0, B) < n)  # expect: AL302 safe
        acc += a
    tl.store(out_ptr + tl.arange(0, B), acc)


@triton.jit
def nested_loops(x_ptr, out_ptr, rows, cols, BR: tl.constexpr, BC: tl.constexpr):
    # Invariant in both loops: hoisted before the outer one.
    for r in range(0, rows, BR):
        for c in range(0, cols, BC):
            offs_c = c + tl.arange(0, BC)  # expect: AL302 safe
            v = tl.load(x_ptr + r * cols + offs_c, mask=offs_c < cols)
            tl.store(out_ptr + r * cols + offs_c, v)


@triton.jit
def static_range_loop(x_ptr, out_ptr, NUM: tl.constexpr, B: tl.constexpr):
    # NUM may be 0: the unrolled body is then not compiled, and hoisted,
    # tl.arange(0, B) would be, for a B it may not suit (B = 0 or 3).
    for i in tl.static_range(NUM):
        v = tl.load(x_ptr + i * B + tl.arange(0, B))  # expect: none
        tl.store(out_ptr + i * B + tl.arange(0, B), v)


@triton.jit
def static_range_four(x_ptr, out_ptr, B: tl.constexpr):
    # Four unrolled passes: the body is always compiled.
    for i in tl.static_range(4):
        v = tl.load(x_ptr + i * B + tl.arange(0, B))  # expect: AL302 safe
        tl.store(out_ptr + i * B + tl.arange(0, B), v)


@triton.jit
def branch_with_a_twin(x_ptr, out_ptr, n, B: tl.constexpr, WIDE: tl.constexpr):
    # The same arange stands outside the branch, compiled on every launch:
    # valid for every launch's B.
    first = tl.load(x_ptr + tl.arange(0, B))
    for s in range(0, n, B):
        if WIDE:
            offs = s + tl.arange(0, B)  # expect: AL302 safe
            tl.store(out_ptr + offs, first, mask=offs < n)


@triton.jit
def depends_on_loop_variable(x_ptr, out_ptr, NUM: tl.constexpr):
    for i in tl.static_range(1, NUM):
        v = tl.load(x_ptr + tl.arange(0, i))  # expect: none
        tl.store(out_ptr + tl.arange(0, i), v)


@triton.jit
def bound_rebound_in_loop(x_ptr, out_ptr, n, B: tl.constexpr):
    width = B
    for s in range(0, n, B):
        v = tl.load(x_ptr + s + tl.arange(0, width))  # expect: none
        tl.store(out_ptr + s + tl.arange(0, width), v)
        width = width // 2


@triton.jit
def already_hoisted(x_ptr, out_ptr, n, B: tl.constexpr):
    ar = tl.arange(0, B)  # expect: none
    for s in range(0, n, B):
        v = tl.load(x_ptr + s + ar, mask=s + ar < n)
        tl.store(out_ptr + s + ar, v, mask=s + ar < n)


@triton.jit
def no_loop(x_ptr, out_ptr, B: tl.constexpr):
    offs = tl.arange(0, B)  # expect: none
    tl.store(out_ptr + offs, tl.load(x_ptr + offs))


@triton.jit
def while_loop(x_ptr, out_ptr, n, B: tl.constexpr):
    s = 0
    while s < n:
        v = tl.load(x_ptr + s + tl.arange(0, B))  # expect: none
        tl.store(out_ptr + s + tl.arange(0, B), v)
        s += B


def host_code(torch, n):
    # Not in a kernel: torch.arange in a loop is AL301's business, if anyone's.
    total = 0
    for i in range(n):
        total += torch.arange(0, 8).sum()  # expect: none
    return total


@triton.jit
def two_ranges(x_ptr, y_ptr, out_ptr, n, BA: tl.constexpr, BB: tl.constexpr):
    acc = tl.zeros([BA], dtype=tl.float32)
    for s in range(0, n, BA):
        a = tl.load(x_ptr + s + tl.arange(0, BA))  # expect: AL302 safe
        b = tl.load(y_ptr + tl.arange(0, BB))  # expect: AL302 safe
        acc += a + tl.sum(b)
    tl.store(out_ptr + tl.arange(0, BA), acc)


@triton.jit
def offset_start(x_ptr, out_ptr, n, B: tl.constexpr):
    for s in tl.range(0, n, B):
        v = tl.load(x_ptr + s + tl.arange(1, B + 1))  # expect: AL302 safe
        tl.store(out_ptr + s + tl.arange(1, B + 1), v)


@triton.jit
def bound_from_loop_load(x_ptr, len_ptr, out_ptr, n, B: tl.constexpr):
    for s in range(0, n, B):
        m = tl.load(len_ptr + s)
        v = tl.load(x_ptr + tl.arange(0, B), mask=tl.arange(0, B) < m)  # expect: AL302 safe
        tl.store(out_ptr + s, tl.sum(v))


@triton.jit
def loop_var_in_bound(x_ptr, out_ptr, NUM: tl.constexpr):
    for i in tl.static_range(2, NUM):
        v = tl.load(x_ptr + tl.arange(0, i * 2))  # expect: none
        tl.store(out_ptr + i, tl.sum(v))


@triton.jit
def no_arange_in_loop(x_ptr, out_ptr, n, B: tl.constexpr):
    offs = tl.arange(0, B)  # expect: none
    acc = tl.zeros([B], dtype=tl.float32)
    for s in range(0, n, B):
        acc += tl.load(x_ptr + s + offs)
    tl.store(out_ptr + offs, acc)


@triton.jit
def loop_over_a_tuple(a_ptr, b_ptr, out_ptr, B: tl.constexpr):
    # Not a range loop: alloclint does not reason about it.
    acc = tl.zeros([B], dtype=tl.float32)
    for p in (a_ptr, b_ptr):
        acc += tl.load(p + tl.arange(0, B))  # expect: none
    tl.store(out_ptr + tl.arange(0, B), acc)


@triton.jit
def copy_then_clear(x_ptr, out_ptr, n, B: tl.constexpr):
    # Two loops of one block hoist the same expression: one name, made
    # before the first loop, and one finding.
    for s in range(0, n, B):
        offs = s + tl.arange(0, B)  # expect: AL302 safe
        tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=offs < n), mask=offs < n)
    for s in range(0, n, B):
        offs = s + tl.arange(0, B)
        tl.store(x_ptr + offs, 0.0, mask=offs < n)


@triton.jit
def block_changes_between(x_ptr, out_ptr, n, B: tl.constexpr, TAIL: tl.constexpr):
    # `width` is bound in the function: each loop gets its own name.
    width = B
    for s in range(0, n, width):
        offs = s + tl.arange(0, width)  # expect: AL302 safe
        tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=offs < n), mask=offs < n)
    width = TAIL
    for s in range(0, n, width):
        offs = s + tl.arange(0, width)  # expect: AL302 safe
        tl.store(x_ptr + offs, 0.0, mask=offs < n)


@triton.jit
def optional_tail(x_ptr, out_ptr, n, BLOCK: tl.constexpr, HAS_TAIL: tl.constexpr, TAIL: tl.constexpr):
    # Under `if HAS_TAIL:` (a constexpr: not compiled when false) the tail's
    # arange may be invalid where the branch is not taken (TAIL = 0):
    # hoisted out of the branch it would be compiled anyway.
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for start in range(0, n, BLOCK):
        offs = start + tl.arange(0, BLOCK)  # expect: AL302 safe
        acc += tl.load(x_ptr + offs, mask=offs < n, other=0.0)
        if HAS_TAIL:
            t = tl.arange(0, TAIL)  # expect: none
            acc += tl.sum(tl.load(x_ptr + t, mask=t < n, other=0.0))
    tl.store(out_ptr + tl.arange(0, BLOCK), acc)
