#!/usr/bin/python3
"""dispatchtool trace vs real calls in torch 1.13, 2.6 and 2.14: the first kernel a call runs.

    /usr/bin/python3 tests/oracle/trace_oracle.py --tool build/dispatchtool [--seed 0] [--cases 400]
                                                  [--workdir DIR] [--verbose]

A generated matrix (fixed seed) of calls. Each case

  1. defines a fresh operator myops_trace::fN through torch.library (one DEF
     library per worker) with one of six schemas -- (Tensor x), (Tensor x,
     Tensor? y), (Tensor[] xs), (Tensor?[] xs), (Tensor? x, Generator? g),
     (Scalar s) -- and registers 0-6 Python kernels, in a given order, on keys
     drawn from 55 (backends, autograd keys, the alias keys, ADInplaceOrView,
     BackendSelect, Autocast*, Python*, Conjugate/Negative/ZeroTensor,
     Functionalize, building blocks, catch-all); each kernel records the key
     it was registered on;
  2. calls it through torch.ops with real tensors made outside every context
     (CPU +- requires_grad / inference / conj / neg / zerotensor / a
     __torch_dispatch__ subclass, Meta, sparse COO and CSR, quantized, mkldnn,
     nested, a functional wrapper) or wrapper-subclass stand-ins for devices
     this build cannot allocate (cuda, xla, hip, xpu, lazy, mps, ipu, hpu, ve,
     privateuseone; they carry Python+PythonTLSSnapshot and dispatch like the
     real device under _DisableTorchDispatch), under 0-2 thread-local
     contexts (no_grad, inference_mode, autocast('cpu'),
     _AutoDispatchBelowAutograd, the Meta include, a TorchDispatchMode,
     _DisableTorchDispatch, functionalization, the Python dispatcher) plus
     ExcludeDispatchKeyGuards;
  3. records the first observable event: the first of our kernels that ran,
     a __torch_dispatch__ of our operator, or the error (class and key);
  4. writes the registrations as a TOML file and asks
     `dispatchtool trace --profile torch-1.13 --format json` with the same
     arguments (--arg words) and contexts (--no-grad, --inference-mode,
     --autocast cpu, --exclude Autograd, --include Meta, --python-mode,
     --exclude Python,PythonTLSSnapshot, --include Functionalize,
     --include PythonDispatcher, --exclude K) and maps its result the same way:
     `result.first_input_kernel`, else the result's error class or
     __torch_dispatch__.

The gate (exit 1 unless 100 %) is the dispatcher-only core set
(/work/notes/trace.md section 7.3) -- which includes the calls under the Python
dispatcher (its Python resolve_key is simulated; reported as a subset) -- and
it excludes and reports separately:
  * aten-internal cases: a conj/neg/zerotensor argument whose fallback clones it
    with aten::clone while functionalization, the Meta include or an exclusion
    of CPU/Meta/BackendSelect is active -- the outcome depends on aten's clone
    kernel, not on the dispatcher;
  * calls 1.13 crashes on (a Tensor?[] starting with None reaching the Python
    fallback: SIGSEGV in pythonFallback).
The figures of every category are printed. Contexts that leak thread-local
bits when released (the Meta include) run in a worker process of their own.

2.x (--profile torch-2.6 / torch-2.14, run in the release's chroot with
tools/oracle-env python RELEASE; the importable torch must be that release):
the same matrix plus alias-annotated schemas ((Tensor(a!) x) -> Tensor(a!),
-> (), (Tensor(a) x) -> Tensor(a); the kernel returns the annotated input) and
a PrivateUse1 backend renamed "foo" (a CPU tensor under
_ForceDispatchKeyGuard(include | PrivateUse1), `--include PrivateUse1`);
errors are compared by text too (the Meta fallback's, functionalization's,
the ZeroTensor fallback's whole; "Could not run": the headline, whose key
2.x renames). Every call with a requires_grad argument and no Python
machinery that returns normally is followed by out.sum().backward(): whether
it warns (and the warning's text), raises (and the text), and whether a
gradient reaches an input must be what `result.backward` says
(trace_oracle_2x.py). Calls under the Python dispatcher are reported, not
gated (2.x's torch/_ops.py is not simulated); so are conj/neg/zerotensor
arguments under the PrivateUse1 include (aten's clone decides).

Exit 0 iff the core set agrees 100 % and has at least --min-core cases (and,
2.x, --min-backward backward passes); 1 otherwise; 77 (ctest skip) if torch
1.13 cannot be imported (a 2.x run is never skipped).
"""
import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
from collections import Counter, defaultdict

