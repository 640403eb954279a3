#!/usr/bin/env python3
"""oracle.<release>.native_yaml: dispatchtool's reading of the release's own
native_functions.yaml against torchgen of that release. Run with the release's
python (tools/oracle-env python RELEASE ...), never skipped.

1. torchgen: every (dispatch key, operator) registration RegisterDispatchKey
   and ComputeBackendSelect emit for the packaged yaml with every backend
   enabled (tools/torchgen_registrations.py), against the [[impl]] entries of
   `dispatchtool import` of the same file: equal sets.
2. The real CPU build: the codegen kernels of the release's operator library
   (configs/library/RELEASE, exported from its _dispatch_dump: kernels
   "registered at ./build/aten/src/ATen/Register<KEY>[_N].cpp:LINE") against
   what the tool derives for the keys a CPU build generates: equal sets, up
   to the differences listed in KNOWN_CPU_BUILD (each explained there).
3. A file of new operators (NEW_OPERATORS: a fork's or a pull request's,
   three namespaces), against RegisterSchema.cpp of torchgen: the aten
   functions the release does not have, and every other namespace's, are
   defined by the file, in TORCH_LIBRARY(NS) or a FRAGMENT as torchgen
   writes them, with the tags torchgen implies; aten's that the release has
   are not defined again; and the registrations are torchgen's, as in 1.
"""
import argparse
import os
import re
import subprocess
import sys
import tomllib

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "tools"))

# The keys a CPU-only build generates Register<KEY>.cpp for (gen.py without
# --mps/--xpu/--mtia; CUDA and HIP need a GPU build), and BackendSelect.
CPU_BUILD_KEYS = {
    "CPU", "SparseCPU", "SparseCsrCPU", "MkldnnCPU", "QuantizedCPU", "NestedTensorCPU",
    "CompositeImplicitAutograd", "CompositeImplicitAutogradNestedTensor", "CompositeExplicitAutograd",
    "CompositeExplicitAutogradNonFunctional", "Meta", "SparseMeta", "SparseCsrMeta", "QuantizedMeta",
    "NestedTensorMeta", "ZeroTensor", "BackendSelect",
}
CODEGEN = re.compile(r"registered at \./build/aten/src/ATen/Register(\w+?)(?:_\d+)?\.cpp:\d+")


# Written for this test: new operators as a fork of PyTorch would add them.
NEW_OPERATORS = """\
- func: dt_scale(Tensor self, float factor) -> Tensor
  variants: function
  dispatch:
    CPU: dt_scale_cpu
    CompositeExplicitAutograd: dt_scale_default
  tags: pointwise
- func: dt_scale.out(Tensor self, float factor, *, Tensor(a!) out) -> Tensor(a!)
  dispatch:
    CPU: dt_scale_out
- func: dt_scale_(Tensor(a!) self, float factor) -> Tensor(a!)
  dispatch:
    Meta: dt_scale_meta_
- func: relu(Tensor self) -> Tensor
  dispatch:
    CPU: relu_again
- func: dtfork::pack(Tensor a, Tensor b) -> Tensor
  tags: [pointwise, core]
  dispatch:
    CPU: dtfork_pack
- func: dtfork::unpack(Tensor packed) -> Tensor[]
- func: quantized::dt_requant(Tensor qx, float scale) -> Tensor
  dispatch:
    QuantizedCPU: dt_requant
"""


def tool_definitions(tool, profile, yaml_path):
    """(namespace, macro, schema, tags) of every [[def]] of `dispatchtool import`."""
    out = subprocess.run([tool, "import", "--profile", profile, yaml_path], check=True,
                         capture_output=True, text=True).stdout
    doc = tomllib.loads(out)
    defs = []
    for block in doc.get("block", [doc]):
        macro = "TORCH_LIBRARY" if block["kind"] == "DEF" else "TORCH_LIBRARY_FRAGMENT"
        for d in block.get("def", []):
            defs.append((block["namespace"], macro, d["schema"], sorted(d.get("tags", []))))
    return defs


