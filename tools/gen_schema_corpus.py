#!/usr/bin/python3
"""Write the schema round-trip corpus for the unit tests.

Every operator schema PyTorch knows (torch._C._jit_get_all_schemas()),
printed with str(schema), one per line, sorted and deduplicated so that the
file only changes when PyTorch does. The unit test parses each line and
checks that printing it gives the line back.

Usage: /usr/bin/python3 tools/gen_schema_corpus.py [OUTPUT]
  OUTPUT defaults to tests/unit/data/schemas-<torch major.minor>.txt
"""

import os
import sys

import torch


def main() -> int:
    version = ".".join(torch.__version__.split(".")[:2])
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    default_out = os.path.join(root, "tests", "unit", "data", f"schemas-{version}.txt")
    out = sys.argv[1] if len(sys.argv) > 1 else default_out

    lines = sorted({str(s) for s in torch._C._jit_get_all_schemas()})
    for line in lines:
        if "\n" in line:
            raise SystemExit(f"schema spans lines, cannot write it: {line!r}")

    os.makedirs(os.path.dirname(out), exist_ok=True)
    with open(out, "w", encoding="utf-8", newline="\n") as f:
        f.write("".join(line + "\n" for line in lines))
    print(f"wrote {len(lines)} schemas from torch {torch.__version__} to {out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
