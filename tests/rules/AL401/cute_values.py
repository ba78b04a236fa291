# AL401 in a file with CuTe DSL kernels: inside @cute.kernel and
# @cute.jit functions (and functions nested in them) names hold DSL
# scalars and register fragments, traced into a kernel, not torch
# tensors; the torch code beside them is checked as usual.
import torch

try:
    import cutlass
    import cutlass.cute as cute
except ImportError:  # no CUTLASS DSL here: stand-ins, to run the torch code

    class _NoDSL:
        kernel = jit = staticmethod(lambda f: f)
        Int32 = Float32 = float

    cutlass = cute = _NoDSL()


@cute.kernel
def decay_state(state, gk, n):
    acc = cutlass.Float32(gk[0])
    acc = acc * gk[1]  # expect: none
    for i in range(n):
        state[i] = state[i] * acc
    step = cutlass.Int32(0)
    step = step + 1  # expect: none
    return step


@cute.jit
def launch(state, gk, n):
    def scaled(v):
        w = cutlass.Float32(v)
        w = w * 2  # expect: none
        return w

    return scaled(gk[0])


@torch.inference_mode()
def reference_scale(x, w):
    y = torch.matmul(x, w)
    y = y.clamp(min=0)  # expect: AL401 safe
    return y
