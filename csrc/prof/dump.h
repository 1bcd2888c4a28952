// Data dump: aclInit(config.json) with CANN's "dump" section writes each
// op's tensors during model execution.
//
//   {"dump": {"dump_path": "/tmp/dump", "dump_mode": "output" | "input" | "all",
//             "dump_list": [{"model_name": "resnet50", "layer": ["conv1", ...]}]}}
//
// An empty dump_list, or an entry without "layer", dumps every layer of the
// (named) models. CANN writes protobuf dump files; acl_sim writes NumPy .npy
// files, which every tool reads, plus a manifest (JSON lines) per iteration:
//   <dump_path>/<model_name>/<iteration>/<node>.<input|output>.<i>.npy
//   <dump_path>/<model_name>/<iteration>/manifest.jsonl
#pragma once

#include <string>

namespace acl_sim::dump {

/** Apply the "dump" section of an aclInit config (JSON text; "" or no section disables dumping).
 *  Throws ACL_ERROR_INVALID_DUMP_CONFIG (100009) for a malformed section. */
void configure(const std::string& config_json);
void disable();
bool enabled();

}  // namespace acl_sim::dump
