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
//
// Run-time dims (docs/dynamic_shapes.md): a graph with symbols also gets, per
// node, the view dims to patch from the current symbol values before the node
// runs; a shape-setting node has its output views reset to their capacity
// before it runs and its actual output shapes read back into the symbols after.
// A static graph skips all of it (node_dims stays empty).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "kernels/node_cache.h"
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
  struct DimPatch {
    TensorView* view;
    uint32_t dim;
    uint32_t sym;
  };
  struct Reset {  // a shape-setting node's output: capacity before the node, symbols read after
    TensorView* view;
    const TensorDesc* desc;
  };
  struct NodeDims {
    std::vector<DimPatch> before;  // inputs and outputs of an ordinary node
    std::vector<Reset> outputs;    // shape-setting node only
  };
  std::vector<OpContext> nodes;  // one per GraphDesc node, same order
  std::vector<Patch> patches;
  std::vector<NodeDims> node_dims;  // one per node when the graph has symbols, else empty
  std::vector<int64_t> symbols;     // the current run's symbol values
};

/** Hooks in force for one run (either may be null). */
struct RunHooks {
  const NodeHook* model = nullptr;
  const NodeHook* global = nullptr;
};

class GraphExecutor {
 public:
  /** @p graph and @p weights (the model's weight bytes) must outlive the executor. Node caches
   *  (node_cache.h) live as long as the executor. */
  GraphExecutor(const GraphDesc& graph, const uint8_t* weights);

  /** Resolve every node's views against @p workspace (at least graph.workspace_size bytes, may be null if 0). */
  void prepare(PreparedGraph& out, uint8_t* workspace) const;

  /** Run every node. @p inputs / @p outputs are the dataset addresses (counts checked by the caller).
   *  A failing node throws its Error with the node name and op type prepended. */
  void run(PreparedGraph& prepared, const std::vector<void*>& inputs, const std::vector<void*>& outputs,
           const RunHooks& hooks, const Model* model, size_t profile) const;

  /** After run(): the actual dims of every model output (index = output index), symbols resolved.
   *  @p out gets one entry per model output the graph writes. */
  void output_dims(const PreparedGraph& prepared, std::vector<std::vector<int64_t>>& out) const;

  const GraphDesc& graph() const { return graph_; }

 private:
  const GraphDesc& graph_;
  const uint8_t* weights_;
  // One per node, shared by every PreparedGraph (workspace) of this graph: weights are shared too.
  std::unique_ptr<NodeCache[]> caches_;
};

}  // namespace acl_sim
