#!/usr/bin/python3
"""Random registration scenarios: dispatchtool vs the real torch 1.13 / 2.x (or the reference model).

    /usr/bin/python3 tests/oracle/random_scenarios.py --tool build/dispatchtool \\
        --profile torch-1.13 --seed 0 --cases 1000 --workdir build/oracle/random-113-0 [--check-warnings]
    /usr/bin/python3 tests/oracle/random_scenarios.py --tool build/dispatchtool \\
        --profile torch-main --model-dir ../shared/reference --seed 0 --cases 1000 --workdir DIR
    /usr/bin/python3 tests/oracle/random_scenarios.py ... --profile torch-1.13 --oracle model ...
    tools/oracle-env python torch-2.14 tests/oracle/random_scenarios.py --tool build/dispatchtool \
        --profile torch-2.14 --seed 0 --cases 300 --workdir build/oracle/torch-2.14/random-0

One *case* is a fresh namespace with 1-4 operators (overloads of a few base
names), each defined (90 %) or dangling, with 0-7 kernels drawn as in spec
section H.2 (CPU, CUDA, XLA, Lazy, FPGA, Meta, SparseCPU, QuantizedCPU,
AutogradCPU, AutogradOther, AutogradXLA, Autograd, the three composite keys;
in 40 % of the cases also HIP, VE, MPS, PrivateUse1, SparseCsrCPU, MkldnnCPU,
NestedTensorCPU, ..., the building blocks and catch-all; in 10 % of the cases
any key of the universe -- with the torch oracle: any key 1.13 can parse),
with occasional overrides, multi-key entries (`keys`, `device_types`, a
catch-all spelled `key = "Undefined"`), Python (boxed-only) kernels, several
schema shapes and alias-analysis kinds (incl. the legacy "CONSERVATIVE
(default)").  Every case is written as one library block (one file) or as
several blocks (FRAGMENT / DEF / IMPL with or without a dispatch key) in
random order, with the [[def]]s at random places between the [[impl]]s.  Each
run also registers 1-3 backend fallbacks (or one alias key's worth) in a file
of its own at a random position of the command line.

Oracles:
  torch (torch-1.13, torch-2.6, torch-2.14 -- run the 2.x ones in their chroot
    with tools/oracle-env; the default there): the blocks are replayed, in
    command-line order, in the live torch: _dispatch_library(kind, ns, key,
    linenum=N), def_ / def_legacy, impl_t_t(name, dispatch, debug) for typed
    kernels, impl(name, dispatch, fn) for Python kernels, and
    _dispatch_library("IMPL", "_", KEY).fallback_fallthrough() for fallbacks.
    Expected texts: _dispatch_dump_table / _dispatch_dump.  1.13's Python
    bindings cannot register a per-operator fallthrough kernel (the library
    object offers def_, def_legacy, def_name_t_t, def_schema_t_t, define,
    fallback_fallthrough -- a global fallback --, impl -- a boxed Python
    kernel --, impl_t_t, impl_tt_t; torch.library has no fallthrough_kernel),
    a typed kernel without inferred schema (the [[def]] `dispatch` shorthand)
    or a non-fallthrough backend fallback, so those are left out here.
    2.x: the same bindings (the key pools are the release's parseable keys
    from its profile, the fallback keys those without a core fallback there);
    the override warning is TORCH_WARN_ONCE -- one per process, none for the
    exempt keys (2.6: Meta; 2.14: Meta, MTIA) -- and its glog line reads
    "[W1125 12:44:12.559269283 OperatorEntry.cpp:154] Warning: ...".
  model (torch-main, or --oracle model): the reference model's Universe (MAIN,
    or V113 which is verified against torch) with Operator.register,
    dump_table, dump_state; no torch needed.  Also draws fallthrough kernels,
    `dispatch = {...}` shorthands and fallback kernels, and for main the
    main-only keys (MTIA, MAIA, per-backend SparseCsr keys incl. ones Python
    cannot parse, FuncTorchBatchedDecomposition, ...).  The model's backend
    fallbacks are first checked against the tool's profile file.

The tool runs ONCE over all files for each of:
  1. table --raw / registrations --raw   (per operator vs torch/the model);
  2. the same with the files in a shuffled order and the entries of every file
     permuted -- only across keys: the override sequence of one (operator,
     key) keeps its order -- so both outputs must be byte-identical to run 1
     and to the expected texts;
  3. table / registrations --style python-dispatcher over all files, expected:
     PythonDispatcher.dispatchTable()/registrations() applied to the expected
     raw dumps (1.13: torch's own implementation; model: pd_dispatch_table /
     pd_registrations);
  4. with --check-warnings (torch oracle): the override warnings of run 1's
     stderr vs the ones torch prints while registering (per operator, in
     order; within a block dispatchtool registers the entries in document
     order, and the replay does the same).

A case passes when every operator of it matched in every comparison.  The last
line is `random_scenarios: N passed, M failed` (cases).  For the first few
failing operators a minimal single-file reproducer is searched (greedy removal
of registrations, re-checked against the oracle) and printed.
Exit 0 iff everything matched, 1 otherwise, 77 (ctest skip) if the torch
oracle was asked for and torch cannot be imported.
"""

import argparse
import collections
import contextlib
import difflib
import gc
import os
import random
import re
import shutil
import subprocess
import sys
import time
from dataclasses import dataclass, field
from typing import Dict, List, Optional, Tuple

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
DEFAULT_MODEL_DIR = os.path.join(os.path.dirname(ROOT), "shared", "reference")
SKIP = 77
PROG = "random_scenarios"

sys.path.insert(0, HERE)
import diff_corpus  # noqa: E402  (split_sections is shared)

# --------------------------------------------------------------------------
# Key pools (spec H.2)
# --------------------------------------------------------------------------

CATCH_ALL = None          # an [[impl]] without key: the dispatcher stores it as CompositeImplicitAutograd

H2_BASE = ["CPU", "CUDA", "XLA", "Lazy", "FPGA", "Meta", "SparseCPU", "QuantizedCPU", "AutogradCPU",
           "AutogradOther", "AutogradXLA", "Autograd", "CompositeImplicitAutograd",
           "CompositeExplicitAutograd", "CompositeExplicitAutogradNonFunctional"]
H2_EXTRA = ["HIP", "VE", "MPS", "PrivateUse1", "SparseCsrCPU", "MkldnnCPU", "NestedTensorCPU",
            "AutogradNestedTensor", "AutogradLazy", "AutogradMeta", "AutogradPrivateUse1",
            "CompositeImplicitAutogradNestedTensor", "SparseHIP", "QuantizedCUDA", "ORT",
            "BackendSelect", "Python", "ADInplaceOrView", "FuncTorchBatched", "PythonDispatcher",
            "Dense", "Sparse", "Quantized", "NestedTensor", "AutogradFunctionality", CATCH_ALL]
# main only (ORT no longer exists there); several of these cannot be parsed by
# Python in main (AutogradMTIA, SparseCsrXLA, QuantizedMeta ...) but the tool
# accepts every key of the profile's enum.
MAIN_EXTRA = ["MTIA", "MAIA", "AutogradMTIA", "AutogradMAIA", "SparseCsrCPU", "SparseCsrCUDA",
              "SparseCsrXLA", "SparseCsrMeta", "SparseCsrHIP", "SparseCsrMTIA", "SparseCsr",
              "FuncTorchBatchedDecomposition", "FuncTorchBatchedDecomposition",
              "BatchedNestedTensor", "PreDispatch", "QuantizedMeta", "NestedTensorMeta",
              "AutocastXLA", "AutogradMeta", "QuantizedMTIA"]

