# A temporary of unchanging shape handed to a call each iteration, then
# copied back or added in: made once before the loop. Unsafe, and the call
# that might keep it is named.
import torch


def run_experts(experts, x: torch.Tensor, out: torch.Tensor):
    for expert in experts:
        tmp = torch.empty_like(out)  # expect: AL301 unsafe
        expert.apply(x, tmp)
        out.add_(tmp)
    return out


def decode_steps(step, state: torch.Tensor, n: int):
    for _ in range(n):
        scratch = torch.empty(state.shape, dtype=state.dtype, device=state.device)  # expect: AL301 unsafe
        step(state, workspace=scratch)
        state.copy_(scratch)
    return state


# Traps: the temporary appended, stored through an element, handed inside a
# list, to a class that is built from it or to a call whose result is kept,
# or rebuilt from a shape bound in the loop.


def keep_all(experts, x: torch.Tensor, out: torch.Tensor):
    kept = []
    for expert in experts:
        tmp = torch.empty_like(out)
        expert.apply(x, tmp)
        kept.append(tmp)
    return kept


def store_each(experts, x: torch.Tensor, out: torch.Tensor, slots: dict):
    for i, expert in enumerate(experts):
        tmp = torch.empty_like(out)
        expert.apply(x, tmp)
        slots[i] = tmp
    return slots


def handed_in_list(combine, x: torch.Tensor, out: torch.Tensor, n: int):
    for _ in range(n):
        tmp = torch.empty_like(out)
        combine([x, tmp])
        out.add_(tmp)
    return out


def shape_per_step(step, chunks):
    for chunk in chunks:
        tmp = torch.empty(chunk.shape[0], 8)
        step(chunk, tmp)
    return chunks


def wrap_each(run, x: torch.Tensor, out: torch.Tensor, n: int):
    for _ in range(n):
        tmp = torch.empty_like(out)
        holder = StepBuffer(tmp)
        run(x, holder)
    return out


class StepBuffer:
    def __init__(self, buf: torch.Tensor):
        self.buf = buf


def metadata_each(make_metadata, run, x: torch.Tensor, out: torch.Tensor, n: int):
    for _ in range(n):
        lens = torch.empty_like(out)
        meta = make_metadata(lens)
        run(x, meta)
    return out


def deferred_sums(x: torch.Tensor, n: int):
    # A default value holds this pass's tensor: each lambda keeps its own.
    fns = []
    for _ in range(n):
        tmp = torch.empty_like(x)  # expect: none
        tmp.copy_(x)
        fns.append(lambda t=tmp: t.sum())
    return [f() for f in fns]


def deferred_scaled(x: torch.Tensor, n: int):
    fns = []
    for i in range(n):
        tmp = torch.empty_like(x)  # expect: none
        torch.mul(x, i, out=tmp)

        def total(t=tmp):
            return t.sum()

        fns.append(total)
    return [f() for f in fns]