from trace_oracle_2x import (ALIAS_SCHEMAS, PU1_NAME, backward_checked, compare, flatten, run_backward,  # noqa: E402
                             torch_matches)

SKIP = 77
NS = "myops_trace"

# kind -> (device, layout, inference, modifiers, how it is made)
ARG_KINDS = {
    "cpu": ("cpu", "strided", False, (), "real"),
    "cpu,requires_grad": ("cpu", "strided", False, ("requires_grad",), "real"),
    "cpu,inference": ("cpu", "strided", True, (), "real"),
    "cpu,conj": ("cpu", "strided", False, ("conj",), "real"),
    "cpu,conj,inference": ("cpu", "strided", True, ("conj",), "real"),
    "cpu,neg": ("cpu", "strided", False, ("neg",), "real"),
    "cpu,zerotensor": ("cpu", "strided", False, ("zerotensor",), "real"),
    "cpu,python": ("cpu", "strided", False, ("python",), "real"),
    "meta": ("meta", "strided", False, (), "real"),
    "meta,requires_grad": ("meta", "strided", False, ("requires_grad",), "real"),
    "meta,inference": ("meta", "strided", True, (), "real"),
    "sparse_cpu": ("cpu", "sparse", False, (), "real"),
    "sparse_cpu,inference": ("cpu", "sparse", True, (), "real"),
    "sparse_meta": ("meta", "sparse", False, (), "real"),
    "sparse_csr_cpu": ("cpu", "sparse_csr", False, (), "real"),
    "quantized_cpu": ("cpu", "quantized", False, (), "real"),
    "mkldnn_cpu": ("cpu", "mkldnn", False, (), "real"),
    "mkldnn_cpu,inference": ("cpu", "mkldnn", True, (), "real"),
    "nested_cpu": ("cpu", "nested", False, (), "real"),
    "nested_cpu,inference": ("cpu", "nested", True, (), "real"),
    "cpu,functional": ("cpu", "functional", False, (), "real"),
    "cuda": ("cuda", "strided", False, ("python",), "wrapper"),
    "cuda,inference": ("cuda", "strided", True, ("python",), "wrapper"),
    "xla": ("xla", "strided", False, ("python",), "wrapper"),
    "hip": ("hip", "strided", False, ("python",), "wrapper"),
    "xpu": ("xpu", "strided", False, ("python",), "wrapper"),
    "lazy": ("lazy", "strided", False, ("python",), "wrapper"),
    "mps": ("mps", "strided", False, ("python",), "wrapper"),
    "ipu": ("ipu", "strided", False, ("python",), "wrapper"),
    "hpu": ("hpu", "strided", False, ("python",), "wrapper"),
    "ve": ("ve", "strided", False, ("python",), "wrapper"),
    "privateuse1": ("privateuse1", "strided", False, ("python",), "wrapper"),
    "sparse_cuda": ("cuda", "sparse", False, ("python",), "wrapper"),
    "sparse_csr_cuda": ("cuda", "sparse_csr", False, ("python",), "wrapper"),
    "quantized_cuda": ("cuda", "quantized", False, ("python",), "wrapper"),
    "meta,wrapper": ("meta", "strided", False, ("python",), "wrapper"),
}
TORCH_DEVICE = {"privateuse1": "privateuseone"}

CONTEXTS = ["no_grad", "inference_mode", "autocast_cpu", "below_autograd", "include_meta", "python_mode",
            "disable_torch_dispatch", "functionalization", "python_dispatcher"]
EXCLUDABLE = ["CPU", "Meta", "AutogradCPU", "AutogradFunctionality", "AutogradOther", "AutogradNestedTensor",
              "ADInplaceOrView", "BackendSelect", "Conjugate", "Negative", "ZeroTensor", "Python",
              "PythonTLSSnapshot", "Sparse", "Quantized", "NestedTensor", "Functionalize", "AutocastCPU",
              "SparseCsrCPU", "MkldnnCPU"]
