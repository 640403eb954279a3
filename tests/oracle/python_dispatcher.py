#!/usr/bin/python3
"""Random PythonDispatcher sessions: dispatchtool --register vs torch 1.13 / 2.x (or the main model).

    /usr/bin/python3 tests/oracle/python_dispatcher.py --tool build/dispatchtool --seed 0 --sessions 300
    /usr/bin/python3 tests/oracle/python_dispatcher.py --tool build/dispatchtool --profile torch-main \\
        --model-dir ../shared/reference --seed 0 --sessions 300
    tools/oracle-env python torch-2.14 tests/oracle/python_dispatcher.py --tool build/dispatchtool \
        --profile torch-2.14 --seed 0 --sessions 100

A session is a fresh torch._python_dispatcher.PythonDispatcher() and 1-3
register() calls of 0-4 keys each, drawn mostly from its keys() but also with
unsupported keys (CUDA, Meta, alias keys it does not know, misspellings),
duplicates and CompositeImplicitAutograd + CompositeExplicitAutograd together;
the same key may be registered again in a later call (an override).  The
session is replayed with

    dispatchtool table         --style python-dispatcher --profile P --register K1,K2 --register ...
    dispatchtool registrations --style python-dispatcher --profile P --register K1,K2 --register ...

and compared with dispatchTable() / registrations().  When a register() call
raises, the tool must exit with status 2, print nothing on stdout and end its
stderr with `dispatchtool: error: <RuntimeError text>`; the session stops
there.  The keys an erroring call registered before it reached an unsupported
key stay registered in torch, so the tool is also run with the calls before
the error plus that prefix (`--register` of the keys before the unsupported
one) and must reproduce the dispatcher's state after the error.

torch-1.13, torch-2.6, torch-2.14 (the latter two in their chroots, through
tools/oracle-env): the real PythonDispatcher (each instance is deleted and collected
before the next one is built -- a second live instance would define
__test__::foo twice).  torch-main: dispatch_model's pd_register /
pd_dispatch_table / pd_registrations on an Operator of dispatch_model.MAIN
(no torch needed).

Last line: `python_dispatcher: N passed, M failed` (sessions).  Exit 0 iff all
passed, 1 otherwise, 77 (ctest skip) if torch-1.13 was asked for and torch
cannot be imported.
"""

import argparse
import contextlib
import difflib
import gc
import os
import random
import subprocess
import sys
import time
from typing import List, Optional, Tuple

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
DEFAULT_MODEL_DIR = os.path.join(os.path.dirname(ROOT), "shared", "reference")
SKIP = 77
PROG = "python_dispatcher"

SUPPORTED = ["CPU", "AutogradCPU", "FPGA", "AutogradOther", "XLA", "AutogradXLA", "Lazy",
             "AutogradLazy", "CompositeExplicitAutograd", "Autograd", "CompositeImplicitAutograd"]
UNSUPPORTED = ["CUDA", "AutogradCUDA", "Meta", "SparseCPU", "CompositeExplicitAutogradNonFunctional",
               "CompositeImplicitAutogradNestedTensor", "Undefined", "cpu", "Dense", "AutogradMeta",
               "FuncTorchBatchedDecomposition", "MTIA"]


def gen_session(rng: random.Random) -> List[List[str]]:
    calls = []
    for _ in range(rng.randint(1, 3)):
        if rng.random() < 0.05:
            calls.append([])
            continue
        n = rng.randint(1, 4)
        keys = []
        while len(keys) < n:
            k = rng.choice(UNSUPPORTED) if rng.random() < 0.035 else rng.choice(SUPPORTED)
            if k not in keys:
                keys.append(k)
        if rng.random() < 0.04:                       # a duplicate
            keys.insert(rng.randint(0, len(keys)), rng.choice(keys))
        if rng.random() < 0.04:                       # CIA + CEA together
            for k in ("CompositeImplicitAutograd", "CompositeExplicitAutograd"):
                if k not in keys:
                    keys.insert(rng.randint(0, len(keys)), k)
        calls.append(keys)
    return calls


