#!/usr/bin/python3
"""torch.library 2.x forms in the TOML contract against the real release.

    tools/oracle-env python torch-2.14 tests/oracle/torch_library_oracle.py \
        --tool build/dispatchtool --profile torch-2.14 --workdir build/oracle/torch-library-2.14

Each case performs torch.library calls for real in this process (custom_op
with device_types None / "cpu" / ["cpu", "cuda"], inferred and explicit
mutable, view and no-Tensor schemas, register_kernel / register_fake /
register_autograd / register_vmap / register_autocast, torch.library.define
and torch.library.impl with every kind of device string, fallthrough_kernel,
Library.fallback) and writes the TOML a user would write for the same calls.
Then, for every operator of every case,

    TOOL registrations --raw --all --profile P CASES...  == _dispatch_dump(op)
    TOOL table --raw --all --profile P CASES...          == _dispatch_dump_table(op)
    TOOL ops --format json --profile P CASES...  tags    == op.default.tags

byte for byte, and every case the release refuses (a TypeError, ValueError,
AttributeError or RuntimeError in Python) is refused by the tool too, with a
located "FILE:LINE:COL: error: " and exit status 2.

[[custom_op]] entries carry no debug strings: what custom_op registers, with
which debug strings and tags, comes from the profile's [torch_library] table.
The plain torch.library.define / impl / fallback forms are written as [[def]],
[[impl]] and [[fallback]] entries whose debug strings (the Library object's
creation site) are copied from the real dump; for them the check is the keys
each device string and API registers to, boxed-only kernels and the tables.

Exit 0 iff everything matched, 1 otherwise. Without torch (or the chroot) it
fails: this check is never skipped.
"""

import argparse
import json
import os
import re
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tools"))
from tomlstr import toml_str as q  # noqa: E402

LINE = re.compile(r"^(?P<key>\w+)(\[alias\])?( \(inactive\))?: (?P<debug>.*) :: .*$")
ERROR = re.compile(r"^[^\n]*\.toml:\d+:\d+: error: ")


def arr(items):
    return "[" + ", ".join(q(i) for i in items) + "]"


class Oracle:
    def __init__(self, torch):
        self.torch = torch
        self.lib = torch.library
        self.cases = []          # (name, toml, ops)
        self.refusals = []       # (name, toml, python error)
        self.keep = []           # Library objects kept alive
        self.n = 0

    def has(self, api):
        return hasattr(self.lib, api)

    def ns(self):
        self.n += 1
        return "tlo%d" % self.n

    # -- real dumps -------------------------------------------------------
    def dbg(self, op, key):
        """Debug string of the active kernel of `op` on `key` in the real dump ("" if none)."""
        for ln in self.torch._C._dispatch_dump(op).splitlines():
            m = LINE.match(ln)
            if m and m.group("key") == key and "(inactive)" not in ln:
                return m.group("debug")
        return "<no %s kernel in the real dump>" % key

    def def_dbg(self, op):
        for ln in self.torch._C._dispatch_dump(op).splitlines():
            if ln.startswith("debug: "):
                return ln[len("debug: "):]
        return "<no def>"

    # -- cases ---------------------------------------------------------------
    def custom_op(self, title, schema, toml_fields, mutates=(), device_types=None, fn=None, after=None, **kw):
        """A custom_op made for real; `toml_fields` the [[custom_op]] entry's
        fields besides name (the schema is written unless inferred)."""
        ns = self.ns()
        name = "%s::op" % ns

        def default_fn(*args, **kwargs):
            raise RuntimeError("not run")
        try:
            if fn is not None:
                op = self.lib.custom_op(name, fn, mutates_args=mutates, device_types=device_types, **kw)
            else:
                op = self.lib.custom_op(name, default_fn, mutates_args=mutates, device_types=device_types,
                                        schema=schema, **kw)
            if after:
                after(name, op)
        except (TypeError, ValueError, AttributeError, RuntimeError) as e:
            self.refusals.append((title, "[[custom_op]]\nname = %s\n%s" % (q(name), toml_fields), repr(e)))
            return
        self.cases.append((title, "[[custom_op]]\nname = %s\n%s" % (q(name), toml_fields), [name]))

    def refused(self, title, toml, call):
        try:
            call()
        except (TypeError, ValueError, AttributeError, RuntimeError) as e:
            self.refusals.append((title, toml, repr(e)))
            return
        self.cases.append((title + " (UNEXPECTEDLY ACCEPTED by torch)", "# torch accepted this\n", []))


