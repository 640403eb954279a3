#!/usr/bin/python3
"""trace against the recorded CUDA build (issue 28): what trace says of CUDA
calls, checked on PyTorch 2.11.0+cu130's own dumps
(../shared/reference/cuda-2.11/, recorded on a machine with an H100).

For each operator below, the real build's `_dispatch_dump_table` names the
kernel its CUDA row runs. Then:

- under the profile dispatchtool-export wrote on that build (export-plain),
  `trace --arg cuda ...` ends on exactly that kernel, and says nothing about
  the library (library_note null): the export is that build;
- under the built-in torch-2.14 profile (Debian's CPU package), the CUDA
  kernel is not the real build's, and trace says so (library_note names the
  CPU library and the ways to the real answer);
- with --build cuda, the note says the CUDA kernels are that estimate.

A missing recording is a failure, never a skip.

    cuda_recorded.py --tool build/dispatchtool --reference ../shared/reference/cuda-2.11 --workdir DIR
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import tarfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
from checks import Checks  # noqa: E402

# Operators and their tensor arguments (one --arg cuda each).
CALLS = {
    "aten::mm": 2,
    "aten::add.Tensor": 2,
    "aten::mul.Tensor": 2,
    "aten::abs": 1,
    "aten::relu": 1,
    "aten::sum": 1,
}


def real_cuda_rows(tables):
    """{op: the CUDA row's kernel text} from a tables.txt of '### op' blocks."""
    rows, op = {}, None
    with open(tables, encoding="utf-8") as f:
        for line in f:
            line = line.rstrip("\n")
            if line.startswith("### "):
                op = line[4:]
            elif op in CALLS and line.startswith("CUDA: "):
                rows[op] = line[len("CUDA: "):]
    return rows


def trace(tool, op, nargs, *extra):
    cmd = [tool, "trace", "--op", op, "--format", "json", *extra]
    for _ in range(nargs):
        cmd += ["--arg", "cuda"]
    r = subprocess.run(cmd, capture_output=True, text=True, check=False)
    if r.returncode != 0:
        raise SystemExit(f"{' '.join(cmd)}: exit {r.returncode}\n{r.stderr}")
    return json.loads(r.stdout)


def unpack_reference(reference, workdir):
    """The recorded build's dumps and export, extracted into a fresh `workdir`;
    False (after printing FAIL) when the recording is missing."""
    for name in ("dumps.tar.xz", "export.tar.xz"):
        if not os.path.isfile(os.path.join(reference, name)):
            print(f"FAIL: the recorded CUDA build is missing: {os.path.join(reference, name)}")
            return False
    shutil.rmtree(workdir, ignore_errors=True)
    os.makedirs(workdir)
    for name in ("dumps.tar.xz", "export.tar.xz"):
        with tarfile.open(os.path.join(reference, name)) as t:
            try:
                t.extractall(workdir, filter="data")
            except TypeError:  # a Python without extraction filters (recorded data, read-only)
                t.extractall(workdir)
    return True


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tool", required=True)
    ap.add_argument("--reference", required=True)
    ap.add_argument("--workdir", required=True)
    a = ap.parse_args()
    if not unpack_reference(a.reference, a.workdir):
        return 1
    real = real_cuda_rows(os.path.join(a.workdir, "plain", "tables.txt"))
    export = os.path.join(a.workdir, "export-plain")
    c = Checks()
    c.check(sorted(real) == sorted(CALLS), f"the real dumps have a CUDA row for each operator: {sorted(real)}")
    for op, n in CALLS.items():
        want = real.get(op, "")
        # "KERNEL [kernel]": the dump's row; the trace's result names the kernel.
        want_kernel = want.rsplit(" [", 1)[0]
        t = trace(a.tool, op, n, "--profile", export)
        c.check(t["result"]["kernel"] == want_kernel,
                f"{op} under the CUDA export runs {t['result']['kernel']!r}, the real build {want_kernel!r}")
        c.check(t["library_note"] is None, f"{op} under the CUDA export: no library note ({t['library_note']!r})")
        cpu = trace(a.tool, op, n, "--profile", "torch-2.14")
        c.check(cpu["result"]["kernel"] != want_kernel,
                f"{op} under the CPU library does not run the real CUDA kernel ({cpu['result']['kernel']!r})")
        note = cpu["library_note"] or ""
        c.check("without CUDA kernels" in note and "--build cuda" in note and "dispatchtool-export" in note,
                f"{op} under the CPU library says so: {note!r}")
        est = trace(a.tool, op, n, "--profile", "torch-2.14", "--build", "cuda")
        c.check("--build cuda's" in (est["library_note"] or ""),
                f"{op} with --build cuda says the kernels are its estimate: {est['library_note']!r}")
    return c.finish()


if __name__ == "__main__":
    sys.exit(main())
