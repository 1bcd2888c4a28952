// acl.blas over the C API (acl/ops/acl_cblas.h). pyACL's argument order and
// return shapes: the executing forms return ret, the handle forms (handle, ret).
// Pointers (alpha, beta, matrices) are ints holding device addresses.
#include "acl/ops/acl_cblas.h"
#include "python/bindings.h"

namespace acl_sim::py_bind {

namespace {

aclTransType T(int v) { return static_cast<aclTransType>(v); }
aclDataType D(int v) { return static_cast<aclDataType>(v); }
aclComputeType C(int v) { return static_cast<aclComputeType>(v); }
aclrtStream S(uintptr_t v) { return static_cast<aclrtStream>(as_ptr(v)); }
template <class X>
X* P(uintptr_t v) {
  return static_cast<X*>(as_ptr(v));
}

py::tuple handle_result(aclopHandle* h, aclError ret) { return py::make_tuple(as_int(h), ret); }

}  // namespace

void bind_blas(py::module_& blas) {
  blas.def("gemm_ex", [](int ta, int tb, int tc, int m, int n, int k, uintptr_t alpha, uintptr_t a, int lda, int da,
                         uintptr_t b, int ldb, int db, uintptr_t beta, uintptr_t c, int ldc, int dc, int type,
                         uintptr_t stream) {
    return aclblasGemmEx(T(ta), T(tb), T(tc), m, n, k, P<void>(alpha), P<void>(a), lda, D(da), P<void>(b), ldb, D(db),
                         P<void>(beta), P<void>(c), ldc, D(dc), C(type), S(stream));
  });
  blas.def("create_handle_for_gemm_ex", [](int ta, int tb, int tc, int m, int n, int k, int da, int db, int dc,
                                           int type) {
    aclopHandle* h = nullptr;
    aclError ret = aclblasCreateHandleForGemmEx(T(ta), T(tb), T(tc), m, n, k, D(da), D(db), D(dc), C(type), &h);
    return handle_result(h, ret);
  });
  blas.def("hgemm", [](int ta, int tb, int tc, int m, int n, int k, uintptr_t alpha, uintptr_t a, int lda, uintptr_t b,
                       int ldb, uintptr_t beta, uintptr_t c, int ldc, int type, uintptr_t stream) {
    return aclblasHgemm(T(ta), T(tb), T(tc), m, n, k, P<aclFloat16>(alpha), P<aclFloat16>(a), lda, P<aclFloat16>(b),
                        ldb, P<aclFloat16>(beta), P<aclFloat16>(c), ldc, C(type), S(stream));
  });
  blas.def("create_handle_for_hgemm", [](int ta, int tb, int tc, int m, int n, int k, int type) {
    aclopHandle* h = nullptr;
    aclError ret = aclblasCreateHandleForHgemm(T(ta), T(tb), T(tc), m, n, k, C(type), &h);
    return handle_result(h, ret);
  });
  blas.def("s8gemm", [](int ta, int tb, int tc, int m, int n, int k, uintptr_t alpha, uintptr_t a, int lda, uintptr_t b,
                        int ldb, uintptr_t beta, uintptr_t c, int ldc, int type, uintptr_t stream) {
    return aclblasS8gemm(T(ta), T(tb), T(tc), m, n, k, P<int32_t>(alpha), P<int8_t>(a), lda, P<int8_t>(b), ldb,
                         P<int32_t>(beta), P<int32_t>(c), ldc, C(type), S(stream));
  });
  blas.def("create_handle_for_s8gemm", [](int ta, int tb, int tc, int m, int n, int k, int type) {
    aclopHandle* h = nullptr;
    aclError ret = aclblasCreateHandleForS8gemm(T(ta), T(tb), T(tc), m, n, k, C(type), &h);
    return handle_result(h, ret);
  });
  blas.def("gemv_ex", [](int ta, int m, int n, uintptr_t alpha, uintptr_t a, int lda, int da, uintptr_t x, int incx,
                         int dx, uintptr_t beta, uintptr_t y, int incy, int dy, int type, uintptr_t stream) {
    return aclblasGemvEx(T(ta), m, n, P<void>(alpha), P<void>(a), lda, D(da), P<void>(x), incx, D(dx), P<void>(beta),
                         P<void>(y), incy, D(dy), C(type), S(stream));
  });
  blas.def("create_handle_for_gemv_ex", [](int ta, int m, int n, int da, int dx, int dy, int type) {
    aclopHandle* h = nullptr;
    aclError ret = aclblasCreateHandleForGemvEx(T(ta), m, n, D(da), D(dx), D(dy), C(type), &h);
    return handle_result(h, ret);
  });
  blas.def("hgemv", [](int ta, int m, int n, uintptr_t alpha, uintptr_t a, int lda, uintptr_t x, int incx,
                       uintptr_t beta, uintptr_t y, int incy, int type, uintptr_t stream) {
    return aclblasHgemv(T(ta), m, n, P<aclFloat16>(alpha), P<aclFloat16>(a), lda, P<aclFloat16>(x), incx,
                        P<aclFloat16>(beta), P<aclFloat16>(y), incy, C(type), S(stream));
  });
  blas.def("create_handle_for_hgemv", [](int ta, int m, int n, int type) {
    aclopHandle* h = nullptr;
    aclError ret = aclblasCreateHandleForHgemv(T(ta), m, n, C(type), &h);
    return handle_result(h, ret);
  });
  blas.def("s8gemv", [](int ta, int m, int n, uintptr_t alpha, uintptr_t a, int lda, uintptr_t x, int incx,
                        uintptr_t beta, uintptr_t y, int incy, int type, uintptr_t stream) {
    return aclblasS8gemv(T(ta), m, n, P<int32_t>(alpha), P<int8_t>(a), lda, P<int8_t>(x), incx, P<int32_t>(beta),
                         P<int32_t>(y), incy, C(type), S(stream));
  });
  blas.def("create_handle_for_s8gemv", [](int ta, int m, int n, int type) {
    aclopHandle* h = nullptr;
    aclError ret = aclblasCreateHandleForS8gemv(T(ta), m, n, C(type), &h);
    return handle_result(h, ret);
  });
}

}  // namespace acl_sim::py_bind
