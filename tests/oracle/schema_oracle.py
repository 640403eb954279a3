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
Exit 0 iff everything matched, 1 otherwise, 77 (ctest skip) without torch.
"""

import argparse
import os
import random
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
    with open(path, "w") as f:
        f.write('namespace = "dtu"\nkind = "DEF"\n')
        for s in texts:
            f.write("[[def]]\nschema = %s\n" % toml_str(s.split("::", 1)[1]))


def tool_schemas(tool, profile, path):
    p = subprocess.run([tool, "registrations", "--raw", "--profile", profile, path], stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, timeout=600)
    if p.returncode != 0:
        return None, p.stderr.decode("utf-8", "replace")
    lines = p.stdout.decode("utf-8", "surrogateescape").splitlines()
    return [ln[len("schema: "):] for ln in lines if ln.startswith("schema: ")], ""


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--tool", required=True)
    ap.add_argument("--count", type=int, default=3000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--workdir")
    ap.add_argument("--show", type=int, default=20, help="mismatches to print")
    ap.add_argument("--profile", default="torch-1.13",
                    help="the tool's --profile: the release whose torch runs this script (default: %(default)s)")
    args = ap.parse_args()
    try:
        import torch  # noqa: F401
    except ImportError:
        print("schema_oracle: cannot import torch; skipped", file=sys.stderr)
        return SKIP

    texts = schemas(args.count, args.seed)
    expected = torch_verdicts(texts)
    workdir = args.workdir or tempfile.mkdtemp(prefix="dt-schema-oracle-")
    os.makedirs(workdir, exist_ok=True)

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
            g = by_name.get(e.split("(", 1)[0])
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
