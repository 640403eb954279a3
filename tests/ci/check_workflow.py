#!/usr/bin/python3
"""The documented GitHub Actions workflow uploads SARIF and fails on exit status 2 (and 1).

    check_workflow.py --tool build/dispatchtool --root .

Runs the steps of docs/ci/dispatchtool-lint.yml from the step `base` (the
base branch's lint configuration) on, and the workflow excerpt in
docs/lint.md, the way GitHub Actions runs them: each `run:` script with
`bash --noprofile --norc -eo pipefail` (the workflow's `shell: bash`; the
excerpt gets Actions' default `bash -e`), the workflow, job and step `env`,
`$GITHUB_OUTPUT` read back into `steps.<id>.outputs`, `$RUNNER_TEMP`,
`$GITHUB_BASE_REF`, and every step's `if:` evaluated (a small evaluator for
the expressions these files use: success(), failure(), always(),
steps.*.outputs.*, env.*, github.event_name, ==, !=, &&, ||, !). `github/codeql-action/upload-sarif` is replaced by a check that
the file is a SARIF 2.1.0 log, and is recorded as an upload. dispatchtool is
the real binary, on a clean file (exit 0), a file with an error finding
(exit 1) and a file with a TOML syntax error (exit 2):

    exit 0 -> job passes, SARIF uploaded (no results)
    exit 1 -> SARIF uploaded (with results), job fails; passes with FAIL_ON_FINDINGS=false
    exit 2 -> job fails, nothing uploaded

and on a pull request from a stranger (issue 32), in a git repository whose
`origin` has the base branch:

    the pull request's .dispatchtool-lint.toml demotes the error to info -> job fails
      (the same checkout on a push, where the configuration is the repository's: passes)
    the pull request rewrites the baseline the base's configuration names -> job fails
    a committed file named --write-baseline=lint-baseline.toml (OPS: *.toml)
      -> linted as a file: job fails with its finding, no baseline written
    a committed ops/zz.toml -> /proc/self/fd/2 (stderr a pipe), -> /etc/passwd
      -> job fails (exit 2) in seconds, nothing uploaded, nothing of the target in the log

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
    """Evaluates an `if:` expression; ctx: {'steps': {...}, 'env': {...}, 'github': {...},
    'status': 'success'|'failure'}."""
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
        cur = {"steps": ctx["steps"], "env": ctx["env"], "github": ctx.get("github", {})}
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
def run_steps(steps, workdir, env, shell, tool_dir, github=None):
    """Runs the steps like Actions would. Returns (job passed, [uploaded SARIF logs], log).
    A step that runs past 60 s fails (a hang)."""
    ctx = {"steps": {}, "env": dict(env), "github": dict(github or {"event_name": "push"}), "status": "success"}
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
            try:
                r = subprocess.run(shell + [script], cwd=workdir, env=step_env, capture_output=True, text=True,
                                   errors="replace", timeout=60)
                ok = r.returncode == 0
                log.append(f"step {n} ({step.get('name', step.get('id', ''))}): exit {r.returncode} "
                           f"{r.stdout.strip()} {r.stderr.strip()}")
            except subprocess.TimeoutExpired:
                ok = False
                log.append(f"step {n} ({step.get('name', step.get('id', ''))}): TIMED OUT after 60 s (a hang)")
            for line in open(out_file).read().splitlines():
                if "=" in line:
                    k, v = line.split("=", 1)
                    outputs[k] = v
        if "id" in step:
            ctx["steps"][step["id"]] = {"outputs": outputs, "outcome": "success" if ok else "failure"}
        if not ok:
            ctx["status"] = "failure"
    return ctx["status"] == "success", uploads, log


# ---- pull requests from strangers (issue 32) ---------------------------------
GIT_ENV = dict(os.environ, GIT_AUTHOR_NAME="t", GIT_AUTHOR_EMAIL="t@example.invalid", GIT_COMMITTER_NAME="t",
               GIT_COMMITTER_EMAIL="t@example.invalid", GIT_CONFIG_NOSYSTEM="1", GIT_CONFIG_GLOBAL=os.devnull)
GIT_ENV.pop("GIT_DIR", None)
DEMOTE = '[severity]\nduplicate-def = "info"\n'
OPTION_NAMED = "--write-baseline=lint-baseline.toml"


def git(cwd, *args):
    subprocess.run(["git", *args], cwd=cwd, env=GIT_ENV, check=True, capture_output=True)


def write_files(root, files):
    for name, text in files.items():
        path = os.path.join(root, name)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as f:
            f.write(text)


def checkout(tmp, name, base_files, pr_files=None, links=None):
    """A checkout of a pull request: `origin` has the base branch `main` with `base_files`; the checkout has
    them changed by `pr_files` and `links` (name -> target)."""
    origin, seed, ws = (os.path.join(tmp, name + s) for s in ("-origin.git", "-seed", ""))
    git(tmp, "init", "-q", "--bare", origin)
    git(tmp, "init", "-q", "-b", "main", seed)
    write_files(seed, base_files)
    git(seed, "add", "-A")
    git(seed, "commit", "-q", "-m", "base")
    git(seed, "push", "-q", origin, "main")
    git(tmp, "clone", "-q", "-b", "main", origin, ws)
    write_files(ws, pr_files or {})
    for link, target in (links or {}).items():
        os.makedirs(os.path.dirname(os.path.join(ws, link)), exist_ok=True)
        os.symlink(target, os.path.join(ws, link))
    return ws


def untrusted_pull_requests(checks, tool, tool_dir, tmp, steps, workflow_env):
    shell = ["bash", "--noprofile", "--norc", "-eo", "pipefail"]

    def run(ws, event, **env):
        runner_temp = ws + "-runner"
        os.makedirs(runner_temp, exist_ok=True)
        env = dict(workflow_env, FAIL_ON_FINDINGS="true", HOME=ws, RUNNER_TEMP=runner_temp, GITHUB_BASE_REF="main",
                   **env)
        return run_steps(steps, ws, env, shell, tool_dir, {"event_name": event})

    # The pull request demotes the error to info in its own configuration.
    ws = checkout(tmp, "pr-demote", {"ops/a.toml": FINDING}, {".dispatchtool-lint.toml": DEMOTE})
    passed, uploads, log = run(ws, "pull_request")
    checks.check(not passed and len(uploads) == 1 and uploads[0]["runs"][0]["results"],
                 "a pull request whose .dispatchtool-lint.toml demotes the error fails, with the finding uploaded\n  "
                 + "\n  ".join(log))
    shutil.rmtree(ws + "-runner")
    subprocess.run(["git", "worktree", "prune"], cwd=ws, env=GIT_ENV)
    passed, _, log = run(ws, "push")
    checks.check(passed, "(control) the same checkout on a push, with the repository's own configuration, "
                 "passes\n  " + "\n  ".join(log))

    # The base's configuration names a baseline; the pull request rewrites it to accept its finding.
    ws = checkout(tmp, "pr-baseline", {".dispatchtool-lint.toml": 'baseline = "lint-baseline.toml"\n',
                                       "lint-baseline.toml": "version = 1\n", "ops/a.toml": CLEAN},
                  {"ops/a.toml": FINDING})
    r = subprocess.run([tool, "lint", "--write-baseline", "lint-baseline.toml", "ops/a.toml"], cwd=ws,
                       capture_output=True, text=True)
    checks.check(r.returncode == 0 and "accepting 1 finding" in r.stderr, f"the pull request's baseline: {r.stderr}")
    passed, uploads, log = run(ws, "pull_request")
    checks.check(not passed and len(uploads) == 1 and uploads[0]["runs"][0]["results"],
                 "a pull request that rewrites the baseline to accept its finding fails\n  " + "\n  ".join(log))

    # A committed file named like an option among the matches.
    ws = checkout(tmp, "option-named", {"a.toml": CLEAN, OPTION_NAMED: FINDING})
    passed, uploads, log = run(ws, "push", OPS="*.toml")
    checks.check(not passed and len(uploads) == 1 and uploads[0]["runs"][0]["results"] and
                 not os.path.exists(os.path.join(ws, "lint-baseline.toml")),
                 f"a committed file named {OPTION_NAMED} is linted: the job fails with its finding, and no "
                 "baseline is written\n  " + "\n  ".join(log))

    # Committed links out of the checkout: standard error (a pipe: reading it never ends), /etc/passwd.
    for target in ("/proc/self/fd/2", "/etc/passwd"):
        ws = checkout(tmp, "link-" + target.replace("/", "-"), {"ops/a.toml": CLEAN}, links={"ops/zz.toml": target})
        passed, uploads, log = run(ws, "pull_request")
        text = "\n  ".join(log)
        checks.check(not passed and not uploads and "TIMED OUT" not in text and "root:" not in text and
                     "ops/zz.toml: error:" in text,
                     f"a committed ops/zz.toml -> {target}: the job fails at once with an error at ops/zz.toml, "
                     "nothing uploaded, nothing of the target shown\n  " + text)


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
    checks.check("base" in ids and ids.index("base") < ids.index("lint") and
                 "pull_request" in str(steps[ids.index("base")].get("if", "")),
                 "a step 'base' before 'lint' takes the base branch's configuration on pull requests")
    checks.check(re.search(r"dispatchtool lint [^\n]*--inside \. [^\n]*-- \$OPS", lint_step["run"]) is not None,
                 "the lint step reads only inside the checkout (--inside .) and ends the options before $OPS (--)")
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
    from_lint = steps[ids.index("base"):]
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

        untrusted_pull_requests(checks, tool, tool_dir, tmp, from_lint, workflow_env)

    print(f"{checks.passed} passed, {checks.failed} failed")
    if checks.passed < 30:
        print(f"FAIL: only {checks.passed} checks passed")
        return 1
    return 1 if checks.failed else 0


if __name__ == "__main__":
    sys.exit(main())
