#!/usr/bin/python3
"""Export the real operator registrations of the installed torch as dispatchtool input.

    /usr/bin/python3 tools/export_corpus.py OUTDIR [--ops-per-file 200] [--verify] [--check]

Every operator the dispatcher knows (torch._C._dispatch_get_registrations_for_dispatch_key(''),
plus any operator of torch._C._jit_get_all_schemas() whose _dispatch_dump is
non-empty but which that list misses) is parsed from its `_dispatch_dump`
text and written, in the input format of ../shared/spec/input-format.md, to

    OUTDIR/<namespace>-NNN.toml   one FRAGMENT library per file, at most
                                  --ops-per-file operators, ops sorted byte-wise
    OUTDIR/MANIFEST               all operator names, sorted, one per line

Per operator: a [[def]] (schema, debug, alias_analysis unless FROM_SCHEMA, the
operator's tags as torch.ops.<ns>.<name>.<overload>.tags gives them) and
one [[impl]] per kernel line of the dump, older (inactive) kernels of a key
first, so that loading the files in order recreates the same kernel lists.

Every parsed dump is rendered back and compared with the original text before
anything is written (the parse is lossless or the export fails). --verify
additionally reads the written files back with tomllib, rebuilds every
`_dispatch_dump` from the TOML alone and compares it with the live torch.
--check exports into a temporary directory and compares it byte for byte with
OUTDIR (a committed export, e.g. configs/library/torch-1.13, is what the
installed torch exports today), writing nothing.

Importable: diff_corpus.py uses collect(), write_corpus(), read_corpus() and
render_dump(); dispatchtool-export (tools/dispatchtool_export.py) collect(),
write_corpus() and verify().
"""

import argparse
import os
import re
import sys
import time
from dataclasses import dataclass, field
from typing import Dict, List, Optional, Sequence, Tuple

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import tomlstr  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
DEFAULT_PROFILE = os.path.join(ROOT, "configs", "profiles", "torch-1.13.toml")

STATES = {"boxed unboxed ": (False, False), "boxed ": (True, False), "fallthrough boxed ": (False, True)}
DEFAULT_ALIAS_KIND = "FROM_SCHEMA"

_KERNEL_RE = re.compile(r"(?P<key>\w+)(?P<alias>\[alias\])?(?P<inactive> \(inactive\))?: "
                        r"(?P<debug>.*) :: (?P<sig>.*) \[ (?P<state>(?:fallthrough )?(?:boxed )?(?:unboxed )?)\]")


class ExportError(Exception):
    pass


@dataclass
class Kernel:
    key: str                 # as printed, without "[alias]"
    debug: str
    signature: Optional[str]  # None for "(none)"
    boxed_only: bool = False
    fallthrough: bool = False


@dataclass
class Op:
    name: str
    schema: Optional[str] = None      # None: dangling (schema: (none))
    debug: str = ""
    alias_kind: str = DEFAULT_ALIAS_KIND
    # key -> kernels, newest first (dump order); keys in dump (enum) order
    kernels: Dict[str, List[Kernel]] = field(default_factory=dict)
    alias_keys: set = field(default_factory=set)
    tags: List[str] = field(default_factory=list)   # Tag enum names, in the order torch gives them
    # The kernel torch's override warning names as "previous kernel" (its first
    # typed kernel, OperatorEntry::cpp_signature_), when it could be observed.
    previous_kernel: Optional[str] = None

    @property
    def namespace(self) -> str:
        return self.name.split("::", 1)[0] if "::" in self.name else ""


def toml_str(s: str) -> str:
    """TOML basic string; the export must be lossless, so a lone surrogate is an error."""
    try:
        return tomlstr.toml_str(s, strict=True)
    except ValueError as e:
        raise ExportError(str(e)) from None


# ---------------------------------------------------------------------------
# _dispatch_dump  <->  Op
# ---------------------------------------------------------------------------

def kernel_line(key: str, is_alias: bool, inactive: bool, k: Kernel) -> str:
    state = "fallthrough boxed " if k.fallthrough else ("boxed " if k.boxed_only else "boxed unboxed ")
    return "%s%s%s: %s :: %s [ %s]\n" % (key, "[alias]" if is_alias else "",
                                         " (inactive)" if inactive else "", k.debug,
                                         k.signature if k.signature is not None else "(none)", state)


