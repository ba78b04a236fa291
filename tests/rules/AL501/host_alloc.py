# AL501 fixtures: tensors made in host memory and then copied to a device.
import torch
import torch as th
from torch import zeros


def positions(num_tokens, device):
    # Made on the host, zeroed there, then copied: make it on the device.
    pos = torch.zeros(num_tokens, dtype=torch.int64).to(device)  # expect: AL501 safe
    return pos


def cuda_method(n):
    mask = torch.ones(n, n, dtype=torch.bool).cuda()  # expect: AL501 safe
    return mask


def string_device(n):
    buf = torch.empty(n).to("cuda")  # expect: AL501 safe
    return buf


def keyword_device(n, dev):
    idx = torch.arange(n).to(device=dev)  # expect: AL501 safe
    return idx


def self_device(self, n):
    table = torch.full((n,), -1, dtype=torch.int32).to(self.device)  # expect: AL501 safe
    return table


def torch_device_call(n, rank):
    t = th.zeros(n, 4).to(th.device("cuda", rank))  # expect: AL501 safe
    return t


def literal_tensor(values, device):
    t = torch.tensor([0, 1, 2, 3], dtype=torch.int32).to(device)  # expect: AL501 safe
    return t


def pinned_async_copy(lens, device):
    # Staged in pinned memory and copied without waiting: `device=` would
    # copy the same data and wait for the stream.
    t = torch.tensor(lens, dtype=torch.int32, pin_memory=True).to(device, non_blocking=True)  # expect: none
    return t


def pageable_async_copy(lens, device):
    # From pageable memory the copy is still queued without a stream sync;
    # `device=` adds one, and the data crosses either way.
    t = torch.as_tensor(lens, dtype=torch.int64).to(device, non_blocking=True)  # expect: none
    return t


def bare_factory(n, device):
    z = zeros(n).to(device)  # expect: AL501 safe
    return z


def also_dtype(n, device):
    # The dtype conversion moves into dtype=: unsafe (rounding happens elsewhere).
    w = torch.ones(n).to(device, torch.float16)  # expect: AL501 unsafe
    return w


def non_blocking_move(n, device):
    t = torch.zeros(n).to(device, non_blocking=True)  # expect: AL501 unsafe
    return t


def random_numbers(n, device):
    # The device's generator draws other numbers than the host's.
    noise = torch.randn(n, 16).to(device)  # expect: AL501 unsafe
    return noise


def leaf_for_a_gradient_test(n, device):
    # The host tensor was the leaf; after the fix the device one is, and
    # `.grad` lands there.
    w = torch.randn(n, 16, requires_grad=True).to(device)  # expect: AL501 unsafe
    return w


def cuda_with_index(n, i):
    # .cuda(i): which device expression to spell is left to the reader.
    t = torch.zeros(n).cuda(i)  # expect: none
    return t


def dtype_only(n):
    # .to(dtype) does not move anything.
    t = torch.zeros(n).to(torch.float16)  # expect: none
    return t


def like_other_tensor(n, other):
    # .to(other) takes device and dtype from a tensor: not a plain move.
    t = torch.zeros(n).to(other)  # expect: none
    return t


def already_on_device(n, device):
    # Already made on the device: the .to is a no-op, not a host copy.
    t = torch.zeros(n, device=device).to(device)  # expect: AL501 nofix
    return t


def not_a_factory(x, device):
    # A tensor computed on the host: its move is real work.
    y = (x * 2).to(device)  # expect: none
    return y


def loaded_checkpoint(state, device):
    w = state["weight"].to(device)  # expect: none
    return w


def numpy_array(arr, device):
    t = arr.to(device)  # expect: none
    return t


def like_follows_its_input(hidden_states):
    # zeros_like is made on hidden_states' device: no host tensor, and the
    # .to() is a no-op, not a copy.
    out = torch.zeros_like(hidden_states).to(hidden_states.device)  # expect: none
    return out


def from_numpy(arr, device):
    # torch.from_numpy has no device=: nothing to move into.
    t = torch.from_numpy(arr).to(device)  # expect: none
    return t


def cpu_move(t):
    return t.cpu()  # expect: none


