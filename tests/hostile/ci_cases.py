"""Hostile cases of issue 32: dispatchtool in CI on a pull request from a
stranger, run as root the way container jobs run (docs/security.md). Each
case is one attack of the audit, or a new one of the same kind; gen_hostile.py
registers them (register(): its `case` decorator, runner and expectations)
and runs them under the same time and memory bounds as every other case.

Reads: what a repository's files name is read only inside the repository,
only if it is a regular file, never blocking (FileSystem::read_inside);
writes: never through a directory link, no setuid/setgid kept, import writes
only TOML that loads; output: nothing a CI runner or terminal acts on.
"""
import json
import os
import re
import signal
import stat
import subprocess
import time

SECRET = "root:x:0:0:SECRET-CONTENT:/root:/bin/bash\n"

ERROR_FINDING = '''namespace = "h"
[[def]]
schema = "f(Tensor x) -> Tensor"
[[def]]
schema = "f(Tensor x) -> Tensor"
'''

# Raw bytes a terminal or a reader acts on: C1 controls, bidi controls, U+2028/U+2029.
ACTED_ON = re.compile(rb"\xc2[\x80-\x9f]|\xe2\x80[\x8e\x8f\xa8-\xae]|\xe2\x81[\xa6-\xa9]|\xd8\x9c")


def ci_problems(label, data):
    """What a CI log (GitHub Actions' runner) or a terminal would act on in text output."""
    problems = []
    for raw in re.split(rb"\r\n|\r|\n", data):
        line = raw.decode("utf-8", "replace")
        if line.lstrip().startswith("::"):
            problems.append(f"{label}: a line reads as a workflow command: {line[:120]!r}")
        if "##[" in line:
            problems.append(f"{label}: '##[' in a line: {line[:120]!r}")
    if ACTED_ON.search(data):
        problems.append(f"{label}: a raw C1 or bidi control, or U+2028/U+2029")
    try:
        data.decode("utf-8")
    except UnicodeDecodeError as e:
        problems.append(f"{label}: not UTF-8 ({e})")
    return problems