def render_dump(op: Op, key_order: Optional[Sequence[str]] = None) -> str:
    """_dispatch_dump text of `op`.  Kernel lines in `key_order` (enum order) if
    given, else in the order of op.kernels."""
    out = ["name: %s\n" % op.name]
    if op.schema is None:
        out.append("schema: (none)\n")
    else:
        out.append("schema: %s\n" % op.schema)
        out.append("debug: %s\n" % op.debug)
        out.append("alias analysis kind: %s\n" % op.alias_kind)
    keys = list(op.kernels) if key_order is None else [k for k in key_order if k in op.kernels]
    if key_order is not None:
        missing = set(op.kernels) - set(keys)
        if missing:
            raise ExportError("%s: keys not in the enum order: %s" % (op.name, sorted(missing)))
    for key in keys:
        for i, k in enumerate(op.kernels[key]):
            out.append(kernel_line(key, key in op.alias_keys, i > 0, k))
    return "".join(out)


def parse_dump(name: str, text: str) -> Op:
    if not text.endswith("\n"):
        raise ExportError("%s: dump does not end with a newline" % name)
    lines = text[:-1].split("\n")
    op = Op(name)
    if lines[0] != "name: " + name:
        raise ExportError("%s: unexpected first line %r" % (name, lines[0]))
    if lines[1] == "schema: (none)":
        rest = lines[2:]
    else:
        if not (lines[1].startswith("schema: ") and lines[2].startswith("debug: ")
                and lines[3].startswith("alias analysis kind: ")):
            raise ExportError("%s: unexpected header %r" % (name, lines[1:4]))
        op.schema = lines[1][len("schema: "):]
        op.debug = lines[2][len("debug: "):]
        op.alias_kind = lines[3][len("alias analysis kind: "):]
        rest = lines[4:]
    for ln in rest:
        m = _KERNEL_RE.fullmatch(ln)
        if not m:
            raise ExportError("%s: cannot parse kernel line %r" % (name, ln))
        key, state = m.group("key"), m.group("state")
        if state not in STATES:
            raise ExportError("%s: unsupported kernel state [ %s] in %r" % (name, state, ln))
        boxed_only, ft = STATES[state]
        sig = m.group("sig")
        k = Kernel(key, m.group("debug"), None if sig == "(none)" else sig, boxed_only, ft)
        lst = op.kernels.setdefault(key, [])
        if bool(m.group("inactive")) != bool(lst):
            raise ExportError("%s: inactive marker out of place in %r" % (name, ln))
        if m.group("alias"):
            op.alias_keys.add(key)
        lst.append(k)
    again = render_dump(op)
    if again != text:
        raise ExportError("%s: dump does not round-trip:\n%r\n%r" % (name, text, again))
    return op


# ---------------------------------------------------------------------------
# collecting from torch
# ---------------------------------------------------------------------------

def operator_names(torch) -> Tuple[List[str], List[str]]:
    """(all names sorted byte-wise, names found only through _jit_get_all_schemas)."""
    C = torch._C
    names = set(C._dispatch_get_registrations_for_dispatch_key(""))
    extra = []
    for s in C._jit_get_all_schemas():
        q = s.name + ("." + s.overload_name if s.overload_name else "")
        if q not in names and C._dispatch_dump(q):
            extra.append(q)
            names.add(q)
    key = lambda n: n.encode("utf-8", "surrogateescape")   # noqa: E731
    return sorted(names, key=key), sorted(extra, key=key)


def operator_tags(torch, name: str) -> List[str]:
    """torch.ops.<ns>.<name>.<overload or default>.tags, as Tag names."""
    ns, rest = name.split("::", 1)
    base, _, overload = rest.partition(".")
    try:
        packet = getattr(getattr(torch.ops, ns), base)
        return [t.name for t in getattr(packet, overload or "default").tags]
    except (AttributeError, RuntimeError) as e:
        raise ExportError("%s: cannot read its tags: %s" % (name, e)) from None


def observe_previous_kernels(torch, ops: Sequence[Op]) -> None:
    """Sets op.previous_kernel: what torch's override warning names as the
    "previous kernel" (the first kernel registered with a C++ signature, which
    the dumps do not show), observed by overriding one of the operator's
    kernels with a Python kernel (boxed, so it does not become that kernel).
    The overriding kernels go away with their Library objects when this
    returns (collect() checks that every dump is as before).
    2.x warns once per process (TORCH_WARN_ONCE): with c10's warnAlways on it
    warns every time, with the same text."""
    import gc
    import warnings
    C = torch._C
    libraries = {}
    warn_always = C._get_warnAlways()
    C._set_warnAlways(True)
    try:
        _observe(C, ops, libraries, warnings)
    finally:
        C._set_warnAlways(warn_always)
    libraries.clear()
    gc.collect()


