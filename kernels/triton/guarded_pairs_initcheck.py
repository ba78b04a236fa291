"""Runs one decoder of tests/rules/AL101/guarded_pairs.py in the form given
(`fixed`: alloclint's `.fixed`; `forced`: every zero fill made `empty`), for
compute-sanitizer's initcheck, which reports every load of device memory
nothing wrote: a fixed decoder must give none, a trap forced to `empty`
some. Usage: guarded_pairs_initcheck.py FORM NAME."""

import os
import sys
import tempfile

from common import require_gpu

require_gpu()

import torch  # noqa: E402

import guarded_pairs  # noqa: E402


def main(argv):
    form, name = argv[1], argv[2]
    text = open(guarded_pairs.CASE + (".fixed" if form == "fixed" else "")).read()
    if form == "forced":
        text = text.replace("torch.zeros(", "torch.empty(")
    path = os.path.join(tempfile.mkdtemp(), f"{form}.py")
    open(path, "w").write(text)
    mod = guarded_pairs.load(path, f"guarded_{form}")
    guarded_pairs.call(mod, name)
    torch.cuda.synchronize()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
