#!/usr/bin/python3
"""Derive the dispatch-key profile of the installed PyTorch and cross-check it
against the live dispatcher.

    /usr/bin/python3 tools/gen_profile.py                       # 1.13: configs/profiles/torch-1.13.toml
    tools/oracle-env python torch-2.14 tools/gen_profile.py     # 2.14 (sid chroot): torch-2.14.toml
    ... tools/gen_profile.py --check    # compare with the committed file, write nothing
    ... tools/gen_profile.py --name NAME -o FILE --library DIR  # any other build (dispatchtool-export)

The profile's name defaults to torch-MAJOR.MINOR of the installed torch, its
file to configs/profiles/NAME.toml and its operator library to
../library/NAME (what tools/export_corpus.py exports from the same build).

Sources (see docs/profile-format.md and ../shared/spec/dispatch-semantics.md):

* c10/core/DispatchKey.h of the installed headers: BackendComponent order,
  functionality keys in enum order, per-backend functionalities and their
  prefixes, alias keys.
* c10/core/DispatchKeySet.h: getAutogradRelatedKeySetFromBackend (B.4) and
  getAutocastRelatedKeySetFromBackend (G.1).
* the live dispatcher (torch._C): parse table (probing _dispatch_key_parse with
  every candidate spelling), backend fallbacks (table of a freshly defined
  operator without kernels), autogradother_backends, getBackendKeySetFromAutograd
  for every key, the alias runtime sets (tables of fresh operators with one
  alias kernel; this yields the CompositeExplicitAutogradNonFunctional
  exclusions), and registration-time behaviour (override warnings, multiple
  fallbacks, reserved namespaces, Meta-on-composite check, Dimname printing).

Every derived list is expanded again with the A.1/A.4/B rules (class Universe
below) and compared with what the oracle reports.  Any disagreement is printed
and makes the script exit with status 1 (nothing is written in that case).
The output is a pure function of the installed torch: running twice gives the
same bytes.

This module can be imported without torch (gen_profile_main.py reuses
Universe and the TOML rendering).
"""

import argparse
import os
import re
import sys
import tempfile
import warnings
from typing import Dict, List, Optional, Sequence, Tuple

from tomlstr import toml_str  # noqa: E402  (tools/ is on sys.path when run as a script)
import gen_profile_runtime  # noqa: E402
import gen_profile_schema  # noqa: E402
from gen_torch_library import derive_torch_library, render_torch_library  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
PROFILES = os.path.join(ROOT, "configs", "profiles")

KNOWN_ALIASES = ("Autograd", "CompositeImplicitAutograd", "CompositeImplicitAutogradNestedTensor",
                 "CompositeExplicitAutograd", "CompositeExplicitAutogradNonFunctional",
                 "FuncTorchBatchedDecomposition")


# ---------------------------------------------------------------------------
# TOML rendering
# ---------------------------------------------------------------------------

def write_or_check(text: str, output: str, check: bool, prog: str, summary: str) -> int:
    """Writes `text` to `output` atomically, or with `check` compares them."""
    if check:
        try:
            old = open(output, encoding="utf-8").read()
        except OSError:
            old = None
        if old != text:
            print("%s: %s is out of date" % (prog, output), file=sys.stderr)
            return 1
        print("%s: %s; %s is up to date" % (prog, summary, output))
        return 0
    tmp = output + ".tmp"
    with open(tmp, "w", encoding="utf-8", newline="\n") as f:
        f.write(text)
    os.replace(tmp, output)
    print("%s: %s; wrote %s" % (prog, summary, output))
    return 0


def toml_array(name: str, items: Sequence[str], width: int = 100) -> str:
    """`name = ["a", "b", ...]`, wrapped to `width` columns, two-space indent."""
    if not items:
        return "%s = []\n" % name
    one = "%s = [%s]" % (name, ", ".join(toml_str(i) for i in items))
    if len(one) <= width:
        return one + "\n"
    lines = ["%s = [" % name]
    cur = " "
    for it in items:
        piece = " " + toml_str(it) + ","
        if len(cur) + len(piece) > width and cur.strip():
            lines.append(cur)
            cur = " "
        cur += piece
    if cur.strip():
        lines.append(cur)
    lines.append("]")
    return "\n".join(lines) + "\n"


def device_types(backends: Sequence[str], functionality: Sequence[str], is_device) -> List[Tuple[str, str]]:
    """torch.library device types -> dispatch keys, as PyTorch main's
    _device_type_to_key maps them ("default" -> CompositeExplicitAutograd,
    otherwise computeDispatchKey of a dense tensor on that device): each
    backend's lower-cased name (PrivateUse1 is "privateuseone"), and the
    devices whose dense key is a plain functionality key -- those of them
    that c10::Device parses (is_device(name))."""
    out = {"privateuseone": "PrivateUse1"}
    for b in backends:
        if not b.startswith("PrivateUse"):
            out[b.lower()] = b
    for k in ("FPGA", "ORT", "Vulkan", "Metal"):
        if k in functionality:
            out[k.lower()] = k
    out = {n: k for n, k in out.items() if is_device(n)}
    out["default"] = "CompositeExplicitAutograd"
    return sorted(out.items())


PU1_RESERVED = "Cannot register privateuse1 backend with in-tree device name: "


def privateuse1_reserved(torch, names: Sequence[str], fails) -> List[str]:
    """The device names torch.utils.rename_privateuse1_backend refuses as
    in-tree (c10::register_privateuse1_backend: "Cannot register privateuse1
    backend with in-tree device name: NAME"): each name is tried in a forked
    child, since a rename that succeeds is once per process."""
    rename = getattr(torch._C, "_rename_privateuse1_backend", None)
    if rename is None:           # 1.13: no renaming at all (privateuse1_rename = false)
        return []
    refused = []
    for name in names:
        r, w = os.pipe()
        with warnings.catch_warnings():   # Python 3.12+ warns of fork() in a process with threads
            warnings.simplefilter("ignore", DeprecationWarning)
            pid = os.fork()
        if pid == 0:             # the child: try the rename, report its first line, exit at once
            os.close(r)
            try:
                rename(name)
                said = "accepted"
            except Exception as e:  # noqa: BLE001
                said = str(e).split("\n")[0]
            os.write(w, said.encode())
            os._exit(0)
        os.close(w)
        with os.fdopen(r, "rb") as f:
            said = f.read().decode()
        os.waitpid(pid, 0)
        if said == PU1_RESERVED + name:
            refused.append(name)
        else:
            fails.check(said == "accepted", "rename_privateuse1_backend(%r) accepted or refused as in-tree" % name,
                        said)
    return refused


