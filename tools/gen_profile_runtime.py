"""Run-time behaviours of a torch build that `dispatchtool trace` reports,
measured by calling a throw-away custom operator (used by tools/gen_profile.py).

Each text is what Python shows the user, with the operator's name replaced by
{op} and its schema by {schema}; an empty text means the build does not do it.

  autograd_fallback_warning     the warning backward gives through an operator
                                whose autograd key reached the boxed autograd
                                fallback (2.x, mode "warn"); empty when the
                                autograd fallbacks are fallthroughs (1.13)
  meta_fallback_error           the NotImplementedError of the Meta backend
                                fallback (2.x); empty without one (1.13)
  functionalize_alias_error     the error of the Functionalize fallback for an
                                operator with alias annotations
  python_fallback_without_snapshot
                                "assert": the Python fallback asserts when
                                PythonTLSSnapshot did not run (1.13); "dispatch":
                                it dispatches to __torch_dispatch__ anyway (2.x)
  privateuse1_shown             "renamed" or "canonical": whether dumps and key
                                sets print PrivateUse1 under the name
                                torch.utils.rename_privateuse1_backend gave it
                                (measured in a subprocess: the rename is global)
"""
import subprocess
import sys
import warnings

NS = "dt_gen_runtime"
ZEROTENSOR_MUTABLE = ("ZeroTensors are immutable. Please use the materialized zero tensor obtained using .clone() "
                      "if you want a mutable tensor.")

_PU1_PROBE = r"""
import torch
from torch.library import Library
torch.utils.rename_privateuse1_backend("foo")
lib = Library("dt_gen_pu1", "DEF")
lib.define("p(Tensor x) -> Tensor")
lib.impl("p", lambda x: x, "PrivateUse1")
lib.impl("p", lambda x: x, "AutogradPrivateUse1")
print(torch._C._dispatch_dump_table("dt_gen_pu1::p"))
print(torch._C.DispatchKeySet(torch._C.DispatchKey.AutogradPrivateUse1))
"""


def measure(torch, fails):
    from torch.library import Library
    C = torch._C
    lib = Library(NS, "DEF")
    lib.define("f(Tensor x) -> Tensor")
    lib.impl("f", lambda x: torch.zeros(2), "CPU")
    lib.define("g(Tensor(a!) x) -> ()")
    lib.impl("g", lambda x: None, "CPU")
    out = {}

    # The autograd fallback: forward with an input that requires grad, then backward.
    x = torch.randn(2, requires_grad=True)
    y = torch.ops.dt_gen_runtime.f(x)
    warning = ""
    if y.requires_grad:
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            y.sum().backward()
        texts = [str(m.message) for m in w]
        fails.check(len(texts) == 1 and texts[0].startswith(NS + "::f: "), "autograd fallback warns in backward",
                    repr(texts))
        fails.check(x.grad is None, "no gradient through the autograd fallback", repr(x.grad))
        warning = texts[0].replace(NS + "::f", "{op}") if texts else ""
    else:
        try:
            y.sum().backward()
            fails.check(False, "backward without a graph raises", "it did not")
        except RuntimeError as e:
            fails.check("does not require grad and does not have a grad_fn" in str(e),
                        "backward without a graph raises", str(e))
    out["autograd_fallback_warning"] = warning

    try:
        torch.ops.dt_gen_runtime.f(torch.empty(2, device="meta"))
        fails.check(False, "a Meta call without a Meta kernel raises", "it did not")
        meta = ""
    except NotImplementedError as e:
        msg = str(e)
        meta = "" if msg.startswith("Could not run") else msg.replace(NS + "::f", "{op}")
        fails.check(meta == "" or meta.startswith("{op}: "), "Meta fallback error names the operator", msg[:200])
    out["meta_fallback_error"] = meta

    t = torch._to_functional_tensor(torch.randn(2))
    torch._enable_functionalization(reapply_views=False)
    try:
        torch.ops.dt_gen_runtime.g(t)
        fails.check(False, "functionalizing an alias-annotated custom operator raises", "it did not")
        func = ""
    except RuntimeError as e:
        func = str(e).replace(NS + "::g(Tensor(a!) x) -> ()", "{schema}")
    finally:
        torch._disable_functionalization()
    out["functionalize_alias_error"] = func

    try:
        torch.ops.dt_gen_runtime.g(torch._efficientzerotensor(2))
        fails.check(False, "a zero tensor as a mutable argument raises", "it did not")
        zero = ""
    except RuntimeError as e:
        zero = str(e)
        fails.check(zero.startswith("ZeroTensors are immutable"), "the ZeroTensor fallback's error", zero[:200])
    # The same text in 1.13, 2.6 and 2.14: checked here, printed by trace (render/trace.cpp).
    fails.check(zero == ZEROTENSOR_MUTABLE, "the ZeroTensor fallback's text is trace's", zero[:200])

    class Sub(torch.Tensor):
        @classmethod
        def __torch_dispatch__(cls, func, types, args=(), kwargs=None):
            return torch.zeros(1)
    s = Sub._make_subclass(Sub, torch.randn(2))
    guard = C.ExcludeDispatchKeyGuard(C.DispatchKeySet(C.DispatchKey.PythonTLSSnapshot))
    try:
        torch.ops.dt_gen_runtime.f(s)
        how = "dispatch"
    except RuntimeError as e:
        fails.check("tls_on_entry" in str(e), "the Python fallback without PythonTLSSnapshot", str(e)[:200])
        how = "assert"
    del guard
    out["python_fallback_without_snapshot"] = how

    shown = "canonical"     # no rename_privateuse1_backend (1.13): PrivateUse1 is its only name
    if hasattr(torch.utils, "rename_privateuse1_backend"):
        p = subprocess.run([sys.executable, "-c", _PU1_PROBE], capture_output=True, text=True)
        fails.check(p.returncode == 0, "PrivateUse1 rename probe runs", p.stderr[-300:])
        canonical = "\nPrivateUse1: " in "\n" + p.stdout and "AutogradPrivateUse1" in p.stdout
        renamed = "\nfoo: " in "\n" + p.stdout
        fails.check(canonical != renamed, "PrivateUse1 shown one way after the rename", p.stdout[:300])
        shown = "canonical" if canonical else "renamed"
    out["privateuse1_shown"] = shown
    return out


def render(p, toml_str):
    if "autograd_fallback_warning" not in p:     # not measured (torch-main: tools/gen_profile_main.py)
        return ""
    o = ["\n# Run-time behaviours trace reports (tools/gen_profile_runtime.py); {op} is the\n"
         "# operator's name, {schema} its schema; empty: this build does not do it.\n"]
    for k in ("autograd_fallback_warning", "meta_fallback_error", "functionalize_alias_error",
              "python_fallback_without_snapshot", "privateuse1_shown"):
        o.append("%s = %s\n" % (k, toml_str(p[k])))
    return "".join(o)
