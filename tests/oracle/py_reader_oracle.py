#!/usr/bin/python3
"""The Python reader against the real torch: modules imported, dumps compared.

    tools/oracle-env python torch-2.14 tests/oracle/py_reader_oracle.py \
        --tool build/dispatchtool --profile torch-2.14 --workdir build/oracle/py-reader-2.14

1. Every module of tests/oracle/py_modules (the *_2_14.py ones only where the
   release is 2.14 or later; and every module of its packages, pyr_helpers/...,
   imported as the package's modules, so that they import each other) is
   imported into this process (torch's real torch.library runs), plus a
   generated module of custom ops (below). Then, for every operator they
   registered (namespaces pyr_*),

       TOOL registrations --raw --all --profile P MODULES...  == _dispatch_dump(op)
       TOOL table --raw --all --profile P MODULES...          == _dispatch_dump_table(op)

   byte for byte, the tool reading the same files (by the same absolute
   paths) statically; and the tool knows no operator torch does not. The same
   for a real-world user: PyTorch 2.6.0's torch/testing/_internal/custom_op_db.py
   (17 custom ops, namespace _torch_testing: register_fake, register_autograd,
   register_vmap), from Debian's source tarball (tests/realworld/sources.py
   pytorch-2.6.0-library-users: downloaded at test time, never committed; a
   tree that cannot be had fails).
   The tool's warnings are checked too: a line of a module marked
   `# dispatchtool: warns TEXT` must get a warning at that line containing
   TEXT, and no line of the modules any other (never silent, never noisy);
   an operator a warning says is "not read" (a default imported from
   tests/oracle/py_external, which the tool is not given) must be absent from
   the tool's output, and is not compared.
2. infer_schema corpus: --count generated annotated signatures (types,
   Optional / Union / `| None`, Sequence / List / list / collections.abc
   generics, defaults of every kind, returns, mutates_args), and a custom op
   per torch.dtype attribute as a default. Each is tried
   with this release's torch.library.infer_schema; the accepted ones become
   custom ops of the generated module (checked by 1.), each refused one a
   file of its own that the tool must refuse too (exit 2, a located error).

3. infer_schema strings: signatures whose defaults the dumps cannot hold yet
   or that need a module's constants (torch.dtype defaults: torch.float,
   float8 types, a module constant) are written as custom ops; the schema
   `dispatchtool import` writes for each must be the string this release's
   torch.library.infer_schema returns, byte for byte.

Exit 0 iff everything matched; without torch it fails (never skipped).
"""

import argparse
import glob
import os
import random
import re
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ERROR = re.compile(r"^[^\n]*\.py:\d+:\d+: error: ")

BASES = ["torch.Tensor", "int", "float", "bool", "str", "torch.types.Number", "torch.dtype", "torch.device",
         "Tensor", "complex", "dict"]
DEFAULTS = {
    "int": ["0", "-3", "7", "0x10", "1_000", "True"],
    "float": ["0.5", "1.0", "1e-05", "2e20", "-0.25", "3", "1e16", "123456789.125", "0.0001"],
    "bool": ["True", "False"],
    "str": ['"a"', "'x y'", '"" "cat"'],
    "torch.types.Number": ["1", "2.5", "False"],
    # torch.dtype defaults: one custom op per dtype attribute of the live torch
    # (dtype_cases), not drawn here (that would change the seeds' corpora).
    "torch.device": ['torch.device("cpu")', 'torch.device("cuda:1")'],
}


def gen_type(rng, t214):
    b = rng.choice(BASES)
    form = rng.randrange(9)
    seqs = ["typing.Sequence", "typing.List", "List", "Sequence"] + (["list", "collections.abc.Sequence"] if rng.random() < 0.5 else [])
    if form == 0:
        return "typing.Optional[%s]" % b, b, True, form
    if form == 1:
        return "%s | None" % b, b, True, form
    if form == 2:
        return "%s[%s]" % (rng.choice(seqs), b), None, False, form
    if form == 3:
        return "typing.Optional[%s[%s]]" % (rng.choice(seqs), b), None, True, form
    if form == 4:
        return "%s[typing.Optional[%s]]" % (rng.choice(seqs), b), None, False, form
    if form == 5:
        return "typing.Union[%s, None]" % b, b, True, form
    if form == 6:
        return "typing.Union[int, float, bool]", "torch.types.Number", False, form
    return b, b, False, form


