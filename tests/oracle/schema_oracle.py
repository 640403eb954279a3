#!/usr/bin/python3
"""Schema types against the live torch: Unions, Optionals and what nests in them.

    /usr/bin/python3 tests/oracle/schema_oracle.py --tool build/dispatchtool
        [--count 3000] [--seed 1] [--workdir DIR] [--show N] [--profile torch-1.13]
    tools/oracle-env python torch-2.14 tests/oracle/schema_oracle.py --tool build/dispatchtool \
        --profile torch-2.14 [...]

Generates --count random argument and return types (seeded, so every run sees
the same ones) from a grammar of base types, type variables, T[], T?,
Union(...), tuples, Dict, Future and RRef, plus a fixed list of hand-picked
cases, and for each schema "dtu::fN(T x) -> ()" or "dtu::fN() -> T":
  - torch._C.parse_schema accepts it  => TOOL registrations --raw prints the
    same "schema:" line (byte for byte) for a [[def]] of it;
  - torch rejects it                  => TOOL exits 2 with a located error.
The [[def]]s are written in a FRAGMENT of aten as "aten::fN(...)", a schema
for which every release's def_ takes lower-case type variables as
parse_schema does (they are refused elsewhere since 2.0: see --forms).

--forms FILE: schema forms (tests/oracle/schema_forms.txt, one JSON string
per line, the operator named `f`) plus, generated from the live torch, a
default by name of every torch.dtype, torch.layout and torch.memory_format
name for ScalarType, ScalarType?, int, Layout and MemoryFormat arguments.
Each is defined for real (torch.library.Library.define, in a worker process
that is restarted when torch crashes on one: a crash is a refusal), and
  - torch accepts it  => TOOL registrations --raw prints the schema line
    _dispatch_dump prints, byte for byte;
  - torch refuses it  => TOOL exits 2 with a located error that contains
    torch's words (the first line of its message, or the text of an internal
    assert after "please report a bug to PyTorch.").
Exit 0 iff everything matched, 1 otherwise, 77 (ctest skip) without torch.
"""

import argparse
import json
import os
import random
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tools"))
from tomlstr import toml_str  # noqa: E402

SKIP = 77

LEAVES = ["Tensor", "Scalar", "int", "float", "complex", "bool", "str", "None", "NoneType", "Any", "Device",
          "Layout", "ScalarType", "MemoryFormat", "SymInt", "Generator", "Storage", "Stream", "t", "l"]
# Chosen by hand: each once disagreed with torch or exercises a rule of
# union_type.cpp (nested Optionals, Scalar's expansion and printing, type
# variables, covariant tuples and futures, subsumption by Any).
FIXED = [
    "int??", "int???", "int??[]", "Tensor(a)??", "Tensor(a!)??", "ScalarType??", "SymInt??",
    "Scalar?", "Scalar??", "Scalar???", "None?", "NoneType?", "Any?", "Any??",
    "Union(int, str)?", "Union(int, str)??", "Union(int?, str)?", "Union(int?, str)(a)?",
    "Union(int, float, complex)", "Union(int, float, complex)?", "Union(int, float, complex, None)",
    "Union(Tensor, int, float, complex)", "Union(int, float, complex, str)", "Union(Scalar, str)",
    "Union(Scalar?, str)", "Union(bool, Scalar)", "Union(int, Scalar)", "Union(Scalar, None)",
    "Union(Any, int)", "Union(Any, None)", "Union(Any, Any)", "Union(None, None)", "Union(l, t)",
    "Union(t, l, None)", "Union(t?, l)", "Union(l????, t)", "Union(int[], int?[])",
    "Union(Future(int), Future(int?))", "Union(Future(int), Future(Any))", "Union(Future(int), Future(str))",
    "Union(RRef(int), RRef(int?))", "Union(Dict(str, int), Dict(str, int?))", "Union(Tensor, Tensor?)",
    "Union((int, str), (int?, str))", "Union((int, str), (None, str))", "Union((int, str), (float, str))",
    "Union((int, str), (Scalar, str))", "Union((int, str), (Any, str))", "Union((t, str), (l, str))",
    "Union((t, str), (l, str), None)", "Union(SymInt, int)", "Union(Layout, ScalarType, str)",
    "Union(Device, Tensor)", "Union(Storage, Tensor)", "Union(Union(int?, str)?, Tensor)",
    "Union(int, str)[]", "Union(int, str)?[]", "(Union(int, str)?, Scalar?)", "Dict(str, Union(int, None))",
    "Future(Union(Scalar, None))", "Union(Scalar)??", "Union(Scalar)(a)??", "Scalar(a)??",
    "Union(int?, str)(a!)?", "Union(int, None)(a)", "Union(Tensor, None)(a)?", "Union(Tensor, None)(a!)",
    # 1.13 and 2.6 parse Dimname as str; 2.14 refuses it (the profile's dimname_in_schemas).
    "Dimname", "Dimname[]", "Dimname?", "Union(Dimname, int)", "Dict(str, Dimname)", "(Dimname, Tensor)",
]