def build_cases(o):
    torch = o.torch
    from torch import Tensor
    from typing import List, Optional
    t214 = o.has("register_autocast")

    # -- custom_op and its device_types --------------------------------------
    o.custom_op("functional, device_types=None", "(Tensor x) -> Tensor", 'schema = "(Tensor x) -> Tensor"\n')
    o.custom_op("device_types='cpu'", "(Tensor x, float a) -> Tensor",
                'schema = "(Tensor x, float a) -> Tensor"\ndevice_types = "cpu"\n', device_types="cpu")
    o.custom_op("device_types=['cpu','cuda']", "(Tensor x) -> Tensor",
                'schema = "(Tensor x) -> Tensor"\ndevice_types = ["cpu", "cuda"]\n', device_types=["cpu", "cuda"])
    o.custom_op("device_types=['cuda','meta','xpu']", "(Tensor x) -> Tensor",
                'schema = "(Tensor x) -> Tensor"\ndevice_types = ["cuda", "meta", "xpu"]\n',
                device_types=["cuda", "meta", "xpu"])
    o.custom_op("several returns", "(Tensor x, Tensor y) -> (Tensor, Tensor)",
                'schema = "(Tensor x, Tensor y) -> (Tensor, Tensor)"\n')

    # -- mutable (inferred and explicit), view, mutable view -------------------
    def g(x: Tensor, y: Optional[Tensor], z: List[Tensor], w: Optional[Tensor]) -> None:
        pass
    o.custom_op("mutates_args inferred (Tensor, Tensor[])", None,
                'schema = "(Tensor x, Tensor? y, Tensor[] z, Tensor? w) -> ()"\nmutates_args = ["x", "z"]\n'
                'device_types = "cpu"\n', mutates=("x", "z"), device_types="cpu", fn=g)

    def g2(x: Tensor, y: Optional[Tensor]) -> Tensor:
        return x
    o.custom_op("mutates_args inferred (Tensor?)", None,
                'schema = "(Tensor x, Tensor? y) -> Tensor"\nmutates_args = ["y"]\n', mutates=("y",), fn=g2)
    o.custom_op("mutable, explicit schema", "(Tensor(a0!) x, Tensor y) -> ()",
                'schema = "(Tensor(a0!) x, Tensor y) -> ()"\nmutates_args = ["x"]\ndevice_types = "cpu"\n',
                mutates=("x",), device_types="cpu")
    o.custom_op("view", "(Tensor(a) x) -> Tensor(a)", 'schema = "(Tensor(a) x) -> Tensor(a)"\n')
    o.custom_op("view, device_types='cpu'", "(Tensor(a) x) -> Tensor(a)",
                'schema = "(Tensor(a) x) -> Tensor(a)"\ndevice_types = "cpu"\n', device_types="cpu")
    o.custom_op("mutable view", "(Tensor(a!) x) -> Tensor(a!)",
                'schema = "(Tensor(a!) x) -> Tensor(a!)"\nmutates_args = ["x"]\n', mutates=("x",))

    # -- no Tensor argument -----------------------------------------------------
    o.custom_op("no Tensor arg, device arg, device_types=None", "(SymInt n, Device device) -> Tensor",
                'schema = "(SymInt n, Device device) -> Tensor"\n')
    o.custom_op("no Tensor arg, device arg, device_types='cpu'", "(SymInt n, Device device) -> Tensor",
                'schema = "(SymInt n, Device device) -> Tensor"\ndevice_types = "cpu"\n', device_types="cpu")
    o.custom_op("no Tensor arg, no device arg, device_types='cpu'", "(SymInt n) -> Tensor",
                'schema = "(SymInt n) -> Tensor"\ndevice_types = "cpu"\n', device_types="cpu")
    o.custom_op("no Tensor arg, register_kernel('cuda') after device_types='cpu'",
                "(SymInt n, Device device) -> Tensor",
                'schema = "(SymInt n, Device device) -> Tensor"\ndevice_types = "cpu"\nregister_kernel = "cuda"\n',
                device_types="cpu", after=lambda n, op: o.lib.register_kernel(n, "cuda", lambda *a: None))

    # -- register_* ---------------------------------------------------------------
    o.custom_op("register_kernel('cuda') after device_types='cpu'", "(Tensor x) -> Tensor",
                'schema = "(Tensor x) -> Tensor"\ndevice_types = "cpu"\nregister_kernel = "cuda"\n',
                device_types="cpu", after=lambda n, op: o.lib.register_kernel(n, "cuda", lambda x: x))
    o.custom_op("register_kernel(['cpu','mps']) after device_types='cpu'", "(Tensor x) -> Tensor",
                'schema = "(Tensor x) -> Tensor"\ndevice_types = "cpu"\nregister_kernel = ["cpu", "mps"]\n',
                device_types="cpu", after=lambda n, op: o.lib.register_kernel(n, ["cpu", "mps"], lambda x: x))
    o.custom_op("method register_kernel('cuda'), device_types=None", "(Tensor x) -> Tensor",
                'schema = "(Tensor x) -> Tensor"\nregister_kernel = ["cuda"]\n',
                after=lambda n, op: op.register_kernel("cuda", lambda x: x))

    def fake_autograd(n, op):
        o.lib.register_fake(n, lambda x: x.clone())
        o.lib.register_autograd(n, lambda ctx, grad: grad, setup_context=lambda ctx, inputs, output: None)
    o.custom_op("register_fake + register_autograd", "(Tensor x) -> Tensor",
                'schema = "(Tensor x) -> Tensor"\nregister_fake = true\nregister_autograd = true\n',
                after=fake_autograd)
    o.custom_op("register_vmap", "(Tensor x) -> Tensor",
                'schema = "(Tensor x) -> Tensor"\ndevice_types = "cpu"\nregister_vmap = true\n',
                device_types="cpu", after=lambda n, op: o.lib.register_vmap(n, lambda info, dims, x: (x, 0)))
    o.custom_op("register_fake = false is no call", "(Tensor x) -> Tensor",
                'schema = "(Tensor x) -> Tensor"\nregister_fake = false\n')

    def autocast(devs):
        def go(n, op):
            for d in devs:
                o.lib.register_autocast(n, d, torch.float16)
        return go
    o.custom_op("register_autocast('cpu')", "(Tensor x) -> Tensor",
                'schema = "(Tensor x) -> Tensor"\nregister_autocast = "cpu"\n', after=autocast(["cpu"]))
    o.custom_op("register_autocast cpu, cuda, mps", "(Tensor x) -> Tensor",
                'schema = "(Tensor x) -> Tensor"\nregister_autocast = ["cpu", "cuda", "mps"]\n',
                after=autocast(["cpu", "cuda", "mps"]))

    def everything(n, op):
        o.lib.register_kernel(n, "cuda", lambda x, y: x)
        o.lib.register_fake(n, lambda x, y: None)
        o.lib.register_autograd(n, lambda ctx, grad: grad, setup_context=lambda ctx, inputs, output: None)
        o.lib.register_vmap(n, lambda info, dims, x, y: (None, None))
        if t214:
            o.lib.register_autocast(n, "cuda", torch.float16)
    def everything_functional(n, op):
        o.lib.register_kernel(n, ["cuda", "cpu"], lambda x, y: x)
        o.lib.register_fake(n, lambda x, y: x)
        o.lib.register_autograd(n, lambda ctx, grad: grad, setup_context=lambda ctx, inputs, output: None)
        o.lib.register_vmap(n, lambda info, dims, x, y: (x, 0))
        if t214:
            o.lib.register_autocast(n, "cpu", torch.float16)
    o.custom_op("everything, functional", "(Tensor x, Tensor y) -> Tensor",
                'schema = "(Tensor x, Tensor y) -> Tensor"\ndevice_types = ["cpu"]\n'
                'register_kernel = ["cuda", "cpu"]\nregister_fake = true\nregister_autograd = true\n'
                'register_vmap = true\n' + ('register_autocast = "cpu"\n' if t214 else ""),
                device_types=["cpu"], after=everything_functional)
    o.custom_op("register_autograd on a view (1 Tensor in, 1 out)", "(Tensor(a) x) -> Tensor(a)",
                'schema = "(Tensor(a) x) -> Tensor(a)"\nregister_autograd = true\n',
                after=lambda n, op: o.lib.register_autograd(n, lambda ctx, g: g,
                                                            setup_context=lambda ctx, inputs, output: None))
    o.custom_op("register_autograd on an operator returning nothing", "(Tensor x) -> ()",
                'schema = "(Tensor x) -> ()"\nregister_autograd = true\n',
                after=lambda n, op: o.lib.register_autograd(n, lambda ctx, g: g,
                                                            setup_context=lambda ctx, inputs, output: None))
    o.custom_op("everything, mutable (register_autograd refused)", "(Tensor(a0!) x, Tensor y) -> ()",
                'schema = "(Tensor x, Tensor y) -> ()"\nmutates_args = ["x"]\ndevice_types = ["cpu"]\n'
                'register_kernel = "cuda"\nregister_fake = true\nregister_autograd = true\nregister_vmap = true\n'
                + ('register_autocast = "cuda"\n' if t214 else ""),
                mutates=("x",), device_types=["cpu"], after=everything)

    # -- tags ---------------------------------------------------------------------
    o.custom_op("tags=(pointwise,)", "(Tensor x) -> Tensor",
                'schema = "(Tensor x) -> Tensor"\ntags = ["pointwise"]\n', tags=(torch.Tag.pointwise,))
    o.custom_op("tags=(pt2_compliant_tag, core)", "(Tensor x) -> Tensor",
                'schema = "(Tensor x) -> Tensor"\ntags = ["pt2_compliant_tag", "core"]\n',
                tags=(torch.Tag.pt2_compliant_tag, torch.Tag.core))

    # -- refusals -----------------------------------------------------------------
    if not t214:
        o.refused("register_autocast does not exist",
                  '[[custom_op]]\nname = "tlo_r1::op"\nschema = "(Tensor x) -> Tensor"\nregister_autocast = "cpu"\n',
                  lambda: o.lib.register_autocast)
    o.refused("unknown device type",
              '[[custom_op]]\nname = "tlo_r2::op"\nschema = "(Tensor x) -> Tensor"\ndevice_types = "gpu"\n',
              lambda: o.lib.custom_op("tlo_r2::op", lambda x: x, mutates_args=(), device_types="gpu",
                                      schema="(Tensor x) -> Tensor"))
    o.refused("mutates_args inconsistent with the schema",
              '[[custom_op]]\nname = "tlo_r3::op"\nschema = "(Tensor(a0!) x) -> ()"\n',
              lambda: o.lib.custom_op("tlo_r3::op", lambda x: None, mutates_args=(),
                                      schema="(Tensor(a0!) x) -> ()"))
    if not t214:
        o.refused("register_kernel again on an operator without Tensor arguments (Python override)",
                  '[[custom_op]]\nname = "tlo_r4::op"\nschema = "(SymInt n, Device device) -> Tensor"\n'
                  'device_types = "cpu"\nregister_kernel = "cuda"\n',
                  lambda: o.lib.register_kernel(
                      o.lib.custom_op("tlo_r4::op", lambda n, device: None, mutates_args=(), device_types="cpu",
                                      schema="(SymInt n, Device device) -> Tensor"), "cuda", lambda *a: None))

    # -- torch.library.define / impl / fallthrough_kernel / Library.fallback -------
    ns = o.ns()
    name = "%s::d" % ns
    lib = o.lib
    lib.define(name, "(Tensor x) -> Tensor", tags=(torch.Tag.pointwise,))
    impls = [("cpu", "CPU"), ("default", "CompositeExplicitAutograd"), ("CUDA", "CUDA"),
             ("AutogradCPU", "AutogradCPU"), ("meta", "Meta"), ("xpu", "XPU"), ("FuncTorchBatched", "FuncTorchBatched")]
    for dev, _ in impls:
        lib.impl(name, dev, lambda x: x)
    lib.impl("%s::d" % ns, ["mps", "hpu"], lambda x: x)
    L = lib.Library(ns, "FRAGMENT")
    o.keep.append(L)
    L.impl("d", lib.fallthrough_kernel, "AutogradCUDA")
    L.impl("d", lib.fallthrough_kernel, "Tracer")
    toml = ["namespace = %s" % q(ns), "",
            "[[def]]", "name = %s" % q(name), 'schema = "(Tensor x) -> Tensor"', 'tags = ["pointwise"]',
            "debug = %s" % q(o.def_dbg(name)), ""]
    for dev, key in impls:
        toml += ["[[impl]]", 'op = "d"', "device_types = [%s]" % q(dev), "kernel = %s" % q(o.dbg(name, key)),
                 "boxed_only = true", ""]
    toml += ["[[impl]]", 'op = "d"', 'device_types = ["mps", "hpu"]', "kernel = %s" % q(o.dbg(name, "MPS")),
             "boxed_only = true", ""]
    for key in ["AutogradCUDA", "Tracer"]:
        toml += ["[[impl]]", 'op = "d"', "key = %s" % q(key), "fallthrough = true",
                 "kernel = %s" % q(o.dbg(name, key)), ""]
    o.cases.append(("torch.library.define / impl (device strings, key names) / fallthrough_kernel",
                    "\n".join(toml), [name]))

    # register_* on an operator that is not a custom_op.
    ns = o.ns()
    name = "%s::p" % ns
    lib.define(name, "(Tensor x) -> Tensor")
    lib.register_kernel(name, "cpu", lambda x: x)
    lib.register_fake(name, lambda x: x)
    lib.register_autograd(name, lambda ctx, g: g, setup_context=lambda ctx, inputs, output: None)
    lib.register_vmap(name, lambda info, dims, x: (x, 0))
    keys = ["CPU", "Meta", "Autograd", "FuncTorchBatched"]
    if t214:
        lib.register_autocast(name, "cpu", torch.float16)
        keys.append("AutocastCPU")
    toml = ["[[def]]", "name = %s" % q(name), 'schema = "(Tensor x) -> Tensor"',
            "debug = %s" % q(o.def_dbg(name)), ""]
    for key in keys:
        toml += ["[[impl]]", "op = %s" % q(name), "key = %s" % q(key), "kernel = %s" % q(o.dbg(name, key)),
                 "boxed_only = true", ""]
    o.cases.append(("register_* on a torch.library.define'd operator", "\n".join(toml), [name]))

    # Library.fallback (namespace "_"): a backend fallback for every operator.
    F = lib.Library("_", "IMPL")
    o.keep.append(F)
    F.fallback(lambda *a, **k: None, "PrivateUse2")
    probe = "%s::bare" % o.ns()      # no kernel: its PrivateUse2 row is the fallback's
    lib.define(probe, "(Tensor x) -> Tensor")
    toml = ['namespace = "_"', 'kind = "IMPL"', "", "[[fallback]]", 'key = "PrivateUse2"',
            "kernel = %s" % q(table_dbg(o, probe, "PrivateUse2")), ""]
    o.cases.append(("Library('_', 'IMPL').fallback on PrivateUse2", "\n".join(toml), []))
    o.cases.append(("an operator without kernels (shows the fallback)",
                    "[[def]]\nname = %s\nschema = \"(Tensor x) -> Tensor\"\ndebug = %s\n"
                    % (q(probe), q(o.def_dbg(probe))), [probe]))


