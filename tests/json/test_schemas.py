#!/usr/bin/python3
"""The JSON Schemas of docs/schema/ are valid, documented, and tell good output from bad.

    test_schemas.py --tool build/dispatchtool --root .

1. every docs/schema/*.schema.json is valid against the draft 2020-12
   metaschema and its $refs resolve (validate.py --check-schemas);
2. every example of docs/json.md (a ```json block after `<!-- schema: NAME -->`)
   validates against NAME.schema.json, and every schema but common has one;
3. each example, broken in each way the conventions forbid, is invalid: a
   required member removed, an unknown member added, members out of order,
   a colour escape in a string, a status or provenance outside the
   vocabulary, another version, a wrong type;
4. the data of the page `html` writes for the shipped examples validates
   against html.schema.json (and a broken variant does not);
5. real output of the binary validates: `lint --format json` of every shipped
   example and of every failing example of docs/lint.md (every other
   command's output: tests/json/test_outputs.py, ctest json.outputs).
"""
import argparse
import copy
import glob
import json
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import validate  # noqa: E402

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lint"))
from lint_examples import doc_examples  # noqa: E402


sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from checks import Checks  # noqa: E402


def objects(node, path=()):
    """(path, dict) for every object in node, outermost first."""
    if isinstance(node, dict):
        yield path, node
        for k, v in node.items():
            yield from objects(v, path + (k,))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from objects(v, path + (i,))


def at(node, path):
    for p in path:
        node = node[p]
    return node


