# AL401 fixtures (off by default): x = x - y on a fresh, unaliased local.
import torch


def normalise(scores, bias):
    logits = torch.matmul(scores, scores.T)
    logits = logits - bias  # expect: AL401 unsafe
    return logits


def scale(x, factor):
    y = torch.sin(x)
    y = y * factor  # expect: AL401 unsafe
    return y


def shift(x, offset):
    z = torch.exp(x) + 1.0
    z = offset + z  # expect: AL401 unsafe
    return z


def maybe_plain_ints(owner, base, remainder_tensor):
    # owner * base may be two Python ints: no tensor to update in place.
    physical_offset = owner * base
    physical_offset = physical_offset + torch.minimum(owner, remainder_tensor)  # expect: none
    return physical_offset


def divide(a, b):
    r = torch.zeros_like(a)
    r.copy_(a)
    r = r / b  # expect: AL401 unsafe
    return r


def torch_add(a, b):
    acc = torch.clone(a)
    acc = torch.add(acc, b, alpha=2)  # expect: AL401 unsafe
    return acc


def torch_sub(a, b):
    d = a.clone()
    d = torch.sub(d, b)  # expect: AL401 unsafe
    return d


def the_classic_trap(seg_indptr_src):
    # num_minus_one is a view of seg_indptr: sub_ would change it midway.
    seg_indptr = torch.cumsum(seg_indptr_src, dim=0)
    num_minus_one = seg_indptr[0]
    seg_indptr = seg_indptr - num_minus_one  # expect: none
    return seg_indptr


def parameter_is_caller_owned(x, y):
    x = x - y  # expect: none
    return x


def attribute_is_shared(self, y):
    self.state = self.state - y  # expect: none


def view_alias(x, y):
    t = torch.exp(x)
    flat = t.view(-1)
    t = t - y  # expect: none
    return t, flat


def plain_alias(x, y):
    t = torch.exp(x)
    keep = t
    t = t * y  # expect: none
    return t, keep


def stored_in_list(x, y, history):
    t = torch.exp(x)
    history.append(t)
    t = t + y  # expect: none
    return t


def operand_reads_itself(x):
    t = torch.exp(x)
    t = t - t[0]  # expect: none
    return t


def not_commutative(x, y):
    t = torch.exp(x)
    t = y - t  # expect: none
    return t


def from_unknown_call(x, y, make):
    t = make(x)
    t = t - y  # expect: none
    return t


def captured(x, y):
    t = torch.exp(x)

    def peek():
        return t

    t = t - y  # expect: none
    return peek
