#!/usr/bin/python3
"""The playground (docs/playground.md) in headless Chromium: the page runs the tool itself.

    test_playground.py --tool build/dispatchtool --page build-web/playground.html [--screenshot PNG]

Opens the one self-contained page (file://, the browser offline) in headless
Chromium driven over the DevTools protocol (python3-websocket, loopback only),
and drives it as a user: real mouse clicks on PythonDispatcher's key boxes,
typing into the TOML textarea, choosing a style, an operator, a key and
tensor arguments. After every step, each of the page's three outputs (table,
explain, trace) must be byte for byte what the native `dispatchtool` prints
(standard output, then standard error) for the same arguments on the same
TOML, written to a file of the same name (playground.toml) -- so errors read
`playground.toml:LINE:COL: error: ...` in both -- with the same exit status.
Also checked: the key boxes are the profile's PythonDispatcher keys (as the
native tool's refusal of an unsupported key lists them), the page loads
nothing (no request but the page itself; its CSP forbids any), and no console
error or warning, no uncaught exception. Writes a PNG screenshot to
--screenshot.

Fails (never skips) when chromium, python3-websocket or the page is missing.
"""
import argparse
import base64
import json
import os
import re
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "tests"))
from checks import Checks  # noqa: E402  (tests/checks.py)

PROFILE = "torch-2.14"
FILE = "playground.toml"


def fail(message):
    print(f"FAIL: {message}")
    print("0 passed, 1 failed")
    sys.exit(1)


try:
    import websocket  # noqa: F401  (the DevTools connection of tests/html/test_html.py's Browser)
except ImportError:
    fail("python3-websocket is not installed (tools/install-deps --tests installs it)")
sys.path.insert(0, os.path.join(ROOT, "tests", "html"))
from test_html import Browser, chromium_binary  # noqa: E402


class Native:
    """The native tool on the page's text, in a scratch directory, as the page names its file."""

    def __init__(self, tool, scratch):
        self.tool, self.scratch = tool, scratch

    def run(self, args, toml, file=FILE):
        with open(os.path.join(self.scratch, file), "w", encoding="utf-8") as f:
            f.write(toml)
        r = subprocess.run([self.tool, *args], cwd=self.scratch, capture_output=True, text=True)
        return r.returncode, r.stdout + r.stderr


JS_STATE = """JSON.stringify({toml: document.getElementById('toml').value,
  style: document.getElementById('style').value, op: document.getElementById('op').value.trim(),
  key: document.getElementById('explain-key').value.trim(), args: document.getElementById('trace-args').value.trim(),
  runs: +document.body.dataset.runs, file: document.getElementById('file').textContent.replace(/^file /, ''),
  svg: document.getElementById('keyset').dataset.svg || '', svgCmd: document.getElementById('keyset-cmd').textContent,
  boxes: Array.from(document.querySelectorAll('#keys input'), e => [e.dataset.key, e.checked, e.disabled]),
  hint: document.getElementById('keys-hint').textContent,
  out: Object.fromEntries(['table', 'explain', 'trace'].map(n => { const e = document.getElementById(n);
    return [n, [+e.dataset.status, e.textContent, e.classList.contains('error'),
                document.getElementById(n + '-cmd').textContent]]; }))})"""


def state(b):
    return json.loads(b.eval(JS_STATE))


def commands(s):
    """The three command lines for the page's state, as docs/playground.md documents them."""
    op = ["--op", s["op"]] if s["op"] else []
    tensors = [x for a in s["args"].split() for x in ("--arg", a)]
    return {
        "table": ["table", "--profile", PROFILE, "--style", s["style"], *op, s["file"]],
        "explain": ["explain", "--profile", PROFILE, *op, "--keys", s["key"], s["file"]],
        "trace": ["trace", "--profile", PROFILE, *op, *tensors, s["file"]],
    }


