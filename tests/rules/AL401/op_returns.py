# AL401: what torch calls give back, read from the op tables' `returns`
# column (rules/ops/torch.toml): a call handed its output returns it, a
# view or a module asked to work in place returns its input, a module's
# forward may be inherited, and a layer may be assigned by a base class.
import torch
import torch.nn.functional as F
from torch import nn


@torch.inference_mode()
def scaled_sum(a, b, buf):
    # `out=buf`: the call returns buf, which the caller holds.
    s = torch.add(a, b, out=buf)
    s = s.clamp(min=0)  # expect: none
    return s


@torch.inference_mode()
def scaled_sum_fresh(a, b):
    s = torch.add(a, b)
    s = s.clamp(min=0)  # expect: AL401 safe
    return s


@torch.inference_mode()
def flat_scores(scores):
    # A view of the parameter: scaling it in place would change scores.
    flat = torch.reshape(scores, (-1,))
    flat = flat.clamp(min=0)  # expect: none
    return flat


@torch.inference_mode()
def flat_products(x, w):
    # A view of a new product is held by no one else.
    flat = torch.flatten(torch.matmul(x, w))
    flat = flat.clamp(min=0)  # expect: AL401 safe
    return flat


@torch.inference_mode()
def relu_in_place_asked(x):
    # F.relu(x, inplace=True) returns x itself.
    h = F.relu(x, inplace=True)
    h = h.clamp(min=0)  # expect: none
    return h


@torch.inference_mode()
def exp2_scaled(x):
    e = torch.exp2(x)
    e = e.clamp(min=0)  # expect: AL401 safe
    return e


@torch.inference_mode()
def half_of_parameter(w):
    # `.double()` returns w itself when it is float64 already.
    h = w.double()
    h = h.clamp(min=0)  # expect: none (a cast may return its input)
    return h


class Act(nn.Module):
    def __init__(self):
        super().__init__()
        # In place: the module returns its input.
        self.act = nn.ReLU(inplace=True)
        self.gelu = nn.GELU()

    @torch.inference_mode()
    def forward(self, x):
        h = self.act(x)
        h = h.clamp(min=0)  # expect: none
        g = self.gelu(x)
        g = g.clamp(min=0)  # expect: AL401 safe
        return h + g


class Scaler(nn.Module):
    def forward(self, x):
        return torch.mul(x, 2.0)


class DoubleScaler(Scaler):
    # Inherits Scaler's forward, whose every return is a new tensor.
    pass


class Identityish(nn.Module):
    def forward(self, x):
        return x


class Mixed(DoubleScaler, Identityish):
    # Two base lines define forward: which one runs is the method
    # resolution order's choice, which alloclint does not compute.
    pass


class Head(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.proj = nn.Linear(dim, dim)
        self.scale = DoubleScaler()
        self.mixed = Mixed()

    @torch.inference_mode()
    def forward(self, x):
        s = self.scale(x)
        s = s.clamp(min=0)  # expect: AL401 safe
        m = self.mixed(x)
        m = m.clamp(min=0)  # expect: AL401 unsafe
        return s + m


class GatedHead(Head):
    # `self.proj` is assigned by the base class: an nn.Linear.
    @torch.inference_mode()
    def forward(self, x):
        h = self.proj(x)
        h = h.clamp(min=0)  # expect: AL401 safe
        return h


class SwappedHead(Head):
    def __init__(self, dim):
        super().__init__(dim)
        # Assigned here too: either module may run, and Identity returns x.
        self.proj = nn.Identity()

    @torch.inference_mode()
    def forward(self, x):
        h = self.proj(x)
        h = h.clamp(min=0)  # expect: none
        return h


class EncoderBlock(nn.Module):
    # F.dropout with `training=self.training` returns its input in eval
    # mode: the sum's left operand may be the attention's own output.
    def __init__(self, hidden):
        super().__init__()
        self.proj = nn.Linear(hidden, hidden)
        self.p = 0.1

    @torch.inference_mode()
    def forward(self, x):
        h = F.dropout(x, p=self.p, training=self.training)
        h = h * 0.5  # expect: none
        return h


if torch.cuda.is_available():
    from flashinfer.gemm import gemm_fp8_nt_groupwise


@torch.inference_mode()
def block_fp8_linear(q_input, weight, x_scale, w_scale, bias):
    # The library makes its output when none is handed (its entry in
    # libraries.toml): assumed new, as the library documents.
    output = gemm_fp8_nt_groupwise(q_input, weight, x_scale, w_scale, "MN")
    output = output + bias  # expect: AL401 unsafe
    return output


@torch.inference_mode()
def block_fp8_linear_into(q_input, weight, x_scale, w_scale, bias, out):
    # Handed an output: it returns that, the caller's.
    output = gemm_fp8_nt_groupwise(q_input, weight, x_scale, w_scale, "MN", out=out)
    output = output + bias  # expect: none
    return output


@torch.inference_mode()
def scaled_host_ids(ids):
    # from_numpy shares the array's memory: mul_ would write the caller's
    # array.
    t = torch.from_numpy(ids)
    t = t * 2  # expect: none
    return t


@torch.inference_mode()
def widened_codes(codes):
    # short() returns codes itself when it is already int16.
    c = codes.short()
    c = c + 1  # expect: none (a cast may return its input)
    return c
