#!/usr/bin/env python3
"""Counts the instructions of each linearity case of tests/adversarial.rs.

    python3 scripts/linearity.py [--release] [--ratio R] [TEST_NAME ...]

Every case calls `linear_probe` on an input of size N, then on one of size
4N (`assert_linear`). This builds the
test binary, runs the tests that hold a case under callgrind, one thread,
with WURL_LINEAR_PROBES=1, zeroing the counts before each probe and dumping
them after it, and checks for each case that the large input took at most R
(default 5: linear work gives 4 and a constant) times the instructions of
the small one; quadratic work gives 16.
Instructions, unlike times, do not change with the load of the machine: the
same build gives the same counts. Exits 1 when a case is above R, or when a
test named no case or the dumps do not pair with the cases.
"""

import argparse
import glob
import json
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def test_binary(release):
    cmd = ["cargo", "test", "-p", "wurl-canon", "--test", "adversarial", "--no-run",
           "--message-format=json"]
    if release:
        cmd.insert(2, "--release")
    out = subprocess.run(cmd, cwd=ROOT, check=True, stdout=subprocess.PIPE, text=True).stdout
    for line in out.splitlines():
        msg = json.loads(line)
        if msg.get("reason") == "compiler-artifact" and msg.get("executable") \
                and msg["target"]["name"] == "adversarial":
            return msg["executable"]
    sys.exit("linearity: no adversarial test binary in cargo's output")


def tests_with_cases():
    """The #[test] functions of tests/adversarial.rs whose body calls assert_linear."""
    names, current, pending = [], None, False
    with open(os.path.join(ROOT, "tests", "adversarial.rs"), encoding="utf-8") as f:
        for line in f:
            if line.strip() == "#[test]":
                pending = True
                continue
            m = re.match(r"\s*fn (\w+)\(", line)
            if m and pending:
                current, pending = m.group(1), False
                continue
            if current and "assert_linear(" in line and current not in names:
                names.append(current)
            if line.startswith("}"):
                current = None
    return names


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[1])
    ap.add_argument("--release", action="store_true", help="count a release build")
    ap.add_argument("--ratio", type=float, default=5.0)
    ap.add_argument("tests", nargs="*")
    args = ap.parse_args()
    names = args.tests or tests_with_cases()
    if not names:
        sys.exit("linearity: no test calls assert_linear")
    exe = test_binary(args.release)
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "cg")
        cmd = ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}",
               "--zero-before=*::linear_probe", "--dump-after=*::linear_probe",
               exe, "--test-threads=1", "--nocapture", "--exact", *names]
        env = dict(os.environ, WURL_LINEAR_PROBES="1")
        run = subprocess.run(cmd, cwd=ROOT, env=env, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True)
        if run.returncode != 0:
            sys.stderr.write(run.stdout[-4000:] + run.stderr[-4000:])
            sys.exit(f"linearity: the tests failed under callgrind (status {run.returncode})")
        cases = [l.split("\t")[1:] for l in run.stderr.splitlines() if l.startswith("linear-probe\t")]
        dumps = []
        for path in glob.glob(out + ".*"):
            with open(path, encoding="utf-8", errors="replace") as f:
                text = f.read()
            part = re.search(r"^part: (\d+)", text, re.M)
            trig = re.search(r"^desc: Trigger: (.*)$", text, re.M)
            # totals: the instructions since the zeroing before the probe.
            total = re.search(r"^totals: (\d+)", text, re.M)
            if part and trig and total and "linear_probe" in trig.group(1):
                dumps.append((int(part.group(1)), trig.group(1), int(total.group(1))))
        dumps.sort()
    if len(dumps) != 2 * len(cases) or not cases:
        sys.exit(f"linearity: {len(cases)} cases but {len(dumps)} probe dumps")
    worst, failed = 0.0, []
    for k, (name, small_len, big_len) in enumerate(cases):
        (_, _, a), (_, _, b) = dumps[2 * k], dumps[2 * k + 1]
        ratio = b / max(a, 1)
        worst = max(worst, ratio)
        verdict = "ok" if ratio <= args.ratio else "SUPERLINEAR"
        print(f"{name:24} {small_len:>8} B {a:>12} instr   {big_len:>8} B {b:>12} instr"
              f"   x{ratio:5.2f}  {verdict}")
        if ratio > args.ratio:
            failed.append(name)
    print(f"{len(cases)} cases from {len(names)} tests; largest ratio {worst:.2f} (limit {args.ratio})")
    if failed:
        sys.exit(f"linearity: superlinear instruction counts: {', '.join(failed)}")


if __name__ == "__main__":
    main()
