// Loading and matching of single-op models. File layout (written by
// python/acl_sim/compiler/singleop.py):
//   8 bytes "ACLSIMOP", then UTF-8 JSON
//   {"version": 1, "op": "Add",
//    "inputs":  [{"dtype": 0, "format": 2, "dims": [8, 16]}, ...],
//    "outputs": [...],
//    "attrs":   [{"name": "transpose_x1", "kind": "bool", "value": false}, ...]}
// kinds: bool int float string data_type list_bool list_int list_float list_string list_list_int.
#include "op/singleop_store.h"

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>

#include "acl/acl_base.h"
#include "common/error.h"
#include "common/json.h"

namespace acl_sim {

namespace {

constexpr char kMagic[8] = {'A', 'C', 'L', 'S', 'I', 'M', 'O', 'P'};
constexpr int kBad = ACL_ERROR_PARSE_MODEL;

std::vector<OperandSpec> parse_specs(const json::Value& list) {
  std::vector<OperandSpec> out;
  for (const json::Value& v : list.as_array(kBad)) {
    OperandSpec s;
    s.dtype = static_cast<int>(v.at("dtype", kBad).as_int_in(-1, 64, kBad));
    s.format = static_cast<int>(v.at("format", kBad).as_int_in(-1, 64, kBad));
    for (const json::Value& d : v.at("dims", kBad).as_array(kBad)) s.dims.push_back(d.as_int_in(-2, INT64_MAX / 2, kBad));
    out.push_back(std::move(s));
  }
  return out;
}

OpAttrValue parse_attr(const std::string& kind, const json::Value& v) {
  OpAttrValue a;
  if (kind == "bool") {
    a.kind = OpAttrValue::kBool;
    a.i = v.as_bool(kBad);
  } else if (kind == "int") {
    a.kind = OpAttrValue::kInt;
    a.i = v.as_int(kBad);
  } else if (kind == "data_type") {
    a.kind = OpAttrValue::kDataType;
    a.i = v.as_int(kBad);
  } else if (kind == "float") {
    a.kind = OpAttrValue::kFloat;
    a.f = static_cast<float>(v.as_double(kBad));
  } else if (kind == "string") {
    a.kind = OpAttrValue::kString;
    a.s = v.as_string(kBad);
  } else if (kind == "list_bool") {
    a.kind = OpAttrValue::kListBool;
    for (const auto& e : v.as_array(kBad)) a.ints.push_back(e.as_bool(kBad));
  } else if (kind == "list_int") {
    a.kind = OpAttrValue::kListInt;
    for (const auto& e : v.as_array(kBad)) a.ints.push_back(e.as_int(kBad));
  } else if (kind == "list_float") {
    a.kind = OpAttrValue::kListFloat;
    for (const auto& e : v.as_array(kBad)) a.floats.push_back(static_cast<float>(e.as_double(kBad)));
  } else if (kind == "list_string") {
    a.kind = OpAttrValue::kListString;
    for (const auto& e : v.as_array(kBad)) a.strings.push_back(e.as_string(kBad));
  } else if (kind == "list_list_int") {
    a.kind = OpAttrValue::kListListInt;
    for (const auto& l : v.as_array(kBad)) {
      a.int_lists.emplace_back();
      for (const auto& e : l.as_array(kBad)) a.int_lists.back().push_back(e.as_int(kBad));
    }
  } else {
    fail(kBad, "unknown attribute kind '", kind, "'");
  }
  return a;
}

}  // namespace

std::shared_ptr<CompiledOp> parse_singleop_model(const void* data, size_t size, const std::string& origin) {
  ACL_SIM_REQUIRE(data != nullptr && size > 0, ACL_ERROR_INVALID_PARAM, origin, ": empty single-op model");
  ACL_SIM_REQUIRE(size > sizeof(kMagic) && std::memcmp(data, kMagic, sizeof(kMagic)) == 0, kBad, origin,
                  ": not an acl_sim single-op model (compile it with `acl-sim atc --singleop=op.json`)");
  const char* text = static_cast<const char*>(data) + sizeof(kMagic);
  try {
    json::ParseOptions opts;
    opts.error_code = kBad;
    opts.what = "single-op model";
    json::Value root = json::parse(std::string_view(text, size - sizeof(kMagic)), opts);
    ACL_SIM_REQUIRE(root.at("version", kBad).as_int(kBad) == 1, kBad, "unsupported single-op model version");
    std::string op = root.at("op", kBad).as_string(kBad);
    std::vector<OperandSpec> ins = parse_specs(root.at("inputs", kBad));
    std::vector<OperandSpec> outs = parse_specs(root.at("outputs", kBad));
    aclopAttr attr;
    if (const json::Value* attrs = root.find("attrs", kBad)) {
      for (const json::Value& a : attrs->as_array(kBad))
        attr.values[a.at("name", kBad).as_string(kBad)] =
            parse_attr(a.at("kind", kBad).as_string(kBad), a.at("value", kBad));
    }
    return CompiledOp::compile(op, std::move(ins), std::move(outs), attr);
  } catch (const Error& e) {
    fail(e.code(), origin, ": ", e.what());
  }
}

SingleOpStore& SingleOpStore::instance() {
  static SingleOpStore store;
  return store;
}

void SingleOpStore::load_bytes(const void* data, size_t size, const std::string& origin) {
  std::shared_ptr<CompiledOp> op = parse_singleop_model(data, size, origin);
  std::string sig = op_signature(op->op_type(), op->inputs(), op->outputs(), op->attr());
  std::lock_guard<std::mutex> lock(mu_);
  if (by_signature_.emplace(sig, op).second) signatures_by_type_[op->op_type()].push_back(sig);
}

size_t SingleOpStore::load_dir(const std::string& dir) {
  namespace fs = std::filesystem;
  std::error_code ec;
  ACL_SIM_REQUIRE(fs::is_directory(dir, ec), ACL_ERROR_INVALID_PARAM, "model dir '", dir,
                  "' does not exist or is not a directory");
  std::vector<fs::path> files;
  for (const auto& entry : fs::directory_iterator(dir, ec))
    if (entry.is_regular_file() && entry.path().extension() == ".om") files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  for (const fs::path& p : files) {
    std::ifstream in(p, std::ios::binary);
    ACL_SIM_REQUIRE(in.good(), ACL_ERROR_READ_MODEL_FAILURE, "cannot read ", p.string());
    std::vector<char> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    ACL_SIM_REQUIRE(bytes.size() <= (64u << 20), ACL_ERROR_INVALID_FILE_SIZE, p.string(),
                    ": single-op model larger than 64 MiB");
    load_bytes(bytes.data(), bytes.size(), p.string());
  }
  return files.size();
}

std::shared_ptr<CompiledOp> SingleOpStore::resolve(const std::string& op_type, std::vector<OperandSpec> inputs,
                                                   std::vector<OperandSpec> outputs, const aclopAttr& attr) {
  std::string sig = op_signature(op_type, inputs, outputs, attr);
  {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = by_signature_.find(sig);
    if (it != by_signature_.end()) return it->second;
    auto loaded = signatures_by_type_.find(op_type);
    if (loaded != signatures_by_type_.end()) {
      std::string known;
      for (size_t k = 0; k < loaded->second.size() && k < 3; ++k) known += "\n  " + loaded->second[k];
      fail(ACL_ERROR_OP_NOT_FOUND, "no loaded single-op model matches ", sig, "; loaded models for ", op_type, ":",
           known);
    }
  }
  return CompiledOp::compile(op_type, std::move(inputs), std::move(outputs), attr);
}

size_t SingleOpStore::size() const {
  std::lock_guard<std::mutex> lock(mu_);
  return by_signature_.size();
}

}  // namespace acl_sim
