#!/usr/bin/env python3
"""Checks the layout of src/ against docs/architecture.md.

Layers: the fenced block after the line `<!-- layers, lowest first -->` in
docs/architecture.md lists the folders of src/, one level per line, lowest
first; folders on one line are peers. A file in src/LAYER/ may include
"LAYER/..." and "OTHER/..." for every OTHER on an earlier line -- never a peer,
never a layer above. Every quoted include is written from src/ ("layer/file")
and names a file that exists. Every folder of src/ is a documented layer, and
every documented layer is a folder of src/. The unit tests (tests/unit) may
include the core's layers, those below the front end (cli) -- never cli or a
program above it (src/web): the tests link the core library, never main --
plus their own helpers.

The public API: include/dispatchtool/*.hpp belongs to the layer `api` (whose
folder src/api/ implements it). A public header includes only other public
headers (<dispatchtool/NAME.hpp>, which must exist) and the standard library
(<vector>: no quoted includes, no third-party or internal headers). In src/,
<dispatchtool/...> includes are checked too: the vocabulary headers that
docs/architecture.md names on its `<!-- public vocabulary: ... -->` line (the
core's own Expected and Diagnostic) may be included by every layer, the other
public headers only by `api` and the layers above it.

Internal headers: a header of src/ whose first line says it is internal (the
word "internal") is included only by its own layer and that layer's unit
tests, and docs/architecture.md lists exactly those on its
`<!-- internal headers: layer/file.hpp ... -->` line.

The layer table: the row of each layer (`| \`LAYER/\` | ... |`) names every
file of src/LAYER/ by its stem (`toml_reader`, `io.hpp`), or by a pattern in
backquotes that covers it (`checks_*.cpp`, `cmd_<name>.cpp`, `file_loader*`).

Citations: comments cite the dispatcher's rules as "dispatcher-notes X.Y"
(docs/dispatcher-notes.md). In every file of src/ and include/, each such
citation (and each number of a list, "dispatcher-notes G.2, G.5") names a
section "## X.Y ..." of docs/dispatcher-notes.md; no "spec X.Y" citation and,
in a // comment, no bare section number (X.Y alone) remains; and no path
names "../shared" (nothing outside the repository). A tree without citations
needs no docs/dispatcher-notes.md.

With --tests, tests mirror sources: every src/LAYER/NAME.cpp of the core (every
layer below cli) has its tests in tests/unit/LAYER/test_NAME.cpp, and every
tests/unit/LAYER/test_NAME.cpp is named after a src/LAYER/NAME.cpp or .hpp.

Prints one line per problem and exits 1, or exits 0. --self-test checks that
the checks catch what they should, on small trees made up for the purpose.
"""
import argparse
import os
import re
import sys
import tempfile

INCLUDE = re.compile(r'^\s*#\s*include\s*"([^"]+)"', re.M)
SYSTEM_INCLUDE = re.compile(r'^\s*#\s*include\s*<([^>]+)>', re.M)
MARKER = "<!-- layers, lowest first -->"
VOCABULARY = re.compile(r"<!-- public vocabulary: ([^>]*?) -->")
INTERNAL = re.compile(r"<!-- internal headers: ([^>]*?) -->")
ROW = re.compile(r"^\| `(\w+)/` \| (.*)$", re.M)
API = "api"  # the layer of the public headers (include/dispatchtool/)
NOTES = "docs/dispatcher-notes.md"  # the dispatcher notes the code's comments cite
SECTION = r"[A-I]\.[0-9]+"  # a section number: A.1, C.2, G.5
CITATION = re.compile(rf"\bdispatcher-notes ({SECTION}(?:(?:,| and|, and) {SECTION})*)")
SPEC_CITATION = re.compile(rf"\bspec ([A-I](?:\.[0-9]+)?)(?![\w.])")
BARE_SECTION = re.compile(rf"(?<![\w./-])({SECTION})(?!\w)")
NOTE_HEADING = re.compile(rf"^## ({SECTION})\b", re.M)
FRONT_END = "cli"  # the command-line front end: it and the levels above it (programs over it) are not the core


