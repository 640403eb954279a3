#!/usr/bin/env bash
# `cmake --install` puts every file where its consumer looks, and the installed
# binary, man page and completions work from there.
# usage: check_install.sh BUILD_DIR SOURCE_DIR
set -u
build=$(cd "$1" && pwd) src=$(cd "$2" && pwd)
prefix=$(mktemp -d)
trap 'rm -rf "$prefix"' EXIT
fail=0 pass=0
ok() { pass=$((pass + 1)); }
bad() { echo "FAIL: $*"; fail=$((fail + 1)); }
check() { local what=$1; shift; if "$@" >/dev/null 2>&1; then ok; else bad "$what"; fi; }

if ! out=$(cmake --install "$build" --prefix "$prefix" 2>&1); then
  echo "$out"; echo "FAIL: cmake --install failed"; exit 1
fi
# file in the prefix == file in the source tree
same() { check "$1 is installed (from $2)" cmp "$prefix/$1" "$src/$2"; }
check "bin/dispatchtool is installed and executable" test -x "$prefix/bin/dispatchtool"
same share/man/man1/dispatchtool.1 docs/dispatchtool.1
check "bin/dispatchtool-export is installed and executable" test -x "$prefix/bin/dispatchtool-export"
same bin/dispatchtool-export tools/dispatchtool-export
same share/man/man1/dispatchtool-export.1 docs/dispatchtool-export.1
for f in dispatchtool_export.py gen_profile.py gen_profile_runtime.py gen_profile_schema.py gen_torch_library.py gen_cpp_prelude.py export_corpus.py tomlstr.py; do
  same "share/dispatchtool/python/$f" "tools/$f"
done
same share/bash-completion/completions/dispatchtool completions/dispatchtool.bash
same share/zsh/vendor-completions/_dispatchtool completions/_dispatchtool
same share/fish/vendor_completions.d/dispatchtool.fish completions/dispatchtool.fish
for f in README.md:README.md lint.md:docs/lint.md ci.md:docs/ci.md json.md:docs/json.md \
         profile-format.md:docs/profile-format.md api.md:docs/api.md tutorial.md:docs/tutorial.md \
         input-format.md:docs/input-format.md usage.md:docs/usage.md reference.md:docs/reference.md \
         install.md:docs/install.md ci/dispatchtool-lint.yml:docs/ci/dispatchtool-lint.yml \
         dispatcher-notes.md:docs/dispatcher-notes.md spec-differences.md:docs/spec-differences.md \
         html/README.md:docs/html/README.md html/matrix.png:docs/html/matrix.png; do
  same "share/doc/dispatchtool/${f%%:*}" "${f#*:}"
