"""A survey, not a rule's evidence: what the loop rewrites issue 13 asks
about would buy in PyTorch on a GPU, before any rule makes them.

  list + stack        parts appended in a loop, then torch.stack, against
                      one preallocated output whose rows the producers
                      write with out=
  index_select        a temporary per iteration against out= a scratch
  cat of parts        torch.cat of separately computed results against
                      producers writing slices of one output with out=

Run by hand on a GPU (python3 kernels/torch/survey_loop_patterns.py); the
results are in bench/results/loop_patterns.md. Each pair is checked equal
before it is timed.
"""
import torch, triton.testing as tt
def bench(fn): return tt.do_bench(fn, warmup=25, rep=200)*1000
torch.manual_seed(0)
print("list+stack vs preallocated out=, K parts of n fp32 (torch.mul producers)")
for K in (8, 32):
    for n in (4096, 1<<16, 1<<20, 1<<22):
        a=[torch.randn(n,device="cuda") for _ in range(K)]; b=torch.randn(n,device="cuda")
        def stack():
            parts=[]
            for i in range(K): parts.append(torch.mul(a[i], b))
            return torch.stack(parts)
        y=torch.empty(K,n,device="cuda")
        def prealloc():
            out=torch.empty(K,n,device="cuda")
            for i in range(K): torch.mul(a[i], b, out=out[i])
            return out
        assert torch.equal(stack(), prealloc())
        s,p=bench(stack),bench(prealloc)
        print(f"K={K} n={n}: stack {s:.1f} us, preallocated {p:.1f} us, {s/p:.2f}x")
print("index_select per iteration vs out=scratch")
for n in (4096, 1<<16, 1<<20):
    src=torch.randn(n, 128, device="cuda"); idx=torch.randint(0,n,(n//2,),device="cuda")
    acc=torch.zeros(n//2,128,device="cuda")
    def per_iter():
        for _ in range(16):
            t=torch.index_select(src,0,idx); acc.add_(t)
    scratch=torch.empty(n//2,128,device="cuda")
    def hoisted():
        for _ in range(16):
            torch.index_select(src,0,idx,out=scratch); acc.add_(scratch)
    a1,a2=bench(per_iter),bench(hoisted)
    print(f"n={n}: per iteration {a1:.1f} us, scratch {a2:.1f} us, {a1/a2:.2f}x")
print("cat of parts vs producers writing slices (out=)")
for n in (4096, 1<<20, 1<<22):
    x=torch.randn(n,device="cuda"); w1=torch.randn(n,device="cuda"); w2=torch.randn(n,device="cuda")
    def cat():
        return torch.cat([torch.mul(x,w1), torch.add(x,w2)])
    def slices():
        out=torch.empty(2*n,device="cuda"); torch.mul(x,w1,out=out[:n]); torch.add(x,w2,out=out[n:]); return out
    assert torch.equal(cat(), slices())
    c,s=bench(cat),bench(slices)
    print(f"n={n}: cat {c:.1f} us, slices {s:.1f} us, {c/s:.2f}x")
