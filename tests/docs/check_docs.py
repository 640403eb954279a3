#!/usr/bin/env python3
"""The teaching documents never drift from the tool.

  --tutorial FILE   every ```console block of FILE (docs/tutorial.md): each
                    line "$ dispatchtool ARGS" is run (by bash, in the
                    repository root, with --tool's directory first on PATH)
                    and what it prints, standard output then standard error,
                    must equal the lines after it up to the next "$ " line or
                    the block's end, byte for byte. A command that exits
                    non-zero says so: its last expected line is "[exit N]".
                    The exercises' answers are console blocks too, checked
                    the same way.
  --examples DIR    every *.toml under DIR (configs/examples): each comment
                    line "# $ dispatchtool ARGS" is run the same way, and its
                    output must equal the comment lines "# | TEXT" after it
                    ("# |" for an empty line). Every example has at least one.
  --input-format F  docs/input-format.md: every field the loader accepts
                    (allow_only in src/registry/file_loader*.cpp) appears as
                    "FIELD =" in one of its ```toml blocks, it does not send
                    the reader outside the repository (../shared), and the
                    README's Input format section points at it.
  --update          rewrite the expected outputs in place (review the diff).

Every command must pass --profile (the outputs are a release's).
"""
import argparse
import difflib
import glob
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def run(tool: str, cmd: str) -> list[str]:
    env = dict(os.environ, PATH=os.path.dirname(os.path.abspath(tool)) + os.pathsep + os.environ.get("PATH", ""),
               NO_COLOR="1", LC_ALL="C.UTF-8")
    r = subprocess.run(["bash", "-o", "pipefail", "-c", cmd], cwd=ROOT, env=env, capture_output=True, text=True,
                       timeout=60)
    out = (r.stdout + r.stderr).split("\n")
    if out and out[-1] == "":
        out.pop()
    if r.returncode != 0:
        out.append(f"[exit {r.returncode}]")
    return out


def check_command(cmd: str, where: str) -> list[str]:
    if not cmd.startswith("dispatchtool "):
        return [f"{where}: a command must start with 'dispatchtool ': {cmd!r}"]
    if "--profile " not in cmd:
        return [f"{where}: pass --profile (the output is a release's): {cmd!r}"]
    return []


def diff(expected: list[str], got: list[str]) -> str:
    return "\n".join(difflib.unified_diff(expected, got, "expected", "dispatchtool", lineterm="", n=2))


def check_tutorial(tool: str, path: str, update: bool) -> tuple[int, int, list[str]]:
    lines = open(path, encoding="utf-8").read().split("\n")
    out, problems, n, i, blocks = [], [], 0, 0, 0
    while i < len(lines):
        line = lines[i]
        out.append(line)
        i += 1
        if line.strip() != "```console":
            continue
        blocks += 1
        while i < len(lines) and lines[i].strip() != "```":
            if not lines[i].startswith("$ "):
                problems.append(f"{path}:{i + 1}: a console block starts with '$ dispatchtool ...'")
                out.append(lines[i])
                i += 1
                continue
            cmd, start = lines[i][2:], i + 1
            out.append(lines[i])
            i += 1
            expected = []
            while i < len(lines) and not lines[i].startswith("$ ") and lines[i].strip() != "```":
                expected.append(lines[i])
                i += 1
            problems += check_command(cmd, f"{path}:{start}")
            got = run(tool, cmd)
            n += 1
            if got != expected and not update:
                problems.append(f"{path}:{start}: $ {cmd}\n" + diff(expected, got))
            out += got if update else expected
    if update:
        open(path, "w", encoding="utf-8").write("\n".join(out))
    if blocks == 0:
        problems.append(f"{path}: no ```console blocks")
    return n, blocks, problems


def check_examples(tool: str, root: str, update: bool) -> tuple[int, int, list[str]]:
    problems, n = [], 0
    files = sorted(glob.glob(os.path.join(root, "**", "*.toml"), recursive=True))
    for path in files:
        lines = open(path, encoding="utf-8").read().split("\n")
        out, i, here = [], 0, 0
        while i < len(lines):
            line = lines[i]
            out.append(line)
            i += 1
            if not line.startswith("# $ "):
                continue
            cmd, start = line[4:], i
            expected = []
            while i < len(lines) and (lines[i] == "# |" or lines[i].startswith("# | ")):
                expected.append(lines[i][4:])
                i += 1
            problems += check_command(cmd, f"{path}:{start}")
            got = run(tool, cmd)
            n += 1
            here += 1
            if got != expected and not update:
                problems.append(f"{path}:{start}: $ {cmd}\n" + diff(expected, got))
            out += [("# | " + g) if g else "# |" for g in (got if update else expected)]
        if here == 0:
            problems.append(f"{path}: no '# $ dispatchtool ...' comment saying what the tool shows for it")
        if update:
            open(path, "w", encoding="utf-8").write("\n".join(out))
    return n, len(files), problems


def check_input_format(path: str) -> tuple[int, list[str]]:
    text = open(path, encoding="utf-8").read()
    problems = []
    if "../shared" in text:
        problems.append(f"{path}: points outside the repository (../shared)")
    toml = "\n".join(re.findall(r"```toml\n(.*?)```", text, re.S))
    fields = set()
    for src in glob.glob(os.path.join(ROOT, "src", "registry", "file_loader*.cpp")):
        for group in re.findall(r"allow_only\(\{(.*?)\}\)", open(src, encoding="utf-8").read(), re.S):
            fields |= set(re.findall(r'"(\w+)"', group))
    tables = {"def", "impl", "fallback", "custom_op"}
    for f in sorted(fields):
        pattern = rf"^\[\[{f}\]\]" if f in tables else rf"^(# )?\s*{f}\s*= "
        if not re.search(pattern, toml, re.M):
            problems.append(f"{path}: field '{f}' has no example in a ```toml block")
    if len(fields) < 20:
        problems.append(f"found only {len(fields)} fields in src/registry/file_loader*.cpp")
    readme = open(os.path.join(ROOT, "README.md"), encoding="utf-8").read()
    section = readme[readme.find("\n## Input format"):]
    section = section[:section.find("\n## ", 1)]
    if "docs/input-format.md" not in section or "../shared" in section:
        problems.append("README.md's Input format section must point at docs/input-format.md, not ../shared")
    return len(fields), problems


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--tool", required=True)
    ap.add_argument("--tutorial")
    ap.add_argument("--examples")
    ap.add_argument("--input-format")
    ap.add_argument("--update", action="store_true")
    a = ap.parse_args()
    if not os.access(a.tool, os.X_OK):
        print(f"FAIL: no tool at {a.tool}")
        return 1
    problems = []
    if a.tutorial:
        n, blocks, p = check_tutorial(a.tool, a.tutorial, a.update)
        print(f"{a.tutorial}: {n} commands in {blocks} console blocks, {len(p)} problems")
        problems += p
    if a.examples:
        n, files, p = check_examples(a.tool, a.examples, a.update)
        print(f"{a.examples}: {n} commands in {files} examples' comments, {len(p)} problems")
        problems += p
    if a.input_format:
        n, p = check_input_format(a.input_format)
        print(f"{a.input_format}: {n} fields, {len(p)} problems")
        problems += p
    for p in problems:
        print("FAIL:", p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