# 1.13: every name parseDispatchKey accepts (spec A.5), minus Undefined.
PARSEABLE_113 = """Dense FPGA ORT Vulkan Metal VE Meta Quantized CustomRNGKeyId
MkldnnCPU Sparse SparseCsrCPU SparseCsrCUDA BackendSelect Python PythonTLSSnapshot Fake Named
Conjugate Negative ZeroTensor FuncTorchDynamicLayerBackMode Functionalize ADInplaceOrView
AutogradOther AutogradFunctionality AutogradNestedTensor Tracer AutocastCPU AutocastXPU
AutocastCUDA FuncTorchBatched FuncTorchVmapMode Batched VmapMode DeferredInit
FuncTorchGradWrapper FuncTorchDynamicLayerFrontMode TESTING_ONLY_GenericWrapper
TESTING_ONLY_GenericMode PythonDispatcher CPU CUDA HIP XLA MPS XPU IPU HPU Lazy NestedTensor
NestedTensorCPU NestedTensorCUDA PrivateUse1 PrivateUse2 PrivateUse3 QuantizedCPU QuantizedCUDA
QuantizedXPU SparseCPU SparseCUDA SparseHIP SparseXPU SparseVE AutogradCPU AutogradCUDA
AutogradXLA AutogradLazy AutogradMeta AutogradIPU AutogradXPU AutogradMPS AutogradHPU
AutogradPrivateUse1 AutogradPrivateUse2 AutogradPrivateUse3 Autograd CompositeImplicitAutograd
CompositeImplicitAutogradNestedTensor CompositeExplicitAutograd
CompositeExplicitAutogradNonFunctional""".split()

# Backend fallbacks a run registers (spec D; TORCH_LIBRARY_IMPL(_, KEY, m) {
# m.fallback(...); }): keys without a core fallback.  1.13 can only register
# fallthrough fallbacks from Python (fallback_fallthrough); the model takes
# kernels too.  An alias key is registered alone (its runtime keys must not
# collide with the other picks).
FALLBACK_KEYS_113 = ["XLA", "Meta", "CPU", "HIP", "FPGA", "SparseCPU", "QuantizedCPU", "NestedTensorCPU",
                     "PrivateUse1", "AutogradMeta", "AutogradPrivateUse1", "AutogradNestedTensor",
                     "AutogradIPU", "Fake", "DeferredInit", "AutocastXPU", "MkldnnCPU", "SparseCsrCPU", "Lazy"]
FALLBACK_KEYS_MAIN = ["XLA", "CPU", "HIP", "FPGA", "SparseCPU", "QuantizedCPU", "NestedTensorCPU",
                      "PrivateUse1", "AutogradIPU", "AutogradNestedTensor", "Fake", "DeferredInit",
                      "AutocastXLA", "MkldnnCPU", "SparseCsrCPU", "MTIA", "SparseCsrXLA", "Lazy"]
FALLBACK_ALIASES_113 = ["CompositeExplicitAutogradNonFunctional", "CompositeImplicitAutogradNestedTensor"]
FALLBACK_ALIASES_MAIN = ["CompositeImplicitAutogradNestedTensor"]     # main's CEANF set has Meta


# torch.library device types -> key (input-format.md: backend names lower-cased, "default")
DEVICES = {"cpu": "CPU", "cuda": "CUDA", "hip": "HIP", "xla": "XLA", "lazy": "Lazy", "meta": "Meta",
           "mps": "MPS", "default": "CompositeExplicitAutograd"}

TYPED_SIG = "(Tensor _0) -> Tensor _0"

# (nameless schema as written, as torch prints it).  Operators with a typed
# kernel (inferred schema "(Tensor _0) -> Tensor _0") get one of the first
# group; operators whose kernels are all Python / fallthrough / shorthand get
# any.  Printed forms verified against 1.13 (spec E.1: same printer in main).
SCHEMAS_TYPED = [
    ("(Tensor x) -> Tensor", "(Tensor x) -> Tensor"),
    ("(Tensor self) -> Tensor", "(Tensor self) -> Tensor"),
    ("(Tensor input) -> Tensor out", "(Tensor input) -> Tensor out"),
    ("(Tensor(a) x) -> Tensor(a)", "(Tensor(a) x) -> Tensor(a)"),
    ("(Tensor(a!) self) -> Tensor(a!)", "(Tensor(a!) self) -> Tensor(a!)"),
]
SCHEMAS_ANY = SCHEMAS_TYPED + [
    ("(Tensor self, Scalar alpha=1) -> Tensor", "(Tensor self, Scalar alpha=1) -> Tensor"),
    ("(Tensor self, int[2] size=[1,2], *, bool flag=False) -> (Tensor, Tensor)",
     "(Tensor self, int[2] size=[1, 2], *, bool flag=False) -> (Tensor, Tensor)"),
    ("(Tensor[] tensors, int dim=0) -> Tensor", "(Tensor[] tensors, int dim=0) -> Tensor"),
    ('(Tensor x, Tensor? y=None, str mode="a") -> (Tensor a, Tensor b)',
     '(Tensor x, Tensor? y=None, str mode="a") -> (Tensor a, Tensor b)'),
    ("(Tensor x, *, ScalarType? dtype=None) -> ()", "(Tensor x, *, ScalarType? dtype=None) -> ()"),
    ("(Tensor x, SymInt n=2) -> Tensor[]", "(Tensor x, SymInt n=2) -> Tensor[]"),
    ("(Tensor x, Generator? g=None, int[] dims=[]) -> Tensor",
     "(Tensor x, Generator? g=None, int[] dims=[]) -> Tensor"),
    ("(Tensor(a -> *) x) -> Tensor(a)", "(Tensor(a -> *) x) -> Tensor(a)"),
]

BASE_NAMES = ["foo", "bar", "baz_", "add"]
OVERLOADS = ["", "", "out", "Tensor", "Scalar", "a_b"]
# [[def]] alias_analysis: None = field omitted; "LEGACY" = def_legacy -> "CONSERVATIVE (default)"
ALIASES = [None, None, "", "FROM_SCHEMA", "CONSERVATIVE", "PURE_FUNCTION", "LEGACY"]


# --------------------------------------------------------------------------
# Scenario data
# --------------------------------------------------------------------------

@dataclass
class Impl:
    op: str                   # qualified operator name
    keys: List[Optional[str]]  # one registration per key; None = catch-all (no key)
    kernel: str               # debug string (Python kernels: filled in from the library)
    kind: str = "typed"       # typed | python | fallthrough | shorthand
    spelling: str = "key"     # key | keys | device_types | nokey | libkey | shorthand
    devices: List[str] = field(default_factory=list)
    qualified: bool = False   # write `op` qualified

    def groups(self, libkey: Optional[str]) -> List[Tuple[str, str]]:
        """(operator, effective key) of every registration (override sequences)."""
        out = []
        for k in self.keys:
            if self.spelling == "libkey":
                k = libkey
            if k in (None, "Undefined"):
                k = "CompositeImplicitAutograd"
            out.append((self.op, k))
        return out


@dataclass
class Def:
    op: str                   # qualified name ns::name[.overload]
    schema_in: str            # nameless part as written
    schema_out: str           # nameless part as printed
    alias: Optional[str]
    form: str = "schema"      # schema (name inside) | qualschema | name (name + nameless schema)
    shorthand: List[Impl] = field(default_factory=list)   # dispatch = { ... } (main only)


