// The strict JSON parser used by the .om reader and the config readers:
// accepted documents, exact integers, every class of rejected input, and the
// depth/size limits. Exits non-zero on the first failure.
#include <cstdio>
#include <cstdlib>
#include <string>

#include "common/error.h"
#include "common/json.h"

#include "check.h"

using acl_sim::Error;
namespace json = acl_sim::json;

/** The code parse() throws for @p text, or 0 if it parses. */
static int parse_code(const std::string& text, json::ParseOptions opt = {}) {
  try {
    json::parse(text, opt);
    return 0;
  } catch (const Error& e) {
    return e.code();
  }
}

static void test_accepts() {
  json::Value v = json::parse(R"( {"a": [1, -2, 3.5, 1e3, true, false, null], "s": "x\u00e9\ud83d\ude00\n",
                                  "big": 9223372036854775807, "huge": 92233720368547758070, "o": {}} )");
  CHECK(v.is_object());
  CHECK(v.size() == 5);
  const auto& a = v.at("a").as_array();
  CHECK(a.size() == 7);
  CHECK(a[0].is_int() && a[0].as_int() == 1);
  CHECK(a[1].as_int() == -2);
  CHECK(!a[2].is_int() && a[2].as_double() == 3.5);
  CHECK(!a[3].is_int() && a[3].as_double() == 1000.0);
  CHECK(a[4].as_bool() && !a[5].as_bool() && a[6].is_null());
  CHECK(v.at("s").as_string() == "x\xc3\xa9\xf0\x9f\x98\x80\n");
  CHECK(v.at("big").as_int() == INT64_MAX);
  CHECK(!v.at("huge").is_int() && v.at("huge").as_double() > 9e19);
  CHECK(v.at("o").is_object() && v.at("o").size() == 0);
  CHECK(v.find("missing") == nullptr);
  CHECK(json::parse("[]").size() == 0);
  CHECK(json::parse("\"\"").as_string().empty());
  CHECK(json::parse(R"({"k":[1,"a",{"b":null}]})").dump() == R"({"k":[1,"a",{"b":null}]})");
}

static void test_rejects() {
  const char* bad[] = {
      "",         " ",          "{",        "[1,]",        "{\"a\":1,}",  "[1 2]",       "01",
      "-",        "1.",         ".5",       "1e",          "+1",          "NaN",         "Infinity",
      "nul",      "tru",        "\"abc",    "\"\\x\"",     "\"\\u12\"",   "\"\\ud800\"", "\"\\udc00\"",
      "\"a\tb\"", "[1]x",       "{1:2}",    "{\"a\" 1}",   "/*c*/1",      "1e999",       "{\"a\":1,\"a\":2}",
      "\"\xff\"", "\"\xc0\xaf\"", "\"\xed\xa0\x80\"", "[1,,2]", "'a'",
  };
  for (const char* text : bad) {
    int code = parse_code(text);
    if (code != json::kDefaultErrorCode) std::fprintf(stderr, "accepted or wrong code for: %s\n", text);
    CHECK(code == json::kDefaultErrorCode);
  }
  json::ParseOptions opt;
  opt.error_code = 100013;
  CHECK(parse_code("[", opt) == 100013);
}

static void test_limits() {
  std::string deep(64, '[');
  deep += std::string(64, ']');
  CHECK(parse_code(deep) == 0);
  std::string deeper(65, '[');
  deeper += std::string(65, ']');
  CHECK(parse_code(deeper) != 0);
  // A million nested brackets must fail cleanly, not overflow the stack.
  CHECK(parse_code(std::string(1000000, '[')) != 0);
  json::ParseOptions small;
  small.max_bytes = 4;
  CHECK(parse_code("[1,2]", small) != 0);
  CHECK(parse_code("[1]", small) == 0);
  // Many duplicate-free keys stay fast and a late duplicate is found.
  std::string obj = "{";
  for (int i = 0; i < 5000; ++i) obj += "\"k" + std::to_string(i) + "\":" + std::to_string(i) + ",";
  CHECK(parse_code(obj + "\"end\":0}") == 0);
  CHECK(parse_code(obj + "\"k17\":0}") != 0);
}

static void test_accessors() {
  json::Value v = json::parse(R"({"i": 3, "f": 2.5, "s": "x", "a": [1]})");
  auto code_of = [](auto&& fn) {
    try {
      fn();
      return 0;
    } catch (const Error& e) {
      return e.code();
    }
  };
  CHECK(code_of([&] { v.at("f").as_int(100013); }) == 100013);
  CHECK(code_of([&] { v.at("s").as_double(); }) == json::kDefaultErrorCode);
  CHECK(code_of([&] { v.at("nope", 7); }) == 7);
  CHECK(code_of([&] { v.at("a").at(size_t(1)); }) != 0);
  CHECK(code_of([&] { v.at("i").as_int_in(0, 2); }) != 0);
  CHECK(v.at("i").as_int_in(0, 3) == 3);
  CHECK(code_of([&] { v.at("i").find("x"); }) != 0);
}

int main() {
  test_accepts();
  test_rejects();
  test_limits();
  test_accessors();
  if (g_failures) {
    std::fprintf(stderr, "%d failure(s)\n", g_failures.load());
    return 1;
  }
  std::puts("test_om_reader_json: all passed");
  return 0;
}
