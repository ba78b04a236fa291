#!/usr/bin/env python3
"""Writes a corpus of Python files for the prefilter equivalence test:
our own snippets of model code (buffers, fills, cats, loops, helpers,
kernels, suppressions) put together in random order, with the layouts a
statement scanner can trip on (decorators, else/except at column 0,
comments between definitions, `def` inside strings, continuations,
semicolons, CRLF), and each snippet alone under each header. Deterministic
for a seed.

Usage: gen_corpus.py DIR [FILES] [SEED]
"""
import os
import random
import sys

HEADERS = [
    "import torch\n",
    "import torch\nimport torch.nn.functional as F\n",
    "import torch as th\n",
    "from torch import zeros, empty\n",
    "from torch import zeros as make_zeros\n",
    "import numpy as np\nimport torch\n",
    "import triton\nimport triton.language as tl\nimport torch\n",
    "from .helpers import fill_rows\nimport torch\n",
    "\ufeffimport torch\nimport torch.nn.functional as F\n",  # a byte-order mark first
]

SNIPPETS = [
    # a layer assigned in __init__, which a partial parse of the class
    # leaves out: what `self.proj(x)` returns is read from it
    '''class Gate{n}(torch.nn.Module):
    def __init__(self, d):
        super().__init__()
        self.proj = torch.nn.Identity()
        self.names = ["gate", "proj", "scale"]

    def describe(self):
        parts = []
        for name in self.names:
            parts.append(name.upper())
        return ", ".join(parts)

    def forward(self, x):
        y = self.proj(x)
        y = y * 2
        return y
''',
    # a buffer a helper of this file overwrites
    '''def write_all(out, src):
    out.copy_(src)


def step_{n}(x):
    buf = torch.zeros(x.shape, dtype=x.dtype)
    write_all(buf, x)
    return buf + 1
''',
    # the helper reads first: must stay silent
    '''def accumulate(out, src):
    out += src


def step_{n}(x):
    acc = torch.zeros_like(x)
    accumulate(acc, x)
    return acc
''',
    '''@torch.no_grad()
def decode_{n}(hidden, n: int):
    out = torch.zeros(n, hidden.shape[-1])
    out[:] = hidden[:n]
    return out
''',
    '''class Cache{n}:
    def __init__(self, n, d):
        self.buf = torch.zeros(n, d)
        self.lens = torch.zeros(n, dtype=torch.int32)

    def reset(self):
        self.buf.zero_()
        self.buf.fill_(0)

    def update(self, x):
        self.buf.copy_(x)
''',
    '''def pad_{n}(x, a: int):
    z = torch.zeros(x.shape[0], a, dtype=x.dtype, device=x.device)
    return torch.cat([z, x], dim=1)
''',
    '''def grow_{n}(parts):
    out = parts[0]
    for p in parts[1:]:
        out = torch.cat([out, p])
    return out
''',
    '''def loop_alloc_{n}(xs):
    total = 0
    for x in xs:
        tmp = torch.empty_like(x)
        tmp.copy_(x)
        total = total + tmp.sum()
    return total
''',
    '''def host_{n}(n):
    t = torch.zeros(n).cuda()
    u = torch.arange(n).to("cuda")
    return t, u
''',
    '''def rebind_{n}(x, y):
    z = x * 2
    z = z - y
    return z
''',
    '''def doc_{n}():
    """An example in a docstring at column 0:
def fake(x):
    return torch.zeros(3)
class Fake:
    pass
"""
    return 1
''',
    '''def cont_{n}(x):
    y = torch.zeros(4, \\
                    4)
    y[:] = x; y = y + 1
    return y
''',
    '''try:
    import flash_attn
except ImportError:
    flash_attn = None
else:
    pass
''',
    '''if torch.cuda.is_available():
    DEVICE = "cuda"
else:
    DEVICE = "cpu"
SCRATCH = torch.zeros(16)
''',
    '''# alloclint: ignore[AL101]
def ignored_{n}(x):
    b = torch.zeros(3)
    b[:] = x
    return b
''',
    '''def noqa_{n}(x):
    b = torch.zeros(3)  # noqa: AL101
    b[:] = x
    return b
''',
    '''def unused_noqa_{n}(x):
    return x + 1  # noqa: AL101
''',
    '''@triton.jit
def kernel_{n}(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    acc = tl.load(x_ptr + offs, mask=offs < n)
    tl.store(y_ptr + offs, acc, mask=offs < n)


def launch_{n}(x):
    y = torch.zeros_like(x)
    kernel_{n}[(1,)](x, y, x.numel(), BLOCK=128)
    return y
''',
    '''def f_string_{n}(x):
    return f"{torch.zeros(2)} {x}"
''',
    '''def uses_import_{n}(x):
    out = torch.zeros_like(x)
    fill_rows(out, x)
    return out
''',
    '''async def serve_{n}(x):
    out = torch.zeros(3)
    out[:] = x
    return out
''',
    '''def np_{n}(n):
    a = np.zeros(n)
    a[:] = 1
    return a
''',
    '''def masked_{n}(x, m):
    y = torch.zeros_like(x)
    y.masked_fill_(m, 0)
    return y
''',
    '''def plain_{n}(x):
    return x.relu()
''',
    # issue 13's forms: a class buffer's padded copy, a fill loop, in-place
    # updates, a cumsum held in a name, zeros on both sides
    '''class GraphState{n}:
    def __init__(self, n):
        self.cu = torch.zeros(n + 1, dtype=torch.int32)

    def replay(self, lens):
        self.cu[: lens.shape[0] + 1].copy_(F.pad(torch.cumsum(lens, 0, dtype=torch.int32), (1, 0)))
''',
    '''def clear_{n}(buf: torch.Tensor, rows):
    for i in range(len(rows)):
        buf[i].zero_()
    return buf
''',
    '''@torch.inference_mode()
def relu6_{n}(x):
    y = torch.exp(x)
    y = y.clamp(min=0, max=6)
    return y
''',
    '''def offsets_{n}(lens):
    cs = torch.cumsum(lens, dim=0, dtype=torch.int64)
    cu = torch.cat([torch.zeros(1, dtype=torch.int64), cs])
    return cu
''',
    '''def halo_{n}(x, n):
    return torch.cat((torch.zeros(n, 1, dtype=x.dtype), x, torch.zeros(n, 1, dtype=x.dtype)), 1)
''',
    # issue 13's NumPy twins: prefix sums in host code (held in a name,
    # padded then narrowed)
    '''def starts_{n}(seq_lens):
    lens = np.array(seq_lens, dtype=np.int64)
    cs = np.cumsum(lens)
    starts = np.concatenate(([0], cs))
    return starts
''',
    '''def cu_local_{n}(q):
    cu = np.pad(np.cumsum(q), (1, 0)).astype(np.int32)
    return cu
''',
    # AL204: elementwise results of one tensor concatenated (a rebinding,
    # and the operand bound in a branch)
    '''@torch.no_grad()
def timestep_{n}(t, dim):
    emb = torch.exp(-torch.arange(dim // 2, dtype=torch.float32) / dim)
    emb = t[:, None] * emb[None, :]
    emb = torch.cat([emb.sin(), emb.cos()], dim=-1)
    return emb
''',
    '''def rope_{n}(pos, inv_freq, scaled):
    if scaled:
        x = pos.float() * inv_freq
    else:
        x = pos
    return torch.cat((torch.cos(x), torch.sin(x)), 1)
''',
    # methods parsed apart from their class: a buffer written by a method
    # called through self, among methods with nothing to report
    '''class Sampler{n}:
    temperature = 1.0

    def __init__(self, vocab):
        self.vocab = vocab

    def _write_logits(self, out, hidden):
        out.copy_(hidden @ hidden.T)

    def describe(self):
        return "sampler %d" % self.vocab

    def forward(self, hidden):
        logits = torch.zeros(hidden.shape[0], hidden.shape[0])
        self._write_logits(logits, hidden)
        return logits / self.temperature
''',
    # a kernel launched through an attribute that __init__ binds
    '''@triton.jit
def scale_kernel_{n}(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(y_ptr + offs, tl.load(x_ptr + offs, mask=offs < n) * 2, mask=offs < n)


class Scaler{n}:
    def __init__(self):
        self.kernel = scale_kernel_{n}

    def name(self):
        return "scaler"

    def run(self, x):
        y = torch.zeros_like(x)
        self.kernel[(triton.cdiv(x.numel(), 128),)](x, y, x.numel(), BLOCK=128)
        return y
''',
    # in-place updates through torch's functions and on the right
    '''@torch.no_grad()
def shift_{n}(x):
    z = torch.exp(x)
    z = torch.add(z, 1)
    return z
''',
    '''@torch.no_grad()
def double_{n}(y):
    w = torch.exp(y)
    w = 2 * w
    return w
''',
    # a factory under another name: its calls show no factory token
    '''from torch import empty as alloc


def loop_alias_{n}(xs, n: int):
    total = 0
    for x in xs:
        tmp = alloc(n)
        tmp.copy_(x)
        total = total + tmp.sum()
    return total
''',
    # calls inside strings are not code the rules read: no AL501 here
    '''def f_string_move_{n}(x):
    return f"{torch.zeros(2).cuda()} {x}"
''',
    # class-wide facts: the zeros in __init__, the copy or the fill loop
    # in another method, unrelated methods around them
    '''class PagedState{n}:
    def __init__(self, n, rows):
        self.cu = torch.zeros(n + 1, dtype=torch.int32)
        self.table = torch.zeros(rows, 8, dtype=torch.int32)

    def size(self):
        return self.cu.numel()

    def replay(self, lens):
        self.cu[: lens.shape[0] + 1].copy_(F.pad(torch.cumsum(lens, 0, dtype=torch.int32), (1, 0)))

    def clear(self, n):
        for i in range(n):
            self.table[i].zero_()

    def __repr__(self):
        return "PagedState"
''',
    # a finding in a class's decorator, not in its body
    '''@register_buffer(torch.zeros(4).cuda())
class Registered{n}:
    def method(self):
        return 1
''',
]


