#!/usr/bin/python3
"""The built-in operator library against the live torch, with no input files.

    /usr/bin/python3 tests/oracle/library_oracle.py --tool build/dispatchtool
        [--what table|registrations|all|coverage|overrides|tags] [--jobs 2] [--batch 1] [--profile torch-1.13]
    tools/oracle-env python torch-2.14 tests/oracle/library_oracle.py --tool build/dispatchtool \
        --profile torch-2.14 --what table --batch 8

table / registrations: for every operator the installed torch registers,
    TOOL table --raw --profile P --op NAME         == _dispatch_dump_table(NAME)
    TOOL registrations --raw --profile P --op NAME == _dispatch_dump(NAME)
  (each preceded by the tool's '### NAME' line), one process per operator
  (--batch N: N operators per process, each named by its own --op).
all: TOOL table --raw --all and registrations --raw --all, one process each,
  every operator in byte order.
coverage: for each backend key K of --backends,
    TOOL coverage --backend K --profile P --format json
  gives, for every operator, the status of K and of K's autograd key; the
  expected status is read off the real _dispatch_dump_table row of that key
  (and its active kernel's state in _dispatch_dump):
    no row -> missing; 'fallthrough ' before the debug text -> fallthrough;
    [kernel] -> kernel; [default backend kernel] -> composite-explicit;
    [math kernel], [nested kernel] -> composite-implicit; [autograd kernel] ->
    autograd; [ambiguous autogradother] -> ambiguous; [backend fallback] -> fallback.
overrides: for every operator with a kernel on a key Python can name, torch's
  warning when a Python kernel overrides it (registered through the C++
  library object) equals the tool's warning for an [[impl]] of the same
  operator and key on top of the library (the "previous kernel" line names the
  operator's first typed kernel, which the dumps do not show).
tags: for every tag of torch.Tag, `ops --tag T --format json` lists exactly the
  operators whose torch.ops.<ns>.<name>.<overload>.tags hold T, and
  `--exclude-tag T` exactly the others.
Exit 0 iff everything matched, 1 otherwise, 77 (ctest skip) without torch.
"""

import argparse
import concurrent.futures
import json
import re
import subprocess
import sys

SKIP = 77
BACKENDS = ["CPU", "CUDA", "Meta", "XLA", "PrivateUse1", "SparseCPU", "QuantizedCPU"]
PROVENANCE_STATUS = {
    "kernel": "kernel",
    "default backend kernel": "composite-explicit",
    "math kernel": "composite-implicit",
    "nested kernel": "composite-implicit",
    "autograd kernel": "autograd",
    "ambiguous autogradother": "ambiguous",
    "backend fallback": "fallback",
}
ROW_RE = re.compile(r"(?P<key>\w+): (?P<ft>fallthrough )?(?P<debug>.*) \[(?P<prov>[^\]]*)\]")


def run(cmd):
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=600)
    return p.returncode, p.stdout.decode("utf-8", "surrogateescape"), p.stderr.decode("utf-8", "replace")


def sections(text):
    """'### NAME' sections of a raw output -> [(name, body)]."""
    out, cur, buf = [], None, []
    for line in text.splitlines(keepends=True):
        if line.startswith("### "):
            if cur is not None:
                out.append((cur, "".join(buf)))
            cur, buf = line[4:].rstrip("\n"), []
        elif cur is not None:
            buf.append(line)
    if cur is not None:
        out.append((cur, "".join(buf)))
    return out