def read_levels(doc):
    """[[layer, ...], ...] lowest level first, from the fenced block after MARKER."""
    with open(doc, encoding="utf-8") as f:
        text = f.read()
    at = text.find(MARKER)
    if at < 0:
        raise SystemExit(f"{doc}: no '{MARKER}' line")
    block = re.search(r"```[^\n]*\n(.*?)```", text[at:], re.S)
    if block is None:
        raise SystemExit(f"{doc}: no fenced block after '{MARKER}'")
    levels = []
    for line in block.group(1).splitlines():
        names = line.split("#")[0].replace(",", " ").split()
        if names:
            levels.append(names)
    return levels


def sources(folder, exts=(".hpp", ".cpp")):
    for dirpath, _, files in os.walk(folder):
        for name in sorted(files):
            if name.endswith(exts):
                yield os.path.join(dirpath, name)


def includes(path, pattern=INCLUDE):
    """(included name, "path:line") for each #include "..." (or <...>) of a file."""
    with open(path, encoding="utf-8") as f:
        text = f.read()
    for m in pattern.finditer(text):
        yield m.group(1), f"{path}:{text.count(chr(10), 0, m.start()) + 1}"


def read_vocabulary(doc):
    """The public headers every layer may include (docs/architecture.md)."""
    with open(doc, encoding="utf-8") as f:
        m = VOCABULARY.search(f.read())
    return set(m.group(1).split()) if m else set()


def check_public(root, level_of, problems):
    """include/dispatchtool/: only public and standard headers; <dispatchtool/...> in src/ by layer."""
    public = os.path.join(root, "include", "dispatchtool")
    if not os.path.isdir(public):
        return
    if API not in level_of:
        problems.append(f"include/dispatchtool/: docs/architecture.md has no layer '{API}' for the public API")
        return
    vocabulary = read_vocabulary(os.path.join(root, "docs", "architecture.md"))
    for name in sorted(vocabulary):
        if not os.path.isfile(os.path.join(public, name)):
            problems.append(f"docs/architecture.md: public vocabulary header {name}: no include/dispatchtool/{name}")
    for path in sources(public):
        for inc, where in includes(path):
            problems.append(f'{os.path.relpath(where, root)}: #include "{inc}": a public header includes only '
                            "<dispatchtool/...> and standard headers")
        for inc, where in includes(path, SYSTEM_INCLUDE):
            where = os.path.relpath(where, root)
            if inc.startswith("dispatchtool/"):
                if not os.path.isfile(os.path.join(root, "include", inc)):
                    problems.append(f"{where}: #include <{inc}>: no such file include/{inc}")
            elif "/" in inc or "." in inc:
                problems.append(f"{where}: #include <{inc}>: a public header includes only <dispatchtool/...> "
                                "and standard headers")
    src = os.path.join(root, "src")
    for path in sources(src):
        layer = os.path.relpath(path, src).split(os.sep)[0]
        if layer not in level_of:
            continue
        for inc, where in includes(path, SYSTEM_INCLUDE):
            if not inc.startswith("dispatchtool/"):
                continue
            where = os.path.relpath(where, root)
            if not os.path.isfile(os.path.join(root, "include", inc)):
                problems.append(f"{where}: #include <{inc}>: no such file include/{inc}")
            elif inc[len("dispatchtool/"):] not in vocabulary and level_of[layer] < level_of[API]:
                problems.append(f"{where}: #include <{inc}>: {layer} may not include the public API above "
                                "its vocabulary (docs/architecture.md)")


def says_internal(path):
    with open(path, encoding="utf-8") as f:
        return re.search(r"\binternal\b", f.readline(), re.I) is not None


def check_internal(root, problems):
    """Internal headers: as the doc lists them, included by their own layer only."""
    doc = os.path.join(root, "docs", "architecture.md")
    with open(doc, encoding="utf-8") as f:
        m = INTERNAL.search(f.read())
    listed = set(m.group(1).split()) if m else set()
    src = os.path.join(root, "src")
    internal = {os.path.relpath(p, src).replace(os.sep, "/") for p in sources(src, (".hpp",)) if says_internal(p)}
    for name in sorted(listed - internal):
        why = "its first line does not say it is internal" if os.path.isfile(os.path.join(src, name)) else "no such file"
        problems.append(f"docs/architecture.md: internal header {name}: {why}")
    for name in sorted(internal - listed):
        problems.append(f"src/{name}: says it is internal, but docs/architecture.md's internal headers do not list it")
    for base in (src, os.path.join(root, "tests", "unit")):
        for path in sources(base):
            layer = os.path.relpath(path, base).split(os.sep)[0]
            for inc, where in includes(path):
                if inc in internal and inc.split("/")[0] != layer:
                    problems.append(f'{os.path.relpath(where, root)}: #include "{inc}": internal to '
                                    f'{inc.split("/")[0]} (its first line says so)')


