#!/usr/bin/env bash
# Every public header compiles on its own (the only include of a translation
# unit), with every warning the project uses as an error, under each compiler
# given, with only include/ on the include path (tools/check_layers.py checks
# that they include nothing but public and standard headers).
# docs/api.md's complete example compiles the same way.
# usage: check_headers.sh SOURCE_DIR COMPILER...
set -u
src=$(cd "$1" && pwd); shift
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
flags=(-std=c++20 -fsyntax-only -Wall -Wextra -Wpedantic -Wshadow -Wconversion -Wsign-conversion -Wnon-virtual-dtor
       -Wold-style-cast -Woverloaded-virtual -Werror)
fail=0 pass=0
headers=("$src"/include/dispatchtool/*.hpp)
[[ ${#headers[@]} -ge 6 ]] || { echo "FAIL: expected the public headers in $src/include/dispatchtool"; exit 1; }
for cxx in "$@"; do
  command -v "$cxx" >/dev/null || { echo "FAIL: compiler $cxx not found"; fail=$((fail + 1)); continue; }
  for h in "${headers[@]}"; do
    name=${h##*/}
    printf '#include <dispatchtool/%s>\n' "$name" > "$tmp/tu.cpp"
    if out=$("$cxx" "${flags[@]}" -I "$src/include" "$tmp/tu.cpp" 2>&1); then
      pass=$((pass + 1))
    else
      echo "FAIL: $cxx: <dispatchtool/$name> alone:"; echo "$out" | head -20; fail=$((fail + 1))
    fi
  done
done
# docs/api.md's complete example compiles with the public headers alone, under each compiler.
awk '/^```cpp$/ {on = 1; next} /^```$/ {if (on) exit} on' "$src/docs/api.md" > "$tmp/example.cpp"
grep -q "int main" "$tmp/example.cpp" || { echo "FAIL: no \`\`\`cpp example with main() in docs/api.md"; fail=$((fail + 1)); }
for cxx in "$@"; do
  if out=$("$cxx" "${flags[@]}" -I "$src/include" "$tmp/example.cpp" 2>&1); then
    pass=$((pass + 1))
  else
    echo "FAIL: $cxx: docs/api.md's example:"; echo "$out" | head -20; fail=$((fail + 1))
  fi
done
echo "$pass passed, $fail failed"
[[ $fail -eq 0 && $pass -gt 0 ]]