@dataclass
class Fallback:
    key: str                  # runtime key, or an alias key (one fallback per runtime key of it)
    kernel: str               # debug string
    fallthrough: bool = True


@dataclass
class Lib:
    ns: str
    kind: str                 # DEF | FRAGMENT | IMPL | FALLBACK (a file of [[fallback]]s only)
    key: Optional[str]        # IMPL block's dispatch key
    line: int
    entries: list = field(default_factory=list)   # Def | Impl, in order
    path: str = ""

    @property
    def debug(self) -> str:
        return "registered at /dev/null:%d" % self.line


@dataclass
class Case:
    index: int
    ns: str
    ops: List[str]
    libs: List[Lib]


def choose_fallbacks(rng: random.Random, main: bool, kernels_ok: bool, release=None) -> List[Fallback]:
    if release is not None:
        key_pool, alias_pool = release.fallback_keys, release.fallback_aliases
    elif main:
        key_pool, alias_pool = FALLBACK_KEYS_MAIN, FALLBACK_ALIASES_MAIN
    else:
        key_pool, alias_pool = FALLBACK_KEYS_113, FALLBACK_ALIASES_113
    if rng.random() < 0.2:
        keys = [rng.choice(alias_pool)]
    else:
        keys = rng.sample(key_pool, rng.randint(1, 3))
    out = []
    for i, k in enumerate(keys):
        ft = not kernels_ok or rng.random() < 0.5
        out.append(Fallback(k, "registered at /dev/null:%d" % (9000 + i) if ft else "fb_%s" % k, ft))
    return out


class Release:
    """The key pools of a live 2.x release, read off its (measured) profile:
    every key it parses; the H.2 extras it parses (main's extras included:
    MTIA, MAIA, ... where the release has them); fallback keys without a core
    fallback of the release (registering a second one is an error)."""

    def __init__(self, profile_path: str):
        import tomllib
        with open(profile_path, "rb") as f:
            p = tomllib.load(f)
        parse = set(p["parseable"])
        core_fb = {fb["key"] for fb in p.get("fallback", [])}
        self.parseable = [k for k in p["parseable"] if k != "Undefined"]
        self.extra = [k for k in dict.fromkeys(H2_EXTRA + MAIN_EXTRA) if k is None or k in parse]
        self.fallback_keys = [k for k in dict.fromkeys(FALLBACK_KEYS_113 + FALLBACK_KEYS_MAIN)
                              if k in parse and k not in core_fb]
        # CEANF's runtime set holds Meta (2.x's CEANF excludes only XLA and Lazy),
        # which has a core fallback there.
        self.fallback_aliases = FALLBACK_ALIASES_MAIN


def qualname(ns: str, base: str, overload: str) -> str:
    return "%s::%s%s" % (ns, base, "." + overload if overload else "")


def short(op: str) -> str:
    return op.split("::", 1)[1]


class Generator:
    """main_keys: draw the main-only keys; rich: also fallthrough kernels and
    `dispatch = {}` shorthands (only when the oracle is the model); enum: every
    key of the universe (the 10 % "any key" pool; default: what 1.13 parses)."""

    def __init__(self, rng: random.Random, main_keys: bool, rich: bool, enum: Optional[List[str]] = None,
                 release: Optional[Release] = None):
        self.rng = rng
        self.rich = rich
        if release is not None:
            self.extra = list(release.extra)
            enum = release.parseable
        elif main_keys:
            self.extra = [k for k in H2_EXTRA if k != "ORT"] + MAIN_EXTRA
        else:
            self.extra = list(H2_EXTRA)
        self.wide = [k for k in (enum or PARSEABLE_113) if k != "Undefined"] + [CATCH_ALL]
        self.serial = 0

    def kernel_name(self, key) -> str:
        self.serial += 1
        return "fn_%s_%d" % ("catchall" if key is None else key, self.serial)

    def case(self, index: int, ns: str) -> Case:
        r = self.rng
        pool = list(H2_BASE)
        u = r.random()
        if u < 0.4:
            pool += self.extra
        if u < 0.1:
            pool += self.wide
        nops = r.choice([1, 1, 2, 2, 3, 4])
        names = set()
        while len(names) < nops:
            names.add(qualname(ns, r.choice(BASE_NAMES), r.choice(OVERLOADS)))
        ops = sorted(names)
        defs: List[Def] = []
        impls: List[Impl] = []
        for op in ops:
            kernels: List[Impl] = []
            used: List[Optional[str]] = []
            for _ in range(r.randint(0, 7)):
                kernels.append(self.impl(op, pool, used))
            typed = any(k.kind == "typed" for k in kernels)
            if r.random() < 0.9:
                schemas = SCHEMAS_TYPED if typed else SCHEMAS_ANY
                sin, sout = r.choice(schemas)
                d = Def(op, sin, sout, r.choice(ALIASES), r.choice(["schema", "schema", "qualschema", "name"]))
                defs.append(d)
            impls += kernels
        r.shuffle(impls)          # interleave the operators' kernels
        if self.rich:
            self.make_shorthands(defs, impls)
        libs = self.distribute(ns, defs, impls)
        return Case(index, ns, ops, libs)

    def impl(self, op: str, pool, used) -> Impl:
        r = self.rng
        if used and r.random() < 0.15:
            key = r.choice(used)                      # override
        else:
            key = r.choice(pool)
        kind = "typed"
        x = r.random()
        if x < 0.08:
            kind = "python"
        elif self.rich and x < 0.16:
            kind = "fallthrough"
        im = Impl(op, [key], "", kind, "key" if key is not None else "nokey",
                  qualified=r.random() < 0.3)
        x = r.random()
        if key is not None and x < 0.12:
            # several keys, one kernel
            extra = []
            for k in r.sample(pool, min(len(pool), 4)):
                if k is not None and k != key and k not in extra:
                    extra.append(k)
            im.keys = [key] + extra[:r.randint(1, 2)]
            if len(im.keys) > 1:
                im.spelling = "keys"
        elif x < 0.18:
            devs = r.sample(sorted(DEVICES), r.randint(1, 3))
            im.devices = devs
            im.keys = [DEVICES[d] for d in devs]
            im.spelling = "device_types"
        elif key == "CompositeImplicitAutograd" and r.random() < 0.1:
            im.keys = ["Undefined"]                   # catch-all spelled as key Undefined
        used.extend(k for k in im.keys)
        im.kernel = self.kernel_name(im.keys[0] if len(im.keys) == 1 else "multi")
        return im

    def make_shorthands(self, defs: List[Def], impls: List[Impl]):
        """main only: move typed kernels of singleton (op, key) groups into `dispatch = {}`."""
        count = collections.Counter(g for im in impls for g in im.groups(None))
        bydef = {d.op: d for d in defs}
        keep = []
        for im in impls:
            d = bydef.get(im.op)
            if (d is not None and im.kind == "typed" and im.spelling in ("key", "keys")
                    and all(count[g] == 1 for g in im.groups(None))
                    and not any(k in ("Undefined",) for k in im.keys)
                    and self.rng.random() < 0.25):
                im.kind, im.spelling = "shorthand", "shorthand"
                d.shorthand.append(im)
            else:
                keep.append(im)
        impls[:] = keep

    def distribute(self, ns: str, defs: List[Def], impls: List[Impl]) -> List[Lib]:
        r = self.rng
        lines = r.sample(range(1, 1000), 6)
        if r.random() < 0.5 or (not defs and not impls):
            lib = Lib(ns, "DEF" if (defs and r.random() < 0.3) else "FRAGMENT", None, lines[0])
            lib.entries = self.mix(defs, impls)
            for im in impls:
                if im.spelling == "libkey":
                    im.spelling = "key"
            return [lib]
        libs = [Lib(ns, "DEF" if r.random() < 0.3 else "FRAGMENT", None, lines[0])]
        single_keys = sorted({im.keys[0] for im in impls
                              if len(im.keys) == 1 and im.keys[0] not in (None, "Undefined")})
        for i in range(r.randint(1, 3)):
            x = r.random()
            if x < 0.4 and single_keys:
                libs.append(Lib(ns, "IMPL", r.choice(single_keys), lines[i + 1]))
            elif x < 0.7:
                libs.append(Lib(ns, "IMPL", None, lines[i + 1]))
            else:
                libs.append(Lib(ns, "FRAGMENT", None, lines[i + 1]))
        deflibs = [l for l in libs if l.kind != "IMPL"]
        parts: Dict[int, Tuple[list, list]] = {id(l): ([], []) for l in libs}
        for d in defs:
            parts[id(r.choice(deflibs))][0].append(d)
        for im in impls:
            cands = [l for l in libs if l.kind != "IMPL" or l.key is None]
            keyed = []
            if len(im.keys) == 1 and im.spelling == "key":
                keyed = [l for l in libs if l.kind == "IMPL" and l.key == im.keys[0]]
            lib = r.choice(keyed if keyed and r.random() < 0.6 else cands)
            if lib.key is not None:
                im.spelling = "libkey" if r.random() < 0.7 else "key"
            parts[id(lib)][1].append(im)
        out = []
        for l in libs:
            dl, il = parts[id(l)]
            if dl or il:
                l.entries = self.mix(dl, il)
                out.append(l)
        r.shuffle(out)
        return out

    def mix(self, defs, impls) -> list:
        """defs at random positions between the impls (impl order kept)."""
        out = list(impls)
        for d in defs:
            out.insert(self.rng.randint(0, len(out)), d)
        return out


