# AL401 never reports inside a Triton kernel: its values are blocks in
# registers, and `x = x * y` there allocates nothing to reuse.
import triton
import triton.language as tl


@triton.jit
def scale_rows(x_ptr, g_ptr, BLOCK: tl.constexpr):
    # Triton values are blocks in registers: nothing is allocated.
    offs = tl.arange(0, BLOCK)
    b_h = tl.zeros([BLOCK], dtype=tl.float32)
    b_h = b_h + tl.load(x_ptr + offs)
    b_h = b_h * tl.load(g_ptr)  # expect: none
    tl.store(x_ptr + offs, b_h)
