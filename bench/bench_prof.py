"""Profiler overhead on resnet50 (issue 7: <= 10%).

    PYTHONPATH=python python bench/bench_prof.py [--runs 7] [--out bench/results/prof.md]

light_resnet50 with seeded random weights, compiled by ATC, run through plain `import acl`
calls (the demo's classifier). Runs alternate between profiler off and on (aclprof start/stop
around the timed execute; writing the files is outside the timing), and the ratio is the
median on / median off in the same process.
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time


def main() -> int:
    p = argparse.ArgumentParser()
    p.add_argument("--runs", type=int, default=7)
    p.add_argument("--out", default=None)
    a = p.parse_args()

    import acl
    import onnx

    from acl_sim.compiler import compile_model
    from acl_sim.demo import AclClassifier, light_model_path, randomize_light_model, sample_image

    with tempfile.TemporaryDirectory() as tmp:
        model = randomize_light_model(onnx.load(light_model_path("resnet50")), seed=0)
        src = os.path.join(tmp, "resnet50.onnx")
        onnx.save(model, src)
        compile_model(src, os.path.join(tmp, "resnet50"))
        clf = AclClassifier(acl, os.path.join(tmp, "resnet50.om"))
        clf.feed(sample_image(clf.input_dims, 0))
        clf.execute()  # warm-up
        assert acl.prof.init(os.path.join(tmp, "prof")) == 0
        cfg = acl.prof.create_config([0], 0, 0, 0x2)
        off, on = [], []
        for _ in range(a.runs):
            t = time.perf_counter()
            clf.execute()
            off.append(time.perf_counter() - t)
            assert acl.prof.start(cfg) == 0
            t = time.perf_counter()
            clf.execute()
            on.append(time.perf_counter() - t)
            assert acl.prof.stop(cfg) == 0
        acl.prof.destroy_config(cfg)
        acl.prof.finalize()
        with open(os.path.join(tmp, "prof", "op_summary.csv")) as f:
            ops = sum(1 for _ in f) - 1
        clf.release()
    m_off, m_on = statistics.median(off), statistics.median(on)
    ratio = m_on / m_off
    lines = [
        "## Profiler overhead (resnet50)",
        "",
        "```",
        "PYTHONPATH=python python bench/bench_prof.py --runs 7 --out bench/results/prof.md",
        "```",
        "",
        f"light_resnet50 (random weights) through `import acl`, {a.runs} alternating runs, host cores {os.cpu_count()}.",
        "",
        "| profiler | median ms |",
        "|---|---|",
        f"| off | {m_off * 1e3:.1f} |",
        f"| on (trace + op summary, {ops} ops) | {m_on * 1e3:.1f} |",
        f"| **overhead ratio on/off** | **{ratio:.3f}** (target <= 1.10) |",
        "",
    ]
    text = "\n".join(lines)
    print(text)
    if a.out:
        with open(a.out, "w", encoding="utf-8") as f:
            f.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
