#!/usr/bin/python3
"""The recorded CUDA build (issue 28; ../shared/reference/cuda-2.11: PyTorch
2.11.0+cu130 on an H100) against the profile dispatchtool-export wrote there
(export.tar.xz; export-plain after `import torch`, export-tv after
`import torchvision, torchaudio` too):

1. the round trip: `table --raw --all` and `registrations --raw --all` under
   each export print every operator's _dispatch_dump_table and _dispatch_dump
   exactly as the real build did (3,692 + 3,692 + 3,750 + 3,750 = 14,884);
2. the key sets: `trace` of a call on each recorded tensor (CUDA dense, with
   requires_grad, half, made under inference_mode, nested, quantized, sparse
   COO and CSR; CPU; meta) holds the keys torch._C._dispatch_keys printed;
3. the thread-local state: trace's included and excluded sets, plain and
   under no_grad, inference_mode and autocast("cuda"), are the sets
   torch._C._dispatch_tls_local_{include,exclude}_set printed (c10 prints the
   runtime keys of a set: a per-backend functionality with no backend bit,
   AutogradFunctionality under inference_mode, prints nothing);
4. the backend fallbacks: a runtime key has one under the export exactly when
   torch._C._dispatch_has_backend_fallback said so.

A missing recording is a failure, never a skip.

    cuda_export.py --tool build/dispatchtool --reference ../shared/reference/cuda-2.11 --workdir DIR
"""
import argparse
import json
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
from checks import Checks  # noqa: E402
from cuda_recorded import unpack_reference  # noqa: E402

# keys.json's tensors, as trace's --arg words.
TENSORS = {
    "cpu_float": "cpu",
    "cuda_float": "cuda",
    "cuda_float_requires_grad": "cuda,requires_grad",
    "cuda_half": "cuda",
    "cuda_inference_mode": "cuda,inference",
    "cuda_nested": "nested_cuda",
    "cuda_quantized": "quantized_cuda",
    "cuda_sparse_coo": "sparse_cuda",
    "cuda_sparse_csr": "sparse_csr_cuda",
    "meta": "meta",
}
# keys.json's thread-local states, as trace's options.
STATES = {
    "plain": [],
    "no_grad": ["--no-grad"],
    "inference_mode": ["--inference-mode"],
    "autocast_cuda": ["--autocast", "cuda"],
}
# Functionality keys that hold one runtime key per backend bit (c10's
# isPerBackendFunctionalityKey): with no backend bit, a set prints none of them.
PER_BACKEND = {"Dense", "Quantized", "Sparse", "SparseCsr", "NestedTensor", "AutogradFunctionality"}


def run(tool, *args):
    r = subprocess.run([tool, *args], capture_output=True, text=True, check=False)
    if r.returncode != 0:
        raise SystemExit(f"{tool} {' '.join(args)}: exit {r.returncode}\n{r.stderr}")
    return r.stdout


def blocks(text):
    """{op: its dump} from '### op' blocks."""
    out, op, lines = {}, None, []
    for line in text.splitlines():
        if line.startswith("### "):
            if op is not None:
                out[op] = "\n".join(lines).strip("\n")
            op, lines = line[4:], []
        else:
            lines.append(line)
    if op is not None:
        out[op] = "\n".join(lines).strip("\n")
    return out


def printed(keyset):
    """The keys of c10's 'DispatchKeySet(A, B)'."""
    m = re.fullmatch(r"DispatchKeySet\((.*)\)", keyset)
    return [k for k in m.group(1).split(", ") if k] if m else None


def tls_printed(part):
    """trace's {"functionality": [...], "backends": [...]} as c10 prints the set (no backend bits here)."""
    if part["backends"]:
        return None  # not a shape the recorded states have
    return [k for k in part["functionality"] if k not in PER_BACKEND]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tool", required=True)
    ap.add_argument("--reference", required=True)
    ap.add_argument("--workdir", required=True)
    a = ap.parse_args()
    if not unpack_reference(a.reference, a.workdir):
        return 1
    c = Checks()

    # 1. The round trip, every operator.
    dumps = 0
    for part in ("plain", "tv"):
        profile = os.path.join(a.workdir, f"export-{part}")
        for command, recorded in (("table", "tables.txt"), ("registrations", "states.txt")):
            with open(os.path.join(a.workdir, part, recorded), encoding="utf-8") as f:
                real = blocks(f.read())
            ours = blocks(run(a.tool, command, "--raw", "--all", "--profile", profile))
            c.check(sorted(ours) == sorted(real),
                    f"{part} {command}: the same operators ({len(ours)} here, {len(real)} recorded; "
                    f"{sorted(set(real) ^ set(ours))[:5]})")
            differ = [op for op in real if ours.get(op) != real[op]]
            c.check(not differ, f"{part} {command}: every dump equal; {len(differ)} differ, e.g. {differ[:3]}")
            dumps += len(real) - len(differ)
    print(f"round trip: {dumps:,} dumps equal (3,692 + 3,692 operators after import torch, 3,750 + 3,750 with "
          f"torchvision and torchaudio)")
    c.check(dumps == 14884, f"14,884 dumps equal ({dumps:,})")

    with open(os.path.join(a.workdir, "keys.json"), encoding="utf-8") as f:
        keys = json.load(f)
    export = os.path.join(a.workdir, "export-plain")

    def trace(*args):
        return json.loads(run(a.tool, "trace", "--profile", export, "--op", "aten::abs", "--format", "json", *args))

    # 2. The key sets of real tensors.
    c.check(sorted(keys["keys"]) == sorted(TENSORS), f"the recorded tensors are those named here: {sorted(keys['keys'])}")
    for name, words in TENSORS.items():
        want = printed(keys["keys"].get(name, ""))
        got = trace("--arg", words)["arguments"][0]["tensors"][0]["keyset"]
        c.check(got == want, f"{name} ({words}): trace's key set {got}, the real tensor's {want}")

    # 3. The thread-local state.
    c.check(sorted(keys["tls"]) == sorted(STATES), f"the recorded states are those named here: {sorted(keys['tls'])}")
    for name, options in STATES.items():
        include, exclude = (printed(s) for s in keys["tls"][name])
        tls = trace("--arg", "cuda", *options)["tls"]
        c.check(tls_printed(tls["included"]) == include,
                f"{name}: included {tls_printed(tls['included'])}, real {include}")
        c.check(tls_printed(tls["excluded"]) == exclude,
                f"{name}: excluded {tls_printed(tls['excluded'])}, real {exclude}")

    # 4. The backend fallbacks of every runtime key.
    runtime = json.loads(run(a.tool, "keys", "--profile", export, "--format", "json"))["runtime_keys"]
    compared = 0
    for k in runtime:
        if k["name"] not in keys["fallbacks"]:
            continue
        compared += 1
        c.check((k["fallback"] is not None) == keys["fallbacks"][k["name"]],
                f"{k['name']}: a backend fallback here {k['fallback'] is not None}, "
                f"real {keys['fallbacks'][k['name']]}")
    c.check(compared >= 100, f"the runtime keys compared ({compared})")
    print(f"key sets: {len(TENSORS)} tensors, {len(STATES)} thread-local states, {compared} keys' fallbacks")
    return c.finish()


if __name__ == "__main__":
    sys.exit(main())