def read_tags_yaml(path: str) -> List[Tuple[str, str]]:
    """(tag, one-line description) of torchgen's tags.yaml, in file order (its
    simple layout: '- tag: NAME' then an indented 'desc: |' block)."""
    tags, cur, desc = [], None, []
    with open(path, encoding="utf-8") as f:
        for line in f:
            m = re.match(r"- tag: (\w+)\s*$", line)
            if m:
                if cur is not None:
                    tags.append((cur, " ".join(desc)))
                cur, desc = m.group(1), []
            elif cur is not None and line.strip() and not line.strip().startswith(("desc:", "#")):
                desc.append(line.strip())
    if cur is not None:
        tags.append((cur, " ".join(desc)))
    return tags


def release_tags(torch, fails) -> List[Tuple[str, str]]:
    """The installed release's tags: torchgen's packaged tags.yaml, checked
    against the torch.Tag enum."""
    import torchgen
    path = os.path.join(os.path.dirname(torchgen.__file__), "packaged", "ATen", "native", "tags.yaml")
    tags = read_tags_yaml(path)
    enum = sorted(torch.Tag.__members__) if hasattr(torch, "Tag") else sorted(torch._C.Tag.__members__)
    fails.check(sorted(n for n, _ in tags) == enum, "tags.yaml names equal torch.Tag", "%s vs %s" % (tags, enum))
    return tags


def render_profile(p: dict, header_lines: Sequence[str]) -> str:
    """Render a profile dict in the layout of docs/profile-format.md."""
    o = []
    for h in header_lines:
        o.append(("# " + h).rstrip() + "\n")
    o.append("\n")
    o.append("name = %s\n" % toml_str(p["name"]))
    o.append("description = %s\n" % toml_str(p["description"]))
    o.append("torch_version = %s\n" % toml_str(p["torch_version"]))
    o.append("\n# BackendComponent order; bit 0 first.\n")
    o.append(toml_array("backends", p["backends"]))
    o.append("\n# DispatchKey functionality keys in enum order, value 1 .. EndOfFunctionalityKeys - 1.\n")
    o.append(toml_array("functionality", p["functionality"]))
    o.append("\n# Per-backend functionality keys in enum order, with their runtime-key prefix.\n")
    o.append("per_backend = [\n")
    for k, pre in p["per_backend"]:
        o.append("  { key = %s, prefix = %s },\n" % (toml_str(k), toml_str(pre)))
    o.append("]\n")
    o.append("\n# Alias keys in enum order.\n")
    o.append(toml_array("aliases", p["aliases"]))
    o.append("\n# Functionality keys in autogradother_backends (all backend bits are added).\n")
    o.append(toml_array("autogradother", p["autogradother"]))
    o.append("\n# getBackendKeySetFromAutograd: backends B for which Autograd<B> -> {B}.\n")
    o.append(toml_array("autograd_backend_keys", p["autograd_backend_keys"]))
    o.append("\n# getAutogradKeyFromBackend: backends whose autograd key is Autograd<B>\n"
             "# (every other backend maps to AutogradOther).\n")
    o.append(toml_array("autograd_key_backends", p["autograd_key_backends"]))
    o.append("\n# getAutocastRelatedKeySetFromBackend: the autocast key a tensor of backend B carries.\n")
    o.append("autocast_keys = [\n")
    for b, k in p["autocast_keys"]:
        o.append("  { backend = %s, key = %s },\n" % (toml_str(b), toml_str(k)))
    o.append("]\n")
    o.append("\n# non_functional_backend_keyset = backend_dispatch_keyset minus these\n"
             "# functionality bits and these backend bits.\n")
    o.append(toml_array("non_functional_excluded_functionality",
                        p["non_functional_excluded_functionality"]))
    o.append(toml_array("non_functional_excluded_backends", p["non_functional_excluded_backends"]))
    if p.get("composite_implicit_extra"):
        o.append("\n# Functionality keys CompositeImplicitAutograd also covers (math_dispatch_keyset).\n")
        o.append(toml_array("composite_implicit_extra", p["composite_implicit_extra"]))
    o.append("\n# Names parseDispatchKey accepts, in enum-value order.\n")
    o.append(toml_array("parseable", p["parseable"]))
    o.append("\n# Registration-time behaviour.\n")
    o.append("override_warning = %s\n" % toml_str(p["override_warning"]))
    o.append(toml_array("override_warning_exempt", p["override_warning_exempt"]))
    if p.get("override_warning_prefix"):
        o.append("override_warning_prefix = %s\n" % toml_str(p["override_warning_prefix"]))
    o.append(toml_array("multiple_fallbacks_exempt", p["multiple_fallbacks_exempt"]))
    o.append(toml_array("reserved_namespaces", p["reserved_namespaces"]))
    o.append(toml_array("reserved_namespace_kinds", p["reserved_namespace_kinds"]))
    o.append(toml_array("python_library_kinds", p["python_library_kinds"]))
    o.append("privateuse1_rename = %s\n" % ("true" if p["privateuse1_rename"] else "false"))
    o.append(toml_array("privateuse1_reserved_names", p.get("privateuse1_reserved_names", [])))
    o.append("meta_on_composite = %s\n" % toml_str(p["meta_on_composite"]))
    o.append("dimname_prints_as_str = %s\n" % ("true" if p["dimname_prints_as_str"] else "false"))
    if "dimname_in_schemas" in p:      # measured (gen_profile_main.py leaves it out: default true)
        o.append("dimname_in_schemas = %s\n" % ("true" if p["dimname_in_schemas"] else "false"))
    o.append("# Run-time texts of the AutogradOther ambiguity (ambiguous_autogradother_kernel).\n")
    o.append("ambiguity_assert_prefix = %s\n" % toml_str(p["ambiguity_assert_prefix"]))
    o.append("ambiguity_hint = %s\n" % toml_str(p["ambiguity_hint"]))
    o.append(gen_profile_runtime.render(p, toml_str))
    o.append("\n# Backend fallbacks core PyTorch registers, in table (A.4) order.\n")
    for key, ft, debug in p["fallbacks"]:
        o.append("\n[[fallback]]\n")
        o.append("key = %s\n" % toml_str(key))
        if ft:
            o.append("fallthrough = true\n")
        o.append("debug = %s\n" % toml_str(debug))
    if p.get("libraries"):
        o.append("\n# TORCH_LIBRARY (DEF) blocks core PyTorch registers: a DEF file for one of\n"
                 "# these namespaces is refused (spec F.5). Sorted by namespace.\n")
    for ns, debug in p.get("libraries", []):
        o.append("\n[[library]]\n")
        o.append("namespace = %s\n" % toml_str(ns))
        o.append("debug = %s\n" % toml_str(debug))
    # A table, so that it can follow the [[...]] entries (and leaves their line
    # numbers, which diagnostics quote, where they were).
    o.append("\n# torch._python_dispatcher.PythonDispatcher: its runtime_keys and alias_keys.\n")
    o.append("[python_dispatcher]\n")
    o.append(toml_array("runtime_keys", p["python_dispatcher_runtime_keys"]))
    o.append(toml_array("alias_keys", p["python_dispatcher_alias_keys"]))
    if p.get("python_dispatcher_duplicates_error"):
        o.append("duplicates_error = %s\n" % toml_str(p["python_dispatcher_duplicates_error"]))
    o.append("\n# torch.library device types and the key each registers to.\n")
    o.append("[device_types]\n")
    for name, key in p["device_types"]:
        o.append("%s = %s\n" % (name, toml_str(key)))
    if p.get("operator_library"):
        o.append("\n# PyTorch's own operators (definitions, kernels): directories or TOML files relative\n"
                 "# to this file, exported by tools/export_corpus.py (docs/library.md).\n")
        o.append("[operator_library]\n")
        o.append("paths = [%s]\n" % toml_str(p["operator_library"]))
    if p.get("tags"):
        o.append("\n# Operator tags (torch.Tag) with the release's descriptions (tags.yaml).\n")
        for name, desc in p["tags"]:
            o.append("\n[[tag]]\nname = %s\ndescription = %s\n" % (toml_str(name), toml_str(desc)))
    if p.get("torch_library") is not None:
        o.append(render_torch_library(p["torch_library"]))
    o.append(gen_profile_schema.render(p, toml_str, toml_array))
    return "".join(o)


