# AL101 fixtures for DESIGN.md's "never rewrite" list. Each stands for a
# class of real bug-fix commits in inference engines, where a zeros ->
# empty rewrite produced garbage that surfaced on a GPU much later.
import logging

import torch
import triton
import triton.language as tl

log = logging.getLogger(__name__)


class DecodeMetadataBuilder:
    def init_cuda_graph_state(self, max_bs, max_num_pages):
        # CUDA-graph state: stored on self before any write. Graph capture
        # reads these buffers before a replay ever writes them.
        kv_indptr = torch.zeros(max_bs + 1, dtype=torch.int32, device="cuda")  # expect: none
        self.cuda_graph_kv_indptr = kv_indptr
        kv_indptr[1:].copy_(torch.arange(1, max_bs + 1))

        kv_indices = torch.zeros(max_num_pages, dtype=torch.int32, device="cuda")  # expect: none
        self.graph_buffers = {"kv_indices": kv_indices}
        kv_indices.fill_(0)

    def make_buffers(self, n):
        # Returned before the write: the caller reads the zeros.
        seq_lens = torch.zeros(n, dtype=torch.int32)  # expect: none
        return seq_lens


def capture_then_write(graph, x):
    # A write recorded during graph capture has not run yet when the
    # capture ends: the buffer still holds its initial value.
    y = torch.zeros_like(x)  # expect: none
    with torch.cuda.graph(graph):
        y.copy_(x + 1)
    return y


def cumsum_after_leading_zero(seq_lens):
    # cumsum(out=buf[1:]): element 0 relies on the zero fill. Rewriting
    # this to empty gave a garbage first offset in attention metadata.
    cu_seqlens = torch.zeros(seq_lens.numel() + 1, dtype=torch.int32)  # expect: none
    torch.cumsum(seq_lens, dim=0, out=cu_seqlens[1:])
    return cu_seqlens


def offset_copy(counts):
    # buf[1:].copy_(...) also leaves element 0 to the fill.
    starts = torch.zeros(counts.numel() + 1, dtype=torch.int64)  # expect: none
    starts[1:].copy_(counts.cumsum(0))
    return starts


@triton.jit
def _quant_scale_kernel(x_ptr, scale_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n)
    tl.store(scale_ptr + pid, tl.max(tl.abs(x), axis=0))


def fp4_block_scales(x, num_blocks):
    # Scale buffers padded to a multiple of 128 rows: the kernel writes only
    # the real rows, the swizzled layout reads the padding, which must be 0.
    padded = (num_blocks + 127) // 128 * 128
    scales = torch.zeros(padded, dtype=torch.float32, device=x.device)  # expect: none
    _quant_scale_kernel[(num_blocks,)](x, scales, x.numel(), BLOCK=128)
    return scales


def round_up(x, m):
    return (x + m - 1) // m * m


def fp4_scales_round_up(x, rows, cols):
    scales = torch.zeros(round_up(rows, 128), cols, dtype=torch.uint8)  # expect: none
    _quant_scale_kernel[(rows,)](x, scales, x.numel(), BLOCK=64)
    return scales