# --------------------------------------------------------------------------
# TOML writer
# --------------------------------------------------------------------------

def toml_str(s: str) -> str:
    out = ['"']
    for ch in s:
        if ch == '"':
            out.append('\\"')
        elif ch == "\\":
            out.append("\\\\")
        elif ord(ch) < 0x20 or ord(ch) == 0x7f:
            out.append("\\u%04x" % ord(ch))
        else:
            out.append(ch)
    out.append('"')
    return "".join(out)


def impl_kernel_debug(im: Impl, lib: Lib) -> str:
    return lib.debug if im.kind == "python" else im.kernel


def render_lib(lib: Lib, entries=None) -> str:
    entries = lib.entries if entries is None else entries
    if lib.kind == "FALLBACK":
        out = ["# generated by tests/oracle/random_scenarios.py: backend fallbacks\n"]
        for f in entries:
            out.append("\n[[fallback]]\nkey = %s\nkernel = %s\n" % (toml_str(f.key), toml_str(f.kernel)))
            if f.fallthrough:
                out.append("fallthrough = true\n")
        return "".join(out)
    out = ["# generated by tests/oracle/random_scenarios.py\n",
           "namespace = %s\n" % toml_str(lib.ns), "kind = %s\n" % toml_str(lib.kind)]
    if lib.key is not None:
        out.append("dispatch_key = %s\n" % toml_str(lib.key))
    for e in entries:
        out.append("\n")
        if isinstance(e, Def):
            out.append("[[def]]\n")
            if e.form == "name":
                out.append("name = %s\n" % toml_str(e.op))
                out.append("schema = %s\n" % toml_str(e.schema_in))
            elif e.form == "qualschema":
                out.append("schema = %s\n" % toml_str(e.op + e.schema_in))
            else:
                out.append("schema = %s\n" % toml_str(short(e.op) + e.schema_in))
            out.append("debug = %s\n" % toml_str(lib.debug))
            if e.alias == "LEGACY":
                out.append('alias_analysis = "CONSERVATIVE (default)"\n')
            elif e.alias is not None:
                out.append("alias_analysis = %s\n" % toml_str(e.alias))
            if e.shorthand:
                items = ["%s = %s" % (toml_str(", ".join(im.keys)), toml_str(im.kernel)) for im in e.shorthand]
                out.append("dispatch = { %s }\n" % ", ".join(items))
        else:
            im = e
            out.append("[[impl]]\n")
            out.append("op = %s\n" % toml_str(im.op if im.qualified else short(im.op)))
            if im.spelling == "key":
                k = lib.key if lib.key is not None else im.keys[0]
                out.append("key = %s\n" % toml_str(k))
            elif im.spelling == "keys":
                out.append("keys = [%s]\n" % ", ".join(toml_str(k) for k in im.keys))
            elif im.spelling == "device_types":
                out.append("device_types = [%s]\n" % ", ".join(toml_str(d) for d in im.devices))
            # nokey / libkey: no key field
            out.append("kernel = %s\n" % toml_str(impl_kernel_debug(im, lib)))
            if im.kind == "typed":
                out.append("signature = %s\n" % toml_str(TYPED_SIG))
            elif im.kind == "python":
                out.append("boxed_only = true\n")
            elif im.kind == "fallthrough":
                out.append("fallthrough = true\n")
    return "".join(out)


def write_libs(libs: List[Lib], outdir: str, tag: str, entries_of=None) -> List[str]:
    os.makedirs(outdir, exist_ok=True)
    paths = []
    for i, lib in enumerate(libs):
        p = os.path.join(outdir, "%s%05d-%s-%s.toml" % (tag, i, lib.ns or "_", lib.kind.lower()))
        with open(p, "w", encoding="utf-8") as f:
            f.write(render_lib(lib, None if entries_of is None else entries_of[id(lib)]))
        paths.append(p)
    return paths


# --------------------------------------------------------------------------
# Oracles: replay the blocks in torch 1.13, or in the reference model
# --------------------------------------------------------------------------

class _Captured:
    text = ""


@contextlib.contextmanager
def capture_stderr():
    """Collect what C++ code writes to file descriptor 2 (torch's override warnings)."""
    import tempfile
    sys.stderr.flush()
    saved = os.dup(2)
    tmp = tempfile.TemporaryFile()
    os.dup2(tmp.fileno(), 2)
    cap = _Captured()
    import warnings

    def show(message, category, filename, lineno, file=None, line=None):
        # TORCH_WARN reaches Python as a UserWarning when the binding runs Python
        # code (impl() with a Python kernel), else glog writes it to fd 2: put
        # both, in order, into the same stream.
        os.write(2, ("W0000 00:00:00.000000 0 python:0] Warning: %s\n" % message).encode("utf-8"))
    old_show = warnings.showwarning
    warnings.showwarning = show
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("always")
            warnings.showwarning = show
            yield cap
    finally:
        warnings.showwarning = old_show
        os.dup2(saved, 2)
        os.close(saved)
        tmp.seek(0)
        cap.text = tmp.read().decode("utf-8", "replace")
        tmp.close()


