#!/usr/bin/python3
"""The C++ reader against C++ extensions compiled for real.

    tools/oracle-env python torch-2.14 tests/oracle/cpp_reader_oracle.py \
        --tool build/dispatchtool --profile torch-2.14 --workdir build/oracle/cpp-reader-2.14 \
        tests/oracle/cpp_ext/forms.cpp ...

Run from the repository root, in the release's chroot (which has
libtorch-dev and, installed by `tools/oracle-env ensure`, g++). Each source
is compiled with the path given on the command line (so that __FILE__, and
with it every "registered at FILE:LINE", is the path dispatchtool is given)
into WORKDIR/NAME.so, reused while the source, the compile command and the
torch headers' version are unchanged. Every library is loaded into the real
torch (torch.ops.load_library); then for every operator of the extensions'
namespaces, and for the operators of PyTorch's own that they register
kernels to,

    TOOL registrations --raw --all --profile P SOURCES...  == _dispatch_dump(op)
    TOOL table --raw --all --profile P SOURCES...          == _dispatch_dump_table(op)

byte for byte, and the tool reads the sources without a warning. Exit 0
iff everything matched. Without torch, the chroot or g++ it fails: never
skipped.

Real-world extensions (tests/realworld/sources.py): `--tree DIR` runs in
that source tree (SOURCES relative to it); `A.cpp+B.cpp` compiles several
sources into one library (the tool reads each of them); `--python-ext`
compiles them as PyTorch's cpp_extension does for a Python extension
(Python's and the source folder's headers, TORCH_EXTENSION_NAME, libtorch_python).
`--define NAME[=VALUE]` is given to g++ and to the tool as -D, `--undefine
NAME` as -U (the preprocessor's conditions and the project's macros, read by
both alike; a condition on a name neither defines nor undefines is a warning);
`--namespace NS` and `--op OP` add operators to compare that the sources'
text does not name (registered behind macros, PyTorch's own under autocast).
A SOURCE.py is not compiled: it is imported once the libraries are loaded
(a Python ops module registering fakes, autograd formulas and kernels on the
extension's operators), and the tool reads it with the C++ sources.
`--unknown-signature OP` names an operator whose kernel is a function declared
outside the sources (in PyTorch's headers): the tool cannot infer its schema,
warns about that impl, and prints "(none)" where _dispatch_dump prints the
inferred schema; exactly that difference is accepted, nothing else.
"""

import argparse
import hashlib
import os
import re
import shutil
import subprocess
import sys
import time

FLAGS = ["-std=c++20", "-O0", "-g0", "-fPIC", "-shared", "-w", "-Wno-template-body",
         "-I/usr/include/torch/csrc/api/include"]
LIBS = ["-ltorch", "-ltorch_cpu", "-lc10"]


from torch_library_oracle import require_torch, sections  # noqa: E402  ("### NAME" sections of a dump)
from recording import Recorder, real_dumps  # noqa: E402


def python_flags(name, srcs):
    import sysconfig
    incs = sorted({os.path.dirname(s) or "." for s in srcs})
    return (["-I" + sysconfig.get_paths()["include"], "-DTORCH_EXTENSION_NAME=" + name]
            + ["-I" + d for d in incs], ["-ltorch_python"])


def torch_flags(torch, cuda):
    """Compile and link flags for torch's headers and libraries: Debian's libtorch-dev (the chroots), else the
    torch package's own (a pip wheel, CUDA's included, as torch.utils.cpp_extension builds against it)."""
    if os.path.isdir("/usr/include/torch") and not cuda:
        return ["-I/usr/include/torch/csrc/api/include"], LIBS
    from torch.utils import cpp_extension
    try:
        incs = cpp_extension.include_paths(device_type="cuda" if cuda else "cpu")
        libdirs = cpp_extension.library_paths(device_type="cuda" if cuda else "cpu")
    except TypeError:  # before torch 2.7: include_paths(cuda=...)
        incs, libdirs = cpp_extension.include_paths(cuda=cuda), cpp_extension.library_paths(cuda=cuda)
    abi = "-D_GLIBCXX_USE_CXX11_ABI=%d" % int(torch._C._GLIBCXX_USE_CXX11_ABI)
    libs = ["-L" + d for d in libdirs] + LIBS + (["-ltorch_cuda", "-lc10_cuda"] if cuda else [])
    return ["-I" + d for d in incs] + [abi], libs


