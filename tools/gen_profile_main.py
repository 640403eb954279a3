#!/usr/bin/python3
"""Write configs/profiles/torch-main.toml from the reference model's MAIN universe.

    /usr/bin/python3 tools/gen_profile_main.py [-o configs/profiles/torch-main.toml]
                                               [--model-dir ../shared/reference] [--check]

PyTorch main cannot be executed here, so this profile is *derived*: the key
universe, alias helper tables and backend fallbacks come from
dispatch_model.MAIN (a transcription of dispatch-semantics.md A.3, A.5, B, D.2),
the parse table from spec A.5 (107 names + `Named`, which main still has as
long as the key exists), and the registration-time behaviour from spec F.
`Named` is kept (spec A.3 caveat).

Consistency checks (exit status 1 on failure, nothing written): every listed
name is a key of the universe, and the universe expanded from the written
lists (gen_profile_113.Universe, the same A.1/A.4/B rules the tool uses)
reproduces the model's runtime-key order, alias membership for every key,
autogradother_backends and getBackendKeySetFromAutograd.
"""

import argparse
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)
from gen_profile_113 import Failures, Universe, device_types, render_profile, write_or_check  # noqa: E402

DEFAULT_OUT = os.path.join(ROOT, "configs", "profiles", "torch-main.toml")
DEFAULT_MODEL_DIR = os.path.join(os.path.dirname(ROOT), "shared", "reference")

# spec A.5, "main accepted names (from the newest source table, 107 names)"
MAIN_PARSEABLE_A5 = """Undefined Dense FPGA MAIA Metal Vulkan VE Meta Quantized CustomRNGKeyId MkldnnCPU
Sparse SparseCsr BackendSelect Python PythonTLSSnapshot Fake Conjugate Negative
ZeroTensor FuncTorchDynamicLayerBackMode Functionalize ADInplaceOrView AutogradOther
AutogradFunctionality AutogradNestedTensor Tracer AutocastCPU AutocastMTIA
AutocastMAIA AutocastXPU AutocastIPU AutocastHPU AutocastCUDA AutocastXLA
AutocastPrivateUse1 AutocastMPS FuncTorchBatched BatchedNestedTensor
FuncTorchVmapMode Batched VmapMode DeferredInit FuncTorchGradWrapper
FuncTorchDynamicLayerFrontMode TESTING_ONLY_GenericWrapper TESTING_ONLY_GenericMode
PythonDispatcher PreDispatch CPU CUDA HIP XLA MPS XPU IPU HPU Lazy MTIA NestedTensor
NestedTensorCPU NestedTensorCUDA NestedTensorXPU NestedTensorHPU NestedTensorMeta
NestedTensorPrivateUse1 PrivateUse1 PrivateUse2 PrivateUse3 QuantizedCPU
QuantizedCUDA QuantizedXPU QuantizedPrivateUse1 SparseCPU SparseCUDA SparseMPS
SparseCsrMPS SparseHIP SparseXPU SparseVE SparseMeta SparsePrivateUse1 SparseCsrCPU
SparseCsrCUDA SparseCsrHIP SparseCsrXPU SparseCsrVE SparseCsrMeta SparseCsrPrivateUse1
AutogradCPU AutogradCUDA AutogradXLA AutogradLazy AutogradMeta AutogradIPU AutogradXPU
AutogradMPS AutogradHPU AutogradPrivateUse1 AutogradPrivateUse2 AutogradPrivateUse3
Autograd CompositeImplicitAutograd CompositeImplicitAutogradNestedTensor
CompositeExplicitAutograd CompositeExplicitAutogradNonFunctional
FuncTorchBatchedDecomposition""".split()

# c10/core/Device.cpp parse_type (main): the device strings torch.device accepts.
MAIN_DEVICE_STRINGS = ["cpu", "cuda", "ipu", "xpu", "mkldnn", "opengl", "opencl", "ideep", "hip", "ve", "fpga",
                       "maia", "xla", "lazy", "vulkan", "mps", "meta", "hpu", "mtia", "privateuseone"]

# spec G.1: main has one autocast key per CPU/MTIA/MAIA/XPU/IPU/HPU/CUDA/XLA/PrivateUse1/MPS
MAIN_AUTOCAST = [("CPU", "AutocastCPU"), ("MTIA", "AutocastMTIA"), ("MAIA", "AutocastMAIA"),
                 ("XPU", "AutocastXPU"), ("IPU", "AutocastIPU"), ("HPU", "AutocastHPU"),
                 ("CUDA", "AutocastCUDA"), ("XLA", "AutocastXLA"),
                 ("PrivateUse1", "AutocastPrivateUse1"), ("MPS", "AutocastMPS")]


