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
latter). The export is written into a fresh temporary directory beside
OUTDIR and renamed into place once complete: nothing inside an existing
OUTDIR is written or followed (a link there is never a way out), and a failed
export leaves a previous one exactly as it was. The command imports nothing
from the current directory (a local tqdm.py is not torch's) unless given
--import-from-cwd. This module is the one implementation;
tools/gen_profile.py and tools/export_corpus.py are the modules it imports
(installed beside it, in share/dispatchtool/python).
"""

import argparse
import importlib
import importlib.util
import os
import shutil
import sys
import tempfile
import time
from typing import Optional, Sequence

HERE = os.path.dirname(os.path.abspath(__file__))
if HERE not in sys.path:
    sys.path.insert(0, HERE)

import export_corpus  # noqa: E402
import gen_cpp_prelude  # noqa: E402
import gen_profile  # noqa: E402

PROG = "dispatchtool-export"
PROFILE_FILE = "profile.toml"
PRELUDE_FILE = "cpp_prelude.h"
LIBRARY_DIR = "library"


class ExportFailed(Exception):
    """The export could not be made; nothing (or nothing new) was written."""


def default_name(version: str) -> str:
    """The profile's default name: torch-<torch.__version__> ("torch-2.4.0+cu121"),
    which no built-in profile (torch-MAJOR.MINOR) is."""
    return "torch-" + version


def _check_outdir(outdir: str) -> None:
    """OUTDIR may be missing, empty, or an earlier export (which is replaced)."""
    if os.path.islink(outdir):
        raise ExportFailed("%s is a symbolic link: refusing to replace it (give the directory it names)" % outdir)
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


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def _install(staging: str, outdir: str) -> None:
    """Renames the complete export `staging` to `outdir`: over a missing or empty
    directory at once; an earlier export is moved aside first and removed once
    the new one is in place (its contents are never followed: rmtree removes a
    link, not what it names)."""
    os.chmod(staging, 0o777 & ~_umask())  # mkdtemp made it 0700
    if not (os.path.isdir(outdir) and os.listdir(outdir)):
        os.replace(staging, outdir)
        return
    old = tempfile.mkdtemp(prefix="." + os.path.basename(outdir) + ".old-", dir=os.path.dirname(outdir))
    os.rmdir(old)
    os.rename(outdir, old)
    try:
        os.rename(staging, outdir)
    except BaseException:
        os.rename(old, outdir)
        raise
    shutil.rmtree(old, ignore_errors=True)


def prelude_tools(torch):
    """(include directory, C++ compiler) the prelude is made with, each None
    when missing: the package's own headers (pip wheels ship them), or, for
    Debian's python3-torch, /usr/include (libtorch-dev) -- never another
    torch's headers; $CXX, g++, c++ or clang++."""
    here = os.path.dirname(os.path.abspath(torch.__file__))
    debian = here.startswith("/usr/lib/python3/")
    inc = next((d for d in [os.path.join(here, "include")] + (["/usr/include"] if debian else [])
                if os.path.isfile(os.path.join(d, "torch", "library.h"))), None)
    cxx = os.environ.get("CXX") or shutil.which("g++") or shutil.which("c++") or shutil.which("clang++")
    return inc, cxx


def cpp_prelude(torch, name):
    """(text of cpp_prelude.h, None), or (None, why not): PyTorch's registration
    macros (TORCH_LIBRARY*, autocast's KERNEL*, ...) as this torch's headers
    define them, for the C++ reader (tools/gen_cpp_prelude.py)."""
    inc, cxx = prelude_tools(torch)
    if not inc:
        return None, ("torch's C++ headers (torch/library.h) are not installed: no %s, so the C++ reader will warn "
                      "at PyTorch's own registration macros (KERNEL_*, ...) under this profile" % PRELUDE_FILE)
    if not cxx:
        return None, ("no C++ compiler (g++, c++, clang++ or $CXX) to read torch's registration macros from %s: "
                      "no %s, so the C++ reader will warn at them (KERNEL_*, ...) under this profile"
                      % (inc, PRELUDE_FILE))
    try:
        return gen_cpp_prelude.prelude_text(inc, torch.__version__, name, cxx)[0], None
    except (RuntimeError, OSError) as e:
        return None, "%s: no %s: %s" % (inc, PRELUDE_FILE, str(e)[:500])


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

    prelude, prelude_note = cpp_prelude(torch, name)
    if prelude_note and log is not None:
        print("%s: note: %s" % (PROG, prelude_note), file=log)

    if verify and importlib.util.find_spec("tomllib") is None:
        verify = False
        if log is not None:
            print("%s: note: Python %d.%d has no tomllib: the written files are not read back and checked "
                  "(Python 3.11 or later checks them)" % ((PROG,) + sys.version_info[:2]), file=log)
    # Everything goes to a fresh directory beside OUTDIR, renamed into place
    # once complete and verified: a failure leaves OUTDIR as it was.
    target = os.path.abspath(outdir)
    os.makedirs(os.path.dirname(target), exist_ok=True)
    staging = tempfile.mkdtemp(prefix="." + os.path.basename(target) + ".new-", dir=os.path.dirname(target))
    try:
        paths, size = export_corpus.write_corpus(os.path.join(staging, LIBRARY_DIR), ops, ops_per_file, source,
                                                 generator=PROG)
        with open(os.path.join(staging, PROFILE_FILE), "w", encoding="utf-8", newline="\n") as f:
            f.write(text)
        if prelude:
            with open(os.path.join(staging, PRELUDE_FILE), "w", encoding="utf-8", newline="\n") as f:
                f.write(prelude)
        if verify:
            bad = export_corpus.verify(paths, dumps, os.path.join(staging, PROFILE_FILE),
                                       {op.name: op.tags for op in ops})
            if bad:
                raise ExportFailed("%d of %d operators' _dispatch_dump rebuilt from the written TOML differ from the "
                                   "live ones, e.g. %s; nothing written" % (len(bad), len(ops), ", ".join(bad[:3])))
        _install(staging, target)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    library = os.path.join(outdir, LIBRARY_DIR)
    profile = os.path.join(outdir, PROFILE_FILE)
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
                    "searched on sys.path, the current directory only with --import-from-cwd)")
    ap.add_argument("--import-from-cwd", action="store_true",
                    help="let imports find modules in the current directory too (as python3 -m would); off by "
                    "default, so that a file there (a tqdm.py) is never imported and run in place of a library")
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
    # Nothing is imported from the current directory unless asked: `python3
    # -m`/`-c` put it first on sys.path, where a tqdm.py of the directory
    # would shadow the library torch imports.
    cwd = os.getcwd()
    sys.path[:] = [p for p in sys.path if p == HERE or (p not in ("", ".") and os.path.abspath(p) != cwd)]
    if args.import_from_cwd:
        sys.path.append(cwd)
    try:
        export(args.outdir, args.name, args.ops_per_file, args.imports, verify=not args.no_verify)
    except ExportFailed as e:
        print("%s: error: %s" % (PROG, e), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