def check_per_op(args, names, what, expected):
    def one(name):
        rc, out, err = run([args.tool, what, "--raw", "--profile", args.profile, "--op", name])
        want = "### %s\n%s" % (name, expected[name])
        return [(name, rc == 0 and out == want and err == "", (rc, out, err, want))]

    def batch(chunk):
        # --op N1 --op N2 ...: the sections in byte order, which `names` has.
        cmd = [args.tool, what, "--raw", "--profile", args.profile]
        for name in chunk:
            cmd += ["--op", name]
        rc, out, err = run(cmd)
        got = dict(sections(out))
        ok_run = rc == 0 and err == "" and [n for n, _ in sections(out)] == chunk
        res = []
        for name in chunk:
            want = "### %s\n%s" % (name, expected[name])
            body = got.get(name)
            res.append((name, ok_run and body == expected[name],
                        (rc, "### %s\n%s" % (name, body) if body is not None else out, err, want)))
        return res
    bad = []
    if args.batch > 1:
        work, fn = [names[i:i + args.batch] for i in range(0, len(names), args.batch)], batch
    else:
        work, fn = names, one
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        for results in pool.map(fn, work):
            for name, ok, detail in results:
                if not ok:
                    bad.append((name, detail))
    print("library_oracle: %s --op NAME (no files%s): %d of %d operators differ"
          % (what, ", %d operators per process" % args.batch if args.batch > 1 else "", len(bad), len(names)))
    for name, (rc, out, err, want) in bad[:3]:
        print("  %s: status %d, stderr %r\n  expected %r\n  got      %r" % (name, rc, err[:300], want[:300], out[:300]))
    return not bad


def check_all(args, names, what, expected):
    rc, out, err = run([args.tool, what, "--raw", "--profile", args.profile, "--all"])
    got = sections(out)
    ok = rc == 0 and err == "" and [n for n, _ in got] == names
    bad = [n for n, body in got if expected.get(n) != body]
    print("library_oracle: %s --all: status %d, %d sections for %d operators, %d differ"
          % (what, rc, len(got), len(names), len(bad)))
    if err:
        print("  stderr: %r" % err[:300])
    for n in bad[:3]:
        print("  %s differs" % n)
    return ok and not bad


def expected_status(C, name, key, table_rows, dumps):
    row = table_rows[name].get(key)
    if row is None:
        return "missing", None
    m = ROW_RE.fullmatch(row)
    if m is None:
        raise SystemExit("library_oracle: cannot parse table row %r of %s" % (row, name))
    if m.group("ft"):
        return "fallthrough", m.group("debug")
    status = PROVENANCE_STATUS[m.group("prov")]
    # PyTorch 2.x's Meta backend fallback (MetaFallbackKernel.cpp) raises
    # NotImplementedError: coverage calls it raising-fallback.
    if status == "fallback" and key == "Meta" and "MetaFallbackKernel.cpp" in m.group("debug"):
        status = "raising-fallback"
    if m.group("prov") == "kernel":
        active = [ln for ln in dumps[name].split("\n") if ln.startswith(key + ": ")]
        if active and "[ fallthrough " in active[0]:
            return "fallthrough", m.group("debug")
    return status, m.group("debug")


def check_coverage(args, C, names):
    tables = {n: {ln.split(":", 1)[0]: ln for ln in C._dispatch_dump_table(n).split("\n") if ln} for n in names}
    dumps = {n: C._dispatch_dump(n) for n in names}
    all_ok = True
    for backend in args.backends:
        rc, out, err = run([args.tool, "coverage", "--backend", backend, "--profile", args.profile,
                            "--format", "json"])
        if rc != 0:
            print("library_oracle: coverage --backend %s: status %d: %s" % (backend, rc, err[:300]))
            all_ok = False
            continue
        rows = json.loads(out)
        keys = sorted({r["key"] for r in rows})
        got = {(r["operator"], r["key"]): r for r in rows}
        bad, counts = [], {}
        for key in keys:
            for n in names:
                status, kernel = expected_status(C, n, key, tables, dumps)
                r = got.get((n, key))
                counts[status] = counts.get(status, 0) + 1
                if r is None or r["status"] != status or r["kernel"] != kernel:
                    bad.append((n, key, status, kernel, r))
        extra = len(rows) - len(names) * len(keys)
        print("library_oracle: coverage --backend %s (keys %s): %d rows, %d differ, %d unexpected; expected %s"
              % (backend, ", ".join(keys), len(rows), len(bad), extra,
                 ", ".join("%s %d" % kv for kv in sorted(counts.items()))))
        for b in bad[:3]:
            print("  %s %s: expected %s (%r), got %r" % b)
        if len(keys) != 2 or bad or extra:
            all_ok = False
    return all_ok