def random_type(rng, depth=0):
    r = rng.random()
    if depth >= 3 or r < 0.35:
        return rng.choice(LEAVES)
    if r < 0.47:
        return random_type(rng, depth + 1) + "[]"
    if r < 0.62:
        return random_type(rng, depth + 1) + "?"
    if r < 0.85:
        return "Union(%s)" % ", ".join(random_type(rng, depth + 1) for _ in range(rng.randint(1, 4)))
    if r < 0.91:
        return "(%s)" % ", ".join(random_type(rng, depth + 1) for _ in range(rng.randint(2, 3)))
    if r < 0.95:
        return "Dict(%s, %s)" % (rng.choice(["str", "int", "Tensor"]), random_type(rng, depth + 1))
    return "%s(%s)" % (rng.choice(["Future", "RRef"]), random_type(rng, depth + 1))


def with_alias(rng, t):
    """Sometimes an alias annotation after a top-level Union or Tensor that
    only '?'s follow (before a "[]", the tool prints annotations where they
    were written, a documented difference: schema.hpp)."""
    end = None
    if t.startswith("Tensor"):
        end = len("Tensor")
    elif t.startswith("Union("):
        depth = 0
        for i, c in enumerate(t):
            depth += c == "("
            depth -= c == ")"
            if c == ")" and depth == 0:
                end = i + 1
                break
    if end is None or t[end:].strip("?") or rng.random() >= 0.3:
        return t
    return t[:end] + rng.choice(["(a)", "(a!)"]) + t[end:]


def schemas(count, seed):
    rng = random.Random(seed)
    types = list(FIXED) + [with_alias(rng, random_type(rng)) for _ in range(count)]
    out = []
    for i, t in enumerate(types):
        out.append("dtu::f%d(%s x) -> ()" % (i, t) if i % 3 else "dtu::f%d() -> %s" % (i, t))
    return out


def torch_verdicts(texts):
    import torch  # noqa: F401 (checked by the caller)

    verdicts = []
    for s in texts:
        try:
            verdicts.append(str(torch._C.parse_schema(s)))
        except RuntimeError:
            verdicts.append(None)
    return verdicts


def write_defs(path, texts):
    """[[def]]s of "dtu::fN(...)" schemas, written as "aten::fN(...)" in a
    FRAGMENT of aten (type variables allowed, as parse_schema allows them)."""
    with open(path, "w") as f:
        f.write('namespace = "aten"\nkind = "FRAGMENT"\n')
        for s in texts:
            f.write("[[def]]\nschema = %s\n" % toml_str("aten::" + s.split("::", 1)[1]))


