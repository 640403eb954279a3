#!/usr/bin/env python3
"""Copies a release's own native_functions.yaml and tags.yaml (as its torchgen
ships them, torchgen/packaged/ATen/native/) into configs/yaml/<profile>/, the
release data `--build cuda|mps|xpu|mtia` reads (docs/library.md). Run it with
the release's python, never edit the copies by hand:

  tools/oracle-env python torch-2.14 tools/gen_release_yaml.py torch-2.14 [--check]

--check: exit 1 if the committed copies differ from the release's.
"""
import argparse
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("profile")
    ap.add_argument("--check", action="store_true")
    args = ap.parse_args()
    import torch
    import torchgen

    want = {"torch-2.14": "2.14", "torch-2.6": "2.6"}.get(args.profile)
    if want is None or not torch.__version__.startswith(want + "."):
        print(f"gen_release_yaml: {args.profile} needs torch {want}, this python has {torch.__version__}", file=sys.stderr)
        return 1
    src = os.path.join(os.path.dirname(torchgen.__file__), "packaged", "ATen", "native")
    dst = os.path.join(ROOT, "configs", "yaml", args.profile)
    os.makedirs(dst, exist_ok=True)
    ok = True
    for name in ("native_functions.yaml", "tags.yaml"):
        with open(os.path.join(src, name), "rb") as f:
            data = f.read()
        target = os.path.join(dst, name)
        if args.check:
            with open(target, "rb") as f:
                if f.read() != data:
                    print(f"{target} differs from {src}/{name}", file=sys.stderr)
                    ok = False
        else:
            with open(target, "wb") as f:
                f.write(data)
    print(f"{'checked' if args.check else 'wrote'} {dst} from torch {torch.__version__} ({src})")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
