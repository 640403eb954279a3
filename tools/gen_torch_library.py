"""torch.library as one release registers it: the [torch_library] table of a
profile (docs/profile-format.md), measured by registering probe operators with
the live torch's own torch.library and reading _dispatch_dump back.

Imported by tools/gen_profile.py (derive_torch_library, render_torch_library);
nothing here is typed from documentation: each value is what the probes show,
and every assumption the loader builds on (which keys each API registers, that
the kernels are boxed Python kernels without a schema, that register_fake and
register_autograd add no kernel to a custom_op) is a cross-check that fails
loudly when a release behaves otherwise.
"""

import inspect
import re

from tomlstr import toml_str as _q  # noqa: E402  (tools/ is on sys.path)

# The torch.library functions the TOML contract's [[custom_op]] models
# (docs/input-format.md), in the order the profile lists them.
APIS = ["custom_op", "register_kernel", "register_fake", "register_autograd", "register_vmap", "register_autocast"]

# Debug-string roles: the def and the kernel each API registers.
ROLES = ["def", "fake", "autograd", "default", "device", "inplace", "backend_select", "kernel", "vmap", "autocast"]

LINE = re.compile(r"^(?P<key>\w+)(?P<alias>\[alias\])?(?P<inactive> \(inactive\))?: (?P<debug>.*) :: "
                  r"(?P<sig>.*) \[ (?P<flags>.*)\]$")
NS = "dt_probe_torch_library"


def kernels(torch, qualname):
    """_dispatch_dump's kernel lines of one operator: [(key, debug, sig, flags)]."""
    out = []
    for ln in torch._C._dispatch_dump(qualname).splitlines():
        m = LINE.match(ln)
        if m:
            out.append((m.group("key"), m.group("debug"), m.group("sig"), m.group("flags")))
    return out


def def_debug(torch, qualname):
    for ln in torch._C._dispatch_dump(qualname).splitlines():
        if ln.startswith("debug: "):
            return ln[len("debug: "):]
    return None


