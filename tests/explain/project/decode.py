import flashinfer
import torch

from kernels import scatter_rows


def pack_positions(positions: torch.Tensor, slot_offsets: torch.Tensor) -> torch.Tensor:
    packed = torch.zeros_like(positions)
    scatter_rows(packed, positions, slot_offsets)
    return packed


def normed_hidden(hidden: torch.Tensor, weight: torch.Tensor) -> torch.Tensor:
    out = torch.zeros_like(hidden)
    flashinfer.rmsnorm(hidden, weight, eps=1e-6, out=out)
    return out


class DecodeState:
    def __init__(self, max_batch: int, device: torch.device) -> None:
        self.seq_lens = torch.zeros(max_batch, dtype=torch.int32, device=device)

    def block_table(self, num_seqs: int, width: int) -> torch.Tensor:
        table = torch.zeros(num_seqs, width, dtype=torch.int32)
        self.publish(table)
        table[:, 0] = 1
        return table

    def publish(self, table: torch.Tensor) -> None:
        self.last_table = table


def slot_offsets(counts: torch.Tensor) -> torch.Tensor:
    return torch.cumsum(counts, 0, out=torch.zeros_like(counts))


def summed_table(rows: int, dim: int) -> torch.Tensor:
    table = torch.nn.Parameter(torch.zeros(rows, dim))
    total = table.sum()
    torch.nn.init.normal_(table)
    return total
