#!/usr/bin/python3
"""`dispatchtool lint --format sarif` is valid SARIF 2.1.0 that GitHub code scanning accepts.

    validate_sarif.py --tool build/dispatchtool --docs docs/lint.md \
        --schema tests/lint/data/sarif-schema-2.1.0.json

Lints the failing example of every rule in docs/lint.md (so every rule shows
up in the results) and validates the output against the official SARIF 2.1.0
JSON schema (vendored from oasis-tcs/sarif-spec, Schemata/sarif-schema-2.1.0.json)
with python3-jsonschema, then checks what GitHub's SARIF upload relies on:
tool.driver metadata and rules, ruleId/ruleIndex agreement, levels, relative
artifact URIs, regions, related locations, and partialFingerprints that do not
change when lines move. Exits 77 (skipped) if jsonschema cannot be imported.

The schema itself is not meta-validated: its run.language/toolComponent.language
pattern "^(?i)..." is not a valid Python regular expression (an inline flag
after "^"); instance validation never evaluates it because the linter does not
emit those properties.
"""
import argparse
import json
import os
import re
import sys
import tempfile

from lint_examples import Checks, doc_examples, rule_ids, run_lint, write

try:
    import jsonschema
except ImportError:  # pragma: no cover
    print("python3-jsonschema is not installed; skipping (apt-get install python3-jsonschema)")
    sys.exit(77)

LEVELS = {"error", "warning", "note"}
SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")


def sarif(tool, files, cwd, extra=()):
    status, out, err = run_lint(tool, ["--format", "sarif"] + list(extra) + list(files), cwd)
    if status not in (0, 1):
        raise RuntimeError(f"dispatchtool lint exited {status}: {err}")
    return status, json.loads(out)


def check_schema_valid(checks, validator, log, what):
    errors = sorted(validator.iter_errors(log), key=lambda e: list(e.absolute_path))
    for e in errors[:10]:
        print(f"  schema: {'/'.join(map(str, e.absolute_path))}: {e.message}")
    checks.check(not errors, f"{what}: valid against the SARIF 2.1.0 schema ({len(errors)} errors)")


def check_driver(checks, log, ids):
    checks.check(log.get("version") == "2.1.0", "version is 2.1.0")
    checks.check(len(log.get("runs", [])) == 1, "exactly one run")
    driver = log["runs"][0]["tool"]["driver"]
    checks.check(driver.get("name") == "dispatchtool", "tool.driver.name")
    checks.check(bool(driver.get("version")), "tool.driver.version")
    checks.check(bool(re.match(r"^https?://", driver.get("informationUri", ""))), "tool.driver.informationUri is absolute")
    rules = driver.get("rules", [])
    checks.check([r["id"] for r in rules] == ids, f"tool.driver.rules lists every rule in order: {[r['id'] for r in rules]}")
    for r in rules:
        ok = (bool(r.get("name")) and bool(r.get("shortDescription", {}).get("text"))
              and bool(r.get("fullDescription", {}).get("text")) and bool(r.get("help", {}).get("text"))
              and r.get("defaultConfiguration", {}).get("level") in LEVELS)
        checks.check(ok, f"rule {r.get('id')}: name, short/full description, help, defaultConfiguration.level")
    return rules


def check_physical(checks, loc, what):
    phys = loc.get("physicalLocation", {})
    uri = phys.get("artifactLocation", {}).get("uri", "")
    checks.check(bool(uri) and not SCHEME.match(uri) and not uri.startswith("/"), f"{what}: relative uri {uri!r}")
    region = phys.get("region")
    if region is not None:
        checks.check(region.get("startLine", 0) >= 1 and region.get("startColumn", 0) >= 1, f"{what}: region {region}")
    return uri


