#!/usr/bin/env python3
"""End-to-end golden test of the dispatchtool CLI.

A case file (tests/cli/cases/NAME.test) holds the command, its input files and
the expected output:

    # free-form comment lines
    args: table --raw in.toml
    status: 0
    --- file: in.toml
    namespace = "myops"
    ...
    --- stdout
    ...
    --- stderr
    ...

Input files are written to a fresh directory, the tool runs there, and stdout,
stderr and the exit status must match exactly (an omitted stdout/stderr
section means "empty"). `@ROOT@` in args stands for the repository root, so
cases can use the shipped examples; in the tool's output the root is written
back as `@ROOT@`, so expectations do not depend on where the checkout lives.
`sources: NAME` runs the tool in a real-world source tree instead
(tests/realworld/sources.py NAME: downloaded from Debian and extracted into a
cache outside the checkout; the case fails when it cannot be had), so that
the case's relative paths, and the tool's "registered at" lines, are the
tree's own; the tree's directory is written back as `@SOURCES@`. `--update`
rewrites the expected sections from the tool's output (review the diff
before committing!).
"""
import argparse
import difflib
import os
import shlex
import subprocess
import sys
import tempfile


def parse(path):
    header, sections, cur = [], [], None
    with open(path, encoding="utf-8") as f:
        for line in f:
            if line.startswith("--- "):
                cur = [line[4:].rstrip("\n"), []]
                sections.append(cur)
            elif cur is None:
                header.append(line)
            else:
                cur[1].append(line)
    meta = {}
    for line in header:
        if line.startswith("#") or not line.strip():
            continue
        key, _, value = line.partition(":")
        meta[key.strip()] = value.strip()
    return header, meta, [(name, "".join(body)) for name, body in sections]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tool", required=True)
    ap.add_argument("--update", action="store_true")
    ap.add_argument("case")
    a = ap.parse_args()
    a.tool = os.path.abspath(a.tool)
    header, meta, sections = parse(a.case)
    files = [(n[len("file: "):], body) for n, body in sections if n.startswith("file: ")]
    expected = {n: body for n, body in sections if not n.startswith("file: ")}
    stdin = expected.pop("stdin", None)
    cwd = None
    if "sources" in meta:
        sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "realworld"))
        import sources
        try:
            cwd = sources.tree(meta["sources"])
        except sources.Unavailable as e:
            print(f"FAIL: {e}")
            return 1
    with tempfile.TemporaryDirectory() as d:
        for name, body in files:
            p = os.path.join(d, name)
            os.makedirs(os.path.dirname(p), exist_ok=True)
            with open(p, "w", encoding="utf-8") as f:
                f.write(body)
        env = dict(os.environ)
        env.pop("NO_COLOR", None)
        env.update(dict(kv.split("=", 1) for kv in shlex.split(meta.get("env", ""))))
        root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
        args = [x.replace("@ROOT@", root) for x in shlex.split(meta["args"])]
        proc = subprocess.run([a.tool] + args, cwd=cwd or d, capture_output=True,
                              input=(stdin or "").encode(), env=env, timeout=120)
    got = {name: data.decode().replace(cwd or "@SOURCES@", "@SOURCES@").replace(root, "@ROOT@")
           for name, data in (("stdout", proc.stdout), ("stderr", proc.stderr))}
    status = int(meta.get("status", "0"))
    if a.update:
        with open(a.case, "w", encoding="utf-8") as f:
            f.write("".join(l for l in header if not l.startswith("status:")).rstrip("\n") + "\n")
            f.write(f"status: {proc.returncode}\n")
            for name, body in files:
                f.write(f"--- file: {name}\n{body}")
            if stdin is not None:
                f.write(f"--- stdin\n{stdin}")
            for name in ("stdout", "stderr"):
                if got[name]:
                    f.write(f"--- {name}\n{got[name]}")
        print(f"updated {a.case}")
        return 0
    ok = True
    if proc.returncode != status:
        print(f"exit status {proc.returncode}, expected {status}")
        ok = False
    for name in ("stdout", "stderr"):
        want = expected.get(name, "")
        if got[name] != want:
            ok = False
            print(f"{name} differs:")
            sys.stdout.writelines(difflib.unified_diff(want.splitlines(True), got[name].splitlines(True),
                                                       "expected", "actual"))
    print("1 passed, 0 failed" if ok else "0 passed, 1 failed")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
