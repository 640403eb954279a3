#!/usr/bin/env python3
"""PyTorch's own test/test_dispatch.py scenarios (TestDispatch, TestPythonDispatcher) as an oracle.

Each TestDispatch scenario is a list of registrations (def with a schema and
alias analysis, def with an inferred schema, legacy def, impl_t_t on runtime
and alias keys or as a catch-all).  As test_dispatch.py's commute() does, the
registrations run in every permutation (or the test's fixed ctor_order), each
one in its own FRAGMENT library of a fresh namespace, LIVE in the release's
torch (torch._C._dispatch_library).  After every prefix of every order the
dispatcher's state (_dispatch_dump_table / _dispatch_dump) is compared with
what dispatchtool prints for the equivalent TOML (one file per registration,
loaded in the same order): `table --raw` / `registrations --raw`.  Where torch
refuses a registration, dispatchtool must refuse the same files (exit 2, no
stdout, a located "FILE:LINE:COL: error: " whose message is torch's, up to
"Exception raised from").

TestPythonDispatcher's sessions: torch._python_dispatcher.PythonDispatcher
register / dispatchTable / registrations vs
`dispatchtool table|registrations --style python-dispatcher --register K,...`
(errors: exit 2, stderr ending in "dispatchtool: error: <torch's message>").

Usage: test_dispatch_oracle.py --tool PATH --profile RELEASE --workdir DIR
Exit 0: everything matches; 1: a mismatch; 77: torch not importable.

The scenarios are restated here from the test's registration sequences; the
test file itself is not imported.  Not reproduced: commute()'s deregistration
orders (a TOML set has no unloading; every library is released after its order,
and the state of each prefix is checked instead), the tests' unused
_dispatch_library("IMPL", "_", "AutogradCPU") blocks (they register nothing),
and the tests that need a C++ extension or the whole process (dangling impls,
invariants, print_registrations_for_dispatch_key).  test_multiple_fallback is
commuted together with an operator (def + CPU kernel) so that its table shows
the XLA fallthrough; being global, it runs after the other scenarios.
"""

import argparse
import difflib
import gc
import itertools
import os
import re
import shutil
import subprocess
import sys
import time

SKIP = 77
PROG = "test_dispatch_oracle"
TYPED_SIG = "(Tensor _0) -> Tensor _0"      # impl_t_t's inferred schema
MAX_ORDERS = 120                            # permutations per scenario (5 registrations: all)
ERROR = re.compile(r"^[^\n]*\.toml:\d+:\d+: error: ")

# Registrations: ("def", schema, alias) | ("def_legacy", schema) |
# ("def_name", name) (m.def(name, kernel): inferred schema, catch-all kernel
# "default_def_name_t_t") | ("impl", name, key or "" for catch-all, debug)
def D(schema, alias=""):
    return ("def", schema, alias)


def I(name, key="", debug="impl_t_t"):
    return ("impl", name, key, debug)


