"""What the oracles that write a Python module of registrations share
(custom_op_calls_oracle.py, autograd_fallback_oracle.py): their command line,
the torch they need (never skipped), and the module written and imported."""

import argparse
import importlib.util
import os


def setup(doc, prog, module_name, text):
    """(options, torch, the module's path) once the module is written to
    --workdir and imported; None (after saying why) without torch."""
    ap = argparse.ArgumentParser(description=doc, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--tool", required=True)
    ap.add_argument("--profile", required=True)
    ap.add_argument("--workdir", required=True)
    o = ap.parse_args()
    try:
        import torch
    except ImportError as e:
        print("%s: cannot import torch (%s): this check is never skipped" % (prog, e))
        return None
    os.makedirs(o.workdir, exist_ok=True)
    path = os.path.join(o.workdir, module_name + ".py")
    with open(path, "w") as f:
        f.write(text)
    import_file(module_name, path)
    return o, torch, path


def import_file(name, path):
    spec = importlib.util.spec_from_file_location(name, path)
    spec.loader.exec_module(importlib.util.module_from_spec(spec))
