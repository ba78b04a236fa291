# Draft verification: buffers handed to the ops registered in ops.py.
import torch

import specdec.ops  # noqa: F401  (registers the ops)


def gather_draft_rows(src: torch.Tensor, idx: torch.Tensor) -> torch.Tensor:
    rows = torch.zeros(idx.shape[0], src.shape[1], dtype=src.dtype)  # expect: AL101 safe
    torch.ops.specdec.gather_rows(src, idx, rows)
    return rows


def accepted(draft: torch.Tensor) -> torch.Tensor:
    # accept_prefix writes half of `out`: the rest must stay zero.
    out = torch.zeros_like(draft)  # expect: none
    torch.ops.specdec.accept_prefix(draft, out)
    return out


def verified(logits: torch.Tensor) -> torch.Tensor:
    mask = torch.zeros(logits.shape[:-1], dtype=torch.bool)  # expect: AL101 safe
    torch.ops.specdec.verify_mask(logits, mask)
    return mask


def scattered(src: torch.Tensor) -> torch.Tensor:
    from specdec import platform_ops

    # Defined on one branch of the switch only: that definition decides.
    out = torch.zeros_like(src)  # expect: AL101 safe
    platform_ops.scatter_tokens(src, out)
    return out


def packed(lens: torch.Tensor) -> torch.Tensor:
    from specdec import platform_ops

    # Two definitions, and which one runs is not known: no finding.
    out = torch.zeros_like(lens)  # expect: none
    platform_ops.pack_lengths(lens, out)
    return out


def copied_logits(logits: torch.Tensor) -> torch.Tensor:
    from specdec.platform_ops import draft_ops

    out = torch.zeros_like(logits)  # expect: AL101 safe
    draft_ops.copy_logits(logits, out)
    return out


def halved_logits(logits: torch.Tensor, ops) -> torch.Tensor:
    from specdec.platform_ops import draft_ops

    # Not a static method: called on the class it takes `logits` as self.
    out = torch.zeros_like(logits)  # expect: none
    draft_ops.half_logits(logits, out)
    return out


class Verifier:
    @staticmethod
    def _first_tokens(out: torch.Tensor, tokens: torch.Tensor) -> None:
        out.copy_(tokens[:, 0])

    def first_tokens(self, tokens: torch.Tensor) -> torch.Tensor:
        # A static method called through self takes no self: `out` is
        # its first parameter.
        out = torch.zeros(tokens.shape[0], dtype=tokens.dtype)  # expect: AL101 safe
        self._first_tokens(out, tokens)
        return out
