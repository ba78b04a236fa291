import torch as T
from torch import zeros as Z, ones


async def gen(n, *, dev=None, **kw):
    if (m := n * 2) > 4:
        buf = Z(m, device=dev)
    else:
        buf = ones(m)
    match buf.dim():
        case 1:
            buf.fill_(0)
        case _:
            pass
    f = lambda t: t.new_zeros(t.shape)
    global CACHE
    CACHE = f"{buf!r:>10}"
    yield buf, f


def broken(x:
    y = T.zeros(3
