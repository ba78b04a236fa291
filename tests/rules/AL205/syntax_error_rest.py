# A syntax error further down, and a finding that offers no fix: the
# finding is reported as in a clean file (errors withhold fixes only).
import torch


def stack_expert_scales(experts, num_experts):
    scales = []
    for e in range(num_experts):
        s = experts[e].weight_scale.float().reshape(-1)
        scales.append(s)  # expect: AL205 nofix
    return torch.stack(scales)


def load_scales(path:
    return torch.load(path
