// aclopAttr: the named attributes a program sets for one operator call, with
// CANN's attribute kinds (bool, int, float, string, data type and lists).
// The CANN→kernel translation (op_translate.*) reads them by name.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <variant>
#include <vector>

namespace acl_sim {

struct OpAttrValue {
  enum Kind { kBool, kInt, kFloat, kString, kDataType, kListBool, kListInt, kListFloat, kListString, kListListInt };
  Kind kind = kInt;
  int64_t i = 0;  // bool, int, data type
  double f = 0;
  std::string s;
  std::vector<int64_t> ints;  // list bool / list int
  std::vector<double> floats;
  std::vector<std::string> strings;
  std::vector<std::vector<int64_t>> int_lists;

  bool operator==(const OpAttrValue& o) const;
  /** Canonical text form, used to match calls against compiled single-op models. */
  std::string to_string() const;
};

}  // namespace acl_sim

struct aclopAttr {
  std::map<std::string, acl_sim::OpAttrValue> values;
};