_GLOG = re.compile(r"(?m)^(?:W\d{4,8} \d\d:\d\d:\d\d\.\d+ +\d+ [\w.]+:\d+"       # 1.13
                   r"|\[W\d{4} \d\d:\d\d:\d\d\.\d+ [\w.]+:\d+)\] Warning: ")    # 2.x
_TOOL_MSG = re.compile(r"(?m)^.+?:\d+:\d+: (warning|note|error): ")


def parse_glog_warnings(text: str) -> List[str]:
    """torch's TORCH_WARN lines (glog) -> warning texts without the
    ' (function registerKernel)' suffix (2.x, TORCH_WARN_ONCE: ' (function operator())')."""
    out = []
    starts = list(_GLOG.finditer(text))
    for i, m in enumerate(starts):
        end = starts[i + 1].start() if i + 1 < len(starts) else len(text)
        body = text[m.end():end]
        body = "\n".join(ln for ln in body.split("\n") if not ln.startswith("WARNING: Logging before"))
        body = body.rstrip("\n")
        body = re.sub(r" \(function (?:\w+|operator\(\))\)$", "", body)
        body = re.sub(r" \(Triggered internally at .*\.\)$", "", body)
        out.append(body)
    return out


def group_warnings(warnings: List[str]) -> Dict[str, List[str]]:
    """Override warnings per operator (its `  operator: ` line), in order."""
    out: Dict[str, List[str]] = collections.defaultdict(list)
    for w in warnings:
        m = re.search(r"(?m)^  operator: ([^(\n]*)", w)
        out[m.group(1) if m else "?"].append(w)
    return dict(out)


def parse_tool_warnings(text: str) -> List[str]:
    """dispatchtool stderr -> the texts of its `FILE:LINE:COL: warning: ` messages."""
    out = []
    starts = list(_TOOL_MSG.finditer(text))
    for i, m in enumerate(starts):
        if m.group(1) != "warning":
            continue
        end = starts[i + 1].start() if i + 1 < len(starts) else len(text)
        out.append(text[m.end():end].rstrip("\n"))
    return out


def _py_kernel(*args, **kwargs):       # body of every Python kernel (never called)
    raise RuntimeError("not callable")


class TorchOracle:
    replayed = False                  # has this process replayed anything yet?

    def __init__(self, torch):
        import warnings
        warnings.simplefilter("ignore")
        self.name = "torch " + torch.__version__
        self.py_no_key = "" if torch.__version__.startswith("1.") else "Undefined"
        self.torch = torch
        self.C = torch._C
        self.keep = []

    def replay(self, libs: List[Lib]):
        """Run the blocks in order, and the entries of a block in document
        order, as dispatchtool loads them (only the override warnings can
        tell the order of defs and impls apart).
        The C++ override warnings torch prints meanwhile are kept in
        self.warnings."""
        C = self.C
        # A replay after the first one (the minimizer's) stands for a fresh
        # process: 2.x's TORCH_WARN_ONCE has been used up by then, so warn
        # always and keep the first warning, which is the one a fresh process
        # prints (exempt keys skip the warning either way).
        once = not self.torch.__version__.startswith("1.")
        fresh = once and TorchOracle.replayed
        TorchOracle.replayed = True
        if fresh:
            saved = C._get_warnAlways()
            C._set_warnAlways(True)
        with capture_stderr() as cap:
            for lib in libs:
                if lib.kind == "FALLBACK":
                    for f in lib.entries:
                        assert f.fallthrough, "the oracle registers only fallthrough fallbacks from Python"
                        line = int(f.kernel.rsplit(":", 1)[1])
                        L = C._dispatch_library("IMPL", "_", f.key, linenum=line)
                        L.fallback_fallthrough()
                        self.keep.append(L)
                    continue
                L = C._dispatch_library(lib.kind, lib.ns, lib.key or "", linenum=lib.line)
                self.keep.append(L)
                for e in lib.entries:
                    if isinstance(e, Def):
                        text = e.op + e.schema_in if e.form == "qualschema" else short(e.op) + e.schema_in
                        if e.alias == "LEGACY":
                            L.def_legacy(text)
                        else:
                            L.def_(text, alias=e.alias or "")
                        assert not e.shorthand
                        continue
                    name = e.op if e.qualified else short(e.op)
                    for k in e.keys:
                        disp = "" if (k is None or e.spelling in ("libkey", "nokey")) else k
                        if e.spelling == "key" and lib.key is not None:
                            disp = lib.key
                        if e.kind == "python":
                            # 2.x's impl() takes a DispatchKey: "" no longer
                            # parses; "Undefined" is the catch-all (or the
                            # block's key), as "" was in 1.13.
                            L.impl(name, disp or self.py_no_key, _py_kernel)
                        elif e.kind == "typed":
                            L.impl_t_t(name, dispatch=disp, debug=e.kernel)
                        else:
                            raise AssertionError("the torch oracle does not register %s kernels" % e.kind)
        self.warnings = parse_glog_warnings(cap.text)
        if fresh:
            C._set_warnAlways(saved)
            self.warnings = self.warnings[:1]

    def dumps(self, ops: List[str]) -> Dict[str, Tuple[str, str]]:
        return {op: (self.C._dispatch_dump_table(op), self.C._dispatch_dump(op)) for op in ops}

    def pd_views(self, table: str, regs: str) -> Tuple[str, str]:
        import torch._python_dispatcher as tpd
        PD = tpd.PythonDispatcher
        fake = object.__new__(PD)
        fake.rawDispatchTable = lambda: table
        fake.rawRegistrations = lambda: regs
        return PD.dispatchTable(fake), PD.registrations(fake)

    def release(self):
        self.keep.clear()
        gc.collect()


class ModelOracle:
    def __init__(self, dm, universe):
        self.name = "reference model (%s)" % universe.name
        self.dm = dm
        self.u = universe
        self.ops: Dict[str, object] = {}

    def op(self, name):
        o = self.ops.get(name)
        if o is None:
            # Operator.register() stores the kernels exactly as the dumps need
            # them (newest first, catch-all -> CompositeImplicitAutograd); the
            # incrementally maintained runtime table (spec G.5) plays no part
            # in the dumps, so its upkeep is switched off for speed.
            o = self.dm.Operator.__new__(self.dm.Operator)
            o.u, o.name = self.u, name
            o.schema, o.schema_debug = None, ""
            o.alias_kind, o.alias_default = "FROM_SCHEMA", False
            o.kernels = {}
            o._update = lambda key: None
            o._update_full = lambda: None
            self.ops[name] = o
        return o

    def replay(self, libs: List[Lib]):
        dm = self.dm
        for lib in libs:
            if lib.kind == "FALLBACK":            # global: must be known before any operator
                assert not self.ops, "fallbacks after operators"
                import copy
                self.u = copy.copy(self.u)
                self.u.fallbacks = dict(self.u.fallbacks)
                for f in lib.entries:
                    for k in self.u.iterate(self.u.runtime_set_of_alias(f.key)):
                        assert k not in self.u.fallbacks, "generator picked a key with a fallback: " + k
                        self.u.fallbacks[k] = (f.kernel, f.fallthrough)
        for lib in libs:
            if lib.kind == "FALLBACK":
                continue
            for e in lib.entries:                 # document order, as dispatchtool loads them
                if isinstance(e, Def):
                    o = self.op(e.op)
                    assert o.schema is None, "generator defined %s twice" % e.op
                    o.schema = e.op + e.schema_out
                    o.schema_debug = lib.debug
                    if e.alias == "LEGACY":
                        o.alias_kind, o.alias_default = "CONSERVATIVE", True
                    else:
                        o.alias_kind, o.alias_default = (e.alias or "FROM_SCHEMA"), False
                    for im in e.shorthand:
                        for k in im.keys:
                            o.register(k, dm.Kernel(im.kernel, None, False, True, True))
                elif isinstance(e, Impl):
                    o = self.op(e.op)
                    for k in e.keys:
                        if e.spelling in ("libkey",) or (e.spelling == "key" and lib.key is not None):
                            k = lib.key
                        if e.kind == "typed":
                            kern = dm.Kernel(e.kernel, TYPED_SIG, False, True, True)
                        elif e.kind == "python":
                            kern = dm.Kernel(lib.debug, None, False, True, False)
                        elif e.kind == "fallthrough":
                            kern = dm.Kernel(e.kernel, None, True, True, False)
                        else:
                            raise AssertionError(e.kind)
                        o.register(k, kern)

    def dumps(self, ops: List[str]) -> Dict[str, Tuple[str, str]]:
        out = {}
        for name in ops:
            o = self.ops.get(name)
            out[name] = ("", "") if o is None else (o.dump_table(), o.dump_state())
        return out

    def pd_views(self, table: str, regs: str) -> Tuple[str, str]:
        # the model's PythonDispatcher views read an Operator; feed it the texts
        class _Fake:
            def dump_table(self_inner):
                return table

            def dump_state(self_inner):
                return regs
        return self.dm.pd_dispatch_table(_Fake()), self.dm.pd_registrations(_Fake())

    def release(self):
        self.ops.clear()


