#!/usr/bin/env python3
"""Turns the extension's shared library into a loadable DuckDB extension file.

DuckDB reads the last 512 bytes of an extension file before it loads it: 256
bytes of metadata, eight NUL-padded 32-byte fields, then 256 bytes of
signature. The fields, in file order: three unused, the ABI type, the
extension's version, the DuckDB (C API) version, the platform, and the magic
value "4". With ABI type "C_STRUCT" the version field is the oldest C
extension API the extension asks for, and every DuckDB release with that C
API or a newer one within the same major version loads the file. DuckDB's
own build writes the same footer (its append_extension_metadata script),
preceded by a WebAssembly custom-section header named "duckdb_signature"
that native loaders ignore; this script writes that header too, so that the
file has the same layout as DuckDB's.

The signature is left empty (zeros): DuckDB then loads the file only with
`SET allow_unsigned_extensions = true` (or `-unsigned` for the CLI).

    append_metadata.py LIBRARY OUTPUT [--platform P] [--capi-version v1.5.6]
                       [--extension-version V]
"""

import argparse
import platform as _platform
import shutil
import sys

FIELD = 32


def default_platform():
    """DuckDB's platform name for this machine (what `PRAGMA platform` says)."""
    system = sys.platform
    machine = _platform.machine().lower()
    arch = {"x86_64": "amd64", "amd64": "amd64", "aarch64": "arm64", "arm64": "arm64"}.get(
        machine, machine
    )
    if system.startswith("linux"):
        return f"linux_{arch}"
    if system == "darwin":
        return f"osx_{arch}"
    if system in ("win32", "cygwin"):
        return f"windows_{arch}"
    return f"{system}_{arch}"


def field(text):
    b = text.encode("ascii")
    if len(b) > FIELD:
        raise SystemExit(f"metadata field longer than {FIELD} bytes: {text!r}")
    return b + b"\0" * (FIELD - len(b))


def footer(platform, capi_version, extension_version):
    meta = (
        field("") * 3
        + field("C_STRUCT")
        + field(extension_version)
        + field(capi_version)
        + field(platform)
        + field("4")
    )
    assert len(meta) == 256
    # WebAssembly custom section: id 0, payload size 531 (LEB128), name of
    # 16 bytes "duckdb_signature", then the 512 bytes (LEB128 of 512).
    header = b"\x00" + b"\x93\x04" + b"\x10" + b"duckdb_signature" + b"\x80\x04"
    return header + meta + b"\0" * 256


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("library")
    ap.add_argument("output")
    ap.add_argument("--platform", default=default_platform())
    ap.add_argument("--capi-version", default="v1.5.6")
    ap.add_argument("--extension-version", default="0.1.0")
    a = ap.parse_args(argv)
    shutil.copyfile(a.library, a.output)
    with open(a.output, "ab") as f:
        f.write(footer(a.platform, a.capi_version, a.extension_version))
    print(f"{a.output}: {a.platform}, C API {a.capi_version}, wurl {a.extension_version}")


if __name__ == "__main__":
    main()
