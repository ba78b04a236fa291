"""A decode step captured once in a CUDA graph and replayed: the kernels
of a replay are hidden inside cudaGraphLaunch."""
import torch


class GraphRunner:
    def __init__(self, weight, batch):
        self.weight = weight
        self.static_in = torch.zeros(batch, weight.shape[0], device=weight.device, dtype=weight.dtype)
        self.static_out = torch.zeros(batch, weight.shape[1], device=weight.device, dtype=weight.dtype)
        self.graph = None

    def capture(self):
        stream = torch.cuda.Stream()
        stream.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(stream):
            for _ in range(2):
                self._step()
        torch.cuda.current_stream().wait_stream(stream)
        self.graph = torch.cuda.CUDAGraph()
        with torch.cuda.graph(self.graph):
            self._step()

    def _step(self):
        scratch = torch.zeros_like(self.static_out)
        torch.matmul(self.static_in, self.weight, out=scratch)
        self.static_out.copy_(torch.relu(scratch))

    def replay(self, x):
        self.static_in.copy_(x)
        self.graph.replay()
        return self.static_out
