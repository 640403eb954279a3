#!/usr/bin/python3
"""Compare dispatchtool with the live torch on every real operator.

    /usr/bin/python3 tests/oracle/diff_corpus.py --tool build/dispatchtool --workdir build/corpus
        [--what table|registrations|both] [--profile torch-1.13] [--max-diffs 3]

1. exports the registrations of the installed torch to WORKDIR
   (tools/export_corpus.py, used as a module);
2. runs  TOOL table --raw --no-library --profile PROFILE WORKDIR/*.toml
   and   TOOL registrations --raw --no-library --profile PROFILE WORKDIR/*.toml
   (--no-library: the files are PyTorch's own operators, which the built-in
   library of the profile holds too);
   the expected output is, for every operator in byte-wise order of its
   qualified name, a line `### ns::name.overload` followed by exactly what
   torch._C._dispatch_dump_table(name) / _dispatch_dump(name) returns;
3. compares per operator with the live torch, prints a breakdown of the
   mismatches and the first few unified diffs, then the summary line
   `diff_corpus: N passed, M failed` (an operator passes when every compared
   output matches).  Exit 0 iff everything matched, 1 otherwise, 77 (ctest
   skip) if torch cannot be imported.

--reference-model DIR replaces the tool by ../shared/reference/dispatch_model.py
(the Python model of the spec, fed from the same TOML files and the profile
file): a self-test of the export and of this script that needs no C++ build.
"""

import argparse
import collections
import difflib
import os
import re
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "tools"))

SKIP = 77


def split_sections(text: str):
    """Tool output -> (ordered list of (name, body)), preamble text)."""
    sections, preamble = [], []
    cur, buf = None, []
    parts = text.split("\n")
    for i, part in enumerate(parts):
        line = part + ("\n" if i < len(parts) - 1 else "")
        if not line:
            continue
        if line.startswith("### "):
            if cur is not None:
                sections.append((cur, "".join(buf)))
            cur, buf = line[4:].rstrip("\n"), []
        elif cur is None:
            preamble.append(line)
        else:
            buf.append(line)
    if cur is not None:
        sections.append((cur, "".join(buf)))
    return sections, "".join(preamble)


def run_tool(tool, subcmd, profile, paths, timeout):
    # The corpus is PyTorch's own operators: loaded as files, on their own.
    cmd = [tool, subcmd, "--raw", "--no-library", "--profile", profile] + list(paths)
    t0 = time.perf_counter()
    try:
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=timeout)
    except (OSError, subprocess.TimeoutExpired) as e:
        return None, "cannot run %s: %s" % (" ".join(cmd[:5]) + " ...", e), 0.0
    dt = time.perf_counter() - t0
    err = p.stderr.decode("utf-8", "replace")
    if p.returncode != 0:
        return None, "%s %s exited with status %d\n%s" % (tool, subcmd, p.returncode,
                                                          "\n".join(err.splitlines()[:40])), dt
    return p.stdout.decode("utf-8", "surrogateescape"), err, dt


def model_outputs(model_dir, profile_file, paths):
    """Outputs of the reference model for the corpus, in the tool's format."""
    import tomllib
    import export_corpus as ec
    sys.path.insert(0, model_dir)
    import dispatch_model as dm
    with open(profile_file, "rb") as f:
        p = tomllib.load(f)
    u = dm.Universe(
        name=p["name"], backends=p["backends"], functionality=["Undefined"] + p["functionality"],
        per_backend=[(x["key"], x["prefix"]) for x in p["per_backend"]], aliases=p["aliases"],
        autogradother_members=p["autogradother"], autograd_to_backend=p["autograd_backend_keys"],
        has_batched_decomposition="FuncTorchBatchedDecomposition" in p["aliases"],
        autograd_key_backends=p["autograd_key_backends"])
    u.fallbacks = {f["key"]: (f["debug"], bool(f.get("fallthrough", False))) for f in p.get("fallback", [])}
    if (p["non_functional_excluded_functionality"], p["non_functional_excluded_backends"]) != \
            (["Sparse"], ["XLA", "Lazy"]):
        print("warning: the reference model hard-codes the non-functional exclusions", file=sys.stderr)
    ops = ec.read_corpus(paths)
    table, regs = [], []
    for name in sorted(ops, key=lambda n: n.encode("utf-8", "surrogateescape")):
        src = ops[name]
        op = dm.Operator.__new__(dm.Operator)          # pure dumps: skip the runtime table
        op.u, op.name = u, name
        op.schema, op.schema_debug = src.schema, src.debug
        op.alias_kind, op.alias_default = src.alias_kind, False
        op.kernels = {}
        for key, lst in src.kernels.items():          # newest first already
            op.kernels[key] = [dm.Kernel(k.debug, k.signature, k.fallthrough, True,
                                         not (k.boxed_only or k.fallthrough)) for k in lst]
        table.append("### %s\n%s" % (name, op.dump_table()))
        regs.append("### %s\n%s" % (name, op.dump_state()))
    return {"table": "".join(table), "registrations": "".join(regs)}


def table_row_keys(text):
    return {ln.split(":", 1)[0]: ln for ln in text.split("\n") if ln}


