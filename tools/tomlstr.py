"""TOML basic strings for the generators in tools/ (shared by the profile
generators and the corpus exporter)."""


def toml_str(s: str, strict: bool = False) -> str:
    """The TOML basic string for any Python string. A lone surrogate cannot be
    represented: with `strict` it raises ValueError, otherwise it becomes U+FFFD."""
    out = ['"']
    for ch in s:
        o = ord(ch)
        if ch == '"':
            out.append('\\"')
        elif ch == "\\":
            out.append("\\\\")
        elif ch == "\n":
            out.append("\\n")
        elif ch == "\t":
            out.append("\\t")
        elif ch == "\r":
            out.append("\\r")
        elif ch == "\b":
            out.append("\\b")
        elif ch == "\f":
            out.append("\\f")
        elif o < 0x20 or o == 0x7F:
            out.append("\\u%04X" % o)
        elif 0xD800 <= o <= 0xDFFF:
            if strict:
                raise ValueError("string contains a lone surrogate: %r" % s)
            out.append("\\uFFFD")
        else:
            out.append(ch)
    out.append('"')
    return "".join(out)