# name, registrations, ctor_order (None: every permutation), expect_raises
SCENARIOS = [
    ("test_def", [D("foo(Tensor x) -> Tensor"), I("foo"), I("foo", "CPU"), I("foo", "Autograd"),
                  I("foo", "AutogradCPU")], None, False),
    ("test_def_impl_schema_mismatch", [D("foo(Tensor x, Tensor y) -> Tensor"), I("foo")], None, True),
    ("test_def_with_inference", [("def_name", "foo"), I("foo", "CPU"), I("foo", "Autograd"),
                                 I("foo", "AutogradCPU")], None, False),
    ("test_def_only", [D("foo(Tensor x, Tensor y) -> Tensor")], None, False),
    ("test_impl_only", [I("foo"), I("foo", "CPU"), I("foo", "Autograd"), I("foo", "AutogradCPU")], None, False),
    ("test_computed_table", [("def_name", "foo"), I("foo", "CPU", "fn_cpu"), I("foo", "XLA", "fn_xla"),
                             I("foo", "Autograd", "fn_autograd"), I("foo", "AutogradCPU", "fn_autogradcpu")],
     None, False),
    ("test_computed_table_with_cpu_math_autogradcpu_fallthrough", [("def_name", "foo"), I("foo", "CPU")],
     None, False),
    ("test_computed_table_with_math", [D("foo(Tensor x) -> Tensor"), I("foo", "CompositeImplicitAutograd")],
     None, False),
    ("test_computed_table_with_cpu_math", [D("foo(Tensor x) -> Tensor"), I("foo", "CPU", "fn_cpu"),
                                           I("foo", "CompositeImplicitAutograd", "fn_math")], None, False),
    ("test_computed_table_with_autograd", [D("foo(Tensor x) -> Tensor"), I("foo", "Autograd")], None, False),
    ("test_computed_table_with_cpu_autograd_math",
     [D("foo(Tensor x) -> Tensor"), I("foo", "CPU", "fn_cpu"), I("foo", "Autograd", "fn_autograd"),
      I("foo", "CompositeImplicitAutograd", "fn_math")], None, False),
    ("test_computed_table_with_ambiguous_autogradother",
     [D("foo(Tensor x) -> Tensor"), I("foo", "CompositeImplicitAutograd", "fn_math"),
      I("foo", "QuantizedCPU", "fn_quantizedcpu")], None, False),
    ("test_computed_table_with_cpu_defaultbackend",
     [D("foo(Tensor x) -> Tensor"), I("foo", "CPU", "fn_cpu"),
      I("foo", "CompositeExplicitAutograd", "fn_defaultbackend")], None, False),
    ("test_computed_table_with_cpu_autograd_defaultbackend",
     [D("foo(Tensor x) -> Tensor"), I("foo", "CPU", "fn_cpu"), I("foo", "Autograd", "fn_autograd"),
      I("foo", "CompositeExplicitAutograd", "fn_defaultbackend")], None, False),
    ("test_computed_table_with_cpu_autograd_math_defaultbackend",
     [D("foo(Tensor x) -> Tensor"), I("foo", "CPU", "fn_cpu"), I("foo", "Autograd", "fn_autograd"),
      I("foo", "CompositeImplicitAutograd", "fn_math"),
      I("foo", "CompositeExplicitAutograd", "fn_defaultbackend")], None, False),
    ("test_multiple_def_error", [D("foo(Tensor x, Tensor y) -> Tensor"), D("foo(Tensor x, Tensor y) -> Tensor")],
     None, True),
    ("test_def_with_explicit_alias", [D("foo(Tensor x, Tensor y) -> Tensor", "PURE_FUNCTION")], None, False),
    ("test_multiple_def_alias_defaulting", [D("foo(Tensor x) -> Tensor", "PURE_FUNCTION"),
                                            ("def_legacy", "foo(Tensor x) -> Tensor")], None, True),
    ("test_multiple_def_alias_mismatch", [D("foo(Tensor x) -> Tensor", "PURE_FUNCTION"),
                                          D("foo(Tensor x) -> Tensor", "CONSERVATIVE")], None, True),
    ("test_overwrite_math", [I("foo", "", "fn1"), I("foo", "", "fn2")], (0, 1), False),
    # test_multiple_fallback, commuted with an operator whose table shows the
    # fallthrough: a global fallback, so it runs last (and is deregistered
    # with its library at the end of every order).
    ("test_multiple_fallback", [("fallback", "XLA"), D("foo(Tensor x) -> Tensor"), I("foo", "CPU", "fn_cpu"),
                                ("fallback", "XLA")], None, True),
]

# Cases left out of the gated set, with the reason: {(scenario, order): reason}.
KNOWN_DIFFERENCES = {}

