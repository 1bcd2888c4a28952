"""The benchmarks' timing method lives in the package, python/acl_sim/tools/timing.py, so that
`acl-sim demo` measures the same way from an installed wheel. This name stays for bench/'s scripts
(`import bench_timing as bt`): it *is* that module, not a copy (its option flags are shared state)."""
import sys

from acl_sim.tools import timing

sys.modules[__name__] = timing
