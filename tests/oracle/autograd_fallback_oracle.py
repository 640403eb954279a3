#!/usr/bin/python3
"""The 2.x autograd fallback (mode "warn") over a kernel made of torch
operators and over an opaque one: what trace says against what the real
release does.

    tools/oracle-env python torch-2.14 tests/oracle/autograd_fallback_oracle.py \
        --tool build/dispatchtool --profile torch-2.14 --workdir build/oracle/autograd-fallback-2.14

basicAutogradNotImplementedFallbackImpl redispatches below autograd without
changing the thread-local state, so a kernel that computes with torch
operators records their graph: its output requires grad, the fallback only
hooks it (a warning in backward) and the gradient flows. An opaque kernel
(numpy, a raw C++/CUDA kernel, torch operators on detached tensors) returns an
output that does not require grad: the fallback gives it a WarnNotImplemented
grad_fn, backward warns and no gradient reaches the inputs.

For one operator of each kind, defined with Library and a CPU kernel (the
module is written here and imported), called on a cpu tensor that requires
grad, backward through the output:

  - trace's backward outcome is "warn" for both, with the warning torch gives;
  - its `why` says both cases (gradient through torch operators, none through
    an opaque kernel), and torch gives a gradient for the first and none for
    the second.

Exit 0 iff everything matched, 1 otherwise. Without torch (or the chroot) it
fails: this check is never skipped.
"""

import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import module_oracle  # noqa: E402
import warnings

MODULE = '''\
import torch
from torch.library import Library

lib = Library("fb", "DEF")
lib.define("composed(Tensor x) -> Tensor")
lib.define("opaque(Tensor x) -> Tensor")


def composed_cpu(x):
    return torch.sin(x) * 2


def opaque_cpu(x):
    return torch.sin(x.detach()) * 2


lib.impl("composed", composed_cpu, "CPU")
lib.impl("opaque", opaque_cpu, "CPU")
'''

# What trace's `why` says for each case (checked in its text).
WHY_COMPOSED = "a kernel that computes with torch operators records their graph: the gradient flows"
WHY_OPAQUE = "an opaque kernel"


def real(torch, op):
    x = torch.ones(2, requires_grad=True)
    out = getattr(torch.ops.fb, op)(x)
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        out.sum().backward()
    texts = [str(m.message) for m in w if "fb::" + op in str(m.message)]
    return {"warning": texts[0] if texts else None, "gradient": x.grad is not None}


def tool(tool_path, profile, path, op):
    p = subprocess.run([tool_path, "trace", "--format", "json", "--profile", profile, "--op", "fb::" + op,
                        "--arg", "cpu,requires_grad", path], capture_output=True, text=True)
    if p.returncode != 0:
        return {"tool_failed": p.returncode, "stderr": p.stderr[:500]}
    return json.loads(p.stdout)["result"]["backward"]


def main():
    ready = module_oracle.setup(__doc__, "autograd_fallback_oracle", "fb_ops", MODULE)
    if ready is None:
        return 1
    o, torch, path = ready

    failures = []
    for op, gradient in [("composed", True), ("opaque", False)]:
        r, t = real(torch, op), tool(o.tool, o.profile, path, op)
        if r["gradient"] != gradient:
            failures.append("fb::%s: torch gave %s gradient (the case is not what it says)"
                            % (op, "a" if r["gradient"] else "no"))
        if r["warning"] is None:
            failures.append("fb::%s: torch did not warn in backward" % op)
        if t.get("outcome") != "warn" or t.get("warning") != r["warning"]:
            failures.append("fb::%s: trace says %s, warning %r; torch warned %r"
                            % (op, t.get("outcome"), t.get("warning"), r["warning"]))
        for part in (WHY_COMPOSED, WHY_OPAQUE):
            if part not in (t.get("why") or ""):
                failures.append("fb::%s: trace's why does not say %r: %r" % (op, part, t.get("why")))
    for f in failures:
        print("MISMATCH " + f)
    print("autograd_fallback_oracle (%s): 2 operators, %d mismatches" % (torch.__version__, len(failures)))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
