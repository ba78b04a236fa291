# golden-args: --select AL501
# `.cuda()` of a pageable host tensor makes the host wait until the data
# is on the device; `device=` only queues the fill on the current stream.
# Another stream that reads the tensor without waiting on this one sees it
# half made: the fix is unsafe where one may.
import torch

from engine.sizes import scaled
from engine.transfer import pack_on_side_streams


def weights_for_broadcast(n):
    bias = torch.zeros(n).cuda()  # expect: AL501 unsafe
    return pack_on_side_streams([bias])


def overlapped_copy(n, side):
    buf = torch.ones(n).cuda()  # expect: AL501 unsafe
    with torch.cuda.stream(side):
        out = buf * 2
    return out


def on_the_current_stream(n):
    # The callee's file uses no other stream: the fix stays safe.
    mask = torch.zeros(n).cuda()  # expect: AL501 safe
    return scaled(mask, 2.0)


def data_crosses_anyway(values):
    # torch.tensor(data) copies its data with device= too, and waits.
    ids = torch.tensor(values).cuda()  # expect: AL501 safe
    return pack_on_side_streams([ids])


def synchronized_first(n, side):
    # The host waits for the device before the other stream reads it.
    side = torch.cuda.Stream()
    ref = torch.zeros(n).cuda()  # expect: AL501 safe
    torch.cuda.synchronize()
    with torch.cuda.stream(side):
        out = ref + 1
    side.synchronize()
    return out


def made_on_a_side_stream(n, side):
    # Inside the block the fill goes to `side`; the caller reads the
    # tensor on its own stream.
    with torch.cuda.stream(side):
        staged = torch.zeros(n).cuda()  # expect: AL501 unsafe
    return staged