def derive_torch_library(torch, fails) -> dict:
    lib = torch.library
    d = {"apis": [a for a in APIS if hasattr(lib, a)]}
    if "custom_op" not in d["apis"]:
        # Only the whole set is modelled: a release with some but not custom_op is not one we have.
        fails.check(d["apis"] == [], "torch.library without custom_op has none of %s" % APIS, str(d["apis"]))
        return d
    fails.check(all(a in d["apis"] for a in APIS[:5]),
                "custom_op comes with register_kernel/fake/autograd/vmap", str(d["apis"]))
    counter = [0]
    debugs = {r: set() for r in ROLES}

    def op(schema, device_types=None, mutates=()):
        counter[0] += 1
        name = "%s::op%d" % (NS, counter[0])

        def fn(*args, **kwargs):
            raise RuntimeError("probe")
        lib.custom_op(name, fn, mutates_args=mutates, device_types=device_types, schema=schema)
        return name

    def by_key(name):
        got = {}
        for key, debug, sig, flags in kernels(torch, name):
            fails.check(sig == "(none)" and flags.strip() == "boxed",
                        "custom_op kernels are boxed Python kernels without a schema",
                        "%s %s: %s [ %s]" % (name, key, sig, flags))
            got.setdefault(key, []).append(debug)
        return got

    def expect(name, want, what):
        got = by_key(name)
        fails.check(sorted(got) == sorted(want), "custom_op %s registers exactly %s" % (what, sorted(want)),
                    "got %s" % sorted(got))
        return got

    # A functional operator, device_types=None: Meta (fake), Autograd, CompositeExplicitAutograd.
    base = op("(Tensor x) -> Tensor")
    got = expect(base, ["Meta", "Autograd", "CompositeExplicitAutograd"], "(device_types=None)")
    debugs["def"].add(def_debug(torch, base))
    for role, key in [("fake", "Meta"), ("autograd", "Autograd"), ("default", "CompositeExplicitAutograd")]:
        debugs[role].update(got.get(key, []))
    tags = [str(t).split(".")[-1] for t in getattr(torch.ops, NS).__getattr__(base.split("::")[1]).default.tags]
    d["custom_op_tags"] = tags
    d["custom_op_user_tags"] = "tags" in inspect.signature(lib.custom_op).parameters
    # register_fake / register_autograd replace the custom_op's functions: no kernel.
    lib.register_fake(base, lambda x: x.clone())
    lib.register_autograd(base, lambda ctx, g: g, setup_context=lambda ctx, inputs, output: None)
    expect(base, ["Meta", "Autograd", "CompositeExplicitAutograd"], "after register_fake/register_autograd")
    # register_kernel on a new device type: that device's key.
    lib.register_kernel(base, "cuda", lambda x: x)
    got = expect(base, ["Meta", "Autograd", "CompositeExplicitAutograd", "CUDA"], "after register_kernel('cuda')")
    debugs["kernel"].update(got.get("CUDA", []))
    lib.register_vmap(base, lambda info, dims, x: (x, 0))
    got = expect(base, ["Meta", "Autograd", "CompositeExplicitAutograd", "CUDA", "FuncTorchBatched"],
                 "after register_vmap")
    debugs["vmap"].update(got.get("FuncTorchBatched", []))
    if "register_autocast" in d["apis"]:
        lib.register_autocast(base, "cpu", torch.float16)
        key = "Autocast" + torch._C._dispatch_key_for_device("cpu")
        got = expect(base, ["Meta", "Autograd", "CompositeExplicitAutograd", "CUDA", "FuncTorchBatched", key],
                     "after register_autocast('cpu')")
        debugs["autocast"].update(got.get(key, []))

    # device_types="cpu": CPU instead of CompositeExplicitAutograd.
    dev = op("(Tensor x) -> Tensor", device_types="cpu")
    got = expect(dev, ["Meta", "Autograd", "CPU"], "(device_types='cpu')")
    debugs["device"].update(got.get("CPU", []))
    # ADInplaceOrView kernels of mutable and view operators: counted.
    counts = {}
    for what, schema, mutates in [("mutable", "(Tensor(a0!) x) -> ()", ("x",)),
                                  ("view", "(Tensor(a) x) -> Tensor(a)", ()),
                                  ("mutable_view", "(Tensor(a!) x) -> Tensor(a!)", ("x",))]:
        name = op(schema, device_types="cpu", mutates=mutates)
        got = by_key(name)
        counts[what] = len(got.get("ADInplaceOrView", []))
        debugs["inplace"].update(got.get("ADInplaceOrView", []))
        fails.check(sorted(k for k in got if k != "ADInplaceOrView") == ["Autograd", "CPU", "Meta"],
                    "a %s custom_op adds only ADInplaceOrView kernels" % what, str(sorted(got)))
    d["inplace_kernels"] = counts
    # No Tensor argument, device_types given: a BackendSelect kernel.
    fac = op("(SymInt n, Device device) -> Tensor", device_types="cpu")
    got = expect(fac, ["Meta", "Autograd", "CPU", "BackendSelect"], "without Tensor arguments")
    fails.check(len(got.get("BackendSelect", [])) == 1, "one BackendSelect kernel per register_kernel call")
    debugs["backend_select"].update(got.get("BackendSelect", []))
    # ... and one more per register_kernel call with device types, where Python
    # kernels may override Python kernels (Library.impl's allow_override).
    try:
        lib.register_kernel(fac, "cpu", lambda n, device: None)
        d["python_override"] = True
    except RuntimeError as e:
        fails.check("This is not allowed since there's already a kernel registered from python" in str(e),
                    "a second register_kernel is refused as a Python override", str(e))
        d["python_override"] = False
    got = by_key(fac)
    fails.check(len(got.get("BackendSelect", [])) == (2 if d["python_override"] else 1)
                and len(got.get("CPU", [])) == 1,
                "register_kernel again: one more BackendSelect kernel (where allowed), no second CPU kernel",
                str({k: len(v) for k, v in got.items()}))

    # register_autograd on a view operator with one Tensor in and one out.
    view = op("(Tensor(a) x) -> Tensor(a)")
    try:
        lib.register_autograd(view, lambda ctx, g: g, setup_context=lambda ctx, inputs, output: None)
        d["autograd_views"] = True
    except RuntimeError as e:
        fails.check("Cannot register autograd formula for non-functional operator" in str(e),
                    "register_autograd refuses a view operator as non-functional", str(e))
        d["autograd_views"] = False
    mut = op("(Tensor(a0!) x) -> Tensor", mutates=("x",))
    try:
        lib.register_autograd(mut, lambda ctx, g: g, setup_context=lambda ctx, inputs, output: None)
        fails.check(False, "register_autograd refuses a mutable operator")
    except RuntimeError as e:
        fails.check("Cannot register autograd formula for non-functional operator" in str(e),
                    "register_autograd refuses a mutable operator", str(e))

    derive_unset_errors(torch, fails, d)
    derive_composite_refusals(torch, fails, d)

    d["debug"] = {}
    for role in ROLES:
        seen = debugs[role]
        if role == "autocast" and "register_autocast" not in d["apis"]:
            continue
        fails.check(len(seen) == 1, "one debug string for custom_op's %s registrations" % role, str(sorted(seen)))
        if seen:
            d["debug"][role] = sorted(seen)[0]
    d["python"] = derive_python(torch, fails)
    return d