REG_POOL_COMMON = ["CPU", "Meta", "AutogradCPU", "AutogradMeta", "AutogradOther", "Autograd",
                   "CompositeImplicitAutograd", "CompositeExplicitAutograd", "ADInplaceOrView", "BackendSelect"]
REG_POOL_RARE = ["SparseCPU", "QuantizedCPU", "MkldnnCPU", "SparseCsrCPU", "NestedTensorCPU", "AutogradNestedTensor",
                 "CompositeImplicitAutogradNestedTensor", "CompositeExplicitAutogradNonFunctional", "CUDA", "XLA",
                 "HIP", "XPU", "Lazy", "MPS", "PrivateUse1", "AutogradCUDA", "AutogradXLA", "AutogradLazy",
                 "AutogradPrivateUse1", "AutogradIPU", "AutogradXPU", "AutogradMPS", "AutogradHPU", "AutocastCPU",
                 "AutocastCUDA", "Python", "PythonTLSSnapshot", "Conjugate", "Negative", "ZeroTensor",
                 "Functionalize", "PythonDispatcher", "CatchAll", "Dense", "Sparse", "Quantized", "NestedTensor",
                 "FPGA", "SparseCUDA", "QuantizedCUDA", "SparseCsrCUDA", "NestedTensorCUDA", "IPU", "HPU", "VE"]
SCHEMAS = {
    "unary": "(Tensor x) -> Tensor",
    "binary": "(Tensor x, Tensor? y) -> Tensor",
    "list": "(Tensor[] xs) -> Tensor",
    "optlist": "(Tensor?[] xs) -> Tensor",
    "gen": "(Tensor? x, Generator? g) -> Tensor",
    "scalar": "(Scalar s) -> Tensor",
}
# The trace flags of each context.
CONTEXT_FLAGS = {
    "no_grad": ["--no-grad"],
    "inference_mode": ["--inference-mode"],
    "autocast_cpu": ["--autocast", "cpu"],
    "below_autograd": ["--exclude", "Autograd"],               # _AutoDispatchBelowAutograd
    "include_meta": ["--include", "Meta"],                     # _add_meta_to_tls_dispatch_include
    "python_mode": ["--python-mode"],                          # a TorchDispatchMode
    "disable_torch_dispatch": ["--exclude", "Python,PythonTLSSnapshot"],  # _DisableTorchDispatch
    "functionalization": ["--include", "Functionalize"],       # torch._enable_functionalization
    "python_dispatcher": ["--include", "PythonDispatcher"],    # _EnablePythonDispatcher
    "include_pu1": ["--include", "PrivateUse1"],               # _ForceDispatchKeyGuard(include | PrivateUse1)
}


def is_2x(profile):
    return profile != "torch-1.13"


def all_schemas():
    return {**SCHEMAS, **ALIAS_SCHEMAS}


