#!/usr/bin/python3
"""torchvision's operators: its sources read by the tool vs the real torchvision.

    tools/oracle-env python torch-2.6 tests/oracle/torchvision_oracle.py \
        --tool build/dispatchtool --profile torch-2.6 --tree /var/cache/dispatchtool/sources/torchvision-0.21.0

Runs in the torch-2.6 chroot, which has Debian's python3-torchvision 0.21.0
(built from the same upstream tarball as the tree, which
tests/realworld/sources.py torchvision-0.21.0 downloads; never committed
here). `import torchvision` loads its _C library and its
_meta_registrations.py into the real torch. Then, in the tree, the tool reads
the sources Debian compiles into _C (csrc/vision.cpp, csrc/ops/*.cpp and the
cpu/, autograd/, autocast/ and quantized/cpu/ kernels; not cuda/ or mps/,
which a CPU build does not compile) and _meta_registrations.py, by the
relative paths that make __FILE__ ("./torchvision/csrc/...") and for every
torchvision:: operator

    TOOL registrations --raw --all --profile torch-2.6 SOURCES...  == _dispatch_dump(op)
    TOOL table --raw --all --profile torch-2.6 SOURCES...          == _dispatch_dump_table(op)

byte for byte. _meta_registrations.py registers most of its Meta kernels
through a helper of its own (register_meta: a decorator factory whose
wrapper calls an lru_cache'd function's Library.impl with an OpOverload it
looks up, under `if torchvision.extension._has_ops():`); the tool inlines it
and warns that each registration depends on that condition (the only
messages it may print: warnings on that file and their notes). Exit 0 iff
everything matched; without torch, torchvision or the tree it fails.
"""

import argparse
import glob
import os
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from torch_library_oracle import require_torch, sections  # noqa: E402

# The folders of csrc/ops whose .cpp files Debian's CPU build compiles.
COMPILED = ["", "cpu", "autograd", "autocast", "quantized/cpu"]
META_PY = "./torchvision/_meta_registrations.py"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tool", required=True)
    ap.add_argument("--profile", default="torch-2.6")
    ap.add_argument("--tree", required=True, help="tests/realworld/sources.py torchvision-0.21.0")
    args = ap.parse_args()
    t0 = time.time()
    torch = require_torch("torchvision_oracle", args.profile)
    if torch is None:
        return 1
    try:
        import torchvision
    except Exception as e:  # noqa: BLE001
        print("torchvision_oracle: FAIL: cannot import torchvision (%s): tools/oracle-env ensure installs "
              "python3-torchvision into the %s chroot" % (e, args.profile))
        return 1
    tree_version = os.path.basename(os.path.normpath(args.tree)).rpartition("-")[2]
    if not torchvision.__version__.startswith(tree_version):
        print("torchvision_oracle: FAIL: torchvision %s is installed, the tree is %s"
              % (torchvision.__version__, tree_version))
        return 1
    tool = os.path.abspath(args.tool)
    os.chdir(args.tree)
    srcs = ["./torchvision/csrc/vision.cpp"]
    for d in COMPILED:
        srcs += sorted(glob.glob(os.path.join("./torchvision/csrc/ops", d, "*.cpp")))
    files = srcs + [META_PY]
    ops = sorted(n for n in torch._C._dispatch_get_all_op_names() if n.startswith("torchvision::"))
    bad, total, got, warned = [], 0, {}, set()
    for what in ["registrations", "table"]:
        p = subprocess.run([tool, what, "--raw", "--all", "--profile", args.profile] + files,
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        out, err = p.stdout.decode(), p.stderr.decode()
        if p.returncode != 0:
            bad.append("%s: exit %d: %s" % (what, p.returncode, err[:3000]))
            continue
        got[what] = sections(out)
        # Warnings (and their notes): only on _meta_registrations.py's register_meta helper.
        for ln in err.splitlines():
            if not ln.startswith(META_PY + ":") or (": warning: " not in ln and ": note: " not in ln):
                bad.append("%s: an unexpected message: %s" % (what, ln))
            elif ": warning: " in ln:
                warned.add(ln)
    helper_ops = set()
    text = open(META_PY, encoding="utf-8").read()
    for ln in text.splitlines():
        if ln.startswith('@register_meta("'):
            helper_ops.add("torchvision::" + ln.split('"')[1])
    if not warned:
        bad.append("no warning on %s's register_meta helper" % META_PY)
    for what, real in [("registrations", torch._C._dispatch_dump), ("table", torch._C._dispatch_dump_table)]:
        if what not in got:
            continue
        extra = sorted(n for n in got[what] if n.startswith("torchvision::") and n not in ops)
        if extra:
            bad.append("%s: the tool has operators torch does not: %s" % (what, extra))
        for name in ops:
            total += 1
            exp, mine = real(name), got[what].get(name)
            if mine != exp:
                bad.append("%s %s:\n--- torch\n%s--- dispatchtool\n%s" % (what, name, exp, mine))
    for b in bad[:30]:
        print("MISMATCH: " + b)
    print("torchvision_oracle (torchvision %s, torch %s): %d/%d dumps equal over %d operators (%d sources; "
          "%d with a Meta kernel of register_meta); %.1f s"
          % (torchvision.__version__, torch.__version__, total - len([b for b in bad if " torchvision::" in b]),
             total, len(ops), len(files), len(helper_ops), time.time() - t0))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
