"""ATC benchmark: memory-plan figures per zoo model, compile times, cached recompile.

    PYTHONPATH=python python bench/bench_memplan.py [--out bench/results/atc.md]

Compile times are reported next to a reference measured in the same run:
creating an onnxruntime InferenceSession (full graph optimisation) for the
same model. The cached recompile is reported as a ratio to the cold compile.
"""
from __future__ import annotations

import argparse
import os
import platform
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "tests"))
sys.path.insert(0, os.path.join(HERE, "..", "python"))

import models  # noqa: E402
from acl_sim.compiler import compile_model  # noqa: E402
from acl_sim.compiler.memory_plan import Buffer, greedy_by_size, lower_bound  # noqa: E402

# Pisarchyk & Lee 2020, (first, last, size) of the 8-tensor example.
PAPER_EXAMPLE = [(0, 1, 32), (1, 4, 28), (2, 5, 36), (3, 5, 16), (4, 5, 8), (5, 7, 64), (6, 8, 10), (7, 8, 40)]


def zoo():
    """(label, model, options) for every zoo entry, as the tests compile them."""
    entries = [(f"light_{name}", path, {}) for name, path in models.light_models().items()]
    ocr = models.ppocr_models()
    entries += [
        ("PP-OCRv4 det (hw 640x640;960x960)", ocr["det"],
         dict(input_shape="x:1,3,-1,-1", dynamic_image_size="640,640;960,960")),
        ("PP-OCRv4 rec (w 320;640)", ocr["rec"],
         dict(input_shape="x:1,3,48,-1", input_format="ND", dynamic_dims="320;640")),
        ("ppocr cls (batch 1;6)", ocr["cls"], dict(input_shape="x:-1,3,48,192", dynamic_batch_size="1,6")),
        ("transformer encoder (2 layers, d=64, seq 16)", models.transformer_encoder(), {}),
    ]
    return entries


def ort_session_seconds(path) -> float:
    import onnxruntime as ort

    so = ort.SessionOptions()
    so.log_severity_level = 3
    start = time.perf_counter()
    ort.InferenceSession(path, so, providers=["CPUExecutionProvider"])
    return time.perf_counter() - start


def mib(n: int) -> str:
    return f"{n / (1 << 20):.2f}"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--out", default=None, help="write the markdown table here")
    args = parser.parse_args(argv)
    lines = ["## ATC (acl-sim atc): memory planning and compile time", "",
             "Reproduce: `PYTHONPATH=python python bench/bench_memplan.py --out bench/results/atc.md`", "",
             f"Machine: {platform.machine()}, {os.cpu_count()} CPUs, Python {platform.python_version()}.", "",
             "### Workspace memory plan per model (largest profile)", "",
             "| model | tensors (naive) MiB | planned MiB | lower bound MiB | planned / lower bound | naive / planned | in-place ops | compile s |",
             "|---|---|---|---|---|---|---|---|"]
    worst = 0.0
    with tempfile.TemporaryDirectory() as tmp:
        os.environ["ACL_SIM_ATC_CACHE"] = "0"
        for label, model, opts in zoo():
            start = time.perf_counter()
            report = compile_model(model, os.path.join(tmp, "m"), cache=False, **opts)
            seconds = time.perf_counter() - start
            plan = max(report["memplan"], key=lambda p: p["naive_bytes"])
            ratio = plan["planned_bytes"] / plan["lower_bound_bytes"]
            worst = max(worst, max(p["planned_bytes"] / p["lower_bound_bytes"] for p in report["memplan"]))
            lines.append(f"| {label} | {mib(plan['naive_bytes'])} | {mib(plan['planned_bytes'])} | "
                         f"{mib(plan['lower_bound_bytes'])} | {ratio:.3f} | {plan['naive_bytes'] / plan['planned_bytes']:.1f}x | "
                         f"{plan['inplace_count']} | {seconds:.2f} |")
            print(lines[-1], flush=True)
        lines += ["", f"Worst planned / lower bound over all profiles of all models: **{worst:.3f}** (bar: 1.05).", ""]
        paper = [Buffer(*t) for t in PAPER_EXAMPLE]
        lines += ["Pisarchyk & Lee 8-tensor example: naive "
                  f"{sum(b.size for b in paper)}, lower bound {lower_bound(paper)}, greedy-by-size "
                  f"**{greedy_by_size(paper)}** (paper and reference: 234 / 124 / 124).", ""]
        # resnet50: cold compile vs onnxruntime session creation vs cached recompile.
        r50 = models.light_model("resnet50")
        cold = []
        for _ in range(3):
            start = time.perf_counter()
            compile_model(r50, os.path.join(tmp, "r50"), cache=False)
            cold.append(time.perf_counter() - start)
        ort_ref = min(ort_session_seconds(r50) for _ in range(3))
        os.environ["ACL_SIM_ATC_CACHE_DIR"] = os.path.join(tmp, "cache")
        os.environ["ACL_SIM_ATC_CACHE"] = "1"
        compile_model(r50, os.path.join(tmp, "r50c"))
        cached = []
        for _ in range(3):
            start = time.perf_counter()
            rep = compile_model(r50, os.path.join(tmp, "r50c"))
            assert rep["cached"]
            cached.append(time.perf_counter() - start)
        start = time.perf_counter()
        compile_model(r50, os.path.join(tmp, "r50d"), cache=False, input_shape="gpu_0/data_0:-1,3,224,224",
                      dynamic_batch_size=",".join(str(b) for b in range(1, 11)))
        dyn10 = time.perf_counter() - start
        c, k = min(cold), min(cached)
        lines += ["### light_resnet50 compile time", "",
                  "| what | seconds (best of 3) | ratio |", "|---|---|---|",
                  f"| onnxruntime InferenceSession creation (reference) | {ort_ref:.3f} | 1.0 |",
                  f"| ATC cold compile (cache off) | {c:.3f} | {c / ort_ref:.1f}x the reference |",
                  f"| ATC recompile, cache hit | {k:.3f} | {k / c:.3f} of the cold compile |",
                  f"| ATC cold compile, 10 dynamic-batch profiles | {dyn10:.3f} | {dyn10 / c:.1f}x the 1-profile compile |",
                  ""]
    text = "\n".join(lines)
    print(text)
    if args.out:
        with open(args.out, "w", encoding="utf-8") as f:
            f.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