def main():
    out = sys.argv[1]
    files = int(sys.argv[2]) if len(sys.argv) > 2 else 200
    rng = random.Random(int(sys.argv[3]) if len(sys.argv) > 3 else 1)
    os.makedirs(out, exist_ok=True)
    for i in range(files):
        parts = [rng.choice(HEADERS)]
        for k in range(rng.randint(1, 8)):
            parts.append("\n\n" + rng.choice(SNIPPETS).replace("{n}", str(k)))
            if rng.random() < 0.2:
                parts.append("# a comment between definitions\n")
        text = "".join(parts)
        if rng.random() < 0.1:
            text = text.replace("\n", "\r\n")
        if rng.random() < 0.1:
            text = text.replace("    ", "\t")
        with open(os.path.join(out, "gen_%03d.py" % i), "w", newline="", encoding="utf-8") as f:
            f.write(text)
    # Each snippet alone under each header: a file with a finding is read
    # whole, so only a file whose one finding hangs on what a partial
    # parse keeps shows whether the shortcut kept enough.
    for k, snippet in enumerate(SNIPPETS):
        for h, header in enumerate(HEADERS):
            with open(os.path.join(out, "one_%02d_%d.py" % (k, h)), "w", newline="", encoding="utf-8") as f:
                f.write(header + "\n\n" + snippet.replace("{n}", "0"))


if __name__ == "__main__":
    main()
