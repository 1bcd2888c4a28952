// A small, strict JSON parser (RFC 8259) for the files acl_sim reads: the
// aclInit config, rank tables, dump configs and the JSON sections of `.om`
// files. All of them may come from users or from damaged files, so:
//
// - the input is bounded (ParseOptions::max_bytes) and nesting is bounded
//   (max_depth) so recursion cannot overflow the stack;
// - every allocation is proportional to the input size (no size field in the
//   text ever drives an allocation);
// - anything not in RFC 8259 is rejected: comments, trailing commas, NaN,
//   leading zeros, control characters in strings, lone surrogates, duplicate
//   object keys, trailing garbage;
// - every error is an acl_sim::Error with the caller's code and a message
//   with the line and column, or the path of the value that was wrong.
//
// Numbers keep an exact int64 when the literal is an integer that fits, and
// are also available as double.
#pragma once

#include "acl/acl_base.h"
#include "common/export.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

// Exported from libascendcl.so (built with hidden visibility) so C++ tests and _core can use it.
#define ACL_SIM_JSON_API ACL_SIM_EXPORT

namespace acl_sim::json {

enum class Type { Null, Bool, Number, String, Array, Object };

/** Name of a type for messages ("object", "number", ...). */
ACL_SIM_JSON_API const char* type_name(Type t);

/** Error code used when the caller gives none: ACL_ERROR_PARSE_FILE. */
constexpr int kDefaultErrorCode = ACL_ERROR_PARSE_FILE;

class ACL_SIM_JSON_API Value {
 public:
  using Member = std::pair<std::string, Value>;

  Value() = default;

  Type type() const { return type_; }
  bool is_null() const { return type_ == Type::Null; }
  bool is_bool() const { return type_ == Type::Bool; }
  bool is_number() const { return type_ == Type::Number; }
  /** A number whose literal was an integer that fits in int64. */
  bool is_int() const { return type_ == Type::Number && is_int_; }
  bool is_string() const { return type_ == Type::String; }
  bool is_array() const { return type_ == Type::Array; }
  bool is_object() const { return type_ == Type::Object; }

  // Checked accessors: each throws Error(code) naming the expected and actual type.
  bool as_bool(int code = kDefaultErrorCode) const;
  /** The exact integer; throws for a non-integer number or a value outside int64. */
  int64_t as_int(int code = kDefaultErrorCode) const;
  /** as_int() checked against [lo, hi]. */
  int64_t as_int_in(int64_t lo, int64_t hi, int code = kDefaultErrorCode) const;
  double as_double(int code = kDefaultErrorCode) const;
  const std::string& as_string(int code = kDefaultErrorCode) const;
  const std::vector<Value>& as_array(int code = kDefaultErrorCode) const;
  const std::vector<Member>& as_object(int code = kDefaultErrorCode) const;

  /** Member @p key of an object, or nullptr when absent (throws if this is not an object). */
  const Value* find(std::string_view key, int code = kDefaultErrorCode) const;
  /** Member @p key of an object; throws Error(code) when absent. */
  const Value& at(std::string_view key, int code = kDefaultErrorCode) const;
  /** Element @p i of an array; throws Error(code) when out of range. */
  const Value& at(size_t i, int code = kDefaultErrorCode) const;
  /** Element count of an array or member count of an object; 0 otherwise. */
  size_t size() const;

  /** Serialise (compact, keys in stored order); numbers round-trip. For logs, tests and tools. */
  std::string dump() const;

 private:
  friend class Parser;
  Type type_ = Type::Null;
  bool is_int_ = false;
  bool bool_ = false;
  int64_t int_ = 0;
  double double_ = 0.0;
  std::string string_;
  std::vector<Value> array_;
  std::vector<Member> object_;
};

struct ParseOptions {
  size_t max_depth = 64;               // arrays/objects nested deeper than this are rejected
  size_t max_bytes = size_t(256) << 20;  // longer inputs are rejected before parsing
  int error_code = kDefaultErrorCode;  // code of every Error thrown by parse()
  const char* what = "JSON";           // names the document in messages ("aclInit config")
};

/** Parse @p text completely (one value, optional surrounding whitespace). Throws Error(options.error_code). */
ACL_SIM_JSON_API Value parse(std::string_view text, const ParseOptions& options = {});

}  // namespace acl_sim::json
