"""Recorded oracle runs: what a real torch dumped, kept so that a machine
without that torch (CI has no GPU) can check the tool against it.

An oracle script given `--record FILE` (py_reader_oracle.py,
cpp_reader_oracle.py) still compares live, and also writes FILE (JSON, or
xz-compressed JSON when FILE ends in .xz):

    {"torch": "2.11.0+cu130", "oracle": "cpp_reader_oracle",
     "calls": [{"cwd": "{root}", "args": [...]}],     # the tool's arguments after
                                                         # its subcommand, less --profile
     "files": {"{work}/generated.py": "text"},          # files the run wrote
     "ops": {"ns::op": {"registrations": "...", "table": "..."}},
     "skipped": ["ns::op"]}                             # warned "not read" live

Absolute paths of the recording machine are written as {root} (the
repository), {work} (the oracle's work directory) and {tree} (a source tree),
so that tests/oracle/recorded_sources.py replays them anywhere.
"""

import json
import lzma
import os


def _open(path, mode):
    return lzma.open(path, mode + "t", encoding="utf-8") if path.endswith(".xz") else open(path, mode, encoding="utf-8")


class Recorder:
    """Collects one oracle run; write() does nothing without a path."""

    def __init__(self, path, oracle, torch_version, roots):
        self.path = path
        self.roots = sorted(((k, os.path.abspath(v)) for k, v in roots.items() if v), key=lambda kv: -len(kv[1]))
        self.data = {"torch": torch_version, "oracle": oracle, "calls": [], "files": {}, "ops": {}, "skipped": []}

    def generic(self, text):
        for key, path in self.roots:
            text = text.replace(path, "{%s}" % key)
        return text

    def call(self, args, cwd):
        self.data["calls"].append({"cwd": self.generic(os.path.abspath(cwd)), "args": [self.generic(a) for a in args]})

    def file(self, path):
        with open(path, encoding="utf-8") as f:
            self.data["files"][self.generic(os.path.abspath(path))] = f.read()

    def dumps(self, real):
        """Records real_dumps()'s {what: {op: dump}}."""
        for what, by_op in real.items():
            for name, dump in by_op.items():
                self.data["ops"].setdefault(name, {})[what] = self.generic(dump)

    def skipped(self, names):
        self.data["skipped"] = sorted(set(self.data["skipped"]) | set(names))

    def write(self):
        if not self.path:
            return
        with _open(self.path, "w") as f:
            json.dump(self.data, f, indent=1, sort_keys=True)
            f.write("\n")


def real_dumps(torch, ops):
    """{"registrations": {op: _dispatch_dump}, "table": {op: _dispatch_dump_table}}: what the oracles compare
    and record, asked of torch once."""
    return {"registrations": {n: torch._C._dispatch_dump(n) for n in ops},
            "table": {n: torch._C._dispatch_dump_table(n) for n in ops}}


def load(path):
    with _open(path, "r") as f:
        return json.load(f)


def specific(text, roots):
    """A recorded text with {root}/{work}/{tree} replaced by this machine's paths."""
    for key, path in roots.items():
        if path:
            text = text.replace("{%s}" % key, os.path.abspath(path))
    return text
