"""The GEMM conv paths (1x1 and implicit im2col) on weights packed once per loaded model into the micro-kernels'
panels (gemm.h: pack_a_panels, gemm_f32_packed_a). The cases of test_conv_direct_packed (ragged panels, K in
two slices, batch, groups, residual and activation epilogues, a padded 3x3) run as compiled one-node models with
every conv forced onto the GEMM with packed A, on this host's kernels and on the AVX2 ones (4-row panels),
against float64 NumPy."""

import pytest

from conftest import ON_IM2COL, isa_env, run_check_in_child

FORCE_GEMM_PACKED_A = dict(ON_IM2COL, ACL_SIM_CONV_GEMM_PACKED="all")


@pytest.mark.parametrize("isa", ["native", "avx2"])
def test_gemm_packed_a(tmp_path, isa):
    run_check_in_child("test_conv_direct_packed", f"_check_cases(__import__('pathlib').Path({str(tmp_path)!r}))",
                       **isa_env(isa, **FORCE_GEMM_PACKED_A))