def derive_unset_errors(torch, fails, d):
    """What custom_op's kernels raise when register_fake / register_autograd
    never gave them a function: the fake kernel on a meta tensor, and backward
    through an output the autograd kernel recorded; whether a mutable operator
    that returns nothing gets a trivial fake impl instead."""
    lib = torch.library
    name = NS + "::unset"

    def dt_probe_function(x):
        return x.clone()
    lib.custom_op(name, dt_probe_function, mutates_args=(), schema="(Tensor x) -> Tensor")
    op = getattr(torch.ops, NS).unset.default
    try:
        op(torch.empty(2, device="meta"))
        fails.check(False, "custom_op without register_fake raises on a meta tensor", "it did not")
        d["no_fake_error"] = ""
    except RuntimeError as e:
        text = str(e)
        fails.check("<CustomOpDef(%s)>" % name in text and "dt_probe_function" in text,
                    "the missing fake impl's error names the operator and the function", text[:200])
        d["no_fake_error"] = text.replace(name, "{op}").replace("dt_probe_function", "{function}")
    x = torch.ones(2, requires_grad=True)
    out = op(x)
    fails.check(out.grad_fn is not None, "custom_op's autograd kernel gives the output a grad_fn", str(out.grad_fn))
    try:
        out.sum().backward()
        fails.check(False, "backward through a custom_op without register_autograd raises", "it did not")
        d["no_autograd_error"] = ""
    except RuntimeError as e:
        text = str(e)
        overload = "%s.unset.default" % NS
        fails.check(overload in text, "the missing autograd formula's error names the overload", text[:200])
        d["no_autograd_error"] = text.replace(overload, "{overload}")
    with torch.no_grad():
        fails.check(op(x).grad_fn is None, "custom_op's autograd kernel records nothing with grad mode off")

    def dt_probe_fill(x):
        x.fill_(1)
    lib.custom_op(NS + "::unset_fill", dt_probe_fill, mutates_args=("x",), schema="(Tensor(a0!) x) -> ()")
    try:
        getattr(torch.ops, NS).unset_fill.default(torch.empty(2, device="meta"))
        d["trivial_fake"] = True
    except RuntimeError as e:
        fails.check(str(e).startswith(d["no_fake_error"].split("{op}")[0]),
                    "a mutable custom_op returning nothing raises the missing fake impl's error", str(e)[:200])
        d["trivial_fake"] = False


