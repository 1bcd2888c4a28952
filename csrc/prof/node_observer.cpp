#include "prof/node_observer.h"

#include <sys/stat.h>

#include <atomic>
#include <cstdio>
#include <map>
#include <mutex>
#include <string>

#include "common/dtype.h"
#include "common/json.h"
#include "model/model.h"
#include "prof/dump.h"
#include "prof/dump_writer.h"
#include "prof/execution_observer.h"
#include "prof/profiler.h"

namespace acl_sim::prof {
namespace {

struct ModelState {
  std::string name;
  uint64_t iteration = 0;
};

std::mutex g_models_mu;
std::map<const Model*, ModelState> g_models;
thread_local uint64_t t_node_start = 0;

// The model's name for dump paths: META "model_name"/"name", else "model".
std::string model_name_of(const Model& m) {
  try {
    json::Value meta = json::parse(m.meta_json());
    for (const char* key : {"model_name", "name"}) {
      if (const json::Value* v = meta.find(key); v && v->is_string() && !v->as_string().empty()) return v->as_string();
    }
  } catch (...) {
  }
  return "model";
}

ModelState& state_of(const Model* m, bool new_run) {
  std::lock_guard<std::mutex> lock(g_models_mu);
  auto it = g_models.find(m);
  if (it == g_models.end()) it = g_models.emplace(m, ModelState{model_name_of(*m), 0}).first;
  if (new_run) ++it->second.iteration;
  return it->second;
}

std::string safe(const std::string& s) {
  std::string out = s;
  for (char& c : out)
    if (c == '/' || c == '\\' || c == ' ' || c == ':') c = '_';
  return out.empty() ? "node" : out;
}

std::string shape_str(const TensorView& t) {
  std::string s;
  for (size_t i = 0; i < t.shape.size(); ++i) s += (i ? "x" : "") + std::to_string(t.shape[i]);
  return s.empty() ? "scalar" : s;
}

bool is_cube(const std::string& type) {
  return type == "Conv" || type == "ConvTranspose" || type == "MatMul" || type == "Gemm" || type == "MatMulInteger";
}

// FLOPs of one op: multiply-adds count 2. Elementwise-like ops count one per output element.
double flops_of(const OpContext& op, const std::string& type) {
  const auto& in = op.inputs;
  const auto& out = op.outputs;
  if (out.empty()) return 0;
  double out_elems = static_cast<double>(out[0].numel());
  if ((type == "Conv" || type == "ConvTranspose") && in.size() >= 2 && in[1].shape.size() >= 3) {
    double k = 1;
    for (size_t i = 1; i < in[1].shape.size(); ++i) k *= static_cast<double>(in[1].shape[i]);  // Cin/g * kh * kw
    if (type == "ConvTranspose") return 2.0 * static_cast<double>(in[0].numel()) * k * in[1].shape[1];
    return 2.0 * out_elems * k;
  }
  if ((type == "MatMul" || type == "Gemm") && !in.empty() && !in[0].shape.empty()) {
    double kdim = static_cast<double>(in[0].shape.back());
    if (type == "Gemm" && op.attrs && op.attrs->get_int("transA", 0) && in[0].shape.size() == 2)
      kdim = static_cast<double>(in[0].shape[0]);
    return 2.0 * out_elems * kdim;
  }
  return out_elems;
}

double bytes_of(const OpContext& op) {
  double b = 0;
  for (const auto& t : op.inputs)
    if (t.present()) b += static_cast<double>(t.numel()) * dtype_size(t.dtype);
  for (const auto& t : op.outputs) b += static_cast<double>(t.numel()) * dtype_size(t.dtype);
  return b;
}

void dump_tensors(const NodeEvent& e, bool before) {
  bool want_in = false, want_out = false;
  std::string root;
  ModelState& st = state_of(e.model, before && e.node_index == 0);
  if (!dump::detail::wants(st.name, e.node_name, &want_in, &want_out, &root)) return;
  if (before ? !want_in : !want_out) return;
  std::string dir = root + "/" + safe(st.name);
  ::mkdir(dir.c_str(), 0755);
  dir += "/" + std::to_string(st.iteration);
  ::mkdir(dir.c_str(), 0755);
  const auto& tensors = before ? e.op->inputs : e.op->outputs;
  const char* kind = before ? "input" : "output";
  std::string manifest;
  for (size_t i = 0; i < tensors.size(); ++i) {
    if (!tensors[i].present()) continue;
    std::string file = safe(e.node_name) + "." + kind + "." + std::to_string(i) + ".npy";
    if (!dump::write_npy(dir + "/" + file, tensors[i])) continue;
    std::string sources = "[";
    if (e.sources)
      for (size_t s = 0; s < e.sources->size(); ++s) {
        sources += (s ? "," : "") + std::string("\"") + (*e.sources)[s] + "\"";
      }
    sources += "]";
    manifest += "{\"node\":\"" + std::string(e.node_name) + "\",\"node_index\":" + std::to_string(e.node_index) +
                ",\"op_type\":\"" + e.op_type + "\",\"sources\":" + sources + ",\"kind\":\"" + kind +
                "\",\"index\":" + std::to_string(i) + ",\"file\":\"" + file + "\"}\n";
  }
  if (manifest.empty()) return;
  static std::mutex manifest_mu;
  std::lock_guard<std::mutex> lock(manifest_mu);
  if (FILE* f = std::fopen((dir + "/manifest.jsonl").c_str(), "a")) {
    std::fwrite(manifest.data(), 1, manifest.size(), f);
    std::fclose(f);
  }
}

void on_before(void*, const NodeEvent& e) {
  if (dump::enabled()) dump_tensors(e, true);
  if (enabled()) {
    set_op_label(e.node_name);
    take_pool_use();  // forks opened outside a node are not this node's
    t_node_start = now_ns();
  }
}

void on_after(void*, const NodeEvent& e) {
  if (enabled() && t_node_start) {
    uint64_t end = now_ns();
    Track track = current_track();
    if (device_selected(track.pid == kHostPid ? 0 : track.pid)) {
      OpRecord r;
      r.name = e.node_name;
      r.type = e.op_type;
      for (size_t i = 0; i < e.op->inputs.size(); ++i)
        r.shapes += (i ? ";" : "") + (e.op->inputs[i].present() ? shape_str(e.op->inputs[i]) : std::string("-"));
      r.block_dim = 0;
      r.flops = flops_of(*e.op, r.type);
      r.bytes = bytes_of(*e.op);
      r.cube = is_cube(r.type);
      r.start_ns = t_node_start;
      r.end_ns = end;
      r.pool = take_pool_use();
      r.pid = track.pid;
      r.tid = track.tid;
      op(r);
    }
    t_node_start = 0;
  }
  if (!op_label().empty()) set_op_label(std::string());
  if (dump::enabled()) dump_tensors(e, false);
}

NodeHook g_hook{on_before, on_after, nullptr};

}  // namespace

void install_node_observer() {
  static std::once_flag once;
  std::call_once(once, [] { Model::set_global_node_hook(&g_hook); });
}

}  // namespace acl_sim::prof
