"""Lines that rules examine and leave: explain says what failed."""
import torch


@torch.inference_mode()
def rope_base(config, scale):
    base = config.get("rope_theta", 10000)
    base = base * scale
    return base


def cu_seqlens(lens):
    start = torch.zeros(1, dtype=lens.dtype, device=lens.device)
    return torch.cat([start, torch.cumsum(lens, 0)]), start


def gather_rows(rows, n):
    picked = []
    for i in range(n):
        picked.append(rows[i] * 2)
        if len(picked) > 4:
            break
    return torch.stack(picked)


def grow_front(chunks):
    out = chunks[0]
    for c in chunks[1:]:
        out = torch.cat([c, out])
    return out


def clear_rows(buf, n, rows):
    for i in range(n):
        buf[i].fill_(rows[i])


def device_health_probe():
    torch.zeros((2, 2)).cuda()