def covered(stem, row):
    """Whether a layer's table row names a file stem, or a backquoted pattern in it covers the stem."""
    if re.search(r"(?<![\w/])" + re.escape(stem) + r"(?!\w)", row):
        return True
    for pat in re.findall(r"`([^`]*[*<][^`]*)`", row):
        pat = os.path.splitext(pat)[0] if pat.endswith((".cpp", ".hpp")) else pat
        rx = re.escape(pat).replace(r"\*", r"\w*")
        rx = re.sub(r"<\w+>", r"\\w+", rx)
        if re.fullmatch(rx, stem):
            return True
    return False


def check_rows(root, level_of, problems):
    """Each layer's row of the table names every file of its folder."""
    with open(os.path.join(root, "docs", "architecture.md"), encoding="utf-8") as f:
        rows = {m.group(1): m.group(2) for m in ROW.finditer(f.read())}
    src = os.path.join(root, "src")
    for layer in sorted(level_of):
        folder = os.path.join(src, layer)
        if not os.path.isdir(folder):
            continue
        if layer not in rows:
            problems.append(f"docs/architecture.md: the layer table has no row for {layer}/")
            continue
        for stem in sorted({os.path.splitext(n)[0] for n in os.listdir(folder) if n.endswith((".cpp", ".hpp"))}):
            if not covered(stem, rows[layer]):
                problems.append(f"src/{layer}/{stem}: not named in docs/architecture.md's row for {layer}/")


def check_citations(root, problems):
    """Comments cite docs/dispatcher-notes.md sections that exist, never the spec or ../shared."""
    notes = os.path.join(root, *NOTES.split("/"))
    sections = None
    if os.path.isfile(notes):
        with open(notes, encoding="utf-8") as f:
            sections = set(NOTE_HEADING.findall(f.read()))
    for top in ("src", "include"):
        for dirpath, dirs, files in os.walk(os.path.join(root, top)):
            dirs.sort()
            for name in sorted(files):
                path = os.path.join(dirpath, name)
                with open(path, encoding="utf-8", errors="replace") as f:
                    lines = f.read().splitlines()
                for n, line in enumerate(lines, 1):
                    where = f"{os.path.relpath(path, root)}:{n}"
                    if "../shared" in line:
                        problems.append(f"{where}: names ../shared, a path outside the repository "
                                        "(point at a file of docs/ instead)")
                    for m in SPEC_CITATION.finditer(line):
                        section = m.group(1) if "." in m.group(1) else m.group(1) + ".N"
                        problems.append(f"{where}: spec {m.group(1)}: cite dispatcher-notes {section} "
                                        f"({NOTES})")
                    cited = []
                    for m in CITATION.finditer(line):
                        cited.append(m.span())
                        for section in re.findall(SECTION, m.group(1)):
                            if sections is None:
                                problems.append(f"{where}: dispatcher-notes {section}: no {NOTES}")
                            elif section not in sections:
                                problems.append(f"{where}: dispatcher-notes {section}: {NOTES} has no "
                                                f"section '## {section} ...'")
                    comment = line.find("//") if name.endswith((".hpp", ".cpp")) else -1
                    if comment < 0:
                        continue
                    for m in BARE_SECTION.finditer(line, comment):
                        if any(a <= m.start() < b for a, b in cited) or line[:m.start()].endswith("spec "):
                            continue
                        problems.append(f"{where}: bare section number {m.group(1)}: cite dispatcher-notes "
                                        f"{m.group(1)} ({NOTES})")


def first_program(levels):
    """The level of the front end (FRONT_END): it and every level above it are programs, not the core."""
    for i, names in enumerate(levels):
        if FRONT_END in names:
            return i
    return len(levels) - 1