def table_dbg(o, op, key):
    for ln in o.torch._C._dispatch_dump_table(op).splitlines():
        if ln.startswith(key + ": "):
            body = ln[len(key) + 2:]
            return body[:body.rindex(" [")]
    return "<no %s row>" % key



def require_torch(prog, profile):
    """The torch module when it is the release of `profile` ("torch-2.14"), else
    None after a FAIL line: an oracle that cannot reach its torch fails."""
    try:
        import torch
    except Exception as e:  # noqa: BLE001
        print("%s: FAIL: cannot import torch (%s); run it with tools/oracle-env python %s" % (prog, e, profile),
              file=sys.stderr)
        return None
    if os.path.isdir(profile):  # an export (dispatchtool-export's OUTDIR): of this very torch
        with open(os.path.join(profile, "profile.toml"), encoding="utf-8") as f:
            m = re.search(r'^torch_version = "([^"]*)"', f.read(), re.M)
        ok = m is not None and m.group(1) == torch.__version__
    else:
        ok = torch.__version__.startswith(profile.replace("torch-", "") + ".")
    if not ok:
        print("%s: FAIL: torch %s is not the release of profile %s" % (prog, torch.__version__, profile),
              file=sys.stderr)
        return None
    return torch

def sections(text):
    out, cur, buf = {}, None, []
    for line in text.splitlines(keepends=True):
        if line.startswith("### "):
            if cur is not None:
                out[cur] = "".join(buf)
            cur, buf = line[4:].rstrip("\n"), []
        elif cur is not None:
            buf.append(line)
    if cur is not None:
        out[cur] = "".join(buf)
    return out


