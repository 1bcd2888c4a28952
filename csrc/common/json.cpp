// Strict JSON parser (contract in json.h). Recursive descent; recursion depth
// is bounded by ParseOptions::max_depth, and every container grows only as
// values are actually read from the (size-bounded) text.
#include "common/json.h"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <system_error>
#include <unordered_set>

#include "common/error.h"

namespace acl_sim::json {

const char* type_name(Type t) {
  switch (t) {
    case Type::Null: return "null";
    case Type::Bool: return "boolean";
    case Type::Number: return "number";
    case Type::String: return "string";
    case Type::Array: return "array";
    case Type::Object: return "object";
  }
  return "?";
}

class Parser {
 public:
  Parser(std::string_view text, const ParseOptions& opt) : s_(text), opt_(opt) {}

  Value parse_document() {
    if (s_.size() > opt_.max_bytes)
      fail(opt_.error_code, opt_.what, ": ", s_.size(), " bytes exceed the limit of ", opt_.max_bytes);
    skip_ws();
    Value v;
    parse_value(v, 0);
    skip_ws();
    if (pos_ != s_.size()) error("unexpected data after the JSON value");
    return v;
  }

 private:
  [[noreturn]] void error(const char* what) const {
    size_t line = 1, col = 1;
    for (size_t i = 0; i < pos_ && i < s_.size(); ++i) {
      if (s_[i] == '\n') {
        ++line;
        col = 1;
      } else {
        ++col;
      }
    }
    fail(opt_.error_code, opt_.what, ": ", what, " at line ", line, " column ", col);
  }

  bool at_end() const { return pos_ >= s_.size(); }
  char peek() const { return at_end() ? '\0' : s_[pos_]; }

  void skip_ws() {
    while (!at_end()) {
      char c = s_[pos_];
      if (c != ' ' && c != '\t' && c != '\n' && c != '\r') break;
      ++pos_;
    }
  }

  void expect_literal(const char* lit) {
    for (const char* p = lit; *p; ++p) {
      if (peek() != *p) error("invalid literal");
      ++pos_;
    }
  }

  void parse_value(Value& v, size_t depth) {
    if (at_end()) error("unexpected end of input");
    char c = s_[pos_];
    switch (c) {
      case '{': return parse_object(v, depth + 1);
      case '[': return parse_array(v, depth + 1);
      case '"':
        v.type_ = Type::String;
        return parse_string(v.string_);
      case 't':
        expect_literal("true");
        v.type_ = Type::Bool;
        v.bool_ = true;
        return;
      case 'f':
        expect_literal("false");
        v.type_ = Type::Bool;
        v.bool_ = false;
        return;
      case 'n':
        expect_literal("null");
        v.type_ = Type::Null;
        return;
      default:
        if (c == '-' || (c >= '0' && c <= '9')) return parse_number(v);
        error("unexpected character");
    }
  }

  void check_depth(size_t depth) {
    if (depth > opt_.max_depth) error("nesting too deep");
  }

  void parse_object(Value& v, size_t depth) {
    check_depth(depth);
    v.type_ = Type::Object;
    std::unordered_set<std::string> seen;  // used only for large objects, so duplicate checks stay linear
    ++pos_;  // '{'
    skip_ws();
    if (peek() == '}') {
      ++pos_;
      return;
    }
    for (;;) {
      skip_ws();
      if (peek() != '"') error("expected a string key");
      std::string key;
      parse_string(key);
      if (is_duplicate(v, seen, key)) error(("duplicate key \"" + key + "\"").c_str());
      skip_ws();
      if (peek() != ':') error("expected ':'");
      ++pos_;
      skip_ws();
      v.object_.emplace_back(std::move(key), Value());
      parse_value(v.object_.back().second, depth);
      skip_ws();
      char c = peek();
      ++pos_;
      if (c == '}') return;
      if (c != ',') {
        --pos_;
        error("expected ',' or '}'");
      }
    }
  }

  static bool is_duplicate(const Value& v, std::unordered_set<std::string>& seen, const std::string& key) {
    constexpr size_t kLinearLimit = 16;
    if (v.object_.size() < kLinearLimit) {
      for (const auto& m : v.object_)
        if (m.first == key) return true;
      return false;
    }
    if (seen.empty())
      for (const auto& m : v.object_) seen.insert(m.first);
    return !seen.insert(key).second;
  }

