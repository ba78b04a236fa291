import torch

def pad(x, n):
	z = torch.zeros(n, x.shape[1])  # noqa: AL101
	return torch.cat([z, x], dim=0)