# ---------------------------------------------------------------------------
# The key universe, expanded from the profile lists (spec A.1, A.4, B)
# ---------------------------------------------------------------------------

class Universe:
    def __init__(self, backends: Sequence[str], functionality: Sequence[str],
                 per_backend: Sequence[Tuple[str, str]], aliases: Sequence[str],
                 autogradother: Sequence[str] = (), autograd_backend_keys: Sequence[str] = (),
                 nf_excluded_functionality: Sequence[str] = ("Sparse",),
                 nf_excluded_backends: Sequence[str] = ("XLA", "Lazy"),
                 math_extra: Sequence[str] = (), unknown: str = "Unknown"):
        self.backends = list(backends)
        self.nb = len(self.backends)
        self.func = ["Undefined"] + list(functionality)     # index == enum value
        self.nf = len(self.func)                            # == EndOfFunctionalityKeys
        self.prefix = dict(per_backend)
        self.per_backend = list(per_backend)
        self.aliases = list(aliases)
        self.value: Dict[str, int] = {k: i for i, k in enumerate(self.func)}
        self.markers: Dict[str, int] = {"EndOfFunctionalityKeys": self.nf}
        self.pb: Dict[str, Tuple[str, int]] = {}            # runtime key -> (functionality, backend idx)
        v = self.nf
        for fk, pre in self.per_backend:
            v += 1
            self.markers["StartOf%sBackends" % fk] = v
            for bi, b in enumerate(self.backends):
                v += 1
                self.value[pre + b] = v
                self.pb[pre + b] = (fk, bi)
            self.markers["EndOf%sBackends" % fk] = v
        self.markers["EndOfRuntimeBackendKeys"] = v
        for a in self.aliases:
            v += 1
            self.value[a] = v
        self.end_of_alias = v
        if self.aliases:
            self.markers["StartOfAliasKeys"] = self.value[self.aliases[0]]
            self.markers["EndOfAliasKeys"] = v
        self.name_of = {val: k for k, val in self.value.items()}
        self.full_backend_mask = (1 << self.nb) - 1
        self.autogradother = list(autogradother)
        self.autograd_backend_keys = list(autograd_backend_keys)
        self.nf_excl_func = list(nf_excluded_functionality)
        self.nf_excl_backends = list(nf_excluded_backends)
        self.math_extra = list(math_extra)    # 2.x: Functionalize reuses CIA kernels
        self.unknown = unknown                # toString of a per-backend key with no backend

    # names ---------------------------------------------------------------
    def to_string(self, v: int) -> str:
        """c10::toString(DispatchKey) for any value (1.13 says ...Unknown, 2.x ...Undefined)."""
        if v in self.name_of:
            return self.name_of[v]
        for fk, pre in self.per_backend:
            if v == self.markers["StartOf%sBackends" % fk]:
                return pre + self.unknown
        return "UnknownUnknown"

    def is_key(self, k: str) -> bool:
        return k in self.value

    # keysets -------------------------------------------------------------
    def repr_of(self, k: str) -> int:
        if k == "Undefined" or k in self.aliases:
            return 0
        if k in self.pb:
            fk, bi = self.pb[k]
            return (1 << (self.nb + self.func.index(fk) - 1)) | (1 << bi)
        i = self.func.index(k)
        return 1 << (self.nb + i - 1)

    def ks(self, *keys: str) -> int:
        r = 0
        for k in keys:
            r |= self.repr_of(k)
        return r

    @staticmethod
    def has(ks: int, k_repr: int) -> bool:
        return (ks & k_repr) == k_repr

    def full(self) -> int:
        return (1 << (self.nb + self.nf - 1)) - 1

    def iterate(self, ks: int) -> List[str]:
        out = []
        for i in range(1, self.nf):
            if ks & (1 << (self.nb + i - 1)):
                fk = self.func[i]
                if fk in self.prefix:
                    for bi, b in enumerate(self.backends):
                        if ks & (1 << bi):
                            out.append(self.prefix[fk] + b)
                else:
                    out.append(fk)
        return out

    def keyset_string(self, ks: int) -> str:
        return "DispatchKeySet(%s)" % ", ".join(self.iterate(ks))

    def runtime_keys(self) -> List[str]:
        return ["Undefined"] + self.iterate(self.full())

    def to_functionality(self, k: str) -> str:
        if k in self.aliases:
            return "Undefined"
        if k in self.pb:
            return self.pb[k][0]
        return k

    # B.1 -----------------------------------------------------------------
    def autograd_ks(self) -> int:
        return self.ks("AutogradFunctionality", "AutogradOther", "AutogradNestedTensor")

    def autogradother_ks(self) -> int:
        return self.ks(*self.autogradother) | self.full_backend_mask

    def backend_ks(self) -> int:
        return self.autogradother_ks() | self.ks("Dense")

    def math_ks(self) -> int:
        return self.backend_ks() | self.autograd_ks() | self.ks("NestedTensor", *self.math_extra)

    def nested_ks(self) -> int:
        return self.ks("AutogradNestedTensor", "NestedTensor") | self.full_backend_mask

    def non_functional_ks(self) -> int:
        r = self.backend_ks()
        for f in self.nf_excl_func:
            r &= ~(self.repr_of(f) & ~self.full_backend_mask)
        for b in self.nf_excl_backends:
            r &= ~(1 << self.backends.index(b))
        return r

    def alias_set(self, alias: str) -> int:
        return {
            "Autograd": lambda: self.autograd_ks() | self.full_backend_mask,
            "CompositeImplicitAutograd": self.math_ks,
            "CompositeImplicitAutogradNestedTensor": self.nested_ks,
            "CompositeExplicitAutograd": self.backend_ks,
            "CompositeExplicitAutogradNonFunctional": self.non_functional_ks,
            "FuncTorchBatchedDecomposition": lambda: self.ks("FuncTorchBatched"),
        }[alias]()

    def is_included_in_alias(self, k: str, alias: str) -> bool:
        if k == "Undefined":
            return False
        if alias == "Autograd":
            return self.has(self.autograd_ks(), self.repr_of(self.to_functionality(k)))
        if alias in ("CompositeExplicitAutograd", "CompositeExplicitAutogradNonFunctional") \
                and k == "NestedTensor":
            return False
        if alias == "FuncTorchBatchedDecomposition":
            # functorch_batched_ks.has(k): an alias key's own set is empty, so "has" it
            return k == "FuncTorchBatched" or k in self.aliases
        return self.has(self.alias_set(alias), self.repr_of(k))

    def backend_keyset_from_autograd(self, k: str) -> int:
        if k == "AutogradOther":
            return self.autogradother_ks()
        if k == "AutogradNestedTensor":
            return self.ks("NestedTensor") | self.full_backend_mask
        if k.startswith("Autograd") and k in self.pb and k[8:] in self.autograd_backend_keys:
            return self.repr_of(k[8:])
        return 0

    def keys_of_functionality(self, f: str) -> List[str]:
        if f in self.prefix:
            return [self.prefix[f] + b for b in self.backends]
        return [f]


