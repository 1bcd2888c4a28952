// Attrs getters (contract in attrs.h).
#include "common/attrs.h"

#include <cmath>

#include "acl/acl_base.h"
#include "common/error.h"

namespace acl_sim {
namespace {

const char* kind_name(const AttrValue& v) {
  switch (v.index()) {
    case 0: return "int";
    case 1: return "float";
    case 2: return "string";
    case 3: return "ints";
    default: return "floats";
  }
}

[[noreturn]] void wrong_kind(const std::string& name, const AttrValue& v, const char* want) {
  fail(ACL_ERROR_OP_ATTR_NOT_MATCH, "attribute '", name, "' is ", kind_name(v), ", expected ", want);
}

}  // namespace

int64_t Attrs::get_int(const std::string& name, int64_t def) const {
  auto it = values_.find(name);
  if (it == values_.end()) return def;
  if (auto* i = std::get_if<int64_t>(&it->second)) return *i;
  // ONNX float attributes holding whole numbers are accepted where an int is meant.
  if (auto* d = std::get_if<double>(&it->second)) {
    if (std::floor(*d) == *d) return static_cast<int64_t>(*d);
  }
  wrong_kind(name, it->second, "int");
}

double Attrs::get_float(const std::string& name, double def) const {
  auto it = values_.find(name);
  if (it == values_.end()) return def;
  if (auto* d = std::get_if<double>(&it->second)) return *d;
  if (auto* i = std::get_if<int64_t>(&it->second)) return static_cast<double>(*i);
  wrong_kind(name, it->second, "float");
}

std::string Attrs::get_string(const std::string& name, const std::string& def) const {
  auto it = values_.find(name);
  if (it == values_.end()) return def;
  if (auto* s = std::get_if<std::string>(&it->second)) return *s;
  wrong_kind(name, it->second, "string");
}

std::vector<int64_t> Attrs::get_ints(const std::string& name, const std::vector<int64_t>& def) const {
  auto it = values_.find(name);
  if (it == values_.end()) return def;
  if (auto* v = std::get_if<std::vector<int64_t>>(&it->second)) return *v;
  if (auto* i = std::get_if<int64_t>(&it->second)) return {*i};
  // An empty list may arrive as "floats" when its element kind was unknown.
  if (auto* v = std::get_if<std::vector<double>>(&it->second)) {
    std::vector<int64_t> out;
    for (double d : *v) {
      if (std::floor(d) != d) wrong_kind(name, it->second, "ints");
      out.push_back(static_cast<int64_t>(d));
    }
    return out;
  }
  wrong_kind(name, it->second, "ints");
}

std::vector<double> Attrs::get_floats(const std::string& name, const std::vector<double>& def) const {
  auto it = values_.find(name);
  if (it == values_.end()) return def;
  if (auto* v = std::get_if<std::vector<double>>(&it->second)) return *v;
  if (auto* v = std::get_if<std::vector<int64_t>>(&it->second)) return std::vector<double>(v->begin(), v->end());
  if (auto* d = std::get_if<double>(&it->second)) return {*d};
  wrong_kind(name, it->second, "floats");
}

}  // namespace acl_sim