def tool_schemas(tool, profile, path):
    p = subprocess.run([tool, "registrations", "--raw", "--profile", profile, path], stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, timeout=600)
    if p.returncode != 0:
        return None, p.stderr.decode("utf-8", "replace")
    lines = p.stdout.decode("utf-8", "surrogateescape").splitlines()
    return [ln[len("schema: "):] for ln in lines if ln.startswith("schema: ")], ""


# ---------------------------------------------------------------------------
# --forms: schemas defined for real, one by one.

def read_forms(path):
    out = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            if line.strip() and not line.startswith("#"):
                out.append(json.loads(line))
    return out


def generated_forms():
    """A default by name of every dtype, layout and memory format name of the
    live torch (the names torch.<name> has), for the types that take them."""
    import torch

    def names(cls):
        return sorted(n for n in dir(torch) if isinstance(getattr(torch, n, None), cls))

    out = []
    for n in names(torch.dtype):
        out += ["f(ScalarType d=%s) -> ()" % n, "f(ScalarType? d=%s) -> ()" % n, "f(int d=%s) -> ()" % n]
    out += ["f(Layout l=%s) -> ()" % n for n in names(torch.layout)]
    out += ["f(MemoryFormat m=%s) -> ()" % n for n in names(torch.memory_format)]
    return out


def named(i, form):
    """The form with its operator `f` named fI: (namespace, schema as defined)."""
    ns = "dtf"
    if form.startswith("aten::"):
        ns, form = "aten", form[len("aten::"):]
    assert form == "f" or (form.startswith("f") and form[1] in "(."), form
    return ns, ("aten::" if ns == "aten" else "") + "f%d" % i + form[1:]


# Forms torch refuses and the tool knowingly accepts (or refuses in other
# words), and why (schema.hpp); where torch accepts them they are checked.
C10_TYPES = ("SymFloat and SymBool are types in every release: c10 infers them from C++ kernels, "
             "and an input cannot tell an inferred schema from a written one")
KNOWN_DIFFERENCES = {
    "f(__torch__.torch.classes.nope.Nope x) -> ()":
        "custom classes are not checked for registration: an extension registers its own",
    "f(SymFloat x) -> ()": C10_TYPES,
    "f(SymBool x) -> SymBool": C10_TYPES,
    "f(SymBool[] x, SymBool? y) -> ()": C10_TYPES,
    "f(SymBool z=True) -> ()": C10_TYPES,
    "f(SymBool? x=None) -> ()": C10_TYPES,
}


def torch_words(message):
    """What the tool's error must contain: the text of an internal assert after
    "please report a bug to PyTorch.", else the first line of the message (an
    ErrorReport's, ending in ':' before the highlighted source); control
    characters escaped as the tool prints them (\\x01)."""
    m = re.search(r"INTERNAL ASSERT FAILED at .*?, please report a bug to PyTorch\.(.*)", message, re.S)
    text = m.group(1) if m else message
    for line in text.split("\n"):
        if line.strip():
            words = line.strip().rstrip(":").strip()
            return "".join("\\x%02x" % ord(c) if (ord(c) < 0x20 and c != "\t") or ord(c) == 0x7F else c
                           for c in words)
    return ""


def worker(path):
    """Defines each form of the JSON list in `path`; prints one JSON result
    per line as soon as it has it (the parent restarts it after a crash)."""
    import torch

    forms = json.load(open(path))
    start = int(os.environ.get("DT_FORMS_START", "0"))
    libs = {}

    def library(ns):
        if ns not in libs:
            kind = "DEF" if ns == "dtf" else "FRAGMENT"
            try:
                libs[ns] = torch.library.Library(ns, kind).m
            except ValueError:  # 1.13's Python Library has no FRAGMENT
                libs[ns] = torch._C._dispatch_library(kind, ns, "")
        return libs[ns]

    for i in range(start, len(forms)):
        ns, text = named(i, forms[i])
        print(json.dumps({"i": i, "started": True}), flush=True)
        try:
            library(ns).define(text, "")
            name = text.split("::")[-1].split("(")[0]
            dump = torch._C._dispatch_dump(ns + "::" + name)
            line = [ln for ln in dump.split("\n") if ln.startswith("schema: ")][0]
            print(json.dumps({"i": i, "schema": line[len("schema: "):]}), flush=True)
        except Exception as e:  # noqa: BLE001 (every refusal, whatever its type)
            print(json.dumps({"i": i, "error": str(e)}), flush=True)
    return 0


