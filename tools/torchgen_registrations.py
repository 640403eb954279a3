#!/usr/bin/env python3
"""Every (dispatch key, operator) registration torchgen of this release
generates from a native_functions.yaml: what the `TORCH_LIBRARY_IMPL(aten,
KEY, m)` blocks of its Register<KEY>.cpp files (and RegisterBackendSelect.cpp)
hold, with every backend enabled (--mps --xpu --mtia). Run it with the
release's python (tools/oracle-env python torch-2.14 ...); it calls the same
torchgen functions gen.py's main() calls for those files.

  torchgen_registrations.py NATIVE_YAML TAGS_YAML   -> "KEY<TAB>OPERATOR" lines, sorted
"""
import re
import sys

from torchgen import dest
from torchgen.gen import (ComputeBackendSelect, get_grouped_native_functions,
                          parse_native_yaml)
from torchgen.model import DispatchKey, dispatch_keys
from torchgen.selective_build.selector import SelectiveBuilder
from torchgen.utils import Target

IMPL = re.compile(r'm\.impl\("(?:aten::)?([^"]+)"')


def registrations(native_yaml: str, tags_yaml: str) -> set:
    parsed = parse_native_yaml(native_yaml, tags_yaml, set())
    grouped = get_grouped_native_functions(parsed.native_functions)
    selector = SelectiveBuilder.get_nop_selector()
    out = set()
    for key in dispatch_keys:
        gen = dest.RegisterDispatchKey(parsed.backend_indices[key], Target.REGISTRATION, selector,
                                       rocm=False, symint=True, class_method_name=None,
                                       skip_dispatcher_op_registration=False)
        for f in grouped:
            for reg in gen(f):
                for m in IMPL.finditer(reg):
                    out.add((str(key), m.group(1)))
    bs = ComputeBackendSelect(Target.REGISTRATION, selector)
    for f in parsed.native_functions:
        reg = bs(f)
        if reg:
            for m in IMPL.finditer(reg):
                out.add(("BackendSelect", m.group(1)))
    return out


def schema_registrations(native_yaml: str, tags_yaml: str) -> list:
    """RegisterSchema.cpp's definitions, as gen.py's
    get_native_function_schema_registrations writes them: (namespace, macro,
    schema, tags) in order, the macro "TORCH_LIBRARY" or
    "TORCH_LIBRARY_FRAGMENT" (aten's is the template's TORCH_LIBRARY)."""
    from torchgen.gen import RegisterSchema
    from torchgen.model import FRAGMENT_NAMESPACES
    parsed = parse_native_yaml(native_yaml, tags_yaml, set())
    register = RegisterSchema(SelectiveBuilder.get_nop_selector())
    out = []
    for f in parsed.native_functions:
        text = register(f)
        schema = re.search(r'm\.def\("((?:[^"\\]|\\.)*)"', text).group(1)
        tags = sorted(f.tags)
        macro = "TORCH_LIBRARY_FRAGMENT" if f.namespace in FRAGMENT_NAMESPACES else "TORCH_LIBRARY"
        out.append((f.namespace, macro, schema, tags))
    return out


def main() -> None:
    for key, op in sorted(registrations(sys.argv[1], sys.argv[2])):
        print(f"{key}\t{op}")


if __name__ == "__main__":
    main()
