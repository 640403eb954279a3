#!/usr/bin/python3
"""Every --format json output of the binary validates against its schema.

    test_outputs.py --tool build/dispatchtool --root .

1. the golden outputs: every tests/cli/cases/*.test that runs a command with
   `--format json` (table, registrations, keys, explain, coverage, lint,
   trace, diff)
   holds a document that validates against that command's schema in
   docs/schema/ (validate.py: JSON Schema, member order, no colour); the
   golden test itself checks the binary still prints exactly that;
2. real outputs of today's binary: table, registrations, keys FILE, explain
   (every operator, a dozen keys) and coverage of every shipped example under
   both built-in profiles, PyTorch's own operators alone (`--op`), and the
   whole library of torch-1.13 (`table --all`, `registrations --all`);
3. an error prints no document: exit 2 leaves stdout empty.
"""
import argparse
import glob
import json
import os
import shlex
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import validate  # noqa: E402

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "cli"))
import run_golden  # noqa: E402

COMMANDS = ("table", "registrations", "keys", "explain", "coverage", "lint", "trace", "diff")


sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from checks import Checks  # noqa: E402


def schema_of(root, command):
    return os.path.join(root, "docs", "schema", f"{command}.schema.json")


def golden_outputs(root):
    """(case name, command, stdout) of every golden case with --format json."""
    out = []
    for case in sorted(glob.glob(os.path.join(root, "tests", "cli", "cases", "*.test"))):
        _, meta, sections = run_golden.parse(case)
        args = shlex.split(meta.get("args", ""))
        if "--format" not in args or args[args.index("--format") + 1] != "json" or args[0] not in COMMANDS:
            continue
        stdout = dict(sections).get("stdout", "")
        # coverage --against has its own document (docs/schema/coverage-against.schema.json).
        schema = "coverage-against" if args[0] == "coverage" and "--against" in args else args[0]
        out.append((os.path.basename(case), schema, stdout))
    return out


def run(tool, args, cwd):
    return subprocess.run([tool, *args], capture_output=True, text=True, cwd=cwd)


def real_runs(tool, root):
    """(command, args) of real outputs to validate."""
    examples = sorted(glob.glob(os.path.join(root, "configs", "examples", "*.toml")))
    npu = sorted(glob.glob(os.path.join(root, "configs", "examples", "npu_backend", "*.toml")))
    keys = "CPU,CUDA,XLA,Meta,PrivateUse1,SparseCPU,QuantizedCPU,AutogradOther,AutogradCPU,AutogradXLA,BackendSelect,Python"
    runs = []
    for profile in ("torch-main", "torch-1.13"):
        for files in [[f] for f in examples] + [npu]:
            # 1.13 cannot rename PrivateUse1 (privateuse1.toml is torch-main only).
            if profile == "torch-1.13" and any(f.endswith("privateuse1.toml") for f in files):
                continue
            base = ["--profile", profile]
            runs.append(("table", ["table", "--format", "json", *base, *files]))
            runs.append(("registrations", ["registrations", "--format", "json", *base, *files]))
            runs.append(("keys", ["keys", "--format", "json", *base, *files]))
            runs.append(("coverage", ["coverage", "--format", "json", *base, "--backend", "CPU", *files]))
            ops = json.loads(run(tool, ["table", "--format", "json", *base, *files], root).stdout)["operators"]
            shown = keys if profile == "torch-1.13" else keys.replace("PrivateUse1,", "")
            for op in ops[:6]:
                runs.append(("explain", ["explain", "--format", "json", *base, "--op", op["name"], "--keys", shown,
                                         *files]))
    for profile in ("torch-main", "torch-1.13"):
        runs.append(("keys", ["keys", "--format", "json", "--profile", profile]))
    lib = ["--profile", "torch-1.13"]
    for op in ("aten::add.Tensor", "aten::mm", "aten::_foreach_add.Scalar", "c10d::broadcast_", "aten::size.int"):
        runs.append(("table", ["table", "--format", "json", *lib, "--op", op]))
        runs.append(("registrations", ["registrations", "--format", "json", *lib, "--op", op]))
        runs.append(("explain", ["explain", "--format", "json", *lib, "--op", op, "--keys", keys]))
    runs.append(("table", ["table", "--format", "json", *lib, "--all"]))
    runs.append(("registrations", ["registrations", "--format", "json", *lib, "--all"]))
    runs.append(("coverage", ["coverage", "--format", "json", *lib, "--backend", "PrivateUse1", *npu]))
    return runs


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tool", required=True)
    ap.add_argument("--root", required=True)
    a = ap.parse_args()
    root, tool = os.path.abspath(a.root), os.path.abspath(a.tool)
    checks = Checks()

    goldens = golden_outputs(root)
    seen = set()
    for name, command, stdout in goldens:
        try:
            doc = json.loads(stdout)
        except json.JSONDecodeError as e:
            checks.check(False, f"{name}: stdout is not JSON: {e}")
            continue
        errs = validate.validate(schema_of(root, command), doc)
        checks.check(not errs, f"golden {name} validates against {command}.schema.json: {errs[:5]}")
        seen.add(command)
    seen.discard("coverage-against")
    checks.check(seen == set(COMMANDS), f"goldens with --format json cover every command: {sorted(seen)}")

    t0 = time.monotonic()
    n = 0
    for command, args in real_runs(tool, root):
        r = run(tool, args, root)
        if not checks.check(r.returncode == 0, f"{' '.join(args)}: exit {r.returncode}: {r.stderr[:300]}"):
            continue
        errs = validate.validate(schema_of(root, command), json.loads(r.stdout))
        checks.check(not errs, f"{' '.join(args)} validates: {errs[:5]}")
        n += 1
    print(f"{n} real outputs validated in {time.monotonic() - t0:.1f} s")
    checks.check(n >= 80, f"at least 80 real outputs validated ({n})")

    # Bad input: exit 2 and no partial document.
    with tempfile.TemporaryDirectory() as d:
        bad = os.path.join(d, "bad.toml")
        with open(bad, "w") as f:
            f.write("namespace = \"x\"\n[[def]]\nschema = \"f(Tensor x -> Tensor\"\n")
        for command in ("table", "registrations", "keys", "explain"):
            args = [command, "--format", "json", bad] + (["--keys", "CPU"] if command == "explain" else [])
            r = run(tool, args, d)
            checks.check(r.returncode == 2 and r.stdout == "" and "error" in r.stderr,
                         f"{command} --format json on bad input: exit 2, empty stdout ({r.returncode}, {r.stdout[:80]!r})")

    print(f"{checks.passed} passed, {checks.failed} failed")
    return 1 if checks.failed else 0


if __name__ == "__main__":
    sys.exit(main())
