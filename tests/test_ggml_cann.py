"""ggml's CANN backend on acl_sim (issue 12).

- Every symbol ggml-cann references is exported by libascendcl.so (so ggml links and
  test-backend-ops never aborts on a missing symbol): tests/ggml/ggml_cann_symbols.txt.
- Every aclnn function csrc/include/aclnnop/ declares is exported (none is declared without a definition).
The run of ggml's own test-backend-ops over tests/ggml/passing_ops.txt is not a pytest case:
building ggml and running the ops take minutes, so it is .ci/run's stage 6
(tests/ggml/build_ggml_cann.sh, which exits non-zero unless every case of every listed op passes).
"""
import ctypes
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
GGML = ROOT / "tests" / "ggml"


def _lines(path):
    return [l.strip() for l in path.read_text().splitlines() if l.strip() and not l.lstrip().startswith("#")]


@pytest.fixture(scope="module")
def toolkit(tmp_path_factory):
    root = tmp_path_factory.mktemp("toolkit") / "cann"
    out = subprocess.run([sys.executable, "-m", "acl_sim", "--toolkit-dir", str(root)], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    return root


def test_every_ggml_cann_symbol_is_exported(toolkit):
    lib = ctypes.CDLL(str(toolkit / "lib64" / "libopapi.so"))
    missing = [s for s in _lines(GGML / "ggml_cann_symbols.txt") if not hasattr(lib, s)]
    assert not missing, missing


def test_every_declared_aclnn_function_is_exported(toolkit):
    lib = ctypes.CDLL(str(toolkit / "lib64" / "libopapi.so"))
    declared = set()
    for h in (ROOT / "csrc" / "include" / "aclnnop").glob("*.h"):
        declared |= set(re.findall(r"\baclnnStatus\s+(aclnn\w+)\s*\(", h.read_text()))
    assert len(declared) > 150
    missing = sorted(f for f in declared if not hasattr(lib, f))
    assert not missing, missing
