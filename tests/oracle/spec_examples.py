#!/usr/bin/python3
"""Every example of the semantics spec whose expected text the spec writes out, run through dispatchtool.

    /usr/bin/python3 tests/oracle/spec_examples.py --tool build/dispatchtool \\
        [--spec ../shared/spec/dispatch-semantics.md] [--workdir DIR]

The expected texts are extracted from the spec (../shared/spec/dispatch-semantics.md
relative to the repository root) at run time.  When the spec is not there, the
few examples quoted below (EMBEDDED, each with its section) are used instead
and the checks that need the spec's long key lists are skipped.  Checks:

  E.1   the _dispatch_dump example (registrations --raw), both profiles
  E.3   the PythonDispatcher example (1.13 text; main: "the two fallback rows
        read `AutogradCPU     [backend fallback]`"), the registrations()
        quirks (`CompositeImplicitAutograd[alias] fn_...`, `CPU (inactive)
        (inactive):`), the fixed row order, the three register() errors
  D.1   the 28 backend-fallback rows of 1.13 (table of an operator without
        kernels) and the raw example row
  D.2   main's fallback rows: keys, fallthrough flags, files (quoted below)
  D.3   the rows as test_dispatch.py masks them (1.13 and main)
  C.4   the `ambiguous_autogradother` row (several triggering registrations,
        and the cases that must not trigger it)
  A.4   the runtime-key (row) order of both profiles
  B.1   autogradother_backends (= the keys whose kernel + a CIA kernel make
        AutogradOther ambiguous), both profiles
  B.2   the runtime keys of every alias key (rows an alias kernel fills)
  B.3   which Autograd<B> rows a kernel on B takes from the CIA kernel
  F.1   the override warning (every time in 1.13; once, Meta/MTIA exempt, in main)
  F.5 F.6 F.7   registration error messages
(G.4 is a runtime error text: not applicable.)

Last line: `spec_examples: N passed, M failed`.  Exit 0 iff no check failed.
No torch needed.
"""

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from typing import Dict, List, Optional

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
DEFAULT_SPEC = os.path.join(os.path.dirname(ROOT), "shared", "spec", "dispatch-semantics.md")
PROG = "spec_examples"
PROFILES = ("torch-1.13", "torch-main")
TYPED_SIG = "(Tensor _0) -> Tensor _0"

# Fallback copies of the short examples (used only when the spec file is absent).
EMBEDDED = {
    # E.1, "Example (1.13):"
    "E.1": ("name: t::foo\n"
            "schema: t::foo(Tensor x) -> Tensor\n"
            "debug: registered at /dev/null:0\n"
            "alias analysis kind: FROM_SCHEMA\n"
            "CPU: THIRD :: (Tensor _0) -> Tensor _0 [ boxed unboxed ]\n"
            "CPU (inactive): SECOND :: (Tensor _0) -> Tensor _0 [ boxed unboxed ]\n"
            "CompositeImplicitAutograd[alias]: fn_math :: (Tensor _0) -> Tensor _0 [ boxed unboxed ]"),
    # E.3, '1.13 example (`register(["CPU","XLA","CompositeImplicitAutograd"])`):'
    "E.3": ("\nComputed Dispatch Table\n"
            "key             kernel\n"
            "---------------------------\n"
            "CPU             fn_CPU [kernel]\n"
            "XLA             fn_XLA [kernel]\n"
            "Lazy            fn_CompositeImplicitAutograd [math kernel]\n"
            "FPGA            fn_CompositeImplicitAutograd [math kernel]\n"
            "AutogradOther   fn_CompositeImplicitAutograd [math kernel]\n"
            "AutogradCPU     fallthrough [backend fallback]\n"
            "AutogradXLA     fallthrough [backend fallback]\n"
            "AutogradLazy    fn_CompositeImplicitAutograd [math kernel]"),
    "E.3 main row": "AutogradCPU     [backend fallback]",
    "E.3 alias line": "CompositeImplicitAutograd[alias] fn_CompositeImplicitAutograd",
    "E.3 inactive line": "CPU (inactive)  (inactive):",
    "E.3 order": "CPU, XLA, Lazy, FPGA, AutogradOther, AutogradCPU, AutogradXLA, AutogradLazy",
    "E.3 runtime_keys": "CPU, AutogradCPU, FPGA, AutogradOther, XLA, AutogradXLA, Lazy, AutogradLazy",
    "E.3 alias_keys": "CompositeExplicitAutograd, Autograd, CompositeImplicitAutograd",
    "E.3 errors": [
        "Overriden is not allowed but found duplicates in <python repr of the list>.",
        "Registration to both CompositeImplicitAutograd and CompositeExplicitAutograd is not allowed.",
        "<key> is not supported, please select a dispatch key in <python repr of keys()>.",
    ],
    # C.4, "The printed row is"
    "C.4": "AutogradOther: ambiguous_autogradother [ambiguous autogradother]",
    # D.3
    "D.3 1.13": "AutogradCPU: fallthrough registered in pytorch framework [backend fallback]",
    "D.3 main": "AutogradCPU: registered in pytorch framework [backend fallback]",
    # D.1, "Raw example (1.13):"
    "D.1 raw": ("AutogradCPU: fallthrough registered at ./aten/src/ATen/core/VariableFallbackKernel.cpp:39 "
                "[backend fallback]"),
}