# ---------------------------------------------------------------------------
# Header parsing
# ---------------------------------------------------------------------------

def _strip_comments(text: str) -> str:
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    return re.sub(r"//[^\n]*", "", text)


def _macro_body(text: str, name: str) -> str:
    m = re.search(r"#define\s+%s\([^)]*\)((?:[^\n]*\\\n)*[^\n]*)" % re.escape(name), text)
    if not m:
        raise SystemExit("header: macro %s not found" % name)
    return m.group(1)


def parse_dispatch_key_h(path: str) -> dict:
    text = _strip_comments(open(path, encoding="utf-8").read())
    backends = re.findall(r"_\((\w+), extra\)", _macro_body(text, "C10_FORALL_BACKEND_COMPONENTS"))
    per_backend = re.findall(r"_\((\w+),\s*(\w*)\)", _macro_body(text, "C10_FORALL_FUNCTIONALITY_KEYS"))
    m = re.search(r"enum class DispatchKey\s*:\s*\w+\s*\{(.*?)\n\};", text, flags=re.S)
    if not m:
        raise SystemExit("header: enum class DispatchKey not found")
    body = re.sub(r"\\\n", " ", m.group(1))
    lines = [ln.strip() for ln in body.split("\n")]
    lines = [ln for ln in lines if ln and not ln.startswith("#")]
    functionality, aliases, assigned = [], [], []
    state = "start"
    for ln in lines:
        for entry in [e.strip() for e in ln.split(",") if e.strip()]:
            if "=" in entry:
                lhs = entry.split("=")[0].strip()
                assigned.append(lhs)
                if lhs == "Undefined":
                    state = "func"
                elif lhs == "EndOfRuntimeBackendKeys":
                    state = "alias"
                elif lhs.startswith("StartOfAliasKeys"):
                    state = "done"
                continue
            if not re.fullmatch(r"\w+", entry):
                continue                 # macro invocation
            if entry == "EndOfFunctionalityKeys":
                state = "pb"
                continue
            if state == "func":
                functionality.append(entry)
            elif state == "alias":
                aliases.append(entry)
    return {"backends": backends, "per_backend": per_backend, "functionality": functionality,
            "aliases": aliases, "assigned": assigned}


def _switch_cases(text: str, func: str) -> List[Tuple[str, str]]:
    """[(backend component without 'Bit', returned expression)] of a switch."""
    m = re.search(r"%s\s*\(BackendComponent t\)\s*\{(.*?)\n\}" % re.escape(func), text, flags=re.S)
    if not m:
        raise SystemExit("header: %s not found" % func)
    out, pending = [], []
    for ln in m.group(1).split("\n"):
        c = re.search(r"case BackendComponent::(\w+)Bit:", ln)
        if c:
            pending.append(c.group(1))
            continue
        r = re.search(r"return ([^;]+);", ln)
        if r and pending:
            out.extend((b, r.group(1).strip()) for b in pending)
            pending = []
        if "default:" in ln:
            pending = []
    return out


def parse_dispatch_keyset_h(path: str) -> dict:
    text = _strip_comments(open(path, encoding="utf-8").read())
    var = dict(re.findall(r"constexpr auto (\w+)\s*=\s*DispatchKeySet\(DispatchKey::(\w+)\);", text))
    autograd = []
    for b, expr in _switch_cases(text, "getAutogradRelatedKeySetFromBackend"):
        keys = [var[v.strip()] for v in expr.split("|") if v.strip() in var]
        keys = [k for k in keys if k != "ADInplaceOrView"]
        autograd.append((b, keys[0]))
    autocast = []
    for b, expr in _switch_cases(text, "getAutocastRelatedKeySetFromBackend"):
        autocast.append((b, var[expr]))
    return {"autograd_key_from_backend": autograd, "autocast": autocast}


# ---------------------------------------------------------------------------
# Derivation against the live dispatcher
# ---------------------------------------------------------------------------

class Failures:
    def __init__(self):
        self.items: List[str] = []
        self.passed = 0

    def check(self, cond: bool, what: str, detail: str = "") -> bool:
        if cond:
            self.passed += 1
        else:
            self.items.append(what + (": " + detail if detail else ""))
        return cond

    def report(self, prog: str, label: str, checks: str) -> bool:
        """Prints every failure and a summary to stderr; True if there were any."""
        for f in self.items:
            print(label + ": " + f, file=sys.stderr)
        if self.items:
            print("%s: %d %s passed, %d failed; nothing written" % (prog, self.passed, checks, len(self.items)),
                  file=sys.stderr)
        return bool(self.items)


class StderrCapture:
    """Capture what C++ writes to file descriptor 2 (glog warnings)."""

    def __enter__(self):
        sys.stderr.flush()
        self.tmp = tempfile.TemporaryFile()
        self.saved = os.dup(2)
        os.dup2(self.tmp.fileno(), 2)
        return self

    def __exit__(self, *exc):
        sys.stderr.flush()
        os.dup2(self.saved, 2)
        os.close(self.saved)
        self.tmp.seek(0)
        self.text = self.tmp.read().decode("utf-8", "replace")
        self.tmp.close()
        return False


