// Reading and validating the `.om` container (docs/om_format.md).
//
// Everything read from the file is checked before it is used, so a damaged
// or hostile file gives an acl_sim::Error, never a crash or an allocation
// larger than the file:
// - ACL_ERROR_INVALID_FILE (100003): not an acl_sim .om (magic, version, header
//   or file size, section table, bounds, overlaps, CRC-32);
// - ACL_ERROR_PARSE_MODEL (100013): the container is sound but a section's
//   content is not (bad JSON, missing fields, tensor/node references out of
//   range, shapes that disagree with sizes, tensors outside the weights or
//   workspace, unregistered operators).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "kernels/op_registry.h"
#include "model/model.h"

namespace acl_sim {

enum class TensorKind { Workspace, Input, Output, Weight };

struct TensorDesc {
  std::string name;
  int dtype = 0;
  std::vector<int64_t> shape;
  TensorKind kind = TensorKind::Workspace;
  uint64_t offset = 0;  // workspace / weight
  size_t index = 0;     // input / output
  uint64_t size = 0;    // bytes (of `shape`: the capacity when some dims are run-time symbols)
  // Empty for a static tensor; else one entry per dim: -1 (static) or the index of the graph symbol
  // (a run-time dim set by a shape-setting op) whose value the dim takes; `shape` then holds its bound.
  std::vector<int32_t> sym;
};

/** A run-time dim (docs/dynamic_shapes.md): set by node `definer`, at most `bound`. */
struct SymbolDesc {
  std::string name;
  int64_t bound = 0;
  size_t definer = 0;  // index of the shape-setting node that first writes a tensor with this dim
};

struct NodeDesc {
  std::string name;
  std::string op;
  std::vector<int32_t> inputs;  // tensor indices, -1 = absent optional input
  std::vector<int32_t> outputs;
  Attrs attrs;
  std::vector<std::string> sources;
  OpFn fn = nullptr;  // resolved from the operator registry at load
  bool sets_output_shape = false;  // a shape-setting op (op_registry.h)
};

struct GraphDesc {
  uint64_t workspace_size = 0;
  std::vector<TensorDesc> tensors;
  std::vector<NodeDesc> nodes;
  std::vector<SymbolDesc> symbols;  // run-time dims; empty for a fully static graph
};

/** The parsed contents of an .om image. The weights stay in the image: [weights_offset, +weights_size). */
struct OmModel {
  ModelIO io;
  std::vector<GraphDesc> graphs;  // one per profile
  uint64_t weights_offset = 0;
  uint64_t weights_size = 0;
  std::string meta_json = "{}";
};

/** CRC-32 as zlib.crc32 computes it (slicing-by-8). */
ACL_SIM_MODEL_API uint32_t crc32(const uint8_t* data, size_t size, uint32_t crc = 0);

/** Validate and parse a whole .om image. Throws 100003 / 100013 as described above. */
ACL_SIM_MODEL_API OmModel read_om(const uint8_t* data, size_t size);

}  // namespace acl_sim
