#!/usr/bin/python3
"""Sources that register nothing read as nothing: no error, no warning, no entry.

    unrelated_sources.py --tool build/dispatchtool

The pre-commit hook (`.pre-commit-hooks.yaml`) hands every staged .py and C++
file to `dispatchtool lint`, so the readers must take any real source: this
runs `dispatchtool import` over every module of the running Python's standard
library that CPython itself compiles (its own compile() is the oracle: a
module it refuses, such as lib2to3's Python 2 test data, is left out) and every
C/C++ header under /usr/include that is not PyTorch's
(ATen/, c10/, torch/, caffe2/ hold registration macros, which are warnings by
design), in batches of files per call, and checks that each call exits 0,
prints nothing on standard error and translates no entry (only the `# read
by` comment). Fewer files than expected (a machine without the standard
library or headers) fails: this test never passes on nothing.
"""
import argparse
import os
import subprocess
import sys
import sysconfig
import warnings

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from checks import Checks  # noqa: E402

BATCH = 400
TORCH_DIRS = ("ATen", "c10", "torch", "caffe2")


def compiles(path):
    with open(path, "rb") as f:
        source = f.read()
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # SyntaxWarning ('"is" with a literal') in test data
            compile(source, path, "exec", dont_inherit=True)
        return True
    except (SyntaxError, ValueError):
        return False


def python_stdlib():
    root = sysconfig.get_paths()["stdlib"]
    out = []
    for d, dirs, files in os.walk(root):
        dirs[:] = sorted(x for x in dirs if x not in ("site-packages", "dist-packages", "__pycache__"))
        out += [os.path.join(d, f) for f in sorted(files) if f.endswith(".py")]
    kept = [f for f in out if compiles(f)]
    print(f"{root}: {len(out)} modules, {len(out) - len(kept)} that CPython does not compile left out")
    return root, kept


def system_headers():
    root = "/usr/include"
    out = []
    for d, dirs, files in os.walk(root):
        if d == root:
            dirs[:] = [x for x in dirs if x not in TORCH_DIRS]
        dirs.sort()
        out += [os.path.join(d, f) for f in sorted(files) if f.endswith((".h", ".hpp"))]
    return root, out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tool", required=True)
    a = ap.parse_args()
    checks = Checks()
    for what, (root, files), least in [("Python modules", python_stdlib(), 400),
                                       ("C and C++ headers", system_headers(), 1000)]:
        checks.check(len(files) >= least, f"{len(files)} {what} under {root} (at least {least} expected)")
        bad = 0
        for i in range(0, len(files), BATCH):
            batch = files[i:i + BATCH]
            r = subprocess.run([a.tool, "import", *batch], capture_output=True, text=True, errors="replace")
            entries = [line for line in r.stdout.splitlines() if line and not line.startswith("#")]
            ok = r.returncode == 0 and not r.stderr and not entries
            if not ok:
                bad += 1
                print(f"FAIL {what} {batch[0]} .. {batch[-1]}: exit {r.returncode}\n{r.stderr[:2000]}"
                      f"{chr(10).join(entries[:20])}")
        checks.check(bad == 0, f"{what}: every batch reads as nothing ({bad} batches did not)")
    print(f"{checks.passed} passed, {checks.failed} failed")
    return 1 if checks.failed else 0


if __name__ == "__main__":
    sys.exit(main())