def derive(torch, fails: Failures, verbose: bool = False) -> dict:
    C = torch._C
    inc = os.path.join(os.path.dirname(torch.__file__), "include", "c10", "core")
    hdr = parse_dispatch_key_h(os.path.join(inc, "DispatchKey.h"))
    hdr2 = parse_dispatch_keyset_h(os.path.join(inc, "DispatchKeySet.h"))

    libs = []          # keep probe libraries alive until the end
    counter = [0]
    # Namespaces of the operators `import torch` registered, before any probe adds its own.
    core_namespaces = sorted({n.split("::")[0] for n in C._dispatch_get_registrations_for_dispatch_key("")})

    def fresh_op(schema_args="(Tensor x) -> Tensor"):
        counter[0] += 1
        ns = "__dispatchtool_probe_%d" % counter[0]
        m = C._dispatch_library("FRAGMENT", ns, "")
        m.def_("p" + schema_args)
        libs.append(m)
        return m, ns + "::p"

    def dk(u: Universe, name: str):
        return C.DispatchKey(u.value[name])

    # --- the very first probe: a fresh op with no kernels -> backend fallbacks
    _, bare = fresh_op()
    bare_table = C._dispatch_dump_table(bare)

    # --- enum layout (header) -------------------------------------------
    u = Universe(hdr["backends"], hdr["functionality"], hdr["per_backend"], hdr["aliases"])
    fails.check(C._dispatch_num_backends() == u.nb, "number of backends",
                "%d vs header %d" % (C._dispatch_num_backends(), u.nb))
    for a in u.aliases:
        fails.check(a in KNOWN_ALIASES, "alias key %s has known semantics" % a)
    members = C.DispatchKey.__members__
    for name, val in sorted(members.items(), key=lambda kv: (int(kv[1]), kv[0])):
        exp = u.value.get(name, u.markers.get(name))
        fails.check(exp == int(val), "pybind DispatchKey.%s value" % name,
                    "torch %d, derived %s" % (int(val), exp))
    first_pb = u.markers["StartOf%sBackends" % u.per_backend[0][0]]
    u.unknown = "Undefined" if C._dispatch_key_name(C.DispatchKey(first_pb)).endswith("Undefined") else "Unknown"
    for v in range(0, u.end_of_alias + 8):
        got = C._dispatch_key_name(C.DispatchKey(v))
        fails.check(got == u.to_string(v), "toString(%d)" % v, "torch %r, derived %r" % (got, u.to_string(v)))

    # --- A.4 runtime-key order ------------------------------------------
    full = C._dispatch_keyset_full_after(C.DispatchKey(u.nf - 1))   # FULL_AFTER(last) == FULL
    full_str = C._dispatch_keyset_to_string(full)
    fails.check(full_str == u.keyset_string(u.full()), "runtime-key order (full keyset)",
                "torch %s\nderived %s" % (full_str, u.keyset_string(u.full())))
    runtime = u.runtime_keys()

    # --- parse table ------------------------------------------------------
    candidates = set(u.value) | set(u.markers) | set(hdr["assigned"])
    candidates |= {u.to_string(v) for v in range(u.end_of_alias + 2)}
    candidates |= {b + "Bit" for b in u.backends} | {"InvalidBit", "CatchAll", "Autocast"}
    candidates |= {c.lower() for c in list(candidates)} | {c.upper() for c in list(candidates)}
    candidates |= {"", "cpu", "cuda", "meta", "Math", "DefaultBackend", "CompositeImplicit",
                   "CompositeExplicit", "AutogradCPU ", " CPU"}
    parseable = []
    for c in sorted(candidates):
        try:
            v = int(C._dispatch_key_parse(c))
        except Exception:            # noqa: BLE001 - any failure means "not parseable"
            continue
        if not fails.check(c in u.value, "parseable name %r is a key of the universe" % c):
            continue
        fails.check(u.value[c] == v, "parse(%s) value" % c, "torch %d, derived %d" % (v, u.value[c]))
        parseable.append(c)
    parseable.sort(key=lambda k: (u.value[k], k))

    # --- backend fallbacks --------------------------------------------------
    fallbacks = []
    rows = [r for r in bare_table.split("\n") if r]
    for r in rows:
        m = re.fullmatch(r"(\w+): (fallthrough )?(.*) \[backend fallback\]", r)
        if not fails.check(m is not None, "fresh-op table row is a backend fallback", r):
            continue
        fallbacks.append((m.group(1), m.group(2) is not None, m.group(3)))
    fb_keys = [k for k, _, _ in fallbacks]
    fails.check(fb_keys == [k for k in runtime if k in fb_keys], "fallback rows in A.4 order")
    for k in runtime:
        got = bool(C._dispatch_has_backend_fallback(dk(u, k)))
        fails.check(got == (k in fb_keys), "_dispatch_has_backend_fallback(%s)" % k,
                    "torch %s, derived %s" % (got, k in fb_keys))

    # --- autogradother_backends ----------------------------------------------
    ago_str = C._dispatch_keyset_to_string(C._dispatch_autogradother_backends)
    ago_keys = re.fullmatch(r"DispatchKeySet\((.*)\)", ago_str).group(1).split(", ")
    ago_func = []
    for k in ago_keys:
        f = u.to_functionality(k) if k in u.value else None
        if fails.check(f is not None, "autogradother member %s is a key" % k) and f not in ago_func:
            ago_func.append(f)
    ago_func.sort(key=lambda f: u.value[f])
    u.autogradother = ago_func
    fails.check(u.keyset_string(u.autogradother_ks()) == ago_str, "autogradother_backends expansion",
                "torch %s\nderived %s" % (ago_str, u.keyset_string(u.autogradother_ks())))

    # --- B.3 getBackendKeySetFromAutograd ------------------------------------
    b3 = {}
    for k in sorted(u.value, key=lambda k: u.value[k]):
        b3[k] = C._dispatch_keyset_to_string(C._dispatch_get_backend_keyset_from_autograd(dk(u, k)))
    u.autograd_backend_keys = [b for b in u.backends
                               if b3.get("Autograd" + b) == "DispatchKeySet(%s)" % b
                               and ("Autograd" + b) in u.pb]
    for k, got in b3.items():
        exp = u.keyset_string(u.backend_keyset_from_autograd(k))
        fails.check(got == exp, "getBackendKeySetFromAutograd(%s)" % k, "torch %s, derived %s" % (got, exp))

    # --- alias runtime sets (tables of fresh ops) -----------------------------
    alias_rows = {}
    for a in u.aliases:
        m, op = fresh_op()
        m.impl_t_t("p", a, "probe_" + a)
        tbl = C._dispatch_dump_table(op)
        alias_rows[a] = [r.split(":")[0] for r in tbl.split("\n") if ": probe_%s [" % a in r]
    cea = [k for k in alias_rows.get("CompositeExplicitAutograd", []) if k != "Undefined"]
    ceanf = [k for k in alias_rows.get("CompositeExplicitAutogradNonFunctional", []) if k != "Undefined"]
    removed = set(cea) - set(ceanf)
    excl_func = [f for f in u.func[1:]
                 if any(k in cea for k in u.keys_of_functionality(f))
                 and all(k in removed for k in u.keys_of_functionality(f) if k in cea)]
    excl_keys = {k for f in excl_func for k in u.keys_of_functionality(f)}
    excl_back = []
    for bi, b in enumerate(u.backends):
        ks = [k for k in cea if k in u.pb and u.pb[k][1] == bi and k not in excl_keys]
        if ks and all(k in removed for k in ks):
            excl_back.append(b)
    u.nf_excl_func, u.nf_excl_backends = excl_func, excl_back
    # Non-per-backend functionality keys the CIA kernel covers beyond the math
    # set of 1.13 (2.x: Functionalize, "Functionalize should always re-use
    # CompositeImplicit decomps").
    u.math_extra = [k for k in alias_rows.get("CompositeImplicitAutograd", [])
                    if k in u.func and k not in u.prefix and not u.has(u.math_ks(), u.repr_of(k))
                    and k != "Undefined"]
    for a in u.aliases:
        exp = [k for k in runtime if u.is_included_in_alias(k, a)]
        if a in ("CompositeImplicitAutograd", "CompositeExplicitAutograd",
                 "CompositeExplicitAutogradNonFunctional"):
            exp = ["Undefined"] + exp
        fails.check(alias_rows[a] == exp, "runtime set of alias %s (table of a fresh op)" % a,
                    "torch %s\nderived %s" % (alias_rows[a], exp))
    for k in parseable:
        for a in u.aliases:
            got = bool(C._dispatch_is_included_in_alias(dk(u, k), dk(u, a)))
            fails.check(got == u.is_included_in_alias(k, a), "isIncludedInAlias(%s, %s)" % (k, a),
                        "torch %s" % got)

    # --- B.4 getAutogradKeyFromBackend ----------------------------------------
    # header: the switch of getAutogradRelatedKeySetFromBackend
    autograd_key_backends = [b for b, k in hdr2["autograd_key_from_backend"] if k == "Autograd" + b]
    for b, k in hdr2["autograd_key_from_backend"]:
        fails.check(k == "Autograd" + b, "getAutogradRelatedKeySetFromBackend(%s) is Autograd%s" % (b, b), k)
    # oracle: the incremental table update after a kernel on backend B refreshes
    # exactly getAutogradKeyFromBackend(B); a stale entry makes checkInvariants fail.

    def invariants_ok(name):
        try:
            C._dispatch_check_invariants(name)
            return True
        except RuntimeError:
            return False

    for b in u.backends:
        if not fails.check(b in parseable, "dense key %s parseable (needed for the B.4 probe)" % b):
            continue
        # experiment A: stale AutogradOther (CIA, then SparseCPU), then a kernel on B
        m, op_a = fresh_op()
        m.impl_t_t("p", "CompositeImplicitAutograd", "cia")
        m.impl_t_t("p", "SparseCPU", "sparse")
        fails.check(not invariants_ok(op_a), "B.4 probe: AutogradOther stale after CIA + SparseCPU")
        m.impl_t_t("p", b, "backend")
        a_ok = invariants_ok(op_a)
        # experiment B: CIA, then a kernel on B (Autograd<B> stale unless refreshed)
        m, op_b = fresh_op()
        m.impl_t_t("p", "CompositeImplicitAutograd", "cia")
        m.impl_t_t("p", b, "backend")
        b_ok = invariants_ok(op_b)
        if b in u.autograd_backend_keys:
            oracle = "Autograd" + b if b_ok else "AutogradOther"
        else:
            fails.check(b_ok, "B.4 probe: no stale Autograd%s without a B.3 entry" % b)
            oracle = "AutogradOther" if a_ok else "Autograd" + b
        derived = "Autograd" + b if b in autograd_key_backends else "AutogradOther"
        fails.check(oracle == derived, "getAutogradKeyFromBackend(%sBit)" % b,
                    "probe %s, header %s" % (oracle, derived))
    cpu_ks = C._dispatch_key_set(torch.empty(0))
    meta_ks = C._dispatch_key_set(torch.empty(0, device="meta"))
    fails.check("AutogradCPU" in cpu_ks and "AutogradMeta" in meta_ks, "tensor keysets carry Autograd<B>",
                cpu_ks + " " + meta_ks)

    # --- G.1 autocast key per backend (header; CPU/Meta checked on tensors) -----
    autocast = hdr2["autocast"]
    for b, k in autocast:
        fails.check(k in u.value and b in u.backends, "autocast key %s of %s exists" % (k, b))
    amap = dict(autocast)
    fails.check(("AutocastCPU" in cpu_ks) == (amap.get("CPU") == "AutocastCPU"), "CPU tensor autocast key", cpu_ks)
    fails.check(not any(k.startswith("Autocast") for k in meta_ks.strip("DispatchKeySet()").split(", "))
                == ("Meta" not in amap), "Meta tensor autocast key", meta_ks)

    # --- registration-time behaviour ---------------------------------------------
    # override warnings: two overrides on two ops -> count; per-key exemption
    m, op1 = fresh_op()
    m2, op2 = fresh_op()
    with StderrCapture() as cap:
        for mm in (m, m2):
            mm.impl_t_t("p", "CPU", "first")
            mm.impl_t_t("p", "CPU", "second")
    n_warn = cap.text.count("Overriding a previously registered kernel")
    override_warning = {2: "always", 1: "once"}.get(n_warn, "?")
    fails.check(override_warning != "?", "override warning count", str(n_warn))
    # The text TORCH_WARN_ONCE puts before "Overriding ..." (2.x: "Warning only
    # once for all operators, ...\n  "); 1.13's TORCH_WARN has none.
    m_pre = re.search(r"\] Warning: (.*?)Overriding a previously registered kernel", cap.text, re.S)
    fails.check(m_pre is not None, "override warning text", cap.text[:300])
    override_prefix = m_pre.group(1) if m_pre else ""
    fails.check((override_prefix != "") == (override_warning == "once"),
                "override warning prefix only with TORCH_WARN_ONCE", repr(override_prefix))
    # Per-key exemption.  With "once" the probe above used up the process's
    # single warning, so every later override would look exempt: measure with
    # c10's warnAlways on (TORCH_WARN_ONCE then warns every time; exempt keys
    # skip the warning statement itself), and put the switch back afterwards.
    exempt = []
    override_keys = [k for k in parseable if k not in u.aliases and k != "Undefined"]
    warn_always = C._get_warnAlways()
    C._set_warnAlways(True)
    try:
        for k in override_keys + ["CompositeImplicitAutograd", ""]:
            m, op = fresh_op()
            m.impl_t_t("p", k, "first")
            with StderrCapture() as cap:
                m.impl_t_t("p", k, "second")
            warned = "Overriding a previously registered kernel" in cap.text
            if k in override_keys:
                if not warned:
                    exempt.append(k)
            else:           # alias keys and the catch-all are never exempt (the profile cannot say so)
                fails.check(warned, "override on %s warns" % (k or "the catch-all"), cap.text[:200])
    finally:
        C._set_warnAlways(warn_always)
    fails.check(len(exempt) < 8, "override-warning exemptions are few (a probe that saw no warning at all "
                "would list every key)", ", ".join(exempt))

    # reserved namespaces / kinds, python library kinds
    import torch.library as tl
    reserved = list(getattr(tl, "_reserved_namespaces", []))
    reserved_kinds, py_kinds = [], []
    for kind in ("DEF", "IMPL", "FRAGMENT"):
        for ns in reserved:
            try:
                lib = tl.Library(ns, kind)
                libs.append(lib)
            except ValueError as e:
                if "reserved namespace" in str(e):
                    reserved_kinds.append(kind)
            except Exception:        # noqa: BLE001
                pass
        try:
            counter[0] += 1
            lib = tl.Library("__dispatchtool_kind_%d" % counter[0], kind)
            libs.append(lib)
            py_kinds.append(kind)
        except ValueError as e:
            fails.check("Unsupported kind" in str(e), "python library kind %s" % kind, str(e))
    reserved_kinds = sorted(set(reserved_kinds), key=["DEF", "IMPL", "FRAGMENT"].index)

    # torch._python_dispatcher.PythonDispatcher's key subset (class attributes).
    from torch._python_dispatcher import PythonDispatcher
    pd_runtime, pd_alias = list(PythonDispatcher.runtime_keys), list(PythonDispatcher.alias_keys)
    for k in pd_runtime + pd_alias:
        fails.check(k in u.value, "PythonDispatcher key %s is a key" % k)
    # register()'s error texts, raised before it touches the dispatcher (a bare
    # instance will do).  The duplicates one is release data (its spelling
    # changed); the tool writes the other two itself, so they must not change.
    def pd_error(keys):
        try:
            PythonDispatcher.register(object.__new__(PythonDispatcher), keys)
        except RuntimeError as e:
            return str(e)
        return None
    dup = pd_error(["CPU", "CPU"])
    fails.check(dup is not None and dup.count("['CPU', 'CPU']") == 1, "PythonDispatcher duplicates error", repr(dup))
    pd_duplicates_error = (dup or "").replace("['CPU', 'CPU']", "{keys}")
    fails.check(pd_error(["CompositeImplicitAutograd", "CompositeExplicitAutograd"]) ==
                "Registration to both CompositeImplicitAutograd and CompositeExplicitAutograd is not allowed.",
                "PythonDispatcher CIA + CEA error (the tool's text)")
    fails.check(pd_error(["CUDA"]) == "CUDA is not supported, please select a dispatch key in %s." % (
                pd_runtime + pd_alias), "PythonDispatcher unsupported-key error (the tool's text)")

    # torch.library in 1.13 takes dispatch keys, not device types: the tool
    # maps them as main does, for the names this c10::Device parses.
    def parses_as_device(name):
        try:
            torch.device(name)
            return True
        except RuntimeError:
            return False
    devices = device_types(u.backends, u.func, parses_as_device)
    fails.check(("cpu", "CPU") in devices and ("cuda", "CUDA") in devices, "device types cpu and cuda", str(devices))
    pu1_reserved = privateuse1_reserved(torch, [n for n, _ in devices if n != "default"], fails)

    # TORCH_LIBRARY (DEF) blocks core PyTorch registered: a second DEF block
    # for such a namespace is refused, and the message names the first one.
    core_libraries = []
    for ns in core_namespaces:
        try:
            probe = C._dispatch_library("DEF", ns, "")
            del probe                # accepted: nobody owns the namespace; drop it at once
        except RuntimeError as e:
            m = re.search(r"Only a single TORCH_LIBRARY can be used to register the namespace (\S+);.*"
                          r"Previous registration of TORCH_LIBRARY was (.*); latest registration was ", str(e), re.S)
            if fails.check(m is not None and m.group(1) == ns, "second DEF for %s refused as F.5 says" % ns,
                           str(e).split("\n")[0]):
                core_libraries.append((ns, m.group(2)))

    # Meta kernel on an op whose only composite kernel is CompositeImplicitAutogradNestedTensor
    def meta_refused(alias):
        counter[0] += 1
        ns = "__dispatchtool_meta_%d" % counter[0]
        m = C._dispatch_library("FRAGMENT", ns, "")
        m.def_("p(Tensor x) -> Tensor")
        m.impl_t_t("p", alias, "composite")
        libs.append(m)
        lib = tl.Library(ns, "IMPL")
        libs.append(lib)
        try:
            lib.impl("p", lambda x: x, "Meta")
            return False
        except RuntimeError as e:
            return "should not register a meta kernel" in str(e)
    fails.check(meta_refused("CompositeImplicitAutograd"), "Meta impl refused with a CIA kernel")
    meta_on_composite = "substring" if meta_refused("CompositeImplicitAutogradNestedTensor") else "exact"

    # The AutogradOther ambiguity raised at run time: a CIA and a MkldnnCPU kernel,
    # called with an mkldnn tensor (ambiguous_autogradother_kernel).
    _, aop = fresh_op()
    amb_lib = tl.Library(aop.split("::")[0], "IMPL")
    libs.append(amb_lib)
    amb_lib.impl("p", lambda x: x, "CompositeImplicitAutograd")
    amb_lib.impl("p", lambda x: x, "MkldnnCPU")
    amb_prefix = amb_hint = ""
    try:
        getattr(getattr(torch.ops, aop.split("::")[0]), "p")(torch.randn(2, 2).to_mkldnn())
        fails.check(False, "the AutogradOther ambiguity raises at run time")
    except RuntimeError as e:
        m = re.match(r"(.*?)" + re.escape(aop) + r" has kernels registered to both CompositeImplicitAutograd and a "
                     r"backend mapped to AutogradOther\..*?\n(.*?)\nCanonical state\n", str(e), re.S)
        if fails.check(m is not None, "ambiguity message shape", str(e).split("\n")[0]):
            amb_prefix, amb_hint = m.group(1), m.group(2)

    # Dimname printing
    try:
        _, dop = fresh_op("(Tensor x, Dimname d) -> Tensor")
        sch = [ln for ln in C._dispatch_dump(dop).split("\n") if ln.startswith("schema: ")][0]
        dimname_as_str = "str d" in sch
        fails.check(dimname_as_str or "Dimname d" in sch, "Dimname schema printing", sch)
        dimname_in_schemas = True
    except RuntimeError as e:       # 2.14: Dimname is no schema type any more (2.6 still parses it)
        fails.check("unknown type specifier" in str(e), "Dimname refused in schemas", str(e))
        dimname_as_str = False
        dimname_in_schemas = False
    for text in ("dtu::f(Dimname[] d) -> ()", "dtu::f() -> Dimname?"):    # the parser agrees with def_
        try:
            C.parse_schema(text)
            parsed = True
        except RuntimeError:
            parsed = False
        fails.check(parsed == dimname_in_schemas, "parse_schema(%r) as def_ does" % text)

    # multiple fallbacks for one key (global state: run last)
    mf_exempt = []
    for k in runtime[1:]:
        if k not in parseable:
            continue
        regs, err = [], None
        for _ in range(1 if k in fb_keys else 2):
            try:
                lib = C._dispatch_library("IMPL", "_", k)
                lib.fallback_fallthrough()
                regs.append(lib)
            except RuntimeError as e:
                err = str(e)
                break
        if err is None:
            mf_exempt.append(k)
        else:
            fails.check("Tried to register multiple backend fallbacks for the same dispatch key" in err,
                        "second fallback on %s refused" % k, err.split("\n")[0])
        del regs
    libs.clear()

    return {
        "backends": u.backends,
        "functionality": u.func[1:],
        "per_backend": u.per_backend,
        "aliases": u.aliases,
        "autogradother": u.autogradother,
        "autograd_backend_keys": u.autograd_backend_keys,
        "autograd_key_backends": autograd_key_backends,
        "autocast_keys": autocast,
        "non_functional_excluded_functionality": u.nf_excl_func,
        "non_functional_excluded_backends": u.nf_excl_backends,
        "composite_implicit_extra": u.math_extra,
        "parseable": parseable,
        "override_warning": override_warning,
        "override_warning_exempt": exempt,
        "override_warning_prefix": override_prefix,
        "multiple_fallbacks_exempt": mf_exempt,
        "reserved_namespaces": reserved,
        "reserved_namespace_kinds": reserved_kinds,
        "python_library_kinds": py_kinds,
        "privateuse1_rename": hasattr(torch.utils, "rename_privateuse1_backend"),
        "meta_on_composite": meta_on_composite,
        "dimname_prints_as_str": dimname_as_str,
        "dimname_in_schemas": dimname_in_schemas,
        "ambiguity_assert_prefix": amb_prefix,
        "ambiguity_hint": amb_hint,
        "fallbacks": fallbacks,
        "libraries": core_libraries,
        "privateuse1_reserved_names": pu1_reserved,
        "device_types": devices,
        "python_dispatcher_runtime_keys": list(pd_runtime),
        "python_dispatcher_alias_keys": list(pd_alias),
        "python_dispatcher_duplicates_error": pd_duplicates_error,
        "_runtime_keys": runtime,
        # The operators themselves are exported by tools/export_corpus.py.
        "operator_library": None,      # set by main()
        "tags": release_tags(torch, fails),
        "torch_library": derive_torch_library(torch, fails),
    }