def torch_override_warnings(torch, names):
    """{name: (key, warning text)} for a Python kernel overriding each operator's
    first Python-nameable kernel key, in this process (then undone)."""
    import gc
    import warnings
    C = torch._C
    libs, out = {}, {}
    # 2.x warns once per process (TORCH_WARN_ONCE); warnAlways makes it warn
    # every time, with the same text.
    warn_always = C._get_warnAlways()
    C._set_warnAlways(True)
    for name in names:
        keys = [ln.split(":", 1)[0] for ln in C._dispatch_dump(name).split("\n")[4:] if ln and " (inactive)" not in ln]
        for key in [k.replace("[alias]", "") for k in keys]:
            try:
                C._dispatch_key_parse(key)
            except Exception:  # noqa: BLE001
                continue
            ns, rest = name.split("::", 1)
            lib = libs.setdefault(ns, C._dispatch_library("IMPL", ns, ""))
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always")
                try:
                    lib.impl(rest, key, lambda *a, **k: None)
                except RuntimeError:
                    continue
            texts = [str(w.message) for w in caught if "Overriding a previously" in str(w.message)]
            if texts:
                out[name] = (key, re.sub(r" \(Triggered internally at .*$", "", texts[0], flags=re.S))
            break
    C._set_warnAlways(warn_always)
    libs.clear()
    gc.collect()
    return out


def impl_entry(name, key, text):
    new = re.search(r"\n       new kernel: (.*)$", text).group(1)
    return ('\n[[impl]]\nop = "%s"\nkey = "%s"\nkernel = "%s"\nboxed_only = true\n'
            % (name, key, new.replace("\\", "\\\\").replace('"', '\\"')))


def tool_warnings(args, path):
    rc, out, err = run([args.tool, "table", "--raw", "--profile", args.profile, "--keys", "CPU", path])
    return rc, [m.group(1) for m in re.finditer(r": warning: (Overriding.*?|Warning only once.*?)\n(?=\S+: note: )",
                                                  err, re.S)], err


def check_overrides_once(args, expected):
    """2.x: the tool warns once per process too, so one process per operator."""
    import os
    import tempfile
    items = sorted(expected.items())

    def one(arg):
        i, (name, (key, text)) = arg
        path = os.path.join(tmp, "%d.toml" % i)
        with open(path, "w", encoding="utf-8") as f:
            f.write('namespace = "%s"\n' % name.split("::", 1)[0] + impl_entry(name, key, text))
        rc, got, err = tool_warnings(args, path)
        return name, rc == 0 and got == [text], (rc, got, err)
    bad = []
    with tempfile.TemporaryDirectory() as tmp:
        with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
            for name, ok, detail in pool.map(one, enumerate(items)):
                if not ok:
                    bad.append((name, detail))
    print("library_oracle: override warnings (one process per operator, as the warning is once per process): "
          "%d of %d operators differ" % (len(bad), len(items)))
    for n, (rc, got, err) in bad[:3]:
        print("  %s: torch says %r\n    tool: status %d, %r" % (n, expected[n][1][:400], rc, (got or err)[:400]))
    return not bad and len(items) > 3000


