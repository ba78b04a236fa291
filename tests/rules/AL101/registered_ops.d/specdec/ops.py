# Speculative-decoding ops registered with torch.library rather than a
# helper of the engine's own.
import torch
from torch.library import Library

_lib = Library("specdec", "FRAGMENT")
_lib.define("gather_rows(Tensor src, Tensor idx, Tensor(a!) out) -> ()")
_lib.define("accept_prefix(Tensor draft, Tensor(a!) out) -> ()")


def _gather_rows(src: torch.Tensor, idx: torch.Tensor, out: torch.Tensor) -> None:
    out.copy_(src.index_select(0, idx))


def _accept_prefix(draft: torch.Tensor, out: torch.Tensor) -> None:
    # Only the accepted prefix is produced; the rejected tail keeps the
    # caller's fill.
    keep = out.shape[0] // 2
    out[:keep] = draft[:keep]


_lib.impl("gather_rows", _gather_rows, "CPU")
_lib.impl("accept_prefix", _accept_prefix, "CPU")

torch.library.define("specdec::verify_mask", "(Tensor logits, Tensor(a!) mask) -> ()")


@torch.library.impl("specdec::verify_mask", "cpu")
def _verify_mask(logits: torch.Tensor, mask: torch.Tensor) -> None:
    mask.copy_(logits.argmax(-1) > 0)