def mutations(doc):
    """(description, broken copy) pairs, each breaking one convention."""
    out = []
    for path, obj in list(objects(doc)):
        if not obj:
            continue
        keys = list(obj)
        where = "/".join(map(str, path)) or "$"
        # A required member removed (every member of every shape is required).
        d = copy.deepcopy(doc)
        del at(d, path)[keys[0]]
        out.append((f"{where}: without {keys[0]!r}", d))
        # An unknown member.
        d = copy.deepcopy(doc)
        at(d, path)["unexpected"] = 1
        out.append((f"{where}: with an unknown member", d))
        # Members out of order (when there are two).
        if len(keys) >= 2:
            d = copy.deepcopy(doc)
            o = at(d, path)
            items = list(o.items())
            o.clear()
            o.update([items[1], items[0]] + items[2:])
            out.append((f"{where}: {keys[1]!r} before {keys[0]!r}", d))
        for k, v in obj.items():
            if isinstance(v, str) and k not in ("version",):
                d = copy.deepcopy(doc)
                at(d, path)[k] = "\x1b[1m" + v + "\x1b[0m"
                out.append((f"{where}.{k}: a colour escape", d))
                break
        for k in ("status", "provenance"):
            if isinstance(obj.get(k), str):
                d = copy.deepcopy(doc)
                at(d, path)[k] = "kernel?" if k == "status" else "registered kernel"
                out.append((f"{where}.{k}: outside the vocabulary", d))
        for k, v in obj.items():
            if isinstance(v, bool):
                d = copy.deepcopy(doc)
                at(d, path)[k] = "true"
                out.append((f"{where}.{k}: a string for a boolean", d))
                break
    if isinstance(doc, dict):
        d = copy.deepcopy(doc)
        d["version"] = 2
        out.append(("version 2", d))
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tool", required=True)
    ap.add_argument("--root", required=True)
    a = ap.parse_args()
    root = os.path.abspath(a.root)
    tool = os.path.abspath(a.tool)
    schema_dir = os.path.join(root, "docs", "schema")
    checks = Checks()

    errors = validate.check_schemas(schema_dir)
    checks.check(not errors, f"schemas valid against the 2020-12 metaschema: {errors}")
    names = sorted(os.path.basename(p)[:-len(".schema.json")] for p in glob.glob(os.path.join(schema_dir, "*.schema.json")))
    for required in ("table", "registrations", "keys", "explain", "coverage", "lint", "html", "common", "trace",
                     "diff"):
        checks.check(required in names, f"docs/schema/{required}.schema.json exists")

    doc = open(os.path.join(root, "docs", "json.md"), encoding="utf-8").read()
    examples = re.findall(r"<!-- schema: ([a-z][a-z-]*) -->\n```json\n(.*?)^```", doc, re.M | re.S)
    documented = {name for name, _ in examples}
    for name in names:
        if name not in ("common", "lint", "html"):
            checks.check(name in documented, f"docs/json.md has an example of {name}")
    # The HTML matrix's data: what `dispatchtool html` writes into the template (docs/html/README.md).
    template = open(os.path.join(root, "docs", "html", "matrix_template.html"), encoding="utf-8").read()
    head, tail = template.split("{{DISPATCHTOOL_DATA}}")
    page = subprocess.run([tool, "html", "-o", "-"] +
                          sorted(glob.glob(os.path.join(root, "configs", "examples", "*.toml"))),
                          capture_output=True, text=True, check=True).stdout
    checks.check(page.startswith(head) and page.endswith(tail), "html writes the template with its data")
    sample = json.loads(page[len(head):len(page) - len(tail)])
    errs = validate.validate(os.path.join(schema_dir, "html.schema.json"), sample)
    checks.check(not errs, f"the data of html's page validates against html.schema.json: {errs[:5]}")
    bad = copy.deepcopy(sample)
    bad["cells"][0]["steps"][0].append(0)
    checks.check(validate.validate(os.path.join(schema_dir, "html.schema.json"), bad),
                 "a step with four members is invalid")
    broken = 0
    for name, text in examples:
        schema = os.path.join(schema_dir, f"{name}.schema.json")
        instance = json.loads(text)
        errs = validate.validate(schema, instance)
        checks.check(not errs, f"docs/json.md example of {name} validates: {errs}")
        for what, bad in mutations(instance):
            errs = validate.validate(schema, bad)
            checks.check(errs, f"{name} example, {what}: invalid")
            broken += 1
    checks.check(broken >= 100, f"at least 100 broken variants checked ({broken})")

    # Real output: lint --format json.
    lint_schema = os.path.join(schema_dir, "lint.schema.json")
    outputs = 0
    with tempfile.TemporaryDirectory() as d:
        inputs = [[p] for p in sorted(glob.glob(os.path.join(root, "configs", "examples", "*.toml")))]
        for rule, pair in doc_examples(os.path.join(root, "docs", "lint.md")).items():
            if pair:
                path = os.path.join(d, f"{rule}.{pair[2]}")
                with open(path, "w") as f:
                    f.write(pair[0])
                inputs.append([path])
        for files in inputs:
            r = subprocess.run([tool, "lint", "--no-config", "--format", "json", *files],
                               capture_output=True, text=True, cwd=d)
            if not checks.check(r.returncode in (0, 1), f"lint {files}: exit {r.returncode} {r.stderr}"):
                continue
            errs = validate.validate(lint_schema, json.loads(r.stdout))
            checks.check(not errs, f"lint --format json {files} validates: {errs}")
            outputs += 1
    checks.check(outputs >= 15, f"at least 15 real lint outputs validated ({outputs})")

    # The command-line helper: exit 0 on a valid file, 1 on an invalid one.
    with tempfile.TemporaryDirectory() as d:
        good = os.path.join(d, "good.json")
        with open(good, "w") as f:
            f.write(examples[0][1])
        bad = os.path.join(d, "bad.json")
        with open(bad, "w") as f:
            json.dump(mutations(json.loads(examples[0][1]))[0][1], f)
        helper = os.path.join(os.path.dirname(os.path.abspath(__file__)), "validate.py")
        schema = os.path.join(schema_dir, f"{examples[0][0]}.schema.json")
        r = subprocess.run([sys.executable, helper, schema, good], capture_output=True, text=True)
        checks.check(r.returncode == 0, f"validate.py on a valid file exits 0: {r.stdout}")
        r = subprocess.run([sys.executable, helper, schema, bad], capture_output=True, text=True)
        checks.check(r.returncode == 1 and "required" in r.stdout, f"validate.py on an invalid file exits 1: {r.stdout}")

    print(f"{checks.passed} passed, {checks.failed} failed")
    return 1 if checks.failed else 0


if __name__ == "__main__":
    sys.exit(main())
