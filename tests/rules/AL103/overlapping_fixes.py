# golden-args: --select AL101,AL103
# A report shows every fix on the file as it is, so two fixes whose edits
# overlap cannot both be applied from it: the later one is shown alone
# (display-only), naming the fix it waits on; --fix applies the first and
# proves the second again on the text it made.
import torch


def prefix_mask(seq_lens, prefix_lens, mask_dtype, device):
    masks = []
    for i in range(len(seq_lens)):
        n, p = seq_lens[i], prefix_lens[i]
        # AL101 (zeros then fill_) and AL103 (fill_ merged into the factory)
        # both rewrite the factory call.
        mask = torch.zeros(  # expect: AL101 safe
            n,
            n + p,
            dtype=mask_dtype,
            device=device,
        )
        mask.fill_(1)  # expect: AL103 nofix
        mask = mask.tril(diagonal=p)
        masks.append(mask)
    return masks


def two_buffers(x, n):
    # Fixes of two buffers edit different bytes: both stay applicable.
    ones = torch.empty(n, device=x.device)
    ones.fill_(1)  # expect: AL103 safe
    out = torch.zeros_like(x)  # expect: AL101 safe
    out.copy_(x * 2)
    return ones, out