def check_results(checks, log, rules):
    results = log["runs"][0].get("results")
    checks.check(isinstance(results, list), "results is present")
    for i, res in enumerate(results or []):
        what = f"result {i} ({res.get('ruleId')})"
        idx = res.get("ruleIndex", -1)
        checks.check(0 <= idx < len(rules) and rules[idx]["id"] == res.get("ruleId"), f"{what}: ruleIndex matches ruleId")
        checks.check(res.get("level") in LEVELS, f"{what}: level {res.get('level')}")
        checks.check(bool(res.get("message", {}).get("text")), f"{what}: message.text")
        locs = res.get("locations", [])
        checks.check(len(locs) == 1, f"{what}: one location")
        for loc in locs:
            check_physical(checks, loc, what)
            checks.check("region" in loc.get("physicalLocation", {}), f"{what}: the primary location has a region")
        related = res.get("relatedLocations", [])
        checks.check(len({r.get("id") for r in related}) == len(related), f"{what}: related location ids are unique")
        for r in related:
            check_physical(checks, r, f"{what} related {r.get('id')}")
            checks.check(bool(r.get("message", {}).get("text")), f"{what} related {r.get('id')}: message")
        fps = res.get("partialFingerprints", {})
        checks.check(len(fps) == 1 and all(isinstance(v, str) and v for v in fps.values()), f"{what}: partialFingerprints")
    return results or []


def fingerprints(log):
    return sorted((r["ruleId"], json.dumps(r["partialFingerprints"], sort_keys=True)) for r in log["runs"][0]["results"])


def start_lines(log):
    return sorted(r["locations"][0]["physicalLocation"]["region"]["startLine"] for r in log["runs"][0]["results"])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tool", required=True)
    ap.add_argument("--docs", required=True)
    ap.add_argument("--schema", required=True)
    a = ap.parse_args()
    tool = os.path.abspath(a.tool)
    with open(a.schema, encoding="utf-8") as f:
        schema = json.load(f)
    validator = jsonschema.Draft202012Validator(schema, format_checker=jsonschema.Draft202012Validator.FORMAT_CHECKER)
    checks = Checks()
    ids = rule_ids(tool)
    examples = doc_examples(a.docs)

    with tempfile.TemporaryDirectory() as d:
        # Every rule's failing example, one file each, each in its own namespace so that
        # they do not interact (one in a directory with a space: URI escaping).
        files = []
        for i, rule in enumerate(ids):
            ext = examples[rule][2]
            name = f"ops dir/{rule}.{ext}" if rule == "duplicate-def" else f"ops/{rule}.{ext}"
            text = examples[rule][0].replace('namespace = "myops"', f'namespace = "ns{i}"')
            write(os.path.join(d, name), text.replace("(myops,", f"(ns{i},"))
            files.append(name)
        status, log = sarif(tool, files, d)
        checks.check(status == 1, f"exit status 1 with error findings, got {status}")
        check_schema_valid(checks, validator, log, "all rules")
        rules = check_driver(checks, log, ids)
        results = check_results(checks, log, rules)
        seen = {r["ruleId"] for r in results}
        checks.check(seen == set(ids), f"every rule has a result; missing {sorted(set(ids) - seen)}")
        uris = {r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for r in results}
        checks.check("ops%20dir/duplicate-def.toml" in uris, f"spaces are percent-encoded: {sorted(uris)[:3]}")

        # Absolute paths below the working directory still give relative URIs.
        _, abs_log = sarif(tool, [os.path.join(d, f) for f in files], d)
        check_schema_valid(checks, validator, abs_log, "absolute paths")
        check_results(checks, abs_log, rules)
        checks.check(fingerprints(abs_log) == fingerprints(log), "absolute paths: same fingerprints")

        # Moving every line down changes regions, not fingerprints.
        for f in files:
            with open(os.path.join(d, f), encoding="utf-8") as fh:
                text = fh.read()
            write(os.path.join(d, f), "# moved\n\n\n" + text)
        _, moved = sarif(tool, files, d)
        checks.check(start_lines(moved) != start_lines(log), "moved: regions changed")
        checks.check(fingerprints(moved) == fingerprints(log), "moved: partialFingerprints unchanged")

        # No findings: still a valid log with an empty results array.
        write(os.path.join(d, "clean.toml"), "namespace = \"myops\"\n")
        status, clean = sarif(tool, ["clean.toml"], d)
        checks.check(status == 0, "clean input exits 0")
        check_schema_valid(checks, validator, clean, "no findings")
        checks.check(clean["runs"][0]["results"] == [], "no findings: results is []")

        # The vendored schema really rejects broken logs (the validator is not vacuous).
        broken = json.loads(json.dumps(log))
        broken["runs"][0]["results"][0]["level"] = "fatal"
        del broken["runs"][0]["tool"]["driver"]["name"]
        checks.check(len(list(validator.iter_errors(broken))) == 2, "a broken log fails validation")
    return checks.finish()


if __name__ == "__main__":
    sys.exit(main())
