#!/bin/bash
# Records what a real CUDA build of torch registers for this repository's own
# extension sources, so that CI (no GPU) checks the readers against it
# (tests/oracle/recorded_sources.py, ctest oracle.cuda-2.11.*).
#
#   tests/oracle/record_cuda.sh TOOL OUTDIR TREE [WORK]
#
# Run from the repository root on a machine with a CUDA build of torch in
# `python3`, CUDA's nvcc and g++: TOOL is a dispatchtool binary, TREE the
# pytorch-2.6.0-library-users tree of tests/realworld/sources.py (holding
# torch/testing/_internal/custom_op_db.py). It writes OUTDIR/records.tar.xz:
#
#   env.txt            torch, CUDA, GPU, nvcc and g++ versions
#   export.tar.xz      dispatchtool-export of that torch (export/)
#   py_reader.json     tests/oracle/py_reader_oracle.py under that export
#   cpp_*.json         tests/oracle/cpp_reader_oracle.py: the C++ pattern
#                      files compiled with g++, and tests/oracle/cuda_ext's
#                      .cu file with nvcc, with their Python halves
#
# Each oracle also compares live and prints its figures; a failing one is
# reported (exit 1) after every other has run.
set -uo pipefail
tool=$(realpath "$1"); out=$(realpath "$2"); tree=$(realpath "$3"); work=${4:-/tmp/dt-record}
rm -rf "$work" && mkdir -p "$work/rec" "$out" || exit 1
rc=0
xztar() { python3 -c 'import sys, tarfile
with tarfile.open(sys.argv[1], "w:xz") as t: t.add(sys.argv[2], arcname=sys.argv[3])' "$@"; }
step() { echo "== $*"; local t0=$SECONDS; "$@" || { echo "== FAILED ($?): $1 $2"; rc=1; }; echo "== $((SECONDS - t0)) s"; }
{
  python3 -c 'import sys, torch; print("torch", torch.__version__, "cuda", torch.version.cuda, "python", sys.version.split()[0]);
print("gpu", torch.cuda.get_device_name() if torch.cuda.is_available() else "none")'
  nvcc --version | tail -2; g++ --version | head -1; uname -srm
} > "$work/rec/env.txt" 2>&1
cat "$work/rec/env.txt"
step python3 tools/dispatchtool-export "$work/export"
xztar "$work/rec/export.tar.xz" "$work/export" export || rc=1
P=(--tool "$tool" --profile "$work/export")
O=tests/oracle
step python3 $O/py_reader_oracle.py "${P[@]}" --count 300 --seed 0 --workdir "$work/py-reader" --tree "$tree" \
  --record "$work/rec/py_reader.json"
step python3 $O/cpp_reader_oracle.py "${P[@]}" --workdir "$work/cpp" --record "$work/rec/cpp_forms.json" \
  $O/cpp_ext/forms.cpp
step python3 $O/cpp_reader_oracle.py "${P[@]}" --workdir "$work/cpp-stable" --record "$work/rec/cpp_stable.json" \
  $O/cpp_ext/stable_forms.cpp
step python3 $O/cpp_reader_oracle.py "${P[@]}" --workdir "$work/cpp-pp" --record "$work/rec/cpp_preprocessor.json" \
  --define TORCH_EXTENSION_NAME=proj_ext --define WITH_EXTRA --define EXTRA_LEVEL=1 \
  --undefine USE_ROCM --undefine NOT_GIVEN --namespace proj_ext --op aten::sinc --op aten::xlogy.Tensor \
  --op aten::logit $O/cpp_ext/preprocessor_forms.cpp $O/cpp_ext/legacy_forms.cpp
step python3 $O/cpp_reader_oracle.py "${P[@]}" --workdir "$work/cpp-schema" --record "$work/rec/cpp_schema.json" \
  $O/cpp_ext/schema_forms.cpp
step python3 $O/cpp_reader_oracle.py "${P[@]}" --workdir "$work/cpp-py" --record "$work/rec/cpp_py_ops.json" \
  $O/cpp_ext/py_ops.cpp $O/cpp_ext/py_ops.py
step python3 $O/cpp_reader_oracle.py "${P[@]}" --workdir "$work/cuda" --record "$work/rec/cpp_cuda_forms.json" \
  --define TORCH_EXTENSION_NAME=cuda_ext --undefine USE_ROCM --namespace cuda_ext --op aten::sinc \
  $O/cuda_ext/cuda_forms.cu $O/cuda_ext/cuda_forms_ops.py
xztar "$out/records.tar.xz" "$work/rec" records || rc=1
ls -l "$work/rec"
exit $rc
