#!/usr/bin/env bash
# Runs each libFuzzer harness for SECONDS (CI: 60) on its seed corpus
# (make_corpus.py, from the repository's own small files, plus the crash
# regressions) with its dictionary. Fails when a harness finds a crash, a
# leak, a timeout or an out-of-memory; the input is kept in WORK/crashes/.
#   tests/fuzz/run.sh BUILD_DIR SECONDS [HARNESS...]     (BUILD_DIR: a -DDT_FUZZ=ON build)
# Environment: FUZZ_WORK (default BUILD_DIR/fuzz-work), FUZZ_JOBS (default 1:
# processes per harness), FUZZ_PARALLEL (default 1: harnesses run at once; .ci/run
# runs one per core), FUZZ_SEED (default: libFuzzer picks one; .ci/run fixes it,
# so that a CI run replays the same inputs as a local run of the same length).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
build="$(cd "$1" && pwd)"; seconds="$2"; shift 2
harnesses=("$@")
[[ ${#harnesses[@]} -eq 0 ]] && harnesses=(load profile lint_config schema cpp_reader native_yaml python_reader)
work="${FUZZ_WORK:-$build/fuzz-work}"
mkdir -p "$work"
python3 "$here/make_corpus.py" "$here/../.." "$work/seeds" >/dev/null
status=0
# Several processes (FUZZ_JOBS > 1): libFuzzer's -jobs writes fuzz-N.log into the current directory.
jobs=()
if [[ "${FUZZ_JOBS:-1}" -gt 1 ]]; then jobs=(-jobs="$FUZZ_JOBS" -workers="$FUZZ_JOBS"); fi
if [[ -n "${FUZZ_SEED:-}" ]]; then jobs+=(-seed="$FUZZ_SEED"); fi
cd "$work"
# One harness; returns 1 when it failed.
run_one() {
  local h="$1" dict log f
  case $h in
    load) dict=toml.dict ;;
    profile) dict=profile.dict ;;
    lint_config) dict=lint_config.dict ;;
    schema) dict=schema.dict ;;
    cpp_reader) dict=cpp.dict ;;
    native_yaml) dict=yaml.dict ;;
    python_reader) dict=python.dict ;;
  esac
  mkdir -p "$work/corpus/$h" "$work/crashes/$h"
  cp -n "$work/seeds/$h"/* "$work/corpus/$h/" 2>/dev/null || true
  cp -n "$here/regressions/$h"/* "$work/corpus/$h/" 2>/dev/null || true
  log="$work/$h.log"
  echo "fuzz $h: ${seconds}s" >&2
  if ASAN_OPTIONS=detect_leaks=1:allocator_may_return_null=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
     "$build/tests/fuzz/fuzz_$h" "$work/corpus/$h" -dict="$here/dict/$dict" -max_total_time="$seconds" \
     -timeout=10 -rss_limit_mb=2048 -max_len=65536 "${jobs[@]}" \
     -artifact_prefix="$work/crashes/$h/" -print_final_stats=1 >"$log" 2>&1; then
    echo "fuzz $h: $(grep -E "stat::number_of_executed_units|Done [0-9]+ runs" "$log" | tail -n 1)" >&2
  else
    echo "fuzz $h: FAILED (log: $log; inputs: $work/crashes/$h/)" >&2
    grep -E "ERROR|SUMMARY|runtime error|terminate called|what\(\)|Test unit written" "$log" | head -n 20 >&2 || true
    # The inputs themselves, so that a failure seen only in a CI log can be reproduced.
    for f in "$work/crashes/$h"/*; do
      if [[ -f $f ]]; then
        python3 -c 'import sys; d = open(sys.argv[1], "rb").read(); print("input %s (%d bytes): %r" % (sys.argv[1], len(d), d[:16384]))' "$f" >&2
      fi
    done
    return 1
  fi
}
running=0
for h in "${harnesses[@]}"; do
  # Check the name first: an unknown harness is a usage error, not a failure of a run.
  case $h in load | profile | lint_config | schema | cpp_reader | native_yaml | python_reader) ;;
    *) echo "run.sh: unknown harness '$h'" >&2; exit 2 ;;
  esac
done
for h in "${harnesses[@]}"; do
  if ((running >= ${FUZZ_PARALLEL:-1})); then
    wait -n || status=1
    running=$((running - 1))
  fi
  run_one "$h" &
  running=$((running + 1))
done
while ((running > 0)); do
  wait -n || status=1
  running=$((running - 1))
done
exit $status