def derive_composite_refusals(torch, fails, d):
    """What a Meta kernel from Python on an operator with a
    CompositeImplicitAutograd kernel raises at registration: through
    Library.impl (and torch.library.impl, register_kernel) and through
    register_fake; {name} is the operator as the call names it."""
    lib = torch.library.Library(NS, "FRAGMENT")
    for k, api in enumerate(("impl", "fake")):
        op = "cia%d" % k
        lib.define(op + "(Tensor x) -> Tensor")
        lib.impl(op, lambda x: x, "CompositeImplicitAutograd")
        name = op if api == "impl" else NS + "::" + op
        try:
            if api == "impl":
                lib.impl(name, lambda x: x, "Meta")
            else:
                torch.library.register_fake(name, lambda x: x)
            fails.check(False, "a Meta kernel from Python (%s) on a CompositeImplicitAutograd operator is refused"
                        % api, "it was not")
            text = ""
        except RuntimeError as e:
            text = str(e)
            fails.check("'%s'" % name in text or " %s " % name in text,
                        "the refusal (%s) names the operator" % api, text[:200])
        key = "meta_on_composite_error" if api == "impl" else "fake_on_composite_error"
        d[key] = text.replace("'%s'" % name, "'{name}'").replace(" %s " % name, " {name} ")
    # On an operator not defined yet: register_fake finds no operator, register_autograd no attribute.
    d["undefined_op_error"] = d["undefined_attr_error"] = ""
    try:
        torch.library.register_fake(NS + "::undefined_f", lambda x: x)
        fails.check(False, "register_fake on an undefined operator is refused", "it was not")
    except RuntimeError as e:
        fails.check(NS + "::undefined_f" in str(e), "register_fake's refusal names the operator", str(e)[:200])
        d["undefined_op_error"] = str(e).replace(NS + "::undefined_f", "{op}")
    try:
        torch.library.register_autograd(NS + "::undefined_a", lambda ctx, g: g)
        fails.check(False, "register_autograd on an undefined operator is refused", "it was not")
    except AttributeError as e:
        fails.check("'%s'" % NS in str(e) and "'undefined_a'" in str(e),
                    "register_autograd's refusal names the namespace and the operator", str(e)[:200])
        d["undefined_attr_error"] = str(e).replace("'%s'" % NS, "'{ns}'").replace("'undefined_a'", "'{name}'")


def render_torch_library(d: dict) -> str:
    o = ["\n# torch.library's Python APIs as this release registers them (measured by\n"
         "# tools/gen_torch_library.py; docs/input-format.md, [[custom_op]]).\n",
         "[torch_library]\n",
         "apis = [%s]\n" % ", ".join(_q(a) for a in d["apis"])]
    if "custom_op" in d["apis"]:
        o.append("# Tags every custom_op's definition gets; whether custom_op takes tags=.\n")
        o.append("custom_op_tags = [%s]\n" % ", ".join(_q(t) for t in d["custom_op_tags"]))
        o.append("custom_op_user_tags = %s\n" % ("true" if d["custom_op_user_tags"] else "false"))
        o.append("# Library.impl may replace a kernel registered from Python (allow_override).\n")
        o.append("python_override = %s\n" % ("true" if d["python_override"] else "false"))
        o.append("# register_autograd takes a view operator with one Tensor in and one out.\n")
        o.append("autograd_views = %s\n" % ("true" if d["autograd_views"] else "false"))
        o.append("# ADInplaceOrView kernels custom_op registers for a mutable / view / mutable view schema.\n")
        c = d["inplace_kernels"]
        o.append("inplace_kernels = { mutable = %d, view = %d, mutable_view = %d }\n"
                 % (c["mutable"], c["view"], c["mutable_view"]))
        o.append("# What custom_op's kernels raise without register_fake (a meta tensor reaches the fake\n"
                 "# kernel; {op}: ns::name, {function}: the Python function) and without\n"
                 "# register_autograd (at backward; {overload}: ns.name.default); whether a mutable\n"
                 "# operator returning nothing gets a trivial fake impl instead.\n")
        o.append("no_fake_error = %s\n" % _q(d["no_fake_error"]))
        o.append("no_autograd_error = %s\n" % _q(d["no_autograd_error"]))
        o.append("trivial_fake = %s\n" % ("true" if d["trivial_fake"] else "false"))
        o.append("# What a Meta kernel from Python raises on an operator with a CompositeImplicitAutograd\n"
                 "# kernel, through Library.impl and through register_fake ({name}: the operator as named).\n")
        o.append("meta_on_composite_error = %s\n" % _q(d["meta_on_composite_error"]))
        o.append("fake_on_composite_error = %s\n" % _q(d["fake_on_composite_error"]))
        o.append("# What register_fake ({op}: ns::name) and register_autograd, register_vmap ({ns}, {name}:\n"
                 "# torch.ops.NS.NAME) raise on an operator not defined yet.\n")
        o.append("undefined_op_error = %s\n" % _q(d["undefined_op_error"]))
        o.append("undefined_attr_error = %s\n" % _q(d["undefined_attr_error"]))
        o.append("# Debug strings (_dispatch_dump) of the definition and of each kernel, by role.\n")
        o.append("[torch_library.debug]\n")
        for role in ROLES:
            if role in d["debug"]:
                o.append("%s = %s\n" % (role, _q(d["debug"][role])))
        o.append(render_python(d["python"]))
    return "".join(o)


