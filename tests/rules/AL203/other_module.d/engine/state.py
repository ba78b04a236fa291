# The class keeps its buffers' element 0 at zero; code in another module
# of the project names one of them, and the proof must say so.
import torch
import torch.nn.functional as F


class GraphState:
    def __init__(self, max_bs):
        self.cu_seqlens_q = torch.zeros(max_bs + 1, dtype=torch.int32)
        self.cu_seqlens_kv = torch.zeros(max_bs + 1, dtype=torch.int32)

    def replay(self, q_lens, kv_lens):
        bs = q_lens.shape[0]
        self.cu_seqlens_q[: bs + 1].copy_(F.pad(torch.cumsum(q_lens, 0, dtype=torch.int32), (1, 0)))  # expect: AL203 safe
        self.cu_seqlens_kv[: bs + 1].copy_(F.pad(torch.cumsum(kv_lens, 0, dtype=torch.int32), (1, 0)))  # expect: AL203 unsafe
        return self.cu_seqlens_q[: bs + 1].sum() + self.cu_seqlens_kv[: bs + 1].sum()
