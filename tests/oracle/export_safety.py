#!/usr/bin/python3
"""dispatchtool-export never touches what it must not (issue 32):

- an OUTDIR/library that is a symbolic link (an earlier export's library
  replaced by a link to elsewhere) is never followed: nothing is written to or
  deleted from its target, and the new export replaces OUTDIR whole;
- a failed export (a dump that does not verify, a write that fails) leaves an
  earlier export byte for byte as it was, and no temporary directory behind;
- a successful one replaces the earlier export, leaving nothing else;
- an OUTDIR that is itself a symbolic link is refused;
- the command imports nothing from the current directory (a local tqdm.py,
  a module named by --import) unless --import-from-cwd, also when run as
  `python3 -c` (which puts the current directory first on sys.path).

The export's torch work is replaced by stand-ins (a fake torch module, a
corpus of two files, a profile text) so that this runs in a second without
torch; what is checked is the writing, which is the module's own.

    export_safety.py --workdir DIR
"""
import argparse
import os
import shutil
import subprocess
import sys
import types

HERE = os.path.dirname(os.path.abspath(__file__))
TOOLS = os.path.join(os.path.dirname(os.path.dirname(HERE)), "tools")
SCRIPT = os.path.join(TOOLS, "dispatchtool-export")
sys.path.insert(0, os.path.dirname(HERE))
sys.path.insert(0, TOOLS)
from checks import Checks  # noqa: E402


def tree(root):
    """{relative path: bytes or '-> target'} of everything below root, links not followed."""
    out = {}
    for d, dirs, files in os.walk(root):
        for n in dirs + files:
            p = os.path.join(d, n)
            rel = os.path.relpath(p, root)
            if os.path.islink(p):
                out[rel] = "-> " + os.readlink(p)
            elif os.path.isfile(p):
                with open(p, "rb") as f:
                    out[rel] = f.read()
    return out


class Op:
    def __init__(self, name):
        self.name, self.tags, self.kernels, self.namespace = name, [], {"CPU": ["k"]}, name.split("::")[0]


class Fails:
    items, passed = [], 3


def stand_ins(workdir, export_mod, verify_bad=(), write_error=None):
    """Replaces torch and the torch-facing steps of the export; returns the fake torch's directory."""
    torch_dir = os.path.join(workdir, "faketorch")
    os.makedirs(os.path.join(torch_dir, "include", "c10", "core"), exist_ok=True)
    open(os.path.join(torch_dir, "include", "c10", "core", "DispatchKey.h"), "w").close()
    torch = types.ModuleType("torch")
    torch.__version__ = "9.9.0"
    torch.__file__ = os.path.join(torch_dir, "__init__.py")
    sys.modules["torch"] = torch
    ec, gp = export_mod.export_corpus, export_mod.gen_profile
    ec.collect = lambda torch, warn_always=True: ([Op("myns::a"), Op("myns::b")], {"myns::a": "", "myns::b": ""}, None)
    gp.profile_text = lambda torch, name, lib, generator=None, prog=None: (
        'name = "%s"\n[operator_library]\npaths = ["%s"]\n' % (name, lib), Fails())

    def write_corpus(library, ops, n, source, generator=None):
        os.makedirs(library, exist_ok=True)
        paths = []
        for op in ops:
            p = os.path.join(library, op.name.replace("::", "-") + ".toml")
            with open(p, "w") as f:
                f.write("# new %s\n" % op.name)
            paths.append(p)
            if write_error:
                raise OSError(write_error)
        with open(os.path.join(library, "MANIFEST"), "w") as f:
            f.write("".join(op.name + "\n" for op in ops))
        return paths, 10
    ec.write_corpus = write_corpus
    export_mod.cpp_prelude = lambda torch, name: ("#define TORCH_FN(f) f\n", None)
    ec.verify = lambda paths, dumps, profile, tags=None: list(verify_bad)


