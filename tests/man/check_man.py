#!/usr/bin/env python3
"""docs/dispatchtool.1 is a clean man page that documents what the binary does.

    check_man.py --tool build/dispatchtool --man docs/dispatchtool.1 --root .

- `mandoc -T lint -W warning`, `groff -man -w w -z` and `man --warnings -l`
  report nothing;
- the sections a manual has (NAME ... EXAMPLES, EXIT STATUS, ENVIRONMENT with
  NO_COLOR, FILES with .dispatchtool-lint.toml) are there;
- every subcommand of `dispatchtool --help` has an item under COMMANDS and a
  SYNOPSIS paragraph, and every option that `dispatchtool SUB --help` lists is
  in that subcommand's SYNOPSIS paragraph and has an item under OPTIONS (so a
  new option cannot be left out);
- the version in .TH is what `dispatchtool --version` prints;
- every example whose files exist in the repository runs and succeeds.
"""
import argparse
import os
import re
import shlex
import shutil
import subprocess
import sys

SECTIONS = ["NAME", "SYNOPSIS", "DESCRIPTION", "COMMANDS", "OPTIONS", "EXIT STATUS",
            "ENVIRONMENT", "FILES", "EXAMPLES", "SEE ALSO"]


sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from checks import Checks  # noqa: E402


def run(cmd, **kw):
    return subprocess.run(cmd, capture_output=True, text=True, **kw)


def help_options(tool, *sub):
    """The long and short options `dispatchtool [SUB] --help` lists."""
    out = run([tool, *sub, "--help"]).stdout
    opts = []
    for line in out.splitlines():
        m = re.match(r"^ +((?:-[a-zA-Z],)?--[a-z-]+)", line)
        if m:
            opts += m.group(1).split(",")
    return opts


def subcommands(tool):
    out = run([tool, "--help"]).stdout
    block = out.split("Subcommands:", 1)[1].split("\n\n", 1)[0]
    return re.findall(r"^  ([a-z][a-z-]*) ", block, re.M)


def unescape(text):
    """Roff source to plain text, enough to look for option names."""
    text = re.sub(r"\\f[BIRP]|\\f\[[A-Z]*\]|\\%|\\&", "", text)
    return text.replace("\\-", "-").replace("\\(dq", '"')


def sections(src):
    """{section name: [source lines]}"""
    out, name = {}, None
    for line in src.splitlines():
        m = re.match(r'^\.SH\s+"?([^"]*)"?\s*$', line)
        if m:
            name = m.group(1)
            out[name] = []
        elif name:
            out[name].append(line)
    return out


def items(lines):
    """The tag lines of .TP items, unescaped."""
    return [re.sub(r"^\.[A-Z]+\s*", "", unescape(lines[i + 1])).replace('"', "")
            for i, l in enumerate(lines[:-1]) if l.startswith(".TP")]


def synopsis_paragraphs(lines):
    """SYNOPSIS split at .PP/.br, each joined to one line of text: {first words: text}."""
    paras, cur = [], []
    for line in lines + [".PP"]:
        if line.startswith((".PP", ".br")):
            if cur:
                paras.append(" ".join(cur))
            cur = []
        else:
            cur.append(re.sub(r"^\.[A-Z]+\s*", "", unescape(line)).replace('"', ""))
    return paras


