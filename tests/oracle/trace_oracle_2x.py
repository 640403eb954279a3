"""The 2.x parts of tests/oracle/trace_oracle.py: alias-annotated schemas, the
renamed PrivateUse1 backend, and the backward pass of calls with an argument
that requires grad (what torch does, what trace says, and how they compare)."""


def flatten(args):
    for a in args:
        if isinstance(a, list):
            yield from a
        else:
            yield a


# 2.x only (the 1.13 matrix is unchanged): alias-annotated schemas; a kernel of
# one returns the annotated input itself (what the annotation promises), or None.
ALIAS_SCHEMAS = {
    "mut": "(Tensor(a!) x) -> Tensor(a!)",
    "mutnone": "(Tensor(a!) x) -> ()",
    "view": "(Tensor(a) x) -> Tensor(a)",
}
# 2.x only: a CPU tensor with PrivateUse1 included in the thread-local state
# (the dispatcher then picks the PrivateUse1 backend and AutogradPrivateUse1),
# PrivateUse1 renamed "foo" (torch.utils.rename_privateuse1_backend).
PU1_NAME = "foo"


def backward_checked(case, arg_kinds):
    """2.x: calls whose backward is checked -- an argument requires grad, no Python
    machinery (subclasses, modes, functionalization, the Python dispatcher)."""
    flat = [a for a in flatten(case["args"]) if a in arg_kinds]
    if not any("requires_grad" in arg_kinds[a][3] for a in flat):
        return False
    if any("python" in arg_kinds[a][3] or arg_kinds[a][1] == "functional" for a in flat):
        return False
    return not set(case["tls"]) & {"python_mode", "functionalization", "python_dispatcher"}


def run_backward(torch, args, out, ns):
    """out.sum().backward() outside every context: 'no-output', 'raise:TEXT', or
    'warn|nowarn' + ':grad|nograd' (a gradient reached an input), and the warning."""
    import warnings
    if out is None:
        return {"outcome": "bw:no-output"}
    inputs = [t for t in flatten(args) if isinstance(t, torch.Tensor) and t.requires_grad]
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        try:
            out.sum().backward()
        except RuntimeError as e:
            return {"outcome": "bw:raise", "error": str(e)}
    texts = [str(m.message) for m in w if ns in str(m.message)]
    grad = any(t.grad is not None for t in inputs)
    return {"outcome": "bw:%s:%s" % ("warn" if texts else "nowarn", "grad" if grad else "nograd"),
            "warning": texts[0] if texts else None}


def tool_backward(j, case):
    """The backward outcome trace predicts, as run_backward records it. Our
    kernels record no graph: an autograd kernel of ours leaves the output as it
    returned it (the aliased input itself, or a fresh tensor)."""
    b = j["result"]["backward"]["outcome"]
    if b == "autograd_kernel":
        aliased = case["schema"] in ("mut", "view") and "requires_grad" in str(case["args"][0])
        b = "through_alias" if aliased else "no_graph"
    return {"warn": "bw:warn:nograd", "warn_through_alias": "bw:warn:grad", "no_graph": "bw:raise",
            "through_alias": "bw:nowarn:grad", "no_tensor_outputs": "bw:no-output"}.get(b, "bw:" + b)


def torch_matches(profile):
    """'' if the importable torch is the profile's release, else why not."""
    import torch
    want = profile[len("torch-"):]
    have = ".".join(torch.__version__.split(".")[:2])
    return "" if have == want else f"torch {torch.__version__} is not {profile}'s release"


def compare(case, r, got, j):
    """(agree, what torch did, what trace said) for one call: the first event,
    the error's text (Meta fallback, functionalization: whole; could not run:
    the headline), and in 2.x what backward did."""
    torch_side, tool_side = [r["outcome"]], [got]
    if j is not None and r.get("message") is not None and got == r["outcome"]:
        msg = j["result"]["message"] or ""
        if "could_not_run" in got:
            msg = msg.split("\n", 1)[0]
        if msg != r["message"]:
            torch_side.append("message: " + r["message"][:300])
            tool_side.append("message: " + msg[:300])
    # Our kernels return at once; where trace assumes one follows PyTorch's
    # convention for its key (an autograd or ADInplaceOrView kernel that
    # redispatches), the real call ends there and its backward is not comparable.
    assumed = j is not None and any(st["origin"] == "input" and st["assumed"] for st in j["steps"])
    if "backward" in r and not assumed:
        bw = r["backward"]
        want = tool_backward(j, case) if j is not None else "bw:?"
        torch_side.append(bw["outcome"])
        tool_side.append(want)
        if j is not None and bw["outcome"] == want and j["result"]["backward"]["outcome"] != "autograd_kernel":
            jb = j["result"]["backward"]
            if bw.get("warning") is not None and bw["warning"] != jb["warning"]:
                torch_side.append("warning: " + bw["warning"])
                tool_side.append("warning: " + str(jb["warning"]))
            if bw.get("error") is not None and bw["error"] != jb["error"]:
                torch_side.append("error: " + bw["error"])
                tool_side.append("error: " + str(jb["error"]))
    checked = "backward" in r and not assumed
    return torch_side == tool_side, " | ".join(torch_side), " | ".join(tool_side), checked