def gen_cases(seed, n, profile="torch-1.13"):
    rng = random.Random(seed)
    v2 = is_2x(profile)
    kinds = list(ARG_KINDS)
    real = [k for k in kinds if ARG_KINDS[k][4] == "real"]
    wrappers = [k for k in kinds if ARG_KINDS[k][4] == "wrapper"]
    cases = []
    for i in range(n):
        schema = rng.choices(list(SCHEMAS), weights=[55, 18, 10, 6, 6, 5])[0]
        if v2 and rng.random() < 0.3:
            schema = rng.choice(list(ALIAS_SCHEMAS))

        def one():
            if v2 and rng.random() < 0.4:      # 2.x: more calls whose backward is checked
                return rng.choice(["cpu,requires_grad", "meta,requires_grad"])
            return rng.choice(wrappers) if rng.random() < 0.22 else rng.choice(real)
        if schema in ("unary",) + tuple(ALIAS_SCHEMAS):
            args = [one()]
        elif schema == "binary":
            args = [one(), one() if rng.random() < 0.6 else None]
        elif schema in ("list", "optlist"):
            m = rng.choice([0, 1, 1, 2, 2, 3])
            args = [[(None if schema == "optlist" and rng.random() < 0.3 else one()) for _ in range(m)]]
        elif schema == "gen":
            args = [one() if rng.random() < 0.5 else None, "generator" if rng.random() < 0.7 else None]
        else:
            args = ["scalar"]
        nregs = rng.choice([0, 1, 2, 2, 3, 3, 4, 4, 5, 6])
        pool = REG_POOL_COMMON * 3 + REG_POOL_RARE
        regs = []
        while len(regs) < nregs:
            k = rng.choice(pool)
            if k not in regs:
                regs.append(k)
        ctxs = []
        r = rng.random()
        if r >= 0.30:
            nctx = 1 if r < 0.80 else 2
            while len(ctxs) < nctx:
                c = rng.choice(CONTEXTS + ["exclude"] * 3 + (["include_pu1"] * 2 if v2 else []))
                if c == "exclude":
                    c = "exclude:" + rng.choice(EXCLUDABLE)
                if c not in ctxs:
                    ctxs.append(c)
        flat = [a for a in flatten(args) if a in ARG_KINDS]
        if any(ARG_KINDS[a][4] == "wrapper" for a in flat) and rng.random() < 0.75 \
                and "disable_torch_dispatch" not in ctxs:
            ctxs.append("disable_torch_dispatch")
        cases.append({"id": i, "op": f"f{i}", "schema": schema, "args": args, "regs": regs, "tls": ctxs})
    # Pinned after the generated ones (which they leave as they were): the calls
    # docs/tutorial.md draws with `trace --format svg`, a sparse CPU tensor with
    # a CUDA one, whose key set holds SparseCUDA and CPU though no argument is
    # either (per-backend functionality bits cross every backend bit).
    if v2:
        for args, regs in ((["sparse_cpu", "cuda"], ["SparseCUDA", "CUDA", "CPU", "SparseCPU"]),
                           (["sparse_cpu", "cuda"], ["CPU", "SparseCPU", "CUDA"]),
                           (["cpu,requires_grad", "cuda"], ["AutogradCUDA", "CUDA", "CPU", "AutogradCPU"])):
            i = len(cases)
            cases.append({"id": i, "op": f"f{i}", "schema": "binary", "args": args, "regs": regs,
                          "tls": ["disable_torch_dispatch"]})
    return cases


def category(case, outcome, profile="torch-1.13"):
    """Which part of the report a case belongs to; 'core' is the 100 % gate."""
    if outcome.startswith("crash:"):
        return "crash"
    if is_2x(profile) and "python_dispatcher" in case["tls"]:
        return "python-dispatcher-2x"
    flagged = any(a in ARG_KINDS and set(ARG_KINDS[a][3]) & {"conj", "neg", "zerotensor"}
                  for a in flatten(case["args"]))
    risky = any(c in ("functionalization", "include_meta", "exclude:CPU", "exclude:Meta", "exclude:BackendSelect",
                      "include_pu1")
                for c in case["tls"])
    if flagged and risky:
        return "aten-internal"
    return "core"


# ---------------------------------------------------------------------------
# torch side (a worker process)

