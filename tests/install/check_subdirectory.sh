#!/usr/bin/env bash
# The library as a subproject: a parent project that add_subdirectory()s the
# source tree (as FetchContent does) and links dispatchtool::dispatchtool.
# Configured, not built (a full build of the library takes minutes): the
# parent gets the library and the tool, no tests, benchmark or install rules
# of ours; every path the build graph names is inside the source tree or the
# parent's build tree (PROJECT_SOURCE_DIR, not the parent's CMAKE_SOURCE_DIR),
# and every input of the parent's program is built by a rule or exists.
# usage: check_subdirectory.sh SOURCE_DIR CXX_COMPILER
set -u
src=$(cd "$1" && pwd) cxx=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0 pass=0
bad() { echo "FAIL: $*"; fail=$((fail + 1)); }
ok() { pass=$((pass + 1)); }

mkdir -p "$tmp/parent"
cat > "$tmp/parent/CMakeLists.txt" <<CMAKE
cmake_minimum_required(VERSION 3.20)
project(parent LANGUAGES CXX)
add_subdirectory("$src" dispatchtool)
add_executable(dispatch_report "$src/examples/consumer/main.cpp")
target_link_libraries(dispatch_report PRIVATE dispatchtool::dispatchtool)
CMAKE
if ! out=$(cmake -S "$tmp/parent" -B "$tmp/build" -G Ninja -DCMAKE_CXX_COMPILER="$cxx" 2>&1); then
  echo "$out"; echo "FAIL: the parent project does not configure"; exit 1
fi
ok
targets=$(ninja -C "$tmp/build" -t targets all 2>&1)
for t in dispatch_report dispatchtool/dispatchtool dispatchtool/libdispatchtool.a; do
  grep -q "^$t:" <<<"$targets" && ok || bad "no target $t"
done
for t in dispatchtool_tests dispatchtool_toml_floor; do
  grep -q "/$t:" <<<"$targets" && bad "a subproject builds our $t" || ok
done
grep -q "dispatchtool-config" "$tmp/build/dispatchtool/cmake_install.cmake" 2>/dev/null \
  && bad "a subproject installs our package (DT_INSTALL is off there)" || ok
[[ -f "$tmp/build/CTestTestfile.cmake" || -f "$tmp/build/dispatchtool/CTestTestfile.cmake" ]] \
  && bad "a subproject adds our tests" || ok
# Every input of the parent's program (transitively: sources, generated
# files, the generators' own inputs) is made by a rule or exists.
outputs=$(ninja -C "$tmp/build" -t targets all 2>/dev/null | sed 's/: .*//' | sed "s|^|$tmp/build/|")
inputs=$(cd "$tmp/build" && ninja -t inputs dispatch_report 2>&1) || bad "ninja -t inputs: $inputs"
missing=0 listed=0
while IFS= read -r f; do
  [[ -z $f ]] && continue
  listed=$((listed + 1))
  [[ $f == /* ]] || f="$tmp/build/$f"
  [[ -e $f ]] || grep -qxF -- "$f" <<<"$outputs" || { missing=$((missing + 1)); echo "missing input: $f"; }
done <<<"$inputs"
[[ $listed -gt 100 && $missing -eq 0 ]] && ok || bad "$missing of $listed inputs neither exist nor are built"
# Our generators read our tree: the embedded profiles come from $src/configs.
grep -q -- "-DDIR=$src/configs/profiles" "$tmp/build/build.ninja" && ok \
  || bad "the profiles are not embedded from $src/configs/profiles"
grep -q -- "$tmp/parent/configs\|$tmp/parent/src\|$tmp/parent/include" "$tmp/build/build.ninja" \
  && bad "the build names the parent's source directory for our files" || ok
echo "$pass passed, $fail failed"
[[ $pass -ge 10 && $fail -eq 0 ]]