  void parse_array(Value& v, size_t depth) {
    check_depth(depth);
    v.type_ = Type::Array;
    ++pos_;  // '['
    skip_ws();
    if (peek() == ']') {
      ++pos_;
      return;
    }
    for (;;) {
      skip_ws();
      v.array_.emplace_back();
      parse_value(v.array_.back(), depth);
      skip_ws();
      char c = peek();
      ++pos_;
      if (c == ']') return;
      if (c != ',') {
        --pos_;
        error("expected ',' or ']'");
      }
    }
  }

  unsigned hex4() {
    if (s_.size() - pos_ < 4) error("truncated \\u escape");
    unsigned u = 0;
    for (int i = 0; i < 4; ++i) {
      char c = s_[pos_++];
      u <<= 4;
      if (c >= '0' && c <= '9') u |= unsigned(c - '0');
      else if (c >= 'a' && c <= 'f') u |= unsigned(c - 'a' + 10);
      else if (c >= 'A' && c <= 'F') u |= unsigned(c - 'A' + 10);
      else error("invalid \\u escape");
    }
    return u;
  }

  static void put_utf8(std::string& out, unsigned cp) {
    if (cp < 0x80) {
      out += char(cp);
    } else if (cp < 0x800) {
      out += char(0xC0 | (cp >> 6));
      out += char(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
      out += char(0xE0 | (cp >> 12));
      out += char(0x80 | ((cp >> 6) & 0x3F));
      out += char(0x80 | (cp & 0x3F));
    } else {
      out += char(0xF0 | (cp >> 18));
      out += char(0x80 | ((cp >> 12) & 0x3F));
      out += char(0x80 | ((cp >> 6) & 0x3F));
      out += char(0x80 | (cp & 0x3F));
    }
  }

  /** Copy one well-formed UTF-8 sequence starting at pos_ (first byte >= 0x80). */
  void copy_utf8(std::string& out) {
    auto b0 = static_cast<unsigned char>(s_[pos_]);
    size_t n;
    unsigned cp, min;
    if ((b0 & 0xE0) == 0xC0) n = 2, cp = b0 & 0x1F, min = 0x80;
    else if ((b0 & 0xF0) == 0xE0) n = 3, cp = b0 & 0x0F, min = 0x800;
    else if ((b0 & 0xF8) == 0xF0) n = 4, cp = b0 & 0x07, min = 0x10000;
    else error("invalid UTF-8");
    if (s_.size() - pos_ < n) error("truncated UTF-8");
    for (size_t i = 1; i < n; ++i) {
      auto b = static_cast<unsigned char>(s_[pos_ + i]);
      if ((b & 0xC0) != 0x80) error("invalid UTF-8");
      cp = (cp << 6) | (b & 0x3F);
    }
    if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) error("invalid UTF-8");
    out.append(s_.data() + pos_, n);
    pos_ += n;
  }

  void parse_string(std::string& out) {
    ++pos_;  // opening quote
    for (;;) {
      if (at_end()) error("unterminated string");
      char c = s_[pos_];
      if (c == '"') {
        ++pos_;
        return;
      }
      if (static_cast<unsigned char>(c) < 0x20) error("control character in string");
      if (static_cast<unsigned char>(c) >= 0x80) {
        copy_utf8(out);
        continue;
      }
      if (c != '\\') {
        out += c;
        ++pos_;
        continue;
      }
      ++pos_;
      if (at_end()) error("unterminated escape");
      char e = s_[pos_++];
      switch (e) {
        case '"': out += '"'; break;
        case '\\': out += '\\'; break;
        case '/': out += '/'; break;
        case 'b': out += '\b'; break;
        case 'f': out += '\f'; break;
        case 'n': out += '\n'; break;
        case 'r': out += '\r'; break;
        case 't': out += '\t'; break;
        case 'u': {
          unsigned cp = hex4();
          if (cp >= 0xDC00 && cp <= 0xDFFF) error("lone low surrogate");
          if (cp >= 0xD800 && cp <= 0xDBFF) {
            if (s_.size() - pos_ < 2 || s_[pos_] != '\\' || s_[pos_ + 1] != 'u') error("lone high surrogate");
            pos_ += 2;
            unsigned lo = hex4();
            if (lo < 0xDC00 || lo > 0xDFFF) error("invalid surrogate pair");
            cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
          }
          put_utf8(out, cp);
          break;
        }
        default:
          --pos_;
          error("invalid escape");
      }
    }
  }

  static bool digit(char c) { return c >= '0' && c <= '9'; }

