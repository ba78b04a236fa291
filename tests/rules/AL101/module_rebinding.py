# AL101 through a module's functions, when the module binds the name
# again: what a call of the name runs is what the name holds at that
# time, not necessarily the def. A name bound again anywhere in the module
# (a wrapper assigned over it, a second def, an import, an annotated
# assignment, a tuple target, a branch, a function declaring it global)
# is not followed.
import torch

FAST_PATH = False


def copy_into(dst, src):
    # Used by the fill pass below, which the name's mentions in prose
    # and comprehensions do not rebind.
    dst.copy_(src)


def scale_rows(dst, src):
    dst.copy_(src * 2)


def _accumulating(fn):
    def inner(dst, src):
        dst.add_(src)

    return inner


def wrapped(dst, src):
    dst.copy_(src)


wrapped = _accumulating(wrapped)


def twice(dst, src):
    dst.copy_(src)


def twice(dst, src):  # noqa: F811
    dst.add_(src)


def installed(dst, src):
    dst.copy_(src)


def install(fn):
    global installed
    installed = fn


def imported_over(dst, src):
    dst.copy_(src)


from operator import iadd as imported_over  # noqa: E402,F811


def annotated_over(dst, src):
    dst.copy_(src)


annotated_over: object = _accumulating(annotated_over)


def paired(dst, src):
    dst.copy_(src)


paired, _unused = _accumulating(paired), None


def switched(dst, src):
    dst.copy_(src)


if FAST_PATH:
    switched = _accumulating(switched)


def fill_pass(src):
    out = torch.zeros_like(src)  # expect: AL101 safe
    copy_into(out, src)
    names = [copy_into for copy_into in (1, 2)]
    return out, names


def after_wrapper(src):
    out = torch.zeros_like(src)  # expect: none
    wrapped(out, src)
    return out


def after_second_def(src):
    out = torch.zeros_like(src)  # expect: none
    twice(out, src)
    return out


def after_install(src):
    out = torch.zeros_like(src)  # expect: none
    installed(out, src)
    return out


def after_import(src):
    out = torch.zeros_like(src)  # expect: none
    imported_over(out, src)
    return out


def after_annotation(src):
    out = torch.zeros_like(src)  # expect: none
    annotated_over(out, src)
    return out


def after_tuple(src):
    out = torch.zeros_like(src)  # expect: none
    paired(out, src)
    return out


def after_switch(src):
    out = torch.zeros_like(src)  # expect: none
    switched(out, src)
    return out


def scaled(src):
    # A local of another function, and this comment's "global scale_rows",
    # bind nothing of the module's.
    out = torch.zeros_like(src)  # expect: AL101 safe
    scale_rows(out, src)
    return out


def doubled(src):
    scale_rows = src * 2
    return scale_rows
