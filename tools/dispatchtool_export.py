"""dispatchtool-export: export the PyTorch of this Python process -- any
release, a CUDA build, a nightly, with your extensions loaded -- as a profile
directory that `dispatchtool --profile DIR` loads.

    dispatchtool-export OUTDIR [--name NAME] [--import MODULE ...] [--ops-per-file N]

writes

    OUTDIR/profile.toml         the dispatch-key profile (what tools/gen_profile.py
                                derives, with all its cross-checks against the live
                                dispatcher)
    OUTDIR/library/*.toml       every operator the dispatcher knows, with every kernel
    OUTDIR/library/MANIFEST     (what tools/export_corpus.py exports; lossless)

From your own script, after importing what registers your operators:

    import my_extension
    import dispatchtool_export          # PYTHONPATH=$(dispatchtool-export --module-path)
    dispatchtool_export.export("my-torch")

Nothing is written unless every cross-check passes and every _dispatch_dump
rebuilt from the written TOML equals the live one (--no-verify skips the
latter). This module is the one implementation; tools/gen_profile.py and
tools/export_corpus.py are the modules it imports (installed beside it, in
share/dispatchtool/python).
"""

import argparse
import importlib
import importlib.util
import os
import shutil
import sys
import time
from typing import Optional, Sequence

HERE = os.path.dirname(os.path.abspath(__file__))
if HERE not in sys.path:
    sys.path.insert(0, HERE)

import export_corpus  # noqa: E402
import gen_profile  # noqa: E402

PROG = "dispatchtool-export"
PROFILE_FILE = "profile.toml"
LIBRARY_DIR = "library"


class ExportFailed(Exception):
    """The export could not be made; nothing (or nothing new) was written."""


def default_name(version: str) -> str:
    """The profile's default name: torch-<torch.__version__> ("torch-2.4.0+cu121"),
    which no built-in profile (torch-MAJOR.MINOR) is."""
    return "torch-" + version


def _check_outdir(outdir: str) -> None:
    """OUTDIR may be missing, empty, or an earlier export (which is replaced)."""
    if os.path.lexists(outdir) and not os.path.isdir(outdir):
        raise ExportFailed("%s exists and is not a directory" % outdir)
    if os.path.isdir(outdir):
        entries = set(os.listdir(outdir))
        if entries and PROFILE_FILE not in entries:
            raise ExportFailed("%s is not empty and holds no %s (not an earlier export): refusing to write into it"
                               % (outdir, PROFILE_FILE))
        unexpected = entries - {PROFILE_FILE, LIBRARY_DIR}
        if unexpected:
            raise ExportFailed("%s holds files an export does not write (%s): refusing to replace it"
                               % (outdir, ", ".join(sorted(unexpected)[:5])))


