import torch
import triton
import triton.language as tl


@triton.jit
def _partial(Lens, Part, stride_p, BLOCK: tl.constexpr, CHUNK: tl.constexpr):
    row = tl.program_id(0)
    split = tl.program_id(1)
    length = tl.load(Lens + row)
    offs = tl.arange(0, BLOCK)
    if split * CHUNK < length:
        tl.store(Part + row * stride_p + split * BLOCK + offs, offs.to(tl.float32))


@triton.jit
def _combine(Lens, Part, Out, stride_p, BLOCK: tl.constexpr, CHUNK: tl.constexpr,
             SPLITS: tl.constexpr):
    row = tl.program_id(0)
    length = tl.load(Lens + row)
    offs = tl.arange(0, BLOCK)
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for split in range(SPLITS):
        if split * CHUNK < length:
            acc += tl.load(Part + offs + split * BLOCK + row * stride_p)
    tl.store(Out + row * BLOCK + offs, acc)


def combine_splits(lens, splits, block=64, chunk=256):
    rows = lens.shape[0]
    part = torch.zeros((rows, splits * block), device=lens.device)
    out = torch.empty((rows, block), device=lens.device)
    _partial[(rows, splits)](lens, part, part.stride(0), BLOCK=block, CHUNK=chunk)
    _combine[(rows,)](lens, part, out, part.stride(0), BLOCK=block, CHUNK=chunk, SPLITS=splits)
    return out


def combine_grown_splits(lens, splits, block=64, chunk=256):
    rows = lens.shape[0]
    part = torch.zeros((rows, splits * block), device=lens.device)
    out = torch.empty((rows, block), device=lens.device)
    _partial[(rows, splits)](lens, part, part.stride(0), BLOCK=block, CHUNK=chunk)
    lens.add_(1)
    _combine[(rows,)](lens, part, out, part.stride(0), BLOCK=block, CHUNK=chunk, SPLITS=splits)
    return out