def device_from_variable_named_otherwise(n, target):
    # `target` could be a dtype or a tensor: not known to be a device.
    t = torch.zeros(n).to(target)  # expect: none
    return t


def copy_keyword(n, device):
    # .to(..., copy=True): an argument alloclint does not model.
    t = torch.zeros(n).to(device, copy=True)  # expect: none
    return t


def memory_format(n, device):
    t = torch.zeros(n, 3, 4, 4).to(device, memory_format=torch.channels_last)  # expect: none
    return t


def call_closed_on_its_own_line(num_layers, num_tokens, head_dim, device):
    # The keyword goes after the last argument: no line of the patch may
    # start with a comma.
    pool = torch.zeros(  # expect: AL501 safe
        num_layers, num_tokens, head_dim
    ).to(device)
    return pool


def trailing_comma(num_tokens, head_dim, device):
    pool = torch.ones(  # expect: AL501 safe
        num_tokens,
        head_dim,  # the widths of one page
    ).to(device)
    return pool


def pinned_staging(n, device):
    # pin_memory is for host memory: with device= the factory raises.
    staging = torch.zeros(n, pin_memory=True).to(device, non_blocking=True)  # expect: none
    return staging


def zeroed_host_buffer(n, device, buf):
    # out=buf writes the caller's host buffer, which the move then copies.
    dev = torch.zeros(n, out=buf).to(device)  # expect: none
    return dev


def health_probe():
    # A probe whose tensor is thrown away: the copy makes the host wait for
    # the device and raises a device-side error queued before it. With
    # `device=` the probe would report a busy or broken device healthy.
    torch.zeros((2, 2)).cuda()  # expect: none


def warm_up(device):
    _ = torch.ones(1).to(device)  # expect: none


def probe_into_unused_name(device):
    t = torch.zeros(1).to(device)  # expect: none
    torch.cuda.synchronize()


def parenthesized_probe(device):
    (torch.zeros(1).to(device))  # expect: none


def kept_tensor(n, device):
    # The trap: the name is read later, so the tensor is what the line is for.
    t = torch.zeros(n).to(device)  # expect: AL501 safe
    t += 1
    return t


def data_probe(device):
    # torch.tensor(data, device=...) copies and waits as the move does: the
    # side effect stays, so the fix stands.
    torch.tensor([1, 2]).to(device)  # expect: AL501 safe


def host_read_after_async_copy(lens_gpu, n, device):
    # The pageable copy's wait orders the non_blocking copy before the
    # host reads lens_cpu; `device=` would let it read unfinished data.
    lens_cpu = lens_gpu.to("cpu", non_blocking=True)
    pos = torch.zeros(n, dtype=torch.int64).to(device)  # expect: AL501 unsafe
    return pos, lens_cpu.tolist()


def async_copy_later_in_the_loop(chunks, n, device):
    # The copy comes after the move in the body, and before it in the next pass.
    rows = []
    for c in chunks:
        pos = torch.zeros(n).to(device)  # expect: AL501 unsafe
        rows.append((pos, c.cpu(non_blocking=True)))
    return rows


def async_copy_after(lens_gpu, n, device):
    # The trap: the non_blocking copy comes after the move, outside any loop.
    pos = torch.zeros(n).to(device)  # expect: AL501 safe
    lens_cpu = lens_gpu.to("cpu", non_blocking=True)
    return pos, lens_cpu


def blocking_copy_before(lens_gpu, n, device):
    lens_cpu = lens_gpu.to("cpu", non_blocking=False)
    pos = torch.zeros(n).to(device)  # expect: AL501 safe
    return pos, lens_cpu.tolist()


if torch.cuda.is_available():
    torch.zeros(1).cuda()  # expect: none


def seeded_noise(n, device, seed):
    # A CPU generator: with `device=` the factory would raise.
    g = torch.Generator().manual_seed(seed)
    noise = torch.randn(n, generator=g).to(device)  # expect: AL501 nofix
    return noise


def generator_on_the_device(n, device):
    g = torch.Generator(device=device)
    noise = torch.randn(n, generator=g).to(device)  # expect: AL501 unsafe
    return noise
