# AL401: helpers that return their argument on some path: a collective
# that is the identity on one rank, an unpatchify that has nothing to do
# for a patch of 1. What comes back there is the caller's own argument,
# so the result is a tensor of its own exactly when the caller hands the
# helper a new one and does not read it again.
import torch
from torch import nn
import torch.nn.functional as F


def tp_world_size():
    return 1


def tp_all_reduce(x):
    # The identity on one rank; summed in place across ranks.
    if tp_world_size() == 1:
        return x
    torch.distributed.all_reduce(x)
    return x


def unpatchify(x, patch):
    if patch == 1:
        return x
    b, c, h, w = x.shape
    x = x.reshape(b, c // (patch * patch), patch, patch, h, w)
    x = x.permute(0, 1, 4, 2, 5, 3)
    return x.reshape(b, c // (patch * patch), h * patch, w * patch)


class VocabEmbedding(nn.Module):
    def __init__(self, vocab, dim):
        super().__init__()
        self.weight = nn.Parameter(torch.empty(vocab, dim))

    def forward(self, ids):
        out = F.embedding(ids, self.weight)
        out[ids < 0] = 0.0
        return tp_all_reduce(out)


class Decoder(nn.Module):
    def __init__(self, vocab, dim, patch):
        super().__init__()
        self.embed = VocabEmbedding(vocab, dim)
        self.conv = nn.Conv2d(dim, dim, 3, padding=1)
        self.patch = patch

    @torch.inference_mode()
    def embed_clamped(self, ids):
        h = self.embed(ids)
        h = h.clamp(min=-65504, max=65504)  # expect: AL401 safe
        return h

    @torch.inference_mode()
    def decode(self, x):
        out = self.conv(x)
        out = unpatchify(out, self.patch)
        out = torch.clamp(out, min=-1, max=1)  # expect: AL401 safe
        return out

    @torch.inference_mode()
    def decode_keeping_input(self, x):
        # `out` is read after the call: on a patch of 1 the result is it.
        out = self.conv(x)
        y = unpatchify(out, self.patch)
        y = torch.clamp(y, min=-1.0, max=1.0)  # expect: none
        return y, out


@torch.inference_mode()
def reduce_argument(x):
    # The caller's tensor comes back on one rank.
    h = tp_all_reduce(x)
    h = h.clamp(min=0.0)  # expect: none
    return h


@torch.inference_mode()
def reduce_in_loop(chunks, dim):
    # The same buffer goes in on every pass: clamping what comes back in
    # place would change it for the next one.
    acc = torch.zeros(dim)
    outs = []
    for c in chunks:
        acc.copy_(c)
        h = tp_all_reduce(acc)
        h = h.clamp(min=0.0)  # expect: none
        outs.append(h)
    return outs


@torch.inference_mode()
def reduce_kept(ids, weight, cache):
    # The embedding is also kept in the cache.
    e = F.embedding(ids, weight)
    cache.append(e)
    h = tp_all_reduce(e)
    h = h.clamp(min=0.0)  # expect: none
    return h


_recent = []


def reduce_and_remember(x):
    # Returns its argument, and keeps it too.
    _recent.append(x)
    if tp_world_size() == 1:
        return x
    return x.clone()


@torch.inference_mode()
def reduce_remembered(ids, weight):
    e = F.embedding(ids, weight)
    h = reduce_and_remember(e)
    h = h.clamp(min=0.0)  # expect: none
    return h
