"""Stands in, for tests/exec.sh, for a kernel library a project fixture
imports (tests/rules/AL401/inherited_modules.d): what its documentation
says the op does, on the CPU."""
import torch


def fused_norm(x, eps=1e-6):
    return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + eps)
