#!/usr/bin/python3
"""The documented GitHub Actions workflow uploads SARIF and fails on exit status 2 (and 1).

    check_workflow.py --tool build/dispatchtool --root .

Runs the steps of docs/ci/dispatchtool-lint.yml from the step `lint` on, and
the workflow excerpt in docs/lint.md, the way GitHub Actions runs them: each
`run:` script with `bash --noprofile --norc -eo pipefail` (the workflow's
`shell: bash`; the excerpt gets Actions' default `bash -e`), the workflow,
job and step `env`, `$GITHUB_OUTPUT` read back into `steps.<id>.outputs`, and
every step's `if:` evaluated (a small evaluator for the expressions these
files use: success(), failure(), always(), steps.*.outputs.*, env.*, ==, !=,
&&, ||, !). `github/codeql-action/upload-sarif` is replaced by a check that
the file is a SARIF 2.1.0 log, and is recorded as an upload. dispatchtool is
the real binary, on a clean file (exit 0), a file with an error finding
(exit 1) and a file with a TOML syntax error (exit 2):

    exit 0 -> job passes, SARIF uploaded (no results)
    exit 1 -> SARIF uploaded (with results), job fails; passes with FAIL_ON_FINDINGS=false
    exit 2 -> job fails, nothing uploaded

docs/ci.md must quote the workflow file verbatim, and no YAML block of the
docs may end a dispatchtool command in `|| true`.
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

import yaml

CLEAN = '''namespace = "myops"
[[def]]
schema = "f(Tensor x) -> Tensor"
dispatch = { CompositeImplicitAutograd = "f_decomposed" }
'''
FINDING = CLEAN + '''[[def]]
schema = "f(Tensor x) -> Tensor"
'''
BAD_INPUT = 'namespace = "myops"\n[[def]\n'


sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from checks import Checks  # noqa: E402


# ---- a small evaluator of GitHub Actions expressions ----------------------
_TOKEN = re.compile(r"\s*(?:(?P<str>'(?:[^']|'')*')|(?P<op>==|!=|&&|\|\||!|\(|\))|"
                    r"(?P<call>[a-z]+\(\))|(?P<ref>[A-Za-z_][A-Za-z0-9_.-]*))")


def evaluate(expr, ctx):
    """Evaluates an `if:` expression; ctx: {'steps': {...}, 'env': {...}, 'status': 'success'|'failure'}."""
    expr = expr.strip()
    if expr.startswith("${{") and expr.endswith("}}"):
        expr = expr[3:-2].strip()
    tokens, pos = [], 0
    while pos < len(expr):
        m = _TOKEN.match(expr, pos)
        if not m or m.end() == pos:
            raise ValueError(f"cannot parse {expr!r} at {pos}")
        pos = m.end()
        kind = m.lastgroup
        tokens.append((kind, m.group(kind)))
    status_called = any(k == "call" and v in ("success()", "failure()", "always()", "cancelled()")
                        for k, v in tokens)

    def value(kind, text):
        if kind == "str":
            return text[1:-1].replace("''", "'")
        if kind == "call":
            return {"success()": ctx["status"] == "success", "failure()": ctx["status"] == "failure",
                    "always()": True, "cancelled()": False}[text]
        parts = text.split(".")
        cur = {"steps": ctx["steps"], "env": ctx["env"]}
        for p in parts:
            cur = cur.get(p, "") if isinstance(cur, dict) else ""
        return cur

    # Recursive descent: or -> and -> not -> cmp -> atom
    toks = tokens + [("end", None)]
    i = 0

    def peek():
        return toks[i]

    def take():
        nonlocal i
        i += 1
        return toks[i - 1]

    def atom():
        kind, text = take()
        if text == "(":
            v = orx()
            take()
            return v
        return value(kind, text)

    def cmp():
        left = atom()
        while peek()[1] in ("==", "!="):
            op = take()[1]
            right = atom()
            eq = str(left).lower() == str(right).lower() if isinstance(left, str) or isinstance(right, str) \
                else left == right
            left = eq if op == "==" else not eq
        return left

    def notx():
        if peek()[1] == "!":
            take()
            return not truthy(notx())
        return cmp()

    def andx():
        v = notx()
        while peek()[1] == "&&":
            take()
            r = notx()
            v = r if truthy(v) else v
        return v

    def orx():
        v = andx()
        while peek()[1] == "||":
            take()
            r = andx()
            v = v if truthy(v) else r
        return v

    result = truthy(orx())
    # Without a status function, `if:` is implicitly `success() && (...)`.
    return result if status_called else (ctx["status"] == "success" and result)


def truthy(v):
    return bool(v) and v != "0"


# ---- running steps ----------------------------------------------------------
def run_steps(steps, workdir, env, shell, tool_dir):
    """Runs the steps like Actions would. Returns (job passed, [uploaded SARIF logs], log)."""
    ctx = {"steps": {}, "env": dict(env), "status": "success"}
    uploads, log = [], []
    for n, step in enumerate(steps):
        cond = step.get("if")
        run_it = evaluate(str(cond), ctx) if cond is not None else ctx["status"] == "success"
        if not run_it:
            log.append(f"step {n} ({step.get('name', step.get('id', ''))}): skipped")
            continue
        step_env = dict(env, **{k: str(v) for k, v in (step.get("env") or {}).items()})
        ok = True
        outputs = {}
        if "uses" in step:
            action = step["uses"].split("@")[0]
            if action != "github/codeql-action/upload-sarif":
                raise ValueError(f"unexpected action {step['uses']}")
            path = os.path.join(workdir, step["with"]["sarif_file"])
            try:
                with open(path, encoding="utf-8") as f:
                    sarif = json.load(f)
                ok = sarif.get("version") == "2.1.0" and isinstance(sarif["runs"][0]["results"], list)
                if ok:
                    uploads.append(sarif)
            except (OSError, ValueError, KeyError, IndexError) as e:
                ok = False
                log.append(f"upload-sarif: {e}")
        else:
            script = os.path.join(workdir, f".step{n}.sh")
            with open(script, "w") as f:
                f.write(step["run"])
            out_file = os.path.join(workdir, f".output{n}")
            open(out_file, "w").close()
            step_env.update(GITHUB_OUTPUT=out_file, GITHUB_WORKSPACE=workdir,
                            PATH=tool_dir + os.pathsep + os.environ.get("PATH", ""))
            r = subprocess.run(shell + [script], cwd=workdir, env=step_env, capture_output=True, text=True)
            ok = r.returncode == 0
            log.append(f"step {n} ({step.get('name', step.get('id', ''))}): exit {r.returncode} "
                       f"{r.stdout.strip()} {r.stderr.strip()}")
            for line in open(out_file).read().splitlines():
                if "=" in line:
                    k, v = line.split("=", 1)
                    outputs[k] = v
        if "id" in step:
            ctx["steps"][step["id"]] = {"outputs": outputs, "outcome": "success" if ok else "failure"}
        if not ok:
            ctx["status"] = "failure"
    return ctx["status"] == "success", uploads, log


def yaml_blocks(markdown):
    return re.findall(r"^```yaml\n(.*?)^```", markdown, re.M | re.S)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tool", required=True)
    ap.add_argument("--root", required=True)
    a = ap.parse_args()
    tool = os.path.abspath(a.tool)
    tool_dir = os.path.dirname(tool)
    root = os.path.abspath(a.root)
    checks = Checks()

    # The expression evaluator itself (a broken one would make every case below meaningless).
    ctx = {"steps": {"lint": {"outputs": {"status": "1"}}}, "env": {"F": "true"}, "status": "success"}
    for expr, want in [("steps.lint.outputs.status == '1'", True), ("steps.lint.outputs.status == '2'", False),
                       ("steps.lint.outputs.status != '1' || env.F == 'true'", True),
                       ("steps.lint.outputs.status == '1' && env.F == 'false'", False),
                       ("${{ always() }}", True), ("!(env.F == 'true')", False), ("failure()", False)]:
        checks.check(evaluate(expr, ctx) == want, f"evaluate({expr!r}) == {want}")
    checks.check(evaluate("always()", dict(ctx, status="failure")), "always() runs after a failure")
    checks.check(not evaluate("env.F == 'true'", dict(ctx, status="failure")),
                 "a condition without status function implies success()")

    wf_path = os.path.join(root, "docs", "ci", "dispatchtool-lint.yml")
    wf_text = open(wf_path, encoding="utf-8").read()
    wf = yaml.safe_load(wf_text)
    on = wf.get("on", wf.get(True))  # YAML 1.1 reads a bare `on` as true
    checks.check(on is not None and "pull_request" in on and "push" in on, "runs on push and pull_request")
    checks.check((wf.get("permissions") or {}).get("security-events") == "write",
                 "permissions: security-events: write (upload-sarif needs it)")
    checks.check(wf["defaults"]["run"]["shell"] == "bash", "run steps use shell: bash")
    job = wf["jobs"]["lint"]
    steps = job["steps"]
    ids = [s.get("id") for s in steps]
    checks.check("lint" in ids and "install" in ids, f"steps with ids install and lint: {ids}")
    upload = [s for s in steps if str(s.get("uses", "")).startswith("github/codeql-action/upload-sarif@")]
    checks.check(len(upload) == 1, "one upload-sarif step")
    lint_step = steps[ids.index("lint")]
    checks.check("--format sarif" in lint_step["run"] and upload and upload[0]["with"]["sarif_file"]
                 in lint_step["run"], "the lint step writes the SARIF file the upload step reads")
    install = steps[ids.index("install")]["run"]
    checks.check("cmake --install" in install and "-DDT_BUILD_TESTS=OFF" in install,
                 "the install step builds without tests and installs")

    # docs/ci.md quotes the workflow verbatim; no `|| true` after dispatchtool anywhere.
    ci_md = open(os.path.join(root, "docs", "ci.md"), encoding="utf-8").read()
    checks.check(wf_text in yaml_blocks(ci_md), "docs/ci.md quotes docs/ci/dispatchtool-lint.yml verbatim")
    lint_md = open(os.path.join(root, "docs", "lint.md"), encoding="utf-8").read()
    for name, text in [("docs/ci.md", ci_md), ("docs/lint.md", lint_md), ("README.md",
                       open(os.path.join(root, "README.md"), encoding="utf-8").read())]:
        code = "\n".join(re.findall(r"^```[a-z]*\n(.*?)^```", text, re.M | re.S))
        bad = [l for l in code.splitlines() if "dispatchtool" in l and re.search(r"\|\|\s*true", l)]
        checks.check(not bad, f"{name}: no dispatchtool command in a code block ends in '|| true': {bad}")
    excerpts = [b for b in yaml_blocks(lint_md) if "upload-sarif" in b]
    checks.check(len(excerpts) == 1, "docs/lint.md has one workflow excerpt with upload-sarif")

    workflow_env = {k: str(v) for k, v in (wf.get("env") or {}).items()}
    workflow_env.update({k: str(v) for k, v in (job.get("env") or {}).items()})
    from_lint = steps[ids.index("lint"):]
    scenarios = [("clean", CLEAN, 0), ("finding", FINDING, 1), ("bad-input", BAD_INPUT, 2)]
    with tempfile.TemporaryDirectory() as tmp:
        for name, content, status in scenarios:
            # Each scenario: ops/a.toml in a fresh workspace; exit status as expected from the binary.
            ws = os.path.join(tmp, name)
            os.makedirs(os.path.join(ws, "ops"))
            with open(os.path.join(ws, "ops", "a.toml"), "w") as f:
                f.write(content)
            r = subprocess.run([tool, "lint", "--format", "sarif", "ops/a.toml"], cwd=ws, capture_output=True)
            checks.check(r.returncode == status, f"{name}: dispatchtool lint exits {status} (got {r.returncode})")

            runs = [("workflow FAIL_ON_FINDINGS=true", from_lint, dict(workflow_env, FAIL_ON_FINDINGS="true"),
                     ["bash", "--noprofile", "--norc", "-eo", "pipefail"]),
                    ("workflow FAIL_ON_FINDINGS=false", from_lint, dict(workflow_env, FAIL_ON_FINDINGS="false"),
                     ["bash", "--noprofile", "--norc", "-eo", "pipefail"])]
            for excerpt in excerpts:
                runs.append(("docs/lint.md excerpt", yaml.safe_load(excerpt), {}, ["bash", "-e"]))
            for label, run_steps_, env, shell in runs:
                for f in ("dispatchtool.sarif",):
                    if os.path.exists(os.path.join(ws, f)):
                        os.remove(os.path.join(ws, f))
                env = dict(env, HOME=ws)
                passed, uploads, log = run_steps(run_steps_, ws, env, shell, tool_dir)
                what = f"{label}, {name} (exit {status})"
                if status == 0:
                    checks.check(passed, f"{what}: the job passes\n  " + "\n  ".join(log))
                    checks.check(len(uploads) == 1 and uploads[0]["runs"][0]["results"] == [],
                                 f"{what}: an empty SARIF result list is uploaded")
                elif status == 1:
                    checks.check(len(uploads) == 1 and len(uploads[0]["runs"][0]["results"]) >= 1,
                                 f"{what}: the SARIF with the findings is uploaded\n  " + "\n  ".join(log))
                    want_pass = "false" in label
                    checks.check(passed == want_pass,
                                 f"{what}: the job {'passes' if want_pass else 'fails'}\n  " + "\n  ".join(log))
                else:
                    checks.check(not passed, f"{what}: the job fails\n  " + "\n  ".join(log))
                    checks.check(uploads == [], f"{what}: nothing is uploaded")

    print(f"{checks.passed} passed, {checks.failed} failed")
    if checks.passed < 30:
        print(f"FAIL: only {checks.passed} checks passed")
        return 1
    return 1 if checks.failed else 0


if __name__ == "__main__":
    sys.exit(main())
