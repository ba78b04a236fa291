"""Stands in, for tests/exec.sh, for a library outside a project fixture
(tests/rules/AL401/inherited_modules.d) that gives it a base class."""
from torch import nn


class Layer(nn.Module):
    def forward(self, x):
        return x * 2.0
