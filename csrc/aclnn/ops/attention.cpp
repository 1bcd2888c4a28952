#include "aclnn/ops/attention.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "executor/thread_pool.h"
#include "kernels/gemm.h"
#include "op/tensor_desc.h"

namespace acl_sim::aclnn {
namespace {

void check_float(const char* op, const TensorArg& t, const char* what) {
  require_nd(op, t, what);
  require_dtype(op, t, what, kFloatTypes);
}

}  // namespace

Plan plan_softmax(const char* op, const char* kernel, TensorArg self, int64_t dim, TensorArg out) {
  check_float(op, self, "self");
  check_float(op, out, "out");
  require_shape(op, out, self.shape, "out");
  const int64_t d = normalize_dim(op, dim, self.rank());
  std::string k = kernel;
  return plan_of([k, d, self = std::move(self), out = std::move(out)] {
    Dense x = read_dense(self, ACL_FLOAT);
    Dense o = output_dense(out, ACL_FLOAT);
    Attrs at;
    at.set("axis", d);
    run_kernel(k.c_str(), {x.view()}, {o.view()}, &at);
    commit(o, out);
  });
}

Plan plan_softmax_cross_entropy(const char* op, TensorArg features, TensorArg labels, TensorArg loss,
                                TensorArg backprop) {
  check_float(op, features, "features");
  check_float(op, labels, "labels");
  check_float(op, loss, "loss");
  check_float(op, backprop, "backprop");
  ACLNN_REQUIRE(features.rank() == 2 && labels.shape == features.shape, op, ": features and labels must be the same "
                "[N, C], got ", dims_to_string(features.shape), " and ", dims_to_string(labels.shape));
  require_shape(op, backprop, features.shape, "backprop");
  ACLNN_REQUIRE(loss.numel() == features.shape[0], op, ": loss must have N = ", features.shape[0], " elements");
  return plan_of([features = std::move(features), labels = std::move(labels), loss = std::move(loss),
                  backprop = std::move(backprop)] {
    Dense x = read_dense(features, ACL_FLOAT), l = read_dense(labels, ACL_FLOAT);
    Dense ls(ACL_FLOAT, features.shape), p(ACL_FLOAT, features.shape), prod(ACL_FLOAT, features.shape);
    Attrs at;
    at.set("axis", int64_t{-1});
    run_kernel("LogSoftmax", {x.view()}, {ls.view()}, &at);
    run_kernel("Softmax", {x.view()}, {p.view()}, &at);
    run_kernel("Mul", {l.view(), ls.view()}, {prod.view()});
    Dense sum(ACL_FLOAT, {features.shape[0]});
    Dense axes(ACL_INT64, {1});
    *static_cast<int64_t*>(axes.data()) = 1;
    run_kernel("ReduceSum", {prod.view(), axes.view()}, {sum.view()});
    run_kernel("Neg", {sum.view()}, {sum.view()});
    commit(sum, loss);
    run_kernel("Sub", {p.view(), l.view()}, {p.view()});
    commit(p, backprop);
  });
}

Plan plan_rope(const char* op, TensorArg x, TensorArg cos, TensorArg sin, int64_t mode, TensorArg y) {
  check_float(op, x, "x");
  check_float(op, cos, "cos");
  check_float(op, sin, "sin");
  check_float(op, y, "yOut");
  require_shape(op, y, x.shape, "yOut");
  ACLNN_REQUIRE(mode == 0 || mode == 1, op, ": mode ", mode,
                " is not supported (0 = half rotation, 1 = interleaved pairs)");
  ACLNN_REQUIRE(x.rank() >= 1 && x.shape.back() % 2 == 0, op, ": the last dim of x must be even, got ",
                dims_to_string(x.shape));
  ACLNN_REQUIRE(cos.shape == sin.shape && broadcasts_to(cos.shape, x.shape), op, ": cos ", dims_to_string(cos.shape),
                " and sin ", dims_to_string(sin.shape), " must be equal and broadcast to x ", dims_to_string(x.shape));
  return plan_of([op, mode, x = std::move(x), cos = std::move(cos), sin = std::move(sin), y = std::move(y)] {
    using kern::StridedView;
    Dense xf = read_dense(x, ACL_FLOAT);
    const int64_t d = x.shape.back(), h = d / 2;
    // rotate(x): half mode [-x2, x1]; interleaved mode pairs (-x[2i+1], x[2i]). Built as strided copies, then
    // a sign vector.
    Dense rot(ACL_FLOAT, x.shape), sign(ACL_FLOAT, {d});
    float* sg = static_cast<float*>(sign.data());
    StridedView src = strided(xf), dst = strided(rot);
    auto part = [](StridedView v, int64_t start, int64_t len, int64_t step) {
      v.offset += start;
      v.shape.back() = len;
      v.strides.back() *= step;
      return v;
    };
    if (mode == 0) {
      kern::strided_copy(op, part(src, h, h, 1), part(dst, 0, h, 1));
      kern::strided_copy(op, part(src, 0, h, 1), part(dst, h, h, 1));
      for (int64_t i = 0; i < d; ++i) sg[i] = i < h ? -1.f : 1.f;
    } else {
      kern::strided_copy(op, part(src, 1, h, 2), part(dst, 0, h, 2));
      kern::strided_copy(op, part(src, 0, h, 2), part(dst, 1, h, 2));
      for (int64_t i = 0; i < d; ++i) sg[i] = i % 2 == 0 ? -1.f : 1.f;
    }
    run_kernel("Mul", {rot.view(), sign.view()}, {rot.view()});
    Dense c = read_dense(cos, ACL_FLOAT), s = read_dense(sin, ACL_FLOAT);
    Dense t(ACL_FLOAT, x.shape);
    run_kernel("Mul", {xf.view(), c.view()}, {t.view()});
    run_kernel("Mul", {rot.view(), s.view()}, {rot.view()});
    Dense o = output_dense(y, ACL_FLOAT);
    run_kernel("Add", {t.view(), rot.view()}, {o.view()});
    commit(o, y);
  });
}

namespace {

/** Dims of an attention operand as [B, S, N, D] (strides permuted accordingly). */
struct Bsnd {
  std::vector<int64_t> shape, strides;
};

Bsnd as_bsnd(const char* op, const TensorArg& t, const std::string& layout, int64_t heads, const char* what) {
  Bsnd r;
  if (layout == "BSND" || layout == "BNSD") {
    ACLNN_REQUIRE(t.rank() == 4, op, ": ", what, " must be 4-D for layout ", layout, ", got ", dims_to_string(t.shape));
    if (layout == "BSND") {
      r.shape = t.shape;
      r.strides = t.strides;
    } else {
      r.shape = {t.shape[0], t.shape[2], t.shape[1], t.shape[3]};
      r.strides = {t.strides[0], t.strides[2], t.strides[1], t.strides[3]};
    }
  } else if (layout == "BSH") {
    ACLNN_REQUIRE(t.rank() == 3 && heads > 0 && t.shape[2] % heads == 0, op, ": ", what, " must be [B, S, H] with H "
                  "a multiple of the head count for layout BSH, got ", dims_to_string(t.shape));
    const int64_t dd = t.shape[2] / heads;
    r.shape = {t.shape[0], t.shape[1], heads, dd};
    r.strides = {t.strides[0], t.strides[1], t.strides[2] * dd, t.strides[2]};
  } else {
    fail(ACLNN_ERR_PARAM_INVALID, op, ": inputLayout '", layout, "' is not supported (BSND, BNSD, BSH)");
  }
  return r;
}

}  // namespace

Plan plan_fused_attention(const char* op, AttentionArgs a) {
  check_float(op, a.q, "query");
  check_float(op, a.k, "key");
  check_float(op, a.v, "value");
  check_float(op, a.out, "attentionOut");
  ACLNN_REQUIRE(a.heads > 0, op, ": numHeads must be positive, got ", a.heads);
  if (a.kv_heads == 0) a.kv_heads = a.heads;
  ACLNN_REQUIRE(a.kv_heads > 0 && a.heads % a.kv_heads == 0, op, ": numKeyValueHeads ", a.kv_heads,
                " must divide numHeads ", a.heads);
  Bsnd q = as_bsnd(op, a.q, a.layout, a.heads, "query");
  Bsnd k = as_bsnd(op, a.k, a.layout, a.kv_heads, "key");
  Bsnd v = as_bsnd(op, a.v, a.layout, a.kv_heads, "value");
  Bsnd o = as_bsnd(op, a.out, a.layout, a.heads, "attentionOut");
  const int64_t B = q.shape[0], S = q.shape[1], N = q.shape[2], D = q.shape[3];
  const int64_t Skv = k.shape[1], Nkv = k.shape[2];
  ACLNN_REQUIRE(N == a.heads && Nkv == a.kv_heads, op, ": query has ", N, " heads and key ", Nkv,
                "; numHeads / numKeyValueHeads say ", a.heads, " / ", a.kv_heads);
  ACLNN_REQUIRE(k.shape[0] == B && k.shape[3] == D && v.shape[0] == B && v.shape[1] == Skv && v.shape[2] == Nkv, op,
                ": key ", dims_to_string(a.k.shape), " / value ", dims_to_string(a.v.shape), " do not match query ",
                dims_to_string(a.q.shape));
  const int64_t Dv = v.shape[3];
  ACLNN_REQUIRE(o.shape == std::vector<int64_t>({B, S, N, Dv}), op, ": attentionOut ", dims_to_string(a.out.shape),
                " does not match query / value");
  const std::vector<int64_t> score_shape{B, N, S, Skv};
  for (const TensorArg* m : {&a.pse, &a.mask})
    if (m->present())
      ACLNN_REQUIRE(broadcasts_to(m->shape, score_shape), op, ": pse / attenMask ", dims_to_string(m->shape),
                    " does not broadcast to [B, N, S, Skv] = ", dims_to_string(score_shape));
  if (a.pse.present()) check_float(op, a.pse, "pseShift");
  if (a.mask.present()) require_dtype(op, a.mask, "attenMask", {ACL_BOOL, ACL_INT8, ACL_UINT8});
  return plan_of([op, a = std::move(a), q, k, v, o, B, S, N, D, Skv, Nkv, Dv, score_shape] {
    using kern::StridedView;
    // Operands as dense fp32 [B, S, N, D] (query / key / value gathered through their strides).
    auto dense_bsnd = [&](const TensorArg& t, const Bsnd& l) {
      Dense d(ACL_FLOAT, l.shape);
      kern::strided_copy(op, StridedView{t.data, t.dtype, l.shape, l.strides, t.offset}, strided(d));
      return d;
    };
    Dense qf = dense_bsnd(a.q, q), kf = dense_bsnd(a.k, k), vf = dense_bsnd(a.v, v);
    const float* qp = static_cast<const float*>(qf.data());
    const float* kp = static_cast<const float*>(kf.data());
    const float* vp = static_cast<const float*>(vf.data());
    Dense of(ACL_FLOAT, {B, S, N, Dv});
    float* outp = static_cast<float*>(of.data());
    const int64_t group = N / Nkv;
    // The pse shift and mask as [B, N, S, Skv] views (broadcast dims step 0), sliced per head below.
    auto score_view = [&](const TensorArg& t) {
      StridedView v = strided(t);
      while (v.shape.size() < 4) v.shape.insert(v.shape.begin(), 1), v.strides.insert(v.strides.begin(), 0);
      for (size_t d = 0; d < 4; ++d)
        if (v.shape[d] == 1 && score_shape[d] != 1) v.shape[d] = score_shape[d], v.strides[d] = 0;
      return v;
    };
    const StridedView pse = a.pse.present() ? score_view(a.pse) : StridedView{};
    const StridedView mask = a.mask.present() ? score_view(a.mask) : StridedView{};
    auto head_slice = [](StridedView v, int64_t b, int64_t n) {
      v.offset += b * v.strides[0] + n * v.strides[1];
      v.shape.erase(v.shape.begin(), v.shape.begin() + 2);
      v.strides.erase(v.strides.begin(), v.strides.begin() + 2);
      return v;
    };
    Attrs at;
    at.set("axis", int64_t{-1});
    // One head at a time per pool index: its [S, Skv] scores live only while that head runs.
    ThreadPool::instance().parallel_for(static_cast<size_t>(B * N), [&](size_t i) {
      const int64_t b = static_cast<int64_t>(i) / N, n = static_cast<int64_t>(i) % N;
      Dense scores(ACL_FLOAT, {S, Skv}), probs(ACL_FLOAT, {S, Skv});
      float* sc = static_cast<float*>(scores.data());
      const float* qb = qp + (b * S * N + n) * D;
      const float* kb = kp + (b * Skv * Nkv + n / group) * D;
      gemm_f32(S, Skv, D, static_cast<float>(a.scale), MatrixRef{qb, N * D, 1}, MatrixRef{kb, 1, Nkv * D}, 0.f, sc, Skv,
               {}, false);
      if (a.pse.present()) {
        Dense shift(ACL_FLOAT, {S, Skv});
        kern::strided_copy(op, head_slice(pse, b, n), strided(shift));
        run_kernel("Add", {scores.view(), shift.view()}, {scores.view()});
      }
      if (a.mask.present()) {  // masked (non-zero) positions take no weight
        Dense m(ACL_FLOAT, {S, Skv});
        kern::strided_copy(op, head_slice(mask, b, n), strided(m));
        const float* mp = static_cast<const float*>(m.data());
        for (int64_t e = 0; e < S * Skv; ++e)
          if (mp[e] != 0.f) sc[e] = -std::numeric_limits<float>::infinity();
      }
      run_kernel("Softmax", {scores.view()}, {probs.view()}, &at);
      float* pp = static_cast<float*>(probs.data());
      // A row whose every position is masked has no distribution: it attends to nothing (zeros), not NaN.
      for (int64_t e = 0; e < S * Skv; ++e)
        if (pp[e] != pp[e]) pp[e] = 0.f;
      const float* vb = vp + (b * Skv * Nkv + n / group) * Dv;
      gemm_f32(S, Dv, Skv, 1.f, MatrixRef{pp, Skv, 1}, MatrixRef{vb, Nkv * Dv, 1}, 0.f, outp + (b * S * N + n) * Dv,
               N * Dv, {}, false);
    });
    kern::strided_copy(op, strided(of), StridedView{a.out.data, a.out.dtype, o.shape, o.strides, a.out.offset});
  });
}

}  // namespace acl_sim::aclnn
