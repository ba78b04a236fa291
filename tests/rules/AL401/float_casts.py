# AL401: `.float()` and `.to(torch.float32)` say the dtype a float operand
# cannot change; of a new tensor they keep it new (the same tensor when it
# is float32 already, a copy otherwise). Of the caller's tensor they may be
# that tensor itself: not a new tensor, and no fix (issue 57.3).
import torch


@torch.inference_mode()
def router_logits(hidden, gate_weight):
    logits = torch.matmul(hidden, gate_weight.t()).float()
    logits = logits * 0.5  # expect: AL401 safe
    return logits


@torch.inference_mode()
def scaled_scores(q, k, scale):
    scores = torch.matmul(q, k.transpose(-1, -2)).to(torch.float32)
    scores = scores / 8.0  # expect: AL401 safe
    return scores


@torch.inference_mode()
def scaled_in_dtype(q, k, ref):
    # `ref.dtype` may be an integer type: a float operand would promote.
    scores = torch.matmul(q, k.transpose(-1, -2)).to(ref.dtype)
    scores = scores * 0.5  # expect: AL401 unsafe
    return scores


@torch.inference_mode()
def weigh_expert_output(expert_out, topk_weights):
    # The caller's tensor when it is float32 already.
    h = expert_out.to(torch.float32)
    h = h * 2.0  # expect: none (a cast may return its input)
    return h


@torch.inference_mode()
def gated_residual(hidden, attn_out, gate):
    # The cast may be `hidden` itself, but the sum is a new tensor.
    h = hidden.float() + attn_out * gate
    h = h + 1.0  # expect: AL401 safe
    return h


@torch.inference_mode()
def scores_in_float(q, k, scale):
    # A view of a cast is a tensor too: the product is new.
    s = (q.float().unsqueeze(2) @ k.transpose(-1, -2)).squeeze(2) * scale
    s = s.masked_fill(s < 0, 0.0)  # expect: AL401 safe
    return s
