// Built-in ops run in place (output buffer == input buffer), as the ATC memory
// planner schedules elementwise-style nodes, must give the same bytes as an
// out-of-place run. The Python tests cannot alias buffers, so this checks it.
#include <cmath>
#include <cstdio>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "common/error.h"
#include "kernels/op_registry.h"

using acl_sim::Attrs;
using acl_sim::OpContext;
using acl_sim::TensorView;

namespace {

int failures = 0;

struct Case {
  std::string op;
  std::vector<int64_t> shape;
  Attrs attrs;
  std::vector<std::vector<float>> extra;  // further float32 inputs (same shape unless extra_shapes)
  std::vector<std::vector<int64_t>> extra_shapes;
};

std::vector<float> make_random(size_t n, unsigned seed) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<float> dist(-3.f, 3.f);
  std::vector<float> v(n);
  for (float& x : v) x = dist(gen);
  return v;
}

void run(const Case& c, std::vector<float>& x, std::vector<float>* out) {
  OpContext ctx;
  ctx.op_type = c.op.c_str();
  ctx.attrs = &c.attrs;
  ctx.inputs.push_back(TensorView{x.data(), 0, c.shape});
  std::vector<std::vector<float>> extra = c.extra;
  for (size_t i = 0; i < extra.size(); ++i)
    ctx.inputs.push_back(TensorView{extra[i].data(), 0, i < c.extra_shapes.size() ? c.extra_shapes[i] : c.shape});
  ctx.outputs.push_back(TensorView{out ? out->data() : x.data(), 0, c.shape});
  acl_sim::OpFn fn = acl_sim::find_op(c.op);
  if (!fn) {
    std::printf("FAIL %s: not registered\n", c.op.c_str());
    ++failures;
    return;
  }
  fn(ctx);
}

void check(const Case& c) {
  size_t n = 1;
  for (int64_t d : c.shape) n *= static_cast<size_t>(d);
  std::vector<float> x = make_random(n, 7), ref(n);
  run(c, x, &ref);
  run(c, x, nullptr);  // in place
  if (std::memcmp(x.data(), ref.data(), n * sizeof(float)) != 0) {
    std::printf("FAIL %s: in-place result differs from out-of-place\n", c.op.c_str());
    ++failures;
  } else {
    std::printf("ok   %s\n", c.op.c_str());
  }
}

}  // namespace

int main() {
  const std::vector<int64_t> shape = {2, 6, 5, 37};
  const size_t n = 2 * 6 * 5 * 37;
  std::vector<Case> cases;
  for (const char* op : {"Relu", "Sigmoid", "Tanh", "Exp", "Gelu", "HardSwish", "Softmax", "LogSoftmax",
                         "LRN", "Identity", "MeanVarianceNormalization"}) {
    Case c{op, shape, {}, {}, {}};
    if (std::string(op) == "LRN") c.attrs.set("size", int64_t{5});
    cases.push_back(c);
  }
  Case soft_mid{"LogSoftmax", shape, {}, {}, {}};
  soft_mid.attrs.set("axis", int64_t{1});
  cases.push_back(soft_mid);
  auto with_inputs = [](const char* op, const std::vector<int64_t>& sh, std::vector<std::vector<float>> extra,
                        std::vector<std::vector<int64_t>> extra_shapes) {
    Case c;
    c.op = op;
    c.shape = sh;
    c.extra = std::move(extra);
    c.extra_shapes = std::move(extra_shapes);
    return c;
  };
  cases.push_back(with_inputs("Add", shape, {make_random(n, 3)}, {}));
  cases.push_back(with_inputs("Mul", shape, {make_random(37, 4)}, {{37}}));
  cases.push_back(with_inputs("LayerNormalization", shape, {make_random(37, 5), make_random(37, 6)}, {{37}, {37}}));
  cases.push_back(with_inputs("InstanceNormalization", shape, {make_random(6, 8), make_random(6, 9)}, {{6}, {6}}));
  try {
    for (const Case& c : cases) check(c);
  } catch (const acl_sim::Error& e) {
    std::printf("FAIL: error %d: %s\n", e.code(), e.what());
    return 1;
  }
  std::printf("%s (%d failures)\n", failures ? "FAILED" : "PASSED", failures);
  return failures ? 1 : 0;
}
