#!/usr/bin/env python3
"""docs/security.md is true to the code (issue 32): each promise names tests that exist, and its numbers
and options are the code's.

    check_security_doc.py --doc docs/security.md --tool build/dispatchtool --tests build/tests/dispatchtool_tests
                          --hostile tests/hostile/gen_hostile.py --limits src/base/limits.hpp
                          --export tools/dispatchtool-export

- every test the page names exists: `hostile.NAME` (a case of gen_hostile.py; `hostile.x-*` a glob that
  matches one; `-y` after a name: a sibling case, the name's last part or parts replaced or added to),
  `unit.NAME` (a doctest case; a name ending in `...` a prefix), `ci.*`, `oracle.*` and `cli.*` tests by
  the scripts and cases that make them;
- the limits table gives each limit of src/base/limits.hpp its value (`kSchemaUnionWork` is 50,000,000,
  not the 1,000,000 the page once said);
- every `--option` the page names is an option of dispatchtool (some subcommand's --help) or of
  dispatchtool-export (its --help): no `--max-total-input-size`.
"""
import argparse
import fnmatch
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from checks import Checks  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

# Limits table rows (by the start of their first cell) and the constants their value cell states.
ROWS = {
    "bytes read per file": ["kInputBytes", "kTotalInputBytes"],
    "TOML dotted-key parts": ["kTomlKeyParts", "kTomlNesting"],
    "schema type nesting": ["kSchemaTypeDepth"],
    "elements of sized-list defaults": ["kSchemaDefaultElements"],
    "type comparisons normalising": ["kSchemaUnionWork"],
    "bytes of a name": ["kNameBytes"],
    "bytes of a schema": ["kSchemaBytes"],
    "dispatch keys per entry": ["kKeysPerEntry"],
    "locations a lint finding names": ["kNotesPerFinding"],
    "override warnings printed": ["kOverrideWarningBytes"],
    "did-you-mean work": ["kSuggestionCells"],
}


def limits(path):
    out = {}
    for name, expr in re.findall(r"inline constexpr std::size_t (k\w+) = ([^;]+);", open(path).read()):
        m = re.fullmatch(r"std::size_t\{(\d+)\} << (\d+)", expr.strip())
        out[name] = int(m.group(1)) << int(m.group(2)) if m else int(expr.replace("'", ""))
    return out


def renderings(v):
    """How the page may write v: 50,000,000; 4,096; 512; 16 KiB; 64 MiB; 50 M (50 << 20)."""
    r = {f"{v:,}", str(v)}
    for unit, shift in (("KiB", 10), ("MiB", 20), ("GiB", 30)):
        if v % (1 << shift) == 0:
            r.add(f"{v >> shift} {unit}")
    if v % (1 << 20) == 0:
        r.add(f"{v >> 20} M")
    return r


def main():
    ap = argparse.ArgumentParser()
    for a in ("doc", "tool", "tests", "hostile", "limits", "export"):
        ap.add_argument("--" + a, required=True)
    a = ap.parse_args()
    checks = Checks()
    doc = open(a.doc, encoding="utf-8").read()
    prose = re.sub(r"^```.*?^```", "", doc, flags=re.M | re.S)  # fenced blocks would pair backticks wrongly
    flat = re.sub(r"\s*\n\s*", " ", prose)  # names may wrap across lines inside backticks

    hostile = subprocess.run([sys.executable, a.hostile, "--names"], capture_output=True, text=True,
                             check=True).stdout.split()
    hostile = [n for n in hostile if n != "heavy"]
    units = [ln.strip() for ln in subprocess.run([a.tests, "--list-test-cases"], capture_output=True, text=True,
                                                  check=True).stdout.splitlines()
             if ln.strip() and not ln.startswith("[doctest]") and not ln.startswith("=====")]
    others = {"ci.workflow": "tests/ci/check_workflow.py", "ci.pre_commit_hook": "tests/ci/check_precommit.py",
              "oracle.export_safety": "tests/oracle/export_safety.py"}

    names = re.findall(r"`([^`]+)`", flat)
    base = None
    cited = 0
    for n in names:
        if "<" in n:  # `hostile.<case>`: the page's notation, not a name
            continue
        if n.startswith("hostile."):
            base = n[len("hostile."):]
            ok = any(fnmatch.fnmatchcase(h, base) for h in hostile) if "*" in base else base in hostile
            checks.check(ok, f"docs/security.md names hostile.{base}, a case of gen_hostile.py")
            cited += 1
        elif re.fullmatch(r"-[a-z0-9][a-z0-9-]*", n) and base is not None:
            parts = base.split("-")
            tails = n[1:].split("-")
            candidates = {"-".join(parts[:i] + tails) for i in range(1, len(parts) + 1)}
            checks.check(any(c in hostile for c in candidates),
                         f"docs/security.md names {n} after hostile.{base}: one of {sorted(candidates)} is a case")
            cited += 1
        elif n.startswith("unit."):
            name = n[len("unit."):]
            ok = any(u.startswith(name[:-3].rstrip()) for u in units) if name.endswith("...") else name in units
            checks.check(ok, f"docs/security.md names unit.{name}, a doctest case")
            cited += 1
        elif n in others:
            checks.check(os.path.isfile(os.path.join(ROOT, others[n])), f"{n}: {others[n]} exists")
            cited += 1
        elif n.startswith("cli.") and not n.endswith("*"):
            checks.check(os.path.isfile(os.path.join(ROOT, "tests", "cli", "cases", n[4:] + ".test")),
                         f"docs/security.md names {n}, a golden case")
            cited += 1
        elif not n.startswith("-"):
            base = None if not n.startswith("hostile.") else base
    checks.check(cited >= 80, f"docs/security.md cites its tests ({cited})")

    # The limits table.
    lim = limits(a.limits)
    rows = {}
    for line in doc.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if line.startswith("|") and len(cells) >= 3:
            rows[cells[0]] = cells[1]
    for start, consts in ROWS.items():
        row = next((v for k, v in rows.items() if k.startswith(start)), None)
        if not checks.check(row is not None, f"the limits table has a row '{start}...'"):
            continue
        for c in consts:
            checks.check(any(r in row for r in renderings(lim[c])),
                         f"'{start}...': {c} = {lim[c]:,} is stated ({row!r})")

    # Options.
    top = subprocess.run([a.tool, "--help"], capture_output=True, text=True).stdout
    subs = re.findall(r"^  ([a-z]+) ", top, re.M)
    helps = top + "".join(subprocess.run([a.tool, s, "--help"], capture_output=True, text=True).stdout for s in subs)
    helps += subprocess.run([sys.executable, a.export, "--help"], capture_output=True, text=True).stdout
    known = set(re.findall(r"(--[a-z][a-z0-9-]*)", helps))
    checks.check(len(subs) >= 10 and "--inside" in known, f"the options of {len(subs)} subcommands are known")
    for opt in sorted(set(re.findall(r"(?<![\w-])(--[a-z][a-z0-9-]*)", doc))):
        checks.check(opt in known, f"docs/security.md names {opt}, an option that exists")
    return checks.finish()


if __name__ == "__main__":
    sys.exit(main())
