#!/usr/bin/python3
"""Calls of torch.library.custom_op operators: what trace says against what the
real release does.

    tools/oracle-env python torch-2.14 tests/oracle/custom_op_calls_oracle.py \
        --tool build/dispatchtool --profile torch-2.14 --workdir build/oracle/custom-op-calls-2.14

The script writes one Python module of custom ops (with and without
register_fake and register_autograd; functional, mutable, returning nothing or
several Tensors; device types given or not; register_fake by qualified name),
imports it here with the tour's example (configs/examples/torch_library/
custom_ops.py, docs/tutorial.md step 9), and calls every operator on cpu and meta tensors, with and
without requires_grad, under no_grad and inference_mode too. For each call:

  - the call raises (type and text) iff `trace --format json` says the result is
    an error, with the same exception and message (custom_op's fake kernel
    without register_fake on a meta tensor);
  - when the call returns a Tensor and an input requires grad, backward through
    the first Tensor output raises iff trace's backward has an error, with the
    same text (no register_autograd: "Trying to backward through ..."; grad mode
    off: no grad_fn), and succeeds where trace says register_autograd's
    function computes the gradient.

Exit 0 iff every call matched, 1 otherwise. Without torch (or the chroot) it
fails: this check is never skipped.
"""

import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import module_oracle  # noqa: E402

MODULE = '''\
import typing

import torch
from torch import Tensor


@torch.library.custom_op("co::plain", mutates_args=())
def plain_function(x: Tensor) -> Tensor:
    return x.clone()


@torch.library.custom_op("co::faked", mutates_args=())
def faked(x: Tensor) -> Tensor:
    return x.clone()


@faked.register_fake
def _(x):
    return torch.empty_like(x)


@torch.library.custom_op("co::graded", mutates_args=())
def graded(x: Tensor, y: Tensor) -> Tensor:
    return x * y


@graded.register_fake
def _(x, y):
    return torch.empty_like(x)


def graded_backward(ctx, g):
    x, y = ctx.saved_tensors
    return g * y, g * x


def graded_setup(ctx, inputs, output):
    ctx.save_for_backward(*inputs)


graded.register_autograd(graded_backward, setup_context=graded_setup)


@torch.library.custom_op("co::fill_", mutates_args=("x",))
def fill_(x: Tensor) -> None:
    x.add_(1)


@torch.library.custom_op("co::mutret", mutates_args=("x",))
def mutret(x: Tensor) -> Tensor:
    x.add_(1)
    return x.clone()


@torch.library.custom_op("co::noret", mutates_args=())
def noret(x: Tensor) -> None:
    pass


@torch.library.custom_op("co::two_out", mutates_args=())
def two_out(x: Tensor) -> typing.Tuple[Tensor, Tensor]:
    return x.clone(), x.clone()


@torch.library.custom_op("co::on_cpu", mutates_args=(), device_types="cpu")
def on_cpu(x: Tensor, y: Tensor) -> Tensor:
    return x + y


def by_name(x):
    return x.clone()


torch.library.custom_op("co::by_name", by_name, mutates_args=(), schema="(Tensor x) -> Tensor")


@torch.library.register_fake("co::by_name")
def _(x):
    return torch.empty_like(x)
'''

# Operator -> (number of Tensor arguments, the other arguments' values).
OPS = {"co::plain": (1, ()), "co::faked": (1, ()), "co::graded": (2, ()), "co::fill_": (1, ()),
       "co::mutret": (1, ()), "co::noret": (1, ()), "co::two_out": (1, ()), "co::on_cpu": (2, ()),
       "co::by_name": (1, ())}
# The tour's example (docs/tutorial.md, step 9), imported as it is shipped.
EXAMPLE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "configs", "examples", "torch_library",
                       "custom_ops.py")
EXAMPLE_OPS = {"tour::scale": (1, (2.0,)), "tour::shift": (1, (1.0,))}
ARGS = ["cpu", "cpu,requires_grad", "meta", "meta,requires_grad"]
MODES = [(), ("--no-grad",), ("--inference-mode",)]


