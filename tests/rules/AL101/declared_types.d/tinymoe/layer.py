# golden-args: --select AL101
# `self.<attr>.finalize(...)` dispatches at run time. A declared type
# limits the methods that may run to its class and its subclasses in the
# project; without one, every `finalize` of the project is met.
from typing import Optional

import torch

from tinymoe.combine import Combine
from tinymoe.debug import DebugSink
from tinymoe.finalize import PrepareFinalize


class MoELayer(torch.nn.Module):
    prepare_finalize: PrepareFinalize

    def __init__(self, prepare_finalize):
        super().__init__()
        self.prepare_finalize = prepare_finalize

    def forward(self, expert_out):
        # Every finalize of PrepareFinalize's line writes all of `out`.
        out = torch.zeros(expert_out.shape[0], expert_out.shape[2])  # expect: AL101 unsafe
        self.prepare_finalize.finalize(out, expert_out)
        return out


class OptionalLayer(torch.nn.Module):
    def __init__(self, prepare_finalize):
        super().__init__()
        self.finalizer: Optional[PrepareFinalize] = prepare_finalize

    def forward(self, expert_out):
        out = torch.zeros(expert_out.shape[0], expert_out.shape[2])  # expect: AL101 unsafe
        self.finalizer.finalize(out, expert_out)
        return out


class CombineLayer(torch.nn.Module):
    # A subclass two levels down adds into `out`: the zeros are needed.
    combine: Combine

    def __init__(self, combine):
        super().__init__()
        self.combine = combine

    def forward(self, expert_out):
        out = torch.zeros(expert_out.shape[0], expert_out.shape[2])  # expect: none
        self.combine.finalize(out, expert_out)
        return out


class UndeclaredLayer(torch.nn.Module):
    # No declaration: every `finalize` of the project, DebugSink's too.
    def __init__(self, prepare_finalize):
        super().__init__()
        self.prepare_finalize = prepare_finalize

    def forward(self, expert_out):
        out = torch.zeros(expert_out.shape[0], expert_out.shape[2])  # expect: none
        self.prepare_finalize.finalize(out, expert_out)
        return out


class ConflictingLayer(torch.nn.Module):
    # Two declarations that disagree: neither is taken.
    sink: DebugSink

    def __init__(self, prepare_finalize):
        super().__init__()
        self.sink: PrepareFinalize = prepare_finalize

    def forward(self, expert_out):
        out = torch.zeros(expert_out.shape[0], expert_out.shape[2])  # expect: none
        self.sink.finalize(out, expert_out)
        return out


class ParamLayer(torch.nn.Module):
    # No annotation on the attribute: its one assignment takes a parameter
    # annotated PrepareFinalize.
    def __init__(self, finalizer: PrepareFinalize):
        super().__init__()
        self.finalizer = finalizer

    def forward(self, expert_out):
        out = torch.zeros(expert_out.shape[0], expert_out.shape[2])  # expect: AL101 unsafe
        self.finalizer.finalize(out, expert_out)
        return out


class ReassignedLayer(torch.nn.Module):
    # A second assignment from an unannotated parameter: the class is not
    # known, and every `finalize` of the project is met.
    def __init__(self, finalizer: PrepareFinalize):
        super().__init__()
        self.finalizer = finalizer

    def swap(self, other):
        self.finalizer = other

    def forward(self, expert_out):
        out = torch.zeros(expert_out.shape[0], expert_out.shape[2])  # expect: none
        self.finalizer.finalize(out, expert_out)
        return out
