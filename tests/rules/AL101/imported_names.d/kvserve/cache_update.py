# golden-args: --select AL101
# A call of an imported name runs what the name holds when it is called:
# the import, unless the module binds the name again; an import inside the
# function is that function's own.
import os

import torch

from kvserve import copy_ops
from kvserve.copy_ops import copy_rows, scaled_rows, traced_rows

if os.environ.get("KV_ACCUMULATE"):
    from kvserve.copy_ops import accumulate_rows as merge_rows
else:
    from kvserve.copy_ops import copy_rows as merge_rows


def _traced(fn):
    def inner(dst, src):
        dst.add_(src)

    return inner


scaled_rows = _traced(scaled_rows)


def stage_block(src):
    # The imported copy writes every element.
    out = torch.zeros_like(src)  # expect: AL101 safe
    copy_rows(out, src)
    return out


def stage_local_import(src):
    # Imported inside the function, under another name: that import.
    from kvserve.copy_ops import copy_rows as put_rows

    out = torch.zeros_like(src)  # expect: AL101 safe
    put_rows(out, src)
    return out


def write_back(dst, src):
    dst.copy_(src)


def stage_shadowed(src):
    # The function's own import hides the module's `write_back`.
    from kvserve.copy_ops import accumulate_rows as write_back

    out = torch.zeros_like(src)  # expect: none
    write_back(out, src)
    return out


def stage_rebound(src):
    # The module wraps the imported name after importing it.
    out = torch.zeros_like(src)  # expect: none
    scaled_rows(out, src)
    return out


def stage_switched(src):
    # Imported from two places: which one runs is the environment's.
    out = torch.zeros_like(src)  # expect: none
    merge_rows(out, src)
    return out


def stage_wrapped_there(src):
    # copy_ops binds `traced_rows` again after its def: the wrapper runs.
    out = torch.zeros_like(src)  # expect: none
    traced_rows(out, src)
    return out


def stage_wrapped_module_attr(src):
    # The same, called through the module.
    out = torch.zeros_like(src)  # expect: none
    copy_ops.traced_rows(out, src)
    return out


def stage_module_attr(src):
    out = torch.zeros_like(src)  # expect: AL101 safe
    copy_ops.copy_rows(out, src)
    return out
