"""alloclint's PEP 517 build backend.

Standard library only, so that pip and python3-build build alloclint with
build isolation and no package index (``requires = []`` in pyproject.toml).

- ``build_wheel`` packs an alloclint that CMake built: the folder named by
  ``ALLOCLINT_BUILD_DIR`` (scripts/release.sh passes its release build),
  else a build made here with CMake from these sources against the
  machine's libraries (``pip install`` of the source archive). The wheel
  holds the binary as a script, its man page, bash completion and rule
  pages as data, and the ``alloclint`` module behind ``python -m
  alloclint``. Its platform tag is read off the binary: manylinux_2_N when
  it needs only the C library's own shared objects and glibc 2.N at most,
  else ``linux_<arch>`` (installable only where it was built, as pip tags
  any local build).
- ``build_sdist`` packs the tracked sources, and the pinned grammar sources
  the configure step verified, so that building from the archive needs no
  npm.

One version: the file VERSION, which CMake reads too.
"""

import base64
import hashlib
import io
import os
import shutil
import stat
import struct
import subprocess
import sys
import tarfile
import tempfile
import zipfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
NAME = "alloclint"
SUMMARY = (
    "A static optimisation linter for PyTorch model code: zero fills that are "
    "overwritten, cat with zeros, allocations in loops; proved fixes as a diff"
)
LICENSE = "Apache-2.0"
REQUIRES_PYTHON = ">=3.7"
# Where the project lives (README, "Installing"); one place for every file
# that names it.
PROJECT_URLS = [
    ("Homepage", "https://github.com/alloclint/alloclint"),
    ("Documentation", "https://github.com/alloclint/alloclint#readme"),
    ("Issues", "https://github.com/alloclint/alloclint/issues"),
    ("Changelog", "https://github.com/alloclint/alloclint/commits/main"),
]
CLASSIFIERS = [
    "Development Status :: 4 - Beta",
    "Environment :: Console",
    "Intended Audience :: Developers",
    "License :: OSI Approved :: Apache Software License",
    "Operating System :: POSIX :: Linux",
    "Programming Language :: C",
    "Programming Language :: Python",
    "Topic :: Software Development :: Quality Assurance",
]
KEYWORDS = "pytorch,linter,static-analysis,cuda,triton,memory"

# Shared objects that every glibc system has (PEP 600's policy for
# manylinux): a binary that needs only these is portable down to its glibc.
C_LIBRARY = {
    "libc.so.6",
    "libm.so.6",
    "libpthread.so.0",
    "libdl.so.2",
    "librt.so.1",
    "ld-linux-x86-64.so.2",
}
# Zip timestamps: fixed, so that one binary always makes the same wheel.
EPOCH = (1980, 1, 1, 0, 0, 0)


def version():
    with open(os.path.join(ROOT, "VERSION"), encoding="utf-8") as f:
        return f.read().strip()


# --- PEP 517 hooks ---------------------------------------------------------


def get_requires_for_build_wheel(config_settings=None):
    return []


def get_requires_for_build_sdist(config_settings=None):
    return []


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    build_dir = _setting(config_settings, "build-dir", "ALLOCLINT_BUILD_DIR")
    scratch = None
    try:
        if not build_dir:
            scratch = tempfile.mkdtemp(prefix="alloclint-build-")
            build_dir = _cmake_build(scratch)
        return write_wheel(build_dir, wheel_directory)
    finally:
        if scratch:
            shutil.rmtree(scratch, ignore_errors=True)


def build_sdist(sdist_directory, config_settings=None):
    ver = version()
    base = "%s-%s" % (NAME, ver)
    path = os.path.join(sdist_directory, base + ".tar.gz")
    grammar_dir = _setting(config_settings, "grammar-dir", "ALLOCLINT_GRAMMAR_DIR")
    files = _source_files()
    with tarfile.open(path, "w:gz", format=tarfile.PAX_FORMAT) as tar:
        for rel in files:
            _add_to_tar(tar, os.path.join(ROOT, rel), base + "/" + rel)
        if grammar_dir and not os.path.isdir(os.path.join(ROOT, "grammars", "fetched")):
            for rel in _verified_grammars(grammar_dir):
                _add_to_tar(tar, os.path.join(grammar_dir, rel), base + "/grammars/fetched/" + rel)
        _add_bytes_to_tar(tar, base + "/PKG-INFO", metadata(ver).encode("utf-8"), 0o644)
    return os.path.basename(path)


# --- The wheel ---------------------------------------------------------------


def metadata(ver):
    lines = [
        "Metadata-Version: 2.1",
        "Name: " + NAME,
        "Version: " + ver,
        "Summary: " + SUMMARY,
        "Keywords: " + KEYWORDS,
        "License: " + LICENSE,
        "Requires-Python: " + REQUIRES_PYTHON,
        "Description-Content-Type: text/markdown",
    ]
    lines += ["Project-URL: %s, %s" % url for url in PROJECT_URLS]
    lines += ["Classifier: " + c for c in CLASSIFIERS]
    with open(os.path.join(ROOT, "README.md"), encoding="utf-8") as f:
        readme = f.read()
    return "\n".join(lines) + "\n\n" + readme