# ---------------------------------------------------------------------------
# The Python reader's data ([torch_library.python]): what torch.library's
# Python forms register where, measured by importing probe modules.

# Each form: the code that makes it (OP: a probe operator of its own; LIB: a
# module-level Library), and the key whose kernel (or "def": the definition)
# carries its debug string. A form runs once at module level and once in a
# function called at module level; the debug string is turned into a pattern
# ({file} / {line}: the form's call; {caller_line}: the function's call;
# {library}: LIB's own debug string).
PY_FORMS = [
    ("library", "L_{n} = Library(NS, 'FRAGMENT'); L_{n}.define('{op}(Tensor x) -> Tensor'); _KEEP.append(L_{n})",
     "def"),
    ("define", "torch.library.define(NS + '::{op}', '(Tensor x) -> Tensor')", "def"),
    ("define_lib", "torch.library.define(NS + '::{op}', '(Tensor x) -> Tensor', lib=LIB)", "def"),
    ("impl", "torch.library.impl(NS + '::{op}', 'cpu', _fn)", "CPU"),
    ("impl_decorator", "@torch.library.impl(NS + '::{op}', 'cpu')\ndef _f_{n}(x): return x", "CPU"),
    ("impl_lib", "torch.library.impl(NS + '::{op}', 'cpu', _fn, lib=LIB)", "CPU"),
    ("fake", "torch.library.register_fake(NS + '::{op}', _fn)", "Meta"),
    ("fake_decorator", "@torch.library.register_fake(NS + '::{op}')\ndef _f_{n}(x): return x", "Meta"),
    ("fake_lib", "torch.library.register_fake(NS + '::{op}', _fn, lib=LIB)", "Meta"),
    ("abstract", "torch.library.impl_abstract(NS + '::{op}', _fn)", "Meta"),
    ("abstract_lib", "torch.library.impl_abstract(NS + '::{op}', _fn, lib=LIB)", "Meta"),
    ("lib_fake", "LIB._register_fake('{op}', _fn)", "Meta"),
    ("autograd", "torch.library.register_autograd(NS + '::{op}', _bwd, setup_context=_setup)", "Autograd"),
    ("autograd_lib", "torch.library.register_autograd(NS + '::{op}', _bwd, setup_context=_setup, lib=LIB)", "Autograd"),
    ("kernel", "torch.library.register_kernel(NS + '::{op}', 'cpu', _fn)", "CPU"),
    ("kernel_decorator", "@torch.library.register_kernel(NS + '::{op}', 'cpu')\ndef _f_{n}(x): return x", "CPU"),
    ("kernel_lib", "torch.library.register_kernel(NS + '::{op}', 'cpu', _fn, lib=LIB)", "CPU"),
    ("vmap", "torch.library.register_vmap(NS + '::{op}', _vmap)", "FuncTorchBatched"),
    ("vmap_decorator", "@torch.library.register_vmap(NS + '::{op}')\ndef _f_{n}(info, dims, x): return x, 0", "FuncTorchBatched"),
    ("vmap_lib", "torch.library.register_vmap(NS + '::{op}', _vmap, lib=LIB)", "FuncTorchBatched"),
    ("autocast", "torch.library.register_autocast(NS + '::{op}', 'cpu', torch.float16)", "AutocastCPU"),
    ("autocast_lib", "torch.library.register_autocast(NS + '::{op}', 'cpu', torch.float16, lib=LIB)", "AutocastCPU"),
]
PY_NEEDS = {"abstract": "impl_abstract", "autograd": "register_autograd", "kernel": "register_kernel",
            "vmap": "register_vmap", "autocast": "register_autocast", "fake": "register_fake"}
