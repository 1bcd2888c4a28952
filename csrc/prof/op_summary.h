// The op summary: per (name, type) aggregation of executed ops, with the
// time the op would take on the profiled SoC from a roofline model:
//
//   est_us = max(flops / peak_flops, bytes / bandwidth) * 1e6
//   peak_flops = cube peak (cube ops: MatMul, Gemm, Conv...) or vector peak
//     cube peak   = cube_cores x 4096 MAC/cycle x 2 x clock      (ACL_SIM_CUBE_TFLOPS overrides)
//     vector peak = vector cores x 64 lanes/cycle x clock        (ACL_SIM_VECTOR_TFLOPS overrides)
//   bandwidth = the SoC's device-memory bandwidth                 (ACL_SIM_HBM_GBPS overrides)
//
// Launch overheads and L2 reuse are ignored: the estimate is a lower bound.
#pragma once

#include <string>
#include <vector>

#include "common/export.h"
#include "prof/profiler.h"

namespace acl_sim::prof {

struct Roofline {
  double cube_flops_per_s;
  double vector_flops_per_s;
  double bytes_per_s;
  /** Estimated NPU time of one op in microseconds. */
  double estimate_us(const OpRecord& r) const;
};

/** The roofline of the named SoC (or the current one when empty), with env overrides applied. */
ACL_SIM_EXPORT Roofline roofline_for(const std::string& soc);

void write_op_summary(const std::string& path, const std::vector<OpRecord>& ops, const std::string& soc);

}  // namespace acl_sim::prof
