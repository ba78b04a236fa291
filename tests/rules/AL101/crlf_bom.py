# A file with a BOM and CRLF line endings: bytes outside the edit stay.
import torch


def gather(src, idx):
    out = torch.zeros(idx.numel(), src.shape[1])  # expect: AL101 safe
    out.copy_(src[idx])	# a tab before this comment
    return out


def pad_rows(src, k):
    # Only the rows past src need zeros; the new line keeps CRLF.
    out = src.new_zeros(src.shape[0] + k, src.shape[1])  # expect: AL101 safe
    out[: src.shape[0]] = src  # the rows
    return out
