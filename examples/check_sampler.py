"""A smoke test of the sampler, as a project would have one: runs a decode
step's sampling on the CPU and checks what must hold. Used by the README's
`alloclint verify` example."""
import os
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import sampler  # noqa: E402

torch.manual_seed(0)
logits = torch.randn(4, 32)
temperature = torch.full((4,), 0.7)
top_k = torch.tensor([5, 32, 1, 8])
top_p = torch.tensor([0.9, 1.0, 0.5, 0.95])
tokens = sampler.sample(logits, temperature, top_k, top_p, torch.Generator().manual_seed(1))
assert tokens.shape == (4,) and int(tokens.min()) >= 0 and int(tokens.max()) < 32
assert int(tokens[2]) == int(torch.argmax(logits[2])), "top-k 1 must be greedy"
greedy = sampler.greedy_tokens(logits, 3, 8)
assert greedy[:3].tolist() == torch.argmax(logits[:3], dim=-1).tolist()
assert greedy[3:].eq(0).all(), "the CUDA-graph padding must stay 0"
print("sampler ok")
