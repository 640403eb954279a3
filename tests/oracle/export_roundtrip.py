#!/usr/bin/python3
"""dispatchtool-export round trip against the live torch of this interpreter.

    export_roundtrip.py --tool build/dispatchtool --workdir DIR [--import MODULE] [--via cli|api]

1. Exports this interpreter's torch into DIR/export with dispatchtool-export,
   in a child process: --via cli runs the script (tools/dispatchtool-export,
   with --import MODULE); --via api imports MODULE and calls
   dispatchtool_export.export() from a script of its own, as a user would.
2. Imports MODULE here too (the same registrations, made the same way), and
   compares, for every operator the live dispatcher knows,
       TOOL table --raw --all --profile DIR/export          == _dispatch_dump_table
       TOOL registrations --raw --all --profile DIR/export  == _dispatch_dump
   (tests/oracle/library_oracle.py's comparison), after checking that the
   export's MANIFEST lists exactly those operators and, with MODULE, that the
   extension's operators, its kernel on aten::add.Tensor and its backend
   fallback are really there (the round trip is not vacuous).
3. Times `TOOL table --op aten::add.Tensor --profile DIR/export` (the library
   is loaded from TOML at run time), informational.

Exit 0 iff everything matched, 1 otherwise, 77 when torch is not importable
(the ctest wiring turns that into a failure where torch must be there).
"""

import argparse
import importlib
import os
import shutil
import subprocess
import sys
import time
from types import SimpleNamespace

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
TOOLS = os.path.join(ROOT, "tools")
sys.path.insert(0, HERE)

import library_oracle  # noqa: E402


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tool", required=True)
    ap.add_argument("--workdir", required=True)
    ap.add_argument("--import", dest="module", help="a module registering extension operators (on sys.path "
                    "or in tests/oracle)")
    ap.add_argument("--via", choices=("cli", "api"), default="cli")
    args = ap.parse_args(argv)
    try:
        import torch
    except Exception:  # noqa: BLE001
        print("SKIP: torch not importable (install python3-torch)")
        return library_oracle.SKIP
    C = torch._C
    os.makedirs(args.workdir, exist_ok=True)
    out = os.path.join(args.workdir, "export")
    shutil.rmtree(out, ignore_errors=True)      # a fresh export every run
    ok = True

    def check(cond, what):
        nonlocal ok
        print("export_roundtrip: %s: %s" % ("ok" if cond else "FAILED", what))
        ok = ok and bool(cond)
        return cond

    # 1. the export, in its own process
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [HERE, os.environ.get("PYTHONPATH")])))
    if args.via == "cli":
        cmd = [sys.executable, os.path.join(TOOLS, "dispatchtool-export"), out]
        if args.module:
            cmd += ["--import", args.module]
    else:
        script = ("import sys\nsys.path.insert(0, %r)\n%s"
                  "import dispatchtool_export\ndispatchtool_export.export(%r)\n"
                  % (TOOLS, "import %s\n" % args.module if args.module else "", out))
        cmd = [sys.executable, "-c", script]
    t0 = time.perf_counter()
    p = subprocess.run(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=600)
    seconds = time.perf_counter() - t0
    err = p.stderr.decode("utf-8", "replace")
    summary = [ln for ln in err.splitlines() if ln.startswith("dispatchtool-export")]
    if not check(p.returncode == 0, "dispatchtool-export via %s: status %d in %.1fs: %s"
                 % (args.via, p.returncode, seconds, summary[-1] if summary else err[-800:])):
        return 1

    # The C++ prelude: written where torch's headers and a C++ compiler are at
    # hand (the torch-2.14 chroot has g++, torch-2.6's has none), equal to the
    # built-in one of that release; otherwise a note says why it is not.
    prelude = os.path.join(out, "cpp_prelude.h")
    sys.path.insert(0, TOOLS)
    import dispatchtool_export
    inc, cxx = dispatchtool_export.prelude_tools(torch)
    if inc and cxx:
        defines = lambda path: [ln for ln in open(path, encoding="utf-8") if ln.startswith("#define ")]  # noqa: E731
        builtin = os.path.join(os.path.dirname(TOOLS), "configs", "cpp",
                               "torch-%s.h" % ".".join(torch.__version__.split(".")[:2]))
        if check(os.path.isfile(prelude), "cpp_prelude.h written (headers in %s, %s)" % (inc, cxx)) and \
                os.path.isfile(builtin):
            check(defines(prelude) == defines(builtin), "cpp_prelude.h defines what %s does" % builtin)
    else:
        check(not os.path.exists(prelude) and "no cpp_prelude.h" in err,
              "no C++ headers or compiler here: no cpp_prelude.h, and a note says so")

    # 2. the same registrations here, then the comparison
    if args.module:
        ext = importlib.import_module(args.module)
    names = sorted(set(C._dispatch_get_registrations_for_dispatch_key("")),
                   key=lambda n: n.encode("utf-8", "surrogateescape"))
    with open(os.path.join(out, "library", "MANIFEST"), encoding="utf-8", errors="surrogateescape") as f:
        manifest = f.read().splitlines()
    check(manifest == names, "MANIFEST lists the %d live operators (it lists %d)" % (len(names), len(manifest)))
    if args.module:
        ops = getattr(ext, "OPERATORS", [])
        check(ops and all(n in manifest for n in ops), "the extension's operators %s are exported" % ops)
        check("PrivateUse1: registered at" in C._dispatch_dump("aten::add.Tensor"),
              "the extension's kernel is in the live aten::add.Tensor")
        with open(os.path.join(out, "profile.toml"), encoding="utf-8") as f:
            check('\n[[fallback]]\nkey = "PrivateUse1"\nfallthrough = true\n' in f.read(),
                  "the extension's PrivateUse1 fallback is in the exported profile")
    t0 = time.perf_counter()
    oargs = SimpleNamespace(tool=args.tool, profile=out)
    check(library_oracle.check_all(oargs, names, "table", {n: C._dispatch_dump_table(n) for n in names}),
          "table --raw --all --profile DIR == _dispatch_dump_table, every operator")
    check(library_oracle.check_all(oargs, names, "registrations", {n: C._dispatch_dump(n) for n in names}),
          "registrations --raw --all --profile DIR == _dispatch_dump, every operator")
    compare_s = time.perf_counter() - t0

    # 3. one operator's table from the exported profile (library parsed from TOML)
    times = []
    for _ in range(3):
        t0 = time.perf_counter()
        rc, got, _e = library_oracle.run([args.tool, "table", "--raw", "--profile", out, "--op", "aten::add.Tensor"])
        times.append(time.perf_counter() - t0)
    check(rc == 0 and got == "### aten::add.Tensor\n" + C._dispatch_dump_table("aten::add.Tensor"),
          "table --op aten::add.Tensor --profile DIR, best of 3: %.2fs" % min(times))
    print("export_roundtrip: torch %s, %d operators: export %.1fs, comparison %.1fs; %s"
          % (torch.__version__, len(names), seconds, compare_s, "passed" if ok else "FAILED"))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
