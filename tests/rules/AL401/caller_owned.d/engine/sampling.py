# golden-args: --select AL401
# Parameters whose every caller in the project hands a new tensor that it
# does not read again: the update may reuse it (unsafe: a caller outside
# the project may exist). Callers are in this file and in runner.py.
import torch


def scale_logits(logits: torch.Tensor, temperature: torch.Tensor) -> torch.Tensor:
    logits = logits / temperature.unsqueeze(-1)  # expect: AL401 unsafe
    return logits.softmax(dim=-1)


def top_probs(hidden: torch.Tensor, weight: torch.Tensor, temperature: torch.Tensor):
    return scale_logits(torch.matmul(hidden, weight.t()), temperature)


class NoiseSchedule:
    @staticmethod
    def sde_coefficients(
        sigma_next: torch.Tensor,
        *,
        sigma_up: torch.Tensor | None = None,
    ) -> tuple[torch.Tensor, torch.Tensor]:
        if sigma_up is None:
            return torch.ones_like(sigma_next), torch.zeros_like(sigma_next)
        sigma_up = torch.minimum(sigma_up, sigma_next * 0.9999)  # expect: AL401 unsafe
        residual = torch.sqrt(torch.clamp(sigma_next.square() - sigma_up.square(), min=0.0))
        return residual, sigma_up

    @classmethod
    def step(cls, sample: torch.Tensor, sigma_next: torch.Tensor, eta: float) -> torch.Tensor:
        ratio, up = cls.sde_coefficients(sigma_next, sigma_up=sigma_next * eta)
        return sample * ratio + up


def normalise_rows(rows, norm):
    rows = rows / norm  # expect: AL401 unsafe
    return rows


def pooled(hidden: torch.Tensor) -> torch.Tensor:
    summed = hidden.sum(dim=1)
    out = normalise_rows(summed, summed.norm(dim=-1, keepdim=True).clamp(min=1e-6))
    return out


# Traps: a caller that reads what it handed after the call, one that hands
# its own parameter, one that hands a local in a loop, a name used other
# than in a call, a name in a string, a function nobody calls, an instance
# method called through its class, a decorated function, a view of a
# parameter, a function whose name other files use for something else.


def centred(x: torch.Tensor) -> torch.Tensor:
    x = x - x.mean(dim=-1, keepdim=True)
    return x


def centred_and_kept(hidden: torch.Tensor):
    h = hidden * 2
    c = centred(h)
    return c, h.sum()


def rescale(x: torch.Tensor, k: float) -> torch.Tensor:
    x = x * k
    return x


def rescale_twice(x: torch.Tensor) -> torch.Tensor:
    return rescale(x, 2.0) + rescale(torch.exp(x), 3.0)


def shifted(x: torch.Tensor) -> torch.Tensor:
    x = x + 1
    return x


def shift_all(xs: list) -> list:
    out = []
    buf = torch.zeros(4)
    for _ in xs:
        out.append(shifted(buf))
    return out


def clipped(x: torch.Tensor) -> torch.Tensor:
    x = x.clamp(min=0)
    return x


CALLBACKS = {"clip": clipped}


def run_clip(t: torch.Tensor) -> torch.Tensor:
    return clipped(t * 2)


def squared(x: torch.Tensor) -> torch.Tensor:
    x = x * 2
    return x


def by_name(mod, t: torch.Tensor) -> torch.Tensor:
    return getattr(mod, "squared")(t) + squared(t + 1)


def never_called(x: torch.Tensor) -> torch.Tensor:
    x = x * 3
    return x


class Head:
    def project(self, x: torch.Tensor) -> torch.Tensor:
        x = x * 0.5
        return x


def head_through_class(head: Head, t: torch.Tensor) -> torch.Tensor:
    return Head.project(head, t * 2) + head.project(t * 3)


@torch.compile
def compiled_scale(x: torch.Tensor) -> torch.Tensor:
    x = x * 4
    return x


def run_compiled(t: torch.Tensor) -> torch.Tensor:
    return compiled_scale(t + 1)


def flattened(x: torch.Tensor) -> torch.Tensor:
    x = x + 1.0
    return x


def flatten_param(t: torch.Tensor) -> torch.Tensor:
    return flattened(t.view(-1))


def gather_rows(x: torch.Tensor, rows: torch.Tensor) -> torch.Tensor:
    x = x * 2
    return x.index_select(0, rows)


def gathered(t: torch.Tensor, rows: torch.Tensor) -> torch.Tensor:
    return gather_rows(t * 3, rows)
