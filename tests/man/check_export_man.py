#!/usr/bin/env python3
"""docs/dispatchtool-export.1 is a clean man page that documents what the script does.

    check_export_man.py --script tools/dispatchtool-export --man docs/dispatchtool-export.1 --tool build/dispatchtool

- `mandoc -T lint -W warning`, `groff -man -w w -z` and `man --warnings -l`
  report nothing (check_man.py's linters);
- the sections NAME, SYNOPSIS, DESCRIPTION, OPTIONS, EXIT STATUS, FILES,
  EXAMPLES and SEE ALSO are there;
- every option `dispatchtool-export --help` lists is in the SYNOPSIS and has
  an item under OPTIONS; EXIT STATUS has 0, 1 and 2;
- the version in .TH is what `dispatchtool --version` prints.
"""
import argparse
import os
import re
import shutil
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.dirname(HERE))
from check_man import items, run, sections, unescape  # noqa: E402
from checks import Checks  # noqa: E402

SECTIONS = ["NAME", "SYNOPSIS", "DESCRIPTION", "OPTIONS", "EXIT STATUS", "FILES", "EXAMPLES", "SEE ALSO"]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--script", required=True)
    ap.add_argument("--man", required=True)
    ap.add_argument("--tool", required=True)
    a = ap.parse_args()
    checks = Checks()
    src = open(a.man, encoding="utf-8").read()
    for name, cmd in [("mandoc", ["mandoc", "-T", "lint", "-W", "warning", a.man]),
                      ("groff", ["groff", "-man", "-w", "w", "-z", a.man]),
                      ("man", ["man", "--warnings", "-l", a.man])]:
        if not checks.check(shutil.which(cmd[0]) is not None, f"{cmd[0]} is installed (tools/install-deps --tests)"):
            continue
        r = run(cmd, env=dict(os.environ, MANWIDTH="80", MAN_KEEP_FORMATTING="0"))
        warnings = r.stderr.strip() + ("" if name == "man" else r.stdout.strip())
        checks.check(r.returncode == 0 and not warnings, f"{' '.join(cmd)}: status {r.returncode}, {warnings}")
    secs = sections(src)
    for s in SECTIONS:
        checks.check(s in secs, f"section {s}")
    if checks.failed:
        return checks.finish()
    version = run([a.tool, "--version"]).stdout.strip()
    th = re.search(r'^\.TH\s+\S+\s+1\s+\S+\s+"([^"]*)"', src, re.M)
    checks.check(th and th.group(1) == version, f".TH names {th and th.group(1)!r}, dispatchtool is {version!r}")
    r = run([sys.executable, a.script, "--help"])
    opts = sorted(set(re.findall(r"^ +(?:-h, )?(--[a-z-]+)", r.stdout, re.M)) - {"--help"})
    checks.check(r.returncode == 0 and len(opts) >= 5, f"dispatchtool-export --help lists its options: {opts}")
    synopsis = unescape("\n".join(secs["SYNOPSIS"]))
    tags = " ".join(items(secs["OPTIONS"]))
    for opt in opts:
        checks.check(re.search(re.escape(opt) + r"\b", synopsis), f"SYNOPSIS lists {opt}")
        checks.check(re.search(re.escape(opt) + r"\b", tags), f"OPTIONS has an item for {opt}")
    status = " ".join(items(secs["EXIT STATUS"])).split()
    for code in ("0", "1", "2"):
        checks.check(code in status, f"EXIT STATUS has an item for {code}")
    return checks.finish()


if __name__ == "__main__":
    sys.exit(main())