def check_outputs(checks, native, s, what, expect=None):
    """Each output of the page equals the native tool's for the same arguments and text."""
    statuses = {}
    for name, args in commands(s).items():
        status, text, shown_error, cmd = s["out"][name]
        want_status, want_text = native.run(args, s["toml"], s["file"])
        statuses[name] = status
        checks.check(cmd == "$ dispatchtool " + " ".join(args), f"{what}: {name}: the command shown: {cmd!r}")
        ok = checks.check(status == want_status and text == want_text,
                          f"{what}: {name}: the page shows what `dispatchtool {' '.join(args)}` prints")
        if not ok:
            print(f"--- page (exit {status}):\n{text}\n--- native (exit {want_status}):\n{want_text}")
        checks.check(shown_error == (status != 0), f"{what}: {name}: shown as an error exactly when it fails")
    # The key-set picture under trace: the native `trace --format svg`, byte for byte.
    svg_args = commands(s)["trace"][:-1] + ["--format", "svg", s["file"]]
    if statuses.get("trace") == 0:
        want_status, want_svg = native.run(svg_args, s["toml"], s["file"])
        checks.check(want_status == 0 and s["svg"] == want_svg and s["svg"].startswith("<svg "),
                     f"{what}: the key-set picture is what `dispatchtool {' '.join(svg_args)}` draws")
        checks.check(s["svgCmd"] == "$ dispatchtool " + " ".join(svg_args), f"{what}: its command shown")
    else:
        checks.check(s["svg"] == "" and s["svgCmd"] == "", f"{what}: no picture when trace fails")
    checks.check(s["file"] in ("playground.toml", "playground.py", "playground.cpp"), f"{what}: file {s['file']}")
    if expect is not None:
        checks.check(statuses == expect, f"{what}: exit statuses {statuses} == {expect}")
    return statuses


def wait_update(b, before, what, timeout=20):
    """Waits until the page has re-run the tool since `before` (its run count)."""
    if not b.wait_for(f"+document.body.dataset.runs > {before}", timeout=timeout):
        raise TimeoutError(f"{what}: the page did not update within {timeout} s")
    return state(b)


def click_element(b, selector):
    """A real mouse click at the middle of the element."""
    r = b.eval(f"(e => {{ e.scrollIntoView({{block: 'center'}}); const r = e.getBoundingClientRect();"
               f" return [r.x + r.width / 2, r.y + r.height / 2]; }})(document.querySelector({json.dumps(selector)}))")
    b.click(r[0], r[1])


def type_text(b, selector, text, at_end=True, replace=False):
    """Focuses a field (a click), puts the caret at its end (or selects all) and types `text`."""
    click_element(b, selector)
    how = "e.select()" if replace else "e.setSelectionRange(e.value.length, e.value.length)" if at_end else "0"
    b.eval(f"(e => {{ e.focus(); {how}; }})(document.querySelector({json.dumps(selector)}))")
    b.call("Input.insertText", text=text)


def commit_field(b, selector, value):
    """Types a new value into an input field and commits it (Enter fires 'change' on text inputs)."""
    type_text(b, selector, value, replace=True)
    if not value:  # typing nothing over the selection leaves it: delete it
        for kind in ("keyDown", "keyUp"):
            b.call("Input.dispatchKeyEvent", type=kind, key="Delete", code="Delete", windowsVirtualKeyCode=46)
    for kind in ("keyDown", "keyUp"):
        b.call("Input.dispatchKeyEvent", type=kind, key="Enter", code="Enter", windowsVirtualKeyCode=13,
               **({"text": "\r"} if kind == "keyDown" else {}))


# Registrations as users paste them from the tutorials' shapes (written here, copied from nowhere).
PY_TEXT = ("import torch\n\nlib = torch.library.Library('pg', 'DEF')\nlib.define('twice(Tensor x) -> Tensor')\n\n\n"
           "def twice_cpu(x):\n    return 2 * x\n\n\nlib.impl('twice', twice_cpu, 'CPU')\n")
CPP_TEXT = ('#include <torch/library.h>\n\nat::Tensor twice_cpu(const at::Tensor& x) { return x * 2; }\n\n'
            'TORCH_LIBRARY(pg, m) {\n  m.def("twice(Tensor x) -> Tensor");\n  m.impl("twice", torch::kCPU, &twice_cpu);\n}\n')


def check_no_overflow(checks, b, what):
    """Long lines wrap: no output needs a horizontal scroll bar."""
    wide = b.eval("['table', 'explain', 'trace'].filter(n => { const e = document.getElementById(n);"
                  " return e.scrollWidth > e.clientWidth + 1; })")
    checks.check(wide == [], f"{what}: every output fits its width (long lines wrap): {wide}")


