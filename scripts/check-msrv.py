#!/usr/bin/env python3
"""Checks that every declared `rust-version` is true for the locked dependencies.

    python3 scripts/check-msrv.py            # the root workspace, fuzz/ and bindings/duckdb/
    python3 scripts/check-msrv.py --print    # also print the MSRV it found

For each workspace (the root one, and fuzz/ and bindings/duckdb/, which have their own Cargo.lock), it
reads `cargo metadata --locked` and, for every workspace member, walks the
member's locked dependency graph (normal, build and dev dependencies, for
every platform) and compares the `rust-version` of each dependency with the
member's own. It fails (exit 1) when:

  - a member declares no `rust-version`;
  - a locked dependency declares a newer `rust-version` than the member;
  - the members of the root workspace do not all declare the same value
    (the crates are built together, so one MSRV is the honest answer).

Dependencies that declare no `rust-version` cannot be checked this way; the
CI step also builds the workspace with the declared toolchain
(`cargo +<msrv> check --workspace --all-targets --locked`), which catches them
and the language/library features of our own code.
"""

import json
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MANIFESTS = ["Cargo.toml", "fuzz/Cargo.toml", "bindings/duckdb/Cargo.toml"]


def version_key(v):
    parts = []
    for p in v.split("."):
        digits = "".join(ch for ch in p if ch.isdigit())
        parts.append(int(digits or "0"))
    while len(parts) < 3:
        parts.append(0)
    return tuple(parts)


def metadata(manifest):
    out = subprocess.run(
        ["cargo", "metadata", "--format-version", "1", "--locked",
         "--manifest-path", os.path.join(ROOT, manifest)],
        check=True, stdout=subprocess.PIPE).stdout
    return json.loads(out)


def check(manifest, errors, found):
    m = metadata(manifest)
    packages = {p["id"]: p for p in m["packages"]}
    edges = {n["id"]: [d["pkg"] for d in n["deps"]] for n in m["resolve"]["nodes"]}
    members = m["workspace_members"]
    for member in members:
        pkg = packages[member]
        declared = pkg.get("rust_version")
        where = f"{manifest}: {pkg['name']}"
        if not declared:
            errors.append(f"{where} declares no rust-version")
            continue
        found.setdefault(manifest, set()).add(declared)
        seen, stack, undeclared, newest = set(), [member], [], None
        while stack:
            pid = stack.pop()
            if pid in seen:
                continue
            seen.add(pid)
            stack.extend(edges.get(pid, []))
            if pid == member:
                continue
            dep = packages[pid]
            rv = dep.get("rust_version")
            if not rv:
                if pid not in members:
                    undeclared.append(f"{dep['name']} {dep['version']}")
                continue
            if pid not in members and (newest is None or version_key(rv) > version_key(newest[0])):
                newest = (rv, f"{dep['name']} {dep['version']}")
            if version_key(rv) > version_key(declared):
                errors.append(
                    f"{where} declares rust-version {declared}, but the locked "
                    f"{dep['name']} {dep['version']} needs {rv}")
        line = f"{where}: rust-version {declared}; {len(seen) - 1} locked dependencies"
        if newest:
            line += f", the newest requirement is {newest[0]} ({newest[1]})"
        print(line)
        if undeclared:
            print(f"  without a rust-version (checked only by building): {', '.join(sorted(undeclared))}")


def main():
    errors, found = [], {}
    for manifest in MANIFESTS:
        check(manifest, errors, found)
    root = found.get("Cargo.toml", set())
    if len(root) > 1:
        errors.append(f"the root workspace members declare different rust-versions: {sorted(root)}")
    if errors:
        print("MSRV check failed:", file=sys.stderr)
        for e in errors:
            print(f"  - {e}", file=sys.stderr)
        return 1
    if "--print" in sys.argv[1:]:
        print("msrv=" + max(root, key=version_key))
    return 0


if __name__ == "__main__":
    sys.exit(main())
