# Packs weights for a broadcast on streams of its own: it reads its
# tensors on those streams without waiting on the caller's.
import torch


def pack_on_side_streams(tensors):
    streams = [torch.cuda.Stream() for _ in range(2)]
    packed = []
    for i, t in enumerate(tensors):
        with torch.cuda.stream(streams[i % 2]):
            packed.append(t.flatten().clone())
    return packed
