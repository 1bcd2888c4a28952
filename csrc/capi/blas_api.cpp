// aclblas* (acl/ops/acl_cblas.h). As on CANN, each call is CANN's "GEMM" single
// op: the arguments become tensor descs (A {m,k} or {k,m} or fractal, ...) and
// transpose attributes, the op resolves through the single-op store (so a GEMM
// model loaded with aclopSetModelDir must match, as on CANN), and it runs as a
// task on the stream. GEMV is GEMM with n = 1. Validation follows CANN's order
// and codes: NULL pointers, m/n/k <= 0, bad trans / compute enums and leading
// dimensions other than -1 give ACL_ERROR_INVALID_PARAM.
#include <string>
#include <vector>

#include "acl/ops/acl_cblas.h"
#include "capi/api_guard.h"
#include "capi/op_handle.h"
#include "common/error.h"
#include "kernels/blas_gemm.h"
#include "op/singleop_store.h"
#include "op/tensor_desc.h"
#include "runtime/device.h"
#include "runtime/mem_pool.h"
#include "runtime/runtime.h"

namespace acl_sim {
namespace {

struct GemmCall {
  aclTransType trans_a, trans_b, trans_c;
  int m, n, k;
  aclDataType dtype_a, dtype_b, dtype_c;
  aclComputeType type;
};

const char* trans_name(int t) {
  switch (t) {
    case ACL_TRANS_N: return "ACL_TRANS_N";
    case ACL_TRANS_T: return "ACL_TRANS_T";
    case ACL_TRANS_NZ: return "ACL_TRANS_NZ";
    case ACL_TRANS_NZ_T: return "ACL_TRANS_NZ_T";
    default: return "unknown";
  }
}

// What both the executing and the handle-creating forms check.
void check_call(const GemmCall& g, bool gemv) {
  if (gemv)
    ACL_SIM_REQUIRE(g.m > 0 && g.k > 0, ACL_ERROR_INVALID_PARAM, "m and n must be > 0, got m=", g.m, ", n=", g.k);
  else
    ACL_SIM_REQUIRE(g.m > 0 && g.n > 0 && g.k > 0, ACL_ERROR_INVALID_PARAM, "m, n and k must be > 0, got m=", g.m,
                    ", n=", g.n, ", k=", g.k);
  for (aclTransType t : {g.trans_a, g.trans_b})
    ACL_SIM_REQUIRE(t == ACL_TRANS_N || t == ACL_TRANS_T || t == ACL_TRANS_NZ, ACL_ERROR_INVALID_PARAM,
                    gemv ? "transA" : "transA/transB", " is ", static_cast<int>(t), " (", trans_name(t),
                    "); supported: ACL_TRANS_N, ACL_TRANS_T, ACL_TRANS_NZ");
  ACL_SIM_REQUIRE(g.trans_c == ACL_TRANS_N || g.trans_c == ACL_TRANS_NZ, ACL_ERROR_INVALID_PARAM, "transC is ",
                  static_cast<int>(g.trans_c), " (", trans_name(g.trans_c),
                  "); supported: ACL_TRANS_N, ACL_TRANS_NZ");
  ACL_SIM_REQUIRE(g.type == ACL_COMPUTE_HIGH_PRECISION, ACL_ERROR_INVALID_PARAM, "type is ", static_cast<int>(g.type),
                  "; only ACL_COMPUTE_HIGH_PRECISION (0) is supported");
  ACL_SIM_REQUIRE(g.dtype_a == g.dtype_b && blas_dtypes_supported(g.dtype_a, g.dtype_c),
                  ACL_ERROR_UNSUPPORTED_DATA_TYPE, "data types A=", dtype_name(g.dtype_a), ", ",
                  gemv ? "x=" : "B=", dtype_name(g.dtype_b), ", ", gemv ? "y=" : "C=", dtype_name(g.dtype_c),
                  " are not supported; supported: float16/float16/float16, float16/float16/float32, "
                  "int8/int8/float32, int8/int8/int32");
}

BlasLayout layout_of(aclTransType t) {
  return t == ACL_TRANS_T ? BlasLayout::kTransposed : t == ACL_TRANS_NZ ? BlasLayout::kFractal : BlasLayout::kRowMajor;
}

int format_of(BlasOperand which, aclTransType t, aclDataType dtype) {
  if (t != ACL_TRANS_NZ) return ACL_FORMAT_ND;
  return which == BlasOperand::kB && dtype == ACL_INT8 ? ACL_FORMAT_FRACTAL_Z : ACL_FORMAT_FRACTAL_NZ;
}

// The GEMM op call CANN builds for these arguments: inputs a, b, c, alpha, beta; output c.
struct GemmSignature {
  std::vector<OperandSpec> in, out;
  aclopAttr attr;
};

GemmSignature signature_of(const GemmCall& g) {
  GemmSignature s;
  const struct {
    BlasOperand which;
    aclTransType trans;
    aclDataType dtype;
  } ops[] = {{BlasOperand::kA, g.trans_a, g.dtype_a}, {BlasOperand::kB, g.trans_b, g.dtype_b},
             {BlasOperand::kC, g.trans_c, g.dtype_c}};
  for (const auto& o : ops)
    s.in.push_back({o.dtype, format_of(o.which, o.trans, o.dtype),
                    blas_stored_dims(o.which, layout_of(o.trans), g.m, g.n, g.k, o.dtype)});
  s.in.push_back({g.dtype_c, ACL_FORMAT_ND, {}});  // alpha
  s.in.push_back({g.dtype_c, ACL_FORMAT_ND, {}});  // beta
  s.out.push_back(s.in[2]);
  OpAttrValue ta, tb;
  ta.kind = tb.kind = OpAttrValue::kBool;
  ta.i = g.trans_a == ACL_TRANS_T;
  tb.i = g.trans_b == ACL_TRANS_T;
  s.attr.values["transpose_a"] = ta;
  s.attr.values["transpose_b"] = tb;
  return s;
}

std::shared_ptr<CompiledOp> resolve(const GemmSignature& s) {
  return SingleOpStore::instance().resolve("GEMM", s.in, s.out, s.attr);
}

// Each operand must be device memory holding its whole tensor.
void check_device_buffer(const char* what, const void* p, size_t bytes) {
  ACL_SIM_REQUIRE(p != nullptr, ACL_ERROR_INVALID_PARAM, what, " is NULL");
  Device* d = Runtime::get().find_device_of(p);
  ACL_SIM_REQUIRE(d != nullptr, ACL_ERROR_INVALID_PARAM, what, " (", p,
                  ") is not device memory; allocate it with aclrtMalloc and copy the data in");
  try {
    d->pool().check_range(p, bytes);
  } catch (const Error& e) {
    fail(ACL_ERROR_INVALID_PARAM, what, " must hold ", bytes, " bytes: ", e.what());
  }
}

struct GemmData {
  const void* alpha;
  const void* a;
  const void* b;
  const void* beta;
  void* c;
};

void check_leading_dims(int lda, int ldb, int ldc, bool gemv) {
  ACL_SIM_REQUIRE(lda == -1 && ldb == -1 && ldc == -1, ACL_ERROR_INVALID_PARAM,
                  gemv ? "lda, incx and incy" : "lda, ldb and ldc", " are reserved and must be -1, got ", lda, ", ",
                  ldb, ", ", ldc);
}

void run_gemm(const GemmCall& g, const GemmData& d, int lda, int ldb, int ldc, bool gemv, aclrtStream stream) {
  Runtime::get().require_initialized();
  const char* names[] = {"alpha", gemv ? "a" : "matrixA", gemv ? "x" : "matrixB", "beta", gemv ? "y" : "matrixC"};
  const void* ptrs[] = {d.alpha, d.a, d.b, d.beta, d.c};
  for (int i = 0; i < 5; ++i) ACL_SIM_REQUIRE(ptrs[i] != nullptr, ACL_ERROR_INVALID_PARAM, names[i], " is NULL");
  check_call(g, gemv);
  check_leading_dims(lda, ldb, ldc, gemv);
  const GemmSignature s = signature_of(g);
  check_device_buffer(names[1], d.a, s.in[0].bytes());
  check_device_buffer(names[2], d.b, s.in[1].bytes());
  check_device_buffer(names[4], d.c, s.in[2].bytes());
  check_device_buffer("alpha", d.alpha, s.in[3].bytes());
  check_device_buffer("beta", d.beta, s.in[4].bytes());
  auto op = resolve(s);
  capi::enqueue_compiled_op(std::move(op), {d.a, d.b, d.c, d.alpha, d.beta}, {d.c}, stream);
}

void create_handle(const GemmCall& g, bool gemv, aclopHandle** handle) {
  Runtime::get().require_initialized();
  ACL_SIM_REQUIRE(handle != nullptr, ACL_ERROR_INVALID_PARAM, "handle is NULL");
  check_call(g, gemv);
  *handle = capi::add_op_handle(resolve(signature_of(g)));
}

GemmCall gemv_call(aclTransType ta, int m, int n, aclDataType da, aclDataType dx, aclDataType dy,
                   aclComputeType type) {
  // y(m) = op(A) x(n): a GEMM with n = 1 and k = n.
  return {ta, ACL_TRANS_N, ACL_TRANS_N, m, 1, n, da, dx, dy, type};
}

}  // namespace
}  // namespace acl_sim