def torch_worker(cases, emit, profile="torch-1.13"):
    import contextlib
    import warnings
    warnings.simplefilter("ignore")
    import torch
    from torch.library import Library
    from torch.utils._python_dispatch import TorchDispatchMode
    C = torch._C
    events = []
    v2 = is_2x(profile)
    if v2:
        torch.utils.rename_privateuse1_backend(PU1_NAME)
        TORCH_DEVICE["privateuse1"] = PU1_NAME

    def ours(func):
        return NS in str(func)

    class Sub(torch.Tensor):
        @classmethod
        def __torch_dispatch__(cls, func, types, args=(), kwargs=None):
            if ours(func):
                events.append("torch_dispatch:subclass")
                return torch.zeros(1)
            raise RuntimeError(f"unexpected aten call on a subclass: {func}")

    class Mode(TorchDispatchMode):
        def __torch_dispatch__(self, func, types, args=(), kwargs=None):
            if ours(func):
                events.append("torch_dispatch:mode")
                return torch.zeros(1)
            return func(*args, **(kwargs or {}))

    def make(kind):
        device, layout, inference, mods, how = ARG_KINDS[kind]
        dev = TORCH_DEVICE.get(device, device)
        if how == "wrapper":
            lay = {"strided": torch.strided, "sparse": torch.sparse_coo, "sparse_csr": torch.sparse_csr,
                   "quantized": torch.strided}[layout]
            dtype = torch.quint8 if layout == "quantized" else torch.float32
            ctx = torch.inference_mode() if inference else contextlib.nullcontext()
            with ctx:
                return torch.Tensor._make_wrapper_subclass(Sub, (2,), dtype=dtype, layout=lay, device=dev)

        def build():
            if layout == "strided":
                if "conj" in mods:
                    return torch.randn(2, dtype=torch.cfloat).conj()
                if "neg" in mods:
                    return torch._neg_view(torch.randn(2))
                if "zerotensor" in mods:
                    return torch._efficientzerotensor(2)
                t = torch.empty(2, device=dev) if dev == "meta" else torch.randn(2)
                if "python" in mods:
                    t = Sub._make_subclass(Sub, t)
                if "requires_grad" in mods:
                    t.requires_grad_()
                return t
            if layout == "sparse":
                if dev == "meta":
                    return torch.sparse_coo_tensor(torch.empty(1, 0, dtype=torch.long, device="meta"),
                                                   torch.empty(0, device="meta"), (2,))
                return torch.randn(2, 2).to_sparse()
            if layout == "sparse_csr":
                return torch.randn(2, 2).to_sparse_csr()
            if layout == "quantized":
                return torch.quantize_per_tensor(torch.randn(2), 0.1, 0, torch.quint8)
            if layout == "mkldnn":
                return torch.randn(2, 2).to_mkldnn()
            if layout == "nested":
                return torch.nested.nested_tensor([torch.randn(2), torch.randn(3)])
            return torch._to_functional_tensor(torch.randn(2))
        if inference:
            with torch.inference_mode():
                return build()
        return build()

    @contextlib.contextmanager
    def held(factory):
        g = factory()
        try:
            yield
        finally:
            del g

    @contextlib.contextmanager
    def functionalization():
        torch._enable_functionalization(reapply_views=False)
        try:
            yield
        finally:
            torch._disable_functionalization()

    def force_include(key):
        # restores the thread-local sets exactly (an include guard leaves the backend bit behind)
        return C._ForceDispatchKeyGuard(C._dispatch_tls_local_include_set() | C.DispatchKeySet(key),
                                        C._dispatch_tls_local_exclude_set())

    @contextlib.contextmanager
    def include_meta():
        if v2:
            with force_include(C.DispatchKey.Meta):
                yield
            return
        C._add_meta_to_tls_dispatch_include()
        try:
            yield
        finally:
            C._remove_meta_from_tls_dispatch_include()

    def ctx_of(c):
        simple = {"no_grad": torch.no_grad, "inference_mode": torch.inference_mode,
                  "autocast_cpu": lambda: torch.autocast("cpu"), "include_meta": include_meta,
                  "python_mode": Mode, "functionalization": functionalization,
                  "below_autograd": lambda: held(C._AutoDispatchBelowAutograd),
                  "disable_torch_dispatch": lambda: held(C._DisableTorchDispatch),
                  "python_dispatcher": lambda: held(C._EnablePythonDispatcher),
                  "include_pu1": lambda: force_include(C.DispatchKey.PrivateUse1)}
        if c in simple:
            return simple[c]()
        k = c.split(":", 1)[1]
        return held(lambda: C.ExcludeDispatchKeyGuard(C.DispatchKeySet(C._dispatch_key_parse(k))))

    def classify(e):
        msg = str(e)
        first = msg.splitlines()[0] if msg else ""
        if "There were no tensor arguments to this function" in msg:
            opname = msg.split("registered for schema ", 1)[1].split(".  ", 1)[0]
            return "error:no_tensor_arguments" if opname.startswith(NS + "::") else "error:inner_no_tensor_arguments"
        if "Could not run '" in first and "' backend" in first:
            opname = first.split("Could not run '", 1)[1].split("'", 1)[0]
            key = first.split("with arguments from the '", 1)[1].split("'", 1)[0]
            return ("error:could_not_run:" if opname.startswith(NS + "::") else "error:inner_could_not_run:") + key
        if "attempted to run this operator with Meta tensors" in first:
            return "error:meta_not_implemented" if first.startswith(NS + "::") else "error:inner_meta"
        if "Found a custom (non-ATen) operator whose output has alias annotations" in first \
                or "!schema.hasAnyAliasInfo() INTERNAL ASSERT FAILED" in first:
            return "error:functionalize_alias"
        if first.startswith("ZeroTensors are immutable"):
            return "error:zerotensor_mutable"
        if "tls_on_entry.has_value() INTERNAL ASSERT FAILED" in first:
            return "error:python_tls_assert"
        if "fallthrough_kernel was executed" in msg:
            return "error:fallthrough_executed"
        if isinstance(e, AttributeError) and first == "":
            return "error:pydispatcher:attribute_error"
        if "has kernels registered to both CompositeImplicitAutograd and a backend mapped to AutogradOther" in msg:
            return "error:ambiguous_autogradother"
        if "Canonical state" in msg:
            return "error:invariant_assert"
        if first in ("could not find kernel", "ambiguous autogradother kernel"):
            return "error:pydispatcher:" + first
        return f"error:other:{type(e).__name__}:{first[:160]}"

    lib = Library(NS, "DEF")
    schemas = all_schemas()
    for case in cases:
        name = case["op"]
        lib.define(name + schemas[case["schema"]])
        result = [torch.zeros(1)]      # made here: a kernel may run under a PrivateUse1 include

        def mk(key, kind=case["schema"], result=result):
            def kernel(*args, **kwargs):
                events.append("kernel:" + key)
                if kind == "mutnone":
                    return None
                return args[0] if kind in ("mut", "view") else result[0]
            return kernel
        accepted = []
        for k in case["regs"]:
            try:
                lib.impl(name, mk(k), "" if k == "CatchAll" else k)
                accepted.append(k)
            except Exception:
                pass   # torch.library refuses Meta after a CompositeImplicitAutograd kernel (spec F.8)
        args = []
        for a in case["args"]:
            if isinstance(a, list):
                args.append([None if x is None else make(x) for x in a])
            elif a == "generator":
                args.append(torch.Generator())
            elif a == "scalar":
                args.append(1.5)
            else:
                args.append(None if a is None else make(a))
        events.clear()
        outcome, message, out, ok = None, None, None, False
        try:
            with contextlib.ExitStack() as st:
                for c in case["tls"]:
                    st.enter_context(ctx_of(c))
                out = getattr(getattr(torch.ops, NS), name)(*args)
                ok = True
        except Exception as e:  # noqa: BLE001 -- every error is an outcome
            if not events:
                outcome = classify(e)
                message = str(e)
        if events:
            outcome = events[0]
        record = {"id": case["id"], "outcome": outcome, "accepted": accepted}
        if v2 and outcome and outcome.startswith("error:"):      # 2.x: the text is compared too
            record["message"] = message.split("\n", 1)[0] if "could_not_run" in outcome else message
        if v2 and ok and backward_checked(case, ARG_KINDS):
            record["backward"] = run_backward(torch, args, out, NS)
        emit(record)


