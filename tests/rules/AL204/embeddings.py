# AL204 fixtures: concatenations of elementwise results of one tensor, the
# sinusoidal embeddings of diffusion, audio and rotary code, and what a
# safe fix must prove (x floating, autograd off).
import math

import numpy as np
import torch

MAX_PERIOD = 10000


@torch.no_grad()
def timestep_embedding(t, dim):
    half = dim // 2
    freqs = torch.exp(-math.log(MAX_PERIOD) * torch.arange(0, half, dtype=torch.float32) / half)
    args = t[:, None].float() * freqs[None]
    embedding = torch.cat([torch.cos(args), torch.sin(args)], dim=-1)  # expect: AL204 safe
    return embedding


def sinusoid_in_place(timesteps, dim):
    # The same name in and out: the output needs a name of its own.
    with torch.inference_mode():
        emb = math.log(MAX_PERIOD) / (dim // 2 - 1)
        emb = torch.exp(torch.arange(dim // 2) * -emb)
        emb = timesteps[:, None] * emb[None, :]
        emb = torch.cat([emb.sin(), emb.cos()], dim=-1)  # expect: AL204 safe
    return emb


@torch.inference_mode()
def rotary_table(positions, head_dim):
    inv_freq = 1.0 / (MAX_PERIOD ** (torch.arange(0, head_dim, 2).float() / head_dim))
    x = positions.float().unsqueeze(1) * inv_freq.unsqueeze(0)
    return torch.cat([torch.sin(x), torch.cos(x)], dim=1)  # expect: AL204 safe


@torch.no_grad()
def embedding_with_grad_back_on(t, dim):
    # enable_grad inside the decorated function: `out=` raises there when
    # `args` requires grad.
    with torch.enable_grad():
        freqs = torch.exp(-torch.arange(0, dim // 2, dtype=torch.float32))
        args = t[:, None].float() * freqs[None]
        return torch.cat([torch.cos(args), torch.sin(args)], dim=-1)  # expect: AL204 unsafe


def embedding_mode_from_a_flag(t, dim, training: bool):
    # inference_mode(not training) is on or off by a value.
    with torch.inference_mode(not training):
        freqs = torch.exp(-torch.arange(0, dim // 2, dtype=torch.float32))
        args = t[:, None].float() * freqs[None]
        return torch.cat([torch.cos(args), torch.sin(args)], dim=-1)  # expect: AL204 unsafe


@torch.no_grad()
def signed_pairs(idx):
    # abs of a complex tensor is real, of an int tensor an int: only a
    # floating idx is shown to give the output's dtype.
    pairs = torch.cat((torch.neg(idx), idx.abs()), 0)  # expect: AL204 unsafe
    return pairs


@torch.no_grad()
def three_bands(x):
    h = x.to(torch.float64) * 0.5
    bands = torch.cat([h.sin(), h.cos(), h.tanh()], -1)  # expect: AL204 safe
    return bands


@torch.no_grad()
def phase_features(x):
    phase = torch.sigmoid(x).view(x.shape[0], -1)
    feats = torch.cat([-phase, phase.exp()], 1)  # expect: AL204 safe
    return feats


def trained_embedding(t, dim):
    # Autograd may be on: ops with out= raise on tensors that need grad.
    freqs = torch.exp(-torch.arange(dim // 2, dtype=torch.float32) / dim)
    args = t[:, None] * freqs[None]
    return torch.cat([args.cos(), args.sin()], dim=-1)  # expect: AL204 unsafe


@torch.no_grad()
def unknown_dtype(x):
    # A parameter of any dtype: cos of an int tensor is float.
    out = torch.cat([torch.cos(x), torch.sin(x)], -1)  # expect: AL204 unsafe
    return out


@torch.no_grad()
def branch_bound(a, b, flag):
    if flag:
        args = a.float()
    else:
        args = b
    out = torch.cat([args.cos(), args.sin()], -1)  # expect: AL204 unsafe
    return out


@torch.no_grad()
def carried_by_loop(t, n):
    args = t.float()
    for _ in range(n):
        emb = torch.cat([args.sin(), args.cos()], -1)  # expect: AL204 unsafe
        args = emb.int()
    return args


@torch.no_grad()
def moved_to(t, device):
    # `.to(device)` could be `.to(other_tensor)`, which takes its dtype.
    args = t.float().to(device)
    moved = torch.cat([args.sin(), args.cos()], -1)  # expect: AL204 unsafe
    return moved


@torch.no_grad()
def cast_after(x, dtype):
    return torch.cat([x.float().sin(), x.float().cos()], -1).to(dtype)  # expect: none


@torch.no_grad()
def chained_cast(x, dtype):
    # The statement goes on past the cat: it reads the output in its place.
    y = x.float()
    return torch.cat([y.sin(), y.cos()], -1).to(dtype)  # expect: AL204 safe


@torch.no_grad()
def rope_cache(positions, inv_freq):
    freqs = torch.outer(positions.float(), inv_freq)
    cache = torch.cat((freqs.cos(), freqs.sin()), dim=-1).contiguous()  # expect: AL204 safe
    return cache


class SinusoidTable(torch.nn.Module):
    def __init__(self, n):
        super().__init__()
        t = torch.arange(n).float()
        # An argument among others: moving the cat out would change the
        # order the arguments are evaluated in.
        self.register_buffer("table", torch.cat([t.sin(), t.cos()]), persistent=False)  # expect: AL204 nofix


@torch.no_grad()
def commented(x):
    # The rewrite would lose the comment on a part: not safe.
    y = x.float()
    out = torch.cat(  # expect: AL204 unsafe
        [
            y.sin(),  # the odd channels
            y.cos(),
        ],
        -1,
    )
    return out


def not_these(a, b, x, d):
    u = torch.cat([a.sin(), b.cos()], -1)  # expect: none
    v = torch.cat([x, -x], 0)  # expect: none
    w = torch.cat([torch.cos(x * 2), torch.sin(x * 2)], -1)  # expect: none
    y = torch.cat([x.sin(), x.cos()], dim=d)  # expect: none
    z = torch.cat([torch.pow(x, 2), torch.clamp(x, 0)], 0)  # expect: none
    q = np.concatenate([np.sin(a), np.cos(a)])  # expect: none
    return u, v, w, y, z, q


class Embedder(torch.nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.freqs = torch.exp(-torch.arange(dim // 2, dtype=torch.float32))

    def forward(self, t):
        return torch.cat([self.freqs.cos(), self.freqs.sin()], -1) * t  # expect: none


TABLE = torch.arange(8, dtype=torch.float32)
TABLE = torch.cat([TABLE.sin(), TABLE.cos()])  # expect: none