def load_model(model_dir: str):
    sys.path.insert(0, model_dir)
    import dispatch_model as dm     # noqa: E402
    return dm


def check_profile_fallbacks(universe, profile_path: str) -> List[str]:
    """The model's fallbacks must be the ones the tool's profile carries."""
    import tomllib
    with open(profile_path, "rb") as f:
        p = tomllib.load(f)
    prof = {fb["key"]: (fb["debug"], bool(fb.get("fallthrough", False))) for fb in p.get("fallback", [])}
    problems = []
    for k in sorted(set(prof) | set(universe.fallbacks)):
        if prof.get(k) != universe.fallbacks.get(k):
            problems.append("fallback %s: profile %r vs model %r" % (k, prof.get(k), universe.fallbacks.get(k)))
    return problems


# --------------------------------------------------------------------------
# Running the tool and comparing
# --------------------------------------------------------------------------

def run_tool(tool, args, timeout=300.0):
    t0 = time.perf_counter()
    try:
        p = subprocess.run([tool] + args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=timeout)
    except (OSError, subprocess.TimeoutExpired) as e:
        return None, "cannot run %s: %s" % (tool, e), -1, time.perf_counter() - t0
    return (p.stdout.decode("utf-8", "surrogateescape"), p.stderr.decode("utf-8", "replace"),
            p.returncode, time.perf_counter() - t0)


def split_sections(text: str, single: Optional[str] = None):
    """`### name` sections of the tool output -> (list of (name, body), preamble).
    With `single`, output without any header is one section of that name."""
    if single is not None and not text.startswith("### "):
        return [(single, text)], ""
    return diff_corpus.split_sections(text)


class Comparison:
    def __init__(self, label):
        self.label = label
        self.bad: Dict[str, Tuple[str, Optional[str]]] = {}   # op -> (expected, actual)
        self.fatal: List[str] = []


def compare(label, tool_out, expected: Dict[str, str], order: List[str]) -> Comparison:
    c = Comparison(label)
    out, err, rc, dt = tool_out
    if out is None or rc != 0:
        c.fatal.append("%s: tool failed (exit %s): %s" % (label, rc, "\n".join((err or "").splitlines()[:20])))
        for n in order:
            c.bad[n] = (expected[n], None)
        return c
    single = order[0] if len(order) == 1 else None
    sections, preamble = split_sections(out, single)
    if preamble.strip():
        c.fatal.append("%s: output before the first ### header: %r" % (label, preamble[:200]))
    got = {}
    for n, body in sections:
        if n in got:
            c.fatal.append("%s: duplicate section %s" % (label, n))
        got[n] = body
    extra = [n for n in got if n not in expected]
    if extra:
        c.fatal.append("%s: %d unexpected operators, e.g. %s" % (label, len(extra), extra[:3]))
    seen = [n for n, _ in sections if n in expected]
    if seen != [n for n in order if n in got]:
        c.fatal.append("%s: operators not in byte-wise order of their qualified names" % label)
    for n in order:
        if got.get(n) != expected[n]:
            c.bad[n] = (expected[n], got.get(n))
    return c


def udiff(exp, act, a, b, limit=60):
    d = list(difflib.unified_diff(exp.splitlines(keepends=True), (act or "").splitlines(keepends=True), a, b))
    s = "".join(d[:limit]).rstrip("\n")
    if len(d) > limit:
        s += "\n... (%d more diff lines)" % (len(d) - limit)
    return s


def topo_shuffle(rng, items, edges):
    """Random topological order of `items` (indices) under `edges` (a -> b: a first)."""
    indeg = collections.Counter()
    succ = collections.defaultdict(set)
    for a, b in edges:
        if b not in succ[a]:
            succ[a].add(b)
            indeg[b] += 1
    ready = [i for i in items if indeg[i] == 0]
    out = []
    while ready:
        j = rng.randrange(len(ready))
        ready[j], ready[-1] = ready[-1], ready[j]
        i = ready.pop()
        out.append(i)
        for s in succ[i]:
            indeg[s] -= 1
            if indeg[s] == 0:
                ready.append(s)
    assert len(out) == len(items)
    return out


def shuffled_layout(rng, libs: List[Lib]):
    """Files in a random order and the entries of each file permuted, keeping the
    relative order of every (operator, key) override sequence."""
    # entries within a file
    entries_of = {}
    for lib in libs:
        n = len(lib.entries)
        last = {}
        edges = []
        for i, e in enumerate(lib.entries):
            if isinstance(e, Impl):
                for g in e.groups(lib.key):
                    if g in last and last[g] != i:
                        edges.append((last[g], i))
                    last[g] = i
        order = topo_shuffle(rng, list(range(n)), edges)
        entries_of[id(lib)] = [lib.entries[i] for i in order]
    # files: a file registering to a group must stay after earlier files of that group
    last = {}
    edges = []
    for fi, lib in enumerate(libs):
        gs = set()
        for e in lib.entries:
            if isinstance(e, Impl):
                gs.update(e.groups(lib.key))
        for g in gs:
            if g in last:
                edges.append((last[g], fi))
            last[g] = fi
    order = topo_shuffle(rng, list(range(len(libs))), edges)
    return [libs[i] for i in order], entries_of


# --------------------------------------------------------------------------
# Minimal reproducers
# --------------------------------------------------------------------------

def flatten_case(case: Case, op: str) -> Tuple[List[Def], List[Impl]]:
    """The registrations of one operator, in replay order, as a single FRAGMENT block."""
    defs, impls = [], []
    for lib in case.libs:
        for e in lib.entries:
            if isinstance(e, Def) and e.op == op:
                defs.append(Def(e.op, e.schema_in, e.schema_out, e.alias, e.form, list(e.shorthand)))
        for e in lib.entries:
            if isinstance(e, Impl) and e.op == op:
                keys = [lib.key if (e.spelling == "libkey" or (e.spelling == "key" and lib.key is not None))
                        else k for k in e.keys]
                kernel = lib.debug if e.kind == "python" else e.kernel
                sp = e.spelling if e.spelling not in ("libkey",) else "key"
                if sp == "key" and keys[0] is None:
                    sp = "nokey"
                impls.append(Impl(e.op, keys, kernel, e.kind, sp, list(e.devices), e.qualified))
    return defs, impls