def check_overrides(args, torch, names):
    import os
    import tempfile
    expected = torch_override_warnings(torch, names)
    if not torch.__version__.startswith("1."):
        return check_overrides_once(args, expected)
    by_ns = {}
    for name, (key, text) in expected.items():
        by_ns.setdefault(name.split("::", 1)[0], []).append((name, key, text))
    bad, total = [], 0
    with tempfile.TemporaryDirectory() as tmp:
        for ns, items in sorted(by_ns.items()):
            path = os.path.join(tmp, "%s.toml" % ns)
            with open(path, "w", encoding="utf-8") as f:
                f.write('namespace = "%s"\n' % ns)
                for name, key, text in items:
                    f.write(impl_entry(name, key, text))
            rc, got, err = tool_warnings(args, path)
            total += len(items)
            if rc != 0 or len(got) != len(items):
                print("library_oracle: overrides %s: status %d, %d warnings for %d overrides: %s"
                      % (ns, rc, len(got), len(items), err[:300]))
                bad.extend(n for n, _, _ in items)
                continue
            bad.extend(name for (name, _, text), g in zip(items, got) if g != text)
    print("library_oracle: override warnings: %d of %d operators differ" % (len(bad), total))
    for n in bad[:3]:
        print("  %s: torch says %r" % (n, expected[n][1][:400]))
    return not bad and total > 3000


def real_tags(torch, name):
    # A dangling operator (kernels, no schema: 2.x has some, e.g.
    # aten::hardshrink_) has no OpOverload and no tags.
    if "\nschema: (none)\n" in torch._C._dispatch_dump(name):
        return set()
    ns, rest = name.split("::", 1)
    base, _, overload = rest.partition(".")
    return {t.name for t in getattr(getattr(getattr(torch.ops, ns), base), overload or "default").tags}


def check_tags(args, torch, names):
    tags = {n: real_tags(torch, n) for n in names}
    vocabulary = sorted(torch.Tag.__members__) if hasattr(torch, "Tag") else sorted(torch._C.Tag.__members__)
    ok = True
    for tag in vocabulary:
        want = [n for n in names if tag in tags[n]]
        for option, expected in (("--tag", want), ("--exclude-tag", [n for n in names if tag not in tags[n]])):
            rc, out, err = run([args.tool, "ops", "--profile", args.profile, option, tag, "--format", "json"])
            got = [o["name"] for o in json.loads(out)["operators"]] if rc == 0 else None
            same = got == expected
            ok = ok and same
            print("library_oracle: ops %s %s: torch %d operators, tool %s%s"
                  % (option, tag, len(expected), "status %d" % rc if got is None else len(got),
                     "" if same else "  DIFFERENT: %s" % sorted(set(got or []) ^ set(expected))[:5]))
    return ok


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tool", required=True)
    ap.add_argument("--profile", default="torch-1.13")
    ap.add_argument("--what", choices=("table", "registrations", "all", "coverage", "overrides", "tags"),
                    required=True)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--batch", type=int, default=1,
                    help="table / registrations: operators per tool process (each still picked by --op; "
                         "default: one process per operator)")
    ap.add_argument("--backends", default=",".join(BACKENDS))
    args = ap.parse_args(argv)
    args.backends = args.backends.split(",")
    try:
        import torch
    except Exception:  # noqa: BLE001
        print("SKIP: torch not importable (install python3-torch)")
        return SKIP
    C = torch._C
    names = sorted(set(C._dispatch_get_registrations_for_dispatch_key("")),
                   key=lambda n: n.encode("utf-8", "surrogateescape"))
    if args.what == "table":
        ok = check_per_op(args, names, "table", {n: C._dispatch_dump_table(n) for n in names})
    elif args.what == "registrations":
        ok = check_per_op(args, names, "registrations", {n: C._dispatch_dump(n) for n in names})
    elif args.what == "all":
        ok = check_all(args, names, "table", {n: C._dispatch_dump_table(n) for n in names})
        ok = check_all(args, names, "registrations", {n: C._dispatch_dump(n) for n in names}) and ok
    elif args.what == "coverage":
        ok = check_coverage(args, C, names)
    elif args.what == "overrides":
        ok = check_overrides(args, torch, names)
    else:
        ok = check_tags(args, torch, names)
    print("library_oracle: %s" % ("passed" if ok else "FAILED"))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
