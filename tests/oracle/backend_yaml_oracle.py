#!/usr/bin/env python3
"""oracle.<release>.backend_yaml: dispatchtool's reading of gen_backend_stubs
backend yaml against torchgen of the release (gen_backend_stubs.py
parse_backend_yaml + the RegisterDispatchKey registrations
gen_dispatcher_registrations writes for the backend key and its autograd
key). Run with the release's python (tools/oracle-env python RELEASE ...).

Inputs: PyTorch 2.6.0's own Lazy (TorchScript) backend yaml,
aten/src/ATen/native/ts_native_functions.yaml (full_codegen, supported,
autograd, ir_gen, symint, non_native), from Debian's source tarball
(tests/realworld/sources.py pytorch-2.6.0-library-users, --tree: downloaded
at test time, never committed; a missing tree fails), and generated files
over the release's own operators: every 3rd native function as `supported`
with use_out_as_primary false (so torchgen generates in-place and out=
wrappers) and every 7th as `autograd`, for backends XLA and PrivateUse1.
"""
import argparse
import os
import re
import subprocess
import sys
import tomllib

IMPL = re.compile(r'm\.impl\("(?:aten::)?([^"]+)"')


def torchgen_regs(native_yaml, tags_yaml, backend_yaml):
    from torchgen import dest
    from torchgen.gen import get_grouped_native_functions, parse_native_yaml
    from torchgen.gen_backend_stubs import parse_backend_yaml
    from torchgen.selective_build.selector import SelectiveBuilder
    from torchgen.utils import Target
    import yaml

    parsed = parse_native_yaml(native_yaml, tags_yaml)
    grouped = get_grouped_native_functions(parsed.native_functions)
    # The in-tree indices hold every key (XPU too): an out-of-tree backend's
    # own keys start empty, as in a build without that backend.
    with open(backend_yaml) as f:
        backend = yaml.load(f, Loader=yaml.CSafeLoader)["backend"]
    indices = {k: v for k, v in parsed.backend_indices.items() if str(k) not in (backend, f"Autograd{backend}")}
    ext = parse_backend_yaml(backend_yaml, grouped, indices)
    out = set()
    for key in (ext.backend_key, ext.autograd_key):
        if key is None:
            continue
        gen = dest.RegisterDispatchKey(ext.backend_indices[key], Target.REGISTRATION,
                                       SelectiveBuilder.get_nop_selector(), rocm=False, symint=True,
                                       class_method_name="C", skip_dispatcher_op_registration=False)
        for f in grouped:
            for reg in gen(f):
                for m in IMPL.finditer(reg):
                    out.add((str(key), m.group(1)))
    return out


def tool_regs(tool, profile, path):
    text = subprocess.run([tool, "import", "--profile", profile, path], check=True, capture_output=True,
                          text=True).stdout
    doc = tomllib.loads(text)
    blocks = doc.get("block", [doc])
    out = set()
    for b in blocks:
        for e in b.get("impl", []):
            out.add((b["dispatch_key"], e["op"].split("::", 1)[1]))
    return out


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--tool", required=True)
    ap.add_argument("--profile", required=True)
    ap.add_argument("--workdir", required=True)
    ap.add_argument("--tree", required=True, help="tests/realworld/sources.py pytorch-2.6.0-library-users's directory")
    args = ap.parse_args()
    import torchgen
    import yaml

    native = os.path.join(os.path.dirname(torchgen.__file__), "packaged", "ATen", "native")
    nf, tags = os.path.join(native, "native_functions.yaml"), os.path.join(native, "tags.yaml")
    os.makedirs(args.workdir, exist_ok=True)
    from torchgen.gen import get_grouped_native_functions, parse_native_yaml
    from torchgen.model import NativeFunctionsGroup

    grouped = get_grouped_native_functions(parse_native_yaml(nf, tags).native_functions)
    supported, autograd = [], []
    for i, g in enumerate(grouped):
        fns = list(g.functions()) if isinstance(g, NativeFunctionsGroup) else [g]
        if i % 6 == 0:
            supported += fns  # the whole group
        elif i % 6 == 3:
            supported.append(fns[0])  # the functional one only: wrappers for the others
        elif i % 7 == 1:
            autograd.append(fns[0])
    lazy = os.path.join(args.tree, "aten", "src", "ATen", "native", "ts_native_functions.yaml")
    if not os.path.isfile(lazy):
        print(f"backend_yaml_oracle: FAIL: no {lazy} (tests/realworld/sources.py pytorch-2.6.0-library-users "
              "extracts it)")
        return 1
    inputs = [lazy]
    for backend in ("XLA", "PrivateUse1"):
        path = os.path.join(args.workdir, f"{backend}.yaml")
        with open(path, "w") as f:
            f.write(f"backend: {backend}\ncpp_namespace: torch_{backend.lower()}\nsupported:\n")
            f.writelines(f"- {fn.func.name}\n" for fn in supported)
            f.write("autograd:\n")
            f.writelines(f"- {fn.func.name}\n" for fn in autograd)
        inputs.append(path)
    ok = True
    for path in inputs:
        want, got = torchgen_regs(nf, tags, path), tool_regs(args.tool, args.profile, path)
        name = os.path.basename(path)
        if want == got:
            print(f"{args.profile} {name}: {len(want)}/{len(want)} registrations equal")
            continue
        ok = False
        print(f"{args.profile} {name}: {len(want - got)} only torchgen, {len(got - want)} only dispatchtool")
        for k, op in sorted(want - got)[:30]:
            print(f"  only torchgen: {k} {op}")
        for k, op in sorted(got - want)[:30]:
            print(f"  only dispatchtool: {k} {op}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
