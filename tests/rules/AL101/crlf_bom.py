# A file with a BOM and CRLF line endings: bytes outside the edit stay.
import torch


def gather(src, idx):
    out = torch.zeros(idx.numel(), src.shape[1])  # expect: AL101 safe
    out.copy_(src[idx])	# a tab before this comment
    return out
