# Triton kernels that gather each request's KV slots into one flat index
# tensor: program i writes its request's slots at [starts[i], starts[i] +
# lens[i]).
import triton
import triton.language as tl


@triton.jit
def gather_slots_kernel(
    slot_table_ptr,  # [max_reqs, max_len]
    req_ids_ptr,
    seg_lens_ptr,
    seg_starts_ptr,
    out_ptr,
    table_stride: tl.constexpr,
    BLOCK: tl.constexpr,
):
    pid = tl.program_id(axis=0)
    req = tl.load(req_ids_ptr + pid)
    start = tl.load(seg_starts_ptr + pid)
    seg_len = tl.load(seg_lens_ptr + pid)
    for i in range(tl.cdiv(seg_len, BLOCK)):
        offs = i * BLOCK + tl.arange(0, BLOCK)
        mask = offs < seg_len
        slots = tl.load(slot_table_ptr + req * table_stride + offs, mask=mask)
        tl.store(out_ptr + start + offs, slots, mask=mask)


@triton.jit
def gather_by_indptr_kernel(slot_table_ptr, req_ids_ptr, indptr_ptr, out_ptr, table_stride, BLOCK: tl.constexpr):
    # The lengths are the differences of the starts.
    pid = tl.program_id(0)
    req = tl.load(req_ids_ptr + pid)
    begin = tl.load(indptr_ptr + pid)
    count = tl.load(indptr_ptr + pid + 1) - begin
    for off in range(0, count, BLOCK):
        cols = off + tl.arange(0, BLOCK)
        slots = tl.load(slot_table_ptr + req * table_stride + cols, mask=cols < count)
        tl.store(out_ptr + begin + cols, slots, mask=cols < count)


@triton.jit
def gather_after_header_kernel(slot_table_ptr, seg_lens_ptr, seg_starts_ptr, out_ptr, table_stride, BLOCK: tl.constexpr):
    # Skips one slot at the head of each segment (a sink token kept by the
    # caller): the first element of every segment is never stored.
    pid = tl.program_id(0)
    start = tl.load(seg_starts_ptr + pid)
    seg_len = tl.load(seg_lens_ptr + pid)
    for i in range(tl.cdiv(seg_len, BLOCK)):
        offs = i * BLOCK + tl.arange(0, BLOCK)
        slots = tl.load(slot_table_ptr + pid * table_stride + offs, mask=offs < seg_len)
        tl.store(out_ptr + start + 1 + offs, slots, mask=offs < seg_len - 1)


@triton.jit
def gather_sparse_kernel(slot_table_ptr, seg_lens_ptr, seg_starts_ptr, out_ptr, table_stride, BLOCK: tl.constexpr):
    # Stops early for requests whose first slot is free (-1): their segment
    # keeps what the buffer held.
    pid = tl.program_id(0)
    first = tl.load(slot_table_ptr + pid * table_stride)
    if first < 0:
        return
    start = tl.load(seg_starts_ptr + pid)
    seg_len = tl.load(seg_lens_ptr + pid)
    for i in range(tl.cdiv(seg_len, BLOCK)):
        offs = i * BLOCK + tl.arange(0, BLOCK)
        slots = tl.load(slot_table_ptr + pid * table_stride + offs, mask=offs < seg_len)
        tl.store(out_ptr + start + offs, slots, mask=offs < seg_len)
