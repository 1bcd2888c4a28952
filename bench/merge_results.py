"""Build bench/RESULTS.md from the per-area result files in bench/results/.

    python bench/merge_results.py

Each bench/results/<area>.md starts with the command that reproduces it.
"""
import os

HERE = os.path.dirname(os.path.abspath(__file__))
ORDER = ["model", "model_path", "balance", "kernels", "blas", "hccl", "rt", "exec", "atc", "prof", "dvpp", "mdlapi",
         "onnxcov", "hard"]


def main() -> None:
    results = os.path.join(HERE, "results")
    names = sorted(f[:-3] for f in os.listdir(results) if f.endswith(".md"))
    names.sort(key=lambda n: ORDER.index(n) if n in ORDER else len(ORDER))
    out = ["# acl_sim benchmark results", "",
           "Machines: each section names its host and the library commit it ran; every run prints the CPU model, ISA",
           "and load (the `CPU:` lines). Three hosts so far, all 2-vCPU VMs: an Intel Xeon with AVX-512 (stops 23-30),",
           "an AMD EPYC Zen 3 with AVX2 only (stop 31, the host of issue 11) and an AMD EPYC Zen 4 with AVX-512 (stops 32-43,",
           "both ISAs measured there).",
           "Every figure is a ratio to a reference measured in the same run (NumPy/OpenBLAS, onnxruntime, memcpy).",
           "Compute figures use acl_sim.tools.timing (python/acl_sim/tools/timing.py; bench/ imports it as bench_timing, `acl-sim demo` uses it too): wall clock, all cores on both sides, the two calls",
           "alternated after a warm-up, both medians and the median of the per-pair ratios.",
           "Each section names the command that reproduces it. Regenerate this file with `python bench/merge_results.py`.",
           ""]
    for n in names:
        with open(os.path.join(results, n + ".md"), encoding="utf-8") as f:
            out.append(f.read().rstrip() + "\n")
    with open(os.path.join(HERE, "RESULTS.md"), "w", encoding="utf-8") as f:
        f.write("\n".join(out))


if __name__ == "__main__":
    main()