def compile_ext(group, workdir, torch, python_ext=False, defines=()):
    srcs = group.split("+")
    cuda = any(s.endswith(".cu") for s in srcs)
    cxx = shutil.which("nvcc" if cuda else "g++")
    if cxx is None:
        raise SystemExit("cpp_reader_oracle: FAIL: no %s in this environment (the chroot's g++ is installed by "
                         "`tools/oracle-env ensure`; on an existing chroot: chroot DIR apt-get install g++; .cu "
                         "sources need CUDA's nvcc)" % ("nvcc" if cuda else "g++"))
    name = os.path.splitext(os.path.basename(srcs[0]))[0]
    so = os.path.join(workdir, name + ".so")
    flags, libs = python_flags(name, srcs) if python_ext else ([], [])
    tflags, tlibs = torch_flags(torch, cuda)
    base = (["-std=c++17", "-O0", "-shared", "-w", "-Xcompiler", "-fPIC", "--expt-relaxed-constexpr"] if cuda
            else FLAGS[:-1])
    cmd = [cxx] + base + tflags + list(defines) + flags + srcs + ["-o", so] + tlibs + libs
    torch_version = torch.__version__
    h = hashlib.sha256(repr(cmd).encode() + torch_version.encode())
    for src in srcs:
        with open(src, "rb") as f:
            h.update(f.read())
    key = h.hexdigest()
    stamp = so + ".key"
    if os.path.exists(so) and os.path.exists(stamp) and open(stamp).read() == key:
        return so, 0.0
    t0 = time.time()
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    if p.returncode != 0:
        raise SystemExit("cpp_reader_oracle: FAIL: %s does not compile:\n%s" % (group, p.stdout.decode()[-4000:]))
    with open(stamp, "w") as f:
        f.write(key)
    return so, time.time() - t0


def only_unknown_signatures(exp, mine):
    """exp and mine differ only in kernel lines where the tool printed ':: (none)' for an inferred schema."""
    a, b = (exp or "").splitlines(), (mine or "").splitlines()
    if len(a) != len(b):
        return False
    for x, y in zip(a, b):
        if x == y:
            continue
        m = re.match(r"^(.*? registered at [^ ]+) :: \(none\) (\[.*\])$", y)
        if not m or not (x.startswith(m.group(1) + " :: (") and x.endswith(" " + m.group(2))):
            return False
    return True


