#!/usr/bin/python3
"""The page `dispatchtool html` writes works in a real browser (headless Chromium).

    test_html.py --tool build/dispatchtool --root . [--screenshot matrix.png] [--no-all]

Runs the real command on the shipped examples (configs/examples) and on
PyTorch's whole library (--all), checks that each page is the embedded
template (docs/html/matrix_template.html) with its data in place of the one
placeholder (every "<" written as \\u003c), validates that data against
docs/schema/html.schema.json, opens the pages in headless Chromium driven over
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
  status, kernel, every step and the meaning -- the same text as
  `dispatchtool explain` prints for that operator and key; Escape closes it;
- no console message of level error or warning, no uncaught exception, and no
  network request (the page is self-contained; its CSP forbids any);
- a kernel named "</script><script>..." stays text: shown in the hover
  text, never run;
- the whole library (~3,400 operators × ~130 keys) loads and filters quickly
  and keeps the DOM small (rows outside the view are not rendered).

Writes a PNG screenshot of the examples' page (with the popup open) to
--screenshot. Exits 77 (skipped) when chromium or python3-websocket is
missing.
"""
import argparse
import base64
import glob
import json
import os
import re
import shutil
import signal
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
ROOT = os.path.dirname(os.path.dirname(HERE))
SCHEMA = os.path.join(ROOT, "docs", "schema", "html.schema.json")
TEMPLATE = os.path.join(ROOT, "docs", "html", "matrix_template.html")
EXAMPLES = ["configs/examples/custom_op.toml", "configs/examples/autogradother_ambiguity.toml",
            "configs/examples/out_of_tree_backend.toml", "configs/examples/xla_fallback.toml"]
PROFILE = "torch-1.13"
sys.path.insert(0, os.path.join(ROOT, "tests", "json"))
import validate  # noqa: E402  (tests/json/validate.py)
sys.path.insert(0, os.path.join(ROOT, "tests"))
from checks import Checks  # noqa: E402  (tests/checks.py)


def split_page(template, page):
    """The data text of a page, if the page is the template with that text in place of the placeholder."""
    at = template.index(PLACEHOLDER)
    head, tail = template[:at], template[at + len(PLACEHOLDER):]
    if not (page.startswith(head) and page.endswith(tail) and len(page) >= len(head) + len(tail)):
        return None
    return page[len(head):len(page) - len(tail)]


def read_page(checks, template, path, what):
    """Checks the page against the template and returns its data (or None)."""
    page = open(path, encoding="utf-8").read()
    text = split_page(template, page)
    if not checks.check(text is not None, f"{what}: the page is the template with the data in its placeholder"):
        return None
    checks.check("<" not in text, f"{what}: no '<' in the data (written as \\u003c)")
    checks.check(page.count("</script>") == template.count("</script>"), f"{what}: no script element ends early")
    data = json.loads(text)
    errors = validate.validate(SCHEMA, data)
    checks.check(not errors, f"{what}: the data validates against docs/schema/html.schema.json: {errors[:3]}")
    return data


def run_html(tool, root, out, *args):
    t0 = time.monotonic()
    r = subprocess.run([tool, "html", "-o", out, *args], cwd=root, capture_output=True, text=True)
    took = time.monotonic() - t0
    if r.returncode != 0:
        raise RuntimeError(f"dispatchtool html {' '.join(args)}: exit {r.returncode}: {r.stderr}")
    return took


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
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, start_new_session=True)
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
        """Stops Chromium and every process it started. Its renderer and utility processes can outlive the
        browser process for a moment and still write to the profile; a caller that removes the profile
        directory next (a TemporaryDirectory) must find them gone, or the removal fails on a directory that
        is not empty."""
        try:
            self.call("Browser.close")
        except Exception:  # noqa: BLE001 - best effort: the browser may be gone already
            pass
        try:
            self.ws.close()
        except Exception:  # noqa: BLE001 - best effort
            pass
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        group = self.proc.pid  # start_new_session: the group's id is the browser's pid
        deadline = time.monotonic() + 10
        while live_in_group(group):
            if time.monotonic() > deadline:
                raise RuntimeError("chromium's child processes did not exit")
            try:
                os.killpg(group, signal.SIGKILL)
            except ProcessLookupError:
                return
            time.sleep(0.05)


