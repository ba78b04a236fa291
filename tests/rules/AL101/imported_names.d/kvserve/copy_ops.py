# Copy kernels of the serving engine, in their reference form.


def copy_rows(dst, src):
    dst.copy_(src)


def accumulate_rows(dst, src):
    dst.add_(src)


def scaled_rows(dst, src):
    dst.copy_(src * 0.5)


def _counted(fn):
    def inner(dst, src):
        dst.add_(src)

    return inner


def traced_rows(dst, src):
    dst.copy_(src)


# The module's own name for it is the wrapper.
traced_rows = _counted(traced_rows)
