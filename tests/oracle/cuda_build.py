#!/usr/bin/python3
"""--build cuda against a real CUDA build (issue 28): PyTorch 2.11.0+cu130's own
dumps (../shared/reference/cuda-2.11/plain/tables.txt, every operator's
_dispatch_dump_table after `import torch`, recorded on an H100).

Rows are compared by where their kernel comes from, since files and lines
move between releases: a kernel torchgen generates (the real build's
Register<KEY>_N.cpp, --build's native_functions.yaml line), else its source
file (no line; a shard of torchgen's sharded files by its shard-less name)
and its kind ([kernel], [backend fallback], ...). An operator
is comparable when every row off the CUDA keys (CUDA, SparseCUDA,
SparseCsrCUDA, QuantizedCUDA, NestedTensorCUDA) agrees, the Named rows
aside (2.11 registers a fallthrough per operator there, 2.14 none).

1. `--profile torch-2.14 --build cuda` (the CPU library + the release's yaml):
   every comparable aten:: operator's CUDA rows agree with the real build's,
   and the ones that do not are all PyTorch's hand-written registrations
   (files no yaml names). The figure is printed.
2. `--profile torch-2.6 --build cuda --build-source TREE` (TREE: PyTorch
   2.6.0's sources, Debian's tarball): every hand-written CUDA row of the
   real build whose file and operator 2.6.0's sources have is reproduced
   (same file); the rest (symm_mem's NVSHMEM and NCCL kernels, newer than
   2.6) are listed as what 2.6 does not have.

A missing recording or tree is a failure, never a skip.

    cuda_build.py --tool build/dispatchtool --reference ../shared/reference/cuda-2.11 \\
        --tree /var/cache/dispatchtool/sources/pytorch-2.6.0-csrc --workdir DIR
"""
import argparse
import collections
import os
import re
import shutil
import subprocess
import sys
import tarfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
from checks import Checks  # noqa: E402

CUDA_KEYS = {"CUDA", "SparseCUDA", "SparseCsrCUDA", "QuantizedCUDA", "NestedTensorCUDA"}
GENERATED = re.compile(r"(^|/)(Register\w+\.cpp|native_functions\.yaml)$")
ROW = re.compile(r"^(fallthrough )?registered at (\S+?)(:\d+)? \[(.*)\]$")


def parse_tables(text):
    """{op: {key: row}} from '### op' blocks of _dispatch_dump_table."""
    ops, op = {}, None
    for line in text.splitlines():
        if line.startswith("### "):
            op = line[4:]
            ops[op] = {}
        elif op is not None and ": " in line:
            key, row = line.split(": ", 1)
            ops[op][key] = row
    return ops


def source_file(path):
    """A kernel's file as the tree names it: the build's prefix (/pytorch/, ./) and
    the installed Python's site- or dist-packages taken off."""
    path = re.sub(r"^(/pytorch/|\./)", "", path)
    return re.sub(r"^.*/(site|dist)-packages/", "", path)


def provenance(row):
    m = ROW.match(row)
    if not m:
        return row
    # torchgen's kernels: Register<KEY>_N.cpp (a yaml line for --build); its
    # other sharded files (VariableType_N.cpp, TraceType_N.cpp) by shard-less name.
    path = "<generated>" if GENERATED.search(m.group(2)) else re.sub(r"_\d+\.cpp$", "_N.cpp", source_file(m.group(2)))
    return f"{m.group(1) or ''}{path} [{m.group(4)}]"


def rows(ops, op, cuda):
    return {k: provenance(v) for k, v in ops[op].items() if (k in CUDA_KEYS) == cuda and k != "Named"}


def tables(tool, *args):
    r = subprocess.run([tool, "table", "--raw", "--all", *args], capture_output=True, text=True, check=False)
    if r.returncode != 0:
        raise SystemExit(f"{tool} table --raw --all {' '.join(args)}: exit {r.returncode}\n{r.stderr}")
    return parse_tables(r.stdout)


