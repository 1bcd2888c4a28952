"""The ONNX backend node tests (onnx.backend.test) as plain cases, a runner for any backend,
and the measured status lists the pytest suite uses.

Run `PYTHONPATH=python:tests python tests/onnx_backend_cases.py` to re-measure: it runs every
node test on onnxruntime and on acl_sim, rewrites tests/onnx_backend_status.json (the cases
onnxruntime fails, and acl_sim's failures with their reasons) and prints the pass-rate summary
that goes into bench/RESULTS.md. The denominator is every node test onnxruntime passes, of every
family (sequence, optional, string and training-mode tests included).
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

# Families, for the summary only: every family is measured, and the bar is every test
# onnxruntime passes (the denominator), whatever its family.
FAMILIES = {
    "training": re.compile(r"training|adagrad|adam|momentum|nesterov|gradient"),
    "sequences": re.compile(r"^test_(sequence_|split_to_sequence|concat_from_sequence|identity_sequence|if_seq|"
                            r"loop13_seq|loop16_seq)|^test_optional_.*sequence"),
    "strings": re.compile(r"string|strnorm|regex|_str_|_str$|label_encoder"),
    "random": re.compile(r"^test_(random|bernoulli|multinomial)"),
    "optional": re.compile(r"optional|_opt$"),
}


def family(name: str) -> str:
    for fam, pattern in FAMILIES.items():
        if pattern.search(name):
            return fam
    return "tensor"


_CASES = None


def node_cases():
    """Every node test case of the installed onnx wheel (generated in memory by onnx)."""
    global _CASES
    if _CASES is None:
        import onnx.backend.test.loader as loader

        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            _CASES = loader.load_model_tests(kind="node")
    return _CASES


def load_status() -> dict:
    if not os.path.exists(STATUS_FILE):
        return {"ort_failing": {}, "acl_sim_failing": {}}
    with open(STATUS_FILE) as f:
        return json.load(f)


def _check_value(where, e, g, rtol, atol):
    """One output value: a tensor, a sequence (list) of values, or an absent optional (None)."""
    if e is None:
        assert g is None, f"{where}: expected an empty optional, got {type(g).__name__}"
        return
    if isinstance(e, list):
        assert isinstance(g, (list, tuple)), f"{where}: expected a sequence, got {type(g).__name__}"
        assert len(g) == len(e), f"{where}: sequence of {len(g)}, expected {len(e)}"
        for k, (ek, gk) in enumerate(zip(e, g)):
            _check_value(f"{where}[{k}]", ek, gk, rtol, atol)
        return
    e, g = np.asarray(e), np.asarray(g)
    assert g.dtype == e.dtype, f"{where}: dtype {g.dtype}, expected {e.dtype}"
    assert g.shape == e.shape, f"{where}: shape {g.shape}, expected {e.shape}"
    if e.dtype == object:
        assert list(g.ravel()) == list(e.ravel()), f"{where} differs"
    elif e.dtype.kind in "fc":
        np.testing.assert_allclose(g, e, rtol=rtol, atol=atol, err_msg=where)
    else:
        np.testing.assert_array_equal(g, e, err_msg=where)


def check_outputs(expected, got, rtol, atol):
    assert len(got) == len(expected), f"{len(got)} outputs, expected {len(expected)}"
    for i, (e, g) in enumerate(zip(expected, got)):
        _check_value(f"output {i}", e, g, rtol, atol)


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
    """The failure in one line: the exception's first line, or for a bare assertion (NumPy's
    assert_allclose starts with an empty line) its first lines that say what differs."""
    lines = [ln.strip() for ln in str(exc).splitlines() if ln.strip()]
    head = f"{type(exc).__name__}: {lines[0] if lines else ''}".strip()
    if isinstance(exc, AssertionError) and str(exc).startswith("\n") and lines:
        head = f"{type(exc).__name__}: " + "; ".join(lines[:4])
    return head[:200]


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


def summary(cases, ort_failing: dict, acl_failing: dict) -> str:
    """The pass-rate table (per family and in total) that goes into bench/RESULTS.md."""
    rows = {}
    for c in cases:
        r = rows.setdefault(family(c.name), [0, 0, 0])
        r[0] += 1
        if c.name not in ort_failing:
            r[1] += 1
            r[2] += c.name not in acl_failing
    lines = ["| family | node tests | onnxruntime passes | acl_sim passes |", "|---|---|---|---|"]
    for fam in sorted(rows, key=lambda f: -rows[f][0]):
        n, o, a = rows[fam]
        lines.append(f"| {fam} | {n} | {o} | {a} |")
    n, o, a = (sum(r[k] for r in rows.values()) for k in range(3))
    lines.append(f"| **all** | **{n}** | **{o}** | **{a} = {100.0 * a / max(o, 1):.1f} %** |")
    return "\n".join(lines)


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
    print(f"node tests: {len(cases)} (every family); onnxruntime passes {len(eligible)} ({ort_s:.0f} s)")
    print(f"acl_sim passes {passed}/{len(eligible)} = {100.0 * passed / max(len(eligible), 1):.1f}% "
          f"of the tests onnxruntime passes ({acl_s:.0f} s)")
    print(summary(cases, ort_failing, acl_failing))
    return 0


if __name__ == "__main__":
    sys.exit(main())
