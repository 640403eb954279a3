#!/usr/bin/env python3
"""completions/dispatchtool.bash through real readline: what a TAB leaves on the line.

    bash_readline.py BUILD_DIR

test_bash_completion.sh calls the completion function directly and reads
COMPREPLY; what the user then sees (a directory completed as `dir/` with no
space after it, a file name quoted, a key list with no space after the comma)
is readline's work, driven by the `compopt` options the function sets, which
only exist in a real interactive shell. So this test starts `bash -i` on a
pseudo-terminal, types a line, presses TAB and asks readline for the line
(a key bound with `bind -x` prints $READLINE_LINE between markers).

Each case runs twice: in a bare bash (the script's own fallback) and, when
Debian's bash-completion is installed, with it loaded (how users have it).
"""
import os
import pty
import re
import select
import shutil
import sys
import tempfile
import time

BASH_COMPLETION = "/usr/share/bash-completion/bash_completion"
COMPLETION = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..",
                          "completions", "dispatchtool.bash")


def read_until(fd, pattern, timeout=10.0):
    """Reads from fd until `pattern` (a compiled regex) matches the output so far."""
    out = b""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        r, _, _ = select.select([fd], [], [], 0.1)
        if fd in r:
            try:
                chunk = os.read(fd, 4096)
            except OSError:
                break
            if not chunk:
                break
            out += chunk
            m = pattern.search(out)
            if m:
                return m
    raise TimeoutError(f"no {pattern.pattern!r} in {out[-400:]!r}")


class Shell:
    """An interactive bash on a pty with the completion loaded."""

    def __init__(self, build_dir, cwd, with_bash_completion):
        rc = os.path.join(cwd, ".testrc")
        with open(rc, "w") as f:
            if with_bash_completion:
                f.write(f"source {BASH_COMPLETION}\n")
            f.write(f"source {COMPLETION}\n")
            f.write("PS1='$ '\nbind 'set bell-style none'\n"
                    # Ctrl-X Ctrl-P prints the line being edited between markers.
                    "bind -x '\"\\C-x\\C-p\": printf \"<<%s>>\\n\" \"$READLINE_LINE\"'\n"
                    "echo READY\n")
        env = dict(os.environ, PATH=f"{build_dir}:{os.environ.get('PATH', '')}", TERM="dumb",
                   HOME=cwd, INPUTRC="/dev/null")
        env.pop("PROMPT_COMMAND", None)
        self.pid, self.fd = pty.fork()
        if self.pid == 0:  # child
            os.chdir(cwd)
            os.execvpe("bash", ["bash", "--noprofile", "--rcfile", rc, "-i"], env)
        read_until(self.fd, re.compile(rb"READY"))

    def complete(self, line):
        """Types `line`, presses TAB, returns the edited line readline then holds."""
        # Readline handles typed-ahead keys in order: the TAB's completion has
        # finished when Ctrl-X Ctrl-P prints the line.
        os.write(self.fd, line.encode() + b"\t\x18\x10")
        m = read_until(self.fd, re.compile(rb"<<(.*?)>>\r?\n"))
        os.write(self.fd, b"\x15")  # Ctrl-U: clear the line for the next case
        return m.group(1).decode()

    def close(self):
        os.write(self.fd, b"\x15exit\n")
        os.waitpid(self.pid, 0)
        os.close(self.fd)


def main():
    build_dir = os.path.abspath(sys.argv[1])
    if not shutil.which("dispatchtool", path=build_dir):
        print(f"no dispatchtool in {build_dir}")
        return 1
    modes = [False] + ([True] if os.path.exists(BASH_COMPLETION) else [])
    if len(modes) == 1:
        print(f"note: {BASH_COMPLETION} not installed: only the bare-bash fallback is tested")
    passed = failed = 0
    with tempfile.TemporaryDirectory() as d:
        os.makedirs(os.path.join(d, "subdir", "inner"))
        os.makedirs(os.path.join(d, "ops dir"))
        for name in ["subdir/a.toml", "ops dir/b.toml", "only.toml", "notes.txt", "base.lst"]:
            open(os.path.join(d, name), "w").close()
        cases = [
            # (typed line, the line after TAB)
            ("dispatchtool table sub", "dispatchtool table subdir/"),
            ("dispatchtool table subdir/", "dispatchtool table subdir/"),  # a.toml or inner/: no common prefix
            ("dispatchtool table subdir/i", "dispatchtool table subdir/inner/"),
            ("dispatchtool table subdir/a", "dispatchtool table subdir/a.toml "),
            ("dispatchtool table on", "dispatchtool table only.toml "),
            ("dispatchtool table ops", "dispatchtool table ops\\ dir/"),
            ("dispatchtool lint --context sub", "dispatchtool lint --context subdir/"),
            ("dispatchtool lint --baseline ba", "dispatchtool lint --baseline base.lst "),
            ("dispatchtool lint --config no", "dispatchtool lint --config notes.txt "),
            ("dispatchtool lint --write-baseline sub", "dispatchtool lint --write-baseline subdir/"),
            ("dispatchtool table --profile on", "dispatchtool table --profile only.toml "),
            ("dispatchtool table --profile torch-ma", "dispatchtool table --profile torch-main "),
            ("dispatchtool table --keys CPU,AutogradCP", "dispatchtool table --keys CPU,AutogradCPU"),
            ("dispatchtool lint --select duplicate-de", "dispatchtool lint --select duplicate-def"),
            ("dispatchtool lint --ignore composite-conflict,impl-w",
             "dispatchtool lint --ignore composite-conflict,impl-without-def"),
            ("dispatchtool lint --severity missing-a", "dispatchtool lint --severity missing-autograd="),
            ("dispatchtool lint --severity missing-autograd=in", "dispatchtool lint --severity missing-autograd=info "),
            ("dispatchtool table --sty", "dispatchtool table --style "),
        ]
        for with_bc in modes:
            shell = Shell(build_dir, d, with_bc)
            try:
                for typed, want in cases:
                    got = shell.complete(typed)
                    label = "bash-completion" if with_bc else "bare bash"
                    if got == want:
                        passed += 1
                    else:
                        failed += 1
                        print(f"FAIL ({label}): {typed!r} + TAB gives {got!r}, want {want!r}")
            finally:
                shell.close()
    print(f"{passed} passed, {failed} failed")
    if passed + failed < len(cases) * len(modes):
        print("FAIL: not every case ran")
        return 1
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
