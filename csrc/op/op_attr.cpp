// OpAttrValue comparison and canonical text (contract in op_attr.h).
#include "op/op_attr.h"

#include <sstream>

namespace acl_sim {

bool OpAttrValue::operator==(const OpAttrValue& o) const {
  return kind == o.kind && i == o.i && f == o.f && s == o.s && ints == o.ints && floats == o.floats &&
         strings == o.strings && int_lists == o.int_lists;
}

std::string OpAttrValue::to_string() const {
  std::ostringstream os;
  os.precision(9);
  switch (kind) {
    case kBool: os << (i ? "true" : "false"); break;
    case kInt: case kDataType: os << i; break;
    case kFloat: os << static_cast<float>(f); break;
    case kString: os << '"' << s << '"'; break;
    case kListBool: case kListInt:
      os << '[';
      for (size_t k = 0; k < ints.size(); ++k) os << (k ? "," : "") << ints[k];
      os << ']';
      break;
    case kListFloat:
      os << '[';
      for (size_t k = 0; k < floats.size(); ++k) os << (k ? "," : "") << static_cast<float>(floats[k]);
      os << ']';
      break;
    case kListString:
      os << '[';
      for (size_t k = 0; k < strings.size(); ++k) os << (k ? "," : "") << '"' << strings[k] << '"';
      os << ']';
      break;
    case kListListInt:
      os << '[';
      for (size_t k = 0; k < int_lists.size(); ++k) {
        os << (k ? "," : "") << '[';
        for (size_t j = 0; j < int_lists[k].size(); ++j) os << (j ? "," : "") << int_lists[k][j];
        os << ']';
      }
      os << ']';
      break;
  }
  return os.str();
}

}  // namespace acl_sim
