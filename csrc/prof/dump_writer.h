// Writing dumped tensors: NumPy .npy files and a JSON-lines manifest.
#pragma once

#include <string>

#include "kernels/op_registry.h"

namespace acl_sim::dump {

namespace detail {
/** Whether (model, node) is dumped, and how: fills inputs/outputs/path. */
bool wants(const std::string& model_name, const std::string& node_name, bool* inputs, bool* outputs, std::string* path);
}  // namespace detail

/** Write @p t as a .npy file (bf16 is written as uint16 bits). Returns false on I/O failure. */
bool write_npy(const std::string& path, const TensorView& t);

/** Numpy dtype descriptor of an aclDataType ("<f4"), or "" if unsupported. */
std::string npy_descr(int dtype);

}  // namespace acl_sim::dump