@contextlib.contextmanager
def quiet_stderr():
    """Silence the C++ override warnings torch prints on re-registration."""
    sys.stderr.flush()
    saved = os.dup(2)
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, 2)
    try:
        yield
    finally:
        os.dup2(saved, 2)
        os.close(saved)
        os.close(devnull)


class TorchPD:
    def __init__(self):
        import warnings
        warnings.simplefilter("ignore")
        import torch
        import torch._python_dispatcher as tpd
        self.name = "torch %s PythonDispatcher" % torch.__version__
        self.C = torch._C
        self.cls = tpd.PythonDispatcher

    def run(self, calls) -> Tuple[Optional[int], Optional[str], str, str]:
        """-> (index of the erroring call or None, error text, dispatchTable(), registrations())"""
        d = self.cls()
        err_at, err = None, None
        try:
            with quiet_stderr():
                for i, keys in enumerate(calls):
                    try:
                        d.register(keys)
                    except RuntimeError as e:
                        err_at, err = i, str(e)
                        break
            return err_at, err, d.dispatchTable(), d.registrations()
        finally:
            del d
            # Usually the library dies with the instance; a full collection
            # (slow in a process that imported torch: ~0.7 s) only if not.
            if self.C._dispatch_dump("__test__::foo"):
                gc.collect()


class ModelPD:
    def __init__(self, dm, universe):
        self.dm, self.u = dm, universe
        self.name = "reference model (%s) pd_register" % universe.name

    def run(self, calls):
        dm = self.dm
        op = dm.Operator(self.u, "__test__::foo")
        op.schema = "__test__::foo(Tensor x) -> Tensor"      # def_("foo(Tensor x) -> Tensor")
        op.schema_debug = "registered at /dev/null:0"
        op.alias_kind, op.alias_default = "FROM_SCHEMA", False
        err_at, err = None, None
        for i, keys in enumerate(calls):
            e = dm.pd_register(op, list(keys))
            if e is not None:
                err_at, err = i, e
                break
        return err_at, err, dm.pd_dispatch_table(op), dm.pd_registrations(op)


def run_tool(tool, what, profile, calls):
    cmd = [tool, what, "--style", "python-dispatcher", "--profile", profile]
    for keys in calls:
        cmd += ["--register", ",".join(keys)]
    try:
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=60)
    except (OSError, subprocess.TimeoutExpired) as e:
        return None, str(e), -1, cmd
    return p.stdout.decode("utf-8", "replace"), p.stderr.decode("utf-8", "replace"), p.returncode, cmd


def shell(cmd):
    return " ".join(a if a and all(c.isalnum() or c in "-_.,/" for c in a) else "'%s'" % a for a in cmd)