def live_in_group(group):
    """Whether a process of the group is still running (a zombie has stopped writing; who reaps it is not
    ours to wait for)."""
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", encoding="utf-8", errors="replace") as f:
                stat = f.read()
        except OSError:
            continue
        fields = stat[stat.rindex(")") + 2:].split()
        if fields[0] != "Z" and int(fields[2]) == group:
            return True
    return False


def status_counts(data):
    counts = {s: 0 for s in STATUSES}
    for op in data["operators"]:
        for c in op["cells"]:
            counts[data["cells"][c]["status"]] += 1
    return counts


JS_CELLS = """Array.from(document.querySelectorAll('#rows .r')).map(r => [
  +r.dataset.op,
  Array.from(r.querySelectorAll('.c')).map(c => [+c.dataset.key, c.className, getComputedStyle(c).backgroundColor, c.title])])"""
JS_LEGEND = """Array.from(document.querySelectorAll('#legend .legend-item')).map(li => [li.dataset.status,
  li.querySelector('.label').textContent, +li.querySelector('.count').textContent,
  getComputedStyle(li.querySelector('.sw')).backgroundColor])"""
JS_BANDS = """Array.from(document.querySelectorAll('.bandrow')).map(b => [b.dataset.alias,
  Array.from(b.querySelectorAll('.band')).map(x => [parseFloat(x.style.left), parseFloat(x.style.width)])])"""
JS_SHOWN = "[document.querySelectorAll('#rows .r').length, document.querySelectorAll('.keys .k').length]"


# Counts the page's pending timers (its filters re-render through a debounce
# timer), so a test waits for the re-render itself, not for a fixed time that
# a busy machine can exceed.
JS_TRACK_TIMERS = """(() => { if (window.__liveTimers) return;
  const live = new Set(), st = window.setTimeout.bind(window), ct = window.clearTimeout.bind(window);
  window.setTimeout = (f, ms, ...a) => { const id = st(() => { live.delete(id); f(...a); }, ms); live.add(id); return id; };
  window.clearTimeout = id => { live.delete(id); ct(id); };
  window.__liveTimers = live; })()"""


def set_control(b, selector, value, event):
    """Sets a filter control like a user would, then waits for the debounced re-render."""
    b.eval(JS_TRACK_TIMERS)
    if value is True or value is False:
        b.eval(f"(e => {{ e.checked = {str(value).lower()}; e.dispatchEvent(new Event('{event}')); }})"
               f"(document.querySelector('{selector}'))")
    else:
        b.eval(f"(e => {{ e.value = {json.dumps(value)}; e.dispatchEvent(new Event('{event}')); }})"
               f"(document.querySelector('{selector}'))")
    if not b.wait_for("window.__liveTimers.size === 0", timeout=30):
        raise TimeoutError(f"{selector}: the page did not re-render within 30 s")