done
for f in "$src"/docs/schema/*.schema.json; do same "share/doc/dispatchtool/schema/${f##*/}" "docs/schema/${f##*/}"; done
for f in "$src"/configs/examples/*.toml; do same "share/doc/dispatchtool/examples/${f##*/}" "configs/examples/${f##*/}"; done
# The library (docs/api.md): its public headers, the archive (or shared object) and the CMake package.
for f in "$src"/include/dispatchtool/*.hpp; do same "include/dispatchtool/${f##*/}" "include/dispatchtool/${f##*/}"; done
libdir=$(cd "$prefix" && find . -path '*/cmake/dispatchtool/dispatchtool-config.cmake' | sed 's|/cmake/dispatchtool/.*||; s|^\./||')
check "lib/.../cmake/dispatchtool/dispatchtool-config.cmake is installed" test -n "$libdir"
for f in dispatchtool-config-version.cmake dispatchtool-targets.cmake; do
  check "$libdir/cmake/dispatchtool/$f is installed" test -f "$prefix/$libdir/cmake/dispatchtool/$f"
done
check "$libdir/libdispatchtool.a or .so is installed" compgen -G "$prefix/$libdir/libdispatchtool.*"
# Nothing else: no test or benchmark binaries, no build files, no internal headers.
extra=$(cd "$prefix" && find . -type f | grep -v -e '^./bin/dispatchtool$' -e '^./share/man/man1/dispatchtool.1$' \
  -e '^./bin/dispatchtool-export$' -e '^./share/man/man1/dispatchtool-export.1$' \
  -e '^./share/dispatchtool/python/[a-z_]*\.py$' \
  -e '^./share/bash-completion/' -e '^./share/zsh/' -e '^./share/fish/' -e '^./share/doc/dispatchtool/' \
  -e '^./include/dispatchtool/[a-z_]*\.hpp$' -e "^./$libdir/libdispatchtool\.\(a\|so[.0-9]*\)$" \
  -e "^./$libdir/cmake/dispatchtool/dispatchtool-[a-z-]*\.cmake$")
[[ -z $extra ]] && ok || bad "unexpected installed files: $extra"

# The installed binary runs (the profiles are embedded) on an installed example.
export PATH="$prefix/bin:$PATH"
v=$(cd / && dispatchtool --version) && [[ $v == "dispatchtool "* ]] && ok || bad "installed dispatchtool --version: $v"
out=$(cd / && dispatchtool table --raw "$prefix/share/doc/dispatchtool/examples/custom_op.toml")
[[ $out == *"CPU: myadd_cpu [kernel]"* ]] && ok || bad "installed dispatchtool table on an installed example: $out"
# The installed binary writes the matrix page with no file of the source tree (the template is embedded).
out=$(cd / && dispatchtool html -o - "$prefix/share/doc/dispatchtool/examples/custom_op.toml")
[[ $out == "<!DOCTYPE html>"* && $out == *'"name":"myops::myadd"'* && $out == *"</html>" ]] && ok \
  || bad "installed dispatchtool html on an installed example: ${out:0:200}"
# The installed dispatchtool-export finds its modules (run by any python3: the
# shebang's; with no torch it says so, exit 1) and prints where they are.
out=$(cd / && python3 "$prefix/bin/dispatchtool-export" --module-path)
[[ $out == "$prefix/share/dispatchtool/python" ]] && ok || bad "installed dispatchtool-export --module-path: $out"
out=$(cd / && python3 "$prefix/bin/dispatchtool-export" --help)
[[ $out == *"--import MODULE"* ]] && ok || bad "installed dispatchtool-export --help: ${out:0:200}"
out=$(cd / && PYTHONPATH="$prefix/share/dispatchtool/python" python3 -c 'import dispatchtool_export, gen_profile, export_corpus; print(dispatchtool_export.export.__name__)')
[[ $out == export ]] && ok || bad "the installed modules import: $out"
# man finds the page through the prefix.
if command -v man >/dev/null; then
  page=$(MANPATH="$prefix/share/man" MANWIDTH=80 man dispatchtool 2>&1 | tr -s ' ')
  [[ $page == *"dispatchtool - see, check and teach"* ]] && ok || bad "man dispatchtool (MANPATH=prefix): ${page:0:200}"
fi
# bash-completion's loader finds the completion by the command's name.
if [[ -r /usr/share/bash-completion/bash_completion ]]; then
  got=$(XDG_DATA_DIRS="$prefix/share" bash --norc -c '
    source /usr/share/bash-completion/bash_completion
    __load_completion dispatchtool && complete -p dispatchtool' 2>&1)
  [[ $got == *"-F _dispatchtool dispatchtool"* ]] && ok || bad "bash-completion loads the installed completion: $got"
fi
# zsh autoloads _dispatchtool from the installed directory; fish from its vendor directory.
if command -v zsh >/dev/null; then
  got=$(zsh -f -c "fpath=($prefix/share/zsh/vendor-completions \$fpath); autoload -Uz _dispatchtool && whence -w _dispatchtool")
  [[ $got == "_dispatchtool: function" ]] && ok || bad "zsh autoloads the installed _dispatchtool: $got"
fi
if command -v fish >/dev/null; then
  got=$(XDG_DATA_DIRS="$prefix/share" HOME="$prefix" XDG_CONFIG_HOME="$prefix/config" fish -c 'complete -C "dispatchtool lint --fail-on w"' 2>&1)
  [[ $got == warning* ]] && ok || bad "fish loads the installed completion: $got"
fi
echo "$pass passed, $fail failed"
[[ $pass -ge 40 && $fail -eq 0 ]]
