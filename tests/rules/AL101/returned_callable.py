# AL101 through a callable a method returns (issue 43, item 9): `fill =
# self.pick_fill()` then `fill(out, ...)` calls what pick_fill returns.
# Followed only when every return of the maker names the same function of
# the project, the maker is not overridden in a subclass, and the name is
# bound once and only ever called.
import functools

import torch


def _copy_rows(dst, src, idx):
    dst.copy_(src[idx])


def _add_rows(dst, src, idx):
    dst.add_(src[idx])


def _copy_rows_cpu(dst, src, idx):
    dst.index_copy_(0, torch.arange(idx.shape[0]), src[idx])


def pick_copy():
    return _copy_rows


def pick_by_device(flag):
    if flag:
        return _copy_rows
    return _copy_rows_cpu


class RowGather(torch.nn.Module):
    def _fill_gen(self):
        yield _copy_rows

    def pick_fill(self):
        return _copy_rows

    def pick_accumulate(self):
        return _add_rows

    def gather(self, src, idx):
        # pick_fill returns _copy_rows, which writes every element.
        out = torch.zeros(idx.shape[0], src.shape[1], dtype=src.dtype, device=src.device)  # expect: AL101 safe
        fill = self.pick_fill()
        fill(out, src, idx)
        return out

    def gather_module_maker(self, src, idx):
        # A module-level maker, called twice: one function each time.
        out = torch.zeros(idx.shape[0], src.shape[1], dtype=src.dtype, device=src.device)  # expect: AL101 safe
        copy = pick_copy()
        copy(out, src, idx)
        copy(out, src, idx)
        return out

    def gather_accumulating(self, src, idx):
        # The function returned adds into the buffer: its zeros count.
        out = torch.zeros(idx.shape[0], src.shape[1], dtype=src.dtype, device=src.device)  # expect: none
        acc = self.pick_accumulate()
        acc(out, src, idx)
        return out

    def gather_by_device(self, src, idx):
        # Two functions, one per device: which runs is not followed.
        out = torch.zeros(idx.shape[0], src.shape[1], dtype=src.dtype, device=src.device)  # expect: none
        fill = pick_by_device(src.is_cuda)
        fill(out, src, idx)
        return out

    def gather_rebound(self, src, idx, fallback):
        # The name is bound twice.
        out = torch.zeros(idx.shape[0], src.shape[1], dtype=src.dtype, device=src.device)  # expect: none
        fill = self.pick_fill()
        if fallback:
            fill = self.pick_accumulate()
        fill(out, src, idx)
        return out

    def gather_partial(self, src, idx):
        # A partial is made, not named: not followed.
        out = torch.zeros(idx.shape[0], src.shape[1], dtype=src.dtype, device=src.device)  # expect: none
        fill = functools.partial(_add_rows)
        fill(out, src, idx)
        return out

    def gather_generator(self, src, idx):
        # A generator's call makes a generator, not a function.
        out = torch.zeros(idx.shape[0], src.shape[1], dtype=src.dtype, device=src.device)  # expect: none
        fill = self._fill_gen()
        fill(out, src, idx)
        return out

    def gather_handed_on(self, src, idx, pool):
        # The callable is handed on as well as called.
        out = torch.zeros(idx.shape[0], src.shape[1], dtype=src.dtype, device=src.device)  # expect: none
        fill = self.pick_fill()
        pool.register(fill)
        fill(out, src, idx)
        return out


class OverriddenGather(torch.nn.Module):
    def pick(self):
        return _copy_rows

    def gather(self, src, idx):
        # A subclass's pick returns a function that accumulates.
        out = torch.zeros(idx.shape[0], src.shape[1], dtype=src.dtype, device=src.device)  # expect: none
        fill = self.pick()
        fill(out, src, idx)
        return out


class AccumulatingGather(OverriddenGather):
    def pick(self):
        return _add_rows
