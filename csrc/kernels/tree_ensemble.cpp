// TreeEnsemble (ai.onnx.ml opset 5): X [N, F] (float32 / float64) -> Y [N, n_targets].
// Every tree (tree_roots) is walked per row: a node compares X[row, feature] with its split
// (modes LEQ, LT, GTE, GT, EQ, NEQ, or MEMBER of a value set; a NaN feature takes the true branch
// where nodes_missing_value_tracks_true says so) and moves to the true / false child, which is a
// node or, when the *_leafs flag is set, a leaf (weight, target). Leaf weights are aggregated per
// target over the trees: SUM, AVERAGE, MIN or MAX. post_transform must be NONE (ATC checks).
//
// ATC's lowering (passes/lowerings.py) hands the attributes over as plain lists: splits with
// NaN-free placeholders for MEMBER nodes, and each MEMBER node's set as [membership_begin,
// membership_end) into membership_values. Rows are independent and spread over the pool.
#include <cmath>
#include <limits>

#include "kernels/elementwise_common.h"

namespace acl_sim::kern {
namespace {

enum class Cmp : int64_t { Leq = 0, Lt, Gte, Gt, Eq, Neq, Member };

struct Forest {
  std::vector<double> splits, leaf_weights, members;
  std::vector<int64_t> features, modes, true_ids, false_ids, true_leaf, false_leaf, missing_true, leaf_targets, roots;
  std::vector<int64_t> member_begin, member_end;
  int64_t n_targets = 1;
  int64_t aggregate = 1;  // 0 average, 1 sum, 2 min, 3 max
};

bool goes_true(const Forest& f, int64_t node, double v) {
  if (std::isnan(v) && f.missing_true[static_cast<size_t>(node)]) return true;
  const double s = f.splits[static_cast<size_t>(node)];
  switch (static_cast<Cmp>(f.modes[static_cast<size_t>(node)])) {
    case Cmp::Leq: return v <= s;
    case Cmp::Lt: return v < s;
    case Cmp::Gte: return v >= s;
    case Cmp::Gt: return v > s;
    case Cmp::Eq: return v == s;
    case Cmp::Neq: return v != s;
    case Cmp::Member: {
      for (int64_t i = f.member_begin[static_cast<size_t>(node)]; i < f.member_end[static_cast<size_t>(node)]; ++i)
        if (f.members[static_cast<size_t>(i)] == v) return true;
      return false;
    }
  }
  return false;
}

/** The leaf a row reaches from `root`. */
int64_t walk(const Forest& f, int64_t root, const double* x) {
  int64_t node = root;
  const auto n_nodes = static_cast<int64_t>(f.modes.size());
  // A root whose both branches are the same leaf is a single-leaf tree.
  if (f.true_leaf[static_cast<size_t>(root)] && f.false_leaf[static_cast<size_t>(root)] &&
      f.true_ids[static_cast<size_t>(root)] == f.false_ids[static_cast<size_t>(root)])
    return f.true_ids[static_cast<size_t>(root)];
  for (int64_t depth = 0; depth <= n_nodes; ++depth) {
    const bool t = goes_true(f, node, x[f.features[static_cast<size_t>(node)]]);
    const int64_t next = t ? f.true_ids[static_cast<size_t>(node)] : f.false_ids[static_cast<size_t>(node)];
    if (t ? f.true_leaf[static_cast<size_t>(node)] : f.false_leaf[static_cast<size_t>(node)]) return next;
    node = next;
  }
  fail(ACL_ERROR_OP_ATTR_NOT_MATCH, "TreeEnsemble: a tree has a cycle");
}

Forest read_forest(const OpContext& ctx, int64_t n_features) {
  const Attrs& at = attrs_of(ctx);
  Forest f;
  f.splits = at.get_floats("nodes_splits");
  f.features = at.get_ints("nodes_featureids");
  f.modes = at.get_ints("nodes_modes");
  f.true_ids = at.get_ints("nodes_truenodeids");
  f.false_ids = at.get_ints("nodes_falsenodeids");
  f.true_leaf = at.get_ints("nodes_trueleafs");
  f.false_leaf = at.get_ints("nodes_falseleafs");
  f.leaf_targets = at.get_ints("leaf_targetids");
  f.leaf_weights = at.get_floats("leaf_weights");
  f.roots = at.get_ints("tree_roots");
  f.n_targets = at.get_int("n_targets", 1);
  f.aggregate = at.get_int("aggregate_function", 1);
  const size_t n = f.modes.size();
  f.missing_true = at.get_ints("nodes_missing_value_tracks_true", std::vector<int64_t>(n, 0));
  if (f.missing_true.empty()) f.missing_true.assign(n, 0);
  f.members = at.get_floats("membership_values");
  f.member_begin = at.get_ints("membership_begin", std::vector<int64_t>(n, 0));
  f.member_end = at.get_ints("membership_end", std::vector<int64_t>(n, 0));
  const char* op = ctx.op_type;
  ACL_SIM_REQUIRE(n > 0 && f.splits.size() == n && f.features.size() == n && f.true_ids.size() == n &&
                      f.false_ids.size() == n && f.true_leaf.size() == n && f.false_leaf.size() == n &&
                      f.missing_true.size() == n && f.member_begin.size() == n && f.member_end.size() == n,
                  ACL_ERROR_OP_ATTR_NOT_MATCH, op, ": the nodes_* attributes must all have ", n, " entries");
  ACL_SIM_REQUIRE(f.leaf_targets.size() == f.leaf_weights.size() && !f.leaf_targets.empty(),
                  ACL_ERROR_OP_ATTR_NOT_MATCH, op, ": leaf_targetids and leaf_weights must have the same non-zero length");
  ACL_SIM_REQUIRE(!f.roots.empty() && f.n_targets >= 1 && f.aggregate >= 0 && f.aggregate <= 3,
                  ACL_ERROR_OP_ATTR_NOT_MATCH, op, ": need tree_roots, n_targets >= 1 and aggregate_function 0-3");
  const auto leaves = static_cast<int64_t>(f.leaf_targets.size()), nodes = static_cast<int64_t>(n);
  for (size_t i = 0; i < n; ++i) {
    ACL_SIM_REQUIRE(f.modes[i] >= 0 && f.modes[i] <= 6, ACL_ERROR_OP_ATTR_NOT_MATCH, op, ": unknown node mode ",
                    f.modes[i]);
    ACL_SIM_REQUIRE(f.features[i] >= 0 && f.features[i] < n_features, ACL_ERROR_OP_INPUT_NOT_MATCH, op,
                    ": node ", i, " reads feature ", f.features[i], " of ", n_features);
    for (auto [id, leaf] : {std::pair{f.true_ids[i], f.true_leaf[i]}, std::pair{f.false_ids[i], f.false_leaf[i]}})
      ACL_SIM_REQUIRE(id >= 0 && id < (leaf ? leaves : nodes), ACL_ERROR_OP_ATTR_NOT_MATCH, op, ": node ", i,
                      " points at ", leaf ? "leaf " : "node ", id, " (out of range)");
    ACL_SIM_REQUIRE(f.member_begin[i] >= 0 && f.member_begin[i] <= f.member_end[i] &&
                        f.member_end[i] <= static_cast<int64_t>(f.members.size()),
                    ACL_ERROR_OP_ATTR_NOT_MATCH, op, ": node ", i, " has a bad membership range");
  }
  for (int64_t t : f.leaf_targets)
    ACL_SIM_REQUIRE(t >= 0 && t < f.n_targets, ACL_ERROR_OP_ATTR_NOT_MATCH, op, ": leaf target ", t,
                    " is outside n_targets ", f.n_targets);
  for (int64_t r : f.roots)
    ACL_SIM_REQUIRE(r >= 0 && r < nodes, ACL_ERROR_OP_ATTR_NOT_MATCH, op, ": tree root ", r, " is out of range");
  return f;
}

template <class T>
void predict(const Forest& f, const T* x, T* y, int64_t rows, int64_t n_features) {
  const int64_t nt = f.n_targets;
  // MIN / MAX start from the dtype's extremes: a target no tree reaches keeps that value.
  const double init = f.aggregate == 2 ? static_cast<double>(std::numeric_limits<T>::max())
                      : f.aggregate == 3 ? static_cast<double>(std::numeric_limits<T>::lowest()) : 0.0;
  const double trees = static_cast<double>(f.roots.size());
  parallel_blocks(rows, std::max<int64_t>(1, 1024 / static_cast<int64_t>(f.roots.size())), [&](int64_t r0,
                                                                                                int64_t r1) {
    std::vector<double> row(static_cast<size_t>(n_features)), acc(static_cast<size_t>(nt));
    for (int64_t r = r0; r < r1; ++r) {
      for (int64_t j = 0; j < n_features; ++j) row[static_cast<size_t>(j)] = static_cast<double>(x[r * n_features + j]);
      std::fill(acc.begin(), acc.end(), init);
      for (int64_t root : f.roots) {
        const auto leaf = static_cast<size_t>(walk(f, root, row.data()));
        const double w = f.leaf_weights[leaf];
        double& a = acc[static_cast<size_t>(f.leaf_targets[leaf])];
        switch (f.aggregate) {
          case 0: a += w / trees; break;
          case 2: a = std::min(a, w); break;
          case 3: a = std::max(a, w); break;
          default: a += w; break;
        }
      }
      for (int64_t t = 0; t < nt; ++t) y[r * nt + t] = static_cast<T>(acc[static_cast<size_t>(t)]);
    }
  });
}

void run_tree_ensemble(OpContext& ctx) {
  require_io(ctx, 1, 1);
  const TensorView& x = input(ctx, 0);
  TensorView& y = output(ctx, 0);
  ACL_SIM_REQUIRE(x.dtype == ACL_FLOAT || x.dtype == ACL_DOUBLE, ACL_ERROR_UNSUPPORTED_DATA_TYPE, ctx.op_type,
                  ": X must be float32 or float64, got ", dtype_name(x.dtype));
  require_same_dtype(ctx, x, y, "X and Y");
  ACL_SIM_REQUIRE(x.shape.size() == 2, ACL_ERROR_OP_INPUT_NOT_MATCH, ctx.op_type, ": X must be [N, F], got ",
                  shape_str(x.shape));
  ACL_SIM_REQUIRE(attrs_of(ctx).get_int("post_transform", 0) == 0, ACL_ERROR_OP_ATTR_NOT_MATCH, ctx.op_type,
                  ": only post_transform NONE (0) is supported");
  const Forest f = read_forest(ctx, x.shape[1]);
  require_shape(ctx, y, {x.shape[0], f.n_targets}, "Y");
  if (x.dtype == ACL_FLOAT)
    predict<float>(f, static_cast<const float*>(x.data), static_cast<float*>(y.data), x.shape[0], x.shape[1]);
  else
    predict<double>(f, static_cast<const double*>(x.data), static_cast<double*>(y.data), x.shape[0], x.shape[1]);
}

}  // namespace

ACL_SIM_REGISTER_OP(TreeEnsemble, run_tree_ensemble);

}  // namespace acl_sim::kern