def _observe(C, ops, libraries, warnings) -> None:
    for op in ops:
        for key in op.kernels:
            try:
                C._dispatch_key_parse(key)
            except Exception:        # noqa: BLE001 - a key Python cannot name
                continue
            ns, rest = op.name.split("::", 1)
            if ns not in libraries:
                # The C++ library object itself: torch.library.Library refuses to
                # override kernels that Python registered (nvprims, ...).
                libraries[ns] = C._dispatch_library("IMPL", ns, "")
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always")
                try:
                    libraries[ns].impl(rest, key, lambda *args, **kwargs: None)
                except RuntimeError:     # e.g. a Meta kernel beside CompositeImplicitAutograd
                    continue
            for w in caught:
                m = re.search(r"\n  previous kernel: (.*)\n       new kernel: ", str(w.message))
                if m:
                    op.previous_kernel = m.group(1)
            break


def impl_order(op: Op) -> List[str]:
    """The keys of op.kernels in the order their impls are written: the key of
    op.previous_kernel first, so that loading the files makes it the first
    typed kernel as in torch; then dump (enum) order."""
    keys = list(op.kernels)
    for key in keys:
        if any(k.debug == op.previous_kernel for k in op.kernels[key]):
            keys.remove(key)
            return [key] + keys
    return keys


def predicted_previous_kernel(op: Op) -> str:
    """What the loader makes of the written order: the first typed (unboxed)
    kernel, else the first SymInt one (boxed with a signature), else none."""
    written = [k for key in impl_order(op) for k in reversed(op.kernels[key]) if not k.fallthrough]
    for k in written:
        if not k.boxed_only:
            return k.debug
    for k in written:
        if k.signature is not None:
            return k.debug
    return "no debug info"


def collect(torch, previous_kernels: bool = True,
            warn_always: bool = False) -> Tuple[List[Op], Dict[str, str], List[str]]:
    """(ops sorted by name, {name: dump text}, extra names from the JIT schema list).
    `warn_always`: observe the override warnings with c10's warnAlways on (2.x's
    TORCH_WARN_ONCE then warns for every operator, and its one warning is not
    used up: dispatchtool-export measures the profile afterwards)."""
    names, extra = operator_names(torch)
    dumps = {n: torch._C._dispatch_dump(n) for n in names}
    ops = [parse_dump(n, dumps[n]) for n in names]
    for op in ops:
        if op.schema is not None:
            op.tags = operator_tags(torch, op.name)
    if previous_kernels:
        settable = warn_always and hasattr(torch._C, "_set_warnAlways")
        saved = torch._C._get_warnAlways() if settable else None
        if settable:
            torch._C._set_warnAlways(True)
        try:
            observe_previous_kernels(torch, ops)
        finally:
            if settable:
                torch._C._set_warnAlways(saved)
        changed = [n for n in names if torch._C._dispatch_dump(n) != dumps[n]]
        if changed:
            raise ExportError("observing the override warnings changed %d dumps, e.g. %s" % (len(changed), changed[:3]))
        wrong = [op.name for op in ops
                 if op.previous_kernel is not None and predicted_previous_kernel(op) != op.previous_kernel]
        if wrong:
            raise ExportError("no impl order makes the first typed kernel what torch's override warning names "
                              "for %d operators, e.g. %s" % (len(wrong), wrong[:3]))
    return ops, dumps, extra


# ---------------------------------------------------------------------------
# writing / reading TOML
# ---------------------------------------------------------------------------

_CORPUS_FILE_RE = re.compile(r"[A-Za-z0-9_]+-\d{3,}\.toml")