# D.2 (main), quoted from the prose of the spec: fallback key -> (fallthrough, file).
_VF = "core/VariableFallbackKernel.cpp"
D2_MAIN = {
    "BackendSelect": (True, "core/BackendSelectFallbackKernel.cpp"),
    "ADInplaceOrView": (True, _VF),
    "AutocastCPU": (True, "autocast_mode.cpp"), "AutocastMTIA": (True, "autocast_mode.cpp"),
    "AutocastMAIA": (True, "autocast_mode.cpp"), "AutocastXPU": (True, "autocast_mode.cpp"),
    "AutocastMPS": (True, "autocast_mode.cpp"), "AutocastCUDA": (True, "autocast_mode.cpp"),
    "FuncTorchVmapMode": (True, "functorch/VmapModeRegistrations.cpp"),
    "VmapMode": (True, "VmapModeRegistrations.cpp"),
    "Meta": (False, "core/MetaFallbackKernel.cpp"),
    "Python": (False, "core/PythonFallbackKernel.cpp"),
    "PythonTLSSnapshot": (False, "core/PythonFallbackKernel.cpp"),
    "PreDispatch": (False, "core/PythonFallbackKernel.cpp"),
    "PythonDispatcher": (False, "core/PythonFallbackKernel.cpp"),
    "FuncTorchDynamicLayerBackMode": (False, "functorch/DynamicLayer.cpp"),
    "FuncTorchDynamicLayerFrontMode": (False, "functorch/DynamicLayer.cpp"),
    "Functionalize": (False, "FunctionalizeFallbackKernel.cpp"),
    "Named": (False, "core/NamedRegistrations.cpp"),
    "Conjugate": (False, "ConjugateFallback.cpp"),
    "Negative": (False, "native/NegateFallback.cpp"),
    "ZeroTensor": (False, "ZeroTensorFallback.cpp"),
    "Tracer": (False, "torch/csrc/autograd/TraceTypeManual.cpp"),
    "FuncTorchBatched": (False, "functorch/LegacyBatchingRegistrations.cpp"),
    "BatchedNestedTensor": (False, "functorch/LegacyBatchingRegistrations.cpp"),
    "Batched": (False, "LegacyBatchingRegistrations.cpp"),
    "FuncTorchGradWrapper": (False, "functorch/TensorWrapper.cpp"),
}
for _b in ["Other", "CPU", "XPU", "CUDA", "MTIA", "MAIA", "XLA", "Lazy", "MPS", "Meta", "HPU", "PrivateUse1"]:
    D2_MAIN["Autograd" + _b] = (False, _VF)

# B.3 fallback (the row "`Autograd<B>` for B ∈ 1.13: {...}; main: same + `MAIA`")
B3_EMBEDDED = {
    "torch-1.13": ["CPU", "CUDA", "XLA", "Lazy", "Meta", "MPS", "HPU", "IPU", "XPU",
                   "PrivateUse1", "PrivateUse2", "PrivateUse3"],
}
B3_EMBEDDED["torch-main"] = B3_EMBEDDED["torch-1.13"] + ["MAIA"]

PROVENANCE_OF_ALIAS = {
    "Autograd": "autograd kernel", "CompositeImplicitAutograd": "math kernel",
    "CompositeImplicitAutogradNestedTensor": "nested kernel",
    "CompositeExplicitAutograd": "default backend kernel",
    "CompositeExplicitAutogradNonFunctional": "default backend kernel",
    "FuncTorchBatchedDecomposition": "batched kernel",
}


class SpecMissing(Exception):
    pass


class CheckFailed(Exception):
    pass


# --------------------------------------------------------------------------
# Spec extraction
# --------------------------------------------------------------------------

class Spec:
    def __init__(self, path: Optional[str]):
        self.path = path
        self.text = None
        if path and os.path.exists(path):
            with open(path, encoding="utf-8") as f:
                self.text = f.read()

    def need(self):
        if self.text is None:
            raise SpecMissing("spec not found")
        return self.text

    def section(self, heading: str) -> str:
        """Text from a `### X.n` heading (or a `X.n **...` paragraph) to the next one."""
        t = self.need()
        m = re.search(r"(?m)^### " + re.escape(heading) + r"\b.*$", t)
        if m:
            end = re.compile(r"(?m)^(### |## |-{50,}$)").search(t, m.end())
        else:
            m = re.search(r"(?m)^" + re.escape(heading) + r" \*\*.*$", t)
            if not m:
                raise CheckFailed("spec: section %s not found" % heading)
            end = re.compile(r"(?m)^([A-H]\.\d+ \*\*|### |## |-{50,}$)").search(t, m.end())
        return t[m.start():end.start() if end else len(t)]

    @staticmethod
    def find(text: str, marker: str) -> int:
        """End of `marker` in `text`, any whitespace run matching any whitespace run."""
        m = re.search(r"\s+".join(re.escape(w) for w in marker.split()), text)
        if not m:
            raise CheckFailed("spec: %r not found" % marker)
        return m.end()

    @staticmethod
    def block_after(text: str, marker: str) -> str:
        i = Spec.find(text, marker)
        j = text.find("```\n", i)
        k = text.find("\n```", j + 3)
        if j < 0 or k < 0:
            raise CheckFailed("spec: no code block after %r" % marker)
        return text[j + 4:k]

    @staticmethod
    def code_after(text: str, marker: str) -> str:
        i = Spec.find(text, marker)
        m = re.compile(r"`([^`]+)`").search(text, i)
        if not m:
            raise CheckFailed("spec: no `code` after %r" % marker)
        return m.group(1)

    def get(self, key: str, extract):
        """Extracted text, or EMBEDDED[key] when the spec is absent."""
        if self.text is None:
            return EMBEDDED[key]
        return extract()


def names(text: str) -> List[str]:
    return [n for n in re.split(r"[,\s]+", text) if n]