def registered_ops(torch, source_texts, namespaces=(), extra_ops=()):
    """The operators the sources name: their own namespaces' and PyTorch's ones they add kernels to."""
    spaces = set(namespaces)
    for text in source_texts:
        spaces |= set(re.findall(r"TORCH_LIBRARY(?:_FRAGMENT)?\(\s*(\w+)\s*,", text))
    ops = sorted(n for n in torch._C._dispatch_get_all_op_names() if n.split("::")[0] in spaces)
    for text in source_texts:
        for ns, body in re.findall(r"TORCH_LIBRARY_IMPL\(\s*(\w+)\s*,[^{]*\{(.*?)\n\}", text, re.S):
            if ns in spaces or ns == "_":
                continue
            ops += ["%s::%s" % (ns, n) for n in re.findall(r"m\.impl\(\"([\w.]+)\"", body)]
    for text in source_texts:
        spaces |= set(re.findall(r"\"(\w+)::\w+", text)) - {"aten"}
    ops += sorted(n for n in torch._C._dispatch_get_all_op_names() if n.split("::")[0] in spaces)
    return sorted(set(ops) | set(extra_ops))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tool", required=True)
    ap.add_argument("--profile", required=True)
    ap.add_argument("--workdir", required=True)
    ap.add_argument("--tree", help="run in this source tree (SOURCES are relative to it)")
    ap.add_argument("--python-ext", action="store_true",
                    help="compile as a Python extension (Python headers, TORCH_EXTENSION_NAME, -ltorch_python)")
    ap.add_argument("--unknown-signature", action="append", default=[], metavar="OP",
                    help="an operator whose kernel's C++ declaration is not in the sources (see above)")
    ap.add_argument("--define", action="append", default=[], metavar="NAME[=VALUE]",
                    help="a macro for g++ and the tool alike (-D)")
    ap.add_argument("--undefine", action="append", default=[], metavar="NAME",
                    help="a macro undefined for g++ and the tool alike (-U): the build says it is not defined")
    ap.add_argument("--namespace", action="append", default=[], help="compare this namespace's operators too")
    ap.add_argument("--op", action="append", default=[], help="compare this operator too")
    ap.add_argument("--record", metavar="FILE", help="also write what torch dumped (tests/oracle/recording.py)")
    ap.add_argument("sources", nargs="+", help="SOURCE.cpp, or A.cpp+B.cpp compiled into one library")
    args = ap.parse_args()
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    args.workdir = os.path.abspath(args.workdir)
    if args.tree:
        if not os.path.isdir(args.tree):
            print("cpp_reader_oracle: FAIL: no source tree %s (tests/realworld/sources.py extracts it)" % args.tree)
            return 1
        os.chdir(args.tree)
    # A .py source is imported (after the libraries are loaded), not compiled: a
    # Python ops module registering on the extension's operators.
    pys = [s for s in args.sources if s.endswith(".py")]
    groups = [g for g in args.sources if not g.endswith(".py")]
    args.sources = [s for g in groups for s in g.split("+")] + pys
    torch = require_torch("cpp_reader_oracle", args.profile)
    if torch is None:
        return 1
    os.makedirs(args.workdir, exist_ok=True)
    macro_flags = ["-D" + d for d in args.define] + ["-U" + u for u in args.undefine]
    t0 = time.time()
    texts = []
    # Compiled in parallel (a Python extension takes 40-90 s of g++ each), loaded in the given order.
    from concurrent.futures import ThreadPoolExecutor
    with ThreadPoolExecutor(max_workers=os.cpu_count() or 1) as pool:
        built = list(pool.map(lambda g: compile_ext(g, args.workdir, torch, args.python_ext, macro_flags), groups))
    for group, (so, secs) in zip(groups, built):
        if secs:
            print("compiled %s in %.1f s" % (group, secs))
        torch.ops.load_library(so)
    import importlib.util
    for k, py in enumerate(pys):
        spec = importlib.util.spec_from_file_location("cpp_reader_py%d" % k, py)
        spec.loader.exec_module(importlib.util.module_from_spec(spec))
    for src in args.sources:
        if src.endswith(".py"):
            continue
        with open(src, encoding="utf-8") as f:
            texts.append(f.read())
    ops = registered_ops(torch, texts, args.namespace, args.op)
    rec = Recorder(args.record, "cpp_reader_oracle", torch.__version__,
                   {"root": root, "work": args.workdir, "tree": args.tree and os.path.abspath(".")})
    rec.call(macro_flags + ["--"] + args.sources, ".")
    rec.data["unknown_signature"] = sorted(args.unknown_signature)
    dumps = real_dumps(torch, ops)
    rec.dumps(dumps)
    rec.write()
    bad, total, accepted = [], 0, 0
    got = {}
    for what in ["registrations", "table"]:
        p = subprocess.run([args.tool, what, "--raw", "--all", "--profile", args.profile]
                           + macro_flags + ["--"] + args.sources,
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=300)
        err = p.stderr.decode("utf-8", "replace")
        if p.returncode != 0:
            bad.append("%s --all: exit %d: %s" % (what, p.returncode, err.strip()[:3000]))
            continue
        # The override warning real torch prints too (a kernel of its own replaced) is not a reading failure.
        allowed = ['m.impl("%s"' % op.split("::")[1] for op in args.unknown_signature] + [
            "other operators may also be overridden", "Overriding a previously registered kernel"]
        warned = [w for w in err.splitlines() if "warning:" in w and not any(a in w for a in allowed)]
        if warned:
            bad.append("%s: the reader warned:\n%s" % (what, "\n".join(warned)[:3000]))
        got[what] = sections(p.stdout.decode("utf-8", "replace"))
    for name in ops:
        for what in ["registrations", "table"]:
            if what not in got:
                continue
            total += 1
            exp = dumps[what][name]
            mine = got[what].get(name)
            if mine != exp and what == "registrations" and name in args.unknown_signature \
                    and only_unknown_signatures(exp, mine):
                accepted += 1
            elif mine != exp:
                bad.append("%s %s:\n--- torch\n%s--- dispatchtool\n%s" % (what, name, exp, mine))
    forms = sum(len(re.findall(r"\bm\.(?:def|impl|fallback)\(", t)) for t in texts)
    blocks = sum(len(re.findall(r"^(?:STABLE_)?TORCH_LIBRARY\w*\(", t, re.M)) for t in texts)
    print("cpp_reader_oracle (%s): %d sources, %d blocks, %d registration statements, %d operators: "
          "%d/%d dumps equal%s (%.1f s)" % (args.profile, len(args.sources), blocks, forms, len(ops),
                                           total - len(bad), total,
                                           " (%d of them equal but for an inferred schema the tool cannot know: "
                                           "--unknown-signature)" % accepted if accepted else "",
                                           time.time() - t0))
    for b in bad[:20]:
        print("MISMATCH " + b)
    if not ops:
        print("cpp_reader_oracle: FAIL: no operator found")
        return 1
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
