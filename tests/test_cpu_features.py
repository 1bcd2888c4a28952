"""CpuFeatures as the kernels see it (testing.kernel_isa()): the ISA after ACL_SIM_KERNEL_ISA, and the AVX-512
double-pumping flag that switches the conv path rules measured on AMD Zen 4 (kernels/cpu_features.h), read
against what the kernel reports in /proc/cpuinfo."""
from acl_sim._core import testing
from acl_sim.tools.timing import cpu_info
from conftest import run_check_in_child


def test_double_pumped_flag_matches_cpuinfo():
    info = cpu_info()
    k = testing.kernel_isa()
    flags = info.get("flags", "").split()
    avx512 = all(f in flags for f in ("avx512f", "avx512bw", "avx512vl", "avx512dq"))
    zen4 = info.get("vendor_id") == "AuthenticAMD" and info.get("cpu family") == "25" and avx512
    assert k["avx512"] == (avx512 and "avx2" in flags and "fma" in flags and "f16c" in flags)
    assert k["avx512_double_pumped"] == zen4


def _capped_check(want_flag: bool):
    k = testing.kernel_isa()
    assert k["isa"] in ("avx2", "scalar")
    # The flag describes the CPU, not the cap: the rules it switches also test that the ISA is AVX-512.
    assert k["avx512_double_pumped"] == want_flag


def test_isa_cap_keeps_cpu_flag():
    flag = testing.kernel_isa()["avx512_double_pumped"]
    run_check_in_child("test_cpu_features", f"_capped_check({flag})", ACL_SIM_KERNEL_ISA="avx2")