def run_worker(cases, profile):
    p = subprocess.run([sys.executable, os.path.abspath(__file__), "--worker", "--profile", profile],
                       input=json.dumps(cases), capture_output=True, text=True)
    return p.returncode, p.stdout, p.stderr


def run_torch(cases, profile):
    """Each group of contexts that leak TLS bits runs in its own process; a case
    that kills the interpreter is recorded as a crash and the group resumes."""
    groups = defaultdict(list)
    for c in cases:
        groups["meta" if "include_meta" in c["tls"] else "main"].append(c)
    results = {}
    for g, todo in groups.items():
        while todo:
            rc, out, err = run_worker(todo, profile)
            done = [json.loads(line) for line in out.splitlines() if line.strip()]
            for r in done:
                results[r["id"]] = r
            if rc == 0:
                break
            if rc > 0 or len(done) >= len(todo):
                sys.stderr.write(err)
                raise SystemExit(f"torch worker {g} failed")
            crashed = todo[len(done)]
            results[crashed["id"]] = {"id": crashed["id"], "outcome": f"crash:signal{-rc}", "accepted": []}
            todo = todo[len(done) + 1:]
    return results


# ---------------------------------------------------------------------------
# tool side

def tool_word(kind):
    """The --arg words of an argument kind: [LAYOUT_]DEVICE, then modifiers."""
    device, layout, inference, mods, how = ARG_KINDS[kind]
    base = device if layout in ("strided", "functional") else f"{layout}_{device}"
    words = [base] + [m for m in ("requires_grad", "conj", "neg", "zerotensor") if m in mods]
    if layout == "functional":
        words.append("functional")
    if inference:
        words.append("inference")
    if "python" in mods:
        words.append("python")
    return ",".join(words)


