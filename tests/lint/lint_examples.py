"""Shared helpers of the lint tests: the rule examples of docs/lint.md.

Every rule section of docs/lint.md ("## `rule-id`") holds two ```toml blocks:
first a minimal failing input, then its fix.
"""
import json
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from checks import Checks  # noqa: E402,F401  (re-exported to the lint test scripts)

_SECTION = re.compile(r"^## `([a-z-]+)`\s*$", re.M)
_TOML = re.compile(r"^```(toml|cpp)\n(.*?)^```", re.M | re.S)


def doc_examples(doc_path):
    """{rule id: (failing, fixed, extension)} in document order: TOML examples, or C++ ones ("cpp")
    for the rules about C++ sources."""
    with open(doc_path, encoding="utf-8") as f:
        text = f.read()
    heads = list(_SECTION.finditer(text))
    out = {}
    for i, h in enumerate(heads):
        end = heads[i + 1].start() if i + 1 < len(heads) else len(text)
        blocks = _TOML.findall(text, h.end(), end)
        out[h.group(1)] = (blocks[0][1], blocks[1][1], blocks[0][0]) if len(blocks) >= 2 else None
    return out


def rule_ids(tool):
    """The rule ids `dispatchtool lint --list-rules` prints."""
    proc = subprocess.run([tool, "lint", "--list-rules"], capture_output=True, text=True, check=True)
    return [line.split()[0] for line in proc.stdout.splitlines() if line.strip()]


def run_lint(tool, args, cwd):
    """(exit status, stdout, stderr) of `dispatchtool lint --no-config ARGS` in `cwd`."""
    proc = subprocess.run([tool, "lint", "--no-config"] + args, cwd=cwd, capture_output=True, text=True,
                          timeout=120)
    return proc.returncode, proc.stdout, proc.stderr


def lint_json(tool, files, cwd, extra=()):
    """The findings of `--format json` for `files`."""
    status, out, err = run_lint(tool, ["--format", "json"] + list(extra) + list(files), cwd)
    if status not in (0, 1):
        raise RuntimeError(f"dispatchtool lint exited {status}: {err}")
    return json.loads(out)["findings"]


def write(path, text):
    os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)