# TestPythonDispatcher: register() calls per session.
PD_SESSIONS = [
    ("test_basic", [["CPU", "XLA", "Lazy", "CompositeImplicitAutograd"]]),
    ("test_math_autogradcpu", [["CPU", "XLA", "Lazy", "CompositeImplicitAutograd", "AutogradCPU"]]),
    ("test_defaultbackend_autogradcpu", [["CPU", "XLA", "Lazy", "CompositeExplicitAutograd", "AutogradCPU"]]),
    ("test_autogradother", [["CPU", "QuantizedCPU", "CompositeImplicitAutograd"]]),
    ("test_duplicate_registrations", [["CPU", "CPU"]]),
    ("test_defaultbackend_math", [["CompositeExplicitAutograd", "CompositeImplicitAutograd"]]),
]


def toml_str(s):
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


def render(ns, op):
    if op[0] == "fallback":
        return ("# %s: a backend fallthrough fallback\n\n[[fallback]]\nkey = %s\n"
                "kernel = \"registered at /dev/null:0\"\nfallthrough = true\n" % (PROG, toml_str(op[1])))
    out = ["# %s: one registration of a test_dispatch.py scenario\n" % PROG,
           "namespace = %s\nkind = \"FRAGMENT\"\n\n" % toml_str(ns)]
    dbg = toml_str("registered at /dev/null:0")
    if op[0] in ("def", "def_legacy"):
        out.append("[[def]]\nschema = %s\ndebug = %s\n" % (toml_str(op[1]), dbg))
        if op[0] == "def_legacy":
            out.append('alias_analysis = "CONSERVATIVE (default)"\n')
        elif op[2]:
            out.append("alias_analysis = %s\n" % toml_str(op[2]))
    elif op[0] == "def_name":
        # m.def("foo", [](const Tensor& x) { return x; }): the inferred schema,
        # CONSERVATIVE, and the kernel as a catch-all.
        out.append("[[def]]\nschema = %s\ndebug = %s\nalias_analysis = \"CONSERVATIVE\"\n\n"
                   % (toml_str(op[1] + TYPED_SIG), dbg))
        out.append("[[impl]]\nop = %s\nkernel = \"default_def_name_t_t\"\nsignature = %s\n"
                   % (toml_str(op[1]), toml_str(TYPED_SIG)))
    else:
        _, name, key, debug = op
        out.append("[[impl]]\nop = %s\n" % toml_str(name))
        if key:
            out.append("key = %s\n" % toml_str(key))
        out.append("kernel = %s\nsignature = %s\n" % (toml_str(debug), toml_str(TYPED_SIG)))
    return "".join(out)


def perform(C, lib, op):
    if op[0] == "def":
        lib.def_(op[1], alias=op[2])
    elif op[0] == "def_legacy":
        lib.def_legacy(op[1])
    elif op[0] == "def_name":
        lib.def_name_t_t(op[1])
    elif op[0] == "fallback":
        lib.fallback_fallthrough()
    else:
        lib.impl_t_t(op[1], dispatch=op[2], debug=op[3])


def run(cmd):
    try:
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=60)
    except (OSError, subprocess.TimeoutExpired) as e:
        return -1, "", str(e)
    return p.returncode, p.stdout.decode("utf-8", "replace"), p.stderr.decode("utf-8", "replace")


def strip_header(text):
    if text.startswith("### "):
        return text.split("\n", 1)[1] if "\n" in text else ""
    return text


def udiff(exp, act, a="torch", b="dispatchtool", limit=40):
    lines = list(difflib.unified_diff(exp.splitlines(True), act.splitlines(True), a, b))
    return "".join(lines[:limit])


def tool_error_message(err):
    """The message of the tool's first located error, without the notes that follow."""
    m = ERROR.search(err)
    if not m:
        return None
    body = err[m.end():]
    keep = []
    for line in body.split("\n"):
        if re.match(r"^[^\n]*\.toml:\d+:\d+: note: ", line):
            break
        keep.append(line)
    return "\n".join(keep).rstrip("\n")


def same_message(torch_msg, tool_msg, ns):
    # Both name the operator by its namespace; torch's ends before "Exception raised from".
    t = torch_msg.split("\nException raised from ")[0].strip()
    return tool_msg is not None and tool_msg.strip() == t


