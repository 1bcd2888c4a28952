#!/usr/bin/env bash
# End to end of issue 12: llama-cpp-python, installed from the package registry with ggml's CANN
# backend built against acl_sim's toolkit folder, generates on CANN0 the tokens ggml's CPU backend
# generates.
#
#   tests/ggml/run_llama_e2e.sh [--rebuild]
#
# 1. a virtualenv $CACHE/venv (--system-site-packages: it sees acl_sim, numpy and pip's build tools);
# 2. there, the README's command, unchanged:
#      source $(python -m acl_sim --toolkit-dir)/set_env.sh
#      CMAKE_ARGS="-DGGML_CANN=on" pip install llama-cpp-python==0.3.36
#    (pip downloads the sdist; its CMake builds libllama + ggml-base/cpu/cann; ccache is used when
#    installed, CMAKE_BUILD_PARALLEL_LEVEL=$JOBS, default 2). Skipped when the venv already holds a
#    CANN build of that version, unless --rebuild. pip's wheel cache is bypassed (--no-cache-dir), so
#    a wheel built without CANN is never reused. llama-cpp-python 0.3.36 installs libggml-cann.so into
#    site-packages/lib instead of site-packages/llama_cpp/lib (its CMakeLists.txt names the target
#    "ggml-can"), where libggml.so (RUNPATH $ORIGIN) does not find it: `import llama_cpp` fails with
#    "libggml-cann.so.0: cannot open shared object file". The workaround a user applies, and this
#    script does: that folder goes on LD_LIBRARY_PATH (docs/aclnn.md);
# 3. pip install gguf; tests/ggml/make_tiny_llama.py writes tiny llama GGUFs (f16 and q8_0 weights);
# 4. tests/ggml/run_tiny_llama.py: greedy, 16 tokens, on CANN0 (all layers offloaded) and on the CPU
#    backend, each in its own process; fails unless the token ids are equal.
#
# Environment: ACL_SIM_LLAMA_CACHE (default ~/.cache/acl_sim/llama), PYTHON (default python), JOBS,
# LLAMA_CMAKE_ARGS (appended to CMAKE_ARGS; default -DLLAVA_BUILD=OFF: libmtmd, the multimodal
# library, is not needed for a text model and costs build time; set it empty to build exactly the
# README's command).
# Exit status 0 when the install worked and both models' tokens match.
set -uo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
PYTHON=${PYTHON:-python}
JOBS=${JOBS:-2}
VERSION=0.3.36
CACHE=${ACL_SIM_LLAMA_CACHE:-$HOME/.cache/acl_sim/llama}
VENV="$CACHE/venv"
rebuild=0
LLAMA_CMAKE_ARGS=${LLAMA_CMAKE_ARGS--DLLAVA_BUILD=OFF}
[ "${1:-}" = "--rebuild" ] && rebuild=1
mkdir -p "$CACHE"
t0=$(date +%s)

TOOLKIT=$("$PYTHON" -m acl_sim --toolkit-dir) || { echo "toolkit folder failed"; exit 1; }
# shellcheck disable=SC1091
. "$TOOLKIT/set_env.sh"
echo "toolkit: $TOOLKIT (npu-smi: $(npu-smi info | sed -n 7p | awk '{print $3}'))"

[ -x "$VENV/bin/python" ] || "$PYTHON" -m venv --system-site-packages "$VENV" || { echo "venv failed"; exit 1; }
VPY="$VENV/bin/python"
export PIP_DISABLE_PIP_VERSION_CHECK=1

PLATLIB=$("$VPY" -c 'import sysconfig; print(sysconfig.get_paths()["platlib"])')
export LD_LIBRARY_PATH="$PLATLIB/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"   # see the header
have_cann_build() {
  [ -n "$(ls "$PLATLIB"/llama_cpp/lib/libggml-cann.so* "$PLATLIB"/lib/libggml-cann.so* 2>/dev/null)" ] \
    && "$VPY" -c "import llama_cpp, sys; sys.exit(llama_cpp.__version__ != '$VERSION')" 2>/dev/null
}

if [ $rebuild -eq 1 ] || ! have_cann_build; then
  echo "building llama-cpp-python==$VERSION with -DGGML_CANN=on (log: $CACHE/pip-install.log)"
  b0=$(date +%s)
  CMAKE_BUILD_PARALLEL_LEVEL=$JOBS CMAKE_ARGS="-DGGML_CANN=on $LLAMA_CMAKE_ARGS" \
    "$VPY" -m pip install --no-cache-dir --force-reinstall --no-deps -v "llama-cpp-python==$VERSION" \
    >"$CACHE/pip-install.log" 2>&1 \
    || { tail -40 "$CACHE/pip-install.log"; echo "pip install failed"; exit 1; }
  # its runtime dependencies (numpy, jinja2, diskcache, typing-extensions) the ordinary way
  "$VPY" -m pip install -q "llama-cpp-python==$VERSION" >>"$CACHE/pip-install.log" 2>&1 \
    || { echo "installing llama-cpp-python's dependencies failed"; exit 1; }
  echo "pip install: $(( $(date +%s) - b0 )) s"
  have_cann_build || { echo "the installed llama_cpp has no libggml-cann.so"; exit 1; }
else
  echo "llama-cpp-python $VERSION with the CANN backend already in $VENV (--rebuild builds it again)"
fi

"$VPY" -c "import gguf" 2>/dev/null || "$VPY" -m pip install -q gguf || { echo "pip install gguf failed"; exit 1; }

status=0
for wtype in f16 q8_0; do
  model="$CACHE/tiny-llama-$wtype.gguf"
  "$VPY" "$HERE/make_tiny_llama.py" "$model" --type "$wtype" >/dev/null || { echo "GGUF writer failed"; exit 1; }
  echo "== $wtype weights"
  r0=$(date +%s)
  "$VPY" "$HERE/run_tiny_llama.py" "$model" --log-dir "$CACHE/logs-$wtype" || status=1
  echo "run: $(( $(date +%s) - r0 )) s"
done
echo "total: $(( $(date +%s) - t0 )) s"
exit $status
