"""The schema grammar of a torch build, as a def (torch.library's define, C++'s
m.def) parses it: measured by defining throw-away operators (used by
tools/gen_profile.py; the profile's [schema] table, docs/profile-format.md).

  types            the type names SchemaTypeParser accepts, of the candidates
                   CANDIDATE_TYPES (Await and SymBool are newer than 1.13,
                   DeviceIndex too; SymFloat is in none of them)
  type_variables   "always": a lower-case unknown word is a type variable in
                   every schema (1.13); "aten_prim": only in a schema whose
                   text starts with aten:: or prim:: (2.x), elsewhere refused
  unknown_type     the words of "unknown type specifier" (2.x adds a list of
                   common types and a link)
  double_type, int64_type
                   the words refusing the C++ names double and int64_t, where
                   they are no type variables (2.x)
  default_words    the words parseSingleConstant takes as a default of any
                   type, with the value each stands for (float = 6, ...)
  dtype_defaults   the dtype names (c10::getStringToDtypeMap) a ScalarType or
                   ScalarType? default may be, with their values (2.x)
  device_types     c10::Device's device type names, in DeviceType order, as its
                   error message about a bad device string lists them
"""
import re

NS = "dt_gen_schema"

# Every type name any release's parseBaseType knows, and the compound types
# of parseFakeAndRealType, each written as an argument type.
CANDIDATE_TYPES = [
    ("Tensor", "Tensor"), ("Scalar", "Scalar"), ("int", "int"), ("SymInt", "SymInt"), ("SymFloat", "SymFloat"),
    ("SymBool", "SymBool"), ("float", "float"), ("bool", "bool"), ("complex", "complex"), ("str", "str"),
    ("Dimname", "Dimname"), ("ScalarType", "ScalarType"), ("Layout", "Layout"), ("MemoryFormat", "MemoryFormat"),
    ("ConstQuantizerPtr", "ConstQuantizerPtr"), ("DeviceIndex", "DeviceIndex"), ("Device", "Device"),
    ("Generator", "Generator"), ("Storage", "Storage"), ("Stream", "Stream"), ("Capsule", "Capsule"),
    ("Any", "Any"), ("AnyClassType", "AnyClassType"), ("AnyEnumType", "AnyEnumType"), ("QScheme", "QScheme"),
    ("Quantizer", "Quantizer"), ("None", "None"), ("NoneType", "NoneType"), ("Future", "Future(int)"),
    ("RRef", "RRef(int)"), ("Await", "Await(int)"), ("Dict", "Dict(str, int)"), ("Union", "Union(int, str)"),
]

# Words a default may be for any type: the ones 1.13's parseSingleConstant
# knows are among the enum names of the live build, which are all tried.
EXTRA_WORDS = ["complex", "Mean", "Sum", "none", "mean", "sum", "inf", "nan"]


def measure(torch, fails):
    C = torch._C
    counter = [0]
    lib = C._dispatch_library("FRAGMENT", NS, "")

    def define(args, prefix=""):
        """(schema line, None) or (None, words of the error)."""
        counter[0] += 1
        name = "p%d" % counter[0]
        try:
            lib.def_(prefix + name + args)
        except RuntimeError as e:
            return None, first_line(str(e))
        dump = C._dispatch_dump(NS + "::" + name)
        return [ln for ln in dump.split("\n") if ln.startswith("schema: ")][0], None

    def default_value(type_, word):
        line, _ = define("(%s d=%s) -> ()" % (type_, word))
        if line is None:
            return None
        m = re.search(r" d=(-?\d+)\) -> \(\)$", line)
        fails.check(m is not None, "an integer default for %s=%s" % (type_, word), line)
        return int(m.group(1)) if m else None

    def names(cls):
        return sorted(n for n in dir(torch) if isinstance(getattr(torch, n, None), cls))

    out = {}
    out["types"] = [name for name, written in CANDIDATE_TYPES if define("(%s x) -> ()" % written)[0] is not None]
    fails.check("Tensor" in out["types"] and "Scalar" in out["types"], "the basic schema types parse")

    _, unknown = define("(Dtnotatype x) -> ()")
    fails.check(unknown is not None and unknown.startswith("unknown type specifier"), "unknown type words", unknown)
    out["unknown_type"] = unknown or ""
    _, tv = define("(t x) -> ()")
    if tv is None:
        out["type_variables"] = "always"
        out["double_type"] = out["int64_type"] = ""
    else:
        fails.check(tv == unknown, "a type variable is an unknown type", tv)
        fails.check(define("(t x) -> t", prefix=NS + "::")[0] is None, "an unprefixed namespace refuses it too")
        out["type_variables"] = "aten_prim"
        out["double_type"] = define("(double x) -> ()")[1] or ""
        out["int64_type"] = define("(int64_t x) -> ()")[1] or ""

    dtypes = names(torch.dtype)
    words = sorted(set(dtypes + names(torch.layout) + names(torch.memory_format) + EXTRA_WORDS))
    out["default_words"] = [(w, v) for w in words for v in [default_value("int", w)] if v is not None]
    fails.check(("float", 6) in out["default_words"], "float is a default word (at::kFloat)", out["default_words"])
    plain = {w for w, _ in out["default_words"]}
    out["dtype_defaults"] = [(n, v) for n in dtypes if n not in plain
                             for v in [default_value("ScalarType", n)] if v is not None]
    for n, v in out["dtype_defaults"]:
        fails.check(default_value("ScalarType?", n) == v, "ScalarType? takes %s as ScalarType does" % n)
        fails.check(default_value("int", n) is None, "int refuses the dtype name %s" % n)

    _, bad = define('(Device d="dtnotadevice") -> ()')
    m = re.match(r"Expected one of (.*) device type at start of device string: dtnotadevice$", bad or "")
    fails.check(m is not None, "the device types of c10::Device's message", bad)
    out["device_types"] = m.group(1).split(", ") if m else []
    return out


def first_line(message):
    for line in message.split("\n"):
        if line.strip():
            return line.strip().rstrip(":").strip()
    return ""


def render(p, toml_str, toml_array):
    """The [schema] table and its two sub-tables (appended at the end of the profile)."""
    s = p.get("schema")
    if not s:
        return ""
    o = ["\n# The schema grammar of a def (tools/gen_profile_schema.py): type names, type\n"
         "# variables, the words of its refusals, device types, defaults by name.\n",
         "[schema]\n", toml_array("types", s["types"]),
         "type_variables = %s\n" % toml_str(s["type_variables"]),
         "unknown_type = %s\n" % toml_str(s["unknown_type"])]
    if s["double_type"]:
        o.append("double_type = %s\n" % toml_str(s["double_type"]))
    if s["int64_type"]:
        o.append("int64_type = %s\n" % toml_str(s["int64_type"]))
    o.append(toml_array("device_types", s["device_types"]))
    for name, what in (("default_words", "Words a default of any type may be, and their values."),
                       ("dtype_defaults", "dtype names a ScalarType default may be, and their values.")):
        o.append("\n# %s\n[schema.%s]\n" % (what, name))
        o.extend("%s = %d\n" % (k, v) for k, v in s[name])
    return "".join(o)