def tool_input(case, accepted, profile):
    pu1 = [f'privateuse1_backend = "{PU1_NAME}"'] if is_2x(profile) else []
    lines = [f'namespace = "{NS}"'] + pu1 + ["", "[[def]]", f'schema = "{case["op"]}{all_schemas()[case["schema"]]}"',
                                             ""]
    for k in accepted:
        lines += ["[[impl]]", f'op = "{case["op"]}"']
        if k != "CatchAll":
            lines.append(f'key = "{k}"')
        lines += [f'kernel = "py:{k}"', "boxed_only = true", ""]
    argv = ["trace", "--profile", profile, "--op", f"{NS}::{case['op']}", "--format", "json"]
    for i, a in enumerate(case["args"]):
        if isinstance(a, list):
            argv += ["--arg", ";".join("none" if x is None else tool_word(x) for x in a) if a else "[]"]
        elif a == "scalar" or (case["schema"] == "gen" and i == 1):
            continue    # Scalar s, Generator? g: not dispatch arguments (Generators not in a call from Python)
        else:
            argv += ["--arg", "none" if a is None else tool_word(a)]
    for c in case["tls"]:
        argv += CONTEXT_FLAGS.get(c) or ["--exclude", c.split(":", 1)[1]]
    return "\n".join(lines) + "\n", argv


def tool_outcome(j):
    res = j["result"]
    if res["first_input_kernel"] is not None:
        return "kernel:" + res["first_input_kernel"]["kernel"][len("py:"):]
    if res["kind"] == "error" and res["error"] == "could_not_run":
        # the key as the headline names it (2.x renames PrivateUse1 there only)
        first = (res["message"] or "").split("\n", 1)[0]
        return "error:could_not_run:" + first.split("with arguments from the '", 1)[1].split("'", 1)[0]
    if res["kind"] == "error":
        pydispatcher = {"python_dispatcher_attribute_error": "pydispatcher:attribute_error",
                        "python_dispatcher_no_kernel": "pydispatcher:could not find kernel",
                        "python_dispatcher_ambiguous": "pydispatcher:ambiguous autogradother kernel"}
        if res["error"] in pydispatcher:
            return "error:" + pydispatcher[res["error"]]
        return "error:" + res["error"] + (":" + res["key"] if res["error"] == "could_not_run" else "")
    if res["kind"] == "torch_dispatch":
        return "torch_dispatch:" + res["torch_dispatch"]
    if res["kind"] == "not_simulated":
        return "not_simulated:" + res["key"]
    return "kernel-of-pytorch:" + res["key"]


