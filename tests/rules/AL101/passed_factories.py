# Fill factories handed straight to a call: the call decides, as no one
# else holds the buffer. Parameters made from zeros and initialised at once.
import torch
from torch import nn
from torch.nn.init import trunc_normal_


def running_totals(counts):
    return torch.cumsum(counts, 0, out=torch.zeros_like(counts))  # expect: AL101 safe


def shifted_sum(a, b):
    return torch.add(a, b, out=torch.zeros(a.shape, dtype=a.dtype))  # expect: AL101 safe


def handed_to_unknown(x, sink):
    sink.push(torch.zeros_like(x))  # expect: none


def make_queries(num_queries, dim):
    queries = nn.Parameter(torch.zeros(num_queries, dim))  # expect: AL101 safe
    trunc_normal_(queries, std=0.02)
    return queries


def make_bias(dim):
    bias = nn.Parameter(torch.zeros(dim))  # expect: AL101 safe
    bias.data.uniform_(-0.1, 0.1)
    return bias


def loaded_later(dim):
    # Left for the weight loader: the zeros are what an unloaded model reads.
    weight = nn.Parameter(torch.zeros(dim, dim), requires_grad=False)  # expect: none
    return weight


def read_before_init(rows, dim):
    table = nn.Parameter(torch.zeros(rows, dim))  # expect: none
    total = table.sum()
    nn.init.normal_(table)
    return table, total


class PerceiverQueries(nn.Module):
    def __init__(self, num_queries: int, dim: int) -> None:
        super().__init__()
        self.query = nn.Parameter(torch.zeros(num_queries, dim))  # expect: AL101 safe
        trunc_normal_(self.query, std=0.02)
        self.latents = nn.Parameter(torch.zeros(num_queries, dim))  # expect: none
        self.reset_latents()
        nn.init.xavier_uniform_(self.latents)
        self.scale = nn.Parameter(torch.ones(dim))  # expect: none

    def reset_latents(self) -> None:
        self.latents_norm = self.latents.norm()
