import torch

from engine.sampling import NoiseSchedule, scale_logits


class Runner:
    def __init__(self, weight: torch.Tensor):
        self.weight = weight

    def sample(self, hidden: torch.Tensor, rows: torch.Tensor, temperature: torch.Tensor):
        logits = hidden @ self.weight.t()
        picked = logits.index_select(0, rows)
        probs = scale_logits(picked, temperature)
        return torch.multinomial(probs, 1)

    def denoise(self, sample: torch.Tensor, sigma: torch.Tensor) -> torch.Tensor:
        return NoiseSchedule.step(sample, sigma, 0.5)
