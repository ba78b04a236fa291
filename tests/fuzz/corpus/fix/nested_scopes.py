import torch


class Sampler(torch.nn.Module):
    def forward(self, logits):
        probs = torch.zeros(logits.shape, device=logits.device)
        probs[:] = logits.softmax(-1)

        def inner(t):
            z = torch.zeros(t.shape[0], 4)
            z.copy_(t[:, :4])
            return z

        return inner(probs)


out = torch.zeros(8)
out.copy_(torch.arange(8))