def tensor(torch, arg):
    device, _, mod = arg.partition(",")
    t = torch.ones(2, device=device)
    if mod == "requires_grad":
        t.requires_grad_()
    return t


def real_call(torch, op, args, rest, mode):
    """{'raise': [type, text]} or {'backward': None | 'ok' | text-of-its-error}."""
    import contextlib
    ctx = {(): contextlib.nullcontext, ("--no-grad",): torch.no_grad,
           ("--inference-mode",): torch.inference_mode}[mode]
    tensors = [tensor(torch, a) for a in args]
    # An in-place update of a leaf that requires grad is refused by autograd before the
    # operator runs; the mutable operators get a non-leaf instead (the same keys).
    if op in ("co::fill_", "co::mutret"):
        tensors = [t * 1 if t.requires_grad else t for t in tensors]
    try:
        with ctx():
            ns, name = op.split("::")
            out = getattr(getattr(torch.ops, ns), name)(*tensors, *rest)
    except Exception as e:  # noqa: BLE001  (any exception is an outcome to compare)
        return {"raise": [type(e).__name__, str(e)]}
    if isinstance(out, tuple):
        out = out[0]
    if out is None or not any(a.endswith("requires_grad") for a in args) or "meta" in args[0]:
        return {"backward": None}
    try:
        out.sum().backward()
    except RuntimeError as e:
        return {"backward": str(e)}
    return {"backward": "ok"}


def tool_call(tool, profile, path, op, args, mode):
    cmd = [tool, "trace", "--format", "json", "--profile", profile, "--op", op]
    for a in args:
        cmd += ["--arg", a]
    cmd += list(mode) + [path]
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0:
        return {"tool_failed": p.returncode, "stderr": p.stderr[:500]}
    j = json.loads(p.stdout)
    r = j["result"]
    if r["kind"] == "error":
        return {"raise": [r["exception"], r["message"]]}
    b = r["backward"]
    if b["outcome"] in ("no_input_requires_grad", "no_tensor_outputs") or "meta" in args[0]:
        return {"backward": None}
    if b["error"] is not None:
        return {"backward": b["error"]}
    if b["outcome"] == "autograd_kernel":
        return {"backward": "ok"}
    return {"backward": "unexpected outcome " + b["outcome"]}


def main():
    ready = module_oracle.setup(__doc__, "custom_op_calls_oracle", "co_calls", MODULE)
    if ready is None:
        return 1
    o, torch, path = ready
    module_oracle.import_file("tour_example", EXAMPLE)

    compared = mismatched = raised = backward_raised = 0
    calls = [(op, n, rest, path) for op, (n, rest) in OPS.items()]
    calls += [(op, n, rest, EXAMPLE) for op, (n, rest) in EXAMPLE_OPS.items()]
    for op, n, rest, file in calls:
        for arg in ARGS:
            for mode in MODES:
                if mode == ("--inference-mode",) and arg.endswith("requires_grad"):
                    continue  # requires_grad tensors made outside inference mode: the same keys as no_grad here
                args = [arg] + ["cpu" if arg.startswith("cpu") else "meta"] * (n - 1)
                want = real_call(torch, op, args, rest, mode)
                got = tool_call(o.tool, o.profile, file, op, args, mode)
                compared += 1
                raised += "raise" in want
                backward_raised += want.get("backward") not in (None, "ok")
                if want != got:
                    mismatched += 1
                    print("MISMATCH %s %s %s\n  torch: %s\n  tool:  %s" % (op, args, " ".join(mode), want, got))
    print("custom_op_calls_oracle (%s): %d calls compared (%d raise, %d backward raises), %d mismatched"
          % (torch.__version__, compared, raised, backward_raised, mismatched))
    if raised == 0 or backward_raised == 0:
        print("custom_op_calls_oracle: the cases exercise no error: the check could not fail")
        return 1
    return 1 if mismatched else 0


if __name__ == "__main__":
    sys.exit(main())
