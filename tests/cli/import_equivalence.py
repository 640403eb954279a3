#!/usr/bin/env python3
"""`import` prints what every command loads: for each C++, Python and yaml
source of the repository (the shipped examples, the oracles' pattern files,
2.6's and 2.14's native_functions.yaml, and every such input file of the
golden CLI cases), the TOML that `import` prints must load to the same
registrations and the same runtime table as the source itself:

    TOOL registrations --raw --no-library SRC  ==  ... (TOOL import SRC)
    TOOL table --raw --no-library SRC          ==  ... (TOOL import SRC)

byte for byte once "registered at FILE:LINE" (the source's location, or the
TOML's) is set aside, with the same exit status. `import` itself checks the
blocks it read, not its printed text (cmd_import.cpp: check_loads); this is
the check that the text says the same.

    import_equivalence.py --tool build/dispatchtool

Exit 0 iff every source agrees and at least --min sources were compared.
"""
import argparse
import glob
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SOURCE = re.compile(r"\.(cpp|cc|cxx|cu|cuh|hip|h|hpp|py|yaml|yml)$")
REGISTERED = re.compile(r"registered at \S+")


def repo_sources():
    """(path, profile, cwd) of the repository's own source files."""
    out = []
    pats = ["configs/examples/**/*.py", "tests/oracle/cpp_ext/*.cpp", "tests/oracle/py_modules/*.py",
            "tests/oracle/py_modules/pyr_helpers/*.py"]
    for pat in pats:
        for p in sorted(glob.glob(os.path.join(ROOT, pat), recursive=True)):
            out.append((p, "torch-2.14", os.path.dirname(p)))
    for rel in ("torch-2.6", "torch-2.14"):
        out.append((os.path.join(ROOT, "configs", "yaml", rel, "native_functions.yaml"), rel, ROOT))
    return out


def case_sources(tmp):
    """The C++, Python and yaml input files of the golden CLI cases, written out."""
    out = []
    for case in sorted(glob.glob(os.path.join(ROOT, "tests", "cli", "cases", "*.test"))):
        name, files, cur = os.path.basename(case)[:-5], {}, None
        with open(case, encoding="utf-8") as f:
            for line in f:
                if line.startswith("--- "):
                    head = line[4:].rstrip("\n")
                    cur = head[len("file: "):] if head.startswith("file: ") else None
                    if cur is not None:
                        files[cur] = []
                elif cur is not None:
                    files[cur].append(line)
        if not any(SOURCE.search(n) for n in files):
            continue
        d = os.path.join(tmp, name)
        for n, body in files.items():
            p = os.path.join(d, n)
            os.makedirs(os.path.dirname(p), exist_ok=True)
            with open(p, "w", encoding="utf-8") as f:
                f.write("".join(body))
        for n in sorted(files):
            if SOURCE.search(n) and not n.endswith((".h", ".hpp")):
                out.append((os.path.join(d, n), "torch-2.14", d))
    return out


def run(args, cwd):
    r = subprocess.run(args, cwd=cwd, capture_output=True)
    return r.returncode, REGISTERED.sub("registered at -", r.stdout.decode("utf-8", "replace"))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tool", required=True)
    ap.add_argument("--min", type=int, default=30, help="fewest sources that must be compared")
    a = ap.parse_args()
    tool = os.path.abspath(a.tool)
    bad, compared, refused, listed = [], 0, 0, 0
    with tempfile.TemporaryDirectory() as tmp:
        for src, profile, cwd in repo_sources() + case_sources(os.path.join(tmp, "cases")):
            toml = os.path.join(tmp, "out", os.path.relpath(src, "/") + ".toml")
            os.makedirs(os.path.dirname(toml), exist_ok=True)
            r = subprocess.run([tool, "import", "--profile", profile, "-o", toml, src], cwd=cwd, capture_output=True)
            if r.returncode != 0:
                refused += 1  # nothing printed: nothing to compare (the golden cases check what it says)
                continue
            compared += 1
            for cmd in (["registrations", "--raw", "--no-library"], ["table", "--raw", "--no-library"]):
                want = run([tool, *cmd, "--profile", profile, src], cwd)
                got = run([tool, *cmd, "--profile", profile, toml], cwd)
                listed += want[0] == 0 and cmd[0] == "registrations" and "###" in want[1]
                if want != got:
                    bad.append(f"{os.path.relpath(src, tmp if src.startswith(tmp) else ROOT)}: {cmd[0]}: "
                               f"exit {want[0]} from the source, {got[0]} from its import")
    for b in bad:
        print("MISMATCH", b)
    print(f"import_equivalence: {compared} sources compared ({listed} with operators listed; {refused} refused by "
          f"import), {len(bad)} mismatches")
    if listed < a.min:
        print(f"import_equivalence: fewer than {a.min} sources compared with operators listed")
        return 1
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