def check(root, check_tests):
    src = os.path.join(root, "src")
    levels = read_levels(os.path.join(root, "docs", "architecture.md"))
    level_of = {name: i for i, names in enumerate(levels) for name in names}
    problems = []
    folders = sorted(d for d in os.listdir(src) if os.path.isdir(os.path.join(src, d)))
    for d in folders:
        if d not in level_of:
            problems.append(f"src/{d}/: not a layer of docs/architecture.md")
    for name in level_of:
        if name not in folders:
            problems.append(f"docs/architecture.md: layer '{name}' has no folder src/{name}/")

    def rel(path):
        return os.path.relpath(path, root)

    for path in sources(src):
        layer = os.path.relpath(path, src).split(os.sep)[0]
        if layer not in level_of:
            continue
        for inc, where in includes(path):
            where = rel(where)
            top = inc.split("/")[0]
            if "/" not in inc or top not in level_of:
                problems.append(f'{where}: #include "{inc}": write includes from src/, as "layer/file.hpp"')
            elif not os.path.isfile(os.path.join(src, inc)):
                problems.append(f'{where}: #include "{inc}": no such file src/{inc}')
            elif top != layer and level_of[top] >= level_of[layer]:
                how = "a peer" if level_of[top] == level_of[layer] else "a higher layer"
                problems.append(f'{where}: #include "{inc}": {layer} may not include {top} ({how})')

    check_public(root, level_of, problems)
    check_internal(root, problems)
    check_rows(root, level_of, problems)
    check_citations(root, problems)

    unit = os.path.join(root, "tests", "unit")
    programs = [name for names in levels[first_program(levels):] for name in names]
    for path in sources(unit):
        for inc, where in includes(path):
            where = rel(where)
            top = inc.split("/")[0]
            if top in programs:
                problems.append(f'{where}: #include "{inc}": the tests link the core, never the front end')
            elif top in level_of:
                if not os.path.isfile(os.path.join(src, inc)):
                    problems.append(f'{where}: #include "{inc}": no such file src/{inc}')
            elif not os.path.isfile(os.path.join(unit, inc)):
                problems.append(f'{where}: #include "{inc}": neither a layer\'s file nor a test helper')

    if check_tests:
        core = [name for names in levels[:first_program(levels)] for name in names]
        for layer in core:
            folder = os.path.join(src, layer)
            if not os.path.isdir(folder):
                continue
            stems = {os.path.splitext(f)[0] for f in os.listdir(folder)}
            for f in sorted(os.listdir(folder)):
                stem, ext = os.path.splitext(f)
                test = os.path.join(unit, layer, f"test_{stem}.cpp")
                if ext == ".cpp" and not os.path.isfile(test):
                    problems.append(f"src/{layer}/{f}: no tests in {rel(test)}")
            tests = os.path.join(unit, layer)
            for f in sorted(os.listdir(tests)) if os.path.isdir(tests) else []:
                stem = f[len("test_"):-len(".cpp")] if f.startswith("test_") and f.endswith(".cpp") else None
                if stem not in stems:
                    problems.append(f"tests/unit/{layer}/{f}: not named after a file of src/{layer}/ (test_NAME.cpp)")
        # ctest's doctest discovery splits a name at ';': the pieces match no
        # case, run nothing and pass. Keep ';' out of test case names. An
        # unbalanced '[' or ']' is as bad: a CMake list does not split inside
        # square brackets, so the names of the file's cases run together.
        for path in sources(unit):
            with open(path, encoding="utf-8") as f:
                for n, line in enumerate(f, 1):
                    m = re.search(r'TEST_CASE\("([^"]*)"', line)
                    if m and ";" in m.group(1):
                        problems.append(f"{rel(path)}:{n}: test case name with ';' (ctest would split it): "
                                        f"{m.group(1)!r}")
                    if m and not brackets_balanced(m.group(1)):
                        problems.append(f"{rel(path)}:{n}: test case name with an unbalanced '[' or ']' "
                                        f"(CMake's lists would join it with its neighbours): {m.group(1)!r}")
    return problems


def brackets_balanced(name):
    depth = 0
    for c in name:
        depth += {"[": 1, "]": -1}.get(c, 0)
        if depth < 0:
            return False
    return depth == 0