def check_scenarios(torch, args, stats, bad):
    C = torch._C
    nsi = [0]
    per_test = {}
    cache = {}

    def tool(name, what, ns, prefix, paths):
        """dispatchtool's answer for the files of an ordered prefix, with the
        namespace written @NS@: every permutation shares the prefixes it has in
        common with an earlier one, which then costs no further tool run (the
        files differ only in the namespace)."""
        key = (name, what, prefix)
        if key not in cache:
            cmd = [args.tool, what, "--raw", "--profile", args.profile] + paths
            rc, out, err = run(cmd)
            stats["tool runs"] += 1
            cache[key] = (rc, out.replace(ns, "@NS@"), err.replace(ns, "@NS@"))
        rc, out, err = cache[key]
        return rc, out.replace("@NS@", ns), err.replace("@NS@", ns)
    for name, ops, ctor_order, expect_raises in SCENARIOS:
        t0 = time.time()
        ok = total = 0
        orders = [tuple(ctor_order)] if ctor_order is not None else list(itertools.permutations(range(len(ops))))
        orders = orders[:MAX_ORDERS]
        stats["orders"] += len(orders)
        for order in orders:
            nsi[0] += 1
            ns = "__tdo%d__" % nsi[0]
            qual = ns + "::foo"
            d = os.path.join(args.workdir, "%s-%d" % (name, nsi[0]))
            os.makedirs(d, exist_ok=True)
            libs = []
            paths = []
            err = None
            try:
                for step, ix in enumerate(order):
                    p = os.path.join(d, "%02d-op%d.toml" % (step, ix))
                    with open(p, "w", encoding="utf-8") as f:
                        f.write(render(ns, ops[ix]))
                    paths.append(p)
                    if ops[ix][0] == "fallback":
                        lib = C._dispatch_library("IMPL", "_", ops[ix][1])
                    else:
                        lib = C._dispatch_library("FRAGMENT", ns, "")
                    libs.append(lib)
                    try:
                        perform(C, lib, ops[ix])
                    except RuntimeError as e:
                        err = str(e)
                    known = KNOWN_DIFFERENCES.get((name, order[:step + 1]))
                    if err is not None:
                        total += 1
                        rc, out, serr = tool(name, "table", ns, order[:step + 1], paths)
                        msg = tool_error_message(serr)
                        if rc == 2 and out == "" and msg is not None and same_message(err, msg, ns):
                            ok += 1
                        elif known:
                            stats["known"] += 1
                            ok += 1
                        else:
                            bad.append("%s order %r: torch refused registration %d (%r):\n  %s\n"
                                       "dispatchtool exit %d, stdout %d bytes, stderr:\n  %s\n  files: %s"
                                       % (name, order, ix, ops[ix], err.split("\nException raised from ")[0],
                                          rc, len(out), serr.strip()[:1500], " ".join(paths)))
                        if not expect_raises:
                            bad.append("%s order %r: torch raised although the test expects no error" % (name, order))
                        break
                    exp = {"table": C._dispatch_dump_table(qual), "registrations": C._dispatch_dump(qual)}
                    if all(ops[j][0] == "fallback" for j in order[:step + 1]):
                        # no registration of the operator yet: torch has nothing
                        # to dump, the tool no operator to print
                        total += 1
                        if exp == {"table": "", "registrations": ""}:
                            ok += 1
                        else:
                            bad.append("%s order %r: torch dumps an operator that was not registered" % (name, order))
                        continue
                    for what in ("table", "registrations"):
                        total += 1
                        rc, out, serr = tool(name, what, ns, order[:step + 1], paths)
                        got = strip_header(out)
                        if rc == 0 and got == exp[what]:
                            ok += 1
                        elif known:
                            stats["known"] += 1
                            ok += 1
                        else:
                            bad.append("%s order %r prefix %r: %s differs (exit %d, stderr %r)\n  files: %s\n%s"
                                       % (name, order, order[:step + 1], what, rc, serr.strip()[:500],
                                          " ".join(paths), udiff(exp[what], got)))
                if expect_raises and err is None:
                    bad.append("%s order %r: the test expects an error, torch raised none" % (name, order))
            finally:
                del libs[:]          # deregisters (the libraries' last references)
        gc.collect()
        per_test[name] = (ok, total, len(orders), time.time() - t0)
    return per_test


