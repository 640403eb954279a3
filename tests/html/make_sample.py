#!/usr/bin/env python3
"""Builds the HTML matrix's data (docs/html/README.md) from dispatchtool's text output.

    make_sample.py --tool build/dispatchtool [--profile torch-1.13] -o docs/html/sample.json FILE...

A stand-in for the C++ renderer (`dispatchtool html`, phase 2) and a reference
for what it must produce: it reads `keys` (columns, alias bands), `table --raw`
(the operators) and `explain` for every operator and key (status, kernel,
provenance, steps, meaning), and writes the documented shape. The committed
docs/html/sample.json is its output for a few shipped examples;
tests/html/test_html.py checks that it still is.
"""
import argparse
import json
import os
import re
import subprocess
import sys

# provenance -> (status, source key; None: the row's own key)
PROVENANCE = {
    "kernel": ("kernel", None),
    "default backend kernel": ("composite-explicit", "CompositeExplicitAutograd"),
    "nested kernel": ("composite-implicit", "CompositeImplicitAutogradNestedTensor"),
    "math kernel": ("composite-implicit", "CompositeImplicitAutograd"),
    "batched kernel": ("composite-implicit", "FuncTorchBatchedDecomposition"),
    "autograd kernel": ("autograd", "Autograd"),
    "backend fallback": ("fallback", None),
    "ambiguous autogradother": ("ambiguous", "CompositeImplicitAutograd"),
}
STEP = re.compile(r"^  (\d+(?:\.\d+[a-z]?)?)\s+(.*?\?)\s{2,}(.*)$")
RESULT = re.compile(r"^result: (?:missing \(no row in the table\)|([^:]+): (.*) \[([a-z ]+)\])$")


def run(tool, *args):
    r = subprocess.run([tool, *args], capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit(f"dispatchtool {' '.join(args)} failed: {r.stderr}")
    return r.stdout


def keys_and_aliases(tool, profile):
    out = run(tool, "keys", "--profile", profile)
    keys, aliases = [], []
    for line in out.splitlines():
        m = re.match(r"^ +(\d+)  (\S+) +(undefined|per-backend|functionality) ", line)
        if m and m.group(3) != "undefined":
            keys.append({"name": m.group(2), "kind": m.group(3)})
        m = re.match(r"^  (\S+) \(\d+ keys\): (.*)$", line)
        if m:
            aliases.append((m.group(1), m.group(2).split(", ")))
    col = {k["name"]: i for i, k in enumerate(keys)}
    return keys, [{"name": a, "covers": sorted(col[k] for k in covers if k in col)} for a, covers in aliases]


def explain_blocks(text):
    """Splits explain's output into one list of lines per key."""
    blocks, cur = [], []
    for line in text.splitlines():
        if re.match(r"^\S+ resolves \S+ like computeDispatchTableEntryWithDebug", line):
            if cur:
                # The line before is the next explanation's schema line; and a blank one.
                while cur and not cur[-1].strip():
                    cur.pop()
                cur.pop()
                blocks.append(cur)
            cur = [line]
        elif cur:
            cur.append(line)
    if cur:
        blocks.append(cur)
    return [[l for l in b if l.strip()] for b in blocks]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tool", required=True)
    ap.add_argument("--profile", default="torch-1.13")
    ap.add_argument("--title", default=None)
    ap.add_argument("-o", "--output", required=True)
    ap.add_argument("files", nargs="+")
    a = ap.parse_args()
    tool = os.path.abspath(a.tool)
    keys, aliases = keys_and_aliases(tool, a.profile)
    raw = run(tool, "table", "--raw", "--profile", a.profile, *a.files)
    names = [l[4:] for l in raw.splitlines() if l.startswith("### ")]
    regs = run(tool, "registrations", "--raw", "--profile", a.profile, *a.files)
    schemas = dict(re.findall(r"^name: (\S+)\nschema: (.*)$", regs, re.M))

    strings, string_index = [], {}

    def intern(s):
        if s is None:
            return None
        if s not in string_index:
            string_index[s] = len(strings)
            strings.append(s)
        return string_index[s]

    cells, cell_index, operators = [], {}, []
    key_list = ",".join(k["name"] for k in keys)
    for name in names:
        text = run(tool, "explain", "--profile", a.profile, "--op", name, "--keys", key_list, *a.files)
        blocks = explain_blocks(text)
        if len(blocks) != len(keys):
            sys.exit(f"{name}: {len(blocks)} explanations for {len(keys)} keys")
        row = []
        for key, block in zip(keys, blocks):
            steps, i = [], 1
            taken = None
            while i < len(block) and not block[i].startswith("result: "):
                m = STEP.match(block[i])
                if not m:
                    sys.exit(f"{name} {key['name']}: cannot parse step {block[i]!r}")
                answer = m.group(3).rstrip()
                i += 1
                while i < len(block) and block[i].startswith("        "):
                    answer += "\n" + block[i].strip()
                    i += 1
                steps.append([m.group(1), intern(m.group(2)), intern(answer)])
                taken = m.group(1)
            m = RESULT.match(block[i])
            if not m:
                sys.exit(f"{name} {key['name']}: cannot parse {block[i]!r}")
            meaning = "\n".join(block[i + 1:])
            if m.group(1) is None:
                cell = {"status": "missing", "kernel": None, "provenance": None, "source_key": None}
            else:
                kernel, provenance = m.group(2), m.group(3)
                status, source = PROVENANCE[provenance]
                if provenance == "default backend kernel" and taken == "2.1":
                    source = "CompositeExplicitAutogradNonFunctional"
                fallthrough = kernel.startswith("fallthrough ")
                if fallthrough:
                    kernel, status = kernel[len("fallthrough "):], "fallthrough"
                cell = {"status": status, "kernel": intern(kernel), "provenance": provenance,
                        "source_key": source or key["name"]}
            cell["steps"] = steps
            cell["meaning"] = intern(meaning)
            ident = json.dumps(cell, sort_keys=True)
            if ident not in cell_index:
                cell_index[ident] = len(cells)
                cells.append(cell)
            row.append(cell_index[ident])
        operators.append({"namespace": name.split("::")[0], "name": name, "schema": schemas.get(name),
                          "cells": row})

    version = run(tool, "--version").split()[-1]
    data = {
        "version": 1,
        "tool": {"name": "dispatchtool", "version": version},
        "profile": a.profile,
        "title": a.title or ("dispatchtool: " + ", ".join(os.path.basename(f) for f in a.files)),
        "keys": keys,
        "aliases": aliases,
        "operators": operators,
        "cells": cells,
        "strings": strings,
    }
    with open(a.output, "w", encoding="utf-8") as f:
        # One line per top-level member, compact inside.
        f.write("{\n" + ",\n".join(json.dumps(k) + ": " + json.dumps(v, ensure_ascii=False, separators=(",", ":"))
                                   for k, v in data.items()) + "\n}\n")
    print(f"{a.output}: {len(operators)} operators × {len(keys)} keys, {len(cells)} distinct cells, "
          f"{len(strings)} strings")


if __name__ == "__main__":
    main()
