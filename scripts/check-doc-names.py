#!/usr/bin/env python3
"""Fails when docs/ARCHITECTURE.md names an item of src/ that does not exist.

Every `module::item` (also `module::sub::item`, `Type::item` for the record's
types) written in backticks in the document must name a function, type,
constant, static, module, field or variant defined in that module's file (or
folder, src/NAME/), so that a rename or a move that forgets the document
fails CI rather than leaving a claim about code that is gone.

usage: python3 scripts/check-doc-names.py [DOC] [SRC_DIR]
"""
import pathlib
import re
import sys

doc = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else "docs/ARCHITECTURE.md")
src = pathlib.Path(sys.argv[2] if len(sys.argv) > 2 else "src")

# Types named by their own name; their items may be defined in any module (`impl Url` in state).
TYPES = {"Url", "Record", "Parts", "Note", "Scheme", "Component", "Span", "Verified", "Stop"}


def files_of(module_path):
    """The files of `a::b` under src/: src/a/b.rs, src/a/b/mod.rs, else src/a.rs or src/a/."""
    p = src.joinpath(*module_path)
    out = [q for q in (p.with_suffix(".rs"), p / "mod.rs") if q.is_file()]
    if p.is_dir():
        out += sorted(p.rglob("*.rs"))
    return out


def defines(files, name):
    pat = re.compile(
        rf"\b(fn|struct|enum|trait|const|static|type|mod|macro_rules!)\s+{re.escape(name)}\b"
        rf"|^\s*(pub(\([a-z]+\))?\s+)?{re.escape(name)}\s*[:(,{{=]"
        rf"|\b{re.escape(name)}!\s*\{{|^\s*{re.escape(name)}\s*[,({{=]"
        rf"|^\s*pub(\([a-z]+\))?\s+use\s[^;]*\b{re.escape(name)}\b[^;]*;",
        re.M,
    )
    return any(pat.search(f.read_text(encoding="utf-8")) for f in files)


text = doc.read_text(encoding="utf-8")
missing = []
checked = 0
for code in re.findall(r"`([^`\n]+)`", text):
    # A name followed by `*` (`scan::find*`) is a family: not checked.
    for ref in re.findall(r"\b([A-Za-z_][A-Za-z0-9_]*(?:::[A-Za-z_][A-Za-z0-9_]*)+)(?![A-Za-z0-9_*])", code):
        parts = ref.split("::")
        head = parts[0]
        if head in ("crate", "std", "core"):
            continue
        if head in TYPES:
            files, name = sorted(src.rglob("*.rs")), parts[-1]
        elif files_of([head]):
            # The longest module path that exists, then the item in it (or the module itself).
            k = len(parts)
            while k > 1 and not files_of(parts[:k]):
                k -= 1
            files = files_of(parts[:k])
            if k == len(parts):
                checked += 1
                continue
            name = parts[k]
        else:
            continue
        checked += 1
        if not defines(files, name):
            missing.append(ref)
if missing:
    print(f"{doc}: names that src/ does not define:", file=sys.stderr)
    for m in sorted(set(missing)):
        print(f"  {m}", file=sys.stderr)
    sys.exit(1)
print(f"{doc}: {checked} names of src/ checked, all defined")
