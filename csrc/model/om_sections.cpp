// The `.om` section contents (docs/om_format.md): IODESC, GRAPH, MEMPLAN and
// META JSON, checked field by field. Every index, offset and size read here
// is validated against the tensors, the WEIGHTS section or the workspace it
// refers to, so the executor can use them without further checks.
#include <limits>
#include <string_view>

#include "acl/acl_base.h"
#include "common/dtype.h"
#include "common/error.h"
#include "common/json.h"
#include "model/om_reader.h"
#include "model/om_reader_internal.h"
#include "kernels/op_shape_traits.h"

namespace acl_sim {
namespace {

constexpr int kBad = ACL_ERROR_PARSE_MODEL;
constexpr size_t kMaxRank = 32;
constexpr size_t kMaxProfiles = 100;
constexpr int64_t kMaxBytes = int64_t(1) << 50;  // larger than any device; keeps size arithmetic exact
constexpr size_t kMaxSymbols = 1 << 20;

json::Value parse_section(const uint8_t* data, const OmSections& s, uint32_t kind, const char* what) {
  json::ParseOptions opt;
  opt.error_code = kBad;
  opt.what = what;
  return json::parse(std::string_view(reinterpret_cast<const char*>(data + s.offset[kind]), s.size[kind]), opt);
}

int read_dtype(const json::Value& v, const std::string& where) {
  int64_t d = v.as_int_in(0, 1000, kBad);
  ACL_SIM_REQUIRE(dtype_size(int(d)) != 0, kBad, where, ": unsupported dtype ", d);
  return int(d);
}

std::vector<int64_t> read_dims(const json::Value& v, int64_t min_dim, const std::string& where) {
  const auto& a = v.as_array(kBad);
  ACL_SIM_REQUIRE(a.size() <= kMaxRank, kBad, where, ": rank ", a.size(), " exceeds ", kMaxRank);
  std::vector<int64_t> dims;
  dims.reserve(a.size());
  for (const auto& d : a) dims.push_back(d.as_int_in(min_dim, kMaxBytes, kBad));
  return dims;
}

/** prod(shape) * element size, or fail when it overflows the byte limit. */
uint64_t byte_size(const std::vector<int64_t>& shape, int dtype, const std::string& where) {
  uint64_t n = dtype_size(dtype);
  for (int64_t d : shape) {
    if (d == 0) return 0;
    ACL_SIM_REQUIRE(n <= uint64_t(kMaxBytes) / uint64_t(d), kBad, where, ": tensor is larger than 2^50 bytes");
    n *= uint64_t(d);
  }
  return n;
}

int dtype_by_name(const std::string& name, const std::string& where) {
  const int dtype = dtype_from_name(name);
  ACL_SIM_REQUIRE(dtype == ACL_FLOAT || dtype == ACL_FLOAT16, kBad, where, ": AIPP source dtype \"", name,
                  "\" is not float32/float16");
  return dtype;
}

AippInfo read_aipp(const json::Value& v, const std::string& where) {
  AippInfo a;
  const std::string& mode = v.at("mode", kBad).as_string(kBad);
  if (mode == "dynamic_data") {
    a.kind = AippInfo::Kind::DynamicData;
    a.batch = v.at("batch", kBad).as_int_in(1, 127, kBad);
    return a;
  }
  if (mode == "static") a.kind = AippInfo::Kind::Static;
  else if (mode == "dynamic") a.kind = AippInfo::Kind::Dynamic;
  else fail(kBad, where, ": unknown AIPP mode \"", mode, "\"");
  a.dims_v2 = read_dims(v.at("dims_v2", kBad), -1, where);  // -1: the batch of a dynamic-batch model
  a.src_dims = read_dims(v.at("src_dims", kBad), -1, where);
  ACL_SIM_REQUIRE(a.src_dims.size() == 4, kBad, where, ": AIPP source dims must be 4-D");
  a.src_dtype = dtype_by_name(v.at("src_dtype", kBad).as_string(kBad), where);
  a.src_format = v.at("src_format", kBad).as_string(kBad) == "NHWC" ? 1 : 0;
  if (a.kind == AippInfo::Kind::Dynamic) {
    a.batch = v.at("batch", kBad).as_int_in(1, 127, kBad);
    a.max_src_image_size = v.at("max_src_image_size", kBad).as_int_in(1, kMaxBytes, kBad);
    a.data_input_index = v.at("data_input_index", kBad).as_int_in(0, 1 << 20, kBad);
    return a;
  }
  for (const auto& [key, value] : v.at("config", kBad).as_object(kBad)) {
    if (value.is_bool()) a.config.emplace_back(key, value.as_bool(kBad) ? 1.0 : 0.0);
    else if (value.is_number()) a.config.emplace_back(key, value.as_double(kBad));
  }
  a.config.emplace_back("format", double(v.at("format", kBad).as_int_in(1, 4, kBad)));
  a.config.emplace_back("src_w", double(v.at("src_w", kBad).as_int_in(1, 4096, kBad)));
  a.config.emplace_back("src_h", double(v.at("src_h", kBad).as_int_in(1, 4096, kBad)));
  return a;
}

IoDesc read_io(const json::Value& v, const std::string& where) {
  IoDesc d;
  d.name = v.at("name", kBad).as_string(kBad);
  d.dtype = read_dtype(v.at("dtype", kBad), where);
  d.format = int(v.at("format", kBad).as_int_in(0, 1000, kBad));
  d.dims = read_dims(v.at("dims", kBad), -1, where);
  d.size = size_t(v.at("size", kBad).as_int_in(0, kMaxBytes, kBad));
  if (const json::Value* a = v.find("aipp", kBad)) d.aipp = read_aipp(*a, where);
  return d;
}

ModelIO read_iodesc(const json::Value& root) {
  ModelIO io;
  const auto& ins = root.at("inputs", kBad).as_array(kBad);
  const auto& outs = root.at("outputs", kBad).as_array(kBad);
  for (size_t i = 0; i < ins.size(); ++i) io.inputs.push_back(read_io(ins[i], str("IODESC input ", i)));
  for (size_t i = 0; i < outs.size(); ++i) io.outputs.push_back(read_io(outs[i], str("IODESC output ", i)));
  ACL_SIM_REQUIRE(!io.outputs.empty(), kBad, "IODESC: the model has no outputs");

  const json::Value* dyn = root.find("dynamic", kBad);
  std::string kind = dyn ? dyn->at("kind", kBad).as_string(kBad) : "none";
  if (kind == "none") return io;
  if (kind == "batch") io.dynamic.kind = DynamicKind::Batch;
  else if (kind == "hw") io.dynamic.kind = DynamicKind::HW;
  else if (kind == "dims") io.dynamic.kind = DynamicKind::Dims;
  else fail(kBad, "IODESC: unknown dynamic kind \"", kind, "\"");

  const auto& profiles = dyn->at("profiles", kBad).as_array(kBad);
  ACL_SIM_REQUIRE(!profiles.empty() && profiles.size() <= kMaxProfiles, kBad, "IODESC: ", profiles.size(),
                  " dynamic profiles (1..100 allowed)");
  size_t want_len = io.dynamic.kind == DynamicKind::Batch ? 1 : io.dynamic.kind == DynamicKind::HW ? 2 : 0;
  for (size_t p = 0; p < profiles.size(); ++p) {
    auto values = read_dims(profiles[p], 1, str("IODESC profile ", p));
    ACL_SIM_REQUIRE(!values.empty(), kBad, "IODESC: profile ", p, " is empty");
    if (want_len) ACL_SIM_REQUIRE(values.size() == want_len, kBad, "IODESC: profile ", p, " has ", values.size(),
                                  " values, expected ", want_len);
    if (p) ACL_SIM_REQUIRE(values.size() == io.dynamic.profiles[0].size(), kBad, "IODESC: profiles differ in length");
    io.dynamic.profiles.push_back(std::move(values));
  }
  int64_t mb = dyn->at("mbatch_input_index", kBad).as_int_in(0, int64_t(io.inputs.size()) - 1, kBad);
  ACL_SIM_REQUIRE(size_t(mb) + 1 == io.inputs.size(), kBad, "IODESC: mbatch_input_index ", mb, " is not the last input");
  const IoDesc& m = io.inputs[size_t(mb)];
  ACL_SIM_REQUIRE(m.dtype == ACL_INT64 && m.dims.size() == 1 && m.dims[0] == int64_t(io.dynamic.profiles[0].size()),
                  kBad, "IODESC: the ascend_mbatch_shape_data input must be int64 of shape [", io.dynamic.profiles[0].size(), "]");
  io.dynamic.mbatch_input_index = mb;
  return io;
}

Attrs read_attrs(const json::Value& v, const std::string& where) {
  Attrs attrs;
  for (const auto& [name, value] : v.as_object(kBad)) {
    switch (value.type()) {
      case json::Type::Bool: attrs.set(name, int64_t(value.as_bool(kBad))); break;
      case json::Type::Number:
        if (value.is_int()) attrs.set(name, value.as_int(kBad));
        else attrs.set(name, value.as_double(kBad));
        break;
      case json::Type::String: attrs.set(name, value.as_string(kBad)); break;
      case json::Type::Array: {
        bool all_int = true;
        for (const auto& e : value.as_array(kBad)) {
          ACL_SIM_REQUIRE(e.is_number(), kBad, where, ": attribute '", name, "' holds a non-number list element");
          all_int = all_int && e.is_int();
        }
        if (all_int) {
          std::vector<int64_t> ints;
          for (const auto& e : value.as_array(kBad)) ints.push_back(e.as_int(kBad));
          attrs.set(name, std::move(ints));
        } else {
          std::vector<double> floats;
          for (const auto& e : value.as_array(kBad)) floats.push_back(e.as_double(kBad));
          attrs.set(name, std::move(floats));
        }
        break;
      }
      default: fail(kBad, where, ": attribute '", name, "' has unsupported JSON type ", json::type_name(value.type()));
    }
  }
  return attrs;
}

TensorDesc read_tensor(const json::Value& v, const ModelIO& io, uint64_t workspace_size, uint64_t weights_size,
                       const std::string& where) {
  TensorDesc t;
  t.name = v.at("name", kBad).as_string(kBad);
  t.dtype = read_dtype(v.at("dtype", kBad), where);
  t.shape = read_dims(v.at("shape", kBad), 0, where);
  t.size = uint64_t(v.at("size", kBad).as_int_in(0, kMaxBytes, kBad));
  if (const json::Value* sym = v.find("sym", kBad)) {
    const auto& a = sym->as_array(kBad);
    ACL_SIM_REQUIRE(a.size() == t.shape.size(), kBad, where, " (", t.name, "): sym has ", a.size(),
                    " entries for rank ", t.shape.size());
    for (const auto& e : a) t.sym.push_back(int32_t(e.as_int_in(-1, int64_t(kMaxSymbols) - 1, kBad)));
  }
  uint64_t expect = byte_size(t.shape, t.dtype, where);
  ACL_SIM_REQUIRE(t.size == expect, kBad, where, " (", t.name, "): size ", t.size, " != shape x dtype = ", expect);
  const std::string& kind = v.at("kind", kBad).as_string(kBad);
  if (kind == "workspace" || kind == "weight") {
    bool ws = kind == "workspace";
    t.kind = ws ? TensorKind::Workspace : TensorKind::Weight;
    t.offset = uint64_t(v.at("offset", kBad).as_int_in(0, kMaxBytes, kBad));
    uint64_t limit = ws ? workspace_size : weights_size;
    ACL_SIM_REQUIRE(t.offset <= limit && t.size <= limit - t.offset, kBad, where, " (", t.name, "): bytes [", t.offset,
                    ", +", t.size, ") lie outside the ", ws ? "workspace" : "WEIGHTS section", " (", limit, " bytes)");
    ACL_SIM_REQUIRE(t.offset % dtype_size(t.dtype) == 0, kBad, where, " (", t.name, "): offset ", t.offset,
                    " is not aligned to its element size");
  } else if (kind == "input" || kind == "output") {
    bool in = kind == "input";
    t.kind = in ? TensorKind::Input : TensorKind::Output;
    const auto& list = in ? io.inputs : io.outputs;
    t.index = size_t(v.at("index", kBad).as_int_in(0, int64_t(list.size()) - 1, kBad));
    const IoDesc& d = list[t.index];
    ACL_SIM_REQUIRE(d.dtype == t.dtype, kBad, where, " (", t.name, "): dtype ", t.dtype, " differs from IODESC's ", d.dtype);
    ACL_SIM_REQUIRE(t.size <= d.size, kBad, where, " (", t.name, "): ", t.size, " bytes exceed IODESC's size ", d.size);
  } else {
    fail(kBad, where, " (", t.name, "): unknown tensor kind \"", kind, "\"");
  }
  return t;
}

std::vector<int32_t> read_refs(const json::Value& v, size_t tensor_count, const std::string& where) {
  std::vector<int32_t> refs;
  for (const auto& e : v.as_array(kBad)) refs.push_back(int32_t(e.as_int_in(-1, int64_t(tensor_count) - 1, kBad)));
  (void)where;
  return refs;
}

NodeDesc read_node(const json::Value& v, const GraphDesc& g, const std::string& where) {
  NodeDesc n;
  n.name = v.at("name", kBad).as_string(kBad);
  n.op = v.at("op", kBad).as_string(kBad);
  std::string at = str(where, " (", n.name, ", ", n.op, ")");
  n.inputs = read_refs(v.at("inputs", kBad), g.tensors.size(), at);
  n.outputs = read_refs(v.at("outputs", kBad), g.tensors.size(), at);
  for (int32_t o : n.outputs) {
    if (o < 0) continue;
    TensorKind k = g.tensors[size_t(o)].kind;
    ACL_SIM_REQUIRE(k == TensorKind::Workspace || k == TensorKind::Output, kBad, at, ": writes tensor ", o,
                    ", which is a model input or weight");
  }
  if (const json::Value* a = v.find("attrs", kBad)) n.attrs = read_attrs(*a, at);
  if (const json::Value* s = v.find("sources", kBad))
    for (const auto& e : s->as_array(kBad)) n.sources.push_back(e.as_string(kBad));
  n.fn = find_op(n.op);
  ACL_SIM_REQUIRE(n.fn != nullptr, kBad, at, ": operator ", n.op, " is not supported by this acl_sim build");
  n.sets_output_shape = op_sets_output_shape(n.op);
  return n;
}

/** The run-time dims: bounds match the tensors that carry them; inputs and weights carry none; each
 *  symbol is first written by a shape-setting node, and no node reads it before that. */
void read_symbols(const json::Value* v, GraphDesc& g, const std::string& where) {
  if (v) {
    for (const auto& e : v->as_array(kBad)) {
      SymbolDesc s;
      s.name = e.at("name", kBad).as_string(kBad);
      s.bound = e.at("bound", kBad).as_int_in(0, kMaxBytes, kBad);
      g.symbols.push_back(std::move(s));
    }
    ACL_SIM_REQUIRE(g.symbols.size() <= kMaxSymbols, kBad, where, ": too many symbols");
  }
  for (const auto& t : g.tensors) {
    for (size_t d = 0; d < t.sym.size(); ++d) {
      if (t.sym[d] < 0) continue;
      ACL_SIM_REQUIRE(size_t(t.sym[d]) < g.symbols.size(), kBad, where, " (", t.name, "): dim ", d, " refers to symbol ",
                      t.sym[d], ", the graph has ", g.symbols.size());
      ACL_SIM_REQUIRE(t.kind == TensorKind::Workspace || t.kind == TensorKind::Output, kBad, where, " (", t.name,
                      "): only computed tensors may have run-time dims");
      const SymbolDesc& s = g.symbols[size_t(t.sym[d])];
      ACL_SIM_REQUIRE(t.shape[d] == s.bound, kBad, where, " (", t.name, "): dim ", d, " is ", t.shape[d],
                      ", the bound of symbol ", s.name, " is ", s.bound);
    }
  }
  std::vector<bool> defined(g.symbols.size(), false);
  auto each_sym = [&](int32_t ref, auto&& f) {
    if (ref < 0) return;
    for (int32_t s : g.tensors[size_t(ref)].sym)
      if (s >= 0) f(size_t(s));
  };
  for (size_t i = 0; i < g.nodes.size(); ++i) {
    const NodeDesc& n = g.nodes[i];
    for (int32_t ref : n.inputs)
      each_sym(ref, [&](size_t s) {
        ACL_SIM_REQUIRE(defined[s], kBad, where, " node ", i, " (", n.name, "): reads run-time dim ", g.symbols[s].name,
                        " before a node sets it");
      });
    for (int32_t ref : n.outputs)
      each_sym(ref, [&](size_t s) {
        if (defined[s]) return;
        ACL_SIM_REQUIRE(n.sets_output_shape, kBad, where, " node ", i, " (", n.name, ", ", n.op,
                        "): first writer of run-time dim ", g.symbols[s].name, " is not a shape-setting op");
        defined[s] = true;
        g.symbols[s].definer = i;
      });
  }
  for (size_t s = 0; s < defined.size(); ++s)
    ACL_SIM_REQUIRE(defined[s], kBad, where, ": symbol ", g.symbols[s].name, " is set by no node");
}

GraphDesc read_graph(const json::Value& v, const ModelIO& io, uint64_t weights_size, size_t profile) {
  GraphDesc g;
  std::string where = str("GRAPH profile ", profile);
  g.workspace_size = uint64_t(v.at("workspace_size", kBad).as_int_in(0, kMaxBytes, kBad));
  const auto& tensors = v.at("tensors", kBad).as_array(kBad);
  ACL_SIM_REQUIRE(tensors.size() < size_t(std::numeric_limits<int32_t>::max()), kBad, where, ": too many tensors");
  g.tensors.reserve(tensors.size());
  for (size_t i = 0; i < tensors.size(); ++i)
    g.tensors.push_back(read_tensor(tensors[i], io, g.workspace_size, weights_size, str(where, " tensor ", i)));
  const auto& nodes = v.at("nodes", kBad).as_array(kBad);
  g.nodes.reserve(nodes.size());
  for (size_t i = 0; i < nodes.size(); ++i) g.nodes.push_back(read_node(nodes[i], g, str(where, " node ", i)));
  read_symbols(v.find("symbols", kBad), g, where);

  // Every model output must be produced by exactly one node of this profile.
  std::vector<int> written(io.outputs.size(), 0);
  for (const auto& n : g.nodes)
    for (int32_t o : n.outputs)
      if (o >= 0 && g.tensors[size_t(o)].kind == TensorKind::Output) ++written[g.tensors[size_t(o)].index];
  for (size_t i = 0; i < written.size(); ++i)
    ACL_SIM_REQUIRE(written[i] == 1, kBad, where, ": model output ", i, " (", io.outputs[i].name, ") is written by ",
                    written[i], " nodes, expected exactly one");
  return g;
}

}  // namespace

OmModel read_om(const uint8_t* data, size_t size) {
  OmSections s = read_container(data, size);
  OmModel m;
  m.weights_offset = s.offset[kSectionWeights];
  m.weights_size = s.size[kSectionWeights];
  m.io = read_iodesc(parse_section(data, s, kSectionIoDesc, "IODESC"));

  json::Value graph = parse_section(data, s, kSectionGraph, "GRAPH");
  const auto& profiles = graph.at("profiles", kBad).as_array(kBad);
  size_t want = m.io.dynamic.kind == DynamicKind::None ? 1 : m.io.dynamic.profiles.size();
  ACL_SIM_REQUIRE(profiles.size() == want, kBad, "GRAPH has ", profiles.size(), " profile graphs, IODESC declares ", want);
  for (size_t p = 0; p < profiles.size(); ++p) m.graphs.push_back(read_graph(profiles[p], m.io, m.weights_size, p));

  if (s.present[kSectionMemPlan]) parse_section(data, s, kSectionMemPlan, "MEMPLAN").as_object(kBad);
  if (s.present[kSectionMeta]) {
    json::Value meta = parse_section(data, s, kSectionMeta, "META");
    meta.as_object(kBad);
    m.meta_json.assign(reinterpret_cast<const char*>(data + s.offset[kSectionMeta]), s.size[kSectionMeta]);
  }
  return m;
}

}  // namespace acl_sim