def self_test():
    """Builds small trees and checks that every kind of problem is caught."""
    doc = ("# x\n\n" + MARKER + "\n```\nbase\nkeys\nlint render   # peers\napi\ncli\nweb\n```\n"
           "<!-- public vocabulary: expected.hpp -->\n<!-- internal headers: keys/in.hpp -->\n\n"
           "| folder | does |\n| --- | --- |\n| `base/` | `a` |\n| `keys/` | `k`, `in.hpp` |\n"
           "| `lint/` | `l` |\n| `render/` | `r` |\n| `api/` | `s` |\n| `cli/` | `main`, one `cmd_<name>.cpp` each |\n"
           "| `web/` | `p.cpp` |\n")
    good = {
        "docs/architecture.md": doc,
        "src/base/a.hpp": "#pragma once\n// Bits (dispatcher-notes A.1, C.2), as dispatcher-notes C.2 step 2.3b reads them.\n",
        NOTES: "# Notes\n\n## A.1 Keyset representation\n\nBits.\n\n## C.2 The steps\n\nSteps.\n",
        "src/base/a.cpp": '#include "base/a.hpp"\n',
        "src/keys/k.cpp": '#include "base/a.hpp"\n#include <vector>\n#include <dispatchtool/expected.hpp>\n',
        "src/lint/l.cpp": '#include "keys/k.hpp"\n',
        "src/keys/k.hpp": "",
        "src/keys/in.hpp": "// Internal to keys: what k.cpp shares.\n",
        "src/cli/cmd_table.cpp": "",
        "tests/unit/keys/test_k.cpp": '#include "keys/in.hpp"\n',
        "src/render/r.cpp": '#include "base/a.hpp"\n',
        "src/cli/main.cpp": '#include "lint/l.hpp"\n#include "render/r.hpp"\n',
        "src/web/p.cpp": '#include "cli/main.hpp"\n',
        "src/web/p.hpp": "",
        "src/cli/main.hpp": "",
        "src/lint/l.hpp": "",
        "src/render/r.hpp": "",
        "tests/unit/helpers.hpp": '#include "keys/k.hpp"\n',
        "tests/unit/base/test_a.cpp": '#include "helpers.hpp"\n',
        "tests/unit/lint/test_l.cpp": "",
        "tests/unit/render/test_r.cpp": "",
        "include/dispatchtool/expected.hpp": "#pragma once\n#include <variant>\n",
        "include/dispatchtool/api.hpp": "#include <dispatchtool/expected.hpp>\n#include <string>\n",
        "src/api/s.cpp": '#include <dispatchtool/api.hpp>\n#include "lint/l.hpp"\n',
        "tests/unit/api/test_s.cpp": "#include <dispatchtool/api.hpp>\n",
    }
    broken = [
        ("src/base/a.cpp", '#include "keys/k.hpp"\n', "base may not include keys (a higher layer)"),
        ("src/lint/l.cpp", '#include "render/r.hpp"\n', "lint may not include render (a peer)"),
        ("src/keys/k.cpp", '#include "a.hpp"\n', 'write includes from src/, as "layer/file.hpp"'),
        ("src/keys/k.cpp", '#include "base/nope.hpp"\n', "no such file src/base/nope.hpp"),
        ("src/extra/x.cpp", "", "src/extra/: not a layer of docs/architecture.md"),
        ("tests/unit/base/test_a.cpp", '#include "cli/x.hpp"\n', "the tests link the core, never the front end"),
        ("tests/unit/base/test_a.cpp", '#include "web/p.hpp"\n', "the tests link the core, never the front end"),
        ("src/cli/main.cpp", '#include "web/p.hpp"\n', "cli may not include web (a higher layer)"),
        ("src/keys/k2.cpp", "", "src/keys/k2.cpp: no tests in tests/unit/keys/test_k2.cpp"),
        ("tests/unit/keys/test_kk.cpp", "", "not named after a file of src/keys/"),
        ("tests/unit/keys/test_k.cpp", 'TEST_CASE("a; b") {}\n', "test case name with ';'"),
        ("tests/unit/keys/test_k.cpp", 'TEST_CASE("each [ to its match") {}\n', "unbalanced '['"),
        ("include/dispatchtool/api.hpp", '#include "base/a.hpp"\n', "a public header includes only"),
        ("include/dispatchtool/api.hpp", "#include <fmt/format.h>\n", "a public header includes only"),
        ("include/dispatchtool/api.hpp", "#include <toml++/toml.hpp>\n", "a public header includes only"),
        ("include/dispatchtool/api.hpp", "#include <dispatchtool/nope.hpp>\n", "no such file include/dispatchtool/nope"),
        ("src/base/a.cpp", "#include <dispatchtool/api.hpp>\n", "base may not include the public API above"),
        ("src/base/a.cpp", "#include <dispatchtool/nope.hpp>\n", "no such file include/dispatchtool/nope"),
        ("src/api/s2.cpp", "", "src/api/s2.cpp: no tests in tests/unit/api/test_s2.cpp"),
        ("src/base/b.hpp", "", "src/base/b: not named in docs/architecture.md's row for base/"),
        ("src/cli/run.cpp", "", "src/cli/run: not named in docs/architecture.md's row for cli/"),
        ("src/lint/l.hpp", "// Internal to lint.\n", "src/lint/l.hpp: says it is internal, but"),
        ("src/keys/in.hpp", "// What k.cpp shares.\n", "internal header keys/in.hpp: its first line does not say"),
        ("src/lint/l.cpp", '#include "keys/in.hpp"\n', '#include "keys/in.hpp": internal to keys'),
        ("tests/unit/base/test_a.cpp", '#include "keys/in.hpp"\n', '#include "keys/in.hpp": internal to keys'),
        ("src/base/a.cpp", "// The layout (spec A.1).\n", "src/base/a.cpp:1: spec A.1: cite dispatcher-notes A.1"),
        ("src/keys/k.cpp", "// Simulates a call (spec G).\n", "src/keys/k.cpp:1: spec G: cite dispatcher-notes G.N"),
        ("src/lint/l.cpp", "// (dispatcher-notes A.1, B.7)\n",
         f"src/lint/l.cpp:1: dispatcher-notes B.7: {NOTES} has no section '## B.7 ...'"),
        ("src/render/r.cpp", "int steps = 8;  // the steps of C.2\n", "src/render/r.cpp:1: bare section number C.2"),
        ("include/dispatchtool/api.hpp", "// One block (../shared/spec/input-format.md).\n",
         "include/dispatchtool/api.hpp:1: names ../shared"),
        ("src/web/page.html", "<!-- see ../shared/spec/input-format.md -->\n", "src/web/page.html:1: names ../shared"),
        (NOTES, "# Notes\n\n## C.2 The steps\n",
         f"src/base/a.hpp:2: dispatcher-notes A.1: {NOTES} has no section '## A.1 ...'"),
    ]
    failures = []
    with tempfile.TemporaryDirectory() as tmp:
        def write(tree):
            for path, text in tree.items():
                full = os.path.join(tmp, path)
                os.makedirs(os.path.dirname(full), exist_ok=True)
                with open(full, "w", encoding="utf-8") as f:
                    f.write(text)

        write(good)
        if check(tmp, True):
            failures.append(f"a clean tree is reported: {check(tmp, True)}")
        for path, text, expected in broken:
            full = os.path.join(tmp, path)
            before = open(full, encoding="utf-8").read() if os.path.exists(full) else None
            write({path: text})
            found = check(tmp, True)
            if not any(expected in p for p in found):
                failures.append(f"{path} = {text!r}: expected '{expected}', got {found}")
            if before is None:
                os.remove(full)
                if not os.listdir(os.path.dirname(full)):
                    os.rmdir(os.path.dirname(full))
            else:
                write({path: before})
        # Without a citation a tree needs no docs/dispatcher-notes.md; with one, it does.
        os.remove(os.path.join(tmp, NOTES))
        write({"src/base/a.hpp": "#pragma once\n"})
        if check(tmp, True):
            failures.append(f"a clean tree without citations nor {NOTES} is reported: {check(tmp, True)}")
        write({"src/base/a.hpp": good["src/base/a.hpp"]})
        if not any(f"src/base/a.hpp:2: dispatcher-notes A.1: no {NOTES}" in p for p in check(tmp, True)):
            failures.append(f"a citation without {NOTES} is not reported: {check(tmp, True)}")
    for f in failures:
        print(f"check_layers self-test: {f}")
    return 1 if failures else 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--root", default=os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    ap.add_argument("--tests", action="store_true", help="also check that tests/unit mirrors the core's sources")
    ap.add_argument("--self-test", action="store_true")
    a = ap.parse_args()
    if a.self_test:
        return self_test()
    problems = check(a.root, a.tests)
    for p in problems:
        print(p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