def check_sample(b, checks, data, url, screenshot, explain):
    ops, keys = data["operators"], data["keys"]
    b.events.clear()
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
    want_steps = [[s[0], S[s[1]].replace("{key}", keys[j]["name"]), S[s[2]]] for s in cell["steps"]]
    checks.check(popup["op"] == str(i) and popup["key"] == str(j) and keys[j]["name"] in popup["title"],
                 f"the popup is about the clicked cell: {popup['title']}")
    checks.check(popup["status"] == cell["status"], f"popup status {popup['status']} == {cell['status']}")
    checks.check(popup["kernel"] == (S[cell["kernel"]] if cell["kernel"] is not None else "—"), "popup kernel")
    checks.check(popup["steps"] == want_steps, f"popup shows every explain step: {popup['steps']}")
    meaning = S[cell["meaning"]].replace("{op}", ops[i]["name"]).replace("{available}", S[ops[i]["available"]])
    meaning = meaning.replace("{key}", keys[j]["name"])
    checks.check(popup["meaning"] == meaning, "popup shows the meaning, the operator's name and keys filled in")
    # The popup says what `dispatchtool explain` says for that operator and key.
    text = explain(ops[i]["name"], keys[j]["name"])
    width = max(len(q) for _, q, _ in popup["steps"])
    lines = ""
    for step, question, answer in popup["steps"]:
        first, *notes = answer.split("\n")
        lines += f"  {step:<5} {question:<{width}}  {first}\n" + "".join(f"        {n}\n" for n in notes)
    checks.check(lines in text, f"the popup's steps are explain's:\n{lines}\nexplain:\n{text}")
    checks.check(text.endswith("\n" + popup["meaning"] + "\n"), "the popup's meaning is explain's")
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
    checks.check(n_ops > 3000 and n_keys > 100, f"the whole library: {n_ops} operators × {n_keys} keys")
    shown = b.eval("document.querySelectorAll('#rows .c').length")
    checks.check(0 < shown <= 200 * n_keys, f"only rows in view are in the DOM ({shown} cells)")
    # Scroll to the end: the last operator's row appears.
    t0 = time.monotonic()
    b.eval("(g => g.scrollTop = g.scrollHeight)(document.getElementById('grid'))")
    last = len(data["operators"]) - 1
    ok = b.wait_for(f"!!document.querySelector('#rows .r[data-op=\"{last}\"]')", timeout=5)
    checks.check(ok, f"scrolled to the end, the last operator is rendered ({time.monotonic() - t0:.2f} s)")
    t0 = time.monotonic()
    set_control(b, "#f-ns", "aten", "change")
    want = sum(1 for o in data["operators"] if o["namespace"] == "aten")
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


def check_escape(b, checks, template, tool, d):
    """A kernel named like markup is text in the page: shown, never run."""
    evil = "</script><script>document.body.dataset.pwned = 'yes'</script><!--"
    src = os.path.join(d, "evil.toml")
    with open(src, "w", encoding="utf-8") as f:
        f.write('namespace = "myops"\n[[def]]\nschema = "f(Tensor x) -> Tensor"\n'
                f'dispatch = {{ CPU = {json.dumps(evil)} }}\n')
    out = os.path.join(d, "evil.html")
    run_html(tool, d, out, "--profile", PROFILE, "--keys", "CPU", src)
    data = read_page(checks, template, out, "a kernel named </script>")
    if data is None:
        return
    url = "file://" + out
    b.events.clear()
    b.open(url)
    checks.check(b.wait_for("document.body.dataset.ready === 'true'"), "the page with a </script> kernel renders")
    checks.check(b.eval("document.body.dataset.pwned === undefined"), "the kernel's markup does not run")
    title = b.eval("document.querySelector('#rows .c').title")
    checks.check(title == f"CPU: kernel · {evil}", f"the hover text shows the kernel's name as text: {title!r}")
    problems = b.problems(url)
    checks.check(not problems, f"a </script> kernel: no console errors or warnings: {problems}")