MODULE_LINE, FUNCTION_LINE, CALL_LINE = 7001, 8001, 9001


def _probe_module(torch, lib, ns, forms, pad):
    """Source of a probe module: forms at module level from MODULE_LINE + pad,
    the same forms in a function from FUNCTION_LINE + pad, called at
    CALL_LINE + pad. Returns (text, {(form, where): (op, line)})."""
    lines = ["import torch", "from torch.library import Library", "NS = %r" % ns, "LIB = Library(NS, 'FRAGMENT')",
             "_KEEP = []",
             "def _fn(x): return x", "def _bwd(ctx, g): return g", "def _setup(ctx, inputs, output): pass",
             "def _vmap(info, dims, x): return x, 0"]
    defs, where = [], {}

    def at(line, code):
        while len(lines) < line - 1:
            lines.append("")
        first = len(lines) + 1
        lines.extend(code.split("\n"))
        return first

    k = 0
    body = []
    for form, code, key in forms:
        for ctx in ("module", "function"):
            k += 1
            op = "p%d" % k
            if form not in ("library", "define", "define_lib"):
                defs.append("LIB.define(%r)" % ("%s(Tensor x) -> Tensor" % op))
            where[(form, ctx)] = (op, code.format(n=k, op=op), key)
    lines.extend(defs)
    for (form, ctx), (op, code, key) in list(where.items()):
        if ctx != "module":
            continue
        where[(form, ctx)] = (op, at(MODULE_LINE + pad + 10 * len(body), code), key)
        body.append(form)
    at(FUNCTION_LINE + pad - 1, "def _h():")
    n = 0
    for (form, ctx), (op, code, key) in list(where.items()):
        if ctx != "function":
            continue
        indented = "\n".join("    " + ln for ln in code.split("\n"))
        where[(form, ctx)] = (op, at(FUNCTION_LINE + pad + 10 * n, indented), key)
        n += 1
    at(CALL_LINE + pad, "_h()")
    return "\n".join(lines) + "\n", where


def _pattern(debug, path, line, caller, library):
    if library is not None and debug == library:
        return "{library}"
    for tail, repl in (("%s:%d" % (path, line), "{file}:{line}"), (":%d" % line, ":{line}"),
                       (":%d" % caller, ":{caller_line}")):
        if debug.endswith(tail):
            return debug[: -len(tail)] + repl
    return debug


