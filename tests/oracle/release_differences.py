#!/usr/bin/python3
"""The expected texts of tests/unit/data/release-differences.toml, from the real build.

    tools/oracle-env python torch-2.14 tests/oracle/release_differences.py [--check]
    tools/oracle-env python torch-2.6  tests/oracle/release_differences.py [--check]

Replays the file's [[def]]s and [[impl]]s (typed kernels only) in the live
torch -- _dispatch_library("FRAGMENT", ns, ""), def_, impl_t_t -- and writes
tests/unit/data/release-differences-torch-MAJOR.MINOR.txt: for every operator
in byte order, '### NAME' and _dispatch_dump_table(NAME), then the same for
_dispatch_dump under '=== registrations'; i.e. what
    dispatchtool table --raw --profile torch-X.Y release-differences.toml
and registrations --raw print.  The unit test tests/unit/render/test_raw.cpp
compares the tool with these files (and that they differ between the two
releases where they should).  --check compares instead of writing (exit 1 if
the committed file is not what this torch prints).
"""

import argparse
import os
import re
import sys
import tomllib

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
DATA = os.path.join(ROOT, "tests", "unit", "data")
INPUT = os.path.join(DATA, "release-differences.toml")


def expected_text(torch) -> str:
    C = torch._C
    with open(INPUT, "rb") as f:
        doc = tomllib.load(f)
    ns = doc["namespace"]
    lib = C._dispatch_library(doc.get("kind", "FRAGMENT"), ns, "", "/dev/null", 1)
    names = []
    for d in doc.get("def", []):
        assert d["debug"] == "registered at /dev/null:1", "the replay gives every def this debug string"
        lib.def_(d["schema"])
        names.append(ns + "::" + d["schema"].split("(", 1)[0])
    for im in doc.get("impl", []):
        assert im["signature"] == "(Tensor _0) -> Tensor _0", "impl_t_t registers (Tensor) -> Tensor kernels"
        lib.impl_t_t(im["op"], dispatch=im["key"], debug=im["kernel"])
    names.sort(key=lambda n: n.encode("utf-8"))
    out = ["".join("### %s\n%s" % (n, C._dispatch_dump_table(n)) for n in names),
           "=== registrations\n",
           "".join("### %s\n%s" % (n, C._dispatch_dump(n)) for n in names)]
    return "".join(out)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--check", action="store_true", help="compare with the committed file; write nothing")
    args = ap.parse_args(argv)
    import torch
    m = re.match(r"(\d+)\.(\d+)", torch.__version__)
    release = "torch-%s.%s" % (m.group(1), m.group(2))
    path = os.path.join(DATA, "release-differences-%s.txt" % release)
    text = expected_text(torch)
    if args.check:
        try:
            old = open(path, encoding="utf-8").read()
        except OSError:
            old = None
        if old != text:
            print("release_differences: %s is not what torch %s prints (re-run without --check)"
                  % (path, torch.__version__))
            return 1
        print("release_differences: %s is what torch %s prints (%d bytes)" % (path, torch.__version__, len(text)))
        return 0
    with open(path, "w", encoding="utf-8", newline="\n") as f:
        f.write(text)
    print("release_differences: wrote %s (torch %s)" % (path, torch.__version__))
    return 0


if __name__ == "__main__":
    sys.exit(main())