def build(dm, fails: Failures) -> dict:
    M = dm.MAIN
    parseable = list(MAIN_PARSEABLE_A5)
    fails.check(len(parseable) == 107 and len(set(parseable)) == 107, "spec A.5 lists 107 main names",
                str(len(parseable)))
    if "Named" in M.functionality and "Named" not in parseable:
        parseable.append("Named")
    p = {
        "name": "torch-main",
        "description": "PyTorch main (derived from source, 2.15.0a0 mirror; Named kept)",
        "torch_version": "main",
        "backends": list(M.backends),
        "functionality": list(M.functionality[1:]),
        "per_backend": [tuple(x) for x in M.per_backend],
        "aliases": list(M.aliases),
        "autogradother": list(M.autogradother_members),
        "autograd_backend_keys": list(M.autograd_to_backend),
        "autograd_key_backends": list(M.autograd_key_backends),
        "autocast_keys": MAIN_AUTOCAST,
        "non_functional_excluded_functionality": ["Sparse"],
        "non_functional_excluded_backends": ["XLA", "Lazy"],
        "override_warning": "once",
        # OperatorEntry::registerKernel (main), spec F.1; PyTorch indents the
        # line after it (see README: where the spec and the real thing differ).
        "override_warning_prefix": "Warning only once for all operators,  other operators may also be overridden.\n  ",
        "override_warning_exempt": ["Meta", "MTIA"],
        "multiple_fallbacks_exempt": ["AutogradPrivateUse1"],
        "reserved_namespaces": ["prim"],
        "reserved_namespace_kinds": ["DEF", "FRAGMENT"],
        "python_library_kinds": ["DEF", "IMPL", "FRAGMENT"],
        "privateuse1_rename": True,
        # c10::register_privateuse1_backend refuses these names.
        "privateuse1_reserved_names": ["cpu", "cuda", "hip", "mps", "xpu", "mtia"],
        "meta_on_composite": "exact",
        "dimname_prints_as_str": False,
        # spec F.5: "aten already has a DEF library" (torchgen's RegisterSchema.cpp).
        # Other core namespaces (quantized, sparse, c10d, ...) exist in main too, but
        # which ones a build registers, and where, cannot be measured here.
        "libraries": [("aten", "registered at <src>/build/aten/src/ATen/RegisterSchema.cpp:<n>")],
        # spec E.3 (torch/_python_dispatcher.py)
        "python_dispatcher_runtime_keys": ["CPU", "AutogradCPU", "FPGA", "AutogradOther", "XLA", "AutogradXLA",
                                           "Lazy", "AutogradLazy"],
        "python_dispatcher_alias_keys": ["CompositeExplicitAutograd", "Autograd", "CompositeImplicitAutograd"],
    }
    u = Universe(p["backends"], p["functionality"], p["per_backend"], p["aliases"],
                 p["autogradother"], p["autograd_backend_keys"],
                 p["non_functional_excluded_functionality"], p["non_functional_excluded_backends"])
    p["parseable"] = sorted(parseable, key=lambda k: (u.value.get(k, 1 << 30), k))
    runtime = u.runtime_keys()
    p["device_types"] = device_types(p["backends"], p["functionality"], lambda n: n in MAIN_DEVICE_STRINGS)
    p["fallbacks"] = [(k, M.fallbacks[k][1], M.fallbacks[k][0]) for k in runtime if k in M.fallbacks]

    # ---- consistency with the model ------------------------------------
    for k in parseable:
        fails.check(u.is_key(k), "parseable name %s is a key" % k)
    for k in M.fallbacks:
        fails.check(k in runtime, "fallback key %s is a runtime key" % k)
    for b, k in MAIN_AUTOCAST:
        fails.check(b in u.backends and u.is_key(k), "autocast %s -> %s" % (b, k))
    for k in p["python_dispatcher_runtime_keys"] + p["python_dispatcher_alias_keys"]:
        fails.check(u.is_key(k), "PythonDispatcher key %s is a key" % k)
    for k in p["override_warning_exempt"] + p["multiple_fallbacks_exempt"]:
        fails.check(u.is_key(k), "exempt key %s is a key" % k)
    fails.check(runtime == M.runtime_keys(), "runtime-key order equals the model's")
    fails.check(len(runtime) == 138, "main table has 138 slots", str(len(runtime)))
    for k, v in M.enum.items():
        fails.check(u.value.get(k) == v, "enum value of %s" % k, "%s vs model %s" % (u.value.get(k), v))
    fails.check(u.autogradother_ks() == M.autogradother_backends(), "autogradother_backends")
    all_keys = sorted(u.value, key=lambda k: u.value[k])
    for k in all_keys:
        if k in u.aliases:
            continue                 # the model does not follow C++ for alias k
        for a in u.aliases:
            fails.check(u.is_included_in_alias(k, a) == M.is_included_in_alias(k, a),
                        "isIncludedInAlias(%s, %s)" % (k, a))
        fails.check(u.backend_keyset_from_autograd(k) == M.backend_keyset_from_autograd(k),
                    "getBackendKeySetFromAutograd(%s)" % k)
    return p


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("-o", "--output", default=DEFAULT_OUT)
    ap.add_argument("--model-dir", default=os.environ.get("DISPATCH_MODEL_DIR", DEFAULT_MODEL_DIR),
                    help="directory holding dispatch_model.py (default: %(default)s)")
    ap.add_argument("--check", action="store_true", help="compare with --output instead of writing")
    args = ap.parse_args(argv)
    sys.path.insert(0, args.model_dir)
    import dispatch_model as dm

    fails = Failures()
    p = build(dm, fails)
    if fails.report("gen_profile_main", "CHECK FAILED", "checks"):
        return 1
    header = [
        "Generated by tools/gen_profile_main.py -- do not edit by hand; re-run the script.",
        "Source: dispatch_model.MAIN (../shared/reference/dispatch_model.py), i.e. spec",
        "dispatch-semantics.md A.3/A.5/B/D.2/F/G.1 -- PyTorch main as read from source, not measured.",
        "Fallback debug strings are placeholders (<src>, <n>) exactly as the model prints them.",
        "Named is kept (spec A.3 caveat). %d consistency checks passed." % fails.passed,
    ]
    return write_or_check(render_profile(p, header), args.output, args.check, "gen_profile_main",
                          "%d checks passed" % fails.passed)

if __name__ == "__main__":
    sys.exit(main())