def run_tool(tool, case, accepted, workdir, profile):
    text, argv = tool_input(case, accepted, profile)
    path = os.path.join(workdir, f"{case['op']}.toml")
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)
    p = subprocess.run([tool] + argv + [path], capture_output=True, text=True, timeout=60)
    if p.returncode != 0:
        return "tool-error:" + (p.stderr.strip().splitlines() or [""])[0], argv + [path], None
    return tool_outcome(json.loads(p.stdout)), argv + [path], json.loads(p.stdout)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tool")
    ap.add_argument("--profile", default="torch-1.13",
                    help="torch-1.13 (this machine's torch) or torch-2.6 / torch-2.14 (run in the chroot)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--cases", type=int, default=400)
    ap.add_argument("--min-core", type=int, default=200)
    ap.add_argument("--min-backward", type=int, default=0, help="2.x: fewest calls whose backward is checked")
    ap.add_argument("--jobs", type=int, default=2, help="concurrent dispatchtool processes")
    ap.add_argument("--workdir")
    ap.add_argument("--verbose", action="store_true")
    ap.add_argument("--worker", action="store_true")
    a = ap.parse_args()
    if a.worker:
        torch_worker(json.loads(sys.stdin.read()),
                     lambda r: (sys.stdout.write(json.dumps(r) + "\n"), sys.stdout.flush()), a.profile)
        return 0
    try:
        import torch  # noqa: F401
    except ImportError as e:
        print(f"trace_oracle: cannot import torch: {e}", file=sys.stderr)
        return 1 if is_2x(a.profile) else SKIP     # a 2.x check runs in its chroot: never skipped
    why = torch_matches(a.profile)
    if why:
        print(f"trace_oracle: FAIL: {why} (run it with tools/oracle-env python {a.profile})", file=sys.stderr)
        return 1
    cases = gen_cases(a.seed, a.cases, a.profile)
    real = run_torch(cases, a.profile)
    stats = defaultdict(Counter)
    failures = []
    from concurrent.futures import ThreadPoolExecutor
    with tempfile.TemporaryDirectory() as tmp:
        workdir = a.workdir or tmp
        os.makedirs(workdir, exist_ok=True)
        with ThreadPoolExecutor(max_workers=max(1, a.jobs)) as pool:
            answers = list(pool.map(lambda c: run_tool(a.tool, c, real[c["id"]]["accepted"], workdir, a.profile),
                                    cases))
        for case, (got, argv, j) in zip(cases, answers):
            r = real[case["id"]]
            cat = category(case, r["outcome"], a.profile)
            ok, torch_said, trace_said, bw_checked = compare(case, r, got, j)
            stats[cat]["agree" if ok else "disagree"] += 1
            if cat == "core" and "python_dispatcher" in case["tls"]:
                stats["of which python-dispatcher"]["agree" if ok else "disagree"] += 1
            if cat == "core" and bw_checked:
                stats["of which backward checked"]["agree" if ok else "disagree"] += 1
                stats["backward outcomes"][r["backward"]["outcome"]] += 1
            if cat == "core" and case["schema"] in ALIAS_SCHEMAS:
                stats["of which alias-annotated"]["agree" if ok else "disagree"] += 1
            if cat == "core" and "include_pu1" in case["tls"]:
                stats["of which PrivateUse1"]["agree" if ok else "disagree"] += 1
            stats[cat + " outcomes"][r["outcome"].split(":")[0]] += 1
            if not ok and cat == "core":
                failures.append((case, r, got, argv))
            if a.verbose or (not ok and cat == "core"):
                print(f"{'OK ' if ok else 'BAD'} [{cat}] #{case['id']} {case['schema']} args={case['args']} "
                      f"regs={r['accepted']} tls={case['tls']}\n    torch: {torch_said}\n    trace: {trace_said}")
                if not ok:
                    print("    " + " ".join(argv))
    core = stats["core"]
    n_core = core["agree"] + core["disagree"]
    print(f"trace oracle, seed {a.seed}: {len(cases)} calls in {a.profile} (torch {torch.__version__})")
    for cat in ("core", "of which python-dispatcher", "of which backward checked", "of which alias-annotated",
                "of which PrivateUse1", "aten-internal", "python-dispatcher-2x", "crash"):
        s = stats[cat]
        n = s["agree"] + s["disagree"]
        if n == 0 and cat.startswith("of which") and not is_2x(a.profile):
            continue
        note = "  (the gate: must be 100 %)" if cat == "core" else "" if cat.startswith("of which") \
            else "  (reported, not gated)"
        print(f"  {cat:26} {s['agree']}/{n} agree{note}")
    print("  core outcomes (torch):", dict(stats["core outcomes"]))
    if is_2x(a.profile):
        print("  backward outcomes (torch):", dict(stats["backward outcomes"]))
    if n_core < a.min_core:
        print(f"FAIL: only {n_core} core cases (need {a.min_core})")
        return 1
    n_bw = sum(stats["of which backward checked"].values())
    if n_bw < a.min_backward:
        print(f"FAIL: only {n_bw} calls with a backward checked (need {a.min_backward})")
        return 1
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