def gen_return(rng):
    one = ["torch.Tensor", "int", "float", "bool", "torch.types.Number", "typing.List[torch.Tensor]",
           "list[torch.Tensor]", "str", "None"]
    f = rng.randrange(4)
    if f == 0:
        return "typing.Tuple[%s]" % ", ".join(rng.choice(one[:7]) for _ in range(rng.randrange(1, 4)))
    if f == 1:
        return "tuple[%s]" % ", ".join(rng.choice(one[:7]) for _ in range(rng.randrange(1, 3)))
    return rng.choice(one)


def gen_case(rng, i, t214):
    params, names, tensors, optlists = [], [], [], set()
    kw = False
    for j in range(rng.randrange(0, 6)):
        ann, base, opt, form = gen_type(rng, t214)
        name = "p%d" % j
        text = "%s: %s" % (name, ann)
        need = not kw and params and "=" in params[-1]  # Python: no default after a default
        if base in DEFAULTS and (need or rng.random() < 0.4):
            text += " = " + rng.choice(DEFAULTS[base])
        elif opt and (need or rng.random() < 0.5):
            text += " = None"
        elif need:
            text = text.replace(": ", ": typing.Optional[", 1) + "] = None"
        if not kw and rng.random() < 0.15:
            params.append("*")
            kw = True
        params.append(text)
        names.append(name)
        # Not a mutated Sequence[Optional[Tensor]]: torch prints "Tensor(a1!)?[]"
        # as "Tensor?(a1!)[]", which the tool's schema printer does not yet.
        if "Tensor" in ann and form != 4:
            tensors.append(name)
        if form == 4:
            optlists.add(name)
    mut = []
    r = rng.random()
    if r < 0.2 and tensors:
        mut = [rng.choice(tensors)]
    elif r < 0.25 and [n for n in names if n not in optlists]:
        mut = [rng.choice([n for n in names if n not in optlists])]
    mutates = repr(tuple(mut)) if rng.random() < 0.5 else repr(mut)
    if rng.random() < 0.05 and not optlists:
        mutates = '"unknown"'
    src = ('@torch.library.custom_op("pyr_gen::f%d", mutates_args=%s)\n'
           "def f%d(%s) -> %s:\n    raise NotImplementedError\n" % (i, mutates, i, ", ".join(params), gen_return(rng)))
    return src


def dtype_cases(torch, start):
    """A custom op per torch.dtype attribute name N: f<i>(x, d=torch.N, o=torch.N)."""
    names = sorted(n for n in dir(torch) if isinstance(getattr(torch, n, None), torch.dtype))
    return ['@torch.library.custom_op("pyr_gen::f%d", mutates_args=())\n'
            "def f%d(x: torch.Tensor, d: torch.dtype = torch.%s, o: typing.Optional[torch.dtype] = torch.%s)"
            " -> torch.Tensor:\n    raise NotImplementedError\n" % (start + k, start + k, n, n)
            for k, n in enumerate(names)]


HEADER = ("import collections.abc\nimport typing\nfrom typing import List, Sequence\n\nimport torch\n"
          "from torch import Tensor\n\n\n")


def run(cmd):
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=300)
    return p.returncode, p.stdout.decode("utf-8", "replace"), p.stderr.decode("utf-8", "replace")


from torch_library_oracle import require_torch, sections  # noqa: E402  ("### NAME" sections of a dump)
from recording import Recorder, real_dumps  # noqa: E402


def import_file(path, name):
    import importlib.util
    spec = importlib.util.spec_from_file_location(name, path)
    m = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(m)
    return m


WARNS = re.compile(r"#\s*dispatchtool: warns (.*)$")
WARNING = re.compile(r"^(?P<file>[^\n:]+\.py):(?P<line>\d+):\d+: warning: (?P<msg>.*)$")