@triton.jit
def _expert_count_kernel(topk_ids_ptr, counts_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    ids = tl.load(topk_ids_ptr + offs, mask=offs < n)
    tl.atomic_add(counts_ptr + ids, 1, mask=offs < n)


def count_tokens_per_expert(topk_ids, num_experts):
    # The kernel accumulates with atomics: it needs the zeros.
    counts = torch.zeros(num_experts, dtype=torch.int32, device=topk_ids.device)  # expect: none
    _expert_count_kernel[(triton.cdiv(topk_ids.numel(), 256),)](topk_ids, counts, topk_ids.numel(), BLOCK=256)
    return counts


def accumulate_in_place(hidden, experts, routing):
    # add_/index_add_/+= read the initial value.
    out = torch.zeros_like(hidden)  # expect: none
    for e in experts:
        out.index_add_(0, routing[e], e(hidden[routing[e]]))
    return out


def accumulate_after_write(x, y):
    # Fully written, then accumulated into: DESIGN.md keeps any buffer that
    # is accumulated into at any point.
    acc = torch.zeros_like(x)  # expect: none
    acc.copy_(x)
    acc += y
    return acc


def view_aliases_buffer(n, src):
    # `row` aliases the buffer and is read while most of it is unwritten.
    buf = torch.zeros(n, 16)  # expect: none
    row = buf[0]
    buf[1:] = src
    return row.sum()


def global_buffer(n, src):
    global _SCRATCH
    _SCRATCH = torch.zeros(n)  # expect: none
    _SCRATCH.copy_(src)


def captured_by_closure(n, src):
    # A nested function may read the buffer whenever it runs.
    buf = torch.zeros(n)  # expect: none

    def peek():
        return buf[0]

    hook = peek
    buf.copy_(src)
    return hook


def passed_to_helper(n, src, helper):
    # An unknown call may read it.
    buf = torch.zeros(n)  # expect: none
    helper(buf)
    buf.copy_(src)
    return buf


def pointer_handed_to_library(n, src, comm):
    # A warm-up collective reads the buffer through its data pointer.
    buf = torch.zeros(n, device=src.device)  # expect: none
    comm.all_reduce_raw(buf.data_ptr(), buf.numel())
    buf.copy_(src)
    return buf


def pointer_compared(n, src, other):
    # Comparing data pointers reads no element.
    buf = torch.zeros(n, device=src.device)  # expect: AL101 safe
    same = buf.data_ptr() == other.untyped_storage().data_ptr()
    buf.copy_(src)
    return buf, same


def copy_under_suppress(x, src):
    # A copy that raises (a shape that does not fit) is skipped, and the
    # zeros are returned.
    import contextlib

    buf = torch.zeros_like(x)  # expect: none
    with contextlib.suppress(RuntimeError):
        buf.copy_(src)
    return buf


def read_by_eval(x):
    # eval reads the buffer by its name, unseen.
    buf = torch.zeros_like(x)  # expect: none
    s = eval("buf.sum()")
    buf.copy_(x)
    return buf, s


def read_through_locals(x):
    buf = torch.zeros_like(x)  # expect: none
    s = locals()["buf"].sum()
    buf.copy_(x)
    return buf, s


def read_in_handler(x, scale):
    # The handler returns the zeros when the product cannot be made.
    buf = torch.zeros_like(x)  # expect: none
    try:
        y = x * scale
        buf.copy_(y)
    except RuntimeError:
        return buf
    return buf


def read_through_walrus(x):
    buf = torch.zeros_like(x)  # expect: none
    if (head := buf[:2]) is not None:
        s = head.sum()
    buf.copy_(x)
    return buf, s


def read_through_match(x):
    buf = torch.zeros_like(x)  # expect: none
    match buf:
        case torch.Tensor() as t:
            s = t.sum()
    buf.copy_(x)
    return buf, s


def size_shrunk_before_loop(n, x):
    # The loop covers n - 1 rows of n: the last keeps its zero.
    buf = torch.zeros(n)  # expect: none
    n = n - 1
    for i in range(n):
        buf[i] = x[i]
    return buf


def size_shrunk_in_place(n, x):
    buf = torch.zeros(n, 4)  # expect: none
    n -= 1
    buf[:n] = x[:n]
    return buf


def size_swapped_by_unpacking(n, m, x):
    # `n, m = m, n`: the writes' `n` is the old `m`.
    buf = torch.zeros(n)  # expect: none
    n, m = m, n
    buf[:n] = x[:n]
    return buf


def size_shrunk_by_walrus(n, x):
    buf = torch.zeros(n)  # expect: none
    log.debug("rows %d", (n := n - 1))
    buf[:n] = x[:n]
    return buf


def size_bound_by_a_later_loop(n, x, sizes):
    buf = torch.zeros(n)  # expect: none
    for n in sizes:
        pass
    buf[:n] = x[:n]
    return buf


def size_shrunk_in_each_pass(n, x, steps):
    out = []
    for _ in range(steps):
        buf = torch.zeros(n)  # expect: none
        n = n - 1
        buf[:n] = x[:n]
        out.append(buf)
    return out


class RowCache:
    def __init__(self, rows):
        self.rows = rows

    def refill(self, x):
        # The attribute the size read changes before the write.
        buf = torch.zeros(self.rows)  # expect: none
        self.rows = self.rows - 1
        buf[: self.rows] = x[: self.rows]
        return buf


def written_in_an_assert(x):
    # `python -O` drops the assert, and the copy with it.
    buf = torch.zeros_like(x)  # expect: none
    assert buf.copy_(x) is not None
    return buf


def _checked(fn):
    def wrapper(buf, x):
        # reads the buffer before the helper writes it
        assert not torch.isnan(buf).any()
        return fn(buf, x)

    return wrapper


@_checked
def _fill_checked(buf, x):
    buf.copy_(x)


def helper_behind_a_decorator(x):
    # The decorator runs first and reads the zeros.
    buf = torch.zeros_like(x)  # expect: none
    _fill_checked(buf, x)
    return buf