def native_python_dispatcher_keys(tool):
    """PythonDispatcher's supported keys, as the native tool's refusal lists them."""
    r = subprocess.run([tool, "table", "--profile", PROFILE, "--register", "NotAKey"], capture_output=True, text=True)
    m = re.search(r"please select a dispatch key in \[(.*)\]\.", r.stderr)
    return re.findall(r"'([^']*)'", m.group(1)) if m else None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tool", required=True, help="the native dispatchtool binary")
    ap.add_argument("--page", required=True, help="the playground page (tools/build-playground)")
    ap.add_argument("--screenshot")
    a = ap.parse_args()
    checks = Checks()
    binary = chromium_binary()
    if binary is None:
        fail("chromium is not installed (tools/install-deps --tests installs it)")
    page = os.path.abspath(a.page)
    if not os.path.isfile(page):
        fail(f"{page}: no playground page (tools/build-playground builds it)")
    tool = os.path.abspath(a.tool)
    html = open(page, encoding="utf-8").read()
    size = os.path.getsize(page)
    print(f"page: {size / 1e6:.2f} MB")
    checks.check(not re.search(r"""(?:src|href)\s*=\s*["']?(?:https?:)?//""", html, re.I),
                 "the page names nothing on the network")
    csp = re.search(r'http-equiv="Content-Security-Policy"\s+content="([^"]*)"', html)
    checks.check(csp is not None and "default-src 'none'" in csp.group(1) and
                 re.findall(r"(?:^|;)\s*connect-src ([^;]*)", csp.group(1)) == ["data:"],
                 f"the page's CSP forbids every request but to a data: URL: {csp and csp.group(1)}")

    with tempfile.TemporaryDirectory() as d:
        native = Native(tool, d)
        b = Browser(binary, os.path.join(d, "profile"), width=1400, height=1000)
        try:
            b.call("Network.emulateNetworkConditions", offline=True, latency=0, downloadThroughput=-1,
                   uploadThroughput=-1)
            url = "file://" + page
            t0 = time.monotonic()
            b.open(url)
            checks.check(b.wait_for("document.body.dataset.ready === 'true'", timeout=60), "the page starts")
            print(f"ready in {time.monotonic() - t0:.2f} s")
            s = state(b)

            # The key boxes: PythonDispatcher's keys of the profile, from the core.
            boxes = b.eval("Array.from(document.querySelectorAll('#keys input'), e => [e.dataset.key, e.checked])")
            want = native_python_dispatcher_keys(tool)
            checks.check(want and [k for k, _ in boxes] == want, f"the key boxes {boxes} are PythonDispatcher's {want}")
            checked = [k for k, on in boxes if on]
            checks.check(checked == ["CPU", "XLA", "CompositeImplicitAutograd"], f"checked at first: {checked}")
            checks.check('dispatch = { CPU = "fn_CPU", XLA = "fn_XLA", CompositeImplicitAutograd = '
                         '"fn_CompositeImplicitAutograd" }' in s["toml"], "the TOML has a kernel per checked key")
            v = subprocess.run([tool, "--version"], capture_output=True, text=True)
            version = (v.stdout + v.stderr).split()[-1]
            checks.check(b.eval("document.getElementById('version').textContent") == version,
                         f"the page's tool is version {version}")
            check_outputs(checks, native, s, "at first", {"table": 0, "explain": 0, "trace": 0})

            # Clicks: XLA off, AutogradCPU on, then Autograd and CompositeExplicitAutograd on.
            timings = []
            for key in ("XLA", "AutogradCPU", "CompositeImplicitAutograd", "Autograd", "CompositeExplicitAutograd"):
                before = s["runs"]
                t0 = time.monotonic()
                click_element(b, f"#keys input[data-key='{key}']")
                s = wait_update(b, before, f"click {key}")
                timings.append(time.monotonic() - t0)
                check_outputs(checks, native, s, f"after a click on {key}", {"table": 0, "explain": 0, "trace": 0})
            boxes = b.eval("Array.from(document.querySelectorAll('#keys input:checked'), e => e.dataset.key)")
            checks.check(sorted(boxes) == ["Autograd", "AutogradCPU", "CPU", "CompositeExplicitAutograd"],
                         f"the boxes follow the clicks: {boxes}")
            clicked = ["CPU", "AutogradCPU", "Autograd", "CompositeExplicitAutograd"]  # kept, then as clicked
            line = "dispatch = { " + ", ".join(f'{k} = "fn_{k}"' for k in clicked) + " }\n"
            checks.check(s["toml"].endswith(line), f"the TOML follows the clicks: {s['toml']!r}")
            print(f"a click updates the three outputs in {max(timings):.2f} s at most")
            checks.check("fn_AutogradCPU" in s["out"]["explain"][1], "explain AutogradCPU names the kernel clicked on")

            # The style and the explain key and trace arguments, typed.
            for style in ("raw", "python-dispatcher", "human"):
                before = s["runs"]
                b.eval(f"(e => {{ e.value = '{style}'; e.dispatchEvent(new Event('change')); }})"
                       f"(document.getElementById('style'))")
                s = wait_update(b, before, f"style {style}")
                check_outputs(checks, native, s, f"style {style}", {"table": 0, "explain": 0, "trace": 0})
            before = s["runs"]
            commit_field(b, "#explain-key", "AutogradXLA,CPU")
            s = wait_update(b, before, "explain key")
            check_outputs(checks, native, s, "explain AutogradXLA,CPU", {"table": 0, "explain": 0, "trace": 0})
            before = s["runs"]
            commit_field(b, "#trace-args", "cpu,requires_grad cpu")
            s = wait_update(b, before, "trace arguments")
            check_outputs(checks, native, s, "trace with two tensors (foo takes one)")
            before = s["runs"]
            commit_field(b, "#trace-args", "xla,requires_grad")
            s = wait_update(b, before, "trace arguments")
            check_outputs(checks, native, s, "trace an XLA tensor", {"table": 0, "explain": 0, "trace": 0})

            # The boxes keep the user's text: typed lines stay, a click changes the dispatch line only; the
            # boxes follow what is typed into that line.
            before = s["runs"]
            type_text(b, "#toml", '\n# my own note\n[[def]]\nschema = "baz(Tensor x) -> Tensor"\n')
            s = wait_update(b, before, "typing a note and an operator")
            kept = s["toml"]
            before = s["runs"]
            click_element(b, "#keys input[data-key='XLA']")
            s = wait_update(b, before, "click XLA with typed text")
            checks.check(s["toml"] == kept.replace(' }\n', ', XLA = "fn_XLA" }\n', 1),
                         f"a click keeps the typed text and changes the dispatch line only: {s['toml']!r}")
            check_outputs(checks, native, s, "three operators", {"table": 0, "explain": 2, "trace": 2})
            before = s["runs"]
            type_text(b, "#toml", s["toml"].replace(', Autograd = "fn_Autograd"', ""), replace=True)
            s = wait_update(b, before, "typing in the dispatch line")
            on = sorted(k for k, checked, _ in s["boxes"] if checked)
            checks.check(on == ["AutogradCPU", "CPU", "CompositeExplicitAutograd", "XLA"],
                         f"the boxes follow the text typed: {on}")
            type_text(b, "#toml", kept.replace('\n# my own note\n[[def]]\nschema = "baz(Tensor x) -> Tensor"\n', ""),
                      replace=True)
            s = wait_update(b, s["runs"], "typing back")

            # Typing TOML: a second operator (explain and trace then need --op), then the operator chosen.
            before = s["runs"]
            type_text(b, "#toml", '\n[[def]]\nschema = "bar(Tensor x) -> Tensor"\n'
                                  'dispatch = { CompositeImplicitAutograd = "bar_math" }\n')
            s = wait_update(b, before, "typing a second operator")
            check_outputs(checks, native, s, "two operators, no --op", {"table": 0, "explain": 2, "trace": 2})
            before = s["runs"]
            commit_field(b, "#op", "demo::bar")
            s = wait_update(b, before, "operator")
            check_outputs(checks, native, s, "--op demo::bar", {"table": 0, "explain": 0, "trace": 0})

            # Typing a mistake: the tool's located error, everywhere.
            before = s["runs"]
            type_text(b, "#toml", '\n[[impl]]\nop = "bar"\nkey = "CPUU"\nkernel = "k"\n')
            s = wait_update(b, before, "typing a mistake")
            check_outputs(checks, native, s, "an unknown key typed", {"table": 2, "explain": 2, "trace": 2})
            err = s["out"]["table"][1]
            checks.check(re.match(r"playground\.toml:\d+:\d+: error: ", err) is not None,
                         f"the error is located in playground.toml: {err!r}")
            before = s["runs"]
            b.call("Input.insertText", text="# a comment\n")  # still broken: typing goes on
            s = wait_update(b, before, "typing on")
            check_outputs(checks, native, s, "still broken", {"table": 2, "explain": 2, "trace": 2})

            # Any small TOML: each shipped example, pasted (select all, type).
            for example, op, key in (("custom_op.toml", "myops::myadd", "AutogradCUDA"),
                                     ("autogradother_ambiguity.toml", "", "AutogradOther")):
                text = open(os.path.join(ROOT, "configs", "examples", example), encoding="utf-8").read()
                before = s["runs"]
                commit_field(b, "#op", op)
                s = wait_update(b, before, "operator")
                before = s["runs"]
                commit_field(b, "#explain-key", key)
                s = wait_update(b, before, "explain key")
                before = s["runs"]
                type_text(b, "#toml", text, replace=True)
                s = wait_update(b, before, f"pasting {example}")
                checks.check(s["toml"] == text, f"{example}: the textarea holds the example")
                check_outputs(checks, native, s, f"{example} (--op {op or 'none'}, explain {key})")
                checks.check(all(disabled for _, _, disabled in s["boxes"]) and "has none" in s["hint"],
                             f"{example}: no demo operator: the boxes are off and say why ({s['hint']!r})")
                check_no_overflow(checks, b, example)

            # Python and C++ pasted: read as the file they are (playground.py, playground.cpp), as the
            # native tool reads them; TOML chosen by hand reads the same text as TOML.
            commit_field(b, "#op", "")
            commit_field(b, "#explain-key", "CPU")
            commit_field(b, "#trace-args", "cpu")
            for name, text in (("playground.py", PY_TEXT), ("playground.cpp", CPP_TEXT)):
                before = b.eval("+document.body.dataset.runs")
                type_text(b, "#toml", text, replace=True)
                s = wait_update(b, before, f"pasting {name}")
                checks.check(s["file"] == name, f"{name}: the page reads the text as {s['file']}")
                check_outputs(checks, native, s, f"{name} pasted", {"table": 0, "explain": 0, "trace": 0})
                checks.check("pg::twice" in s["out"]["table"][1] and f"registered at {name}:" in s["out"]["explain"][1],
                             f"{name}: the registrations read: {s['out']['table'][1][:200]!r}")
            before = s["runs"]
            b.eval("(e => { e.value = 'toml'; e.dispatchEvent(new Event('change')); })(document.getElementById('lang'))")
            s = wait_update(b, before, "read as TOML")
            checks.check(s["file"] == "playground.toml", f"chosen by hand: {s['file']}")
            check_outputs(checks, native, s, "C++ read as TOML", {"table": 2, "explain": 2, "trace": 2})
            before = s["runs"]
            b.eval("(e => { e.value = 'auto'; e.dispatchEvent(new Event('change')); })(document.getElementById('lang'))")
            s = wait_update(b, before, "the text's language")

            # The tensor words offered are words trace takes (fpga, a key of PythonDispatcher's, is none).
            hint = b.eval("document.getElementById('tensor-words').textContent")
            m = re.match(r"a tensor is \[LAYOUT_\]DEVICE\[,MODIFIER\.\.\.\]; devices: (.*); layouts: (.*); "
                         r"modifiers: (.*)$", hint)
            if checks.check(m is not None, f"the tensor words are offered: {hint!r}"):
                offered = [*m.group(1).split(), *(l + "cpu" for l in m.group(2).split()),
                           *("cpu," + w for w in m.group(3).split())]
                refused = [w for w in offered if subprocess.run(
                    [tool, "trace", "--profile", PROFILE, "--op", "aten::abs", "--arg", w],
                    capture_output=True).returncode != 0]
                checks.check(not refused and len(offered) > 20, f"every word offered is taken: refused {refused}")
                checks.check("fpga" not in m.group(1).split(), "fpga is not offered")

            # Back to the lesson for the screenshot: the reset button writes the demo again.
            commit_field(b, "#explain-key", "AutogradCPU")
            commit_field(b, "#trace-args", "cpu,requires_grad")
            before = b.eval("+document.body.dataset.runs")
            click_element(b, "#reset")
            s = wait_update(b, before, "start again from the demo")
            check_outputs(checks, native, s, "the lesson again", {"table": 0, "explain": 0, "trace": 0})
            on = [k for k, checked, disabled in s["boxes"] if checked and not disabled]
            checks.check(on == ["CPU", "XLA", "CompositeImplicitAutograd"] or
                         sorted(on) == sorted(["CPU", "XLA", "CompositeImplicitAutograd"]),
                         f"the demo's boxes again: {on}")
            check_no_overflow(checks, b, "the lesson")
            b.eval("window.scrollTo(0, 0)")
            if a.screenshot:
                png = base64.b64decode(b.call("Page.captureScreenshot", format="png")["data"])
                with open(a.screenshot, "wb") as f:
                    f.write(png)
                checks.check(png[:8] == b"\x89PNG\r\n\x1a\n" and len(png) > 10000, f"screenshot in {a.screenshot}")
            problems = b.problems(url)
            checks.check(not problems, f"no console errors or warnings, no exception, no request: {problems}")
        finally:
            b.close()
    return checks.finish()


if __name__ == "__main__":
    sys.exit(main())
