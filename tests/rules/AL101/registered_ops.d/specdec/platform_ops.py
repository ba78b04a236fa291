# Platform switches at module level, as engines keep their op shims.
import torch


def is_rocm() -> bool:
    return torch.version.hip is not None


if is_rocm():

    def scatter_tokens(src: torch.Tensor, out: torch.Tensor) -> None:
        out.copy_(src)

    def pack_lengths(lens: torch.Tensor, out: torch.Tensor) -> None:
        out.copy_(lens)

else:

    def pack_lengths(lens: torch.Tensor, out: torch.Tensor) -> None:
        # This platform fills only the leading entries.
        out[: lens.shape[0] // 2] = lens[: lens.shape[0] // 2]


class draft_ops:
    """Op shims grouped on a class, called as draft_ops.name(...)."""

    @staticmethod
    def copy_logits(logits: torch.Tensor, out: torch.Tensor) -> None:
        out.copy_(logits)

    def half_logits(self, logits: torch.Tensor, out: torch.Tensor) -> None:
        out[: out.shape[0] // 2] = logits[: out.shape[0] // 2]
