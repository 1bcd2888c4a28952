// Graph execution (contract in graph_executor.h).
#include "model/graph_executor.h"

#include <exception>

#include "acl/acl_base.h"
#include "common/error.h"

namespace acl_sim {
namespace {

// Non-null address for present tensors with no bytes (empty shapes, empty weights),
// so kernels can tell them from absent optional inputs.
alignas(64) uint8_t g_empty_tensor[64];

void call_hook(void (*fn)(void*, const NodeEvent&), void* user, const NodeEvent& ev) {
  if (!fn) return;
  try {
    fn(user, ev);
  } catch (const Error&) {
    throw;
  } catch (const std::exception& e) {
    fail(ACL_ERROR_INTERNAL_ERROR, "node hook failed: ", e.what());
  }
}

}  // namespace

GraphExecutor::GraphExecutor(const GraphDesc& graph, const uint8_t* weights)
    : graph_(graph), weights_(weights), caches_(new NodeCache[graph.nodes.size()]) {}

void GraphExecutor::prepare(PreparedGraph& out, uint8_t* workspace) const {
  out.nodes.clear();
  out.patches.clear();
  out.nodes.resize(graph_.nodes.size());
  auto resolve = [&](int32_t ref, TensorView& view) {
    if (ref < 0) return;  // absent optional tensor: data stays nullptr
    const TensorDesc& t = graph_.tensors[size_t(ref)];
    view.dtype = t.dtype;
    view.shape = t.shape;
    switch (t.kind) {
      case TensorKind::Workspace:
        view.data = t.size && workspace ? workspace + t.offset : g_empty_tensor;
        break;
      case TensorKind::Weight:
        view.data = t.size && weights_ ? const_cast<uint8_t*>(weights_) + t.offset : g_empty_tensor;
        break;
      case TensorKind::Input:
      case TensorKind::Output:
        view.data = g_empty_tensor;  // patched per run
        break;
    }
  };
  // Views must not move once patches point at them: size every vector before taking addresses.
  for (size_t i = 0; i < graph_.nodes.size(); ++i) {
    const NodeDesc& n = graph_.nodes[i];
    OpContext& c = out.nodes[i];
    c.op_type = n.op.c_str();
    c.node_name = n.name.c_str();
    c.attrs = &n.attrs;
    c.cache = &caches_[i];
    c.weight_inputs = 0;
    for (size_t k = 0; k < n.inputs.size() && k < 64; ++k)
      if (n.inputs[k] >= 0 && graph_.tensors[size_t(n.inputs[k])].kind == TensorKind::Weight)
        c.weight_inputs |= uint64_t(1) << k;
    c.inputs.resize(n.inputs.size());
    c.outputs.resize(n.outputs.size());
    for (size_t k = 0; k < n.inputs.size(); ++k) resolve(n.inputs[k], c.inputs[k]);
    for (size_t k = 0; k < n.outputs.size(); ++k) resolve(n.outputs[k], c.outputs[k]);
  }
  for (size_t i = 0; i < graph_.nodes.size(); ++i) {
    const NodeDesc& n = graph_.nodes[i];
    OpContext& c = out.nodes[i];
    auto add = [&](int32_t ref, TensorView& view) {
      if (ref < 0) return;
      const TensorDesc& t = graph_.tensors[size_t(ref)];
      if (t.kind == TensorKind::Input || t.kind == TensorKind::Output)
        out.patches.push_back({&view, t.kind == TensorKind::Input, t.index});
    };
    for (size_t k = 0; k < n.inputs.size(); ++k) add(n.inputs[k], c.inputs[k]);
    for (size_t k = 0; k < n.outputs.size(); ++k) add(n.outputs[k], c.outputs[k]);
  }
  out.node_dims.clear();
  out.symbols.assign(graph_.symbols.size(), 0);
  if (graph_.symbols.empty()) return;
  out.node_dims.resize(graph_.nodes.size());
  for (size_t i = 0; i < graph_.nodes.size(); ++i) {
    const NodeDesc& n = graph_.nodes[i];
    OpContext& c = out.nodes[i];
    PreparedGraph::NodeDims& nd = out.node_dims[i];
    auto patch = [&](int32_t ref, TensorView& view) {
      if (ref < 0) return;
      const TensorDesc& t = graph_.tensors[size_t(ref)];
      for (size_t d = 0; d < t.sym.size(); ++d)
        if (t.sym[d] >= 0) nd.before.push_back({&view, uint32_t(d), uint32_t(t.sym[d])});
    };
    for (size_t k = 0; k < n.inputs.size(); ++k) patch(n.inputs[k], c.inputs[k]);
    if (n.sets_output_shape) {
      for (size_t k = 0; k < n.outputs.size(); ++k)
        if (n.outputs[k] >= 0) nd.outputs.push_back({&c.outputs[k], &graph_.tensors[size_t(n.outputs[k])]});
    } else {
      for (size_t k = 0; k < n.outputs.size(); ++k) patch(n.outputs[k], c.outputs[k]);
    }
  }
}

namespace {

/** After a shape-setting node: its actual output shapes must fit the capacity; they set the symbols. */
void read_back(const NodeDesc& n, const GraphDesc& g, const PreparedGraph::NodeDims& nd, std::vector<int64_t>& symbols) {
  std::vector<bool> seen;
  for (const auto& r : nd.outputs) {
    const TensorDesc& t = *r.desc;
    const std::vector<int64_t>& got = r.view->shape;
    ACL_SIM_REQUIRE(got.size() == t.shape.size(), ACL_ERROR_INTERNAL_ERROR, n.op, " wrote an output of rank ",
                    got.size(), " into '", t.name, "' of rank ", t.shape.size());
    for (size_t d = 0; d < got.size(); ++d) {
      int32_t s = t.sym.empty() ? -1 : t.sym[d];
      if (s < 0) {
        ACL_SIM_REQUIRE(got[d] == t.shape[d], ACL_ERROR_INTERNAL_ERROR, n.op, " changed static dim ", d, " of '",
                        t.name, "' from ", t.shape[d], " to ", got[d]);
        continue;
      }
      ACL_SIM_REQUIRE(got[d] >= 0 && got[d] <= t.shape[d], ACL_ERROR_INTERNAL_ERROR, n.op, " output '", t.name,
                      "' dim ", d, " is ", got[d], ", beyond its planned bound ", t.shape[d]);
      if (seen.empty()) seen.assign(g.symbols.size(), false);
      if (seen[size_t(s)]) {
        ACL_SIM_REQUIRE(symbols[size_t(s)] == got[d], ACL_ERROR_INTERNAL_ERROR, n.op, " gave run-time dim ",
                        g.symbols[size_t(s)].name, " two values (", symbols[size_t(s)], ", ", got[d], ")");
      }
      symbols[size_t(s)] = got[d];
      seen[size_t(s)] = true;
    }
  }
}

}  // namespace

void GraphExecutor::output_dims(const PreparedGraph& prepared, std::vector<std::vector<int64_t>>& out) const {
  for (const auto& t : graph_.tensors) {
    if (t.kind != TensorKind::Output) continue;
    if (out.size() <= t.index) out.resize(t.index + 1);
    out[t.index] = t.shape;
    for (size_t d = 0; d < t.sym.size(); ++d)
      if (t.sym[d] >= 0) out[t.index][d] = prepared.symbols[size_t(t.sym[d])];
  }
}

void GraphExecutor::run(PreparedGraph& prepared, const std::vector<void*>& inputs, const std::vector<void*>& outputs,
                        const RunHooks& hooks, const Model* model, size_t profile) const {
  for (const auto& p : prepared.patches) {
    void* addr = p.is_input ? inputs[p.index] : outputs[p.index];
    p.view->data = addr ? addr : g_empty_tensor;
  }
  const bool hooked = hooks.model || hooks.global;
  const bool dynamic = !prepared.node_dims.empty();
  for (size_t i = 0; i < prepared.nodes.size(); ++i) {
    const NodeDesc& n = graph_.nodes[i];
    OpContext& c = prepared.nodes[i];
    NodeEvent ev{model, profile, i, c.node_name, c.op_type, &n.sources, &c};
    try {
      if (dynamic) {
        const PreparedGraph::NodeDims& nd = prepared.node_dims[i];
        for (const auto& p : nd.before) p.view->shape[p.dim] = prepared.symbols[p.sym];
        for (const auto& r : nd.outputs) r.view->shape = r.desc->shape;  // capacity (same size: no allocation)
      }
      if (hooked) {
        if (hooks.model) call_hook(hooks.model->before, hooks.model->user, ev);
        if (hooks.global) call_hook(hooks.global->before, hooks.global->user, ev);
      }
      n.fn(c);
      if (dynamic && n.sets_output_shape) read_back(n, graph_, prepared.node_dims[i], prepared.symbols);
      if (hooked) {
        if (hooks.model) call_hook(hooks.model->after, hooks.model->user, ev);
        if (hooks.global) call_hook(hooks.global->after, hooks.global->user, ev);
      }
    } catch (const Error& e) {
      throw Error(e.code(), str("node ", n.name, " (", n.op, "): ", e.what()));
    } catch (const std::bad_alloc&) {
      throw;
    } catch (const std::exception& e) {
      throw Error(ACL_ERROR_INTERNAL_ERROR, str("node ", n.name, " (", n.op, "): ", e.what()));
    }
  }
}

}  // namespace acl_sim