def render_file(ns: str, ops: Sequence[Op], source: str, generator: str = "tools/export_corpus.py") -> str:
    o = ["# Exported by %s from %s: %d operators of namespace %s.\n"
         % (generator, source, len(ops), ns),
         "namespace = %s\n" % toml_str(ns),
         'kind = "FRAGMENT"\n']
    for op in ops:
        if op.schema is not None:
            o.append("\n[[def]]\n")
            o.append("schema = %s\n" % toml_str(op.schema))
            o.append("debug = %s\n" % toml_str(op.debug))
            if op.alias_kind != DEFAULT_ALIAS_KIND:
                o.append("alias_analysis = %s\n" % toml_str(op.alias_kind))
            if op.tags:
                o.append("tags = [%s]\n" % ", ".join(toml_str(t) for t in op.tags))
        for key in impl_order(op):
            for k in reversed(op.kernels[key]):          # oldest first
                o.append("\n[[impl]]\n")
                o.append("op = %s\n" % toml_str(op.name))
                o.append("key = %s\n" % toml_str(key))
                o.append("kernel = %s\n" % toml_str(k.debug))
                if k.signature is not None:
                    o.append("signature = %s\n" % toml_str(k.signature))
                if k.boxed_only:
                    o.append("boxed_only = true\n")
                if k.fallthrough:
                    o.append("fallthrough = true\n")
    return "".join(o)


