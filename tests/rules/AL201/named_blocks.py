# Zero blocks and prefix sums held in a name by the statement just before
# the cat, and read nowhere else: the fix takes that statement with it.
import torch


def pad_features(x: torch.Tensor, k: int) -> torch.Tensor:
    padding = torch.zeros(x.shape[0], k, dtype=x.dtype, device=x.device)
    return torch.cat([x, padding], dim=1)  # expect: AL201 nofix


def build_cu_seqlens(seq_lens: torch.Tensor) -> torch.Tensor:
    zero = torch.zeros(1, dtype=torch.int32, device=seq_lens.device)
    cu = torch.cat([zero, torch.cumsum(seq_lens, 0, dtype=torch.int32)])  # expect: AL201 safe
    return cu


def build_query_start_loc(query_lens: torch.Tensor) -> torch.Tensor:
    sums = torch.cumsum(query_lens, 0).to(torch.int32)
    loc = torch.cat([torch.zeros(1, dtype=torch.int32, device=query_lens.device), sums])  # expect: AL201 unsafe
    return loc


def prepend_row(x: torch.Tensor) -> torch.Tensor:
    return torch.cat(tensors=[torch.zeros(1, x.shape[1], dtype=x.dtype, device=x.device), x], dim=0)  # expect: AL201 nofix


# Traps: zeros read again after the cat, zeros made two statements before,
# a float cast of the sums (the cast truncates: no integer sum), a cast of a
# cumsum that already has `dtype=`.


def zeros_reused(x: torch.Tensor, k: int):
    padding = torch.zeros(x.shape[0], k, dtype=x.dtype, device=x.device)
    out = torch.cat([x, padding], dim=1)
    return out, padding


def zeros_earlier(x: torch.Tensor, k: int) -> torch.Tensor:
    padding = torch.zeros(x.shape[0], k, dtype=x.dtype, device=x.device)
    x = x * 2
    return torch.cat([x, padding], dim=1)


def float_sums(lens: torch.Tensor) -> torch.Tensor:
    sums = torch.cumsum(lens, 0).to(torch.float32)
    starts = torch.cat([torch.zeros(1, dtype=torch.float32, device=lens.device), sums])  # expect: AL201 nofix
    return starts


def cast_again(lens: torch.Tensor) -> torch.Tensor:
    sums = torch.cumsum(lens, 0, dtype=torch.int64).to(torch.int32)
    starts = torch.cat([torch.zeros(1, dtype=torch.int32, device=lens.device), sums])  # expect: AL201 nofix
    return starts


def block_read_by_eval(x):
    # eval reads the block by name: its line stays.
    pad = torch.zeros(x.shape[0], 1, dtype=x.dtype, device=x.device)
    y = torch.cat([pad, x], dim=1)  # expect: none
    return y, eval("pad.shape")
