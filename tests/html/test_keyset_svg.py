#!/usr/bin/python3
"""The key-set picture (`trace --format svg`, src/render/keyset_svg.cpp) says
what `trace` says, as people see it (headless Chromium).

    test_keyset_svg.py --tool build/dispatchtool --root . [--screenshot DIR]

For calls that light the picture in every way (a requires_grad argument; a
sparse CPU tensor with a CUDA one, whose per-backend rows cross; autocast;
inference mode; a TorchDispatchMode; a keyset with no backend bit; a renamed
PrivateUse1 backend of a user's file), the SVG is opened in Chromium and its
DOM checked against the same call's `trace --format json` (whose key sets the
trace oracles compare with the real releases):

- the cells of class "in" name exactly the key set looked up (step 1's
  "keyset"); those of class "masked" exactly the keys the operator's
  fallthrough mask removes ("with_tls" minus "keyset"); those of class
  "excluded" the keys of the arguments that the thread-local excluded set
  removes, and no key that stays;
- the outlined cell is the key that runs (step 1's "key");
- every text is drawn inside the picture (nothing cut off), no two labels of
  the rows overlap, and the page logs no error;
- the pictures under docs/img/ are what the tool draws today, byte for byte,
  each for the command written beside it in docs/tutorial.md.

Writes a PNG of each picture to --screenshot DIR. Exits 77 (skipped) when
chromium or python3-websocket is missing, as test_html.py does.
"""
import argparse
import base64
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
import test_html  # noqa: E402  (the Browser driver; exits 77 without python3-websocket)
sys.path.insert(0, os.path.join(ROOT, "tests"))
from checks import Checks  # noqa: E402

CASES = [
    ("grad", ["--op", "aten::add.Tensor", "--arg", "cpu,requires_grad", "--arg", "cuda"]),
    ("sparse-cuda", ["--op", "aten::add.Tensor", "--arg", "sparse_cpu", "--arg", "cuda"]),
    ("autocast", ["--op", "aten::mm", "--arg", "cpu", "--arg", "cpu", "--autocast", "cpu"]),
    ("inference", ["--op", "aten::add.Tensor", "--arg", "cpu", "--arg", "cpu", "--inference-mode"]),
    ("python-mode", ["--op", "aten::add.Tensor", "--arg", "cuda", "--arg", "cuda", "--python-mode"]),
    ("no-backend", ["--op", "aten::add.Tensor", "--keyset", "AutogradFunctionality", "--exclude", "BackendSelect"]),
    ("privateuse1", ["--op", "aten::add.Tensor", "--arg", "npu,requires_grad", "--arg", "npu",
                     "configs/examples/privateuse1.toml"]),
]
# The pictures docs/tutorial.md shows: (file under docs/img, the command's arguments after `dispatchtool`).
DOC_IMAGES = [
    ("keyset-sparse-cuda.svg",
     "trace --profile torch-2.14 --op aten::add.Tensor --arg sparse_cpu --arg cuda --format svg"),
]

