# AL401: who else may hold the tensor a name is bound to. Helpers and
# modules of this file are followed (their returns); what cannot be
# followed is assumed and said; what may be someone else's is left alone.
import torch
from torch import nn
import torch.nn.functional as F

try:
    from engine_ops import fused_gemm  # not in the project: not followed
except ImportError:
    fused_gemm = torch.matmul


def project(x, w):
    # Every return is a new tensor.
    y = torch.matmul(x, w)
    return y


def maybe_cast(x):
    # Returns its argument when it is float32 already.
    if x.dtype == torch.float32:
        return x
    return x.float()


def cached_project(x, w, items):
    # The result is also kept in the list.
    y = torch.matmul(x, w)
    items.append(y)
    return y


@torch.inference_mode()
def relu_projection(x, w):
    h = project(x, w)
    h = h.clamp(min=0)  # expect: AL401 safe
    return h


@torch.inference_mode()
def relu_flattened(x, w):
    # The view takes the name: nothing else holds the tensor.
    h = project(x, w)
    h = h.reshape(-1)
    h = h.clamp(min=0)  # expect: AL401 safe
    return h


@torch.inference_mode()
def relu_maybe_cast(x):
    h = maybe_cast(x)
    h = h.clamp(min=0)  # expect: none
    return h


@torch.inference_mode()
def relu_cached(x, w, items):
    # The list holds the same tensor: an update in place would change it.
    h = cached_project(x, w, items)
    h = h.clamp(min=0)  # expect: none
    return h


@torch.inference_mode()
def relu_converted(x):
    # `.to()` hands back x itself when it is float32 already.
    h = x.to(torch.float32)
    h = h.clamp(min=0)  # expect: none (a cast may return its input)
    return h


@torch.inference_mode()
def relu_then_keep(x, w, outputs):
    # Stored after the update: the store sees the updated tensor anyway.
    h = project(x, w)
    h = h.clamp(min=0)  # expect: AL401 safe
    outputs.append(h)
    return h


@torch.inference_mode()
def relu_in_loop(x, w, steps, tensors):
    # The list keeps the previous iteration's tensor, which the next
    # iteration's update would change.
    h = project(x, w)
    for _ in range(steps):
        tensors.append(h)
        h = h.clamp(min=0)  # expect: none
    return h


@torch.inference_mode()
def top_indices(scores, k, lo):
    # An element of what topk returns: a new tensor.
    idx = torch.topk(scores, k, dim=-1)[1]
    idx = idx.clamp(min=0)  # expect: AL401 safe
    return idx


@torch.inference_mode()
def relu_each(xs, w, outputs):
    # Each pass binds h anew before its update: what the list kept from
    # the pass before is another tensor.
    for x in xs:
        h = project(x, w)
        h = h.clamp(min=0)  # expect: AL401 safe
        outputs.append(h)
    return outputs


def rebound_parameter(x, bias):
    # The caller's tensor.
    x = x + bias  # expect: none
    return x


def scaled_in_place_already(y, scale, shared):
    # y is updated in place first: this code already treats it as its own.
    y *= scale
    y = y + shared  # expect: AL401 unsafe
    return y


def scaled_in_a_branch(y, scale, shared, flag):
    # Updated in place on one path only.
    if flag:
        y *= scale
    y = y + shared  # expect: none
    return y


def through_unknown_op(x, w, bias):
    # Nothing alloclint reads says a library op outside torch returns a
    # tensor (it could be a list, a NumPy or MLX array): no finding.
    out = fused_gemm(x, w)
    out = out + bias  # expect: none
    return out


def through_unlisted_torch_op(x, w, bias):
    # torch's own function, not in the op tables: a tensor, assumed new.
    out = torch.cdist(x, w)
    out = out + bias  # expect: AL401 unsafe
    return out


class Gate(nn.Module):
    # Its forward makes a new tensor on every path.
    def __init__(self, hidden):
        super().__init__()
        self.weight = nn.Parameter(torch.ones(hidden))

    def forward(self, x):
        return torch.sigmoid(x) * self.weight


class MaybeSkip(nn.Module):
    # Hands back its input when disabled.
    def __init__(self, enabled):
        super().__init__()
        self.enabled = enabled

    def forward(self, x):
        if not self.enabled:
            return x
        return torch.tanh(x)


