#!/usr/bin/env python3
"""Fails when the modules of src/ import each other in a cycle.

Every top-level module of src/ (a file src/NAME.rs) may use modules below it
only: the rules and the record at the bottom, the stages above them in the
order of the algorithm, the entry layer, then the C ABI. A module's imports
are its `crate::NAME` paths (also inside `use crate::{...}` groups) outside
comments and outside its `#[cfg(test)]` module (tests may reach anywhere).

A module may also be a folder src/NAME/ (mod.rs and its files): its imports
are those of all its files, less its own.

Only `api` knows the fast exits: a module other than `api` that imports
`fast` or `hint` (outside its tests) is an error, the stages above all
(preprocess, parse, resolve, canonicalize, serialize, host, path, record).
What the recognizer found (`fast::hint`) lives inside src/fast/; a record
keeps it as one opaque note that only `fast` reads and writes, and a
top-level `hint` module, were one added back, would be refused as well.

Prints each module's level (0: imports no other module; n: one more than
the highest module it imports), lowest first, and exits 1 with the modules
left on a cycle when there is one, or with the modules that import `fast`.

With --self-test, checks the check itself: on a copy of SRC_DIR where
`parse` imports `fast`, then on one where `serialize` imports `hint`, it
must fail and name the importer (CI runs it, so its output shows each
refusal once).

usage: python3 scripts/check-layers.py [--self-test] [SRC_DIR]
"""
import pathlib
import re
import shutil
import subprocess
import sys
import tempfile

args = [a for a in sys.argv[1:] if a != "--self-test"]
if len(args) < len(sys.argv) - 1:
    cases = [
        ("parse", "use crate::fast::on as _;\n"),
        ("serialize", "use crate::hint::Stop as _;\n"),
    ]
    for module, line in cases:
        with tempfile.TemporaryDirectory() as tmp:
            copy = pathlib.Path(tmp) / "src"
            shutil.copytree(args[0] if args else "src", copy)
            f = copy / f"{module}.rs"
            f.write_text(line + f.read_text(encoding="utf-8"))
            r = subprocess.run([sys.executable, __file__, str(copy)], capture_output=True, text=True)
            print(f"self-test: `{line.strip()}` added to {module}.rs; the check says:")
            print("  " + r.stderr.strip().replace("\n", "\n  "))
            if r.returncode != 1 or f"imported by: {module}" not in r.stderr:
                print("self-test FAILED: the check did not refuse the import", file=sys.stderr)
                sys.exit(1)
            print("self-test: refused (exit 1), as it must be")
    sys.exit(0)

src = pathlib.Path(args[0] if args else "src")
names = sorted(p.stem for p in src.glob("*.rs") if p.stem not in ("lib", "main"))
folders = sorted(p.name for p in src.iterdir() if (p / "mod.rs").is_file())
names = sorted(names + folders)

# Only `api` may import the fast exits, or what they note (`hint`, whether a
# module of that name exists at the top or not).
FAST = "fast"
FORBIDDEN = ("fast", "hint")
FAST_IMPORTERS = {"api"}


def uses(code):
    """The `crate::NAME` modules that `code` uses, outside its tests and
    comments."""
    test = re.search(r"^#\[cfg\(test\)\]\s*\n\s*mod \w+ \{", code, re.M)
    if test:
        code = code[: test.start()]
    code = re.sub(r"//[^\n]*", "", code)
    found = set(re.findall(r"\bcrate::([a-z_][a-z0-9_]*)", code))
    for group in re.findall(r"\bcrate::\{([^}]*)\}", code, re.S):
        found |= set(re.findall(r"(?:^|[\s,{])([a-z_][a-z0-9_]*)::", group))
    # `use crate::{fast, ...}` and `crate::{self as x, fast}`: bare names.
    for group in re.findall(r"\bcrate::\{([^}]*)\}", code, re.S):
        found |= {w for w in re.findall(r"(?:^|[\s,{])([a-z_][a-z0-9_]*)\s*(?=[,}]|$)", group)}
    return found


imports = {}
forbidden = {}
for name in names:
    files = sorted((src / name).rglob("*.rs")) if name in folders else [src / f"{name}.rs"]
    found = set()
    for f in files:
        found |= uses(f.read_text(encoding="utf-8"))
    imports[name] = {m for m in found if m in names and m != name}
    forbidden[name] = {m for m in found if m in FORBIDDEN and m != name}

# Levels by repeatedly taking the modules whose imports all have a level.
level = {}
while len(level) < len(names):
    ready = [m for m in names if m not in level and imports[m] <= level.keys()]
    if not ready:
        break
    for m in ready:
        level[m] = 1 + max((level[d] for d in imports[m]), default=-1)

for m in sorted(level, key=lambda m: (level[m], m)):
    below = ", ".join(sorted(imports[m])) or "-"
    print(f"{level[m]:2}  {m:24} {below}")

left = [m for m in names if m not in level]
# What remains is on a cycle or above one: peel off from the top the modules
# that no remaining module imports.
while True:
    top = [m for m in left if not any(m in imports[o] for o in left if o != m)]
    if not top:
        break
    left = [m for m in left if m not in top]
failed = False
if left:
    print("\nimport cycle among: " + " ".join(left), file=sys.stderr)
    for m in left:
        print(f"  {m} -> {', '.join(sorted(imports[m] & set(left)))}", file=sys.stderr)
    failed = True
for what in FORBIDDEN:
    knowing = sorted(m for m in names if what in forbidden[m] and m not in FAST_IMPORTERS)
    if knowing:
        print(
            f"\nonly {', '.join(sorted(FAST_IMPORTERS))} may import `{what}` "
            f"(the fast exits, what they note); imported by: {' '.join(knowing)}",
            file=sys.stderr,
        )
        failed = True
if failed:
    sys.exit(1)
print(f"\n{len(names)} modules, no import cycle, `{FAST}` imported by api alone, no `hint` import")