def compare_with_reference_model(p: dict) -> List[str]:
    """Informational: differences to ../shared/reference/dispatch_model.py (V113)."""
    ref = os.environ.get("DISPATCH_MODEL_DIR", os.path.join(os.path.dirname(ROOT), "shared", "reference"))
    if not os.path.exists(os.path.join(ref, "dispatch_model.py")):
        return ["reference model not found at %s (skipped)" % ref]
    sys.path.insert(0, ref)
    try:
        import dispatch_model as dm
    finally:
        sys.path.pop(0)
    v = dm.V113
    notes = []

    def cmp(what, a, b):
        if a != b:
            notes.append("%s differs: profile %s, model %s" % (what, a, b))
    cmp("backends", p["backends"], v.backends)
    cmp("functionality", p["functionality"], v.functionality[1:])
    cmp("per_backend", [tuple(x) for x in p["per_backend"]], [tuple(x) for x in v.per_backend])
    cmp("aliases", p["aliases"], v.aliases)
    cmp("autogradother", sorted(p["autogradother"]), sorted(v.autogradother_members))
    cmp("autograd_backend_keys", sorted(p["autograd_backend_keys"]), sorted(v.autograd_to_backend))
    cmp("autograd_key_backends", sorted(p["autograd_key_backends"]), sorted(v.autograd_key_backends))
    cmp("parseable", sorted(p["parseable"]), sorted(dm.V113_PARSEABLE))
    cmp("fallbacks", {k: (d, ft) for k, ft, d in p["fallbacks"]}, dict(v.fallbacks))
    cmp("runtime keys", p["_runtime_keys"], v.runtime_keys())
    return notes


