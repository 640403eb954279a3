#!/usr/bin/env bash
# Exercises completions/dispatchtool.bash the way bash calls it.
# usage: test_bash_completion.sh BUILD_DIR
set -u
PATH="$1:$PATH"
source "$(dirname "$0")/../../completions/dispatchtool.bash"
fail=0 pass=0
check() {  # check "words..." expected-word
  local line="$1" want="$2"
  read -r -a COMP_WORDS <<<"$line"
  [[ "$line" == *" " ]] && COMP_WORDS+=("")
  COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
  COMPREPLY=()
  _dispatchtool
  if printf '%s\n' "${COMPREPLY[@]}" | grep -qx -- "$want"; then
    pass=$((pass + 1))
  else
    echo "FAIL: '$line' does not offer '$want' (got: ${COMPREPLY[*]:0:8})"
    fail=$((fail + 1))
  fi
}
check "dispatchtool ta" table
check "dispatchtool table --st" --style
check "dispatchtool table --style py" python-dispatcher
check "dispatchtool table --keys AutogradC" AutogradCPU
check "dispatchtool table --keys CPU,AutogradC" CPU,AutogradCPU
check "dispatchtool table --profile torch-1" torch-1.13
check "dispatchtool lint --format sa" sarif
# Every option a subcommand's --help lists is offered (the lists cannot drift).
for sub in table registrations explain keys lint; do
  for opt in $(dispatchtool "$sub" --help | grep -oE '^ +(-[a-zA-Z],)?--[a-z-]+' | grep -oE -- '--[a-z-]+'); do
    check "dispatchtool $sub $opt" "$opt"
  done
done
echo "$pass passed, $fail failed"
# At least the options of today's --help (a changed help format must not make
# the loop above check nothing).
[[ $pass -ge 45 ]] || { echo "FAIL: only $pass checks ran"; fail=1; }
[[ $fail -eq 0 ]]