def run_pd(tool, what, profile, calls):
    cmd = [tool, what, "--style", "python-dispatcher", "--profile", profile]
    for keys in calls:
        cmd += ["--register", ",".join(keys)]
    rc, out, err = run(cmd)
    return rc, out, err, cmd


def check_pd(torch, args, bad):
    import torch._python_dispatcher as tpd
    per_test = {}
    for name, calls in PD_SESSIONS:
        t0 = time.time()
        ok = total = 0
        d = tpd.PythonDispatcher()
        err = None
        try:
            for keys in calls:
                d.register(keys)
        except RuntimeError as e:
            err = str(e)
        if err is None:
            exp = {"table": d.dispatchTable(), "registrations": d.registrations()}
            for what in ("table", "registrations"):
                total += 1
                rc, out, serr, cmd = run_pd(args.tool, what, args.profile, calls)
                if rc == 0 and out == exp[what]:
                    ok += 1
                else:
                    bad.append("PythonDispatcher %s: %s differs (exit %d, stderr %r)\n  $ %s\n%s"
                               % (name, what, rc, serr.strip()[:300], " ".join(cmd), udiff(exp[what], out)))
        else:
            want = "dispatchtool: error: %s\n" % err
            for what in ("table", "registrations"):
                total += 1
                rc, out, serr, cmd = run_pd(args.tool, what, args.profile, calls)
                if rc == 2 and out == "" and serr.endswith(want):
                    ok += 1
                else:
                    bad.append("PythonDispatcher %s: torch raised %r; dispatchtool exit %d, stdout %r, stderr %r\n  $ %s"
                               % (name, err, rc, out[:200], serr[-500:], " ".join(cmd)))
        del d
        gc.collect()
        per_test["PythonDispatcher." + name] = (ok, total, 1, time.time() - t0)
    return per_test


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tool", required=True)
    ap.add_argument("--profile", choices=("torch-1.13", "torch-2.6", "torch-2.14"), default="torch-1.13")
    ap.add_argument("--workdir", required=True)
    args = ap.parse_args(argv)
    t_start = time.time()
    try:
        import warnings
        warnings.simplefilter("ignore")
        import torch
    except Exception:        # noqa: BLE001
        print("%s: SKIP: torch not importable" % PROG)
        return SKIP
    want = args.profile.split("-", 1)[1]
    if not (torch.__version__ + ".").startswith(want + "."):
        print("%s: --profile %s, but the torch here is %s" % (PROG, args.profile, torch.__version__))
        return 1
    shutil.rmtree(args.workdir, ignore_errors=True)
    os.makedirs(args.workdir, exist_ok=True)
    stats = {"orders": 0, "known": 0, "tool runs": 0}
    bad = []
    per_test = check_scenarios(torch, args, stats, bad)
    per_test.update(check_pd(torch, args, bad))
    for name, (ok, total, orders, secs) in per_test.items():
        print("%-70s %4d/%-4d %s (%d orders, %.1f s)" % (name, ok, total, "ok" if ok == total else "MISMATCH",
                                                         orders, secs))
    for b in bad:
        print("MISMATCH " + b, file=sys.stderr)
    ok = sum(v[0] for v in per_test.values())
    total = sum(v[1] for v in per_test.values())
    print("%s (%s, torch %s): %d/%d checks match, %d tests, %d registration orders, %d tool runs, "
          "%d known differences, %.1f s"
          % (PROG, args.profile, torch.__version__, ok, total, len(per_test), stats["orders"], stats["tool runs"],
             stats["known"],
             time.time() - t_start))
    return 0 if not bad and ok == total and total > 0 else 1


if __name__ == "__main__":
    sys.exit(main())