def earlier_export(outdir):
    os.makedirs(os.path.join(outdir, "library"), exist_ok=True)
    with open(os.path.join(outdir, "profile.toml"), "w") as f:
        f.write('name = "old"\n')
    with open(os.path.join(outdir, "library", "old-000.toml"), "w") as f:
        f.write("# old\n")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--workdir", required=True)
    a = ap.parse_args()
    work = os.path.abspath(a.workdir)
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    checks = Checks()
    import dispatchtool_export as de

    def export(outdir, **kw):
        stand_ins(work, de, **kw)
        try:
            de.export(outdir, log=None)
            return None
        except (de.ExportFailed, OSError) as e:
            return e

    def leftovers(parent):
        return sorted(n for n in os.listdir(parent) if n.startswith("."))

    # A library link to elsewhere: never followed.
    out, elsewhere = os.path.join(work, "out"), os.path.join(work, "elsewhere")
    earlier_export(out)
    os.makedirs(elsewhere)
    with open(os.path.join(elsewhere, "aten-000.toml"), "w") as f:
        f.write("# precious\n")
    with open(os.path.join(elsewhere, "MANIFEST"), "w") as f:
        f.write("precious\n")
    shutil.rmtree(os.path.join(out, "library"))
    os.symlink(elsewhere, os.path.join(out, "library"))
    precious = tree(elsewhere)
    e = export(out)
    checks.check(e is None, f"an export over OUTDIR/library -> elsewhere succeeds: {e}")
    checks.check(tree(elsewhere) == precious, "nothing in the link's target is written or deleted")
    checks.check(not os.path.islink(os.path.join(out, "library")) and
                 sorted(os.listdir(os.path.join(out, "library"))) == ["MANIFEST", "myns-a.toml", "myns-b.toml"],
                 f"OUTDIR is the new export: {sorted(tree(out))}")
    checks.check(leftovers(work) == [], f"no temporary directory is left: {leftovers(work)}")

    # Failures leave the earlier export as it was.
    for label, kw in (("a dump that does not verify", {"verify_bad": ["myns::a"]}),
                      ("a write that fails", {"write_error": "No space left on device"})):
        out = os.path.join(work, "fail-" + label.split()[1])
        earlier_export(out)
        before = tree(out)
        e = export(out, **kw)
        checks.check(e is not None, f"{label}: the export fails")
        checks.check(tree(out) == before, f"{label}: the earlier export is as it was: {sorted(tree(out))}")
        checks.check(leftovers(work) == [], f"{label}: no temporary directory is left: {leftovers(work)}")

    # A missing OUTDIR, an empty one; OUTDIR a link is refused.
    for name, make in (("missing", None), ("empty", os.makedirs)):
        out = os.path.join(work, name)
        if make:
            make(out)
        e = export(out)
        checks.check(e is None and sorted(tree(out)) == ["cpp_prelude.h", "library/MANIFEST", "library/myns-a.toml",
                                                         "library/myns-b.toml", "profile.toml"],
                     f"{name} OUTDIR: written ({e})")
    os.symlink(elsewhere, os.path.join(work, "linked"))
    e = export(os.path.join(work, "linked"))
    checks.check(isinstance(e, de.ExportFailed) and "symbolic link" in str(e) and tree(elsewhere) == precious,
                 f"OUTDIR a symbolic link: refused, nothing written: {e}")

    # Nothing imported from the current directory unless asked.
    cwd = os.path.join(work, "cwd")
    os.makedirs(cwd)
    marker = os.path.join(work, "imported")
    for mod in ("tqdm", "probe_xyz"):
        with open(os.path.join(cwd, mod + ".py"), "w") as f:
            f.write("open(%r, 'a').write(%r)\nraise RuntimeError('probe')\n" % (marker, mod + "\n"))
    env = dict(os.environ)
    env.pop("PYTHONPATH", None)
    for label, cmd in (("the script", [sys.executable, SCRIPT]),
                       ("python3 -c", [sys.executable, "-c", "import sys; sys.path.insert(1, %r); "
                                       "import dispatchtool_export as d; sys.exit(d.main(sys.argv[1:]))" % TOOLS])):
        for mod in ("probe_xyz", "tqdm"):
            p = subprocess.run(cmd + [os.path.join(work, "x"), "--import", mod], cwd=cwd, env=env,
                               capture_output=True, text=True)
            checks.check(not os.path.exists(marker),
                         f"{label} --import {mod}: the current directory's {mod}.py is not imported "
                         f"(exit {p.returncode}: {p.stderr[-200:]})")
        p = subprocess.run(cmd + [os.path.join(work, "x"), "--import", "probe_xyz", "--import-from-cwd"], cwd=cwd,
                           env=env, capture_output=True, text=True)
        checks.check(p.returncode == 1 and "cannot import probe_xyz: RuntimeError" in p.stderr and
                     os.path.exists(marker), f"{label} --import-from-cwd imports it: {p.returncode} {p.stderr[-200:]}")
        if os.path.exists(marker):
            os.remove(marker)
    checks.check(not os.path.exists(os.path.join(work, "x")), "nothing written by the refused runs")
    return checks.finish()


if __name__ == "__main__":
    sys.exit(main())