def expected_warnings(files):
    """{(file, line): text} of the `# dispatchtool: warns TEXT` marks."""
    out = {}
    for path in files:
        with open(path, encoding="utf-8") as f:
            for n, line in enumerate(f, 1):
                m = WARNS.search(line)
                if m:
                    out[(path, n)] = m.group(1).strip()
    return out


NOT_READ = re.compile(r"^(?P<op>[\w.]+::[\w.]+): not read")


def check_warnings(stderr, files, bad, skipped):
    """Checks the marks; adds to `skipped` the operators a warning says are not read."""
    want = expected_warnings(files)
    got = {}
    for line in stderr.splitlines():
        m = WARNING.match(line)
        if m and m.group("file") in files:
            got.setdefault((m.group("file"), int(m.group("line"))), []).append(m.group("msg"))
            n = NOT_READ.match(m.group("msg"))
            if n:
                skipped.add(n.group("op"))
    for key, text in sorted(want.items()):
        if not any(text in msg for msg in got.get(key, [])):
            bad.append("no warning at %s:%d containing %r (got %s)" % (key[0], key[1], text, got.get(key)))
    for key, msgs in sorted(got.items()):
        if key not in want:
            bad.append("an unexpected warning at %s:%d: %s" % (key[0], key[1], msgs[0]))
    return len(want)


# Signatures whose schema strings part 3 compares: (parameters, prelude).
# A prelude line binds a module constant; every one of torch's dtype
# attributes is a default once.
def schema_cases(torch):
    dtypes = sorted(n for n in dir(torch) if isinstance(getattr(torch, n, None), torch.dtype))
    cases = []
    for k in range(0, len(dtypes), 6):
        group = dtypes[k:k + 6]
        cases.append(("x: torch.Tensor, " + ", ".join("d%d: torch.dtype = torch.%s" % (i, d) for i, d in enumerate(group)),
                      ""))
    cases.append(("x: torch.Tensor, d: typing.Optional[torch.dtype] = E4M3", "E4M3 = torch.float8_e4m3fn"))
    cases.append(("x: torch.Tensor, d: torch.dtype = FLOAT", "FLOAT = torch.float"))
    cases.append(("x: torch.Tensor, dev: torch.device = torch.device('cuda', 1), s: str = 'a\"b'", ""))
    cases.append(("x: torch.Tensor = None, n: int = FLAG", "FLAG = True"))
    return cases