def default_name(version: str) -> str:
    """torch-MAJOR.MINOR of a torch.__version__ ("2.14.1+debian" -> torch-2.14)."""
    m = re.match(r"(\d+)\.(\d+)", version)
    return "torch-%s.%s" % (m.group(1), m.group(2)) if m else "torch-" + version


def profile_text(torch, name: str, library: str, generator: str = "tools/gen_profile.py",
                 prog: str = "gen_profile", verbose: bool = False) -> Tuple[Optional[str], Failures]:
    """The profile of the live `torch` named `name` whose operator library is
    `library` (relative to the profile file), derived and cross-checked;
    (None, failures) when a cross-check failed (each printed to stderr).
    The header names `generator` as what wrote it. Shared by main() and
    dispatchtool-export (tools/dispatchtool_export.py)."""
    fails = Failures()
    p = derive(torch, fails, verbose)
    p.update(gen_profile_runtime.measure(torch, fails))
    p["schema"] = gen_profile_schema.measure(torch, fails)
    p["name"] = name
    p["description"] = "PyTorch %s (%s), measured" % (torch.__version__, os.path.dirname(torch.__file__))
    p["torch_version"] = torch.__version__
    p["operator_library"] = library

    if name == "torch-1.13":
        for n in compare_with_reference_model(p):
            print("note (reference model): " + n, file=sys.stderr)

    if fails.report(prog, "CROSS-CHECK FAILED", "cross-checks"):
        return None, fails

    header = [
        "Generated by %s -- do not edit by hand; re-run the script." % generator,
        "Source: torch %s at %s" % (torch.__version__, os.path.dirname(torch.__file__)),
        "(enum layout from include/c10/core/DispatchKey.h and DispatchKeySet.h, everything",
        "else measured with torch._C and cross-checked: %d checks passed)." % fails.passed,
    ]
    return render_profile(p, header), fails


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--name", help="the profile's name (default: torch-MAJOR.MINOR of the installed torch)")
    ap.add_argument("-o", "--output", help="profile to write (default: configs/profiles/NAME.toml)")
    ap.add_argument("--library", help="its operator library, relative to the profile (default: ../library/NAME)")
    ap.add_argument("--check", action="store_true",
                    help="derive and cross-check, then compare with --output instead of writing it")
    ap.add_argument("-v", "--verbose", action="store_true")
    args = ap.parse_args(argv)

    try:
        import torch
    except Exception as e:           # noqa: BLE001
        print("gen_profile: cannot import torch: %s" % e, file=sys.stderr)
        return 77

    name = args.name or default_name(torch.__version__)
    output = args.output or os.path.join(PROFILES, name + ".toml")
    text, fails = profile_text(torch, name, args.library or "../library/" + name, verbose=args.verbose)
    if text is None:
        return 1
    return write_or_check(text, output, args.check, "gen_profile", "%d cross-checks passed" % fails.passed)


if __name__ == "__main__":
    sys.exit(main())
