# golden-args: --select AL401
# AL401 rewrites `x = x op y` into a tensor's in-place method, so it must
# know x is a tensor: from a torch call, a tensor method, or a function of
# the project that returns one. Values from configuration, builtins,
# tokenizers, paths and other array libraries are not, and their
# `.mul_()` would raise AttributeError when the model loads.
import pathlib

import mlx.core as mx
import numpy as np
import torch


@torch.inference_mode()
def rope_base(config, scale):
    base = config.get("rope_theta", 10000)
    base = base * scale  # expect: none
    return base


@torch.inference_mode()
def head_dim(cfg, factor):
    dim = getattr(cfg, "head_dim", 128)
    dim = dim * factor  # expect: none
    return dim


@torch.inference_mode()
def softmax_scale(x, y):
    s = float(x) * y
    s = s / 2  # expect: none
    return s


@torch.inference_mode()
def prompt_ids(tokenizer, text, extra):
    ids = tokenizer.encode(text)
    ids = ids + extra  # expect: none
    return ids


@torch.inference_mode()
def weights_path(root, name):
    path = pathlib.Path(root)
    path = path / name  # expect: none
    return path


@torch.inference_mode()
def host_scores(logits):
    scores = np.exp(logits)
    scores = scores * 2  # expect: none
    return scores


@torch.inference_mode()
def mlx_scores(logits):
    # mlx.core arrays have no in-place methods.
    scores = mx.exp(logits)
    scores = scores * 2  # expect: none
    return scores


@torch.inference_mode()
def tensor_method(hidden, scale):
    # A method torch.Tensor has: taken for a tensor.
    probs = hidden.softmax(-1)
    probs = probs * scale  # expect: AL401 unsafe
    return probs


@torch.inference_mode()
def torch_function(hidden, bias):
    probs = torch.sigmoid(hidden)
    probs = probs + bias  # expect: AL401 unsafe
    return probs
