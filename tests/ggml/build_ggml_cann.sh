#!/usr/bin/env bash
# The proof harness of issue 12: ggml's CANN backend, unchanged, on acl_sim.
#
#   tests/ggml/build_ggml_cann.sh [--build-only] [-v] [--ops-file FILE] [OP ...]
#
# 1. downloads the llama-cpp-python==0.3.36 sdist once into $ACL_SIM_GGML_CACHE
#    (default ~/.cache/acl_sim/ggml) with pip, and extracts it;
# 2. builds ggml (ggml-base, ggml-cpu, ggml-cann) and test-backend-ops with -DGGML_CANN=ON against
#    `python -m acl_sim --toolkit-dir` (its set_env.sh is sourced: ggml's CMake finds the chip with
#    npu-smi, the headers in include/, the libraries in lib64/), ccache launcher, -j$JOBS (2);
#    GGML_NATIVE=OFF keeps the CPU backend to one portable variant;
# 3. runs `test-backend-ops -b CANN0 -o OP` for each OP (the arguments, the ops of --ops-file, or
#    by default tests/ggml/passing_ops.txt: the ops that pass completely today) and prints one line
#    per op: "OP passed/total" (with -v also the failing cases). Logs: $BUILD/test-OP.log.
#
# Environment: ACL_SIM_GGML_CACHE, ACL_SIM_GGML_BUILD (build dir, default $CACHE/build-cann), JOBS,
# PYTHON (default python), GGML_CMAKE_ARGS (more cmake options, e.g. -DUSE_ACL_GRAPH=ON: ggml then
# captures each graph with aclmdlRICaptureBegin/End and replays it with aclmdlRIExecuteAsync).
# Exit status: 0 when every op ran and every test passed; 1 otherwise.
set -uo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
PYTHON=${PYTHON:-python}
JOBS=${JOBS:-2}
CACHE=${ACL_SIM_GGML_CACHE:-$HOME/.cache/acl_sim/ggml}
VERSION=0.3.36
SDIST_DIR="$CACHE/llama_cpp_python-$VERSION"
BUILD=${ACL_SIM_GGML_BUILD:-$CACHE/build-cann}
build_only=0
verbose=0
ops_file=""
ops=()
while [ $# -gt 0 ]; do
  case "$1" in
    --build-only) build_only=1 ;;
    -v) verbose=1 ;;
    --ops-file) ops_file=$2; shift ;;
    *) ops+=("$1") ;;
  esac
  shift
done
if [ ${#ops[@]} -eq 0 ]; then
  read -r -a ops <<< "$(grep -v '^\s*#' "${ops_file:-$HERE/passing_ops.txt}" | tr '\n' ' ')"
fi

mkdir -p "$CACHE"
if [ ! -d "$SDIST_DIR/vendor/llama.cpp/ggml/src/ggml-cann" ]; then
  if [ ! -f "$CACHE/llama_cpp_python-$VERSION.tar.gz" ]; then
    "$PYTHON" -m pip download --no-deps --no-binary :all: --no-build-isolation "llama-cpp-python==$VERSION" -d "$CACHE" \
      || { echo "sdist download failed"; exit 1; }
  fi
  tar xzf "$CACHE/llama_cpp_python-$VERSION.tar.gz" -C "$CACHE" || { echo "sdist extraction failed"; exit 1; }
fi

TOOLKIT=$("$PYTHON" -m acl_sim --toolkit-dir) || { echo "toolkit folder failed"; exit 1; }
# shellcheck disable=SC1091
. "$TOOLKIT/set_env.sh"

launcher=()
command -v ccache >/dev/null && launcher=(-DCMAKE_C_COMPILER_LAUNCHER=ccache -DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
gen=()
command -v ninja >/dev/null && gen=(-G Ninja)
start=$(date +%s)
cmake -S "$HERE" -B "$BUILD" "${gen[@]}" "${launcher[@]}" -DCMAKE_BUILD_TYPE=Release \
  -DLLAMA_CPP_DIR="$SDIST_DIR/vendor/llama.cpp" -DGGML_CANN=ON -DGGML_NATIVE=OFF -DGGML_BACKEND_DL=OFF \
  -DGGML_OPENMP=OFF -DBUILD_SHARED_LIBS=ON ${GGML_CMAKE_ARGS:-} >"$BUILD.configure.log" 2>&1 \
  || { cat "$BUILD.configure.log"; echo "configure failed"; exit 1; }
grep -E "CANN: SOC_VERSION" "$BUILD.configure.log"
cmake --build "$BUILD" -j"$JOBS" --target test-backend-ops >"$BUILD.build.log" 2>&1 \
  || { tail -50 "$BUILD.build.log"; echo "build failed"; exit 1; }
echo "build: $(( $(date +%s) - start )) s"
[ $build_only -eq 1 ] && exit 0

status=0
for op in "${ops[@]}"; do
  log="$BUILD/test-$op.log"
  timeout 1200 "$BUILD/test-backend-ops" -b CANN0 -o "$op" >"$log" 2>&1
  rc=$?
  line=$(grep -E '^\s*[0-9]+/[0-9]+ tests passed' "$log" | tail -1 | sed 's/^ *//')
  if [ -n "$line" ]; then
    printf '%-24s %s\n' "$op" "${line%% tests*}"
  else
    echo "$op did not finish (exit $rc): $(grep -m1 -iE 'error|abort|fail' "$log")"
  fi
  [ $rc -eq 0 ] || status=1
  [ $verbose -eq 1 ] && grep -E 'FAIL' "$log" | head -20
  [ -n "$line" ] || status=1
done
exit $status