def export(outdir: str, name: Optional[str] = None, ops_per_file: int = 200, imports: Sequence[str] = (),
           verify: bool = True, log=sys.stderr) -> dict:
    """Export the torch of this process to `outdir` (see the module's doc).
    `imports` are imported first. Returns a summary dict (name, operators,
    kernels, files, checks, seconds, profile path); raises ExportFailed."""
    t0 = time.perf_counter()
    if ops_per_file < 1:
        raise ExportFailed("--ops-per-file must be positive")
    for m in imports:
        try:
            importlib.import_module(m)
        except Exception as e:       # noqa: BLE001 - whatever the user's module raises
            raise ExportFailed("cannot import %s: %s: %s" % (m, type(e).__name__, e)) from None
    try:
        import torch
    except Exception as e:           # noqa: BLE001
        raise ExportFailed("cannot import torch: %s" % e) from None
    _check_outdir(outdir)
    name = name or default_name(torch.__version__)
    source = "torch %s (%s)" % (torch.__version__, os.path.dirname(torch.__file__))

    # The operators first: the profile's probes register (and drop) operators
    # and fallbacks of their own.
    try:
        ops, dumps, _extra = export_corpus.collect(torch, warn_always=True)
    except export_corpus.ExportError as e:
        raise ExportFailed(str(e)) from None
    header_dir = os.path.join(os.path.dirname(torch.__file__), "include", "c10", "core")
    if not os.path.isfile(os.path.join(header_dir, "DispatchKey.h")):
        raise ExportFailed("torch's C++ headers are not installed (no %s/DispatchKey.h): the profile's key layout "
                           "is read from them (pip wheels ship them; on Debian install libtorch-dev)" % header_dir)
    try:
        text, fails = gen_profile.profile_text(torch, name, LIBRARY_DIR, generator=PROG, prog=PROG)
    except SystemExit as e:          # the header parsers' "header: ... not found"
        raise ExportFailed("cannot derive the profile: %s" % e) from None
    if text is None:
        hint = ""
        if any(f.startswith("override warning") for f in fails.items):
            hint = (" (torch 2.x warns about an overridden kernel once per process: if your code overrode a "
                    "kernel before the export, export before that, e.g. with --import in a fresh process)")
        raise ExportFailed("%d of the profile's cross-checks against the live dispatcher failed (listed above); "
                           "nothing written%s" % (len(fails.items), hint))

    if verify and importlib.util.find_spec("tomllib") is None:
        verify = False
        if log is not None:
            print("%s: note: Python %d.%d has no tomllib: the written files are not read back and checked "
                  "(Python 3.11 or later checks them)" % ((PROG,) + sys.version_info[:2]), file=log)
    os.makedirs(outdir, exist_ok=True)
    library = os.path.join(outdir, LIBRARY_DIR)
    profile = os.path.join(outdir, PROFILE_FILE)
    tmp_profile = profile + ".tmp"
    try:
        paths, size = export_corpus.write_corpus(library, ops, ops_per_file, source, generator=PROG)
        with open(tmp_profile, "w", encoding="utf-8", newline="\n") as f:
            f.write(text)
        if verify:
            bad = export_corpus.verify(paths, dumps, tmp_profile, {op.name: op.tags for op in ops})
            if bad:
                raise ExportFailed("%d of %d operators' _dispatch_dump rebuilt from the written TOML differ from the "
                                   "live ones, e.g. %s" % (len(bad), len(ops), ", ".join(bad[:3])))
        os.replace(tmp_profile, profile)
    except BaseException:
        # Leave no half export that --profile would load.
        for p in (tmp_profile, profile):
            if os.path.exists(p):
                os.remove(p)
        raise
    n_kernels = sum(len(lst) for op in ops for lst in op.kernels.values())
    r = {"name": name, "torch_version": torch.__version__, "profile": profile, "library": library,
         "operators": len(ops), "kernels": n_kernels, "files": len(paths), "bytes": size,
         "checks": fails.passed, "verified": verify, "seconds": time.perf_counter() - t0}
    if log is not None:
        print("%s: torch %s: %d operators, %d kernels in %d files (%d bytes), %d profile cross-checks passed%s; "
              "wrote %s (%.1fs)" % (PROG, r["torch_version"], r["operators"], r["kernels"], r["files"], size,
                                     r["checks"], ", every dump rebuilt from the files" if verify else "",
                                     outdir, r["seconds"]), file=log)
    return r


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(
        prog=PROG, description=__doc__.split("\n\n")[0].replace("\n", " "),
        epilog="Then: dispatchtool table --profile OUTDIR --op aten::add.Tensor (see man dispatchtool-export).")
    ap.add_argument("outdir", nargs="?", help="directory to write (missing, empty, or an earlier export)")
    ap.add_argument("--name", help="the profile's name (default: torch-<torch.__version__>)")
    ap.add_argument("--import", dest="imports", action="extend", nargs="+", default=[], metavar="MODULE",
                    help="import MODULE first (your extension: its operators, kernels and fallbacks are exported too; "
                    "searched on sys.path and in the current directory)")
    ap.add_argument("--ops-per-file", type=int, default=200, metavar="N",
                    help="at most N operators per library file (default: %(default)s)")
    ap.add_argument("--no-verify", action="store_true",
                    help="skip rebuilding every _dispatch_dump from the written files")
    ap.add_argument("--module-path", action="store_true",
                    help="print the directory holding the dispatchtool_export module (for PYTHONPATH) and exit")
    args = ap.parse_args(argv)
    if args.module_path:
        print(HERE)
        return 0
    if not args.outdir:
        ap.error("OUTDIR is required")
    # --import finds modules of the current directory too, as `python3 -m` and `-c` would.
    if os.getcwd() not in sys.path:
        sys.path.append(os.getcwd())
    try:
        export(args.outdir, args.name, args.ops_per_file, args.imports, verify=not args.no_verify)
    except ExportFailed as e:
        print("%s: error: %s" % (PROG, e), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
