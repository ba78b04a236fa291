"""The build backend of alloclint's pre-commit hook repository: a wheel
with no code whose one requirement is alloclint itself, pinned to the
version these hooks were released with (the alloclint repository's
VERSION; its tests check that the two agree)."""

import base64
import hashlib
import os
import zipfile

NAME = "alloclint_pre_commit"
VERSION = "0.1.0"
REQUIRES = "alloclint==" + VERSION


def get_requires_for_build_wheel(config_settings=None):
    return []


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    dist_info = "%s-%s.dist-info" % (NAME, VERSION)
    files = {
        dist_info + "/METADATA": (
            "Metadata-Version: 2.1\n"
            "Name: alloclint-pre-commit\n"
            "Version: %s\n"
            "Summary: pre-commit hooks for alloclint\n"
            "Requires-Dist: %s\n" % (VERSION, REQUIRES)),
        dist_info + "/WHEEL": (
            "Wheel-Version: 1.0\n"
            "Generator: hook_build\n"
            "Root-Is-Purelib: true\n"
            "Tag: py3-none-any\n"),
    }
    record = []
    name = "%s-%s-py3-none-any.whl" % (NAME, VERSION)
    with zipfile.ZipFile(os.path.join(wheel_directory, name), "w", zipfile.ZIP_DEFLATED) as z:
        for arcname, text in files.items():
            data = text.encode("utf-8")
            z.writestr(zipfile.ZipInfo(arcname, date_time=(1980, 1, 1, 0, 0, 0)), data)
            digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
            record.append("%s,sha256=%s,%d" % (arcname, digest, len(data)))
        record.append(dist_info + "/RECORD,,")
        z.writestr(zipfile.ZipInfo(dist_info + "/RECORD", date_time=(1980, 1, 1, 0, 0, 0)),
                   "\n".join(record) + "\n")
    return name
