# Routing and chunked-attention kernels whose stores the data or the tile
# structure chooses: the buffers' fills are the values left where they do
# not store.
import triton
import triton.language as tl


@triton.jit
def _expert_hit_kernel(hit_ptr, topk_ids_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    ids = tl.load(topk_ids_ptr + offs, mask=offs < n, other=-1)
    tl.store(hit_ptr + pid, 1, mask=tl.sum((ids >= 0).to(tl.int32)) > 0)


@triton.jit
def _valid_slots_kernel(out_ptr, slot_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    slots = tl.load(slot_ptr + offs, mask=offs < n, other=-1)
    tl.store(out_ptr + offs, slots, mask=(offs < n) & (slots > -1))


@triton.jit
def _skip_empty_kernel(out_ptr, lens_ptr, stride, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    seq_len = tl.load(lens_ptr + row)
    if seq_len == 0:
        return
    cols = tl.arange(0, BLOCK)
    tl.store(out_ptr + row * stride + cols, 1.0, mask=cols < seq_len)


@triton.jit
def _compact_kernel(out_ptr, src_ptr, dst_ptr, count_ptr, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    dst = tl.load(dst_ptr + pid)
    cnt = tl.load(count_ptr + pid)
    offs = tl.arange(0, BLOCK)
    v = tl.load(src_ptr + pid * BLOCK + offs, mask=offs < cnt)
    tl.store(out_ptr + dst + offs, v, mask=offs < cnt)


@triton.jit
def _solve_tril_kernel(A_ptr, Ai_ptr, T, BT: tl.constexpr):
    i_t = tl.program_id(0)
    i_s = tl.program_id(1)
    if i_t < i_s:
        return
    p_a = tl.make_block_ptr(A_ptr, (T, T), (T, 1), (i_t * BT, i_s * BT), (BT, BT), (1, 0))
    p_ai = tl.make_block_ptr(Ai_ptr, (T, T), (T, 1), (i_t * BT, i_s * BT), (BT, BT), (1, 0))
    tl.store(p_ai, tl.load(p_a, boundary_check=(0, 1)), boundary_check=(0, 1))


@triton.jit
def _fill_bounded_kernel(out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(out_ptr + offs, 1.0, mask=offs < n)


@triton.jit
def _merge_indices_kernel(out_ptr, topk_ptr, lens_ptr, width, BLOCK: tl.constexpr):
    # The top-k entries, then the window's: the slots past both keep -1.
    row = tl.program_id(0)
    n_topk = tl.load(lens_ptr + 2 * row)
    n_swa = tl.load(lens_ptr + 2 * row + 1)
    offs = tl.arange(0, BLOCK)
    ids = tl.load(topk_ptr + row * width + offs, mask=offs < n_topk)
    tl.store(out_ptr + row * width + offs, ids, mask=offs < n_topk)
    tl.store(out_ptr + row * width + n_topk + offs, offs, mask=offs < n_swa)
