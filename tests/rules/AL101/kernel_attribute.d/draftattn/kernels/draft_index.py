# The kernel a speculative-decoding backend fills its draft index with.
import triton
import triton.language as tl


@triton.jit
def _draft_index_kernel(out_ptr, src_ptr, n, BLOCK: tl.constexpr):
    # Every element of [0, n) is stored once.
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(out_ptr + offs, tl.load(src_ptr + offs, mask=mask), mask=mask)
