"""Metadata builder for a paged-attention decode backend.

Per step it turns the scheduler's batch into the tensors the attention
kernel reads: query start offsets, sequence lengths and the flattened page
table. CUDA-graph buffers are allocated once and reused across replays.
"""

from dataclasses import dataclass

import torch
import torch.nn.functional as F


@dataclass
class DecodeMetadata:
    query_start_loc: torch.Tensor
    seq_lens: torch.Tensor
    page_indices: torch.Tensor
    page_indptr: torch.Tensor


class PagedDecodeMetadataBuilder:
    def __init__(self, max_num_seqs: int, max_pages: int, page_size: int, device: torch.device):
        self.page_size = page_size
        self.device = device
        # CUDA-graph state: graph capture reads these before any replay
        # writes them, so they must stay zero-initialised.
        self.graph_seq_lens = torch.zeros(max_num_seqs, dtype=torch.int32, device=device)
        self.graph_page_indptr = torch.zeros(max_num_seqs + 1, dtype=torch.int32, device=device)
        self.graph_page_indices = torch.zeros(max_pages, dtype=torch.int32, device=device)

    def build(self, num_scheduled_tokens: torch.Tensor, seq_lens_cpu: torch.Tensor,
              block_table: torch.Tensor) -> DecodeMetadata:
        num_seqs = num_scheduled_tokens.shape[0]

        # The leading 0 comes from the zero fill: cumsum writes [1:] only.
        query_start_loc = torch.zeros(num_seqs + 1, dtype=torch.int32, device=self.device)
        torch.cumsum(num_scheduled_tokens, dim=0, out=query_start_loc[1:])

        # Every element is overwritten by the host-to-device copy.
        seq_lens = torch.zeros(num_seqs, dtype=torch.int32, device=self.device)
        seq_lens.copy_(seq_lens_cpu, non_blocking=True)

        pages_per_seq = (seq_lens_cpu + self.page_size - 1) // self.page_size
        page_indptr = torch.zeros(num_seqs + 1, dtype=torch.int32, device=self.device)
        page_indptr[0] = 0
        torch.cumsum(pages_per_seq.to(self.device), dim=0, out=page_indptr[1:])

        total_pages = int(pages_per_seq.sum())
        page_indices = torch.zeros(total_pages, dtype=torch.int32, device=self.device)
        offset = 0
        for i in range(num_seqs):
            n = int(pages_per_seq[i])
            page_indices[offset:offset + n] = block_table[i, :n]
            offset += n

        return DecodeMetadata(query_start_loc, seq_lens, page_indices, page_indptr)

    def build_for_cuda_graph(self, num_seqs: int, seq_lens_cpu: torch.Tensor) -> torch.Tensor:
        # Padded slots beyond num_seqs keep the zeros the graph was captured with.
        self.graph_seq_lens[:num_seqs].copy_(seq_lens_cpu, non_blocking=True)
        return self.graph_seq_lens

    def build_page_indptr_for_cuda_graph(self, num_seqs: int, pages_per_seq: torch.Tensor) -> None:
        # Element 0 is zero from __init__ and nothing in the class writes it:
        # the cumsum can go straight into [1:], without the padded temporary.
        self.graph_page_indptr[: num_seqs + 1].copy_(
            F.pad(torch.cumsum(pages_per_seq, dim=0, dtype=torch.int32), (1, 0))
        )

