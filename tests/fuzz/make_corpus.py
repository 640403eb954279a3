#!/usr/bin/env python3
"""Seed corpora for the fuzz harnesses (tests/fuzz), from the repository's small files:
configs/examples/*.toml, the '--- file:' blocks of tests/cli/cases/*.test,
configs/profiles/*.toml, a sample of tests/unit/data/schemas-1.13.txt, and the C++ sources of
tests/oracle/cpp_ext/ and tests/cli/inputs/ (cpp_reader).

  make_corpus.py SOURCE_DIR OUT_DIR      (OUT_DIR/{load,profile,lint_config,schema,cpp_reader,native_yaml,python_reader}/)"""
import glob, hashlib, os, re, sys

src, out = sys.argv[1], sys.argv[2]
dirs = {h: os.path.join(out, h) for h in ("load", "profile", "lint_config", "schema", "cpp_reader", "native_yaml", "python_reader")}
for d in dirs.values():
    os.makedirs(d, exist_ok=True)


def put(h, data: bytes):
    name = hashlib.sha1(data).hexdigest()
    with open(os.path.join(dirs[h], name), "wb") as f:
        f.write(data)


def test_files(path):
    """{file name: text} of a tests/cli/cases/*.test."""
    files, cur, buf = {}, None, []
    for line in open(path, encoding="utf-8", errors="surrogateescape").read().split("\n"):
        m = re.match(r"^--- (file: (.*)|stdout|stderr|stdin)$", line)
        if m:
            if cur:
                files[cur] = "\n".join(buf) + "\n"
            cur, buf = (m.group(2) if m.group(2) else None), []
            continue
        if cur is not None:
            buf.append(line)
    if cur:
        files[cur] = "\n".join(buf) + "\n"
    return files


examples = []
for root, _, names in sorted(os.walk(os.path.join(src, "configs/examples"))):
    for f in sorted(names):
        if f.endswith(".toml"):
            examples.append(open(os.path.join(root, f), "rb").read())
for e in examples:
    put("load", e)
    put("load", b"\x02" + e)  # first byte: record refusals + lint (see fuzz_load.cpp)
# Two examples as one multi-file input.
put("load", b"\x03" + examples[0] + b"\n#---\n" + examples[-1])

cases = os.path.join(src, "tests/cli/cases")
for t in sorted(os.listdir(cases)):
    files = test_files(os.path.join(cases, t))
    for name, text in files.items():
        data = text.encode("utf-8", "surrogateescape")
        if name.endswith("lint.toml"):
            put("lint_config", b"\x01" + data)
        elif "baseline" in name or name == "base.toml" or text.startswith("version = 1"):
            put("lint_config", b"\x00" + data)
        elif "profile" in name or data.startswith(b"name ="):
            put("profile", data)
        else:
            put("load", data)
    regs = [v.encode() for k, v in files.items() if k.endswith(".toml") and "baseline" not in k and "lint" not in k]
    if len(regs) > 1:
        put("load", b"\x02" + b"\n#---\n".join(regs[:4]))

for p in sorted(os.listdir(os.path.join(src, "configs/profiles"))):
    put("profile", open(os.path.join(src, "configs/profiles", p), "rb").read())

put("lint_config", b"\x01" + b'select = ["duplicate-registration"]\nignore = ["unparseable-key"]\nfail-on = "warning"\n'
    b'baseline = "ci/lint-baseline.toml"\nprofile = "torch-1.13"\n[severity]\nmissing-autograd = "error"\n')
put("lint_config", b"\x00" + b'version = 1\n\n[[accept]]\nrule = "impl-without-def"\nop = "h::f"\nkey = ""\ncount = 2\n'
    b'\n[[accept]]\nrule = "duplicate-registration"\nop = "h::g"\nkey = "CPU"\n')

schemas = open(os.path.join(src, "tests/unit/data/schemas-1.13.txt"), encoding="utf-8").read().split("\n")
schemas = [s for s in schemas if s.strip()]
# A spread: every 20th schema plus the longest and those with unusual types.
pick = set(schemas[::20])
pick |= set(sorted(schemas, key=len)[-20:])
for marker in ("Dict(", "Future(", "RRef(", "Union(", "__torch__", "...", "Dimname", "Tensor(a!)", "[2]", "=[",
               "Storage", "Layout?", "str=", "float=", "*,", "-> ()"):
    pick |= set([s for s in schemas if marker in s][:8])
for s in sorted(pick):
    put("schema", s.encode())
# yaml: the yaml files of the golden cases and
# 2.14's native_functions.yaml in slices of 20 entries (each well under kMaxInput).
for root, _, names in os.walk(os.path.join(src, "tests/cli/inputs")):
    for n in names:
        if n.endswith((".yaml", ".yml")):
            put("native_yaml", open(os.path.join(root, n), "rb").read()[:60000])
nf = open(os.path.join(src, "configs/yaml/torch-2.14/native_functions.yaml"), "rb").read()
entries = re.split(rb"\n(?=- func:)", nf)
for i in range(0, len(entries), 20 * 7):  # every 7th slice: ~50 seeds
    put("native_yaml", b"\n".join(entries[i:i + 20]) + b"\n")
for path in glob.glob(os.path.join(src, "tests/cli/cases/yaml-*.test")):
    for m in re.finditer(r"--- file: \S+\.ya?ml\n(.*?)(?=\n--- |\Z)", open(path, encoding="utf-8").read(), re.S):
        put("native_yaml", m.group(1).encode())
# Python modules (first byte: which built-in profile reads them).
for sub in ("tests/oracle/py_modules", "tests/cli/inputs/python"):
    d = os.path.join(src, sub)
    for f in sorted(os.listdir(d)) if os.path.isdir(d) else []:
        if f.endswith(".py"):
            data = open(os.path.join(d, f), "rb").read()[:60000]
            for prof in range(4):
                put("python_reader", bytes([prof]) + data)
for d, p in dirs.items():
    print(d, len(os.listdir(p)))

# C++ sources with registrations (the C++ reader).
for d in ("tests/oracle/cpp_ext", "tests/cli/inputs"):
    for root, _, names in os.walk(os.path.join(src, d)):
        for n in sorted(names):
            if n.endswith((".cpp", ".h", ".cu")):
                data = open(os.path.join(root, n), "rb").read()
                if len(data) <= 65536:
                    put("cpp_reader", data)
