#!/usr/bin/env python3
"""C++'s old dispatch key spellings vs the real release.

c10/core/DispatchKey.h keeps enum aliases "for backwards compatibility"
(DefaultBackend = CompositeExplicitAutograd, Autocast = AutocastCUDA, ...) and
CatchAll = Undefined; Math is CompositeImplicitAutograd's old name. For the release this python3
imports (run in a chroot with tools/oracle-env for 2.x), every such name:
  - is refused by the release's parseDispatchKey (torch._C._dispatch_key_parse);
  - is refused by dispatchtool too (--keys: exit 2; in a file: a located
    FILE:LINE:COL error, exit 2, nothing on stdout), naming the key the header
    maps it to ("write 'AutocastCUDA'");
and Math is in no header (the hint says DispatchKey.h no longer has it).
The header is the release's own (libtorch-dev's /usr/include, next to the
python3-torch imported). Exit 77 if torch cannot be imported, 1 on any mismatch.
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--tool", required=True)
    ap.add_argument("--profile", required=True)
    ap.add_argument("--header", default="/usr/include/c10/core/DispatchKey.h")
    ap.add_argument("--workdir", required=True)
    a = ap.parse_args()
    try:
        import torch
    except ImportError as e:
        print(f"cannot import torch: {e}")
        return 77
    want = a.profile.removeprefix("torch-")
    if not torch.__version__.startswith(want + "."):
        print(f"FAIL: torch {torch.__version__} is not the release of {a.profile}")
        return 1
    if not os.path.isfile(a.header):
        print(f"FAIL: no {a.header} (libtorch-dev {want} installs it)")
        return 1
    text = open(a.header, encoding="utf-8").read()
    start = text.find("exist for backwards compatibility")
    if start < 0:
        print(f"FAIL: {a.header} has no backwards-compatibility aliases block")
        return 1
    block = text[start:text.index("};", start)]
    aliases = re.findall(r"^\s*(\w+)\s*=\s*(\w+),", block, re.M)
    if len(aliases) < 3:
        print(f"FAIL: parsed only {aliases} from {a.header}")
        return 1
    if re.search(r"\bMath\b", text):
        print(f"FAIL: {a.header} mentions Math: the hint says DispatchKey.h no longer has it")
        return 1
    if not re.search(r"^\s*CatchAll\s*=\s*Undefined,", text, re.M):
        print(f"FAIL: {a.header} has no 'CatchAll = Undefined'")
        return 1
    names = aliases + [("CatchAll", "Undefined"), ("Math", "CompositeImplicitAutograd")]
    os.makedirs(a.workdir, exist_ok=True)
    failures = 0
    checked = 0

    def fail(msg: str) -> None:
        nonlocal failures
        failures += 1
        print("FAIL:", msg)

    for old, key in names:
        try:
            torch._C._dispatch_key_parse(old)
            fail(f"{old}: torch {torch.__version__} parses it: the tool must accept it")
            continue
        except RuntimeError:
            pass
        want_hint = "an [[impl]] without key" if old == "CatchAll" else f"write '{key}'"
        r = subprocess.run([a.tool, "table", "--profile", a.profile, "--register", "CPU", "--keys", old],
                           capture_output=True, text=True)
        if r.returncode != 2 or r.stdout or want_hint not in r.stderr:
            fail(f"--keys {old}: rc={r.returncode} stdout={r.stdout!r} stderr={r.stderr!r}")
        path = os.path.join(a.workdir, f"{old}.toml")
        with open(path, "w", encoding="utf-8") as f:
            f.write(f'namespace = "t"\n[[def]]\nschema = "f(Tensor x) -> Tensor"\n'
                    f'[[impl]]\nop = "f"\nkey = "{old}"\nkernel = "k"\n')
        r = subprocess.run([a.tool, "table", "--profile", a.profile, path], capture_output=True, text=True)
        if (r.returncode != 2 or r.stdout or not r.stderr.startswith(f"{path}:6:7: error: could not parse dispatch key: {old}")
                or want_hint not in r.stderr):
            fail(f"key = \"{old}\" in a file: rc={r.returncode} stdout={r.stdout!r} stderr={r.stderr!r}")
        checked += 1
    print(f"{a.profile}: {checked}/{len(names)} old spellings ({', '.join(o for o, _ in names)}) refused by "
          f"torch {torch.__version__} and by dispatchtool with the header's key; {failures} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
