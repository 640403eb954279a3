#!/usr/bin/env python3
"""Every rule is documented in docs/lint.md, and its examples do what the docs say.

    check_doc_examples.py --tool build/dispatchtool --docs docs/lint.md

For each rule of `dispatchtool lint --list-rules`: docs/lint.md has a section
"## `rule-id`" with a failing and a fixed TOML example; linting the failing one
reports the rule (and exits 1 when the rule's default severity is error), the
fixed one does not report it.
"""
import argparse
import os
import sys
import tempfile

from lint_examples import Checks, doc_examples, lint_json, rule_ids, run_lint, write


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tool", required=True)
    ap.add_argument("--docs", required=True)
    a = ap.parse_args()
    tool = os.path.abspath(a.tool)
    examples = doc_examples(a.docs)
    checks = Checks()
    ids = rule_ids(tool)
    checks.check(len(ids) >= 11, f"at least the 11 required rules: {ids}")
    checks.check(sorted(examples) == sorted(ids), f"docs sections {sorted(examples)} == rules {sorted(ids)}")
    with tempfile.TemporaryDirectory() as d:
        for rule in ids:
            pair = examples.get(rule)
            if not checks.check(pair is not None, f"{rule}: a failing and a fixed ```toml example"):
                continue
            failing, fixed, ext = pair
            write(os.path.join(d, rule, "failing." + ext), failing)
            write(os.path.join(d, rule, "fixed." + ext), fixed)
            got = [f["rule"] for f in lint_json(tool, ["failing." + ext], os.path.join(d, rule))]
            checks.check(rule in got, f"{rule}: the failing example reports it (got {got})")
            got = [f["rule"] for f in lint_json(tool, ["fixed." + ext], os.path.join(d, rule))]
            checks.check(rule not in got, f"{rule}: the fixed example does not report it (got {got})")
            # Only this rule: exit status 1 exactly when its default severity is error.
            status, _, err = run_lint(tool, ["--select", rule, "failing." + ext], os.path.join(d, rule))
            severity = [f["severity"] for f in lint_json(tool, ["failing." + ext], os.path.join(d, rule))
                        if f["rule"] == rule]
            want = 1 if "error" in severity else 0
            checks.check(status == want, f"{rule}: --select {rule} exits {want}, got {status}: {err}")
    return checks.finish()


if __name__ == "__main__":
    sys.exit(main())
