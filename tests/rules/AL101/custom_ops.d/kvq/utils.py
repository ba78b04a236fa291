import torch


def direct_register_custom_op(op_name, op_func, mutates_args, fake_impl=None, target_lib=None):
    # Registers op_func as torch.ops.kvq.<op_name>, as engines do to keep
    # their kernels visible to torch.compile.
    lib = target_lib or torch.library.Library("kvq", "FRAGMENT")
    schema = torch.library.infer_schema(op_func, mutates_args=mutates_args)
    lib.define(op_name + schema)
    lib.impl(op_name, op_func, "CUDA")
    if fake_impl is not None:
        lib._register_fake(op_name, fake_impl)