def udiff(exp, act, a, b):
    return "".join(difflib.unified_diff(exp.splitlines(keepends=True), (act or "").splitlines(keepends=True),
                                        a, b)).rstrip("\n")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tool", required=True)
    ap.add_argument("--profile", choices=("torch-1.13", "torch-2.6", "torch-2.14", "torch-main"), default="torch-1.13")
    ap.add_argument("--oracle", choices=("torch", "model"), default=None,
                    help="torch (torch-1.13, torch-2.x) or the reference model (torch-1.13, torch-main) "
                         "(default: torch, model for torch-main)")
    ap.add_argument("--model-dir", default=DEFAULT_MODEL_DIR)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--sessions", type=int, default=300)
    ap.add_argument("--max-reports", type=int, default=5)
    args = ap.parse_args(argv)
    t_start = time.perf_counter()

    oracle_kind = args.oracle or ("model" if args.profile == "torch-main" else "torch")
    if args.profile == "torch-main" and oracle_kind == "torch":
        ap.error("torch-main has no live oracle; use --oracle model")
    if oracle_kind == "model" and args.profile not in ("torch-main", "torch-1.13"):
        ap.error("the reference model has no %s universe; use the torch oracle (in its chroot)" % args.profile)
    if oracle_kind == "torch":
        try:
            torch = __import__("torch")
        except Exception:        # noqa: BLE001
            print("%s: SKIP: torch not importable (install python3-torch)" % PROG)
            return SKIP
        want = args.profile.split("-", 1)[1]
        if args.profile != "torch-1.13" and not (torch.__version__ + ".").startswith(want + "."):
            print("%s: --profile %s, but the torch here is %s (run it with tools/oracle-env python %s)"
                  % (PROG, args.profile, torch.__version__, args.profile))
            return 1
        oracle = TorchPD()
    else:
        if not os.path.exists(os.path.join(args.model_dir, "dispatch_model.py")):
            print("%s: SKIP: reference model not found in %s" % (PROG, args.model_dir))
            return SKIP
        sys.path.insert(0, args.model_dir)
        import dispatch_model as dm
        oracle = ModelPD(dm, dm.MAIN if args.profile == "torch-main" else dm.V113)

    rng = random.Random(args.seed)
    passed = failed = 0
    stats = {"sessions with an error": 0, "partial-state checks": 0, "register calls": 0, "tool runs": 0}
    reports = []
    for s in range(args.sessions):
        calls = gen_session(rng)
        stats["register calls"] += len(calls)
        err_at, err, exp_table, exp_regs = oracle.run(calls)
        problems = []
        def expect_views(session, label=""):
            """The tool's table and registrations views of `session` must be the oracle's."""
            for what, exp in (("table", exp_table), ("registrations", exp_regs)):
                out, serr, rc, cmd = run_tool(args.tool, what, args.profile, session)
                stats["tool runs"] += 1
                if rc != 0 or out != exp:
                    problems.append("%s$ %s\nexit %s; stderr: %s\n%s" % (
                        label, shell(cmd), rc, (serr or "").strip()[-500:],
                        udiff(exp, out, "expected (%s)" % oracle.name, "dispatchtool")))

        if err_at is None:
            expect_views(calls)
        else:
            stats["sessions with an error"] += 1
            want = "dispatchtool: error: %s\n" % err
            for what in ("table", "registrations"):
                out, serr, rc, cmd = run_tool(args.tool, what, args.profile, calls[:err_at + 1])
                stats["tool runs"] += 1
                if rc != 2 or out != "" or not (serr or "").endswith(want):
                    problems.append("$ %s\nexpected exit 2, no stdout, stderr ending in %r\n"
                                    "got exit %s, stdout %r, stderr %r" % (
                                        shell(cmd), want, rc, (out or "")[:200], (serr or "")[-600:]))
            # the state the dispatcher is left in after the error
            bad = calls[err_at]
            prefix = []
            if (len(set(bad)) == len(bad) and
                    not ("CompositeImplicitAutograd" in bad and "CompositeExplicitAutograd" in bad)):
                for k in bad:
                    if k not in SUPPORTED:
                        break
                    prefix.append(k)
            partial = calls[:err_at] + [prefix]
            stats["partial-state checks"] += 1
            expect_views(partial, "state after the error: ")
        if problems:
            failed += 1
            if len(reports) < args.max_reports:
                reports.append("--- session %d: register calls %r%s\n%s" % (
                    s, calls, "" if err_at is None else " (call %d raises: %s)" % (err_at, err),
                    "\n".join(problems)))
        else:
            passed += 1
    for r in reports:
        print(r)
    print("%s: %s vs %s, seed %d: %s (%.1fs)" % (
        PROG, args.profile, oracle.name, args.seed,
        ", ".join("%s %d" % kv for kv in stats.items()), time.perf_counter() - t_start))
    print("%s: %d passed, %d failed" % (PROG, passed, failed))
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