def torch_form_verdicts(forms, workdir):
    """{i: ("schema", text) | ("error", message) | ("crash", "")} for every form."""
    path = os.path.join(workdir, "forms.json")
    with open(path, "w") as f:
        json.dump(forms, f)
    verdicts = {}
    start = 0
    while start < len(forms):
        env = dict(os.environ, DT_FORMS_START=str(start))
        p = subprocess.run([sys.executable, os.path.abspath(__file__), "--worker", path], stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, env=env, timeout=600)
        started = None
        for line in p.stdout.decode("utf-8", "replace").splitlines():
            r = json.loads(line)
            if r.get("started"):
                started = r["i"]
            elif "schema" in r:
                verdicts[r["i"]] = ("schema", r["schema"])
            else:
                verdicts[r["i"]] = ("error", r["error"])
        if p.returncode == 0:
            break
        if started is None or started in verdicts:
            raise RuntimeError("schema_oracle: the worker failed: %s" % p.stderr.decode("utf-8", "replace")[-2000:])
        verdicts[started] = ("crash", "")  # torch died defining it: refused
        start = started + 1
    return verdicts


def write_form_defs(path, items):
    """items: [(ns, schema)]; a file per namespace kind (dtf: DEF, aten: FRAGMENT)."""
    with open(path, "w") as f:
        for ns in ("dtf", "aten"):
            mine = [s for n, s in items if n == ns]
            if not mine:
                continue
            f.write('[[block]]\nnamespace = "%s"\nkind = "%s"\n' % (ns, "DEF" if ns == "dtf" else "FRAGMENT"))
            for s in mine:
                f.write("[[block.def]]\nschema = %s\n" % toml_str(s))


