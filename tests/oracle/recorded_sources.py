#!/usr/bin/python3
"""The readers against a recorded real torch: what tests/oracle/record_cuda.sh
kept of a CUDA build (py_reader_oracle.py and cpp_reader_oracle.py run there
with --record), checked here without that torch.

    recorded_sources.py --tool build/dispatchtool --records tests/oracle/recorded/cuda-2.11 \
        --workdir DIR --tree TREE NAME...

RECORDS holds export.tar.xz (dispatchtool-export of the recorded torch) and
NAME.json.xz per oracle run. For each NAME, the files the run generated are
written back (under DIR/NAME), and the tool reads the same sources, with the
same arguments, under that export:

    TOOL registrations --raw --all --profile EXPORT ARGS...  == _dispatch_dump(op)
    TOOL table --raw --all --profile EXPORT ARGS...          == _dispatch_dump_table(op)

for every operator the run recorded, byte for byte, paths of the recording
machine replaced by this one's ({root}: this repository, {work}: DIR/NAME,
{tree}: TREE). An operator the tool warned was not read there must be absent
here too; --unknown-signature operators get cpp_reader_oracle's one accepted
difference. A missing record fails (never a skip). Exit 0 iff all matched.
"""

import argparse
import os
import subprocess
import sys
import tarfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
from recording import load, specific  # noqa: E402
from torch_library_oracle import sections  # noqa: E402
from cpp_reader_oracle import only_unknown_signatures  # noqa: E402


def replay(tool, export, rec, roots, name):
    for path, text in rec["files"].items():
        path = specific(path, roots)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
    got, bad = {}, []
    for call in rec["calls"]:
        cwd = specific(call["cwd"], roots)
        args = [specific(a, roots) for a in call["args"]]
        for what in ["registrations", "table"]:
            p = subprocess.run([tool, what, "--raw", "--all", "--profile", export] + args, cwd=cwd,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=300)
            if p.returncode != 0:
                bad.append("%s: exit %d: %s" % (what, p.returncode, p.stderr.decode("utf-8", "replace")[:3000]))
                continue
            got.setdefault(what, {}).update(sections(p.stdout.decode("utf-8", "replace")))
    total, unequal = 0, 0
    unknown = set(rec.get("unknown_signature", []))
    for op, dumps in sorted(rec["ops"].items()):
        for what, exp in sorted(dumps.items()):
            if what not in got:
                continue
            mine = got[what].get(op)
            total += 1
            if op in rec["skipped"]:
                if mine is not None:
                    unequal += 1
                    bad.append("%s %s: warned as not read on the recording machine, but read here" % (what, op))
                continue
            exp = specific(exp, roots)
            if mine == exp or (what == "registrations" and op in unknown and only_unknown_signatures(exp, mine)):
                continue
            unequal += 1
            bad.append("%s %s:\n--- torch %s\n%s--- dispatchtool\n%s" % (what, op, rec["torch"], exp, mine))
    print("recorded_sources %s (%s, torch %s): %d/%d dumps equal over %d operators"
          % (name, rec["oracle"], rec["torch"], total - unequal, total, len(rec["ops"])))
    return bad


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tool", required=True)
    ap.add_argument("--records", required=True, help="a folder of export.tar.xz and NAME.json.xz")
    ap.add_argument("--workdir", required=True)
    ap.add_argument("--tree", help="the source tree the recording read ({tree})")
    ap.add_argument("names", nargs="+")
    args = ap.parse_args()
    work = os.path.abspath(args.workdir)
    os.makedirs(work, exist_ok=True)
    archive = os.path.join(args.records, "export.tar.xz")
    if not os.path.isfile(archive):
        print("recorded_sources: FAIL: no %s" % archive)
        return 1
    with tarfile.open(archive) as t:
        t.extractall(work, filter="data") if hasattr(tarfile, "data_filter") else t.extractall(work)
    export = os.path.join(work, "export")
    bad = []
    for name in args.names:
        path = os.path.join(args.records, name + ".json.xz")
        if not os.path.isfile(path):
            print("recorded_sources: FAIL: no record %s" % path)
            return 1
        roots = {"root": ROOT, "work": os.path.join(work, name), "tree": args.tree}
        bad += replay(args.tool, export, load(path), roots, name)
    for b in bad[:20]:
        print("MISMATCH " + b)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