def register(h):
    """Adds the cases to gen_hostile.py's list; `h` is that module."""
    case, write, q, expect_error, shorten = h.case, h.write, h.q, h.expect_error, h.shorten

    def run_piped(ctx, args, cwd=None, pass_fds=()):
        """Runs the tool with stdout and stderr pipes (as under Actions: /proc/self/fd/2 is a pipe), stdin
        /dev/null, and `pass_fds` left open; the run is killed at the kill deadline."""
        r = h.Run(argv=[ctx.tool] + list(args))
        t0 = time.monotonic()
        p = subprocess.Popen(r.argv, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             cwd=cwd or ctx.tmp, pass_fds=pass_fds, preexec_fn=h._preexec(ctx.limits),
                             start_new_session=True)
        try:
            out, err = p.communicate(timeout=ctx.limits.kill_after)
        except subprocess.TimeoutExpired:
            r.timed_out = True
            os.killpg(p.pid, signal.SIGKILL)
            out, err = p.communicate()
        r.wall = time.monotonic() - t0
        if p.returncode < 0:
            r.sig = -p.returncode
        else:
            r.rc = p.returncode
        r.stdout, r.stderr, r.stdout_size, r.stderr_size = out, err, len(out), len(err)
        ctx.runs.append(r)
        return r

    def repo_with(ctx, files=None, links=None):
        """ctx/repo with `files` (name -> text) and `links` (name -> target), and ctx/outside/secret.toml."""
        repo, outside = ctx.path("repo"), ctx.path("outside")
        os.makedirs(repo, exist_ok=True)
        os.makedirs(outside, exist_ok=True)
        write(os.path.join(outside, "secret.toml"), SECRET)
        for name, text in (files or {}).items():
            os.makedirs(os.path.dirname(os.path.join(repo, name)) or repo, exist_ok=True)
            write(os.path.join(repo, name), text)
        for name, target in (links or {}).items():
            os.makedirs(os.path.dirname(os.path.join(repo, name)) or repo, exist_ok=True)
            os.symlink(target, os.path.join(repo, name))
        return repo

    def no_secret(r):
        return ["the outside file's content reached the output"] if b"SECRET" in r.stdout + r.stderr or \
            b"root:x" in r.stdout + r.stderr else []

    def refused(r, file_re, msg_re=None):
        return expect_error(r, file_re=file_re, msg_re=msg_re, whole_file=True) + no_secret(r)

    # ---- reads: what the repository names --------------------------------------------

    @case("ci-profile-dir-link-outside", "hostile repository (issue 32)",
          'profile = "pdir" in .dispatchtool-lint.toml (and --profile pdir), pdir/profile.toml -> a file '
          "outside the repository (and -> /etc/passwd)",
          "refused, located at pdir/profile.toml, exit 2; the outside file is never read")
    def _(ctx):
        problems = []
        for target in ("../../outside/secret.toml", "/etc/passwd"):
            repo = repo_with(ctx, {"ok.toml": h.VALID, ".dispatchtool-lint.toml": 'profile = "pdir"\n'},
                             {"pdir/profile.toml": target})
            # Named by the configuration: located at its value, naming the file.
            problems += refused(ctx.run(["lint", "ok.toml"], cwd=repo), r"dispatchtool-lint\.toml",
                                r"profile 'pdir/profile\.toml': cannot open profile file: the path leads outside 'pdir'")
            problems += refused(ctx.run(["table", "--profile", "pdir", "ok.toml"], cwd=repo), r"pdir/profile\.toml",
                                "outside")
            os.unlink(os.path.join(repo, "pdir/profile.toml"))
            os.rmdir(os.path.join(repo, "pdir"))
        return problems

    def library_profile(paths):
        return h.minimal_profile([]) + "[operator_library]\npaths = [" + ", ".join(q(p) for p in paths) + "]\n"

    @case("ci-profile-library-outside", "hostile repository (issue 32)",
          "an in-repository profile (named by .dispatchtool-lint.toml, or by --profile) whose [operator_library] "
          "paths name /etc/passwd, an outside file by absolute path, '../..', a directory link out; a library "
          "directory of the repository holding a link out",
          "each refused, located at the profile's operator_library, exit 2; nothing outside is read")
    def _(ctx):
        problems = []
        repo = repo_with(ctx, {"ok.toml": h.VALID, ".dispatchtool-lint.toml": 'profile = "p.toml"\n'},
                         {"lib": "../outside"})
        for paths in (["/etc/passwd"], [ctx.path("outside", "secret.toml")], ["../.."], ["lib"],
                      ["lib/secret.toml"]):
            write(os.path.join(repo, "p.toml"), library_profile(paths))
            problems += [f"{paths}: {p}" for p in refused(ctx.run(["lint", "ok.toml"], cwd=repo), r"p\.toml",
                                                          "outside the profile's directory")]
            problems += [f"--profile, {paths}: {p}" for p in
                         refused(ctx.run(["table", "--profile", "p.toml", "--all"], cwd=repo),
                                 r"p\.toml", "outside the profile's directory")]
        # A library directory inside the repository, one of whose files links out.
        os.makedirs(os.path.join(repo, "lib2"))
        write(os.path.join(repo, "lib2", "a.toml"), 'namespace = "x"\n')
        os.symlink("../../outside/secret.toml", os.path.join(repo, "lib2", "b.toml"))
        write(os.path.join(repo, "p.toml"), library_profile(["lib2"]))
        problems += [f"lib2/b.toml: {p}" for p in refused(ctx.run(["lint", "ok.toml"], cwd=repo), r"lib2/b\.toml",
                                                           "the path leads outside")]
        return problems

    @case("ci-profile-library-no-hang", "hang from a hostile repository (issue 32)",
          "[operator_library] paths = [\"/proc/kmsg\"] (blocks a reader as root), paths naming a FIFO without a "
          "writer (inside the repository, and through a link), and a library directory whose a.toml is such a FIFO",
          "refused (exit 2, located at the profile) within the time bound")
    def _(ctx):
        os.mkfifo(ctx.path("fifo"))
        repo = repo_with(ctx, {"ok.toml": h.VALID}, {"lib/a.toml": "../../fifo", "linked.toml": "../fifo"})
        os.mkfifo(os.path.join(repo, "fifo.toml"))
        problems = []
        for paths, msg in ((["/proc/kmsg"], "outside the profile's directory"), (["lib"], "holds no .toml files"),
                           (["linked.toml"], "outside the profile's directory"),
                           (["fifo.toml"], "not a file or directory")):
            write(os.path.join(repo, "p.toml"), library_profile(paths))
            r = ctx.run(["table", "--profile", "p.toml", "ok.toml"], cwd=repo)
            problems += [f"{paths}: {p}" for p in expect_error(r, file_re=r"p\.toml", msg_re=msg)]
        # The FIFO inside the directory itself.
        os.unlink(os.path.join(repo, "lib/a.toml"))
        os.mkfifo(os.path.join(repo, "lib/a.toml"))
        write(os.path.join(repo, "p.toml"), library_profile(["lib"]))
        r = ctx.run(["table", "--profile", "p.toml", "ok.toml"], cwd=repo)
        return problems + expect_error(r, file_re=r"p\.toml", msg_re="holds no .toml files")

    @case("ci-lint-config-link-outside", "hostile repository (issue 32)",
          "a committed .dispatchtool-lint.toml -> a file outside the repository (and -> /etc/passwd)",
          "refused, located at .dispatchtool-lint.toml, exit 2; the target is never read or echoed")
    def _(ctx):
        problems = []
        for target in ("../outside/secret.toml", "/etc/passwd"):
            repo = repo_with(ctx, {"ok.toml": h.VALID}, {".dispatchtool-lint.toml": target})
            problems += refused(ctx.run(["lint", "ok.toml"], cwd=repo), r"dispatchtool-lint\.toml", "outside")
            os.unlink(os.path.join(repo, ".dispatchtool-lint.toml"))
        # --no-config reads none, whatever it is.
        repo = repo_with(ctx, {}, {".dispatchtool-lint.toml": "/etc/passwd"})
        r = ctx.run(["lint", "--no-config", "ok.toml"], cwd=repo)
        if r.rc != 0:
            problems.append(f"--no-config: expected exit 0, got {r.status()}: {shorten(r.stderr[:200])}")
        return problems

    @case("ci-linted-link-to-stderr", "hang from a hostile repository (issue 32)",
          "lint ops/a.toml ops/zz.toml (a shell glob's matches) where ops/zz.toml -> /proc/self/fd/2 and standard "
          "error is a pipe, as under GitHub Actions; with and without --inside .",
          "refused (exit 2) within the time bound, never a hang")
    def _(ctx):
        repo = repo_with(ctx, {"ops/a.toml": h.VALID}, {"ops/zz.toml": "/proc/self/fd/2"})
        problems = []
        for extra in ([], ["--inside", "."]):
            r = run_piped(ctx, ["lint"] + extra + ["ops/a.toml", "ops/zz.toml"], cwd=repo)
            problems += [f"{extra}: {p}" for p in expect_error(r, file_re=r"ops/zz\.toml", whole_file=True)]
        # /proc/self/fd/2 named on the command line, stderr a pipe: this process's own output.
        r = run_piped(ctx, ["table", "/proc/self/fd/2"], cwd=repo)
        return problems + expect_error(r, msg_re="own standard output or error", whole_file=True)

    @case("ci-context-dir-links", "hostile repository (issue 32)",
          "lint --context ctx where ctx/zz.toml -> /proc/self/fd/2 (stderr a pipe), and where ctx/x.toml -> a "
          "file outside",
          "each refused (exit 2) in bounds; the outside file is never read")
    def _(ctx):
        repo = repo_with(ctx, {"ok.toml": h.VALID, "ctx/a.toml": h.VALID.replace('"h"', '"c"')},
                         {"ctx/zz.toml": "/proc/self/fd/2"})
        problems = expect_error(run_piped(ctx, ["lint", "--context", "ctx", "ok.toml"], cwd=repo),
                                file_re=r"ctx/zz\.toml", whole_file=True)
        os.unlink(os.path.join(repo, "ctx/zz.toml"))
        os.symlink("../../outside/secret.toml", os.path.join(repo, "ctx/x.toml"))
        return problems + refused(ctx.run(["lint", "--context", "ctx", "ok.toml"], cwd=repo), r"ctx/x\.toml",
                                  "outside")

    @case("ci-inside-operands", "hostile repository (issue 32)",
          "lint --inside . on a shell glob's matches, one a committed link to a file outside (and to /etc/passwd); "
          "--inside . with --config, --baseline and --profile linked outside",
          "each refused (exit 2); nothing outside read; the same command without the links passes")
    def _(ctx):
        repo = repo_with(ctx, {"ops/a.toml": h.VALID}, {"ops/b.toml": "../../outside/secret.toml",
                                                        "ops/c.toml": "/etc/passwd", "cfg.toml": "../outside/secret.toml",
                                                        "p.toml": "../outside/secret.toml"})
        problems = []
        for args, where in ((["ops/a.toml", "ops/b.toml"], r"ops/b\.toml"), (["ops/c.toml"], r"ops/c\.toml"),
                            (["--config", "cfg.toml", "ops/a.toml"], r"cfg\.toml"),
                            (["--baseline", "cfg.toml", "ops/a.toml"], r"cfg\.toml"),
                            (["--profile", "p.toml", "ops/a.toml"], r"p\.toml")):
            r = ctx.run(["lint", "--no-config", "--inside", "."] + args, cwd=repo)
            problems += [f"{args}: {p}" for p in refused(r, where, "outside")]
        r = ctx.run(["lint", "--inside", ".", "ops/a.toml"], cwd=repo)
        if r.rc != 0:
            problems.append(f"control: expected exit 0, got {r.status()}: {shorten(r.stderr[:200])}")
        return problems

    @case("ci-command-line-inputs-stay", "control (issue 32)",
          "what the command line names stays possible: /dev/fd/N of a pipe (what <(...) gives), standard input, "
          "a file outside the current directory through a link",
          "each read: the table, exit 0")
    def _(ctx):
        problems = []
        rfd, wfd = os.pipe()
        os.write(wfd, h.VALID.encode())
        os.close(wfd)
        try:
            r = run_piped(ctx, ["table", "--raw", f"/dev/fd/{rfd}"], pass_fds=(rfd,))
        finally:
            os.close(rfd)
        if r.rc != 0 or b"CPU: add_cpu [kernel]" not in r.stdout:
            problems.append(f"/dev/fd/N: {r.status()} {shorten(r.stderr[:200])}")
        r = ctx.run(["table", "--raw", "-"], stdin=h.VALID.encode())
        if r.rc != 0 or b"CPU: add_cpu [kernel]" not in r.stdout:
            problems.append(f"-: {r.status()} {shorten(r.stderr[:200])}")
        write(ctx.path("valid.toml"), h.VALID)
        os.makedirs(ctx.path("repo"))
        os.symlink("../valid.toml", ctx.path("repo", "link.toml"))
        r = ctx.run(["table", "--raw", "link.toml"], cwd=ctx.path("repo"))
        if r.rc != 0 or b"CPU: add_cpu [kernel]" not in r.stdout:
            problems.append(f"link: {r.status()} {shorten(r.stderr[:200])}")
        return problems

    # ---- option injection ---------------------------------------------------------------

    @case("ci-file-named-like-an-option", "option injection (issue 32)",
          "a committed file named --write-baseline=lint-baseline.toml with an error finding, after --, for lint; "
          "and a file named -x.toml after -- for every subcommand that takes files",
          "lint: exit 1 and no lint-baseline.toml written; every subcommand reads the file")
    def _(ctx):
        repo = repo_with(ctx, {"--write-baseline=lint-baseline.toml": ERROR_FINDING, "-x.toml": h.VALID})
        problems = []
        r = ctx.run(["lint", "--", "--write-baseline=lint-baseline.toml"], cwd=repo)
        if r.rc != 1 or b"duplicate" not in r.stdout:
            problems.append(f"lint: expected exit 1 with the finding, got {r.status()}: {shorten(r.stderr[:200])}")
        if os.path.exists(os.path.join(repo, "lint-baseline.toml")):
            problems.append("lint: a baseline was written")
        for args in (["table", "--raw"], ["registrations", "--raw"], ["explain", "--op", "h::add", "--keys", "CPU"],
                     ["coverage", "--backend", "CPU"], ["ops"], ["keys"], ["lint"], ["html", "-o", "m.html"],
                     ["trace", "--op", "h::add", "--arg", "cpu", "--arg", "cpu"]):
            r = ctx.run(args + ["--", "-x.toml"], cwd=repo)
            if r.rc not in (0, 1) or (r.stdout_size == 0 and args[0] not in ("html", "lint")):
                problems.append(f"{args[0]}: {r.status()}: {shorten(r.stderr[:200])}")
        # diff's -- separates the old files from the new: after it, only diff's own options are options.
        r = ctx.run(["diff", "./-x.toml", "--", "-x.toml"], cwd=repo)
        if r.rc != 0:
            problems.append(f"diff: {r.status()}: {shorten(r.stderr[:200])}")
        return problems

    # ---- output: nothing a CI log or a terminal acts on ------------------------------

    forged = ('namespace = "h"\n[[def]]\nschema = "f(Tensor x) -> Tensor"\n'
              '[[impl]]\nop = "f"\nkey = "CPU"\nkernel = ' + q("k1\n      ::error title=Forged::all checks passed") + "\n"
              '[[impl]]\nop = "f"\nkey = "CPU"\nkernel = ' + q("##[error]forged \u009b31m \u009d0;t\u0007 \u202eevil "
                                                            "\u2028::add-mask::x \u2066i\u2069") + "\n")

    @case("ci-forged-commands-in-output", "forged CI output (issue 32)",
          "kernel names holding a newline and '      ::error ...', '##[error]', U+009B CSI, U+009D OSC, U+202E, "
          "U+2028; an unknown key '##[error]forged annotation'; a file named '::error title=Forged::x.toml'",
          "no text output line that Actions reads as a command, no '##[', no raw C1/bidi (lint text, table, "
          "registrations, explain, coverage, errors)")
    def _(ctx):
        p = write(ctx.path("forge.toml"), forged)
        problems = []
        for args in (["lint", "--no-config", p], ["table", p], ["registrations", p],
                     ["explain", "--op", "h::f", "--keys", "CPU", p], ["coverage", "--backend", "CPU", p],
                     ["table", "--keys", "##[error]forged annotation", p],
                     ["lint", "--no-config", "--select", "::error::x,##[error]", p]):
            r = ctx.run(args)
            if r.sig is not None or r.rc not in (0, 1, 2):
                problems.append(f"{args[0]}: {r.status()}")
            problems += ci_problems(f"{args[0]} stdout", r.stdout) + ci_problems(f"{args[0]} stderr", r.stderr)
        bad_key = write(ctx.path("key.toml"), 'namespace = "h"\n[[impl]]\nop = "f"\nkey = '
                        + q("##[error]forged annotation") + '\nkernel = "k"\n')
        r = ctx.run(["table", bad_key])
        problems += expect_error(r, file_re="key") + ci_problems("unknown key stderr", r.stderr)
        named = write(ctx.path("::error title=Forged::x.toml"), "x = \n")
        r = ctx.run(["table", "::error title=Forged::x.toml"], cwd=ctx.tmp)
        problems += ci_problems("file name stderr", r.stderr)
        os.unlink(named)
        write(ctx.path("::error title=Forged::x.toml"), ERROR_FINDING)
        r = ctx.run(["lint", "--no-config", "::error title=Forged::x.toml"], cwd=ctx.tmp)
        if r.rc != 1:
            problems.append(f"lint on the named file: expected exit 1, got {r.status()}")
        problems += ci_problems("file name lint stdout", r.stdout)
        return problems

    @case("ci-json-always-utf8", "invalid JSON (issue 32)",
          "a file named with bytes that are not UTF-8 (x\\xff\\xfe.toml) holding findings, and a C++ kernel "
          "identifier k\\xff\\xfe; lint --format json and sarif, table/registrations --format json",
          "every document parses as strict UTF-8 JSON; no raw C1 or bidi controls")
    def _(ctx):
        problems = []
        name = b"x\xff\xfe.toml"
        with open(os.path.join(os.fsencode(ctx.tmp), name), "w") as f:
            f.write(ERROR_FINDING + '[[impl]]\nop = "f"\nkey = "CPU"\nkernel = ' + q("k\u009b\u202e") + "\n")
        cpp = write(ctx.path("ops.cpp"), b'TORCH_LIBRARY(h2, m) {\n  m.def("g(Tensor x) -> Tensor");\n}\n'
                    b'TORCH_LIBRARY_IMPL(h2, CPU, m) {\n  m.impl("g", k\xff\xfe);\n}\n', "wb")
        fname = os.fsdecode(name)
        clean = os.fsdecode(b"y\xff.toml")
        with open(os.path.join(os.fsencode(ctx.tmp), os.fsencode(clean)), "w") as f:
            f.write('namespace = "h3"\n[[def]]\nschema = "f(Tensor x) -> Tensor"\n[[impl]]\nop = "f"\nkey = "CPU"\n'
                    'kernel = ' + q("k\u009b\u202e##[error]x") + "\n")
        for args in (["lint", "--no-config", "--format", "json", fname, cpp],
                     ["lint", "--no-config", "--format", "sarif", fname, cpp],
                     ["table", "--format", "json", cpp, clean], ["registrations", "--format", "json", cpp, clean],
                     ["explain", "--format", "json", "--op", "h3::f", "--keys", "CPU", clean],
                     ["coverage", "--format", "json", "--backend", "CPU", cpp, clean],
                     ["html", "-o", "-", cpp, clean]):
            r = ctx.run(args, cwd=ctx.tmp)
            try:
                doc = r.stdout.decode("utf-8")
                if args[0] == "html":  # the page's data is JSON too: the whole page must be UTF-8
                    doc = "{}" if r.rc == 0 else ""
                json.loads(doc)
            except Exception as e:  # noqa: BLE001
                problems.append(f"{args[0]} {args[-2:]}: not UTF-8 JSON ({type(e).__name__}: {e}) {r.status()} "
                                f"{shorten(r.stderr[:200])}")
            if ACTED_ON.search(r.stdout):
                problems.append(f"{args[0]}: a raw C1 or bidi control in the JSON")
            if b"##[" in r.stdout:
                problems.append(f"{args[0]}: a raw '##[' in the JSON")
        return problems

    # ---- writes ----------------------------------------------------------------------------

    @case("ci-write-through-dir-link", "hostile repository (issue 32)",
          "html -o reports/m.html and lint --write-baseline reports/b.toml where reports -> ../elsewhere "
          "(a committed directory link)",
          "refused (exit 2) naming the link; nothing written elsewhere")
    def _(ctx):
        repo = repo_with(ctx, {"ok.toml": h.VALID}, {"reports": "../elsewhere"})
        os.makedirs(ctx.path("elsewhere"))
        problems = []
        for args in (["html", "-o", "reports/m.html", "ok.toml"],
                     ["lint", "--write-baseline", "reports/b.toml", "ok.toml"]):
            r = ctx.run(args, cwd=repo)
            if r.rc != 2 or not re.search(rb"'reports' is a symbolic link; refusing to write through it", r.stderr):
                problems.append(f"{args[0]}: expected exit 2 naming the link, got {r.status()}: "
                                f"{shorten(r.stderr[:200])}")
        if os.listdir(ctx.path("elsewhere")):
            problems.append("written elsewhere: " + ", ".join(os.listdir(ctx.path("elsewhere"))))
        return problems

    @case("ci-write-drops-setuid", "hostile repository (issue 32)",
          "html -o, lint --write-baseline and import -o over files of mode 4755, 2755 and 6755",
          "the new files keep the permission bits, never setuid or setgid")
    def _(ctx):
        repo = repo_with(ctx, {"ok.toml": h.VALID, "ops.cpp": 'TORCH_LIBRARY(h3, m) {\n  m.def("f(Tensor x) -> '
                               'Tensor");\n}\n'})
        problems = []
        for out, args in (("m.html", ["html", "-o", "m.html", "ok.toml"]),
                          ("b.toml", ["lint", "--write-baseline", "b.toml", "ok.toml"]),
                          ("o.toml", ["import", "-o", "o.toml", "ops.cpp"])):
            for mode in (0o4755, 0o2755, 0o6755):
                path = os.path.join(repo, out)
                write(path, "old\n")
                os.chmod(path, mode)
                r = ctx.run(args, cwd=repo)
                got = stat.S_IMODE(os.stat(path).st_mode)
                if r.rc != 0 or got != 0o755:
                    problems.append(f"{args[0]} over {oct(mode)}: {r.status()}, mode {oct(got)}")
        return problems

    @case("ci-import-writes-only-what-loads", "corrupted output (issue 32)",
          "import -o out.toml over an existing file, from C++ whose m.def schema is malformed, and whose schema "
          "string holds bytes that are not UTF-8; also to standard output",
          "exit 2, out.toml unchanged, nothing on standard output")
    def _(ctx):
        problems = []
        for name, src in (("schema.cpp", b'TORCH_LIBRARY(h, m) {\n  m.def("f(Tensor x -> Tensor");\n}\n'),
                          ("utf8.cpp", b'TORCH_LIBRARY(h, m) {\n  m.def("f\xff(Tensor x) -> Tensor");\n}\n')):
            cpp = write(ctx.path(name), src, "wb")
            out = write(ctx.path("out.toml"), "precious\n")
            r = ctx.run(["import", "-o", out, cpp])
            if r.rc != 2:
                problems.append(f"{name}: expected exit 2, got {r.status()}: {shorten(r.stderr[:200])}")
            with open(out, "rb") as f:
                if f.read() != b"precious\n":
                    problems.append(f"{name}: out.toml was replaced")
            r = ctx.run(["import", cpp])
            if r.rc != 2 or r.stdout_size:
                problems.append(f"{name} to stdout: {r.status()}, {r.stdout_size} bytes on stdout")
        return problems
