# AL101 through nested functions (issue 43, item 9): a buffer named by a
# nested function is used where that function is called, not where it is
# defined. Only a function called directly by name from its enclosing
# function's own statements is followed; one handed on, stored, decorated
# or called from another nested function may run at any time. A closure
# that may exist before the fill (defined above it, or on an earlier pass
# of a loop) reads whatever the name holds when it runs.
import torch


def gather_rows(x, idx):
    # The helper writes every row through the enclosing function's name.
    out = torch.zeros(idx.shape[0], x.shape[1], device=x.device, dtype=x.dtype)  # expect: AL101 safe

    def fill():
        out.copy_(x[idx])

    fill()
    return out


def scaled_copy(x, scale):
    # The buffer is handed to a nested function that writes its parameter.
    buf = torch.zeros_like(x)  # expect: AL101 safe

    def write(dst):
        dst[:] = x * scale

    write(buf)
    return buf


def helper_reads_first(x):
    # The nested function reads what it then overwrites: the zeros count.
    acc = torch.zeros_like(x)  # expect: none

    def bump():
        acc.copy_(acc + x)

    bump()
    return acc


def helper_in_a_branch(x, flag):
    # Called on one path only: the other returns the zeros.
    out = torch.zeros_like(x)  # expect: none

    def fill():
        out.copy_(x)

    if flag:
        fill()
    return out


def helper_handed_on(x, callbacks):
    # Stored in a list: it may run after anything, or never.
    out = torch.zeros_like(x)  # expect: none

    def fill():
        out.copy_(x)

    callbacks.append(fill)
    return out


def helper_rebinds(x):
    # `nonlocal` rebinding: the name no longer holds the buffer after it.
    out = torch.zeros_like(x)  # expect: none

    def swap():
        nonlocal out
        out = x.clone()

    swap()
    return out


def called_from_another_helper(x):
    # `fill` runs when `outer` runs, which this walk does not follow.
    out = torch.zeros_like(x)  # expect: none

    def fill():
        out.copy_(x)

    def outer():
        fill()

    outer()
    return out


def reader_defined_above(x):
    # The closure exists before the fill and reads the zeros.
    def total():
        return buf.sum()

    buf = torch.zeros_like(x)  # expect: none
    s = total()
    buf.copy_(x)
    return buf, s


def lambda_defined_above(x):
    total = lambda: buf.sum()  # noqa: E731
    buf = torch.zeros_like(x)  # expect: none
    s = total()
    buf.copy_(x)
    return buf, s


def generator_defined_above(x):
    # A generator expression's element runs when it is iterated.
    sums = (buf.sum() for _ in range(1))
    buf = torch.zeros_like(x)  # expect: none
    s = next(sums)
    buf.copy_(x)
    return buf, s


def view_named_by_an_earlier_lambda(x):
    # The lambda names the view, bound after it to a part of the zeros.
    peek = lambda: head.sum()  # noqa: E731
    buf = torch.zeros_like(x)  # expect: none
    head = buf[:2]
    s = peek()
    buf.copy_(x)
    return buf, s


def closure_from_an_earlier_pass(x, steps):
    # The lambda made on one pass reads the next pass's zeros.
    peek = None
    outs = []
    for _ in range(steps):
        buf = torch.zeros_like(x)  # expect: none
        if peek is not None:
            outs.append(peek())
        buf.copy_(x)
        peek = lambda: buf.sum()  # noqa: E731
    return outs


def parameter_hides_module_function(x, write_all):
    # `write_all` is the caller's callable, not the module's function below.
    buf = torch.zeros_like(x)  # expect: none
    write_all(buf, x)
    return buf


def write_all(dst, src):
    dst.copy_(src)


def decorated_helper(x):
    out = torch.zeros_like(x)  # expect: none

    @torch.no_grad()
    def fill():
        out.copy_(x)

    fill()
    return out