# --------------------------------------------------------------------------
# Running the tool
# --------------------------------------------------------------------------

def toml_str(s: str) -> str:
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


class Tool:
    def __init__(self, path: str, workdir: str):
        self.path = path
        self.workdir = workdir
        self.n = 0

    def write(self, text: str, name: Optional[str] = None) -> str:
        self.n += 1
        p = os.path.join(self.workdir, name or ("in%03d.toml" % self.n))
        with open(p, "w", encoding="utf-8") as f:
            f.write(text)
        return p

    def run(self, args: List[str]):
        p = subprocess.run([self.path] + args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=120)
        return p.returncode, p.stdout.decode("utf-8", "replace"), p.stderr.decode("utf-8", "replace")

    def ok(self, args: List[str]) -> str:
        rc, out, err = self.run(args)
        if rc != 0:
            raise CheckFailed("$ dispatchtool %s\nexit %d\n%s" % (" ".join(args), rc, err[-2000:]))
        return out


def lib(ns: str, entries: List[str], kind: str = "FRAGMENT", key: Optional[str] = None) -> str:
    head = "namespace = %s\nkind = %s\n" % (toml_str(ns), toml_str(kind))
    if key:
        head += "dispatch_key = %s\n" % toml_str(key)
    return head + "".join("\n" + e for e in entries)


def d(schema: str, debug: str = "registered at /dev/null:0", alias: Optional[str] = "") -> str:
    s = "[[def]]\nschema = %s\ndebug = %s\n" % (toml_str(schema), toml_str(debug))
    if alias is not None:
        s += "alias_analysis = %s\n" % toml_str(alias)
    return s


def im(op: str, key: Optional[str], kernel: str, sig: Optional[str] = TYPED_SIG) -> str:
    s = "[[impl]]\nop = %s\n" % toml_str(op)
    if key is not None:
        s += "key = %s\n" % toml_str(key)
    s += "kernel = %s\n" % toml_str(kernel)
    if sig:
        s += "signature = %s\n" % toml_str(sig)
    return s


def sections(out: str) -> Dict[str, str]:
    res, cur, buf = {}, None, []
    for line in out.splitlines(keepends=True):
        if line.startswith("### "):
            if cur is not None:
                res[cur] = "".join(buf)
            cur, buf = line[4:].rstrip("\n"), []
        else:
            buf.append(line)
    if cur is not None:
        res[cur] = "".join(buf)
    return res


def rows(table: str) -> Dict[str, str]:
    out = {}
    for ln in table.splitlines():
        if ln:
            out[ln.split(":", 1)[0]] = ln
    return out


def row_keys(table: str) -> List[str]:
    return [ln.split(":", 1)[0] for ln in table.splitlines() if ln]


def expect_eq(what: str, expected: str, actual: str):
    if expected != actual:
        import difflib
        diff = "".join(difflib.unified_diff(expected.splitlines(keepends=True), actual.splitlines(keepends=True),
                                            "spec", "dispatchtool"))
        raise CheckFailed("%s differs:\n%s" % (what, diff.rstrip("\n")))


def list_diff(what: str, expected: List[str], actual: List[str]):
    if expected != actual:
        missing = [k for k in expected if k not in actual]
        extra = [k for k in actual if k not in expected]
        raise CheckFailed("%s: expected %d keys, got %d; missing %s; extra %s%s" % (
            what, len(expected), len(actual), missing[:10], extra[:10],
            "; same keys, different order" if not missing and not extra else ""))


# --------------------------------------------------------------------------
# Checks
# --------------------------------------------------------------------------

