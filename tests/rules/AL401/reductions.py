# AL401: an operand made from x itself. A keepdim reduction of x, or
# `*_like(x)`, is a new tensor that broadcasts into x's shape; the update
# reads it whole before it writes x. A view or slice of x would be read
# while it is written, and a reduction without keepdim may not broadcast.
import torch


@torch.inference_mode()
def normalised(n):
    p = torch.rand(n, 8, dtype=torch.float32)
    p = p / p.sum(dim=-1, keepdim=True)  # expect: AL401 safe
    return p


@torch.inference_mode()
def centred(scores, w):
    x = torch.matmul(scores, w)
    x = x - x.amax(dim=-1, keepdim=True)  # expect: AL401 safe
    return x


@torch.inference_mode()
def centred_torch_form(scores, w):
    x = torch.matmul(scores, w)
    x = torch.sub(x, torch.amin(x, 1, True))  # expect: AL401 safe
    return x


@torch.inference_mode()
def halved(scores, w):
    x = torch.matmul(scores, w)
    x = x * torch.full_like(x, 0.5)  # expect: AL401 safe
    return x


@torch.inference_mode()
def counts_centred(n):
    # The sum of an integer tensor is int64: its dtype is not shown kept.
    c = torch.randint(0, 9, (n, 4))
    c = c - c.sum(-1, keepdim=True)  # expect: AL401 unsafe
    return c


@torch.inference_mode()
def centred_without_keepdim(scores, w):
    # (rows,) against (rows, cols): broadcasts another way, or not at all.
    x = torch.matmul(scores, w)
    x = x - x.amax(dim=-1)  # expect: none
    return x


@torch.inference_mode()
def minus_first_column(scores, w):
    # A slice of x is read while the update writes it.
    x = torch.matmul(scores, w)
    x = x - x[:, :1]  # expect: none
    return x


@torch.inference_mode()
def normalised_in_double(n):
    p = torch.rand(n, 8, dtype=torch.float32)
    p = p / p.sum(-1, keepdim=True, dtype=torch.float64)  # expect: none
    return p


@torch.inference_mode()
def stable_logits(scores, w):
    # The maxima of `max(dim, keepdim=True)`, by index or by name.
    x = torch.matmul(scores, w)
    x = x - x.max(dim=-1, keepdim=True)[0]  # expect: AL401 safe
    y = torch.matmul(scores, w)
    y = y - y.max(-1, True).values  # expect: AL401 safe
    return x, y


@torch.inference_mode()
def minus_argmax(scores, w):
    # [1] is the indices (int64): not x's dtype.
    x = torch.matmul(scores, w)
    x = x - x.max(dim=-1, keepdim=True)[1]  # expect: none
    return x
