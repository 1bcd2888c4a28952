// Executes one profile's graph by dispatching every node to the operator
// registry, in the topological order ATC wrote.
//
// Resolution is split so a run costs no allocation and no per-tensor lookup:
// - prepare() (once per workspace and profile) builds one OpContext per node
//   whose TensorViews already point at weights and at workspace offsets, and
//   records where the model's input/output buffers must be patched in;
// - run() writes the caller's input/output addresses into those few views,
//   then calls the nodes.
// A PreparedGraph belongs to one workspace; concurrent runs use different
// PreparedGraphs (Model keeps a pool of workspaces).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "kernels/op_context.h"
#include "model/model.h"
#include "model/om_reader.h"

namespace acl_sim {

struct PreparedGraph {
  struct Patch {
    TensorView* view;
    bool is_input;  // model input (else model output)
    size_t index;   // dataset index
  };
  std::vector<OpContext> nodes;  // one per GraphDesc node, same order
  std::vector<Patch> patches;
};

/** Hooks in force for one run (either may be null). */
struct RunHooks {
  const NodeHook* model = nullptr;
  const NodeHook* global = nullptr;
};

class GraphExecutor {
 public:
  /** @p graph and @p weights (the model's weight bytes) must outlive the executor. */
  GraphExecutor(const GraphDesc& graph, const uint8_t* weights);

  /** Resolve every node's views against @p workspace (at least graph.workspace_size bytes, may be null if 0). */
  void prepare(PreparedGraph& out, uint8_t* workspace) const;

  /** Run every node. @p inputs / @p outputs are the dataset addresses (counts checked by the caller).
   *  A failing node throws its Error with the node name and op type prepended. */
  void run(PreparedGraph& prepared, const std::vector<void*>& inputs, const std::vector<void*>& outputs,
           const RunHooks& hooks, const Model* model, size_t profile) const;

  const GraphDesc& graph() const { return graph_; }

 private:
  const GraphDesc& graph_;
  const uint8_t* weights_;
};

}  // namespace acl_sim
