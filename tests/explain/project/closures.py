import torch


def gather_pages(pages: torch.Tensor, table: torch.Tensor) -> torch.Tensor:
    flat = torch.zeros(table.shape[0], pages.shape[1], device=pages.device)

    def fill():
        flat.copy_(pages[table])

    fill()
    return flat


def reader_above(x: torch.Tensor) -> torch.Tensor:
    def peek():
        return buf.sum()

    buf = torch.zeros_like(x)
    s = peek()
    buf.copy_(x)
    return buf * s
