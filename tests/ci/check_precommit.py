#!/usr/bin/python3
"""`.pre-commit-hooks.yaml` defines a working `dispatchtool-lint` hook.

    check_precommit.py --tool build/dispatchtool --root .

- the file parses as YAML: a list of hooks, each with pre-commit's required
  keys (id, name, entry, language) and only keys pre-commit knows;
- `dispatchtool-lint`: language system, `files` matches the kinds the readers
  take (TOML, C++, Python, *native_functions.yaml) and nothing else, the lint configuration file is excluded, one serial call
  (`require_serial`: conflicts are found across files), and its entry is
  `dispatchtool lint`, a subcommand the binary has;
- the entry run the way pre-commit runs it (entry + args + file names) exits
  0 on a clean file and 1 on a file with an error finding, in TOML and in a
  C++ file and a Python module that define the same operator;
- no file name becomes an option (issue 32): the hook's args end with "--",
  and so do the args of docs/ci.md's .pre-commit-config.yaml example; a
  committed file named `--write-baseline=lint-baseline.toml` holding an error
  finding fails the hook (exit 1) and writes no baseline, through the entry
  and through `pre-commit try-repo`;
- with pre-commit installed (Debian's `pre-commit`), `pre-commit try-repo`
  runs the hook from this checkout on a scratch repository: it passes on a
  clean file and fails, showing the finding, on a conflicting one.
"""
import argparse
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile

import yaml

# The keys of a hook definition pre-commit 3 accepts (pre_commit/clientlib.py, MANIFEST_HOOK_DICT).
KNOWN = {"id", "name", "entry", "language", "alias", "files", "exclude", "types", "types_or",
         "exclude_types", "additional_dependencies", "args", "always_run", "fail_fast",
         "pass_filenames", "description", "language_version", "log_file", "minimum_pre_commit_version",
         "require_serial", "stages", "verbose"}
REQUIRED = {"id", "name", "entry", "language"}

CLEAN = '''namespace = "myops"
[[def]]
schema = "f(Tensor x) -> Tensor"
dispatch = { CompositeImplicitAutograd = "f_decomposed" }
'''
# The same operator defined in a second file: a finding only linting both files together shows.
SECOND_DEF = '''namespace = "myops"
kind = "FRAGMENT"
[[def]]
schema = "f(Tensor x) -> Tensor"
'''
# The same conflict written in C++ and Python: the hook lints the sources.
CLEAN_CPP = '''#include <torch/library.h>

TORCH_LIBRARY(myops, m) {
  m.def("f(Tensor x) -> Tensor");
}
'''
SECOND_DEF_PY = '''import torch

lib = torch.library.Library("myops", "FRAGMENT")
lib.define("f(Tensor x) -> Tensor")
'''


# A file name pre-commit would pass that reads as an option (issue 32).
OPTION_NAMED = "--write-baseline=lint-baseline.toml"


sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from checks import Checks  # noqa: E402


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tool", required=True)
    ap.add_argument("--root", required=True)
    a = ap.parse_args()
    tool = os.path.abspath(a.tool)
    root = os.path.abspath(a.root)
    checks = Checks()
    env = dict(os.environ, PATH=os.path.dirname(tool) + os.pathsep + os.environ.get("PATH", ""))

    with open(os.path.join(root, ".pre-commit-hooks.yaml"), encoding="utf-8") as f:
        hooks = yaml.safe_load(f)
    if not checks.check(isinstance(hooks, list) and hooks, "a non-empty list of hooks"):
        return 1
    for h in hooks:
        checks.check(REQUIRED <= set(h), f"hook {h.get('id')}: has {sorted(REQUIRED)}")
        checks.check(set(h) <= KNOWN, f"hook {h.get('id')}: unknown keys {sorted(set(h) - KNOWN)}")
    hook = next((h for h in hooks if h.get("id") == "dispatchtool-lint"), None)
    if not checks.check(hook is not None, "a hook with id dispatchtool-lint"):
        return 1
    checks.check(hook["language"] == "system", "language: system (uses the installed dispatchtool)")
    files = re.compile(hook["files"])
    exclude = re.compile(hook.get("exclude", "^$"))

    def selected(path):  # pre-commit: re.search on the path relative to the repository root
        return bool(files.search(path)) and not exclude.search(path)

    for path, want in [("ops/a.toml", True), ("a.toml", True), ("ops/a.toml.bak", False), ("a.tomlx", False),
                       ("README.md", False), (".dispatchtool-lint.toml", False),
                       ("sub/.dispatchtool-lint.toml", False), ("csrc/ops.cpp", True), ("csrc/ops.h", True),
                       ("kernels.cu", True), ("ops.py", True), ("ops.pyc", False), ("native_functions.yaml", True),
                       ("npu_native_functions.yaml", True), ("ci.yaml", False), (".github/workflows/ci.yml", False),
                       ("ops.cpp.orig", False)]:
        checks.check(selected(path) == want, f"files/exclude {'select' if want else 'skip'} {path}")
    checks.check(hook.get("require_serial") is True, "require_serial: true (cross-file conflicts)")
    checks.check(hook.get("pass_filenames", True) is True, "the staged files are passed")
    checks.check(list(hook.get("args", []))[-1:] == ["--"], f"the hook's args end with '--': {hook.get('args')}")
    with open(os.path.join(root, "docs", "ci.md"), encoding="utf-8") as f:
        ci_md = f.read()
    examples = [yaml.safe_load(b) for b in re.findall(r"^```yaml\n(.*?)^```", ci_md, re.M | re.S)
                if "dispatchtool-lint" in b and "repos:" in b]
    checks.check(len(examples) == 1, "docs/ci.md has one .pre-commit-config.yaml example")
    for ex in examples:
        for h in (h for r in ex["repos"] for h in r["hooks"] if h["id"] == "dispatchtool-lint"):
            checks.check("args" not in h or list(h["args"])[-1:] == ["--"],
                         f"docs/ci.md's example args end with '--': {h.get('args')}")
    entry = shlex.split(hook["entry"])
    checks.check(entry[:2] == ["dispatchtool", "lint"], f"entry is 'dispatchtool lint': {entry}")
    top_help = subprocess.run([tool, "--help"], capture_output=True, text=True).stdout
    checks.check(re.search(r"^  lint ", top_help, re.M) is not None, "the binary has a lint subcommand")

    with tempfile.TemporaryDirectory() as tmp:
        repo = os.path.join(tmp, "repo")
        os.makedirs(os.path.join(repo, "ops"))
        with open(os.path.join(repo, "ops", "a.toml"), "w") as f:
            f.write(CLEAN)
        with open(os.path.join(repo, "ops", "b.toml"), "w") as f:
            f.write(SECOND_DEF)
        os.makedirs(os.path.join(repo, "csrc"))
        with open(os.path.join(repo, "csrc", "ops.cpp"), "w") as f:
            f.write(CLEAN_CPP)
        with open(os.path.join(repo, "ops.py"), "w") as f:
            f.write(SECOND_DEF_PY)
        # A committed file named like an option, holding an error finding (issue 32).
        with open(os.path.join(repo, OPTION_NAMED), "w") as f:
            f.write(CLEAN + '[[def]]\nschema = "f(Tensor x) -> Tensor"\n')
        # As pre-commit runs it: entry, args, then the file names.
        cmd = entry + list(hook.get("args", []))
        r = subprocess.run(cmd + ["ops/a.toml"], cwd=repo, env=env, capture_output=True, text=True)
        checks.check(r.returncode == 0, f"entry on a clean file exits 0, got {r.returncode}: {r.stderr}")
        r = subprocess.run(cmd + ["ops/a.toml", "ops/b.toml"], cwd=repo, env=env, capture_output=True, text=True)
        checks.check(r.returncode == 1 and "duplicate-def" in r.stdout,
                     f"entry on two conflicting files exits 1 with duplicate-def, got {r.returncode}: {r.stdout}")
        r = subprocess.run(cmd + ["csrc/ops.cpp"], cwd=repo, env=env, capture_output=True, text=True)
        checks.check(r.returncode == 0, f"entry on a clean C++ file exits 0, got {r.returncode}: {r.stderr}")
        r = subprocess.run(cmd + ["csrc/ops.cpp", "ops.py"], cwd=repo, env=env, capture_output=True, text=True)
        checks.check(r.returncode == 1 and "ops.py:4:1: error:" in r.stdout and "duplicate-def" in r.stdout,
                     f"entry on a C++ file and a Python module defining one operator exits 1 with duplicate-def "
                     f"at ops.py:4:1, got {r.returncode}: {r.stdout}")
        r = subprocess.run(cmd + ["ops/a.toml", OPTION_NAMED], cwd=repo, env=env, capture_output=True, text=True)
        checks.check(r.returncode == 1 and f"{OPTION_NAMED}:" in r.stdout and "duplicate-def" in r.stdout,
                     f"entry on a file named {OPTION_NAMED} lints it: exit 1 with its finding, got {r.returncode}: "
                     f"{r.stdout} {r.stderr}")
        checks.check(not os.path.exists(os.path.join(repo, "lint-baseline.toml")),
                     f"entry on a file named {OPTION_NAMED} writes no baseline")
        # Without the '--' (the hook before issue 32) the name is an option: what the check guards against.
        r = subprocess.run(entry + ["ops/a.toml", OPTION_NAMED], cwd=repo, env=env, capture_output=True, text=True)
        checks.check(r.returncode == 0 and os.path.exists(os.path.join(repo, "lint-baseline.toml")),
                     f"(control) without '--' the file name is taken as --write-baseline: {r.returncode} {r.stderr}")
        if os.path.exists(os.path.join(repo, "lint-baseline.toml")):
            os.remove(os.path.join(repo, "lint-baseline.toml"))

        if shutil.which("pre-commit") is None:
            print("note: pre-commit is not installed: `pre-commit try-repo` not run "
                  "(tools/install-deps --tests installs it)")
        elif not os.path.isdir(os.path.join(root, ".git")) and not os.path.isfile(os.path.join(root, ".git")):
            print(f"note: {root} is not a git checkout: `pre-commit try-repo` not run")
        else:
            genv = dict(env, PRE_COMMIT_HOME=os.path.join(tmp, "cache"), GIT_AUTHOR_NAME="t",
                        GIT_AUTHOR_EMAIL="t@example.invalid", GIT_COMMITTER_NAME="t",
                        GIT_COMMITTER_EMAIL="t@example.invalid", HOME=tmp)
            genv.pop("GIT_DIR", None)
            subprocess.run(["git", "init", "-q", repo], check=True, env=genv)
            subprocess.run(["git", "add", "-A"], cwd=repo, check=True, env=genv)

            def try_repo(*files):
                return subprocess.run(["pre-commit", "try-repo", root, "dispatchtool-lint", "--verbose",
                                       "--files", *files], cwd=repo, env=genv, capture_output=True, text=True,
                                      timeout=300)
            r = try_repo("ops/a.toml")
            checks.check(r.returncode == 0 and "Passed" in r.stdout,
                         f"pre-commit try-repo on a clean file passes: {r.returncode} {r.stdout} {r.stderr}")
            r = try_repo("ops/a.toml", "ops/b.toml")
            checks.check(r.returncode == 1 and "Failed" in r.stdout and "duplicate-def" in r.stdout,
                         f"pre-commit try-repo on conflicting files fails with the finding: "
                         f"{r.returncode} {r.stdout} {r.stderr}")
            r = try_repo("csrc/ops.cpp", "ops.py")
            checks.check(r.returncode == 1 and "Failed" in r.stdout and "ops.py:4:1: error:" in r.stdout,
                         f"pre-commit try-repo on conflicting C++ and Python fails with the finding: "
                         f"{r.returncode} {r.stdout} {r.stderr}")
            # pre-commit's own --files cannot take a name that starts with "--": a repository of its own,
            # every file of it (as a CI run of pre-commit on a pull request does).
            repo2 = os.path.join(tmp, "repo2")
            os.makedirs(os.path.join(repo2, "ops"))
            shutil.copy(os.path.join(repo, "ops", "a.toml"), os.path.join(repo2, "ops", "a.toml"))
            shutil.copy(os.path.join(repo, OPTION_NAMED), os.path.join(repo2, OPTION_NAMED))
            subprocess.run(["git", "init", "-q", repo2], check=True, env=genv)
            subprocess.run(["git", "add", "-A"], cwd=repo2, check=True, env=genv)
            r = subprocess.run(["pre-commit", "try-repo", root, "dispatchtool-lint", "--verbose", "--all-files"],
                               cwd=repo2, env=genv, capture_output=True, text=True, timeout=300)
            checks.check(r.returncode == 1 and "Failed" in r.stdout and "duplicate-def" in r.stdout and
                         not os.path.exists(os.path.join(repo2, "lint-baseline.toml")),
                         f"pre-commit try-repo on a committed file named {OPTION_NAMED} fails with its finding and "
                         f"writes no baseline: {r.returncode} {r.stdout} {r.stderr}")

    print(f"{checks.passed} passed, {checks.failed} failed")
    return 1 if checks.failed else 0


if __name__ == "__main__":
    sys.exit(main())