def check_schema_strings(torch, tool, profile, work, bad):
    import tomllib
    import typing  # noqa: F401  (the generated sources use it)
    cases = schema_cases(torch)
    src = ["import typing", "import torch", ""]
    want = []
    unparsed = []  # schema strings infer_schema writes that torch's own parser refuses (custom_op would fail)
    for k, (params, prelude) in enumerate(cases):
        case = ([prelude] if prelude else []) + [
            "@torch.library.custom_op(%r, mutates_args=())" % ("pyr_str::s%d" % k),
            "def s%d(%s) -> torch.Tensor:" % (k, params), "    raise NotImplementedError", ""]
        g = {}
        exec(compile("import typing\nimport torch\n%s\ndef f(%s) -> torch.Tensor:\n    raise NotImplementedError\n"
                     % (prelude, params), "<case>", "exec"), g)
        try:
            w = torch.library.infer_schema(g["f"], mutates_args=())
        except Exception as e:  # noqa: BLE001  (a default this release refuses: the tool must refuse it too)
            want.append("refused: %s" % type(e).__name__)
            src += case
            continue
        try:
            torch._C.parse_schema("pyr_str::s%d" % k + w)
        except RuntimeError:
            unparsed.append((k, w, case))
            continue
        want.append(w)
        src += case
    # What torch cannot define, the tool refuses too (exit 2, a located error), one file each.
    for k, w, case in unparsed:
        one = os.path.join(work, "schema_string_s%d.py" % k)
        with open(one, "w", encoding="utf-8") as f:
            f.write("\n".join(["import typing", "import torch", ""] + case))
        rc, out, err = run([tool, "registrations", "--raw", "--profile", profile, one])
        if rc != 2 or "error:" not in err:
            bad.append("schema string s%d (%s): torch's parser refuses it, the tool exits %d" % (k, w, rc))
    path = os.path.join(work, "schema_strings.py")
    with open(path, "w", encoding="utf-8") as f:
        f.write("\n".join(src))
    rc, out, err = run([tool, "import", "--profile", profile, path])
    if rc != 0:
        if not all(w.startswith("refused") for w in want):
            bad.append("import of %s: exit %d: %s" % (path, rc, err.strip()[:2000]))
        return len(cases)
    got = [e["schema"] for b in tomllib.loads(out).get("block", []) for e in b.get("custom_op", [])]
    if got != [w for w in want if not w.startswith("refused")]:
        for k, (w, g) in enumerate(zip(want, got + [None] * len(want))):
            if w != g:
                bad.append("schema string s%d:\n  torch          %s\n  dispatchtool   %s" % (k, w, g))
    return len(cases)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tool", required=True)
    ap.add_argument("--profile", required=True)
    ap.add_argument("--workdir", required=True)
    ap.add_argument("--tree", required=True, help="tests/realworld/sources.py pytorch-2.6.0-library-users's directory")
    ap.add_argument("--count", type=int, default=300)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("-v", "--verbose", action="store_true")
    ap.add_argument("--record", metavar="FILE", help="also write what torch dumped (tests/oracle/recording.py)")
    args = ap.parse_args()
    torch = require_torch("py_reader_oracle", args.profile)
    if torch is None:
        return 1
    t214 = tuple(int(x) for x in re.findall(r"\d+", torch.__version__)[:2]) >= (2, 14)
    t0 = time.time()
    work = os.path.abspath(args.workdir)
    os.makedirs(work, exist_ok=True)
    for old in glob.glob(os.path.join(work, "*.py")):
        os.remove(old)
    bad = []

    # 2. The corpus: each signature through the real infer_schema first.
    import logging
    logging.getLogger("torch._library.opaque_object").setLevel(logging.ERROR)  # one line per refused type
    import typing  # noqa: F401  (the generated sources use these names)
    import collections.abc  # noqa: F401
    rng = random.Random(args.seed)
    accepted, refused = [], []
    for i in range(args.count):
        src = gen_case(rng, i, t214)
        g = {}
        try:  # custom_op itself, in a namespace of its own (infer_schema, then the dispatcher's parse_schema)
            exec(compile(HEADER + src.replace('"pyr_gen::', '"prb_gen::'), "<probe>", "exec"), g)
            accepted.append(src)
        except Exception as e:  # noqa: BLE001
            refused.append((src, "%s: %s" % (type(e).__name__, str(e).splitlines()[0] if str(e) else "")))
    # Every torch.dtype attribute as a default (infer_schema writes its str()
    # less "torch.": "ScalarType d=float32" for torch.float), plain and Optional.
    for src in dtype_cases(torch, args.count):
        try:
            exec(compile(HEADER + src.replace('"pyr_gen::', '"prb_gen::'), "<probe>", "exec"), {})
            accepted.append(src)
        except Exception as e:  # noqa: BLE001
            refused.append((src, "%s: %s" % (type(e).__name__, str(e).splitlines()[0] if str(e) else "")))
    gen = os.path.join(work, "generated_custom_ops.py")
    with open(gen, "w", encoding="utf-8") as f:
        f.write("# Generated by tests/oracle/py_reader_oracle.py (seed %d)\n" % args.seed + HEADER + "\n\n".join(accepted))

    # 1. The modules, imported for real; a package's modules by their names.
    root = os.path.join(HERE, "py_modules")
    mods = sorted(glob.glob(os.path.join(root, "*.py")))
    if not t214:
        mods = [m for m in mods if not m.endswith("_2_14.py")]
    packages = sorted(glob.glob(os.path.join(root, "*", "*.py")))
    sys.path.insert(0, root)
    # Modules the files import that the tool is not given (their constants are unknown to it).
    sys.path.insert(0, os.path.join(HERE, "py_external"))
    # Real world: PyTorch 2.6.0's custom_op_db.py (the extracted file, imported by
    # its path: the tool reads the same file).
    real = [os.path.join(os.path.abspath(args.tree), "torch", "testing", "_internal", "custom_op_db.py")]
    if not os.path.isfile(real[0]):
        print("py_reader_oracle: FAIL: no %s (tests/realworld/sources.py pytorch-2.6.0-library-users extracts it)"
              % real[0])
        return 1
    files = mods + packages + [gen] + [os.path.abspath(r) for r in real]
    import importlib
    for k, path in enumerate(files):
        if path in packages:
            rel = os.path.relpath(path, root)[:-3].replace(os.sep, ".")
            importlib.import_module(rel[:-len(".__init__")] if rel.endswith(".__init__") else rel)
        else:
            import_file(path, "pyr_mod%d" % k)
    prefixes = ("pyr_", "_torch_testing::")
    ops = sorted(n for n in torch._C._dispatch_get_all_op_names() if n.startswith(prefixes))
    got = {}
    nwarn = 0
    skipped = set()  # operators a located warning says are not read: the tool must not have them
    rec = Recorder(args.record, "py_reader_oracle", torch.__version__,
                   {"root": os.path.dirname(os.path.dirname(HERE)), "work": work, "tree": args.tree})
    rec.call(["--raw", "--all"] + files, os.getcwd())
    rec.file(gen)
    dumps = real_dumps(torch, ops)
    rec.dumps(dumps)
    for what in ["registrations", "table"]:
        rc, out, err = run([args.tool, what, "--raw", "--all", "--profile", args.profile] + files)
        if rc != 0:
            bad.append("%s --all: exit %d: %s" % (what, rc, err.strip()[:3000]))
            continue
        got[what] = sections(out)
        if what == "registrations":
            nwarn = check_warnings(err, mods + packages, bad, skipped)
    total = 0
    for what in ["registrations", "table"]:
        if what not in got:
            continue
        extra = sorted(n for n in got[what] if n.startswith(prefixes) and n not in ops)
        if extra:
            bad.append("%s: the tool has operators torch does not: %s" % (what, extra))
        for name in ops:
            exp, mine = dumps[what][name], got[what].get(name)
            if name in skipped:
                if mine is not None:
                    bad.append("%s %s: warned as not read, but the tool has it" % (what, name))
                continue
            total += 1
            if mine != exp:
                bad.append("%s %s:\n--- torch\n%s--- dispatchtool\n%s" % (what, name, exp, mine))
    rec.skipped(skipped)
    rec.write()
    # Refused signatures: refused by the tool too.
    nref = 0
    for j, (src, why) in enumerate(refused):
        path = os.path.join(work, "refused%03d.py" % j)
        with open(path, "w", encoding="utf-8") as f:
            f.write(HEADER + src)
        rc, out, err = run([args.tool, "registrations", "--raw", "--all", "--profile", args.profile, path])
        nref += 1
        if rc != 2 or not ERROR.match(err) or out:
            bad.append("refused by torch (%s), not by the tool (exit %d):\n%s%s" % (why, rc, src, err[:500]))
        elif args.verbose:
            print("refused as torch does: %s | %s" % (why, err.strip().splitlines()[0]))
    # 3. infer_schema strings.
    nstr = check_schema_strings(torch, args.tool, args.profile, work, bad)
    for b in bad[:30]:
        print("MISMATCH: " + b)
    nbad = lambda p: sum(1 for b in bad if b.startswith(p))  # noqa: E731
    print("py_reader_oracle (%s, torch %s): %d/%d dumps equal over %d operators (%d modules, %d generated custom ops); "
          "%d skipped with a located warning; "
          "%d/%d refused signatures refused; %d/%d warnings as marked, %d unmarked; %d/%d schema strings equal; %.1f s"
          % (args.profile, torch.__version__,
             total - sum(1 for b in bad if b.startswith(("registrations ", "table "))), total,
             len(ops), len(mods) + len(packages), len(accepted), len(skipped), nref - nbad("refused"), nref,
             nwarn - nbad("no warning"), nwarn, nbad("an unexpected warning"), nstr - nbad("schema string"), nstr,
             time.time() - t0))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