def classify(what, name, expected, actual):
    """Short tags describing how one operator's output differs."""
    tags = []
    if actual is None:
        return ["operator missing from output"]
    if what == "table":
        e, a = table_row_keys(expected), table_row_keys(actual)
        for k in e:
            if k not in a:
                tags.append("row missing: %s" % k)
            elif a[k] != e[k]:
                ep = re.search(r"\[([^\]]*)\]$", e[k])
                ap = re.search(r"\[([^\]]*)\]$", a[k])
                tags.append("row differs: %s (%s -> %s)" % (k, ep.group(1) if ep else "?",
                                                           ap.group(1) if ap else "?"))
        for k in a:
            if k not in e:
                tags.append("extra row: %s" % k)
        if not tags:
            tags.append("row order/format")
    else:
        el, al = expected.split("\n"), actual.split("\n")
        for i, ln in enumerate(el):
            if ln and ln not in al:
                head = ln.split(": ", 1)[0]
                if head in ("schema", "debug", "alias analysis kind", "name"):
                    tags.append("%s line differs" % head)
                else:
                    tags.append("kernel line differs/missing: %s" % head)
        for ln in al:
            if ln and ln not in el:
                tags.append("extra/changed line: %s" % ln.split(": ", 1)[0])
        if not tags:
            tags.append("line order")
    return tags


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    src = ap.add_mutually_exclusive_group(required=True)
    src.add_argument("--tool", help="path to the dispatchtool binary")
    src.add_argument("--reference-model", metavar="DIR",
                     help="use DIR/dispatch_model.py instead of a tool (pipeline self-test)")
    ap.add_argument("--workdir", required=True, help="directory the corpus is exported to")
    ap.add_argument("--what", choices=("table", "registrations", "both"), default="both")
    ap.add_argument("--profile", default="torch-1.13", help="--profile argument for the tool")
    ap.add_argument("--profile-file", default=os.path.join(ROOT, "configs", "profiles", "torch-1.13.toml"),
                    help="profile file for --reference-model (default: %(default)s)")
    ap.add_argument("--ops-per-file", type=int, default=200)
    ap.add_argument("--max-diffs", type=int, default=3, help="unified diffs to print per output kind")
    ap.add_argument("--max-diff-lines", type=int, default=80)
    ap.add_argument("--timeout", type=float, default=500.0, help="seconds per tool run")
    args = ap.parse_args(argv)

    try:
        import torch
    except Exception:                # noqa: BLE001
        print("SKIP: torch not importable (install python3-torch)")
        return SKIP
    C = torch._C
    import export_corpus as ec

    t0 = time.perf_counter()
    try:
        r = ec.export(args.workdir, args.ops_per_file)
    except ec.ExportError as e:
        print("diff_corpus: export failed: %s" % e)
        print("diff_corpus: 0 passed, 1 failed")
        return 1
    names = [op.name for op in r["ops"]]
    print("diff_corpus: exported %d operators to %d files in %s (%.2fs)"
          % (len(names), len(r["paths"]), args.workdir, time.perf_counter() - t0))

    kinds = ["table", "registrations"] if args.what == "both" else [args.what]
    expected = {
        "table": {n: C._dispatch_dump_table(n) for n in names} if "table" in kinds else {},
        "registrations": r["dumps"],
    }

    if args.reference_model:
        t0 = time.perf_counter()
        outs = model_outputs(args.reference_model, args.profile_file, r["paths"])
        print("diff_corpus: reference model computed both outputs (%.2fs)" % (time.perf_counter() - t0))

    failed_ops = set()
    fatal = False
    for what in kinds:
        if args.reference_model:
            out, err = outs[what], ""
        else:
            out, err, dt = run_tool(args.tool, what, args.profile, r["paths"], args.timeout)
            if out is None:
                print("diff_corpus: %s: %s" % (what, err))
                failed_ops.update(names)
                fatal = True
                continue
            print("diff_corpus: %s: tool ran in %.2fs" % (what, dt))
            if err.strip():
                print("diff_corpus: %s: tool stderr (%d lines), first lines:" % (what, len(err.splitlines())))
                for ln in err.splitlines()[:5]:
                    print("    " + ln)
        sections, preamble = split_sections(out)
        if preamble.strip():
            print("diff_corpus: %s: output before the first ### header: %r" % (what, preamble[:200]))
            fatal = True
        got, dup = {}, []
        for n, body in sections:
            if n in got:
                dup.append(n)
                continue
            got[n] = body
        order = [n for n, _ in sections]
        if dup:
            print("diff_corpus: %s: %d duplicate headers, e.g. %s" % (what, len(dup), dup[:3]))
            fatal = True
        extra = sorted(set(got) - set(names))
        if extra:
            print("diff_corpus: %s: %d operators not in the corpus, e.g. %s" % (what, len(extra), extra[:3]))
            fatal = True
        present_order = [n for n in order if n in set(names)]
        if present_order != [n for n in names if n in got]:
            print("diff_corpus: %s: operators are not in byte-wise lexicographic order" % what)
            fatal = True
        bad = [n for n in names if got.get(n) != expected[what][n]]
        failed_ops.update(bad)
        print("diff_corpus: %s: %d of %d operators differ" % (what, len(bad), len(names)))
        if bad:
            tags = collections.Counter()
            for n in bad:
                tags.update(set(classify(what, n, expected[what][n], got.get(n))))
            print("diff_corpus: %s: most frequent differences (operators affected):" % what)
            for t, c in tags.most_common(15):
                print("    %6d  %s" % (c, t))
            for n in bad[:args.max_diffs]:
                exp = expected[what][n].splitlines(keepends=True)
                act = (got.get(n) or "").splitlines(keepends=True)
                d = list(difflib.unified_diff(exp, act, "torch %s %s" % (what, n),
                                              "dispatchtool %s %s" % (what, n)))
                print("".join(d[:args.max_diff_lines]).rstrip("\n"))
                if len(d) > args.max_diff_lines:
                    print("... (%d more diff lines)" % (len(d) - args.max_diff_lines))
    passed = len(names) - len(failed_ops)
    failed = len(failed_ops) + (1 if fatal and not failed_ops else 0)
    print("diff_corpus: %d passed, %d failed" % (passed, failed))
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
