"""alloclint: a static optimisation linter for PyTorch model code.

The package holds no Python logic: alloclint is one native binary that pip
installs as a script. This module only finds it, for ``python -m alloclint``.
"""

import os
import sys
import sysconfig

__all__ = ["find_alloclint_bin"]


def find_alloclint_bin() -> str:
    """The path of the alloclint binary installed with this package."""
    exe = "alloclint" + (sysconfig.get_config_var("EXE") or "")
    schemes = [None]
    if sys.version_info >= (3, 10):
        schemes.append(sysconfig.get_preferred_scheme("user"))
    else:
        schemes.append(os.name + "_user")
    for scheme in schemes:
        try:
            scripts = sysconfig.get_path("scripts", scheme) if scheme else sysconfig.get_path("scripts")
        except KeyError:
            continue
        path = os.path.join(scripts, exe)
        if os.path.isfile(path):
            return path
    # pip install --target DIR puts the scripts in DIR/bin beside the package.
    here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    path = os.path.join(here, "bin", exe)
    if os.path.isfile(path):
        return path
    raise FileNotFoundError(
        "alloclint's binary was not found beside this Python package "
        "(looked in " + sysconfig.get_path("scripts") + "); reinstall with `pip install alloclint`"
    )
