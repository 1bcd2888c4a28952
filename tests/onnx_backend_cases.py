"""The ONNX backend node tests (onnx.backend.test) as plain cases, a runner for any backend,
and the measured status lists the pytest suite uses.

Run `python tests/onnx_backend_cases.py` to re-measure: it runs every node test on
onnxruntime and on acl_sim, rewrites tests/onnx_backend_status.json (the cases onnxruntime
fails, and acl_sim's failures with their reasons) and prints the pass-rate summary that goes
into bench/results/mdlapi.md.
"""
from __future__ import annotations

import json
import os
import re
import sys
import time
import warnings

import numpy as np

STATUS_FILE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "onnx_backend_status.json")

# Families left out, as the aclmdl issue allows: no inference-graph equivalent on an NPU model.
EXCLUDED_FAMILIES = {
    "training": re.compile(r"training|adagrad|adam|momentum|nesterov|gradient"),
    "sequences": re.compile(r"^test_(sequence_|split_to_sequence|concat_from_sequence|identity_sequence|if_seq|"
                            r"loop13_seq|loop16_seq)|^test_optional_.*sequence"),
    "strings": re.compile(r"string|strnorm|regex|_str_|_str$|label_encoder"),
    "random": re.compile(r"^test_(random|bernoulli|multinomial)"),
    "optional": re.compile(r"optional"),
}


def excluded_family(name: str) -> str | None:
    for family, pattern in EXCLUDED_FAMILIES.items():
        if pattern.search(name):
            return family
    return None


_CASES = None


def node_cases():
    """All node test cases not in an excluded family (generated in memory by onnx)."""
    global _CASES
    if _CASES is None:
        import onnx.backend.test.loader as loader

        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            cases = loader.load_model_tests(kind="node")
        _CASES = [c for c in cases if excluded_family(c.name) is None]
    return _CASES


def load_status() -> dict:
    if not os.path.exists(STATUS_FILE):
        return {"ort_failing": {}, "acl_sim_failing": {}}
    with open(STATUS_FILE) as f:
        return json.load(f)


def check_outputs(expected, got, rtol, atol):
    assert len(got) == len(expected), f"{len(got)} outputs, expected {len(expected)}"
    for i, (e, g) in enumerate(zip(expected, got)):
        e, g = np.asarray(e), np.asarray(g)
        assert g.dtype == e.dtype, f"output {i}: dtype {g.dtype}, expected {e.dtype}"
        assert g.shape == e.shape, f"output {i}: shape {g.shape}, expected {e.shape}"
        if e.dtype == object:
            assert list(g.ravel()) == list(e.ravel()), f"output {i} differs"
        elif e.dtype.kind in "fc":
            np.testing.assert_allclose(g, e, rtol=rtol, atol=atol, err_msg=f"output {i}")
        else:
            np.testing.assert_array_equal(g, e, err_msg=f"output {i}")


def run_case(case, backend):
    """Prepare the case's model on `backend` and check every data set; raises on any difference."""
    rep = backend.prepare(case.model, "CPU")
    try:
        for inputs, outputs in case.data_sets:
            got = rep.run(inputs)
            check_outputs(outputs, list(got), case.rtol, case.atol)
    finally:
        if hasattr(rep, "close"):
            rep.close()


def _reason(exc: BaseException) -> str:
    text = f"{type(exc).__name__}: {exc}".strip().splitlines()
    line = text[0] if text else type(exc).__name__
    return line[:200]


def measure(backend, cases, label):
    failing = {}
    start = time.perf_counter()
    for k, case in enumerate(cases):
        try:
            run_case(case, backend)
        except BaseException as exc:  # noqa: BLE001 - any failure is recorded with its reason
            if isinstance(exc, KeyboardInterrupt):
                raise
            failing[case.name] = _reason(exc)
        if (k + 1) % 200 == 0:
            print(f"[{label}] {k + 1}/{len(cases)} ({len(failing)} failing)", file=sys.stderr)
    return failing, time.perf_counter() - start


def main() -> int:
    import onnxruntime.backend as ort_backend

    import acl_sim.onnx_backend as acl_backend

    cases = node_cases()
    ort_failing, ort_s = measure(ort_backend, cases, "onnxruntime")
    eligible = [c for c in cases if c.name not in ort_failing]
    acl_failing, acl_s = measure(acl_backend, eligible, "acl_sim")
    with open(STATUS_FILE, "w") as f:
        json.dump({"ort_failing": dict(sorted(ort_failing.items())),
                   "acl_sim_failing": dict(sorted(acl_failing.items()))}, f, indent=1)
        f.write("\n")
    passed = len(eligible) - len(acl_failing)
    print(f"node tests after exclusions: {len(cases)}; onnxruntime passes {len(eligible)} ({ort_s:.0f} s)")
    print(f"acl_sim passes {passed}/{len(eligible)} = {100.0 * passed / max(len(eligible), 1):.1f}% ({acl_s:.0f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
