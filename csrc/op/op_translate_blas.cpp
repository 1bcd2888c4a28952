// CANN "GEMM" → BlasGemm; see op_translate_blas.h.
#include "op/op_translate_blas.h"

#include "acl/acl_base.h"
#include "common/error.h"
#include "kernels/blas_gemm.h"
#include "op/tensor_desc.h"

namespace acl_sim {
namespace {

using Dims = std::vector<int64_t>;

// One logical extent (m, n or k) as seen by the operands: exact from a row-major
// operand, rounded up to the fractal block from a fractal one.
struct Extent {
  int64_t exact = -1, padded = -1;
  void see(int64_t v, bool is_exact) { (is_exact ? exact : padded) = v; }
  int64_t value() const { return exact >= 0 ? exact : padded; }
};

bool flag(const TranslateInput& c, const char* name) {
  auto it = c.attr.values.find(name);
  if (it == c.attr.values.end()) return false;
  ACL_SIM_REQUIRE(it->second.kind == OpAttrValue::kBool || it->second.kind == OpAttrValue::kInt,
                  ACL_ERROR_OP_ATTR_NOT_MATCH, c.type, ": attribute '", name, "' must be a bool");
  return it->second.i != 0;
}

BlasLayout layout_of(const TranslateInput& c, size_t i, bool transposed, int fractal_format) {
  const OperandSpec& s = c.in[i];
  if (s.format == fractal_format) {
    ACL_SIM_REQUIRE(s.dims.size() == 4, ACL_ERROR_OP_INPUT_NOT_MATCH, c.type, ": input ", i,
                    " in a fractal format needs 4 dims, got ", dims_to_string(s.dims));
    ACL_SIM_REQUIRE(!transposed, ACL_ERROR_OP_ATTR_NOT_MATCH, c.type, ": input ", i,
                    " is fractal; its transpose flag must be false");
    return BlasLayout::kFractal;
  }
  ACL_SIM_REQUIRE(s.format == ACL_FORMAT_ND, ACL_ERROR_FORMAT_NOT_MATCH, c.type, ": input ", i, " has format ",
                  s.format, "; GEMM takes ND or ", fractal_format == ACL_FORMAT_FRACTAL_Z ? "FRACTAL_Z" : "FRACTAL_NZ");
  ACL_SIM_REQUIRE(s.dims.size() == 2, ACL_ERROR_OP_INPUT_NOT_MATCH, c.type, ": input ", i, " needs 2 dims, got ",
                  dims_to_string(s.dims));
  return transposed ? BlasLayout::kTransposed : BlasLayout::kRowMajor;
}

// Record what an operand of `rows x cols` (logical) says about those extents.
void observe(const Dims& d, BlasLayout layout, Extent& rows, Extent& cols, int64_t c0, bool z_layout) {
  if (layout == BlasLayout::kRowMajor) {
    rows.see(d[0], true);
    cols.see(d[1], true);
  } else if (layout == BlasLayout::kTransposed) {
    rows.see(d[1], true);
    cols.see(d[0], true);
  } else if (z_layout) {  // {ceil(rows/c0), ceil(cols/16), 16, c0}
    rows.see(d[0] * c0, false);
    cols.see(d[1] * 16, false);
  } else {  // {ceil(cols/c0), ceil(rows/16), 16, c0}
    cols.see(d[0] * c0, false);
    rows.see(d[1] * 16, false);
  }
}

}  // namespace

void translate_blas_gemm(const TranslateInput& c, OpPlan& plan) {
  ACL_SIM_REQUIRE(c.in.size() == 5, ACL_ERROR_OP_INPUT_NOT_MATCH, c.type,
                  " takes 5 inputs (a, b, c, alpha, beta), got ", c.in.size());
  ACL_SIM_REQUIRE(c.out.size() == 1, ACL_ERROR_OP_OUTPUT_NOT_MATCH, c.type, " has 1 output, got ", c.out.size());
  const int ab = c.in[0].dtype, cd = c.in[2].dtype;
  ACL_SIM_REQUIRE(c.in[1].dtype == ab, ACL_ERROR_OP_INPUT_NOT_MATCH, c.type, ": b is ", dtype_name(c.in[1].dtype),
                  " but a is ", dtype_name(ab));
  ACL_SIM_REQUIRE(blas_dtypes_supported(ab, cd), ACL_ERROR_OP_INPUT_NOT_MATCH, c.type, ": a/b ", dtype_name(ab),
                  " with c ", dtype_name(cd),
                  " is not supported (float16/float16, float16/float32, int8/float32, int8/int32)");
  for (size_t i = 3; i < 5; ++i)
    ACL_SIM_REQUIRE(c.in[i].dtype == cd && element_count(c.in[i].dims) == 1, ACL_ERROR_OP_INPUT_NOT_MATCH, c.type,
                    ": ", i == 3 ? "alpha" : "beta", " must be one ", dtype_name(cd), " value, got ",
                    dtype_name(c.in[i].dtype), " ", dims_to_string(c.in[i].dims));
  ACL_SIM_REQUIRE(c.out[0] == c.in[2], ACL_ERROR_OP_OUTPUT_NOT_MATCH, c.type,
                  ": the output desc must equal input c's desc (", dtype_name(cd), " ",
                  dims_to_string(c.in[2].dims), ")");

  const bool int8 = ab == ACL_INT8;
  const BlasLayout la = layout_of(c, 0, flag(c, "transpose_a"), ACL_FORMAT_FRACTAL_NZ);
  const BlasLayout lb = layout_of(c, 1, flag(c, "transpose_b"), int8 ? ACL_FORMAT_FRACTAL_Z : ACL_FORMAT_FRACTAL_NZ);
  const BlasLayout lc = layout_of(c, 2, false, ACL_FORMAT_FRACTAL_NZ);
  const int64_t c0 = int8 ? 32 : 16;
  Extent m, n, k;
  observe(c.in[0].dims, la, m, k, c0, false);
  observe(c.in[1].dims, lb, k, n, c0, int8);
  observe(c.in[2].dims, lc, m, n, 16, false);
  const int64_t mv = m.value(), nv = n.value(), kv = k.value();
  const struct {
    BlasOperand which;
    BlasLayout layout;
    const char* name;
  } operands[] = {{BlasOperand::kA, la, "a"}, {BlasOperand::kB, lb, "b"}, {BlasOperand::kC, lc, "c"}};
  for (size_t i = 0; i < 3; ++i) {
    const Dims want = blas_stored_dims(operands[i].which, operands[i].layout, mv, nv, kv, ab);
    ACL_SIM_REQUIRE(c.in[i].dims == want, ACL_ERROR_OP_INPUT_NOT_MATCH, c.type, ": ", operands[i].name,
                    " has shape ", dims_to_string(c.in[i].dims), " but m=", mv, ", n=", nv, ", k=", kv, " need ",
                    dims_to_string(want));
  }
  Attrs a;
  a.set("m", mv);
  a.set("n", nv);
  a.set("k", kv);
  a.set("layout_a", static_cast<int64_t>(la));
  a.set("layout_b", static_cast<int64_t>(lb));
  a.set("c_fractal", static_cast<int64_t>(lc == BlasLayout::kFractal));
  plan.steps.push_back({"BlasGemm", std::move(a),
                        {{TensorRef::kInput, 0}, {TensorRef::kInput, 1}, {TensorRef::kInput, 2},
                         {TensorRef::kInput, 3}, {TensorRef::kInput, 4}},
                        {{TensorRef::kOutput, 0}}});
}

}  // namespace acl_sim