INSPECT = r"""(() => {
  const svg = document.documentElement;
  const W = +svg.getAttribute('width'), H = +svg.getAttribute('height');
  const cells = [...document.querySelectorAll('rect.cell[data-key]')].map(r => ({
    key: r.getAttribute('data-key'), state: r.getAttribute('class').split(' ')[1],
    functionality: r.getAttribute('data-functionality')}));
  const runs = [...document.querySelectorAll('rect.runs[data-key]')].map(r => r.getAttribute('data-key'));
  const outside = [...document.querySelectorAll('text')].filter(t => {
    const b = t.getBBox ? t.getBoundingClientRect() : null;
    return b && (b.left < -0.5 || b.top < -0.5 || b.right > W + 0.5 || b.bottom > H + 0.5);
  }).map(t => t.textContent);
  const labels = [...document.querySelectorAll('text.functionality')].map(t => t.getBoundingClientRect());
  let overlaps = 0;
  for (let i = 1; i < labels.length; ++i) if (labels[i].top < labels[i - 1].bottom - 0.5) ++overlaps;
  return {W, H, cells, runs, outside, overlaps, rows: labels.length};
})()"""


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tool", required=True)
    ap.add_argument("--root", default=ROOT)
    ap.add_argument("--screenshot", metavar="DIR")
    a = ap.parse_args()
    tool = os.path.abspath(a.tool)
    checks = Checks()
    binary = test_html.chromium_binary()
    if binary is None:
        print("chromium is not installed; skipping (tools/install-deps --tests installs it)")
        return 77
    tutorial = open(os.path.join(a.root, "docs", "tutorial.md"), encoding="utf-8").read()
    for image, command in DOC_IMAGES:
        r = subprocess.run([tool, *command.split()], cwd=a.root, capture_output=True)
        path = os.path.join(a.root, "docs", "img", image)
        have = open(path, "rb").read() if os.path.exists(path) else b""
        checks.check(r.returncode == 0 and r.stdout == have,
                     f"docs/img/{image} is what `dispatchtool {command}` draws today")
        checks.check(f"dispatchtool {command}" in tutorial and f"img/{image}" in tutorial,
                     f"docs/tutorial.md shows docs/img/{image} beside its command")
    with tempfile.TemporaryDirectory() as tmp:
        b = test_html.Browser(binary, os.path.join(tmp, "chromium"), width=1000, height=700)
        try:
            for name, args in CASES:
                base = [tool, "trace", "--profile", "torch-2.14", *args]
                svg = subprocess.run(base + ["--format", "svg"], cwd=a.root, capture_output=True)
                js = subprocess.run(base + ["--format", "json"], cwd=a.root, capture_output=True, text=True)
                if not checks.check(svg.returncode == 0 and js.returncode == 0,
                                    f"{name}: trace exits 0 ({svg.stderr[:200]!r} {js.stderr[:200]!r})"):
                    continue
                step = json.loads(js.stdout)["steps"][0]
                path = os.path.join(tmp, name + ".svg")
                with open(path, "wb") as f:
                    f.write(svg.stdout)
                url = "file://" + path
                b.open(url)
                got = b.eval(INSPECT)
                by_state = {}
                for c in got["cells"]:
                    by_state.setdefault(c["state"], set()).add(c["key"])
                keyset = {k for k in step["keyset"] if not k.endswith("(no backend)")}
                checks.check(by_state.get("in", set()) == keyset,
                             f"{name}: the cells in the set are the key set looked up: "
                             f"{sorted(by_state.get('in', set()))} vs {sorted(keyset)}")
                masked = set(step["with_tls"]) - set(step["keyset"])
                checks.check(by_state.get("masked", set()) == masked,
                             f"{name}: the masked cells are the keys the fallthrough mask removes: "
                             f"{sorted(by_state.get('masked', set()))} vs {sorted(masked)}")
                removed = set(step["arguments"]) - set(step["with_tls"])
                excluded = by_state.get("excluded", set())
                checks.check(removed <= excluded and not (excluded & set(step["with_tls"])),
                             f"{name}: the excluded cells are the arguments' keys the thread-local state removes: "
                             f"{sorted(excluded)} vs {sorted(removed)}")
                want_runs = [] if step["key"] == "Undefined" else [step["key"]]
                checks.check(got["runs"] == want_runs, f"{name}: the outlined cell is the key that runs: "
                                                       f"{got['runs']} vs {want_runs}")
                checks.check(not got["outside"], f"{name}: every text inside the picture: cut off {got['outside']}")
                checks.check(got["overlaps"] == 0 and got["rows"] > 0, f"{name}: row labels do not overlap")
                problems = b.problems(url)
                checks.check(not problems, f"{name}: no console error, exception or request: {problems}")
                b.events = []
                if a.screenshot:
                    os.makedirs(a.screenshot, exist_ok=True)
                    b.call("Emulation.setDeviceMetricsOverride", width=int(got["W"]), height=int(got["H"]),
                           deviceScaleFactor=1, mobile=False)
                    shot = b.call("Page.captureScreenshot", format="png")
                    with open(os.path.join(a.screenshot, f"keyset-{name}.png"), "wb") as f:
                        f.write(base64.b64decode(shot["data"]))
        finally:
            b.close()
    return checks.finish()


if __name__ == "__main__":
    sys.exit(main())