  void parse_number(Value& v) {
    size_t start = pos_;
    bool integral = true;
    if (peek() == '-') ++pos_;
    if (peek() == '0') {
      ++pos_;
      if (digit(peek())) error("leading zero in number");
    } else if (digit(peek())) {
      while (digit(peek())) ++pos_;
    } else {
      error("invalid number");
    }
    if (peek() == '.') {
      integral = false;
      ++pos_;
      if (!digit(peek())) error("invalid number");
      while (digit(peek())) ++pos_;
    }
    if (peek() == 'e' || peek() == 'E') {
      integral = false;
      ++pos_;
      if (peek() == '+' || peek() == '-') ++pos_;
      if (!digit(peek())) error("invalid number");
      while (digit(peek())) ++pos_;
    }
    const char* first = s_.data() + start;
    const char* last = s_.data() + pos_;
    v.type_ = Type::Number;
    if (integral) {
      int64_t i = 0;
      auto r = std::from_chars(first, last, i);
      if (r.ec == std::errc() && r.ptr == last) {
        v.is_int_ = true;
        v.int_ = i;
        v.double_ = static_cast<double>(i);
        return;
      }
    }
    double d = 0;
    auto r = std::from_chars(first, last, d);
    if (r.ec != std::errc() || r.ptr != last || !std::isfinite(d)) {
      pos_ = start;
      error("number out of range");
    }
    v.double_ = d;
  }

  std::string_view s_;
  const ParseOptions& opt_;
  size_t pos_ = 0;
};

Value parse(std::string_view text, const ParseOptions& options) { return Parser(text, options).parse_document(); }

namespace {
[[noreturn]] void type_error(int code, Type want, Type got) {
  fail(code, "JSON: expected ", type_name(want), ", found ", type_name(got));
}
}  // namespace

bool Value::as_bool(int code) const {
  if (type_ != Type::Bool) type_error(code, Type::Bool, type_);
  return bool_;
}

int64_t Value::as_int(int code) const {
  if (type_ != Type::Number) type_error(code, Type::Number, type_);
  if (!is_int_) fail(code, "JSON: expected an integer, found ", double_);
  return int_;
}

int64_t Value::as_int_in(int64_t lo, int64_t hi, int code) const {
  int64_t v = as_int(code);
  if (v < lo || v > hi) fail(code, "JSON: integer ", v, " outside [", lo, ", ", hi, "]");
  return v;
}

double Value::as_double(int code) const {
  if (type_ != Type::Number) type_error(code, Type::Number, type_);
  return double_;
}

const std::string& Value::as_string(int code) const {
  if (type_ != Type::String) type_error(code, Type::String, type_);
  return string_;
}

const std::vector<Value>& Value::as_array(int code) const {
  if (type_ != Type::Array) type_error(code, Type::Array, type_);
  return array_;
}

const std::vector<Value::Member>& Value::as_object(int code) const {
  if (type_ != Type::Object) type_error(code, Type::Object, type_);
  return object_;
}

const Value* Value::find(std::string_view key, int code) const {
  for (const auto& m : as_object(code))
    if (m.first == key) return &m.second;
  return nullptr;
}

const Value& Value::at(std::string_view key, int code) const {
  const Value* v = find(key, code);
  if (!v) fail(code, "JSON: missing key \"", key, "\"");
  return *v;
}

const Value& Value::at(size_t i, int code) const {
  const auto& a = as_array(code);
  if (i >= a.size()) fail(code, "JSON: index ", i, " out of range (array has ", a.size(), " elements)");
  return a[i];
}

size_t Value::size() const {
  if (type_ == Type::Array) return array_.size();
  if (type_ == Type::Object) return object_.size();
  return 0;
}

namespace {
void dump_string(std::string& out, const std::string& s) {
  out += '"';
  for (char c : s) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\u%04x", c);
          out += buf;
        } else {
          out += c;
        }
    }
  }
  out += '"';
}
}  // namespace

std::string Value::dump() const {
  std::string out;
  switch (type_) {
    case Type::Null: return "null";
    case Type::Bool: return bool_ ? "true" : "false";
    case Type::Number: {
      if (is_int_) return std::to_string(int_);
      char buf[32];
      std::snprintf(buf, sizeof buf, "%.17g", double_);
      return buf;
    }
    case Type::String: dump_string(out, string_); return out;
    case Type::Array:
      out += '[';
      for (size_t i = 0; i < array_.size(); ++i) {
        if (i) out += ',';
        out += array_[i].dump();
      }
      out += ']';
      return out;
    case Type::Object:
      out += '{';
      for (size_t i = 0; i < object_.size(); ++i) {
        if (i) out += ',';
        dump_string(out, object_[i].first);
        out += ':';
        out += object_[i].second.dump();
      }
      out += '}';
      return out;
  }
  return out;
}

}  // namespace acl_sim::json