def write_corpus(outdir: str, ops: Sequence[Op], ops_per_file: int = 200,
                 source: str = "torch", generator: str = "tools/export_corpus.py") -> Tuple[List[str], int]:
    """Write the corpus; returns (file paths in order, total bytes).  Removes
    corpus files of an earlier export (NAME-NNN.toml, MANIFEST) first."""
    os.makedirs(outdir, exist_ok=True)
    for f in os.listdir(outdir):
        if _CORPUS_FILE_RE.fullmatch(f) or f == "MANIFEST":
            os.remove(os.path.join(outdir, f))
    by_ns: Dict[str, List[Op]] = {}
    for op in ops:
        by_ns.setdefault(op.namespace, []).append(op)
    paths, total = [], 0
    for ns in sorted(by_ns, key=lambda s: s.encode()):
        lst = by_ns[ns]
        stem = re.sub(r"[^A-Za-z0-9_]", "_", ns) or "_"
        for i in range(0, len(lst), ops_per_file):
            chunk = lst[i:i + ops_per_file]
            path = os.path.join(outdir, "%s-%03d.toml" % (stem, i // ops_per_file))
            data = render_file(ns, chunk, source, generator).encode("utf-8")
            with open(path, "wb") as f:
                f.write(data)
            paths.append(path)
            total += len(data)
    manifest = "".join(op.name + "\n" for op in ops).encode("utf-8")
    with open(os.path.join(outdir, "MANIFEST"), "wb") as f:
        f.write(manifest)
    return paths, total


def read_corpus(paths: Sequence[str]) -> Dict[str, Op]:
    """Load corpus files the way the input format defines them (defs, impls in
    file order; a later impl on the same key becomes the active one)."""
    import tomllib
    ops: Dict[str, Op] = {}
    for p in paths:
        with open(p, "rb") as f:
            doc = tomllib.load(f)
        ns = doc.get("namespace", "")

        def qual(n):
            return n if "::" in n else ns + "::" + n
        for d in doc.get("def", []):
            schema = d["schema"]
            name = qual(schema.split("(", 1)[0])
            op = ops.setdefault(name, Op(name))
            op.schema = schema if "::" in schema.split("(", 1)[0] else ns + "::" + schema
            op.debug = d.get("debug", "")
            op.alias_kind = d.get("alias_analysis", DEFAULT_ALIAS_KIND) or DEFAULT_ALIAS_KIND
            op.tags = list(d.get("tags", []))
        for im in doc.get("impl", []):
            name = qual(im["op"])
            op = ops.setdefault(name, Op(name))
            key = im["key"]
            k = Kernel(key, im.get("kernel", ""), im.get("signature"),
                       bool(im.get("boxed_only", False)), bool(im.get("fallthrough", False)))
            op.kernels.setdefault(key, []).insert(0, k)
    return ops


def enum_order_from_profile(profile_path: str) -> Tuple[List[str], set]:
    """(all key names in enum-value order, alias names) of a profile file."""
    import tomllib
    sys.path.insert(0, HERE)
    from gen_profile import Universe
    with open(profile_path, "rb") as f:
        p = tomllib.load(f)
    u = Universe(p["backends"], p["functionality"], [(x["key"], x["prefix"]) for x in p["per_backend"]],
                 p["aliases"])
    return sorted(u.value, key=lambda k: u.value[k]), set(u.aliases)


def verify(paths: Sequence[str], dumps: Dict[str, str], profile_path: str,
           tags: Optional[Dict[str, List[str]]] = None) -> List[str]:
    """Rebuild every _dispatch_dump (and, given `tags`, every operator's tags)
    from the written TOML; return mismatching names."""
    order, aliases = enum_order_from_profile(profile_path)
    ops = read_corpus(paths)
    bad = []
    for name in set(ops) | set(dumps):
        op = ops.get(name)
        if op is None:
            bad.append(name)
            continue
        op.alias_keys = {k for k in op.kernels if k in aliases}
        if render_dump(op, order) != dumps.get(name) or (tags is not None and op.tags != tags.get(name, [])):
            bad.append(name)
    return sorted(bad)


def compare_dirs(committed: str, fresh: str) -> List[str]:
    """Files that differ between two exports (missing on either side included)."""
    def listing(d):
        return {f for f in os.listdir(d) if _CORPUS_FILE_RE.fullmatch(f) or f == "MANIFEST"} if os.path.isdir(d) else set()
    a, b = listing(committed), listing(fresh)
    out = sorted((a ^ b))
    for f in sorted(a & b):
        with open(os.path.join(committed, f), "rb") as x, open(os.path.join(fresh, f), "rb") as y:
            if x.read() != y.read():
                out.append(f)
    return sorted(out)


def export(outdir: str, ops_per_file: int = 200):
    """Import torch, collect and write.  Returns a dict with the results."""
    import torch
    t0 = time.perf_counter()
    ops, dumps, extra = collect(torch)
    paths, total = write_corpus(outdir, ops, ops_per_file,
                                "torch %s (%s)" % (torch.__version__, os.path.dirname(torch.__file__)))
    return {"torch": torch, "ops": ops, "dumps": dumps, "extra": extra, "paths": paths,
            "bytes": total, "seconds": time.perf_counter() - t0}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("outdir")
    ap.add_argument("--ops-per-file", type=int, default=200)
    ap.add_argument("--verify", action="store_true",
                    help="read the files back and rebuild every _dispatch_dump from them")
    ap.add_argument("--check", action="store_true",
                    help="export into a temporary directory and compare it with OUTDIR byte for byte; write nothing")
    ap.add_argument("--profile", default=DEFAULT_PROFILE,
                    help="profile giving the enum order for --verify (default: %(default)s)")
    args = ap.parse_args(argv)
    if args.ops_per_file < 1:
        ap.error("--ops-per-file must be positive")
    try:
        import importlib
        importlib.import_module("torch")
    except Exception:                # noqa: BLE001
        print("SKIP: torch not importable (install python3-torch)")
        return 77
    if args.check:
        import tempfile
        with tempfile.TemporaryDirectory() as tmp:
            try:
                export(tmp, args.ops_per_file)
            except ExportError as e:
                print("export_corpus: error: %s" % e, file=sys.stderr)
                return 1
            bad = compare_dirs(args.outdir, tmp)
        print("export_corpus: check: %d files of %s differ from a fresh export" % (len(bad), args.outdir))
        for b in bad[:10]:
            print("  " + b)
        if bad:
            print("regenerate with: /usr/bin/python3 tools/export_corpus.py %s" % args.outdir)
        return 1 if bad else 0
    try:
        r = export(args.outdir, args.ops_per_file)
    except ExportError as e:
        print("export_corpus: error: %s" % e, file=sys.stderr)
        return 1
    ops = r["ops"]
    n_impl = sum(len(lst) for op in ops for lst in op.kernels.values())
    n_dangling = sum(op.schema is None for op in ops)
    n_defonly = sum(op.schema is not None and not op.kernels for op in ops)
    print("export_corpus: %d operators (%d dangling, %d without kernels, %d only via "
          "_jit_get_all_schemas), %d impls, %d files, %d bytes, %.2fs"
          % (len(ops), n_dangling, n_defonly, len(r["extra"]), n_impl, len(r["paths"]), r["bytes"],
             r["seconds"]))
    if args.verify:
        t0 = time.perf_counter()
        bad = verify(r["paths"], r["dumps"], args.profile, {op.name: op.tags for op in ops})
        print("export_corpus: verify: %d of %d dumps rebuilt from the TOML files differ (%.2fs)"
              % (len(bad), len(ops), time.perf_counter() - t0))
        for b in bad[:10]:
            print("  " + b)
        if bad:
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
