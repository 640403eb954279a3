#!/usr/bin/python3
"""The HTML matrix template works in a real browser (headless Chromium).

    test_html.py --template docs/html/matrix_template.html --data docs/html/sample.json \
                 [--screenshot matrix.png] [--tool build/dispatchtool --root .]

Fills the template's one placeholder with the data (as the renderer must:
every "<" written as \\u003c), opens the page in headless Chromium driven over
the DevTools protocol (python3-websocket, loopback only) and checks the DOM:

- one cell per operator and key, each with the class of its status and that
  status's colour (eight distinct colours), the hover text naming key and
  status;
- the legend: eight entries with the right counts; clicking one highlights
  its cells;
- alias bands: one band row per alias key, its bands spanning exactly the
  columns it covers;
- filters: namespace, operator name, keys, alias, "hide missing";
- a real mouse click on a cell opens the explain popup with that cell's
  status, kernel and every step; Escape closes it;
- no console message of level error or warning, no uncaught exception, and no
  network request (the page is self-contained; its CSP forbids any);
- a synthetic 3,400 operators × 130 keys data set loads and filters quickly
  and keeps the DOM small (rows outside the view are not rendered).

Writes a PNG screenshot (with the popup open) to --screenshot. With --tool,
also checks that docs/html/sample.json is what tests/html/make_sample.py
makes from the current binary. Exits 77 (skipped) when chromium or
python3-websocket is missing.
"""
import argparse
import base64
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.request

try:
    import websocket
except ImportError:  # pragma: no cover
    print("python3-websocket is not installed; skipping (tools/install-deps --tests installs it)")
    sys.exit(77)

PLACEHOLDER = "{{DISPATCHTOOL_DATA}}"
STATUSES = ["kernel", "composite-explicit", "composite-implicit", "autograd", "fallback", "fallthrough",
            "ambiguous", "missing"]
HERE = os.path.dirname(os.path.abspath(__file__))


class Checks:
    def __init__(self):
        self.passed = self.failed = 0

    def check(self, ok, what):
        if ok:
            self.passed += 1
        else:
            self.failed += 1
            print(f"FAIL: {what}")
        return ok


def fill(template, data):
    """The page: the template with the data in place of its one placeholder."""
    if template.count(PLACEHOLDER) != 1:
        raise ValueError(f"the template must hold {PLACEHOLDER} exactly once")
    payload = json.dumps(data, ensure_ascii=False, separators=(",", ":")).replace("<", "\\u003c")
    return template.replace(PLACEHOLDER, payload)


def chromium_binary():
    for name in ("chromium", "chromium-browser", "google-chrome"):
        path = shutil.which(name)
        if path:
            return path
    return None


