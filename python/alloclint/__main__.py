"""``python -m alloclint ARGS``: runs the installed binary with ARGS."""

import os
import sys

from alloclint import find_alloclint_bin


def main() -> None:
    try:
        binary = find_alloclint_bin()
    except FileNotFoundError as e:
        print("alloclint: " + str(e), file=sys.stderr)
        sys.exit(2)
    if sys.platform == "win32":  # no exec there: wait and pass the status on
        import subprocess

        sys.exit(subprocess.call([binary, *sys.argv[1:]]))
    os.execv(binary, [binary, *sys.argv[1:]])


if __name__ == "__main__":
    main()