def write_wheel(build_dir, wheel_directory):
    """Packs BUILD_DIR's alloclint into a wheel in WHEEL_DIRECTORY; returns
    the wheel's file name."""
    ver = version()
    binary = os.path.join(build_dir, "alloclint")
    if not os.path.isfile(binary):
        raise RuntimeError("no alloclint binary in %s (build it first)" % build_dir)
    tag = platform_tag(binary)
    dist_info = "%s-%s.dist-info" % (NAME, ver)
    data = "%s-%s.data" % (NAME, ver)
    entries = []

    def add(arcname, path=None, content=None, mode=0o644):
        if content is None:
            with open(path, "rb") as f:
                content = f.read()
        entries.append((arcname, content, mode))

    add(data + "/scripts/alloclint", binary, mode=0o755)
    for name, dest in (("alloclint.1", "share/man/man1/alloclint.1"),
                       ("alloclint.bash", "share/bash-completion/completions/alloclint")):
        src = os.path.join(build_dir, name)
        if not os.path.isfile(src):
            raise RuntimeError("no %s in %s (the docs target makes it)" % (name, build_dir))
        add(data + "/data/" + dest, src)
    rules = os.path.join(ROOT, "rules")
    for page in sorted(os.listdir(rules)):
        if page.startswith("AL") and page.endswith(".md"):
            add(data + "/data/share/doc/alloclint/rules/" + page, os.path.join(rules, page))
    package = os.path.join(ROOT, "python", "alloclint")
    for module in sorted(os.listdir(package)):
        if module.endswith(".py"):
            add("alloclint/" + module, os.path.join(package, module))
    add(dist_info + "/METADATA", content=metadata(ver).encode("utf-8"))
    add(dist_info + "/WHEEL", content=(
        "Wheel-Version: 1.0\n"
        "Generator: alloclint_build (%s)\n"
        "Root-Is-Purelib: false\n"
        "Tag: py3-none-%s\n" % (ver, tag)).encode("utf-8"))
    add(dist_info + "/licenses/LICENSE", os.path.join(ROOT, "LICENSE"))

    name = "%s-%s-py3-none-%s.whl" % (NAME, ver, tag)
    os.makedirs(wheel_directory, exist_ok=True)
    path = os.path.join(wheel_directory, name)
    tmp = path + ".part"
    # The dist-info folder last, RECORD last of all (the wheel spec's order).
    entries.sort(key=lambda e: (e[0].startswith(dist_info), e[0]))
    record = []
    with zipfile.ZipFile(tmp, "w", zipfile.ZIP_DEFLATED) as z:
        for arcname, content, mode in entries:
            _write_zip_entry(z, arcname, content, mode)
            digest = base64.urlsafe_b64encode(hashlib.sha256(content).digest()).rstrip(b"=")
            record.append("%s,sha256=%s,%d" % (arcname, digest.decode("ascii"), len(content)))
        record.append(dist_info + "/RECORD,,")
        _write_zip_entry(z, dist_info + "/RECORD", ("\n".join(record) + "\n").encode("utf-8"), 0o644)
    os.replace(tmp, path)
    return name


def _write_zip_entry(z, arcname, content, mode):
    info = zipfile.ZipInfo(arcname, date_time=EPOCH)
    info.external_attr = (stat.S_IFREG | mode) << 16
    info.compress_type = zipfile.ZIP_DEFLATED
    z.writestr(info, content, compresslevel=9)


# --- What the binary needs: its platform tag ---------------------------------


def elf_needs(path):
    """(machine, [DT_NEEDED names], {GLIBC_x.y versions}) of an ELF64
    little-endian executable, from its section headers."""
    with open(path, "rb") as f:
        elf = f.read()
    if elf[:4] != b"\x7fELF" or elf[4] != 2 or elf[5] != 1:
        raise RuntimeError("%s is not a 64-bit little-endian ELF file" % path)
    machine = struct.unpack_from("<H", elf, 18)[0]
    shoff = struct.unpack_from("<Q", elf, 40)[0]
    shentsize, shnum = struct.unpack_from("<HH", elf, 58)
    sections = []
    for i in range(shnum):
        (_, sh_type, _, _, sh_offset, sh_size, sh_link, _, _, _) = struct.unpack_from(
            "<IIQQQQIIQQ", elf, shoff + i * shentsize)
        sections.append((sh_type, sh_offset, sh_size, sh_link))

    def string(table, offset):
        start = sections[table][1] + offset
        return elf[start:elf.index(b"\0", start)].decode("ascii", "replace")

    needed, glibc = [], set()
    for sh_type, offset, size, link in sections:
        if sh_type == 6:  # SHT_DYNAMIC
            for at in range(offset, offset + size, 16):
                tag, val = struct.unpack_from("<qQ", elf, at)
                if tag == 0:
                    break
                if tag == 1:  # DT_NEEDED
                    needed.append(string(link, val))
        elif sh_type == 0x6FFFFFFE:  # SHT_GNU_verneed
            at = offset
            while True:
                _, cnt, _, aux, nxt = struct.unpack_from("<HHIII", elf, at)
                a = at + aux
                for _ in range(cnt):
                    _, _, _, name, anext = struct.unpack_from("<IHHII", elf, a)
                    ver = string(link, name)
                    if ver.startswith("GLIBC_2."):
                        glibc.add(ver)
                    a += anext
                if not nxt:
                    break
                at += nxt
    return machine, needed, glibc