class Minimizer:
    def __init__(self, args, oracle_factory, workdir, fb_lib=None):
        self.args = args
        self.fb_lib = fb_lib
        self.factory = oracle_factory
        self.workdir = workdir
        self.n = 0

    def check(self, defs, impls, line=0):
        """-> (failed?, {(what): (expected, actual)}, toml text)"""
        self.n += 1
        ns = "minrepro%d_%d" % (self.args.seed, self.n)
        ren = lambda op: ns + "::" + short(op)          # noqa: E731
        d2 = [Def(ren(d.op), d.schema_in, d.schema_out, d.alias, d.form,
                  [Impl(ren(s.op), s.keys, s.kernel, s.kind, s.spelling) for s in d.shorthand]) for d in defs]
        i2 = []
        for im in impls:
            kernel = "registered at /dev/null:%d" % line if im.kind == "python" else im.kernel
            i2.append(Impl(ren(im.op), im.keys, kernel, im.kind, im.spelling, im.devices, im.qualified))
        lib = Lib(ns, "FRAGMENT", None, line, d2 + i2)
        opname = ren((defs + impls)[0].op) if (defs or impls) else ns + "::x"
        oracle = self.factory()
        oracle.replay(([self.fb_lib] if self.fb_lib else []) + [lib])
        exp_t, exp_r = oracle.dumps([opname])[opname]
        exp_w = group_warnings(getattr(oracle, "warnings", []))
        oracle.release()
        d = os.path.join(self.workdir, "minimize")
        os.makedirs(d, exist_ok=True)
        path = os.path.join(d, "repro-%d.toml" % self.n)
        text = render_lib(lib)
        with open(path, "w") as f:
            f.write(text)
        diffs = {}
        for what, exp in (("table", exp_t), ("registrations", exp_r)):
            out, err, rc, _ = run_tool(self.args.tool, [what, "--raw", "--profile", self.args.profile] +
                                       ([self.fb_lib.path] if self.fb_lib else []) + [path])
            if out is None or rc != 0:
                act = None
            else:
                secs, _ = split_sections(out)
                act = dict(secs).get(opname, "" if not exp else None)
            if exp and act != exp:
                diffs[what] = (exp, act if act is not None else "(tool: exit %s) %s" % (rc, (err or "")[:500]))
            if what == "table" and self.args.check_warnings and out is not None:
                got_w = group_warnings(parse_tool_warnings(err or ""))
                if got_w != exp_w:
                    diffs["override warnings"] = (
                        "".join(w + "\n" for ws in exp_w.values() for w in ws),
                        "".join(w + "\n" for ws in got_w.values() for w in ws))
        return bool(diffs), diffs, text

    def minimize(self, case: Case, op: str):
        defs, impls = flatten_case(case, op)
        failed, diffs, text = self.check(defs, impls)
        if not failed:
            return None
        changed = True
        while changed:
            changed = False
            for i in range(len(impls)):
                cand = impls[:i] + impls[i + 1:]
                if not cand and not defs:
                    continue
                f2, d2, t2 = self.check(defs, cand)
                if f2:
                    impls, diffs, text, changed = cand, d2, t2, True
                    break
            if not changed and defs and impls:
                f2, d2, t2 = self.check([], impls)
                if f2:
                    defs, diffs, text, changed = [], d2, t2, True
        return text, diffs


# --------------------------------------------------------------------------
# main
# --------------------------------------------------------------------------

