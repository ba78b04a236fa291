# AL104 fixtures: redundant zero accumulators and dead stores in kernels.
import triton
import triton.language as tl


@triton.jit
def qk_scores(q_ptr, k_ptr, s_ptr, BM: tl.constexpr, BN: tl.constexpr, D: tl.constexpr):
    offs_m = tl.arange(0, BM)
    offs_n = tl.arange(0, BN)
    offs_d = tl.arange(0, D)
    q = tl.load(q_ptr + offs_m[:, None] * D + offs_d[None, :])
    k = tl.load(k_ptr + offs_d[:, None] * BN + offs_n[None, :])
    qk = tl.zeros([BM, BN], dtype=tl.float32)  # expect: AL104 safe
    qk += tl.dot(q, k)
    tl.store(s_ptr + offs_m[:, None] * BN + offs_n[None, :], qk)


@triton.jit
def single_block_gemm(a_ptr, b_ptr, c_ptr, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    rm = tl.arange(0, BM)
    rn = tl.arange(0, BN)
    rk = tl.arange(0, BK)
    a = tl.load(a_ptr + rm[:, None] * BK + rk[None, :])
    b = tl.load(b_ptr + rk[:, None] * BN + rn[None, :])
    # The dot gives float32 and `+=` promotes the float16 zeros to it:
    # out_dtype=tl.float16 would sum in float16.
    acc = tl.zeros((BM, BN), tl.float16)  # expect: AL104 unsafe
    acc += tl.dot(a, b, input_precision="ieee")
    tl.store(c_ptr + rm[:, None] * BN + rn[None, :], acc)


@triton.jit
def half_dot_half_acc(a_ptr, b_ptr, c_ptr, BM: tl.constexpr):
    # The dot already sums in float16: the same.
    r = tl.arange(0, BM)
    a = tl.load(a_ptr + r[:, None] * BM + r[None, :])
    b = tl.load(b_ptr + r[:, None] * BM + r[None, :])
    acc = tl.zeros((BM, BM), dtype=tl.float16)  # expect: AL104 safe
    acc += tl.dot(a, b, out_dtype=tl.float16)
    tl.store(c_ptr + r[:, None] * BM + r[None, :], acc)


@triton.jit
def int8_gemm(a_ptr, b_ptr, c_ptr, BM: tl.constexpr):
    # int8 inputs: the dot gives int32, the accumulator's dtype.
    r = tl.arange(0, BM)
    a = tl.load(a_ptr + r[:, None] * BM + r[None, :])
    b = tl.load(b_ptr + r[:, None] * BM + r[None, :])
    acc = tl.zeros((BM, BM), dtype=tl.int32)  # expect: AL104 safe
    acc += tl.dot(a, b)
    tl.store(c_ptr + r[:, None] * BM + r[None, :], acc)


@triton.jit
def bf16_accumulator(a_ptr, b_ptr, c_ptr, BM: tl.constexpr):
    r = tl.arange(0, BM)
    a = tl.load(a_ptr + r[:, None] * BM + r[None, :])
    b = tl.load(b_ptr + r[:, None] * BM + r[None, :])
    acc = tl.zeros((BM, BM), dtype=tl.bfloat16)  # expect: AL104 unsafe
    acc += tl.dot(a, b)
    tl.store(c_ptr + r[:, None] * BM + r[None, :], acc)


@triton.jit
def accumulator_dtype_given(a_ptr, b_ptr, c_ptr, BM: tl.constexpr, ACC: tl.constexpr):
    # A dtype handed in: float16 for some launches.
    r = tl.arange(0, BM)
    a = tl.load(a_ptr + r[:, None] * BM + r[None, :])
    b = tl.load(b_ptr + r[:, None] * BM + r[None, :])
    acc = tl.zeros((BM, BM), dtype=ACC)  # expect: AL104 unsafe
    acc += tl.dot(a, b)
    tl.store(c_ptr + r[:, None] * BM + r[None, :], acc)


@triton.jit
def conflicting_out_dtype(a_ptr, b_ptr, c_ptr, BM: tl.constexpr):
    r = tl.arange(0, BM)
    a = tl.load(a_ptr + r[:, None] * BM + r[None, :])
    acc = tl.zeros((BM, BM), dtype=tl.float32)  # expect: AL104 nofix
    acc += tl.dot(a, a, out_dtype=tl.float16)
    tl.store(c_ptr + r[:, None] * BM + r[None, :], acc)


@triton.jit
def dead_zero_store(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    # x_ptr may be out_ptr (a launch in place): the load would read the
    # zeros. Unsafe, said.
    tl.store(out_ptr + offs, tl.zeros([BLOCK], dtype=tl.float32), mask=mask)  # expect: AL104 unsafe
    x = tl.load(x_ptr + offs, mask=mask)
    y = x * 2.0 + 1.0
    tl.store(out_ptr + offs, y, mask=mask)


@triton.jit
def zero_loop_then_real_loop(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    for start in range(0, n, BLOCK):  # expect: AL104 unsafe
        offs = start + tl.arange(0, BLOCK)
        tl.store(out_ptr + row * n + offs, 0.0, mask=offs < n)
    for start in range(0, n, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        v = tl.load(x_ptr + row * n + offs, mask=offs < n)
        tl.store(out_ptr + row * n + offs, v * 3.0, mask=offs < n)


@triton.jit
def computed_flag(x_ptr, out_ptr, seq_len, BLOCK: tl.constexpr):
    computed = False
    for start in range(0, seq_len, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        v = tl.load(x_ptr + offs, mask=offs < seq_len)
        tl.store(out_ptr + offs, v, mask=offs < seq_len)
        computed = True
    if computed == False:  # expect: AL104 nofix
        for start in range(0, seq_len, BLOCK):
            offs = start + tl.arange(0, BLOCK)
            tl.store(out_ptr + offs, 0.0, mask=offs < seq_len)


@triton.jit
def accumulating_loop(a_ptr, b_ptr, c_ptr, K, BM: tl.constexpr, BK: tl.constexpr):
    # The accumulator gathers several dots: the zeros are needed.
    r = tl.arange(0, BM)
    rk = tl.arange(0, BK)
    acc = tl.zeros((BM, BM), dtype=tl.float32)  # expect: none
    for k in range(0, K, BK):
        a = tl.load(a_ptr + r[:, None] * K + (k + rk)[None, :])
        b = tl.load(b_ptr + (k + rk)[:, None] * BM + r[None, :])
        acc += tl.dot(a, b)
    tl.store(c_ptr + r[:, None] * BM + r[None, :], acc)


@triton.jit
def acc_used_before(a_ptr, c_ptr, BM: tl.constexpr):
    r = tl.arange(0, BM)
    a = tl.load(a_ptr + r[:, None] * BM + r[None, :])
    acc = tl.zeros((BM, BM), dtype=tl.float32)  # expect: none
    tl.store(c_ptr + r[:, None] * BM + r[None, :], acc)
    acc += tl.dot(a, a)
    tl.store(c_ptr + r[:, None] * BM + r[None, :], acc)


@triton.jit
def acc_passed_to_dot(a_ptr, c_ptr, BM: tl.constexpr):
    r = tl.arange(0, BM)
    a = tl.load(a_ptr + r[:, None] * BM + r[None, :])
    acc = tl.zeros((BM, BM), dtype=tl.float32)  # expect: none
    acc = tl.dot(a, a, acc)
    tl.store(c_ptr + r[:, None] * BM + r[None, :], acc)


@triton.jit
def zero_store_read_back(out_ptr, n, BLOCK: tl.constexpr):
    # The zeros are loaded before the second store: not dead.
    offs = tl.arange(0, BLOCK)
    tl.store(out_ptr + offs, tl.zeros([BLOCK], dtype=tl.float32), mask=offs < n)  # expect: none
    prev = tl.load(out_ptr + offs, mask=offs < n)
    tl.store(out_ptr + offs, prev + 1.0, mask=offs < n)


@triton.jit
def different_mask(out_ptr, x_ptr, n, m, BLOCK: tl.constexpr):
    # The second store covers fewer lanes: the zeros stay where it does not.
    offs = tl.arange(0, BLOCK)
    tl.store(out_ptr + offs, 0.0, mask=offs < n)  # expect: none
    v = tl.load(x_ptr + offs, mask=offs < m)
    tl.store(out_ptr + offs, v, mask=offs < m)


@triton.jit
def conditional_overwrite(out_ptr, x_ptr, flag, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(out_ptr + offs, 0.0)  # expect: none
    if flag:
        tl.store(out_ptr + offs, tl.load(x_ptr + offs))


@triton.jit
def different_pointer(out_ptr, other_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(out_ptr + offs, 0.0)  # expect: none
    tl.store(other_ptr + offs, 1.0)


def not_a_kernel(torch, n):
    # Plain Python: not in a triton kernel.
    acc = torch.zeros(n)  # expect: none
    acc += torch.ones(n)
    return acc


@triton.jit
def dot_with_three_operands(a_ptr, b_ptr, c_ptr, BM: tl.constexpr):
    # tl.dot(a, b, acc) accumulates into acc itself: nothing to fold.
    r = tl.arange(0, BM)
    a = tl.load(a_ptr + r[:, None] * BM + r[None, :])
    b = tl.load(b_ptr + r[:, None] * BM + r[None, :])
    acc = tl.zeros((BM, BM), dtype=tl.float32)  # expect: none
    acc += tl.dot(a, b, acc)
    tl.store(c_ptr + r[:, None] * BM + r[None, :], acc)


@triton.jit
def dead_zero_store_plain_zero(out_ptr, x_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(out_ptr + offs, 0)  # expect: AL104 unsafe
    tl.store(out_ptr + offs, tl.load(x_ptr + offs) * 2)


@triton.jit
def dead_store_of_positions(out_ptr, n, BLOCK: tl.constexpr):
    # Nothing is read between: the zeros are dead whatever the launch.
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(out_ptr + offs, tl.zeros([BLOCK], dtype=tl.float32), mask=mask)  # expect: AL104 safe
    tl.store(out_ptr + offs, offs.to(tl.float32), mask=mask)


@triton.jit
def offsets_moved(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    # `offs` is bound again: the second store writes the next block.
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(out_ptr + offs, tl.zeros([BLOCK], dtype=tl.float32), mask=mask)  # expect: none
    offs = offs + BLOCK
    tl.store(out_ptr + offs, offs.to(tl.float32), mask=mask)


@triton.jit
def mask_narrowed(out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(out_ptr + offs, tl.zeros([BLOCK], dtype=tl.float32), mask=mask)  # expect: none
    mask = offs < n // 2
    tl.store(out_ptr + offs, offs.to(tl.float32), mask=mask)


@triton.jit
def base_moved(out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(out_ptr + offs, tl.zeros([BLOCK], dtype=tl.float32), mask=mask)  # expect: none
    out_ptr += n
    tl.store(out_ptr + offs, offs.to(tl.float32), mask=mask)


@triton.jit
def real_loop_reads_the_zeros(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    # The second loop adds to what the first stored: the zeros are read.
    row = tl.program_id(0)
    for start in range(0, n, BLOCK):  # expect: none
        offs = start + tl.arange(0, BLOCK)
        tl.store(out_ptr + row * n + offs, 0.0, mask=offs < n)
    for start in range(0, n, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        acc = tl.load(out_ptr + row * n + offs, mask=offs < n)
        tl.store(out_ptr + row * n + offs, acc + 1.0, mask=offs < n)


@triton.jit
def real_loop_shifted(out_ptr, n, BLOCK: tl.constexpr):
    # The same store text, but `offs` is bound otherwise in the second loop.
    row = tl.program_id(0)
    for start in range(0, n, BLOCK):  # expect: none
        offs = start + tl.arange(0, BLOCK)
        tl.store(out_ptr + row * n + offs, 0.0, mask=offs < n)
    for start in range(0, n, BLOCK):
        offs = start + tl.arange(0, BLOCK) + 1
        tl.store(out_ptr + row * n + offs, 2.0, mask=offs < n)
