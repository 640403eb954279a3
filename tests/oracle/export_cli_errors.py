#!/usr/bin/python3
"""dispatchtool-export refuses what it cannot do, with exit 1 and a message,
and writes nothing: an OUTDIR that is neither empty nor an earlier export, a
module --import cannot import, --ops-per-file 0; and with no OUTDIR, usage
(exit 2). Runs the script with this interpreter (it needs torch: exit 77 without).

    export_cli_errors.py --workdir DIR
"""
import argparse
import os
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPT = os.path.join(os.path.dirname(os.path.dirname(HERE)), "tools", "dispatchtool-export")
sys.path.insert(0, os.path.dirname(HERE))
from checks import Checks  # noqa: E402


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--workdir", required=True)
    a = ap.parse_args()
    try:
        import torch  # noqa: F401
    except Exception:  # noqa: BLE001
        print("SKIP: torch not importable (install python3-torch)")
        return 77
    checks = Checks()
    busy = os.path.join(a.workdir, "busy")
    os.makedirs(busy, exist_ok=True)
    with open(os.path.join(busy, "notes.txt"), "w") as f:
        f.write("mine\n")
    fresh = os.path.join(a.workdir, "fresh")
    shutil.rmtree(fresh, ignore_errors=True)
    cases = [
        ([busy], 1, "holds no profile.toml (not an earlier export): refusing to write into it"),
        ([fresh, "--import", "no_such_module_xyz"], 1, "cannot import no_such_module_xyz: ModuleNotFoundError"),
        ([fresh, "--ops-per-file", "0"], 1, "--ops-per-file must be positive"),
        ([], 2, "OUTDIR is required"),
    ]
    for args, status, text in cases:
        p = subprocess.run([sys.executable, SCRIPT] + args, capture_output=True, text=True)
        checks.check(p.returncode == status and text in p.stderr,
                     "dispatchtool-export %s: status %d (want %d), stderr %r" % (" ".join(args), p.returncode, status,
                                                                                 p.stderr[-300:]))
    checks.check(sorted(os.listdir(busy)) == ["notes.txt"], "nothing written into the refused OUTDIR")
    checks.check(not os.path.exists(fresh), "nothing written after a refusal")
    return checks.finish()


if __name__ == "__main__":
    sys.exit(main())