class Checks:
    def __init__(self, spec: Spec, tool: Tool):
        self.spec = spec
        self.tool = tool
        self.results = []     # (name, status, message)

    def run(self, name, fn, *a):
        try:
            fn(*a)
        except SpecMissing as e:
            self.results.append((name, "SKIP", str(e)))
        except CheckFailed as e:
            self.results.append((name, "FAIL", str(e)))
        except subprocess.TimeoutExpired as e:
            self.results.append((name, "FAIL", "timeout: %s" % e))
        else:
            self.results.append((name, "PASS", ""))

    # ---- spec texts ----------------------------------------------------
    def a4_rows(self, profile) -> List[str]:
        sec = self.spec.section("A.4")
        marker = "1.13 (106 rows;" if profile == "torch-1.13" else "main (138 rows;"
        return names(Spec.block_after(sec, marker))

    def def_only_table(self, profile, ns="spec_d1") -> str:
        p = self.tool.write(lib(ns, [d("foo(Tensor x) -> Tensor")]))
        return sections(self.tool.ok(["table", "--raw", "--profile", profile, p]))[ns + "::foo"]

    # ---- E.1 ------------------------------------------------------------
    def e1(self, profile):
        sec = self.spec.text and self.spec.section("E.1")
        expected = self.spec.get("E.1", lambda: Spec.block_after(sec, "Example (1.13):")) + "\n"
        p = self.tool.write(lib("t", [d("foo(Tensor x) -> Tensor"),
                                      im("foo", "CPU", "SECOND"), im("foo", "CPU", "THIRD"),
                                      im("foo", "CompositeImplicitAutograd", "fn_math")]))
        out = self.tool.ok(["registrations", "--raw", "--profile", profile, p])
        expect_eq("registrations --raw", "### t::foo\n" + expected, out)

    # ---- E.3 ------------------------------------------------------------
    def e3_texts(self):
        sec = self.spec.text and self.spec.section("E.3")
        table = self.spec.get("E.3", lambda: Spec.block_after(sec, '1.13 example (`register(')) + "\n"
        main_row = self.spec.get("E.3 main row", lambda: Spec.code_after(sec, "In main the two fallback rows read"))
        return sec, table, main_row

    def e3_table(self, profile):
        sec, table, main_row = self.e3_texts()
        if profile == "torch-main":
            # "In main the two fallback rows read `AutogradCPU     [backend fallback]`"
            lines = table.split("\n")
            fb = [i for i, ln in enumerate(lines) if ln.endswith("fallthrough [backend fallback]")]
            if len(fb) != 2:
                raise CheckFailed("spec: expected two fallback rows in the E.3 example, found %d" % len(fb))
            if main_row not in [lines[i].replace("fallthrough ", "") for i in fb]:
                raise CheckFailed("spec: main row %r is not a 1.13 fallback row without 'fallthrough '" % main_row)
            for i in fb:
                lines[i] = lines[i].replace("fallthrough ", "")
            table = "\n".join(lines)
        out = self.tool.ok(["table", "--style", "python-dispatcher", "--profile", profile,
                            "--register", "CPU,XLA,CompositeImplicitAutograd"])
        expect_eq("PythonDispatcher.dispatchTable()", table, out)

    def e3_keys(self):
        sec = self.spec.text and self.spec.section("E.3")
        rk = names(self.spec.get("E.3 runtime_keys", lambda: Spec.code_after(sec, "* `runtime_keys` =")))
        ak = names(self.spec.get("E.3 alias_keys", lambda: Spec.code_after(sec, "* `alias_keys` =")))
        return sec, rk, ak

    def e3_registrations(self, profile):
        sec = self.spec.text and self.spec.section("E.3")
        alias_line = self.spec.get("E.3 alias line", lambda: Spec.code_after(sec, "alias keys appear as"))
        inactive_line = self.spec.get("E.3 inactive line", lambda: Spec.code_after(sec, "inactive kernel line"))
        out = self.tool.ok(["registrations", "--style", "python-dispatcher", "--profile", profile,
                            "--register", "CompositeImplicitAutograd"])
        if alias_line + "\n" not in out.splitlines(keepends=True):
            raise CheckFailed("no line %r in\n%s" % (alias_line, out))
        out = self.tool.ok(["registrations", "--style", "python-dispatcher", "--profile", profile,
                            "--register", "CPU", "--register", "CPU"])
        if inactive_line + "\n" not in out.splitlines(keepends=True):
            raise CheckFailed("no line %r in\n%s" % (inactive_line, out))

    def e3_order(self, profile):
        sec, rk, ak = self.e3_keys()
        order = names(self.spec.get("E.3 order", lambda: re.search(
            r"Resulting order is always\s+([\w,\s]+?)\s*\(", sec).group(1)))
        out = self.tool.ok(["table", "--style", "python-dispatcher", "--profile", profile,
                            "--register", ",".join(rk)])
        got = [ln.split()[0] for ln in out.splitlines()[4:] if ln]
        list_diff("dispatchTable() row order with every runtime key registered", order, got)
        for ln in out.splitlines()[4:]:
            if ln and not ln.endswith("[kernel]"):
                raise CheckFailed("row %r is not the registered kernel" % ln)

    def e3_errors(self, profile):
        sec, rk, ak = self.e3_keys()
        if self.spec.text is None:
            tpl = EMBEDDED["E.3 errors"]
        else:
            tpl = re.findall(r'RuntimeError\("([^"]*)"\)', sec)
            if len(tpl) != 3:
                raise CheckFailed("spec: expected 3 RuntimeError texts in E.3, found %d" % len(tpl))
        keys_repr = repr(rk + ak)
        cases = [
            (["CPU", "XLA", "CPU"], tpl[0].replace("<python repr of the list>", repr(["CPU", "XLA", "CPU"]))),
            (["CompositeExplicitAutograd", "CPU", "CompositeImplicitAutograd"], tpl[1]),
            (["CPU", "CUDA", "XLA"], tpl[2].replace("<key>", "CUDA").replace("<python repr of keys()>", keys_repr)),
        ]
        for keys, msg in cases:
            if "<" in msg:
                raise CheckFailed("spec template not fully substituted: %r" % msg)
            for what in ("table", "registrations"):
                args = [what, "--style", "python-dispatcher", "--profile", profile, "--register", ",".join(keys)]
                rc, out, err = self.tool.run(args)
                want = "dispatchtool: error: " + msg + "\n"
                if rc != 2 or out or not err.endswith(want):
                    raise CheckFailed("$ dispatchtool %s\nexpected exit 2, no stdout, stderr ending in %r;\n"
                                      "got exit %d, stdout %r, stderr %r" % (" ".join(args), want, rc, out[:100], err[-500:]))

    # ---- D --------------------------------------------------------------
    def d1(self):
        if self.spec.text is None:
            raise SpecMissing("spec not found (the D.1 table is not embedded)")
        sec = self.spec.section("D.1")
        exp = []
        for m in re.finditer(r"(?m)^\| (\w+) \| (yes|no) \| (registered at [^|]*?) \|$", sec):
            exp.append("%s: %s%s [backend fallback]\n" % (m.group(1), "fallthrough " if m.group(2) == "yes" else "",
                                                         m.group(3)))
        n = re.search(r"(\d+) rows, printed in A.4 order", sec)
        if not n or int(n.group(1)) != len(exp):
            raise CheckFailed("spec: D.1 table has %d rows, the text says %s" % (len(exp), n and n.group(1)))
        expect_eq("table of an operator without kernels (1.13)", "".join(exp), self.def_only_table("torch-1.13"))

    def d1_raw(self):
        sec = self.spec.text and self.spec.section("D.1")
        line = self.spec.get("D.1 raw", lambda: Spec.code_after(sec, "Raw example (1.13):"))
        t = self.def_only_table("torch-1.13")
        if line + "\n" not in t.splitlines(keepends=True):
            raise CheckFailed("row %r not in\n%s" % (line, t))

    def d2(self):
        t = self.def_only_table("torch-main")
        got = {}
        for ln in t.splitlines():
            m = re.match(r"(\w+): (fallthrough )?(.*) \[backend fallback\]$", ln)
            if not m:
                raise CheckFailed("row %r is not a backend fallback row" % ln)
            got[m.group(1)] = (bool(m.group(2)), m.group(3))
        problems = []
        for k in sorted(set(got) | set(D2_MAIN)):
            if k not in got:
                problems.append("row %s missing" % k)
            elif k not in D2_MAIN:
                problems.append("unexpected row %s (D.2: build-dependent or absent)" % k)
            else:
                ft, f = D2_MAIN[k]
                base = "torch/csrc/autograd/" if f.startswith("torch/") else "aten/src/ATen/"
                f = f[len("torch/csrc/autograd/"):] if f.startswith("torch/") else f
                if got[k][0] != ft:
                    problems.append("%s: fallthrough %s, D.2 says %s" % (k, got[k][0], ft))
                if not re.fullmatch(r"registered at .*/" + re.escape(base + f) + r":\S+", got[k][1]):
                    problems.append("%s: debug %r is not in %s%s" % (k, got[k][1], base, f))
        if list(got) != [k for k in self.a4_rows_safe("torch-main") if k in got]:
            problems.append("rows not in A.4 order")
        if problems:
            raise CheckFailed("; ".join(problems))

    def a4_rows_safe(self, profile):
        try:
            return self.a4_rows(profile)
        except SpecMissing:
            return list(rows(self.def_only_table(profile)))

    def d3(self, profile):
        sec = self.spec.text and self.spec.section("D.3")
        if self.spec.text is None:
            exp = EMBEDDED["D.3 1.13" if profile == "torch-1.13" else "D.3 main"]
        else:
            exp = Spec.code_after(sec, "So AutogradCPU reads") if profile == "torch-1.13" else \
                Spec.code_after(sec, "in 1.13 and")
        masked = re.sub(r"registered at .*FallbackKernel\.cpp.*(\[)", "registered in pytorch framework [",
                        rows(self.def_only_table(profile))["AutogradCPU"])
        expect_eq("masked AutogradCPU row", exp, masked)

    # ---- C.4 ------------------------------------------------------------
    def c4(self, profile):
        sec = self.spec.text and self.spec.section("C.4")
        row = self.spec.get("C.4", lambda: Spec.code_after(sec, "The printed row is"))
        CIA = "CompositeImplicitAutograd"
        variants = [  # (kernels, expected AutogradOther row or None = the ambiguous row)
            ([(CIA, "m"), ("SparseCPU", "s")], None),
            ([(CIA, "m"), ("QuantizedCPU", "q")], None),
            ([(CIA, "m"), ("FPGA", "f")], None),
            ([(CIA, "m"), ("MkldnnCPU", "f")], None),
            ([(CIA, "m"), ("Sparse", "s")], None),          # building block
            ([(CIA, "m"), ("Quantized", "s")], None),       # building block
            ([(CIA, "m"), ("CompositeExplicitAutograd", "e"), ("SparseCPU", "s")], None),  # fires with CEA too
            ([(None, "m"), ("SparseCUDA", "s")], None),     # catch-all = CIA
            ([(CIA, "m"), ("SparseCPU", "s"), ("AutogradOther", "ao")], "AutogradOther: ao [kernel]"),
            ([(CIA, "m"), ("CPU", "c")], "AutogradOther: m [math kernel]"),
            ([(CIA, "m"), ("NestedTensorCPU", "n")], "AutogradOther: m [math kernel]"),
            ([("SparseCPU", "s")], "AutogradOther: %sregistered at" % ("fallthrough " if profile == "torch-1.13" else "")),
        ]
        if profile == "torch-1.13":
            variants += [([(CIA, "m"), ("SparseCsrCPU", "s")], None), ([(CIA, "m"), ("ORT", "s")], None)]
        else:
            variants += [([(CIA, "m"), ("SparseCsrXLA", "s")], None), ([(CIA, "m"), ("SparseCsr", "s")], None),
                         ([(CIA, "m"), ("SparseCsrMeta", "s")], None)]
        entries, ops = [], []
        for i, (kernels, _) in enumerate(variants):
            op = "v%d" % i
            ops.append(op)
            entries.append(d("%s(Tensor x) -> Tensor" % op))
            for key, k in kernels:
                entries.append(im(op, key, k))
        p = self.tool.write(lib("spec_c4", entries))
        secs = sections(self.tool.ok(["table", "--raw", "--profile", profile, p]))
        problems = []
        for op, (kernels, want) in zip(ops, variants):
            got = rows(secs.get("spec_c4::" + op, "")).get("AutogradOther", "(no row)")
            ok = (got == row) if want is None else got.startswith(want)
            if not ok:
                problems.append("kernels %s: AutogradOther row %r, expected %r" % (
                    kernels, got, row if want is None else want + "..."))
        if problems:
            raise CheckFailed("\n".join(problems))

    # ---- A.4 / B --------------------------------------------------------
    def a4(self, profile):
        order = self.a4_rows(profile)
        if order[0] != "Undefined":
            raise CheckFailed("spec: A.4 list does not start with Undefined")
        entries = [d("every(Tensor x) -> Tensor")] + [im("every", k, "k_" + k) for k in order[1:]]
        entries.append(im("every", "CompositeExplicitAutograd", "k_default"))
        p = self.tool.write(lib("spec_a4", entries))
        t = sections(self.tool.ok(["table", "--raw", "--profile", profile, p]))["spec_a4::every"]
        list_diff("row order with a kernel on every runtime key", order, row_keys(t))
        for ln in t.splitlines()[1:]:
            k = ln.split(":", 1)[0]
            if ln != "%s: k_%s [kernel]" % (k, k):
                raise CheckFailed("row %r is not the kernel registered on it" % ln)

    def b1(self, profile):
        sec = self.spec.section("B.1")
        lab = "* 1.13:" if profile == "torch-1.13" else "* main:"
        i = sec.index(lab) + len(lab)
        j = sec.find("\n* ", i)
        j = j if j >= 0 else sec.find("\n\n", i)
        members = names(sec[i:j])
        keys = [k for k in self.a4_rows(profile)[1:] if k != "AutogradOther"]
        entries = []
        for n, k in enumerate(keys):
            op = "k%d" % n
            entries += [d(op + "(Tensor x) -> Tensor"), im(op, "CompositeImplicitAutograd", "m"), im(op, k, "x")]
        p = self.tool.write(lib("spec_b1", entries))
        secs = sections(self.tool.ok(["table", "--raw", "--profile", profile, p]))
        got = [k for n, k in enumerate(keys)
               if rows(secs["spec_b1::k%d" % n]).get("AutogradOther", "").endswith("[ambiguous autogradother]")]
        list_diff("keys whose kernel makes AutogradOther ambiguous (autogradother_backends)", members, got)

    def b2(self, profile):
        sec = self.spec.section("B.2")
        lab = "\n1.13:\n" if profile == "torch-1.13" else "\nmain:\n"
        i = sec.index(lab) + len(lab)
        j = sec.find("\n\n", i)
        items = re.findall(r"\* (\w+) \((\d+) keys\) ([^*]*)", sec[i:j])
        if not items:
            raise CheckFailed("spec: no alias lists in B.2 for %s" % profile)
        entries, problems = [], []
        for n, (alias, _, _) in enumerate(items):
            entries += [d("a%d(Tensor x) -> Tensor" % n), im("a%d" % n, alias, "k")]
        p = self.tool.write(lib("spec_b2", entries))
        secs = sections(self.tool.ok(["table", "--raw", "--profile", profile, p]))
        for n, (alias, count, lst) in enumerate(items):
            exp = names(lst)
            if len(exp) != int(count):
                problems.append("spec: %s lists %d keys but says %s" % (alias, len(exp), count))
            prov = PROVENANCE_OF_ALIAS[alias]
            got = [k for k, ln in rows(secs["spec_b2::a%d" % n]).items()
                   if k != "Undefined" and ln == "%s: k [%s]" % (k, prov)]
            try:
                list_diff("runtime keys of %s (rows it fills)" % alias, exp, got)
            except CheckFailed as e:
                problems.append(str(e))
        if problems:
            raise CheckFailed("\n".join(problems))

    def b3(self, profile):
        if self.spec.text is None:
            backends = B3_EMBEDDED[profile]
        else:
            sec = self.spec.section("B.3")
            m = re.search(r"for B ∈ 1\.13: \{([^}]*)\}; main: same \+ `(\w+)`", sec)
            if not m:
                raise CheckFailed("spec: B.3 backend list not found")
            backends = []
            for b in names(m.group(1)):
                r = re.fullmatch(r"(\w+?)(\d)-(\d)", b)
                backends += [r.group(1) + str(x) for x in range(int(r.group(2)), int(r.group(3)) + 1)] if r else [b]
            if profile == "torch-main":
                backends.append(m.group(2))
        order = self.a4_rows_safe(profile)
        ag = [k for k in order if k.startswith("Autograd") and k[len("Autograd"):] in order]
        entries = []
        for n, k in enumerate(ag):
            op = "g%d" % n
            entries += [d(op + "(Tensor x) -> Tensor"), im(op, "CompositeImplicitAutograd", "m"),
                        im(op, k[len("Autograd"):], "b")]
        p = self.tool.write(lib("spec_b3", entries))
        secs = sections(self.tool.ok(["table", "--raw", "--profile", profile, p]))
        problems = []
        for n, k in enumerate(ag):
            b = k[len("Autograd"):]
            math = rows(secs["spec_b3::g%d" % n]).get(k, "") == "%s: m [math kernel]" % k
            if math == (b in backends):
                problems.append("%s with kernels on CompositeImplicitAutograd and %s: %s" % (
                    k, b, "math kernel, but B.3 maps %s to {%s}" % (k, b) if math else
                    "no math kernel, but B.3 maps %s to nothing" % k))
        if problems:
            raise CheckFailed("\n".join(problems))

    # ---- F --------------------------------------------------------------
    def f1(self, profile):
        sec = self.spec.section("F.1")
        tpl = Spec.block_after(sec, "Warning text:")
        once = Spec.code_after(sec, "with the first line")

        def warning(op, debug, key, prev, new):
            return (tpl.replace("<schema if defined, else name>", op)
                    .replace('<def debug, or "no debug info">', debug)
                    .replace('<key, or "(catch all)">', key)
                    .replace('<debug of the FIRST kernel that recorded a C++ signature for this op, else "no debug info">', prev)
                    .replace("<new debug>", new))
        if "<" in warning("a", "b", "c", "d", "e"):
            raise CheckFailed("spec: F.1 template has unknown placeholders:\n" + tpl)
        # foo: a Python (boxed-only) kernel records no C++ signature; k1 is the
        # first kernel with one, so every warning names k1 as "previous kernel"
        # (torch records the signature before it warns: "previous kernel: k1,
        # new kernel: k1" for the first override).  bar: catch-all kernels
        # without inferred schema but with an unboxed (C++) entry point.
        p = self.tool.write(lib("spec_f1", [
            d("foo(Tensor x) -> Tensor"),
            "[[impl]]\nop = \"foo\"\nkey = \"CPU\"\nkernel = \"py0\"\nboxed_only = true\n",
            im("foo", "CPU", "k1"), im("foo", "CPU", "k2"), im("foo", "CPU", "k3", None),
            im("bar", None, "c1", None), im("bar", None, "c2", None),
            im("baz", "Meta", "m1"), im("baz", "Meta", "m2")]))
        rc, out, err = self.tool.run(["table", "--raw", "--profile", profile, p])
        if rc != 0:
            raise CheckFailed("exit %d: %s" % (rc, err))
        w = [warning("spec_f1::foo(Tensor x) -> Tensor", "registered at /dev/null:0", "CPU", "k1", k)
             for k in ("k1", "k2", "k3")]
        w.append(warning("spec_f1::bar", "no debug info", "(catch all)", "c1", "c2"))
        w_meta = warning("spec_f1::baz", "no debug info", "Meta", "m1", "m2")
        problems = []
        if profile == "torch-1.13":
            for x in w + [w_meta]:
                if x not in err:
                    problems.append("warning missing:\n" + x)
        else:
            # The spec says the once-line is "prepended"; PyTorch main's source
            # (OperatorEntry::registerKernel) and real torch 2.x logs also indent
            # the "Overriding ..." line that follows it by two spaces.
            first = once + "\n  " + w[0]
            if first not in err:
                problems.append("warning missing:\n" + first)
            if err.count("Overriding a previously registered kernel") != 1:
                problems.append("main warns once per process; got %d warnings"
                                % err.count("Overriding a previously registered kernel"))
        if problems:
            raise CheckFailed("\n".join(problems) + "\n--- stderr:\n" + err)
        if profile == "torch-main":
            p = self.tool.write(lib("spec_f1m", [d("foo(Tensor x) -> Tensor"), im("foo", "Meta", "m1"),
                                                  im("foo", "Meta", "m2"), im("foo", "MTIA", "t1"),
                                                  im("foo", "MTIA", "t2")]))
            rc, out, err = self.tool.run(["table", "--raw", "--profile", profile, p])
            if rc != 0 or "Overriding" in err:
                raise CheckFailed("Meta/MTIA overrides must not warn in main; exit %d, stderr:\n%s" % (rc, err))

    def expect_error(self, profile, files: List[str], msg: str):
        paths = [self.tool.write(t) for t in files]
        rc, out, err = self.tool.run(["table", "--raw", "--profile", profile] + paths)
        if rc != 2 or out or ("error: " + msg) not in err:
            raise CheckFailed("expected exit 2, no stdout and %r on stderr;\ngot exit %d, stderr:\n%s"
                              % ("error: " + msg, rc, err[-1500:]))

    def f5(self, profile):
        sec = self.spec.section("F.5")
        tpl = Spec.code_after(sec, "F.5 **Defining twice** —")
        msg = (tpl.replace("<schema>", "spec_f5::foo(Tensor x) -> Tensor")
               .replace("<new debug>", "registered at b.cpp:2").replace("<old debug>", "registered at a.cpp:1"))
        self.expect_error(profile, [lib("spec_f5", [d("foo(Tensor x) -> Tensor", "registered at a.cpp:1"),
                                                    d("foo(Tensor x) -> Tensor", "registered at b.cpp:2")])], msg)
        tpl = Spec.code_after(sec, "libraries for one namespace:")
        a = lib("spec_f5b", [d("foo(Tensor x) -> Tensor")], kind="DEF")
        b = lib("spec_f5b", [d("bar(Tensor x) -> Tensor")], kind="DEF")
        pre = tpl.split("<debug>")[0].replace("<ns>", "spec_f5b")
        self.expect_error(profile, [a, b], pre)

    def f6(self, profile):
        sec = self.spec.section("F.6")
        tpl = Spec.block_after(sec, "order does not matter):")
        reason = Spec.code_after(sec, "e.g. reason")
        msg = (tpl.replace("<ns>::<name>", "spec_f6::foo")
               .replace("<def schema>", "spec_f6::foo(Tensor x, Tensor y) -> Tensor")
               .replace("<def debug>", "registered at /dev/null:0")
               .replace("<inferred schema>", TYPED_SIG).replace("<impl debug>", "k1").replace("<reason>", reason))
        for order in (0, 1):
            e = [d("foo(Tensor x, Tensor y) -> Tensor"), im("foo", "CPU", "k1")]
            self.expect_error(profile, [lib("spec_f6", e if order == 0 else e[::-1])], msg)

    def f7(self, profile):
        sec = self.spec.section("F.7")

        def t(prefix):
            m = re.search(r"(?m)^\* " + re.escape(prefix) + r".*?: `([^`]*)`", sec)
            if not m:
                raise CheckFailed("spec: F.7 item %r not found" % prefix)
            return m.group(1).replace("\\n", "\n")
        F = "TORCH_LIBRARY_FRAGMENT"
        cases = [
            ("def in an IMPL block", [lib("spec_f7", [d("foo(Tensor x) -> Tensor")], "IMPL", "CPU")],
             {"<name>": "foo"}),
            ("impl key differs", [lib("spec_f7", [im("foo", "XLA", "k")], "IMPL", "CPU")],
             {"<name>": "foo", "<k>": "XLA", "<K>": "CPU"}),
            ("schema/impl namespace differs", [lib("spec_f7", [d("other::foo(Tensor x) -> Tensor")])],
             {"<x>": "other", "<KIND>": F, "<ns>": "spec_f7"}),
            ("DEF/FRAGMENT with namespace", [lib("_", [d("foo(Tensor x) -> Tensor")])], {"<KIND>": F}),
            ("fallback outside IMPL", [lib("spec_f7", ['[[fallback]]\nkey = "XLA"\nkernel = "k"\n'])],
             {"<KIND>": F}),
            ("fallback in a namespaced IMPL block",
             [lib("spec_f7", ['[[fallback]]\nkey = "XLA"\nkernel = "k"\n'], "IMPL", "XLA")],
             {"<ns>": "spec_f7", "<KEY>": "XLA"}),
            ("second fallback", ['[[fallback]]\nkey = "XLA"\nkernel = "k1"\n',
                                 '[[fallback]]\nkey = "XLA"\nkernel = "k2"\n'],
             {"<K>": "XLA", "<debug>, new registration <debug>": "k1, new registration k2"}),
        ]
        problems = []
        for prefix, files, subst in cases:
            msg = t(prefix)
            for a, b in subst.items():
                msg = msg.replace(a, b)
            if "<" in msg:
                problems.append("%s: template not fully substituted: %r" % (prefix, msg))
                continue
            try:
                self.expect_error(profile, files, msg)
            except CheckFailed as e:
                problems.append("%s: %s" % (prefix, e))
        # "(main exempts `AutogradPrivateUse1`)"
        a = self.tool.write('[[fallback]]\nkey = "AutogradPrivateUse1"\nkernel = "k1"\n')
        b = self.tool.write('[[fallback]]\nkey = "AutogradPrivateUse1"\nkernel = "k2"\n')
        rc, out, err = self.tool.run(["table", "--raw", "--profile", profile, a, b])
        if (rc == 0) != (profile == "torch-main"):
            problems.append("two AutogradPrivateUse1 fallbacks: exit %d (%s expected)%s" % (
                rc, "allowed in main" if profile == "torch-main" else "refused in 1.13", "\n" + err[-600:]))
        if problems:
            raise CheckFailed("\n".join(problems))


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tool", required=True)
    ap.add_argument("--spec", default=DEFAULT_SPEC, help="dispatch-semantics.md (default: %(default)s)")
    ap.add_argument("--require-spec", action="store_true",
                    help="fail (instead of skipping checks) when the spec or an example in it is missing")
    ap.add_argument("--workdir", default=None, help="where the input files go (default: a temporary directory)")
    args = ap.parse_args(argv)
    t0 = time.perf_counter()
    spec = Spec(args.spec)
    tmp = None
    if args.workdir:
        shutil.rmtree(args.workdir, ignore_errors=True)
        os.makedirs(args.workdir)
        workdir = args.workdir
    else:
        workdir = tmp = tempfile.mkdtemp(prefix="spec_examples.")
    try:
        c = Checks(spec, Tool(args.tool, workdir))
        for p in PROFILES:
            c.run("E.1 _dispatch_dump example [%s]" % p, c.e1, p)
            c.run("E.3 PythonDispatcher example [%s]" % p, c.e3_table, p)
            c.run("E.3 registrations() quirks [%s]" % p, c.e3_registrations, p)
            c.run("E.3 dispatchTable() row order [%s]" % p, c.e3_order, p)
            c.run("E.3 register() errors [%s]" % p, c.e3_errors, p)
        c.run("D.1 fallback rows [torch-1.13]", c.d1)
        c.run("D.1 raw example row [torch-1.13]", c.d1_raw)
        c.run("D.2 fallback rows [torch-main]", c.d2)
        for p in PROFILES:
            c.run("D.3 masked rows [%s]" % p, c.d3, p)
            c.run("C.4 ambiguous row [%s]" % p, c.c4, p)
            c.run("A.4 row order [%s]" % p, c.a4, p)
            c.run("B.1 autogradother_backends [%s]" % p, c.b1, p)
            c.run("B.2 alias keys -> runtime keys [%s]" % p, c.b2, p)
            c.run("B.3 backend kernels vs math kernel on Autograd<B> [%s]" % p, c.b3, p)
            c.run("F.1 override warning [%s]" % p, c.f1, p)
            c.run("F.5 defining twice [%s]" % p, c.f5, p)
            c.run("F.6 schema mismatch [%s]" % p, c.f6, p)
            c.run("F.7 library-kind errors [%s]" % p, c.f7, p)
    finally:
        if tmp:
            shutil.rmtree(tmp, ignore_errors=True)
    counts = {"PASS": 0, "FAIL": 0, "SKIP": 0}
    for name, status, msg in c.results:
        counts[status] += 1
        print("%s: %s %s" % (PROG, status, name))
        if msg and status != "PASS":
            print("    " + msg.replace("\n", "\n    "))
    print("%s: spec %s; %d checks, %d skipped (%.1fs)" % (
        PROG, args.spec if spec.text is not None else "NOT FOUND (embedded examples only)",
        len(c.results), counts["SKIP"], time.perf_counter() - t0))
    print("%s: %d passed, %d failed" % (PROG, counts["PASS"], counts["FAIL"]))
    if args.require_spec and counts["SKIP"] != 0:
        print("%s: --require-spec: %d checks were skipped" % (PROG, counts["SKIP"]))
        return 1
    return 0 if counts["FAIL"] == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
