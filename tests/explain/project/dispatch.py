import torch


class RowFinisher:
    def finish_rows(self, out, rows):
        raise NotImplementedError


class CopyRowFinisher(RowFinisher):
    def finish_rows(self, out, rows):
        out.copy_(rows)


class Recorder:
    def finish_rows(self, out, rows):
        return out.sum() + rows.sum()


class Layer(torch.nn.Module):
    finisher: RowFinisher

    def forward(self, rows):
        out = torch.zeros_like(rows)
        self.finisher.finish_rows(out, rows)
        return out