def check_dangling(b, checks, template, tool, d):
    """A dangling operator (kernels, no def) is marked in the matrix; a defined one is not."""
    src = os.path.join(d, "dangling.toml")
    with open(src, "w", encoding="utf-8") as f:
        f.write('namespace = "myops"\n[[def]]\nschema = "f(Tensor x) -> Tensor"\ndispatch = { CPU = "f_cpu" }\n'
                '[[impl]]\nop = "g"\nkey = "CPU"\nkernel = "g_cpu"\n')
    out = os.path.join(d, "dangling.html")
    run_html(tool, d, out, "--profile", PROFILE, "--keys", "CPU", src)
    if read_page(checks, template, out, "a dangling operator") is None:
        return
    b.events.clear()
    b.open("file://" + out)
    checks.check(b.wait_for("document.body.dataset.ready === 'true'"), "the page with a dangling operator renders")
    marked = b.eval("Array.from(document.querySelectorAll('#rows .n')).map(function (n) {"
                    " return n.textContent + '|' + n.classList.contains('dangling') + '|' + n.title; }).join(';')")
    checks.check(marked.startswith("myops::f|false|myops::f(Tensor x) -> Tensor;myops::g|true|myops::g: dangling"),
                 f"the dangling operator's name is marked, the defined one's is not: {marked!r}")
    after = b.eval("getComputedStyle(document.querySelectorAll('#rows .n')[1], '::after').content")
    checks.check(after == '" (no def)"', f"the dangling row says (no def): {after!r}")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tool", required=True, help="the dispatchtool binary")
    ap.add_argument("--root", default=ROOT, help="the source tree (configs/examples)")
    ap.add_argument("--screenshot")
    ap.add_argument("--no-all", action="store_true", help="skip the page of the whole library (--all)")
    a = ap.parse_args()
    checks = Checks()
    binary = chromium_binary()
    if binary is None:
        print("chromium is not installed; skipping (tools/install-deps --tests installs it)")
        return 77
    tool = os.path.abspath(a.tool)
    template = open(TEMPLATE, encoding="utf-8").read()
    checks.check(template.count(PLACEHOLDER) == 1, f"the template holds {PLACEHOLDER} exactly once")
    checks.check(not re.search(r"""(?:src|href)\s*=\s*["']?(?:https?:)?//""", template, re.I),
                 "the template loads nothing from the network")

    def explainer(profile, files):
        def explain(op, key):
            r = subprocess.run([tool, "explain", "--profile", profile, "--op", op, "--keys", key, "--color", "never",
                                *files], cwd=a.root, capture_output=True, text=True)
            return r.stdout if r.returncode == 0 else f"exit {r.returncode}: {r.stderr}"
        return explain

    with tempfile.TemporaryDirectory() as d:
        page = os.path.join(d, "matrix.html")
        took = run_html(tool, a.root, page, "--profile", PROFILE, *EXAMPLES)
        print(f"examples: dispatchtool html took {took:.2f} s, {os.path.getsize(page)} bytes")
        data = read_page(checks, template, page, "examples")
        want = "dispatchtool: " + ", ".join(os.path.basename(f) for f in EXAMPLES)
        checks.check(data is not None and data["title"] == want, f"the examples' page is titled {want!r}")
        # Without -o (and with -o -) the same page goes to standard output, byte for byte, every time.
        with open(page, "rb") as f:
            written = f.read()
        for args in (["-o", "-"], []):
            r = subprocess.run([tool, "html", *args, "--profile", PROFILE, *EXAMPLES], cwd=a.root, capture_output=True)
            checks.check(r.returncode == 0 and r.stdout == written and not r.stderr,
                         f"html {' '.join(args) or '(no -o)'} writes the page -o FILE writes to standard output")
        # Every shipped example at once (a renamed PrivateUse1 needs torch-main).
        every = sorted(os.path.relpath(p, a.root) for p in glob.glob(os.path.join(a.root, "configs", "examples", "*.toml")))
        page_every = os.path.join(d, "every.html")
        run_html(tool, a.root, page_every, *every)
        data_every = read_page(checks, template, page_every, "every example (torch-main)")
        whole = os.path.join(d, "all.html")
        data_all = None
        if not a.no_all:
            took = run_html(tool, a.root, whole, "--all", "--profile", PROFILE)
            print(f"--all: dispatchtool html took {took:.2f} s, {os.path.getsize(whole) / 1e6:.1f} MB")
            checks.check(took < 30, f"--all renders in {took:.2f} s (< 30 s)")
            data_all = read_page(checks, template, whole, "--all")
            want = f"dispatchtool: PyTorch's own operators ({PROFILE})"
            checks.check(data_all is not None and data_all["title"] == want, f"the --all page is titled {want!r}")
        b = Browser(binary, os.path.join(d, "profile"))
        try:
            if data is not None:
                check_sample(b, checks, data, "file://" + page, a.screenshot, explainer(PROFILE, EXAMPLES))
            if data_every is not None:
                check_sample(b, checks, data_every, "file://" + page_every, None, explainer("torch-main", every))
            if data_all is not None:
                check_big(b, checks, data_all, "file://" + whole)
            check_dangling(b, checks, template, tool, d)
            check_escape(b, checks, template, tool, d)
        finally:
            b.close()

    print(f"{checks.passed} passed, {checks.failed} failed")
    if checks.passed < 30:
        print("FAIL: fewer checks than expected ran")
        return 1
    return 1 if checks.failed else 0


if __name__ == "__main__":
    sys.exit(main())