class Rebinds(nn.Module):
    # Rebinds its argument before returning it, on every path: what it
    # returns is the Linear's new output.
    def __init__(self, hidden):
        super().__init__()
        self.inner = nn.Linear(hidden, hidden)

    def forward(self, x):
        x = self.inner(x)
        return x


class RebindsWhenEnabled(nn.Module):
    # Rebinds its argument only when enabled: otherwise it returns it.
    def __init__(self, hidden, enabled):
        super().__init__()
        self.enabled = enabled
        self.inner = nn.Linear(hidden, hidden)

    def forward(self, x):
        if self.enabled:
            x = self.inner(x)
        return x


class RebindsAsView(nn.Module):
    # A view of the argument is the argument's memory.
    def forward(self, x):
        x = x.view(-1, x.shape[-1])
        return x


class RowLinear(nn.Module):
    # A parallel linear layer: returns its output and the bias it skipped.
    def __init__(self, hidden, out):
        super().__init__()
        self.weight = nn.Parameter(torch.empty(out, hidden))
        self.bias = nn.Parameter(torch.zeros(out))

    def forward(self, x):
        out = torch.matmul(x, self.weight.t())
        return out, self.bias


class GatedMLP(nn.Module):
    # Rebinds its argument three times through pairs: element 0 of each
    # pair is a new tensor.
    def __init__(self, hidden, inter):
        super().__init__()
        self.gate_up = RowLinear(hidden, 2 * inter)
        self.down = RowLinear(inter, hidden)

    def forward(self, x):
        x, _ = self.gate_up(x)
        gate, up = x.chunk(2, dim=-1)
        x = F.silu(gate) * up
        x, _ = self.down(x)
        return x


class DecoderLayer(nn.Module):
    # Follows GatedMLP's forward, and RowLinear's inside it.
    def __init__(self, hidden, inter):
        super().__init__()
        self.mlp = GatedMLP(hidden, inter)

    def forward(self, x):
        h = self.mlp(x)
        return h


class WithBias(nn.Module):
    # Returns a pair: which element its callers take is not followed.
    def __init__(self, hidden):
        super().__init__()
        self.bias = nn.Parameter(torch.zeros(hidden))

    def forward(self, x):
        return torch.tanh(x), self.bias


class TakesFirst(nn.Module):
    def __init__(self, hidden):
        super().__init__()
        self.inner = WithBias(hidden)

    def forward(self, x):
        y, _ = self.inner(x)
        y = y * 2.0  # expect: AL401 unsafe
        return y


