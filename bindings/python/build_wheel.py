#!/usr/bin/env python3
"""Builds the Python package's wheel with libswipedict inside (`make python`).

    build_wheel.py --library build/lib/libswipedict.so --out build/python [--check BLOB]

A wheel is a zip file with the package, a METADATA, a WHEEL and a RECORD file (PEP 427);
this script writes one with the standard library alone, so that no build backend has to be
downloaded. The wheel is tagged for this platform (the library is native code) and any
Python 3 (the package is pure Python over ctypes). With --check it installs the wheel into a
temporary directory with pip and opens BLOB through it.
"""

from __future__ import annotations

import argparse
import base64
import hashlib
import os
import subprocess
import sys
import sysconfig
import tempfile
import zipfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
NAME = "swipedict"
VERSION = "0.1.0"
SUMMARY = "Memory-mapped dictionaries for swipe keyboards, and a swipe decoder (SwipeDict's C API over ctypes)"


def metadata() -> str:
    readme = (HERE / "README.md").read_text(encoding="utf-8")
    return (
        "Metadata-Version: 2.1\n"
        f"Name: {NAME}\n"
        f"Version: {VERSION}\n"
        f"Summary: {SUMMARY}\n"
        "Requires-Python: >=3.9\n"
        "Provides-Extra: numpy\n"
        "Requires-Dist: numpy; extra == \"numpy\"\n"
        "Description-Content-Type: text/markdown\n"
        "\n" + readme
    )


def platform_tag() -> str:
    return sysconfig.get_platform().replace("-", "_").replace(".", "_")


def record_line(name: str, data: bytes) -> str:
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"{name},sha256={digest},{len(data)}"


def build(library: Path, out: Path) -> Path:
    tag = f"py3-none-{platform_tag()}"
    dist_info = f"{NAME}-{VERSION}.dist-info"
    files: list[tuple[str, bytes]] = []
    for source in sorted((HERE / NAME).iterdir()):
        if source.suffix == ".py" or source.name == "py.typed":
            files.append((f"{NAME}/{source.name}", source.read_bytes()))
    files.append((f"{NAME}/{library.name}", library.read_bytes()))
    files.append((f"{dist_info}/METADATA", metadata().encode()))
    wheel = f"Wheel-Version: 1.0\nGenerator: swipedict build_wheel.py\nRoot-Is-Purelib: false\nTag: {tag}\n"
    files.append((f"{dist_info}/WHEEL", wheel.encode()))
    record = "\n".join(record_line(name, data) for name, data in files) + f"\n{dist_info}/RECORD,,\n"
    files.append((f"{dist_info}/RECORD", record.encode()))

    out.mkdir(parents=True, exist_ok=True)
    path = out / f"{NAME}-{VERSION}-{tag}.whl"
    with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for name, data in files:
            info = zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0))  # the same bytes every build
            info.external_attr = (0o755 if name.endswith((".so", ".dylib")) else 0o644) << 16
            info.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(info, data)
    return path


def check(wheel: Path, blob: Path) -> None:
    """Installs the wheel into a temporary directory and opens `blob` through it."""
    with tempfile.TemporaryDirectory() as target:
        subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--no-index",
                        "--disable-pip-version-check", "--root-user-action=ignore", "--target", target, str(wheel)], check=True)
        code = (
            "import swipedict, sys; d = swipedict.Dictionary(sys.argv[1]); "
            "assert swipedict.__file__.startswith(sys.argv[2]); "
            "print('python: the wheel works:', d.lookup('hello'), d.complete('hel')[:3])"
        )
        environment = {k: v for k, v in os.environ.items() if k not in ("SWIPEDICT_LIBRARY", "PYTHONPATH")}
        environment["PYTHONPATH"] = target
        subprocess.run([sys.executable, "-c", code, str(blob.resolve()), target], check=True, env=environment, cwd=target)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--library", type=Path, required=True, help="libswipedict.so or .dylib (make capi)")
    parser.add_argument("--out", type=Path, required=True, help="the directory for the wheel")
    parser.add_argument("--check", type=Path, metavar="BLOB", help="install the wheel and open BLOB with it")
    arguments = parser.parse_args()
    wheel = build(arguments.library, arguments.out)
    print(f"python: {wheel} ({wheel.stat().st_size:,} bytes)")
    if arguments.check:
        check(wheel, arguments.check)


if __name__ == "__main__":
    main()
