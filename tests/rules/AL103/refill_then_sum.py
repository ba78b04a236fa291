# AL103 fixtures: a zero fill right after a zeros factory is redundant
# whatever follows it, an accumulation too: every path still holds the
# factory's zeros when it runs. Not when the fill resets the buffer on
# each pass of a loop, nor inside a CUDA-graph capture (it runs again at
# every replay), nor after the buffer was handed out (someone may have
# written it).
import torch


def refill_then_accumulate(router_logits, num_experts):
    counts = torch.zeros(num_experts)
    counts.zero_()  # expect: AL103 safe
    for logits in router_logits:
        counts += logits
    return counts


def fill_zero_then_index_add(index, values, n):
    acc = torch.zeros(n)
    acc.fill_(0)  # expect: AL103 safe
    acc.index_add_(0, index, values)
    return acc


def handed_out_after(x, n, sink):
    acc = torch.zeros(n)
    acc.zero_()  # expect: AL103 safe
    acc += x
    sink.append(acc)
    return acc


def reset_on_each_pass(xs, n):
    acc = torch.zeros(n)
    sums = []
    for x in xs:
        acc.zero_()  # expect: none
        acc += x
        sums.append(acc.clone())
    return sums


def handed_out_before(x, n, sink):
    acc = torch.zeros(n)
    sink.append(acc)
    acc.zero_()  # expect: none
    acc += x
    return acc


def captured(x, n, graph):
    acc = torch.zeros(n)
    with torch.cuda.graph(graph):
        acc.zero_()  # expect: none
        acc += x
    return acc
