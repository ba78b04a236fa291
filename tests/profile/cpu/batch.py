"""A batch's metadata built on the host, as a CPU-only engine (or a test)
builds it every step: `alloclint profile` runs it under the legacy
profiler of Debian's torch, whose trace holds no Python frames; the
companion's labels alone put its calls on their lines."""
import torch


def build(n):
    positions = torch.zeros(n, dtype=torch.int64)
    positions.copy_(torch.arange(n))
    offsets = torch.cat([torch.zeros(1, dtype=torch.int64), torch.cumsum(positions, 0)])
    mask = torch.ones(n, n, dtype=torch.bool).tril()
    return positions, offsets, mask


for _ in range(3):
    build(512)