class Browser:
    """Headless Chromium and one page, over the DevTools protocol."""

    def __init__(self, binary, profile_dir, width=1400, height=900):
        self.proc = subprocess.Popen(
            [binary, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
             "--disable-background-networking", "--disable-component-update", "--disable-sync",
             "--disable-extensions", "--disable-default-apps", "--mute-audio", "--hide-scrollbars",
             f"--user-data-dir={profile_dir}", "--remote-debugging-address=127.0.0.1",
             "--remote-debugging-port=0", "--remote-allow-origins=*", f"--window-size={width},{height}",
             "about:blank"],
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        port = None
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            line = self.proc.stderr.readline()
            if not line:
                break
            m = re.search(r"DevTools listening on ws://[^:]+:(\d+)/", line)
            if m:
                port = int(m.group(1))
                break
        if port is None:
            self.close()
            raise RuntimeError("chromium did not start its DevTools server")
        targets = json.load(urllib.request.urlopen(f"http://127.0.0.1:{port}/json/list", timeout=10))
        page = next(t for t in targets if t["type"] == "page")
        self.ws = websocket.create_connection(page["webSocketDebuggerUrl"], timeout=30, suppress_origin=True)
        self.next_id = 0
        self.events = []
        for domain in ("Runtime", "Log", "Page", "Network"):
            self.call(f"{domain}.enable")

    def call(self, method, **params):
        self.next_id += 1
        msg_id = self.next_id
        self.ws.send(json.dumps({"id": msg_id, "method": method, "params": params}))
        while True:
            msg = json.loads(self.ws.recv())
            if msg.get("id") == msg_id:
                if "error" in msg:
                    raise RuntimeError(f"{method}: {msg['error']}")
                return msg.get("result", {})
            self.events.append(msg)

    def wait_event(self, method, timeout=30):
        deadline = time.monotonic() + timeout
        for i, ev in enumerate(self.events):
            if ev.get("method") == method:
                return self.events.pop(i)
        while time.monotonic() < deadline:
            self.ws.settimeout(max(0.1, deadline - time.monotonic()))
            msg = json.loads(self.ws.recv())
            if msg.get("method") == method:
                return msg
            self.events.append(msg)
        raise TimeoutError(method)

    def eval(self, expression):
        r = self.call("Runtime.evaluate", expression=expression, returnByValue=True, awaitPromise=True)
        if "exceptionDetails" in r:
            raise RuntimeError(f"{expression[:80]}: {r['exceptionDetails']}")
        return r["result"].get("value")

    def wait_for(self, expression, timeout=20):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.eval(expression):
                return True
            time.sleep(0.02)
        return False

    def open(self, url):
        self.events = [e for e in self.events if e.get("method") != "Page.loadEventFired"]
        self.call("Page.navigate", url=url)
        self.wait_event("Page.loadEventFired")

    def click(self, x, y):
        for kind in ("mousePressed", "mouseReleased"):
            self.call("Input.dispatchMouseEvent", type=kind, x=x, y=y, button="left", clickCount=1)

    def key(self, key, code):
        for kind in ("keyDown", "keyUp"):
            self.call("Input.dispatchKeyEvent", type=kind, key=key, code=code, windowsVirtualKeyCode=27)

    def problems(self, page_url):
        """Console errors and warnings, exceptions, and requests other than the page itself."""
        out = []
        self.call("Runtime.evaluate", expression="0")  # drain pending events
        for ev in self.events:
            m, p = ev.get("method"), ev.get("params", {})
            if m == "Runtime.consoleAPICalled" and p.get("type") in ("error", "warning", "assert"):
                out.append(f"console.{p['type']}: {[a.get('value', a.get('description')) for a in p['args']]}")
            elif m == "Runtime.exceptionThrown":
                out.append(f"exception: {p['exceptionDetails'].get('exception', {}).get('description')}")
            elif m == "Log.entryAdded" and p["entry"]["level"] in ("error", "warning"):
                out.append(f"log {p['entry']['level']}: {p['entry']['text']}")
            elif m == "Network.requestWillBeSent":
                url = p["request"]["url"]
                if url != page_url and not url.startswith("data:"):
                    out.append(f"network request: {url}")
        return out

    def close(self):
        try:
            self.ws.close()
        except Exception:  # noqa: BLE001 - best effort
            pass
        self.proc.terminate()
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


def status_counts(data):
    counts = {s: 0 for s in STATUSES}
    for op in data["operators"]:
        for c in op["cells"]:
            counts[data["cells"][c]["status"]] += 1
    return counts


def synthetic(n_ops=3400, n_keys=130, seed=7):
    """A data set the size of PyTorch's own: 3,400 operators × 130 keys, ~100k distinct cells."""
    rnd = random.Random(seed)
    keys = [{"name": f"Key{j:03d}", "kind": "per-backend" if j < 100 else "functionality"} for j in range(n_keys)]
    aliases = [{"name": "Autograd", "covers": list(range(100, 118))},
               {"name": "CompositeImplicitAutograd", "covers": list(range(0, 118))},
               {"name": "CompositeExplicitAutograd", "covers": list(range(0, 60))}]
    strings = ["no", "yes, but no kernel is registered on it"]
    strings += [f"a kernel registered on Key{j:03d} itself?" for j in range(n_keys)]
    cells, operators = [], []
    missing = []
    for j in range(n_keys):
        missing.append(len(cells))
        cells.append({"status": "missing", "kernel": None, "provenance": None, "source_key": None,
                      "steps": [["1", 2 + j, 0], ["3", 2 + j, 0]], "meaning": 0})
    namespaces = ["aten", "prims", "quantized", "sparse", "myops", "_quantized", "c10d"]
    for i in range(n_ops):
        ns = namespaces[0] if i < 2500 else rnd.choice(namespaces[1:])
        name = f"{ns}::op{i:04d}.overload"
        strings.append(f"registered at aten/src/ATen/RegisterCPU.cpp:{i}")
        kernel = len(strings) - 1
        row = []
        cia = i % 3 == 0
        for j in range(n_keys):
            if cia and j < 118 or (not cia and j in (1, 2, 11)):
                cells.append({"status": "composite-implicit" if cia else "kernel", "kernel": kernel,
                              "provenance": "math kernel" if cia else "kernel",
                              "source_key": "CompositeImplicitAutograd" if cia else f"Key{j:03d}",
                              "steps": [["1", 2 + j, 0], ["2.3b", 2 + j, 1]], "meaning": 1})
                row.append(len(cells) - 1)
            else:
                row.append(missing[j])
        operators.append({"namespace": ns, "name": name, "schema": f"{name}(Tensor self) -> Tensor", "cells": row})
    operators.sort(key=lambda o: o["name"].encode())
    return {"version": 1, "tool": {"name": "dispatchtool", "version": "0.0.0"}, "profile": "synthetic",
            "title": "synthetic: 3,400 operators", "keys": keys, "aliases": aliases, "operators": operators,
            "cells": cells, "strings": strings}


JS_CELLS = """Array.from(document.querySelectorAll('#rows .r')).map(r => [
  +r.dataset.op,
  Array.from(r.querySelectorAll('.c')).map(c => [+c.dataset.key, c.className, getComputedStyle(c).backgroundColor, c.title])])"""
JS_LEGEND = """Array.from(document.querySelectorAll('#legend .legend-item')).map(li => [li.dataset.status,
  li.querySelector('.label').textContent, +li.querySelector('.count').textContent,
  getComputedStyle(li.querySelector('.sw')).backgroundColor])"""
JS_BANDS = """Array.from(document.querySelectorAll('.bandrow')).map(b => [b.dataset.alias,
  Array.from(b.querySelectorAll('.band')).map(x => [parseFloat(x.style.left), parseFloat(x.style.width)])])"""
JS_SHOWN = "[document.querySelectorAll('#rows .r').length, document.querySelectorAll('.keys .k').length]"


def set_control(b, selector, value, event):
    """Sets a filter control like a user would, then waits for the debounced re-render."""
    if value is True or value is False:
        b.eval(f"(e => {{ e.checked = {str(value).lower()}; e.dispatchEvent(new Event('{event}')); }})"
               f"(document.querySelector('{selector}'))")
    else:
        b.eval(f"(e => {{ e.value = {json.dumps(value)}; e.dispatchEvent(new Event('{event}')); }})"
               f"(document.querySelector('{selector}'))")
    time.sleep(0.25 if event == "input" else 0.02)


def check_sample(b, checks, data, url, screenshot):
    ops, keys = data["operators"], data["keys"]
    t0 = time.monotonic()
    b.open(url)
    checks.check(b.wait_for("document.body.dataset.ready === 'true'"), "the page renders (body[data-ready])")
    print(f"sample: ready in {time.monotonic() - t0:.2f} s")
    checks.check(b.eval("document.title") == data["title"], "the page's title is the data's title")

    # Cells: count, status class, colour, hover text.
    rows = b.eval(JS_CELLS)
    n_cells = sum(len(r[1]) for r in rows)
    checks.check(len(rows) == len(ops), f"{len(ops)} operator rows, got {len(rows)}")
    checks.check(n_cells == len(ops) * len(keys), f"cells = {len(ops)} × {len(keys)}, got {n_cells}")
    legend = b.eval(JS_LEGEND)
    colour = {s: c for s, _, _, c in legend}
    wrong = []
    for op_index, cells in rows:
        for key_index, cls, bg, title in cells:
            status = data["cells"][ops[op_index]["cells"][key_index]]["status"]
            if f"s-{status}" not in cls.split() or bg != colour.get(status) or \
                    not title.startswith(keys[key_index]["name"] + ": " + status):
                wrong.append((ops[op_index]["name"], keys[key_index]["name"], status, cls, bg, title))
    checks.check(not wrong, f"every cell has its status's class, colour and hover text: {wrong[:3]}")
    shown_statuses = {data["cells"][c]["status"] for o in ops for c in o["cells"]}
    checks.check(len(shown_statuses) >= 7, f"the sample shows at least 7 statuses: {sorted(shown_statuses)}")

    # Legend.
    counts = status_counts(data)
    checks.check([l[0] for l in legend] == STATUSES, f"legend entries: {[l[0] for l in legend]}")
    checks.check(all(l[2] == counts[l[0]] for l in legend), f"legend counts {[(l[0], l[2]) for l in legend]} "
                 f"== {counts}")
    checks.check(len({l[3] for l in legend}) == len(STATUSES), f"eight distinct colours: {[l[3] for l in legend]}")
    b.eval("document.querySelector('.legend-item[data-status=\"composite-explicit\"]').click()")
    hl = b.eval("[document.getElementById('grid').classList.contains('highlight'),"
                " document.querySelectorAll('#rows .c.hl').length]")
    checks.check(hl == [True, counts["composite-explicit"]], f"legend click highlights its cells: {hl}")
    b.eval("document.querySelector('.legend-item[data-status=\"composite-explicit\"]').click()")

    # Alias bands: per alias, bands cover exactly its columns.
    cw = b.eval("parseFloat(getComputedStyle(document.documentElement).getPropertyValue('--cw'))")
    bands = b.eval(JS_BANDS)
    checks.check([x[0] for x in bands] == [a["name"] for a in data["aliases"]], "one band row per alias key")
    for (name, segs), alias in zip(bands, data["aliases"]):
        cols = sorted(int(round(left / cw)) + k for left, width in segs for k in range(int(round(width / cw))))
        checks.check(cols == alias["covers"], f"{name}: bands span its columns")

    # Filters.
    by_ns = {}
    for o in ops:
        by_ns[o["namespace"]] = by_ns.get(o["namespace"], 0) + 1
    checks.check(len(by_ns) >= 2, f"the sample has several namespaces: {by_ns}")
    ns = sorted(by_ns)[0]
    set_control(b, "#f-ns", ns, "change")
    checks.check(b.eval(JS_SHOWN) == [by_ns[ns], len(keys)], f"namespace filter {ns}: {b.eval(JS_SHOWN)}")
    set_control(b, "#f-ns", "", "change")
    some = ops[-1]["name"].split("::")[1][:6]
    want = sum(1 for o in ops if some.lower() in o["name"].lower())
    set_control(b, "#f-op", some, "input")
    checks.check(b.eval(JS_SHOWN)[0] == want, f"operator filter {some!r}: {want} rows")
    set_control(b, "#f-op", "", "input")
    set_control(b, "#f-key", "cpu, Autograd", "input")
    want = [k["name"] for k in keys if "cpu" in k["name"].lower() or "autograd" in k["name"].lower()]
    got = b.eval("Array.from(document.querySelectorAll('.keys .k')).map(k => k.textContent)")
    checks.check(got == want, f"key filter 'cpu, Autograd': {len(got)} keys, want {len(want)}")
    checks.check(b.eval("document.querySelectorAll('#rows .c').length") == len(want) * len(ops),
                 "the key filter leaves one cell per operator and shown key")
    set_control(b, "#f-key", "", "input")
    alias = next(i for i, a in enumerate(data["aliases"]) if a["name"] == "Autograd")
    set_control(b, "#f-alias", str(alias), "change")
    got = b.eval("Array.from(document.querySelectorAll('.keys .k')).map(k => +k.dataset.key)")
    checks.check(got == data["aliases"][alias]["covers"], "alias filter Autograd: exactly the keys it covers")
    set_control(b, "#f-alias", "", "change")
    set_control(b, "#f-hide", True, "change")
    want = [j for j in range(len(keys)) if any(data["cells"][o["cells"][j]]["status"] != "missing" for o in ops)]
    got = b.eval("Array.from(document.querySelectorAll('.keys .k')).map(k => +k.dataset.key)")
    checks.check(got == want and len(want) < len(keys), f"hide missing: {len(got)} keys, want {len(want)}")
    set_control(b, "#f-hide", False, "change")
    checks.check(b.eval(JS_SHOWN) == [len(ops), len(keys)], "filters reset: everything shown again")

    # A real click on a cell opens the explain popup; Escape closes it.
    target = None
    for i, o in enumerate(ops):
        for j, c in enumerate(o["cells"]):
            if data["cells"][c]["status"] == "ambiguous":
                target = (i, j)
    if target is None:
        target = (0, 0)
    i, j = target
    cell = data["cells"][ops[i]["cells"][j]]
    b.eval(f"document.querySelector('#rows .r[data-op=\"{i}\"] .c[data-key=\"{j}\"]')"
           ".scrollIntoView({block: 'center', inline: 'center'})")
    time.sleep(0.1)
    rect = b.eval(f"(r => [r.x + r.width / 2, r.y + r.height / 2])(document.querySelector("
                  f"'#rows .r[data-op=\"{i}\"] .c[data-key=\"{j}\"]').getBoundingClientRect())")
    checks.check(b.eval("document.getElementById('explain').hidden"), "the popup is hidden before a click")
    b.click(*rect)
    ok = b.wait_for("!document.getElementById('explain').hidden", timeout=5)
    checks.check(ok, f"clicking {ops[i]['name']} × {keys[j]['name']} opens the explain popup")
    popup = b.eval("""(p => ({op: p.dataset.op, key: p.dataset.key, title: p.querySelector('h2').textContent,
        status: p.querySelector('.status').textContent, kernel: p.querySelector('.kernel').textContent,
        steps: Array.from(p.querySelectorAll('tbody tr')).map(tr => Array.from(tr.cells).map(td => td.textContent)),
        meaning: p.querySelector('.meaning').textContent}))(document.getElementById('explain'))""")
    S = data["strings"]
    want_steps = [[s[0], S[s[1]], S[s[2]]] for s in cell["steps"]]
    checks.check(popup["op"] == str(i) and popup["key"] == str(j) and keys[j]["name"] in popup["title"],
                 f"the popup is about the clicked cell: {popup['title']}")
    checks.check(popup["status"] == cell["status"], f"popup status {popup['status']} == {cell['status']}")
    checks.check(popup["kernel"] == (S[cell["kernel"]] if cell["kernel"] is not None else "—"), "popup kernel")
    checks.check(popup["steps"] == want_steps, f"popup shows every explain step: {popup['steps']}")
    checks.check(popup["meaning"] == S[cell["meaning"]], "popup shows the meaning")
    if screenshot:
        b.eval("(g => { g.scrollLeft = 0; g.scrollTop = 0; })(document.getElementById('grid'))")
        time.sleep(0.1)
        png = base64.b64decode(b.call("Page.captureScreenshot", format="png")["data"])
        with open(screenshot, "wb") as f:
            f.write(png)
        checks.check(png[:8] == b"\x89PNG\r\n\x1a\n" and len(png) > 10000, f"screenshot written to {screenshot}")
    b.key("Escape", "Escape")
    checks.check(b.wait_for("document.getElementById('explain').hidden", timeout=5), "Escape closes the popup")

    problems = b.problems(url)
    checks.check(not problems, f"no console errors or warnings, exceptions or network requests: {problems}")


def check_big(b, checks, data, url):
    n_ops, n_keys = len(data["operators"]), len(data["keys"])
    b.events.clear()
    t0 = time.monotonic()
    b.open(url)
    ready = b.wait_for("document.body.dataset.ready === 'true'", timeout=30)
    load = time.monotonic() - t0
    print(f"big: {n_ops} × {n_keys} ready in {load:.2f} s")
    checks.check(ready and load < 10, f"{n_ops} × {n_keys}: ready in {load:.2f} s (< 10 s)")
    shown = b.eval("document.querySelectorAll('#rows .c').length")
    checks.check(0 < shown <= 200 * n_keys, f"only rows in view are in the DOM ({shown} cells)")
    # Scroll to the end: the last operator's row appears.
    t0 = time.monotonic()
    b.eval("(g => g.scrollTop = g.scrollHeight)(document.getElementById('grid'))")
    last = len(data["operators"]) - 1
    ok = b.wait_for(f"!!document.querySelector('#rows .r[data-op=\"{last}\"]')", timeout=5)
    checks.check(ok, f"scrolled to the end, the last operator is rendered ({time.monotonic() - t0:.2f} s)")
    t0 = time.monotonic()
    set_control(b, "#f-ns", "myops", "change")
    want = sum(1 for o in data["operators"] if o["namespace"] == "myops")
    took = time.monotonic() - t0
    checks.check(b.eval("document.getElementById('summary').textContent").startswith(f"{want} operators"),
                 "namespace filter on the big data")
    checks.check(took < 2, f"namespace filter takes {took:.2f} s (< 2 s)")
    t0 = time.monotonic()
    set_control(b, "#f-hide", True, "change")
    took = time.monotonic() - t0
    checks.check(took < 2, f"'hide missing' over {want} × {n_keys} takes {took:.2f} s (< 2 s)")
    problems = b.problems(url)
    checks.check(not problems, f"big data: no console errors or warnings: {problems}")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--template", required=True)
    ap.add_argument("--data", required=True)
    ap.add_argument("--screenshot")
    ap.add_argument("--tool", help="also check that --data is what make_sample.py makes (run in --root)")
    ap.add_argument("--root")
    ap.add_argument("--no-big", action="store_true", help="skip the 3,400 × 130 data set")
    a = ap.parse_args()
    checks = Checks()
    binary = chromium_binary()
    if binary is None:
        print("chromium is not installed; skipping (tools/install-deps --tests installs it)")
        return 77
    template = open(a.template, encoding="utf-8").read()
    data = json.load(open(a.data, encoding="utf-8"))
    checks.check(template.count(PLACEHOLDER) == 1, f"the template holds {PLACEHOLDER} exactly once")
    checks.check(not re.search(r"""(?:src|href)\s*=\s*["']?(?:https?:)?//""", template, re.I),
                 "the template loads nothing from the network")

    if a.tool:
        # The committed sample is what make_sample.py makes from today's binary.
        with tempfile.TemporaryDirectory() as d:
            out = os.path.join(d, "sample.json")
            files = ["configs/examples/custom_op.toml", "configs/examples/autogradother_ambiguity.toml",
                     "configs/examples/out_of_tree_backend.toml", "configs/examples/xla_fallback.toml"]
            subprocess.run([sys.executable, os.path.join(HERE, "make_sample.py"), "--tool", a.tool, "-o", out,
                            *files], cwd=a.root, check=True, capture_output=True)
            checks.check(json.load(open(out)) == data,
                         "docs/html/sample.json is what tests/html/make_sample.py makes from the binary "
                         "(regenerate: tests/html/make_sample.py --tool build/dispatchtool -o docs/html/sample.json "
                         + " ".join(files) + ")")

    with tempfile.TemporaryDirectory() as d:
        page = os.path.join(d, "matrix.html")
        with open(page, "w", encoding="utf-8") as f:
            f.write(fill(template, data))
        big = os.path.join(d, "big.html")
        if not a.no_big:
            with open(big, "w", encoding="utf-8") as f:
                f.write(fill(template, synthetic()))
            print(f"big page: {os.path.getsize(big) / 1e6:.1f} MB")
        b = Browser(binary, os.path.join(d, "profile"))
        try:
            check_sample(b, checks, data, "file://" + page, a.screenshot)
            if not a.no_big:
                check_big(b, checks, synthetic(), "file://" + big)
        finally:
            b.close()

    print(f"{checks.passed} passed, {checks.failed} failed")
    if checks.passed < 30:
        print("FAIL: fewer checks than expected ran")
        return 1
    return 1 if checks.failed else 0


if __name__ == "__main__":
    sys.exit(main())
