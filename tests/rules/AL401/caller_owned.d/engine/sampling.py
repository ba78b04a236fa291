# golden-args: --select AL401
# Private helpers whose every call in their file hands a parameter a new
# tensor that it does not read again: the update may reuse it (unsafe: no
# other file is assumed to call a private name). Public functions are not
# taken: their callers in other files are not searched.
import torch


def _scale_logits(logits: torch.Tensor, temperature: torch.Tensor) -> torch.Tensor:
    logits = logits / temperature.unsqueeze(-1)  # expect: AL401 unsafe
    return logits.softmax(dim=-1)


def top_probs(hidden: torch.Tensor, weight: torch.Tensor, temperature: torch.Tensor):
    return _scale_logits(torch.matmul(hidden, weight.t()), temperature)


class NoiseSchedule:
    @staticmethod
    def _sde_coefficients(
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
        ratio, up = cls._sde_coefficients(sigma_next, sigma_up=sigma_next * eta)
        return sample * ratio + up


def _normalise_rows(rows, norm):
    rows = rows / norm  # expect: AL401 unsafe
    return rows


def pooled(hidden: torch.Tensor) -> torch.Tensor:
    summed = hidden.sum(dim=1)
    out = _normalise_rows(summed, summed.norm(dim=-1, keepdim=True).clamp(min=1e-6))
    return out


# Traps: a public function (called here with a temporary, and from
# runner.py), a caller that reads what it handed after the call, one that
# hands its own parameter, one that hands a local in a loop, a name used
# other than in a call, a name in a string, a function nobody calls, an
# instance method called through its class, a decorated function, a view of
# a parameter.


def scale_logits(logits: torch.Tensor, temperature: torch.Tensor) -> torch.Tensor:
    logits = logits / temperature.unsqueeze(-1)
    return logits.softmax(dim=-1)


def public_probs(hidden: torch.Tensor, weight: torch.Tensor, temperature: torch.Tensor):
    return scale_logits(torch.matmul(hidden, weight.t()), temperature)


def _centred(x: torch.Tensor) -> torch.Tensor:
    x = x - x.mean(dim=-1, keepdim=True)
    return x


def centred_and_kept(hidden: torch.Tensor):
    h = hidden * 2
    c = _centred(h)
    return c, h.sum()


def _rescale(x: torch.Tensor, k: float) -> torch.Tensor:
    x = x * k
    return x


def rescale_twice(x: torch.Tensor) -> torch.Tensor:
    return _rescale(x, 2.0) + _rescale(torch.exp(x), 3.0)


def _shifted(x: torch.Tensor) -> torch.Tensor:
    x = x + 1
    return x


def shift_all(xs: list) -> list:
    out = []
    buf = torch.zeros(4)
    for _ in xs:
        out.append(_shifted(buf))
    return out


def _clipped(x: torch.Tensor) -> torch.Tensor:
    x = x.clamp(min=0)
    return x


CALLBACKS = {"clip": _clipped}


def run_clip(t: torch.Tensor) -> torch.Tensor:
    return _clipped(t * 2)


def _squared(x: torch.Tensor) -> torch.Tensor:
    x = x * 2
    return x


def by_name(mod, t: torch.Tensor) -> torch.Tensor:
    return getattr(mod, "_squared")(t) + _squared(t + 1)


def _never_called(x: torch.Tensor) -> torch.Tensor:
    x = x * 3
    return x


class Head:
    def _project(self, x: torch.Tensor) -> torch.Tensor:
        x = x * 0.5
        return x

    def both(self, t: torch.Tensor) -> torch.Tensor:
        return Head._project(self, t * 2) + self._project(t * 3)


@torch.compile
def _compiled_scale(x: torch.Tensor) -> torch.Tensor:
    x = x * 4
    return x


def run_compiled(t: torch.Tensor) -> torch.Tensor:
    return _compiled_scale(t + 1)


def _flattened(x: torch.Tensor) -> torch.Tensor:
    x = x + 1.0
    return x


def flatten_param(t: torch.Tensor) -> torch.Tensor:
    return _flattened(t.view(-1))