def run(cmd):
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=300)
    return p.returncode, p.stdout.decode("utf-8", "replace"), p.stderr.decode("utf-8", "replace")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tool", required=True)
    ap.add_argument("--profile", required=True)
    ap.add_argument("--workdir", required=True)
    ap.add_argument("-v", "--verbose", action="store_true")
    args = ap.parse_args()
    torch = require_torch("torch_library_oracle", args.profile)
    if torch is None:
        return 1
    t0 = time.time()
    o = Oracle(torch)
    build_cases(o)
    os.makedirs(args.workdir, exist_ok=True)
    files, ops = [], []
    for i, (title, toml, names) in enumerate(o.cases):
        path = os.path.join(args.workdir, "case%02d.toml" % i)
        with open(path, "w", encoding="utf-8") as f:
            f.write("# %s\n%s" % (title, toml))
        files.append(path)
        ops += [(title, path, n) for n in names]
    bad, total = [], 0
    got = {}
    for what in ["registrations", "table"]:
        rc, out, err = run([args.tool, what, "--raw", "--all", "--profile", args.profile] + files)
        if rc != 0:
            bad.append("%s --all: exit %d: %s" % (what, rc, err.strip()[:2000]))
            continue
        got[what] = sections(out)
    for title, path, name in ops:
        for what, real in [("registrations", torch._C._dispatch_dump), ("table", torch._C._dispatch_dump_table)]:
            if what not in got:
                continue
            total += 1
            exp = real(name)
            mine = got[what].get(name)
            if mine != exp:
                bad.append("%s %s (%s, %s):\n--- torch\n%s--- dispatchtool\n%s" % (what, name, title, path, exp, mine))
    # Tags.
    rc, out, err = run([args.tool, "ops", "--format", "json", "--profile", args.profile] + files)
    if rc != 0:
        bad.append("ops --format json: exit %d: %s" % (rc, err.strip()[:2000]))
    else:
        listed = {e["name"]: e for e in json.loads(out)["operators"]} if out.strip().startswith("{") else \
            {e["name"]: e for e in json.loads(out)}
        for title, path, name in ops:
            total += 1
            ns_, op = name.split("::")
            real = sorted(str(t).split(".")[-1] for t in getattr(getattr(torch.ops, ns_), op).default.tags)
            mine = sorted(listed.get(name, {}).get("tags", ["<not listed>"]))
            if mine != real:
                bad.append("tags %s (%s): torch %s, dispatchtool %s" % (name, title, real, mine))
    # Refusals: torch raised; the tool must refuse with a located error.
    for i, (title, toml, err_py) in enumerate(o.refusals):
        total += 1
        path = os.path.join(args.workdir, "refused%02d.toml" % i)
        with open(path, "w", encoding="utf-8") as f:
            f.write("# %s\n# torch: %s\n%s" % (title, err_py.replace("\n", " "), toml))
        rc, out, err = run([args.tool, "table", "--profile", args.profile, path])
        if rc != 2 or out or not ERROR.match(err):
            bad.append("refusal %s (%s): torch raised %s; dispatchtool exit %d, stderr %r" % (title, path, err_py, rc, err))
        elif args.verbose:
            print("refused as torch does: %s: %s" % (title, err.strip().splitlines()[0]))
    for b in bad:
        print("MISMATCH " + b, file=sys.stderr)
    print("torch_library_oracle (%s, torch %s): %d/%d checks match (%d cases, %d refusals, %d operators), %.1f s"
          % (args.profile, torch.__version__, total - len(bad), total, len(o.cases), len(o.refusals), len(ops),
             time.time() - t0))
    return 0 if not bad and total > 0 else 1


if __name__ == "__main__":
    sys.exit(main())
