#!/usr/bin/env bash
# The library as another project uses it: `cmake --install` into a temporary
# prefix, examples/consumer configured with find_package(dispatchtool) against
# that prefix alone and built, and its output equal, byte for byte, to the
# command line's for the same input (built-in profile and operator library
# included: the consumer reads no file of the source tree but its inputs).
# usage: check_consumer.sh BUILD_DIR SOURCE_DIR CXX_COMPILER [PROFILE]
set -u
build=$(cd "$1" && pwd) src=$(cd "$2" && pwd) cxx=$3 profile=${4:-torch-2.14}
tool="$build/dispatchtool"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0 pass=0
bad() { echo "FAIL: $*"; fail=$((fail + 1)); }

if ! out=$(cmake --install "$build" --prefix "$tmp/prefix" 2>&1); then
  echo "$out"; echo "FAIL: cmake --install failed"; exit 1
fi
# Only the prefix: no path into the build or source tree.
if ! out=$(cmake -S "$src/examples/consumer" -B "$tmp/consumer" -G Ninja -DCMAKE_BUILD_TYPE=Release \
             -DCMAKE_CXX_COMPILER="$cxx" -DCMAKE_PREFIX_PATH="$tmp/prefix" -DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF 2>&1) ||
   ! out2=$(cmake --build "$tmp/consumer" 2>&1); then
  echo "$out"; echo "${out2:-}"; echo "FAIL: the consumer does not configure or build against the installed package"; exit 1
fi
grep -q "dispatchtool_DIR:PATH=$tmp/prefix/" "$tmp/consumer/CMakeCache.txt" && pass=$((pass + 1)) \
  || bad "find_package(dispatchtool) did not find the installed package: $(grep dispatchtool_DIR "$tmp/consumer/CMakeCache.txt")"
report="$tmp/consumer/dispatch_report"

# same DESCRIPTION "consumer args" "tool args": equal stdout and exit status, run from / (no relative paths).
same() {
  local what=$1 mine theirs rc1 rc2
  mine=$(cd / && eval "\"$report\" $2" 2>"$tmp/err1"); rc1=$?
  theirs=$(cd / && eval "\"$tool\" $3" 2>"$tmp/err2"); rc2=$?
  if [[ $rc1 -ne $rc2 ]]; then
    bad "$what: exit $rc1 (consumer) vs $rc2 (dispatchtool): $(head -c 300 "$tmp/err1")"
  elif [[ "$mine" != "$theirs" ]]; then
    bad "$what: outputs differ"; diff <(printf '%s\n' "$mine") <(printf '%s\n' "$theirs") | head -20
  elif [[ -z "$mine" ]]; then
    bad "$what: no output"
  else
    pass=$((pass + 1))
  fi
}
ex="$src/configs/examples"
for f in custom_op.toml privateuse1.toml autogradother_ambiguity.toml out_of_tree_backend.toml; do
  same "table --raw $f" "table $profile $ex/$f" "table --raw --profile $profile $ex/$f"
  same "table --format json $f" "json $profile $ex/$f" "table --format json --profile $profile $ex/$f"
done
same "table --raw npu_backend" "table $profile $ex/npu_backend/*.toml" "table --raw --profile $profile $ex/npu_backend/*.toml"
same "trace aten::add.Tensor" "trace $profile aten::add.Tensor cpu,requires_grad cpu" \
     "trace --format json --profile $profile --op aten::add.Tensor --arg cpu,requires_grad --arg cpu"
same "trace aten::mul.Tensor (math bits)" "trace $profile aten::mul.Tensor cpu,conj meta" \
     "trace --format json --profile $profile --op aten::mul.Tensor --arg cpu,conj --arg meta"
same "coverage PrivateUse1 (every operator of the library)" "coverage $profile PrivateUse1 $ex/npu_backend/*.toml" \
     "coverage --format json --profile $profile --backend PrivateUse1 $ex/npu_backend/*.toml"
# The same errors, as the tool prints them.
same "a malformed file: the error" "table $profile $src/tests/install/bad.toml 2>&1" \
     "table --raw --profile $profile $src/tests/install/bad.toml 2>&1"
out=$(cd / && "$report" table no-such-profile "$ex/custom_op.toml" 2>&1); rc=$?
[[ $rc -eq 2 && $out == *"no-such-profile"* ]] && pass=$((pass + 1)) || bad "unknown profile: exit $rc: $out"
# explain's steps: the step taken names the kernel the table shows.
out=$(cd / && "$report" explain "$profile" myops::myadd AutogradCPU "$ex/custom_op.toml")
[[ $out == "AutogradCPU of myops::myadd: myadd_autograd [autograd kernel]"* && $out == *"<-"* ]] && pass=$((pass + 1)) \
  || bad "explain: $out"
echo "$pass passed, $fail failed"
[[ $pass -ge 16 && $fail -eq 0 ]]