def compare(real, est):
    """(comparable ops, {op: (real CUDA rows, estimated CUDA rows)} where they differ)."""
    comparable, differ = [], {}
    for op in sorted(set(real) & set(est)):
        if rows(real, op, False) != rows(est, op, False):
            continue
        comparable.append(op)
        r, e = rows(real, op, True), rows(est, op, True)
        if r != e:
            differ[op] = (r, e)
    return comparable, differ


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tool", required=True)
    ap.add_argument("--reference", required=True)
    ap.add_argument("--tree", required=True, help="PyTorch 2.6.0's sources (aten/src/ATen, torch/csrc, version.txt)")
    ap.add_argument("--workdir", required=True)
    a = ap.parse_args()
    dumps = os.path.join(a.reference, "dumps.tar.xz")
    if not os.path.isfile(dumps):
        print(f"FAIL: the recorded CUDA build is missing: {dumps}")
        return 1
    if not os.path.isfile(os.path.join(a.tree, "version.txt")):
        print(f"FAIL: PyTorch 2.6.0's sources are missing: {a.tree} (tests/realworld/sources.py pytorch-2.6.0-csrc)")
        return 1
    shutil.rmtree(a.workdir, ignore_errors=True)
    os.makedirs(a.workdir)
    with tarfile.open(dumps) as t:
        member = t.extractfile("plain/tables.txt")
        real = parse_tables(member.read().decode("utf-8"))
    c = Checks()

    # 1. The yaml estimate of the default profile.
    est = tables(a.tool, "--profile", "torch-2.14", "--build", "cuda")
    comparable, differ = compare(real, est)
    agree = len(comparable) - len(differ)
    by_ns = collections.Counter(op.split("::")[0] for op in differ)
    print(f"torch-2.14 --build cuda vs the real 2.11.0+cu130 build: {agree:,}/{len(comparable):,} comparable "
          f"operators have the same CUDA rows; the others by namespace: {dict(sorted(by_ns.items()))}")
    c.check(len(comparable) >= 3400, f"most operators are comparable ({len(comparable)})")
    aten = [op for op in comparable if op.startswith("aten::")]
    c.check(len(aten) >= 2500 and not [op for op in differ if op.startswith("aten::")],
            f"every comparable aten:: operator agrees ({len(aten)} compared): "
            f"{[op for op in differ if op.startswith('aten::')][:5]}")
    for op, (r, e) in differ.items():
        hand = {k: v for k, v in r.items() if k not in e}
        c.check(hand and all("<generated>" not in v for v in hand.values()) and
                all(r.get(k) == v for k, v in e.items()),
                f"{op}: the estimate lacks only hand-written rows (real {r}, estimate {e})")

    # 2. The release's own sources: the hand-written registrations, those
    # rows of the real build that part 1's estimate lacks. 2.6's other rows
    # are not 2.11's, so rows are compared one by one, and by file name: files
    # move between releases (c10d/CUDASymmetricMemoryOps.cu in 2.6 is
    # c10d/symm_mem/ in 2.11).
    plain26 = tables(a.tool, "--profile", "torch-2.6", "--build", "cuda")
    est26 = tables(a.tool, "--profile", "torch-2.6", "--build", "cuda", "--build-source", a.tree)
    hand_written = [(op, k, v) for op, (r, e) in sorted(differ.items()) for k, v in r.items() if k not in e]

    def same_file(x, y):
        return y is not None and os.path.basename(x.split(" [")[0]) == os.path.basename(y.split(" [")[0]) \
            and x.split(" [")[1] == y.split(" [")[1]

    reproduced, absent = [], []
    for op, k, v in hand_written:
        if op in est26 and same_file(v, rows(est26, op, True).get(k)):
            reproduced.append(op)
            continue
        path = os.path.join(a.tree, v.split(" [")[0])
        if not os.path.isfile(path):  # moved: where 2.6 has a file of that name
            found = [os.path.join(d, f) for d, _, fs in os.walk(a.tree) for f in fs
                     if f == os.path.basename(path)]
            path = found[0] if found else path
        name = op.split("::", 1)[1].split(".")[0]
        text = open(path, encoding="utf-8", errors="replace").read() if os.path.isfile(path) else ""
        if re.search(r'"(\w+::)?' + re.escape(name) + r'(\.\w+)?"', text):
            c.check(False, f"{op} on {k}: 2.6.0's {v.split(' [')[0]} registers it, and the tool does not read it "
                           f"(estimate: {rows(est26, op, True).get(k)})")
        else:
            absent.append(f"{op} ({v.split(' [')[0]})")
    added = sum(1 for op in est26 for k in rows(est26, op, True)
                if rows(est26, op, True)[k] != rows(plain26, op, True).get(k))
    print(f"torch-2.6 --build cuda --build-source (2.6.0's sources): of the real build's {len(hand_written)} "
          f"hand-written CUDA rows above, {len(reproduced)} reproduced (same file name), "
          f"{len(absent)} not in 2.6.0's sources; {added} rows added in all:")
    for x in absent:
        print(f"  {x}")
    c.check(len(reproduced) >= 20, f"the quantized, quantization and symm_mem rows 2.6 has are read ({len(reproduced)})")
    wrong = [op for op in est26 if op in plain26 and rows(est26, op, False) != rows(plain26, op, False)]
    c.check(not wrong, f"the sources add rows on the build's keys only: {wrong[:5]}")
    c.check(added == len(reproduced), f"every row the sources add is one the real build has ({added} added, "
                                      f"{len(reproduced)} reproduced)")
    return c.finish()


if __name__ == "__main__":
    sys.exit(main())
