#!/usr/bin/python3
"""Registrations torch.library refuses at import, against the real release.

    tools/oracle-env python torch-2.14 tests/oracle/registration_refusals.py \
        --tool build/dispatchtool --profile torch-2.14 --workdir DIR

Each case below is a small module of its own (its own namespace), written to
DIR and imported into the real torch. Where torch raises while registering
(a Meta kernel from Python on an operator with a CompositeImplicitAutograd
kernel, through each API that registers one; register_fake, register_autograd
and register_vmap on an operator not defined yet), the tool reading the same file
must exit 2 with an error located at that call whose text is torch's, byte
for byte; where torch accepts the module (the Meta kernel first, or an
operator without such a kernel), the tool must read it (exit 0).
Exit 0 iff every case agrees; without torch it fails (never skipped).
"""

import argparse
import importlib.util
import os
import re
import subprocess
import sys

from torch_library_oracle import require_torch

HEAD = "import torch\n\n"
DEF = ('lib = torch.library.Library("{ns}", "DEF")\nlib.define("f(Tensor x) -> Tensor")\n'
       'lib.impl("f", lambda x: x, "CompositeImplicitAutograd")\n')
CASES = {
    # name: (body, line of the refused call or None when torch accepts it)
    "impl_unqualified": (DEF + 'lib.impl("f", lambda x: x, "Meta")\n', 6),
    "impl_qualified": (DEF + 'lib.impl("{ns}::f", lambda x: x, "Meta")\n', 6),
    "impl_library_key": (DEF + 'meta = torch.library.Library("{ns}", "IMPL", "Meta")\nmeta.impl("f", lambda x: x)\n', 7),
    "impl_aten": ('aten = torch.library.Library("aten", "IMPL")\naten.impl("linear", lambda *a: None, "Meta")\n', 4),
    "impl_aten_qualified": ('aten = torch.library.Library("aten", "IMPL")\n'
                            'aten.impl("aten::linear", lambda *a: None, "Meta")\n', 4),
    "torch_library_impl": (DEF + 'torch.library.impl("{ns}::f", "meta", lambda x: x)\n', 6),
    "register_kernel_meta": (DEF + 'torch.library.register_kernel("{ns}::f", "meta", lambda x: x)\n', 6),
    "register_fake": (DEF + 'torch.library.register_fake("{ns}::f", lambda x: x)\n', 6),
    "register_fake_decorator": (DEF + '\n@torch.library.register_fake("{ns}::f")\ndef _(x):\n    return x\n', 7),
    "impl_abstract": (DEF + 'torch.library.impl_abstract("{ns}::f", lambda x: x)\n', 6),
    "lib_register_fake": (DEF + 'lib._register_fake("f", lambda x: x)\n', 6),
    # register_* on an operator not defined (yet): register_fake finds no
    # operator, register_autograd / register_vmap no attribute of torch.ops.NS.
    "undefined_register_fake": ('torch.library.register_fake("{ns}::f", lambda x: x)\n', 3),
    "undefined_impl_abstract": ('torch.library.impl_abstract("{ns}::f", lambda x: x)\n', 3),
    "undefined_lib_register_fake": ('lib = torch.library.Library("{ns}", "FRAGMENT")\n'
                                    'lib._register_fake("f", lambda x: x)\n', 4),
    "undefined_register_autograd": ('torch.library.register_autograd("{ns}::f", lambda ctx, g: g)\n', 3),
    "undefined_register_autograd_overload": ('torch.library.register_autograd("{ns}::f.out", lambda ctx, g: g)\n', 3),
    "undefined_register_vmap": ('torch.library.register_vmap("{ns}::f", lambda info, dims, x: (x, 0))\n', 3),
    "defined_later": ('torch.library.register_fake("{ns}::f", lambda x: x)\n'
                      'lib = torch.library.Library("{ns}", "DEF")\nlib.define("f(Tensor x) -> Tensor")\n', 3),
    # Accepted: a kernel of an undefined operator from Library.impl, torch.library.impl,
    # register_kernel (c10 keeps it until a def comes).
    "undefined_kernels": ('lib = torch.library.Library("{ns}", "FRAGMENT")\nlib.impl("f", lambda x: x, "CPU")\n'
                          'torch.library.impl("{ns}::g", "cpu", lambda x: x)\n'
                          'torch.library.register_kernel("{ns}::h", "cpu", lambda x: x)\n', None),
    "register_after_def": ('lib = torch.library.Library("{ns}", "DEF")\nlib.define("f(Tensor x) -> Tensor")\n'
                           'torch.library.register_fake("{ns}::f", lambda x: x)\n'
                           'torch.library.register_autograd("{ns}::f", lambda ctx, g: g)\n', None),
    # Accepted: the Meta kernel before the composite one; no composite kernel.
    "meta_first": ('lib = torch.library.Library("{ns}", "DEF")\nlib.define("f(Tensor x) -> Tensor")\n'
                   'lib.impl("f", lambda x: x, "Meta")\nlib.impl("f", lambda x: x, "CompositeImplicitAutograd")\n',
                   None),
    "explicit_composite": ('lib = torch.library.Library("{ns}", "DEF")\nlib.define("f(Tensor x) -> Tensor")\n'
                           'lib.impl("f", lambda x: x, "CompositeExplicitAutograd")\n'
                           'torch.library.register_fake("{ns}::f", lambda x: x)\n', None),
}
ERROR = re.compile(r"^(?P<file>[^\n:]+):(?P<line>\d+):\d+: error: (?P<msg>.*)$")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tool", required=True)
    ap.add_argument("--profile", required=True)
    ap.add_argument("--workdir", required=True)
    args = ap.parse_args()
    torch = require_torch("registration_refusals", args.profile)
    if torch is None:
        return 1
    work = os.path.abspath(args.workdir)
    os.makedirs(work, exist_ok=True)
    bad, n = [], 0
    for k, (name, (body, line)) in enumerate(sorted(CASES.items())):
        path = os.path.join(work, name + ".py")
        with open(path, "w", encoding="utf-8") as f:
            f.write(HEAD + body.format(ns="rr%d" % k))
        if "impl_abstract" in body and not hasattr(torch.library, "impl_abstract"):
            continue
        n += 1
        spec = importlib.util.spec_from_file_location("rr_%s" % name, path)
        try:
            spec.loader.exec_module(importlib.util.module_from_spec(spec))
            real = None
        except Exception as e:  # noqa: BLE001  (RuntimeError, AttributeError: what the import raises)
            real = str(e)
        if (real is None) != (line is None):
            bad.append("%s: torch %s, the case expects %s" % (name, "accepts it" if real is None else "raises: " + real,
                                                             "acceptance" if line is None else "a refusal"))
            continue
        p = subprocess.run([args.tool, "registrations", "--raw", "--all", "--profile", args.profile, path],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=120)
        err = p.stderr.decode("utf-8", "replace")
        if real is None:
            if p.returncode != 0:
                bad.append("%s: torch accepts it, the tool exits %d: %s" % (name, p.returncode, err[:500]))
            continue
        errors = [m.groupdict() for m in map(ERROR.match, err.splitlines()) if m]
        if p.returncode != 2 or p.stdout or not any(e["msg"] == real and int(e["line"]) == line for e in errors):
            bad.append("%s: torch raises at line %d:\n  %s\nthe tool (exit %d):\n  %s"
                       % (name, line, real, p.returncode, err.strip()[:800]))
    for b in bad:
        print("MISMATCH " + b)
    print("registration_refusals (%s, torch %s): %d/%d cases agree" % (args.profile, torch.__version__,
                                                                       n - len(bad), n))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
