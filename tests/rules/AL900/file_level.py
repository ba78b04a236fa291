# golden-args: --select AL101,AL900
# alloclint: noqa
# A file-level directive silences every finding in the file.
import torch


def gather(x):
    buf = torch.zeros(x.shape)  # expect: none
    buf.copy_(x)
    return buf
