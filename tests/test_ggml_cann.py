"""ggml's CANN backend on acl_sim (issue 12).

- Every symbol ggml-cann references is exported by libascendcl.so (so ggml links and
  test-backend-ops never aborts on a missing symbol): tests/ggml/ggml_cann_symbols.txt.
- docs/aclnn.md's "not yet supported" list is the stub list of csrc/capi/aclnn_unsupported.cpp.
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


def test_docs_list_the_unimplemented_operators():
    stubs = set(re.findall(r"^ACLNN_UNSUPPORTED(?:_FN)?\((?:aclnn)?(\w+),", (ROOT / "csrc/capi/aclnn_unsupported.cpp").read_text(), re.M))
    doc = (ROOT / "docs" / "aclnn.md").read_text()
    section = doc.split("## Not yet supported", 1)[1].split("\n## ", 1)[0]
    listed = set(re.findall(r"`aclnn(\w+)`", section))
    assert listed == stubs, {"stub but not in docs": sorted(stubs - listed), "in docs but implemented": sorted(listed - stubs)}