def check_forms(args, forms, workdir):
    verdicts = torch_form_verdicts(forms, workdir)
    failures = []
    known = [i for i in range(len(forms)) if forms[i] in KNOWN_DIFFERENCES and verdicts[i][0] != "schema"]
    for i in known:
        print("known difference: %r (torch: %s): %s" % (forms[i], verdicts[i][0], KNOWN_DIFFERENCES[forms[i]]))
    accepted = [(i, verdicts[i][1]) for i in range(len(forms)) if verdicts[i][0] == "schema" and i not in known]
    refused = [i for i in range(len(forms)) if verdicts[i][0] != "schema" and i not in known]

    def tool_lines(path):
        got, err = tool_schemas(args.tool, args.profile, path)
        return ({g.split("(", 1)[0]: g for g in got} if got is not None else None), err

    path = os.path.join(workdir, "forms-valid.toml")
    write_form_defs(path, [named(i, forms[i]) for i, _ in accepted])
    by_name, _ = tool_lines(path)
    for i, expected in accepted:
        if by_name is None:  # find the culprits one by one
            one = os.path.join(workdir, "form.toml")
            write_form_defs(one, [named(i, forms[i])])
            mine, err = tool_lines(one)
            if mine is None:
                failures.append("%r\n  torch: %s\n  tool refuses it: %s" % (forms[i], expected, err.strip()))
                continue
        else:
            mine = by_name
        got = mine.get(expected.split("(", 1)[0])
        if got != expected:
            failures.append("%r\n  torch: %s\n  tool:  %s" % (forms[i], expected, got))

    for i in refused:
        kind, message = verdicts[i]
        words = torch_words(message) if kind == "error" else ""
        one = os.path.join(workdir, "form.toml")
        write_form_defs(one, [named(i, forms[i])])
        p = subprocess.run([args.tool, "registrations", "--raw", "--profile", args.profile, one],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=60)
        stderr = p.stderr.decode("utf-8", "replace")
        located = re.match(re.escape(one) + r":\d+:\d+: error: ", stderr) is not None
        if p.returncode != 2 or not located or p.stdout or (words and words not in stderr):
            failures.append("%r\n  torch refuses it (%s): %r\n  tool: exit %d, %r"
                            % (forms[i], kind, words or message[:200], p.returncode, stderr[:400]))
    print("schema_oracle --forms: %d forms, torch accepts %d and refuses %d (%d crashes), %d known differences; "
          "%d mismatches" % (len(forms), len(accepted), len(refused),
                             sum(1 for v in verdicts.values() if v[0] == "crash"), len(known), len(failures)))
    return failures


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--tool", required=True)
    ap.add_argument("--count", type=int, default=3000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--workdir")
    ap.add_argument("--show", type=int, default=20, help="mismatches to print")
    ap.add_argument("--profile", default="torch-1.13",
                    help="the tool's --profile: the release whose torch runs this script (default: %(default)s)")
    ap.add_argument("--forms", help="schema forms to define one by one (tests/oracle/schema_forms.txt)")
    if len(sys.argv) == 3 and sys.argv[1] == "--worker":
        return worker(sys.argv[2])
    args = ap.parse_args()
    try:
        import torch  # noqa: F401
    except ImportError:
        print("schema_oracle: cannot import torch; skipped", file=sys.stderr)
        return SKIP

    workdir = args.workdir or tempfile.mkdtemp(prefix="dt-schema-oracle-")
    os.makedirs(workdir, exist_ok=True)
    if args.forms:
        failures = check_forms(args, read_forms(args.forms) + generated_forms(), workdir)
        for f in failures[:args.show]:
            print(f)
        return 1 if failures else 0

    texts = schemas(args.count, args.seed)
    expected = torch_verdicts(texts)

    valid = [(s, e) for s, e in zip(texts, expected) if e is not None]
    invalid = [s for s, e in zip(texts, expected) if e is None]
    failures = []

    # Every schema torch accepts, in one file: the tool prints each as torch does.
    path = os.path.join(workdir, "valid.toml")
    write_defs(path, [s for s, _ in valid])
    got, err = tool_schemas(args.tool, args.profile, path)
    if got is None:
        # Find the culprits one by one.
        for s, e in valid:
            one = os.path.join(workdir, "one.toml")
            write_defs(one, [s])
            g, err = tool_schemas(args.tool, args.profile, one)
            if g is None:
                failures.append("%s\n  torch: %s\n  tool rejects it: %s" % (s, e, err.strip()))
    else:
        by_name = {g.split("(", 1)[0]: g for g in got}
        for s, e in valid:
            g = by_name.get("aten::" + e.split("(", 1)[0].split("::", 1)[1])
            g = "dtu::" + g[len("aten::"):] if g else g
            if g != e:
                failures.append("%s\n  torch: %s\n  tool:  %s" % (s, e, g))

    # Every schema torch rejects: the tool refuses it with a located error, exit 2.
    for s in invalid:
        one = os.path.join(workdir, "one.toml")
        write_defs(one, [s])
        p = subprocess.run([args.tool, "registrations", "--raw", "--profile", args.profile, one],
                           stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, timeout=60)
        stderr = p.stderr.decode("utf-8", "replace")
        if p.returncode != 2 or not stderr.startswith(one + ":") or ": error: " not in stderr or p.stdout:
            failures.append("%s\n  torch rejects it; tool: exit %d, stderr %r" % (s, p.returncode, stderr[:200]))

    print("schema_oracle: %d schemas (%d hand-picked), torch accepts %d and rejects %d; %d mismatches"
          % (len(texts), len(FIXED), len(valid), len(invalid), len(failures)))
    for f in failures[:args.show]:
        print(f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