using acl_sim::capi::api_call;
using acl_sim::GemmCall;
using acl_sim::GemmData;

extern "C" {

aclError aclblasGemmEx(aclTransType transA, aclTransType transB, aclTransType transC, int m, int n, int k,
                       const void* alpha, const void* matrixA, int lda, aclDataType dataTypeA, const void* matrixB,
                       int ldb, aclDataType dataTypeB, const void* beta, void* matrixC, int ldc,
                       aclDataType dataTypeC, aclComputeType type, aclrtStream stream) {
  return api_call("aclblasGemmEx", [&] {
    const GemmCall g{transA, transB, transC, m, n, k, dataTypeA, dataTypeB, dataTypeC, type};
    acl_sim::run_gemm(g, GemmData{alpha, matrixA, matrixB, beta, matrixC}, lda, ldb, ldc, false, stream);
  });
}

aclError aclblasCreateHandleForGemmEx(aclTransType transA, aclTransType transB, aclTransType transC, int m, int n,
                                      int k, aclDataType dataTypeA, aclDataType dataTypeB, aclDataType dataTypeC,
                                      aclComputeType type, aclopHandle** handle) {
  return api_call("aclblasCreateHandleForGemmEx", [&] {
    acl_sim::create_handle({transA, transB, transC, m, n, k, dataTypeA, dataTypeB, dataTypeC, type}, false, handle);
  });
}

aclError aclblasHgemm(aclTransType transA, aclTransType transB, aclTransType transC, int m, int n, int k,
                      const aclFloat16* alpha, const aclFloat16* matrixA, int lda, const aclFloat16* matrixB, int ldb,
                      const aclFloat16* beta, aclFloat16* matrixC, int ldc, aclComputeType type, aclrtStream stream) {
  return api_call("aclblasHgemm", [&] {
    const GemmCall g{transA, transB, transC, m, n, k, ACL_FLOAT16, ACL_FLOAT16, ACL_FLOAT16, type};
    acl_sim::run_gemm(g, GemmData{alpha, matrixA, matrixB, beta, matrixC}, lda, ldb, ldc, false, stream);
  });
}

aclError aclblasCreateHandleForHgemm(aclTransType transA, aclTransType transB, aclTransType transC, int m, int n,
                                     int k, aclComputeType type, aclopHandle** handle) {
  return api_call("aclblasCreateHandleForHgemm", [&] {
    acl_sim::create_handle({transA, transB, transC, m, n, k, ACL_FLOAT16, ACL_FLOAT16, ACL_FLOAT16, type}, false,
                           handle);
  });
}

aclError aclblasS8gemm(aclTransType transA, aclTransType transB, aclTransType transC, int m, int n, int k,
                       const int32_t* alpha, const int8_t* matrixA, int lda, const int8_t* matrixB, int ldb,
                       const int32_t* beta, int32_t* matrixC, int ldc, aclComputeType type, aclrtStream stream) {
  return api_call("aclblasS8gemm", [&] {
    const GemmCall g{transA, transB, transC, m, n, k, ACL_INT8, ACL_INT8, ACL_INT32, type};
    acl_sim::run_gemm(g, GemmData{alpha, matrixA, matrixB, beta, matrixC}, lda, ldb, ldc, false, stream);
  });
}

aclError aclblasCreateHandleForS8gemm(aclTransType transA, aclTransType transB, aclTransType transC, int m, int n,
                                      int k, aclComputeType type, aclopHandle** handle) {
  return api_call("aclblasCreateHandleForS8gemm", [&] {
    acl_sim::create_handle({transA, transB, transC, m, n, k, ACL_INT8, ACL_INT8, ACL_INT32, type}, false, handle);
  });
}

aclError aclblasGemvEx(aclTransType transA, int m, int n, const void* alpha, const void* a, int lda,
                       aclDataType dataTypeA, const void* x, int incx, aclDataType dataTypeX, const void* beta,
                       void* y, int incy, aclDataType dataTypeY, aclComputeType type, aclrtStream stream) {
  return api_call("aclblasGemvEx", [&] {
    const GemmCall g = acl_sim::gemv_call(transA, m, n, dataTypeA, dataTypeX, dataTypeY, type);
    acl_sim::run_gemm(g, GemmData{alpha, a, x, beta, y}, lda, incx, incy, true, stream);
  });
}

aclError aclblasCreateHandleForGemvEx(aclTransType transA, int m, int n, aclDataType dataTypeA,
                                      aclDataType dataTypeX, aclDataType dataTypeY, aclComputeType type,
                                      aclopHandle** handle) {
  return api_call("aclblasCreateHandleForGemvEx", [&] {
    acl_sim::create_handle(acl_sim::gemv_call(transA, m, n, dataTypeA, dataTypeX, dataTypeY, type), true, handle);
  });
}

aclError aclblasHgemv(aclTransType transA, int m, int n, const aclFloat16* alpha, const aclFloat16* a, int lda,
                      const aclFloat16* x, int incx, const aclFloat16* beta, aclFloat16* y, int incy,
                      aclComputeType type, aclrtStream stream) {
  return api_call("aclblasHgemv", [&] {
    const GemmCall g = acl_sim::gemv_call(transA, m, n, ACL_FLOAT16, ACL_FLOAT16, ACL_FLOAT16, type);
    acl_sim::run_gemm(g, GemmData{alpha, a, x, beta, y}, lda, incx, incy, true, stream);
  });
}

aclError aclblasCreateHandleForHgemv(aclTransType transA, int m, int n, aclComputeType type, aclopHandle** handle) {
  return api_call("aclblasCreateHandleForHgemv", [&] {
    acl_sim::create_handle(acl_sim::gemv_call(transA, m, n, ACL_FLOAT16, ACL_FLOAT16, ACL_FLOAT16, type), true,
                           handle);
  });
}

aclError aclblasS8gemv(aclTransType transA, int m, int n, const int32_t* alpha, const int8_t* a, int lda,
                       const int8_t* x, int incx, const int32_t* beta, int32_t* y, int incy, aclComputeType type,
                       aclrtStream stream) {
  return api_call("aclblasS8gemv", [&] {
    const GemmCall g = acl_sim::gemv_call(transA, m, n, ACL_INT8, ACL_INT8, ACL_INT32, type);
    acl_sim::run_gemm(g, GemmData{alpha, a, x, beta, y}, lda, incx, incy, true, stream);
  });
}

aclError aclblasCreateHandleForS8gemv(aclTransType transA, int m, int n, aclComputeType type, aclopHandle** handle) {
  return api_call("aclblasCreateHandleForS8gemv", [&] {
    acl_sim::create_handle(acl_sim::gemv_call(transA, m, n, ACL_INT8, ACL_INT8, ACL_INT32, type), true, handle);
  });
}

}  // extern "C"
