#!/usr/bin/env bash
# Exercises completions/dispatchtool.bash the way bash calls it.
# usage: test_bash_completion.sh BUILD_DIR
set -u
PATH="$(cd "$1" && pwd):$PATH"
source "$(dirname "$0")/../../completions/dispatchtool.bash"
fail=0 pass=0
check() {  # check "words..." expected-word
  local line="$1" want="$2"
  read -r -a COMP_WORDS <<<"$line"
  [[ "$line" == *" " ]] && COMP_WORDS+=("")
  COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
  COMP_LINE="$line" COMP_POINT=${#line}
  COMPREPLY=()
  _dispatchtool
  if printf '%s\n' "${COMPREPLY[@]}" | grep -qx -- "$want"; then
    pass=$((pass + 1))
  else
    echo "FAIL: '$line' does not offer '$want' (got: ${COMPREPLY[*]:0:8})"
    fail=$((fail + 1))
  fi
}
check_not() {  # check_not "words..." unwanted-word
  local line="$1" unwanted="$2"
  read -r -a COMP_WORDS <<<"$line"
  COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
  COMP_LINE="$line" COMP_POINT=${#line}
  COMPREPLY=()
  _dispatchtool
  if printf '%s\n' "${COMPREPLY[@]}" | grep -qx -- "$unwanted"; then
    echo "FAIL: '$line' offers '$unwanted'"
    fail=$((fail + 1))
  else
    pass=$((pass + 1))
  fi
}
# The subcommands and built-in profiles --help lists (the lists cannot drift).
subcommands=$(dispatchtool --help | sed -n '/^Subcommands:/,/^$/p' | grep -oE '^  [a-z]+' | tr -d ' ')
[[ $(wc -w <<<"$subcommands") -ge 11 ]] || { echo "FAIL: --help lists $(wc -w <<<"$subcommands") subcommands"; fail=$((fail + 1)); }
for sub in $subcommands; do check "dispatchtool ${sub:0:2}" "$sub"; done
profiles=$(dispatchtool table --help | grep -E '^ +--profile' | grep -oE 'torch-[0-9a-z.]+' | sort -u)
[[ $(wc -w <<<"$profiles") -ge 4 ]] || { echo "FAIL: --help lists $(wc -w <<<"$profiles") profiles"; fail=$((fail + 1)); }
for profile in $profiles; do
  check "dispatchtool table --profile " "$profile"
  check "dispatchtool coverage --against " "$profile"
done
check "dispatchtool ta" table
check "dispatchtool table --build c" cuda
check "dispatchtool lint --build m" mtia
check "dispatchtool table --st" --style
check "dispatchtool table --style py" python-dispatcher
check "dispatchtool table --keys AutogradC" AutogradCPU
check "dispatchtool table --keys CPU,AutogradC" CPU,AutogradCPU
check "dispatchtool table --profile torch-1" torch-1.13
check "dispatchtool lint --format sa" sarif
check "dispatchtool lint --color n" never
check "dispatchtool h" html
check "dispatchtool html --keys AutogradC" AutogradCPU
check "dispatchtool html --tag view_c" view_copy
check "dispatchtool coverage --status mis" missing
check "dispatchtool coverage --fail-on missing,ambi" missing,ambiguous
check "dispatchtool coverage --backend PrivateU" PrivateUse1
check "dispatchtool coverage --format js" json
check "dispatchtool ops --tag view_c" view_copy
check "dispatchtool ops --profile torch-main --tag poin" pointwise
check "dispatchtool coverage --exclude-tag gener" generated
check "dispatchtool lint --ignore-tag generated,inplace_v" generated,inplace_view
# Value completions (run in a directory with known files).
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/subdir" && touch "$tmp/ops.toml" "$tmp/base.lst" "$tmp/subdir/x.toml" "$tmp/page.html"
touch "$tmp/csrc.cpp" "$tmp/csrc.cu" "$tmp/csrc.h" "$tmp/cmods.py" "$tmp/cnative_functions.yaml" "$tmp/cbackend.yml" "$tmp/c.txt"
cd "$tmp"
check "dispatchtool table o" ops.toml
# Every kind of file the readers take, for every command that reads them; no other file.
for f in csrc.cpp csrc.cu csrc.h cmods.py cnative_functions.yaml cbackend.yml; do
  check "dispatchtool lint c" "$f"
  check "dispatchtool table c" "$f"
  check "dispatchtool import c" "$f"
done
check_not "dispatchtool lint c" c.txt
check_not "dispatchtool import o" ops.toml
check "dispatchtool import -o o" ops.toml
check "dispatchtool import --output s" subdir
check "dispatchtool import s" subdir
check "dispatchtool table s" subdir
check "dispatchtool table --profile o" ops.toml
check "dispatchtool table --profile s" subdir
check "dispatchtool table --profile " torch-main
check "dispatchtool lint --baseline b" base.lst
check "dispatchtool lint --config b" base.lst
check "dispatchtool lint --write-baseline b" base.lst
check "dispatchtool lint --write-baseline s" subdir
check "dispatchtool lint --context s" subdir
check "dispatchtool html -o p" page.html
check "dispatchtool html --output s" subdir
check "dispatchtool html o" ops.toml
# Rule ids (from lint --list-rules) for --select/--ignore, comma lists like --keys.
for rule in $(dispatchtool lint --list-rules | cut -d' ' -f1); do
  check "dispatchtool lint --select " "$rule"
  check "dispatchtool lint --ignore duplicate-def,${rule:0:5}" "duplicate-def,$rule"
done
check "dispatchtool lint --severity missing-a" missing-autograd=
check "dispatchtool lint --severity missing-autograd=i" info
cd - >/dev/null
# Every option a subcommand's --help lists is offered (the lists cannot drift).
for sub in $subcommands; do
  for opt in $(dispatchtool "$sub" --help | grep -oE '^ +(-[a-zA-Z],)?--[a-z-]+' | grep -oE -- '--[a-z-]+'); do
    check "dispatchtool $sub $opt" "$opt"
  done
done
echo "$pass passed, $fail failed"
# At least the options of today's --help (a changed help format must not make
# the loop above check nothing).
[[ $pass -ge 90 ]] || { echo "FAIL: only $pass checks ran"; fail=1; }
[[ $fail -eq 0 ]]