def new_operators(tool, profile, tags_path):
    import tempfile

    import torch
    import torchgen_registrations
    have = set(torch._C._dispatch_get_all_op_names())
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "native_functions.yaml")
        with open(path, "w", encoding="utf-8") as f:
            f.write(NEW_OPERATORS)
        expected = []
        for ns, macro, schema, tags in torchgen_registrations.schema_registrations(path, tags_path):
            name = schema.split("(", 1)[0]
            if ns == "aten" and "aten::" + name in have:
                continue  # the release defines it: the profile's library does
            # aten's block is the template's TORCH_LIBRARY(aten) in torchgen; on top of the release, a FRAGMENT.
            expected.append((ns, "TORCH_LIBRARY_FRAGMENT" if ns == "aten" else macro,
                             schema if ns == "aten" else f"{ns}::{schema}", tags))
        got = tool_definitions(tool, profile, path)
        impls = set(torchgen_registrations.registrations(path, tags_path))
        got_impls, _ = tool_registrations(tool, profile, path)
    ok = True
    if sorted(expected) != sorted(got):
        ok = False
        print("new operators: RegisterSchema vs dispatchtool differ")
        for e in sorted(set(expected) - set(got), key=str):
            print(f"  only torchgen: {e}")
        for e in sorted(set(got) - set(expected), key=str):
            print(f"  only dispatchtool: {e}")
    else:
        print(f"new operators: {len(expected)}/{len(expected)} definitions equal "
              f"({len(set(e[0] for e in expected))} namespaces; {sum(len(e[3]) for e in expected)} tags)")
    if impls != got_impls:
        ok = False
        report("new operators: torchgen vs dispatchtool", impls - got_impls, "torchgen", got_impls - impls,
               "dispatchtool")
    else:
        print(f"new operators: {len(impls)}/{len(impls)} registrations equal")
    return ok


def tool_registrations(tool, profile, yaml_path):
    out = subprocess.run([tool, "import", "--profile", profile, yaml_path], check=True,
                         capture_output=True, text=True).stdout
    doc = tomllib.loads(out)
    regs = [(e["key"], e["op"].split("::", 1)[1]) for block in doc.get("block", [doc]) for e in block.get("impl", [])]
    if len(regs) != len(set(regs)):
        dup = sorted({r for r in regs if regs.count(r) > 1})
        sys.exit(f"dispatchtool registers {len(regs) - len(set(regs))} kernels twice: {dup[:10]}")
    return set(regs), sum(len(block.get("def", [])) for block in doc.get("block", [doc]))


def library_codegen(profile):
    lib = os.path.join(ROOT, "configs", "library", profile)
    regs = set()
    for name in sorted(os.listdir(lib)):
        if not name.startswith("aten-"):
            continue
        with open(os.path.join(lib, name), "rb") as f:
            doc = tomllib.load(f)
        for e in doc.get("impl", []):
            m = CODEGEN.fullmatch(e.get("kernel", ""))
            if m and m.group(1) in CPU_BUILD_KEYS:
                regs.add((e["key"], e["op"].split("::", 1)[1]))
    return regs


def report(title, only_a, name_a, only_b, name_b):
    print(f"{title}: {len(only_a)} only in {name_a}, {len(only_b)} only in {name_b}")
    for k, op in sorted(only_a)[:40]:
        print(f"  only {name_a}: {k} {op}")
    for k, op in sorted(only_b)[:40]:
        print(f"  only {name_b}: {k} {op}")


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--tool", required=True)
    ap.add_argument("--profile", required=True)
    args = ap.parse_args()
    import torchgen  # the release's own

    native = os.path.join(os.path.dirname(torchgen.__file__), "packaged", "ATen", "native")
    yaml_path, tags_path = os.path.join(native, "native_functions.yaml"), os.path.join(native, "tags.yaml")
    import torchgen_registrations

    ok = True
    expected = set(torchgen_registrations.registrations(yaml_path, tags_path))
    got, defs = tool_registrations(args.tool, args.profile, yaml_path)
    print(f"{args.profile}: torchgen generates {len(expected)} registrations over "
          f"{len({k for k, _ in expected})} keys; dispatchtool derives {len(got)} ({defs} defs)")
    if expected != got:
        ok = False
        report("torchgen vs dispatchtool", expected - got, "torchgen", got - expected, "dispatchtool")
    else:
        print(f"torchgen vs dispatchtool: {len(expected)}/{len(expected)} registrations equal")

    real = library_codegen(args.profile)
    derived = {(k, op) for k, op in got if k in CPU_BUILD_KEYS}
    if real != derived:
        ok = False
        report("real CPU build vs dispatchtool", real - derived, "real library", derived - real, "dispatchtool")
    else:
        print(f"real CPU build vs dispatchtool: {len(real)}/{len(real)} codegen kernels equal")
    ok = new_operators(args.tool, args.profile, tags_path) and ok
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