def glibc_floor(versions):
    """The highest GLIBC_2.N in VERSIONS, as (2, N)."""
    return max((tuple(int(x) for x in v[len("GLIBC_"):].split(".")[:2]) for v in versions),
               default=(2, 5))


def platform_tag(binary):
    machine, needed, glibc = elf_needs(binary)
    arch = {62: "x86_64", 183: "aarch64"}.get(machine)
    if arch is None:
        raise RuntimeError("%s: unknown ELF machine %d" % (binary, machine))
    foreign = [n for n in needed if n not in C_LIBRARY and not n.startswith("ld-linux")]
    if foreign:
        # Shared libraries of the build machine: the wheel installs there only.
        return "linux_" + arch
    major, minor = glibc_floor(glibc)
    return "manylinux_%d_%d_%s" % (major, minor, arch)


# --- Building from the sources ---------------------------------------------


def _setting(config_settings, key, env):
    value = (config_settings or {}).get(key) or os.environ.get(env)
    return os.path.abspath(value) if value else None


def _cmake_build(scratch):
    """Builds alloclint and its man page with CMake into SCRATCH, against
    the machine's libraries (README: building from source)."""
    if not shutil.which("cmake"):
        raise RuntimeError("building alloclint from source needs CMake >= 3.25 and a C compiler "
                           "(and libcjson, libgit2, libxxhash): see README, Building from source")
    args = ["cmake", "-S", ROOT, "-B", scratch, "-DALLOCLINT_TESTS=OFF",
            "-DCMAKE_BUILD_TYPE=RelWithDebInfo"]
    fetched = os.path.join(ROOT, "grammars", "fetched")
    if os.path.isdir(fetched):
        args.append("-DALLOCLINT_GRAMMAR_DIR=" + fetched)
    jobs = str(os.cpu_count() or 2)
    for cmd in (args, ["cmake", "--build", scratch, "-j", jobs, "--target", "alloclint", "docs"]):
        print("alloclint build: " + " ".join(cmd), file=sys.stderr)
        subprocess.run(cmd, check=True, stdout=sys.stderr)
    return scratch


def _source_files():
    """The files of the source archive: git's tracked files in a checkout,
    else (an unpacked source archive) every file but builds and caches."""
    if os.path.isdir(os.path.join(ROOT, ".git")) and shutil.which("git"):
        out = subprocess.run(["git", "-C", ROOT, "ls-files", "-z"], check=True,
                             stdout=subprocess.PIPE).stdout
        return sorted(p for p in out.decode("utf-8").split("\0")
                      if p and os.path.isfile(os.path.join(ROOT, p)))
    files = []
    for top, dirs, names in os.walk(ROOT):
        rel_top = os.path.relpath(top, ROOT)
        dirs[:] = sorted(d for d in dirs if not (
            rel_top == "." and (d.startswith("build") or d in ("dist", ".git")))
            and d != "__pycache__")
        for n in sorted(names):
            rel = os.path.normpath(os.path.join(rel_top, n))
            if rel != "PKG-INFO":
                files.append(rel)
    return files


def _verified_grammars(grammar_dir):
    """The grammar sources that grammars/fetch.sh verified under
    GRAMMAR_DIR (each folder with its .verified stamp)."""
    files = []
    for name in sorted(os.listdir(grammar_dir)):
        folder = os.path.join(grammar_dir, name)
        if not os.path.isfile(os.path.join(folder, ".verified")):
            continue
        for top, dirs, names in os.walk(folder):
            dirs.sort()
            for n in sorted(names):
                files.append(os.path.relpath(os.path.join(top, n), grammar_dir))
    if not files:
        raise RuntimeError("no verified grammar sources in %s" % grammar_dir)
    return files


def _add_to_tar(tar, path, arcname):
    with open(path, "rb") as f:
        content = f.read()
    mode = 0o755 if os.stat(path).st_mode & stat.S_IXUSR else 0o644
    _add_bytes_to_tar(tar, arcname, content, mode)


def _add_bytes_to_tar(tar, arcname, content, mode):
    info = tarfile.TarInfo(arcname)
    info.size = len(content)
    info.mode = mode
    info.mtime = int(os.environ.get("SOURCE_DATE_EPOCH", "315532800"))
    info.uname = info.gname = ""
    tar.addfile(info, io.BytesIO(content))
