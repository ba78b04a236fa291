# AL101 fixtures: buffers made only when a feature is on (`x = zeros(...)
# if flag else None`, or the if/else statement), proved against the uses
# guarded by `if x is not None` or by the same flag; the fix edits the
# tensor's branch only.
import torch


def logprobs_if_asked(logits, enabled):
    logprobs = torch.zeros(logits.shape[0], logits.shape[1]) if enabled else None  # expect: AL101 safe
    if logprobs is not None:
        logprobs.copy_(torch.log_softmax(logits, dim=-1))
    return logits.argmax(dim=-1), logprobs


def mask_on_the_flag(scores, causal):
    mask = torch.zeros(scores.shape[0], scores.shape[1]) if causal else None  # expect: AL101 safe
    if causal:
        mask.copy_(torch.ones_like(scores).triu(1))
    return scores, mask


def none_first(hidden_states, flag):
    residual = None if flag else torch.zeros(hidden_states.shape[0], hidden_states.shape[1])  # expect: AL101 safe
    if not flag:
        residual.copy_(hidden_states)
    return residual


def statement_form(hidden_states, training):
    if training:
        saved = torch.zeros(hidden_states.shape[0], hidden_states.shape[1])  # expect: AL101 safe
    else:
        saved = None
    if saved is not None:
        saved.copy_(hidden_states)
    return saved


def read_before_the_write(hidden_states, training):
    saved = torch.zeros(hidden_states.shape[0], hidden_states.shape[1]) if training else None  # expect: none
    if saved is not None:
        total = saved.sum()
        saved.copy_(hidden_states)
        return saved, total
    return saved, None


def written_on_another_flag(hidden_states, training, flag):
    saved = torch.zeros(hidden_states.shape[0], hidden_states.shape[1]) if training else None  # expect: none
    if flag:
        saved.copy_(hidden_states)
    return saved


def flag_changed_between(hidden_states, training):
    saved = torch.zeros(hidden_states.shape[0], hidden_states.shape[1]) if training else None  # expect: none
    training = hidden_states.shape[0] > 4
    if training:
        saved.copy_(hidden_states)
    return saved


def none_check_inverted(hidden_states, training):
    saved = torch.zeros(hidden_states.shape[0], hidden_states.shape[1]) if training else None  # expect: none
    if saved is None:
        return None
    return saved