def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tool", required=True, help="path to the dispatchtool binary")
    ap.add_argument("--profile", choices=("torch-1.13", "torch-2.6", "torch-2.14", "torch-main"),
                    default="torch-1.13")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--cases", type=int, default=1000)
    ap.add_argument("--workdir", required=True)
    ap.add_argument("--oracle", choices=("torch", "model"), default=None,
                    help="where expected texts come from: the live torch (torch-1.13, torch-2.x) or the "
                         "reference model (torch-1.13, torch-main) (default: torch, model for torch-main)")
    ap.add_argument("--model-dir", default=DEFAULT_MODEL_DIR,
                    help="directory of dispatch_model.py (default: %(default)s)")
    ap.add_argument("--profile-file", default=None,
                    help="profile file to cross-check the model's fallbacks with "
                         "(default: configs/profiles/PROFILE.toml)")
    ap.add_argument("--no-shuffle", action="store_true", help="skip the order-independence run")
    ap.add_argument("--no-pd-style", action="store_true", help="skip the --style python-dispatcher runs")
    ap.add_argument("--no-fallbacks", action="store_true",
                    help="register no backend fallbacks (default: 1-3 keys, or one alias key, per run)")
    ap.add_argument("--check-warnings", action="store_true",
                    help="torch oracle only: also compare the override warnings the tool prints on "
                         "stderr with the ones torch prints while registering")
    ap.add_argument("--max-diffs", type=int, default=3)
    ap.add_argument("--max-repros", type=int, default=3, help="minimal reproducers to search and print")
    args = ap.parse_args(argv)
    t_start = time.perf_counter()
    main_profile = args.profile == "torch-main"
    release = None                   # 2.x key pools (torch oracle, torch-2.x)

    oracle_kind = args.oracle or ("model" if main_profile else "torch")
    if main_profile and oracle_kind == "torch":
        ap.error("torch-main has no live oracle; use --oracle model")
    if oracle_kind == "model" and args.profile not in ("torch-main", "torch-1.13"):
        ap.error("the reference model has no %s universe; use the torch oracle (in its chroot)" % args.profile)
    if oracle_kind == "model":
        if not os.path.exists(os.path.join(args.model_dir, "dispatch_model.py")):
            print("%s: SKIP: reference model not found in %s" % (PROG, args.model_dir))
            return SKIP
        dm = load_model(args.model_dir)
        universe = dm.MAIN if main_profile else dm.V113
        factory = lambda: ModelOracle(dm, universe)        # noqa: E731
        gen = Generator(random.Random(args.seed), main_profile, True, list(universe.enum))
        prof = args.profile_file or os.path.join(ROOT, "configs", "profiles", args.profile + ".toml")
        problems = check_profile_fallbacks(universe, prof)
    else:
        try:
            import torch
        except Exception:            # noqa: BLE001
            print("%s: SKIP: torch not importable (install python3-torch)" % PROG)
            return SKIP
        factory = lambda: TorchOracle(torch)               # noqa: E731
        problems = []
        if args.profile != "torch-1.13":
            want = args.profile.split("-", 1)[1]
            if not re.match(re.escape(want) + r"(\.|\+|$)", torch.__version__):
                print("%s: --profile %s, but the torch here is %s (run it with tools/oracle-env python %s)"
                      % (PROG, args.profile, torch.__version__, args.profile))
                return 1
            release = Release(args.profile_file or os.path.join(ROOT, "configs", "profiles",
                                                                  args.profile + ".toml"))
        gen = Generator(random.Random(args.seed), False, False, release=release)
    for p in problems:
        print("%s: profile/model mismatch: %s" % (PROG, p))

    # ---- generate -------------------------------------------------------
    t0 = time.perf_counter()
    cases = [gen.case(i, "rs%s%d_%d" % ("m" if main_profile else "", args.seed, i)) for i in range(args.cases)]
    libs = [lib for c in cases for lib in c.libs]
    fb_lib = None
    if not args.no_fallbacks:
        fbr = random.Random(args.seed * 31 + 5)
        fb_lib = Lib("", "FALLBACK", None, 0, choose_fallbacks(fbr, main_profile, oracle_kind == "model", release))
        libs.insert(fbr.randint(0, len(libs)), fb_lib)
        print("%s: backend fallbacks: %s" % (PROG, ", ".join(
            "%s (%s)" % (f.key, "fallthrough" if f.fallthrough else "kernel") for f in fb_lib.entries)))
    shutil.rmtree(args.workdir, ignore_errors=True)
    paths = write_libs(libs, os.path.join(args.workdir, "files"), "f")
    for lib, p in zip(libs, paths):
        lib.path = p
    op_case = {}
    for c in cases:
        for lib in c.libs:
            for e in lib.entries:
                op_case[e.op] = c
    order = sorted(op_case, key=lambda n: n.encode("utf-8"))
    stats = collections.Counter()
    for lib in libs:
        if lib.kind == "FALLBACK":
            continue
        stats["blocks " + lib.kind + ("+key" if lib.key else "")] += 1
        for e in lib.entries:
            if isinstance(e, Impl):
                stats["impl " + e.kind] += 1
                stats["spelling " + e.spelling] += 1
                stats["registrations"] += len(e.keys)
            else:
                stats["defs"] += 1
                stats["shorthand kernels"] += len(e.shorthand)
    print("%s: %s, seed %d: %d cases, %d operators, %d files (%s) in %.2fs"
          % (PROG, args.profile, args.seed, len(cases), len(order), len(paths),
             ", ".join("%s %d" % kv for kv in sorted(stats.items())), time.perf_counter() - t0))

    # ---- expected -------------------------------------------------------
    t0 = time.perf_counter()
    oracle = factory()
    oracle.replay(libs)
    if args.check_warnings and not hasattr(oracle, "warnings"):
        ap.error("--check-warnings needs the torch oracle")
    expected_warnings = group_warnings(getattr(oracle, "warnings", []))
    dumps = oracle.dumps(order)
    missing = [n for n in order if not dumps[n][1]]
    if missing:
        print("%s: oracle knows no operator %s (generator bug)" % (PROG, missing[:3]))
        return 1
    expected = {"table": {n: dumps[n][0] for n in order}, "registrations": {n: dumps[n][1] for n in order}}
    if not args.no_pd_style:
        pdv = {n: oracle.pd_views(*dumps[n]) for n in order}
        expected["pd-table"] = {n: pdv[n][0] for n in order}
        expected["pd-registrations"] = {n: pdv[n][1] for n in order}
    oracle.release()
    provenance = collections.Counter()
    for n in order:
        for ln in dumps[n][0].splitlines():
            m = re.search(r"\[([a-z ]+)\]$", ln)
            if m:
                provenance[m.group(1)] += 1
    print("%s: expected texts from %s (%.2fs); table rows by provenance: %s"
          % (PROG, oracle.name, time.perf_counter() - t0,
             ", ".join("%s %d" % kv for kv in sorted(provenance.items()))))

    # ---- run the tool ---------------------------------------------------
    runs = [("table", ["table", "--raw"], "table", paths), ("registrations", ["registrations", "--raw"], "registrations", paths)]
    if not args.no_pd_style:
        runs += [("pd-table", ["table", "--style", "python-dispatcher"], "pd-table", paths),
                 ("pd-registrations", ["registrations", "--style", "python-dispatcher"], "pd-registrations", paths)]
    if not args.no_shuffle:
        rng = random.Random(args.seed * 7919 + 17)
        slibs, entries_of = shuffled_layout(rng, libs)
        spaths = write_libs(slibs, os.path.join(args.workdir, "shuffled"), "s", entries_of)
        runs += [("shuffled table", ["table", "--raw"], "table", spaths),
                 ("shuffled registrations", ["registrations", "--raw"], "registrations", spaths)]
    comparisons = []
    stdout_of = {}
    for label, cmd, exp_kind, pths in runs:
        res = run_tool(args.tool, cmd + ["--profile", args.profile] + pths)
        stdout_of[label] = res[0]
        c = compare(label, res, expected[exp_kind], order)
        if label.startswith("shuffled ") and res[0] is not None and res[0] != stdout_of.get(label[9:]):
            c.fatal.append("%s: stdout is not byte-identical to the in-order run's" % label)
        comparisons.append(c)
        if label == "table" and args.check_warnings:
            got_w = group_warnings(parse_tool_warnings(res[1] or ""))
            cw = Comparison("override warnings")
            for n in sorted(set(got_w) | set(expected_warnings)):
                e, a = expected_warnings.get(n, []), got_w.get(n, [])
                if e != a:
                    cw.bad[n] = ("".join(w + "\n" for w in e), "".join(w + "\n" for w in a))
            comparisons.append(cw)
            print("%s: %-24s %d warnings from torch, %d from the tool, %d operators differ" % (
                PROG, "override warnings:", sum(map(len, expected_warnings.values())),
                sum(map(len, got_w.values())), len(cw.bad)))
        print("%s: %-24s tool %.2fs, %d of %d operators differ%s"
              % (PROG, label + ":", res[3], len(c.bad), len(order), "; " + "; ".join(c.fatal) if c.fatal else ""))
    # ---- report ---------------------------------------------------------
    failed_cases = set()
    fatal = bool(problems)
    for c in comparisons:
        fatal = fatal or bool(c.fatal)
        for n in c.bad:
            failed_cases.add(op_case[n].index)
    for c in comparisons:
        for n in list(c.bad)[:args.max_diffs]:
            exp, act = c.bad[n]
            print("--- %s mismatch for %s (case %d, files: %s)" % (
                c.label, n, op_case[n].index, " ".join(os.path.basename(l.path) for l in op_case[n].libs)))
            print(udiff(exp, act, "expected (%s)" % oracle.name, "dispatchtool"))
    if failed_cases and args.max_repros > 0:
        mini = Minimizer(args, factory, args.workdir, fb_lib)
        done = 0
        seen_ops = []
        for c in comparisons:
            for n in c.bad:
                if n not in seen_ops:
                    seen_ops.append(n)
        for n in seen_ops:
            if done >= args.max_repros:
                break
            res = mini.minimize(op_case[n], n)
            done += 1
            if res is None:
                print("=== %s: the single-file flattening does not reproduce; original files:" % n)
                for lib in op_case[n].libs:
                    print("# %s\n%s" % (lib.path, render_lib(lib)))
                continue
            text, diffs = res
            if fb_lib is not None:
                text = "# together with %s:\n%s\n%s" % (fb_lib.path, render_lib(fb_lib), text)
            print("=== minimal reproducer for %s (%s):\n%s" % (n, args.profile, text))
            for what, (exp, act) in diffs.items():
                print(udiff(exp, act, "expected %s (%s)" % (what, oracle.name), "dispatchtool %s" % what))
    failed = len(failed_cases) + (1 if fatal and not failed_cases else 0)
    passed = len(cases) - len(failed_cases)
    print("%s: %d operators, %d comparisons each, %.1fs total"
          % (PROG, len(order), len(comparisons), time.perf_counter() - t_start))
    print("%s: %d passed, %d failed" % (PROG, passed, failed))
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