def derive_python(torch, fails) -> dict:
    import importlib.util
    import os
    import tempfile
    lib = torch.library
    names = sorted(n for n in dir(lib) if not n.startswith("_"))
    forms = [f for f in PY_FORMS if hasattr(lib, PY_NEEDS.get(f[0].split("_")[0], "Library"))]
    out = {"library_names": names, "debug": {}}
    seen = {}
    with tempfile.TemporaryDirectory() as tmp:
        for run, pad in enumerate((0, 400)):
            ns = "dt_probe_py%d" % run
            text, where = _probe_module(torch, lib, ns, forms, pad)
            path = os.path.join(tmp, "probe_py%d.py" % run)
            with open(path, "w") as f:
                f.write(text)
            spec = importlib.util.spec_from_file_location("dt_probe_py%d" % run, path)
            mod = importlib.util.module_from_spec(spec)
            spec.loader.exec_module(mod)
            libdebug = def_debug(torch, "%s::%s" % (ns, where[("fake", "module")][0]))
            for (form, ctx), (op, line, key) in where.items():
                q = "%s::%s" % (ns, op)
                if key == "def":
                    got = [def_debug(torch, q)]
                else:
                    got = [d for k, d, _, _ in kernels(torch, q) if k.split("[")[0] == key]
                if not fails.check(len(got) == 1, "python form %s (%s) registers one %s" % (form, ctx, key), str(got)):
                    continue
                caller = CALL_LINE + pad
                pat = _pattern(got[0], path, line, caller, libdebug if form.endswith("_lib") or form == "lib_fake" else None)
                seen.setdefault((form, ctx), set()).add(pat)
    for (form, ctx), pats in sorted(seen.items()):
        fails.check(len(pats) == 1, "python form %s (%s) has one debug pattern over two probes" % (form, ctx),
                    str(sorted(pats)))
    for form, _, _ in forms:
        mod_p = sorted(seen.get((form, "module"), {""}))[0]
        fn_p = sorted(seen.get((form, "function"), {""}))[0]
        out["debug"][form] = mod_p
        if fn_p != mod_p:
            out["debug"][form + "_in_function"] = fn_p
    # What infer_schema prints for each dtype default: torch's own infer_schema, each dtype alone.
    dtypes = {}
    for attr in sorted(dir(torch)):
        v = getattr(torch, attr, None)
        if not isinstance(v, torch.dtype):
            continue

        def f(x: torch.Tensor, d: torch.dtype = v) -> torch.Tensor:
            raise NotImplementedError
        try:
            s = lib.infer_schema(f, mutates_args=())
        except (ValueError, TypeError, RuntimeError):  # a default infer_schema refuses: left out (refused)
            continue
        m = re.search(r"ScalarType d=([^,)]*)\)", s)
        if fails.check(m is not None, "infer_schema prints a dtype default", s):
            dtypes[attr] = m.group(1)
    out["dtypes"] = dtypes
    # infer_schema's traits: builtin generics (list[int]); how it writes a one-element tuple return.
    def g(x: list[int]) -> None:
        pass
    try:
        lib.infer_schema(g, mutates_args=())
        out["builtin_generics"] = True
    except (ValueError, TypeError, RuntimeError):
        out["builtin_generics"] = False
    import typing

    def one(x: torch.Tensor) -> typing.Tuple[torch.Tensor]:
        raise NotImplementedError
    # A one-element tuple return: "-> ((Tensor))" (kept a tuple), or "-> (Tensor)" (read as one Tensor).
    out["one_tuple_kept"] = lib.infer_schema(one, mutates_args=()).endswith("-> ((Tensor))")
    return out


def render_python(d: dict) -> str:
    o = ["# The Python reader's data (measured by tools/gen_torch_library.py, derive_python):\n"
         "# infer_schema's traits, torch.library's names, and where torch.library's Python\n"
         "# forms register ({file}/{line}: the call; {caller_line}: where the function that\n"
         "# makes it was called; {library}: the lib= Library's debug string).\n",
         "[torch_library.python]\n",
         "builtin_generics = %s\n" % ("true" if d["builtin_generics"] else "false"),
         "one_tuple_kept = %s\n" % ("true" if d["one_tuple_kept"] else "false"),
         "library_names = [%s]\n" % ", ".join(_q(n) for n in d["library_names"]),
         "[torch_library.python.debug]\n"]
    for form in sorted(d["debug"]):
        o.append("%s = %s\n" % (form, _q(d["debug"][form])))
    o.append("# str() of each torch.dtype attribute as infer_schema prints a default.\n")
    o.append("[torch_library.python.dtypes]\n")
    for attr in sorted(d["dtypes"]):
        o.append("%s = %s\n" % (attr, _q(d["dtypes"][attr])))
    return "".join(o)
