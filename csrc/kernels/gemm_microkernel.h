// Register-tiled GEMM micro-kernels (internal to the GEMM driver).
//
// A micro-kernel computes one MR x (NV*lanes) tile of C from a packed A
// micro-panel (kc steps of MR floats) and a packed B strip (kc steps of
// NV*lanes floats), keeping the whole tile in vector registers.
#pragma once

#include <cstdint>

namespace acl_sim {

/**
 * c[i*ldc + j] (=|+=) sum_k a[k*MR + i] * b[k*width + j] for i < m_valid, j < n_valid,
 * where width = NV*lanes. accumulate=false overwrites C; rows/columns past the
 * valid counts are never touched.
 */
using MicroKernelFn = void (*)(int64_t kc, const float* a, const float* b, float* c, int64_t ldc, int m_valid,
                               int n_valid, bool accumulate);

struct MicroKernelSet {
  const char* name;
  int mr;                  // rows per micro-tile
  int lanes;               // floats per vector
  int max_nv;              // widest kernel, in vectors
  MicroKernelFn fn[4];     // fn[nv-1] handles strips of nv vectors (nv in [1, max_nv])
};

/** The best set for this host (cpu_features().isa). */
const MicroKernelSet& micro_kernels();

}  // namespace acl_sim