class Block(nn.Module):
    def __init__(self, hidden, mlp):
        super().__init__()
        self.proj = nn.Linear(hidden, hidden)
        self.drop = nn.Dropout(0.1)
        self.same = nn.Identity()
        self.mlp = mlp
        self.gate = Gate(hidden)
        self.skip = MaybeSkip(False)
        self.rebinds = Rebinds(hidden)
        self.first = TakesFirst(hidden)
        self.when = RebindsWhenEnabled(hidden, False)
        self.as_view = RebindsAsView()
        self.pair = WithBias(hidden)
        self.layer = DecoderLayer(hidden, 4 * hidden)

    @torch.inference_mode()
    def forward_gate(self, x):
        h = self.gate(x)
        h = h.clamp(min=0)  # expect: AL401 safe
        return h

    @torch.inference_mode()
    def forward_skip(self, x):
        h = self.skip(x)
        h = h.clamp(min=0)  # expect: none
        return h

    @torch.inference_mode()
    def forward_rebinds(self, x):
        h = self.rebinds(x)
        h = h.clamp(min=0)  # expect: AL401 safe
        return h

    @torch.inference_mode()
    def forward_linear(self, x):
        h = self.proj(x)
        h = h.clamp(min=0)  # expect: AL401 safe
        return h

    @torch.inference_mode()
    def forward_dropout(self, x):
        # Dropout is the identity in eval: h may be x.
        h = self.drop(x)
        h = h.clamp(min=0)  # expect: none
        return h

    @torch.inference_mode()
    def forward_identity(self, x):
        h = self.same(x)
        h = h.clamp(min=0)  # expect: none
        return h

    @torch.inference_mode()
    def forward_mlp(self, x):
        # A module handed in: its forward is not known.
        h = self.mlp(x)
        h = h.clamp(min=0)  # expect: AL401 unsafe
        return h

    @torch.inference_mode()
    def forward_first(self, x):
        # TakesFirst unpacks element 0 of WithBias's pair: `torch.tanh(x)`.
        h = self.first(x)
        h = h.clamp(min=0)  # expect: AL401 safe
        return h

    @torch.inference_mode()
    def forward_when(self, x):
        h = self.when(x)
        h = h.clamp(min=0)  # expect: none
        return h

    @torch.inference_mode()
    def forward_as_view(self, x):
        h = self.as_view(x)
        h = h.clamp(min=0)  # expect: none
        return h

    @torch.inference_mode()
    def forward_second(self, x):
        # Element 1 of the pair is the module's own bias.
        _, h = self.pair(x)
        h = h.clamp(min=0)  # expect: none
        return h

    @torch.inference_mode()
    def forward_unpacked(self, x):
        h, _ = self.pair(x)
        h = h.clamp(min=0)  # expect: AL401 safe
        return h

    @torch.inference_mode()
    def forward_halves(self, x):
        # chunk gives views of x: the caller's tensor.
        h, _ = x.chunk(2, dim=-1)
        h = h.clamp(min=0)  # expect: none
        return h

    @torch.inference_mode()
    def forward_taken(self, x):
        h = self.pair(x)[0]
        h = h.clamp(min=0)  # expect: AL401 safe
        return h

    @torch.inference_mode()
    def forward_layer(self, x):
        # Three modules down: DecoderLayer, GatedMLP, RowLinear.
        h = self.layer(x)
        h = h.clamp(min=0)  # expect: AL401 safe
        return h


@torch.inference_mode()
def grown_shape(rows, cols, k):
    # A tuple, not a tensor: `+` concatenates.
    shape = (rows, cols)
    shape = shape + (k,)  # expect: none
    return torch.zeros(shape)


@torch.inference_mode()
def grown_shape_bare(rows, cols, k):
    shape = rows, cols
    shape = shape + (k,)  # expect: none
    return torch.zeros(shape)


@torch.inference_mode()
def counted(xs, x):
    # Numbers, strings and sizes: the op tables say these calls give no
    # tensor (rules/ops/python.toml, torch.toml's Tensor.item and size).
    n = len(xs)
    n = n + 1  # expect: none
    w = int(x.shape[0])
    w = w * 2  # expect: none
    k = x.size(0)
    k = k + 1  # expect: none
    v = x.sum().item()
    v = v + 1  # expect: none
    tag = str(n)
    tag = tag + "_rows"  # expect: none
    return n, w, k, v, tag


@torch.inference_mode()
def host_offsets(lens):
    # NumPy gives arrays, never tensors (`numpy.*` in rules/ops/python.toml).
    import numpy as np

    offs = np.cumsum(np.asarray(lens))
    offs = offs + 1  # expect: none
    return offs


@torch.inference_mode()
def separator(words):
    # A literal's method gives a string.
    sep = ", ".join(words) + ";"
    sep = sep + "\n"  # expect: none
    return sep


@torch.inference_mode()
def bias_rows(n: int, width: int):
    # expand gives every row the same memory: add_ would raise.
    rows = torch.zeros(1, width).expand(n, width)
    rows = rows + 1  # expect: none
    return rows


@torch.inference_mode()
def broadcast_scale(x):
    scale = torch.exp(x[:1]).expand_as(x)
    scale = scale * 2.0  # expect: none
    return scale * x


@torch.inference_mode()
def broadcast_table(x):
    table = torch.broadcast_to(torch.ones(1), x.shape)
    table = table * 0.5  # expect: none
    return table


@torch.inference_mode()
def sliding_windows(x):
    # unfold's windows overlap: their elements share memory.
    win = torch.exp(x).unfold(0, 2, 1)
    win = win * 2.0  # expect: none
    return win


@torch.inference_mode()
def widened_row(x):
    # unsqueeze keeps one element per place: the view of a new tensor is
    # new.
    row = torch.exp(x).unsqueeze(0)
    row = row * 2.0  # expect: AL401 safe
    return row
