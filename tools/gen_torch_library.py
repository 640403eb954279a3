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

    d["debug"] = {}
    for role in ROLES:
        seen = debugs[role]
        if role == "autocast" and "register_autocast" not in d["apis"]:
            continue
        fails.check(len(seen) == 1, "one debug string for custom_op's %s registrations" % role, str(sorted(seen)))
        if seen:
            d["debug"][role] = sorted(seen)[0]
    return d


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
        o.append("# Debug strings (_dispatch_dump) of the definition and of each kernel, by role.\n")
        o.append("[torch_library.debug]\n")
        for role in ROLES:
            if role in d["debug"]:
                o.append("%s = %s\n" % (role, _q(d["debug"][role])))
    return "".join(o)
