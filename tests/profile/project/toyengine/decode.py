"""Per-step metadata of a paged-attention decode, built on every step."""
import torch


class DecodeMetadataBuilder:
    def __init__(self, max_num_seqs, max_blocks_per_seq, block_size, device):
        self.max_num_seqs = max_num_seqs
        self.max_blocks_per_seq = max_blocks_per_seq
        self.block_size = block_size
        self.device = device

    def build(self, seq_lens, block_tables):
        """seq_lens: int32 tensor on the device; block_tables: a list of lists."""
        num_seqs = seq_lens.shape[0]
        # The position of each sequence's next token: fully written by copy_.
        positions = torch.zeros(num_seqs, dtype=torch.int64, device=self.device)
        positions.copy_(seq_lens - 1)
        # Exclusive prefix sums with a leading zero.
        cu_seqlens = torch.cat(
            [torch.zeros(1, dtype=torch.int32, device=self.device),
             torch.cumsum(seq_lens, dim=0, dtype=torch.int32)])
        # Padded rows: the zeros past each sequence's blocks are read by the
        # attention kernel as "no block", so this fill is needed.
        table = torch.zeros(num_seqs, self.max_blocks_per_seq, dtype=torch.int32)
        for i, blocks in enumerate(block_tables):
            table[i, : len(blocks)] = torch.tensor(blocks, dtype=torch.int32)
        table = table.to(self.device, non_blocking=True)
        # Slot of each new token, made on the host and copied.
        slots = torch.zeros(num_seqs, dtype=torch.int64).to(self.device)
        slots.copy_(table[:, 0].to(torch.int64) * self.block_size + positions % self.block_size)
        return positions, cu_seqlens, table, slots


def decode_step(builder, weight, hidden, seq_lens, block_tables):
    positions, cu_seqlens, table, slots = builder.build(seq_lens, block_tables)
    out = torch.zeros_like(hidden)
    torch.matmul(hidden, weight, out=out)
    return out + positions[:, None].to(out.dtype) * 0 + slots[:, None].to(out.dtype) * 0