def examples(lines):
    out, inside = [], False
    for line in lines:
        if line.startswith(".EX"):
            inside = True
        elif line.startswith(".EE"):
            inside = False
        elif inside:
            out.append(unescape(line))
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tool", required=True)
    ap.add_argument("--man", required=True)
    ap.add_argument("--root", required=True)
    a = ap.parse_args()
    tool, man, root = (os.path.abspath(p) for p in (a.tool, a.man, a.root))
    checks = Checks()
    src = open(man, encoding="utf-8").read()

    # Linters and renderers: no warning at all.
    for name, cmd in [("mandoc", ["mandoc", "-T", "lint", "-W", "warning", man]),
                      ("groff", ["groff", "-man", "-w", "w", "-z", man]),
                      ("man", ["man", "--warnings", "-l", man])]:
        if not checks.check(shutil.which(cmd[0]) is not None,
                            f"{cmd[0]} is installed (tools/install-deps --tests)"):
            continue
        r = run(cmd, env=dict(os.environ, MANWIDTH="80", MAN_KEEP_FORMATTING="0"))
        warnings = r.stderr.strip() + ("" if name == "man" else r.stdout.strip())
        checks.check(r.returncode == 0 and not warnings,
                     f"{' '.join(cmd)}: status {r.returncode}, {warnings}")

    secs = sections(src)
    for s in SECTIONS:
        checks.check(s in secs, f"section {s}")
    if checks.failed:
        return 1

    version = run([tool, "--version"]).stdout.strip()  # "dispatchtool 0.1.0"
    th = re.search(r'^\.TH\s+\S+\s+1\s+\S+\s+"([^"]*)"', src, re.M)
    checks.check(th and th.group(1) == version, f".TH names {th and th.group(1)!r}, the binary is {version!r}")

    commands = set(items(secs["COMMANDS"]))
    checks.check(len(commands) >= 5, f"COMMANDS has items: {commands}")
    option_items = " ".join(items(secs["OPTIONS"]))
    option_tags = set(re.findall(r"--?[a-zA-Z][a-z-]*", option_items))
    paras = synopsis_paragraphs(secs["SYNOPSIS"])
    subs = subcommands(tool)
    checks.check(len(subs) >= 5, f"at least 5 subcommands in --help: {subs}")
    for sub in subs:
        checks.check(sub in commands, f"COMMANDS has an item for {sub}")
        para = next((p for p in paras if p.startswith(f"dispatchtool {sub} ")), None)
        if not checks.check(para is not None, f"SYNOPSIS has a paragraph 'dispatchtool {sub} ...'"):
            continue
        words = set(re.findall(r"--?[a-zA-Z][a-z-]*", para))
        for opt in help_options(tool, sub):
            if opt in ("-h", "--help"):
                continue  # one synopsis line covers `dispatchtool COMMAND -h|--help`
            checks.check(opt in words, f"SYNOPSIS of {sub} lists {opt}")
            checks.check(opt in option_tags, f"OPTIONS has an item for {opt} ({sub})")
    for opt in help_options(tool):
        checks.check(opt in option_tags, f"OPTIONS has an item for {opt} (dispatchtool --help)")
        checks.check(any(opt in re.findall(r"--?[a-zA-Z][a-z-]*", p) for p in paras),
                     f"SYNOPSIS lists {opt}")

    status = " ".join(items(secs["EXIT STATUS"]))
    for code in ("0", "1", "2"):
        checks.check(code in status.split(), f"EXIT STATUS has an item for {code}")
    checks.check("NO_COLOR" in items(secs["ENVIRONMENT"]), "ENVIRONMENT documents NO_COLOR")
    checks.check(".dispatchtool-lint.toml" in items(secs["FILES"]), "FILES documents .dispatchtool-lint.toml")

    # Examples that only name files of the repository run, and succeed.
    ran = 0
    env = dict(os.environ, PATH=os.path.dirname(tool) + os.pathsep + os.environ.get("PATH", ""))
    for line in examples(secs["EXAMPLES"]):
        words = shlex.split(line.split("|")[0].split(">")[0])
        paths = [w for w in words[1:] if not w.startswith("-") and ("/" in w or w.endswith(".toml"))]
        if words[0] != "dispatchtool" or not all(os.path.exists(os.path.join(root, p)) for p in paths):
            continue
        r = subprocess.run(["bash", "-o", "pipefail", "-c", line], cwd=root, env=env,
                           capture_output=True, text=True)
        ok = r.returncode == 0 or (words[1] in ("lint", "diff") and r.returncode == 1)
        checks.check(ok and r.stdout, f"example `{line}` exits {r.returncode}: {r.stderr.strip()}")
        ran += 1
    checks.check(ran >= 8, f"at least 8 examples ran (ran {ran})")

    print(f"{checks.passed} passed, {checks.failed} failed")
    return 1 if checks.failed else 0


if __name__ == "__main__":
    sys.exit(main())
