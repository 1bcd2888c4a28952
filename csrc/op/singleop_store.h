// Single-op models loaded by aclopSetModelDir / aclopLoad. A single-op model
// (written by `acl-sim atc --singleop`) pins one (op type, descs, attrs)
// signature. Once any model of an op type is loaded, calls of that type must
// match a loaded signature, as on CANN; op types with no loaded model are
// compiled on the fly (documented in docs/aclop.md).
#pragma once

#include <cstddef>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "op/compiled_op.h"

namespace acl_sim {

class SingleOpStore {
 public:
  static SingleOpStore& instance();

  /** Load every *.om in @p dir; returns how many were loaded. Throws on a missing dir or a bad file. */
  size_t load_dir(const std::string& dir);
  /** Load one model from its bytes. */
  void load_bytes(const void* data, size_t size, const std::string& origin);

  /**
   * The op to run for a call: the loaded model with this exact signature, else (no model of this
   * type loaded) a fresh on-the-fly compile. Throws 100024 when the type has loaded models but
   * none matches, naming the closest signatures.
   */
  std::shared_ptr<CompiledOp> resolve(const std::string& op_type, std::vector<OperandSpec> inputs,
                                      std::vector<OperandSpec> outputs, const aclopAttr& attr);

  size_t size() const;

 private:
  mutable std::mutex mu_;
  std::unordered_map<std::string, std::shared_ptr<CompiledOp>> by_signature_;
  std::unordered_map<std::string, std::vector<std::string>> signatures_by_type_;
};

/** Parse a single-op model file's bytes into its call (magic "ACLSIMOP" + JSON). Throws 100013 on damage. */
std::shared_ptr<CompiledOp> parse_singleop_model(const void* data, size_t size, const std::string& origin);

}  // namespace acl_sim
