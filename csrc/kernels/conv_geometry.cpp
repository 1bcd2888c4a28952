#include "kernels/conv_geometry.h"

#include "acl/acl_base.h"
#include "common/error.h"

namespace acl_sim {

static int64_t product(const std::vector<int64_t>& v) {
  int64_t p = 1;
  for (int64_t x : v) p *= x;
  return p;
}

int64_t SpatialGeometry::in_size() const { return product(in); }
int64_t SpatialGeometry::out_size() const { return product(out); }
int64_t SpatialGeometry::kernel_size() const { return product(kernel); }

std::string dims_str(const std::vector<int64_t>& d) {
  std::string s = "[";
  for (size_t i = 0; i < d.size(); ++i) s += (i ? "," : "") + std::to_string(d[i]);
  return s + "]";
}

void resolve_window_attrs(SpatialGeometry& g, const Attrs& at, const char* op, bool allow_dilations) {
  const size_t n = static_cast<size_t>(g.nsp);
  auto per_axis = [&](const char* name, int64_t def) {
    std::vector<int64_t> v = at.get_ints(name, std::vector<int64_t>(n, def));
    if (v.empty()) v.assign(n, def);
    ACL_SIM_REQUIRE(v.size() == n, ACL_ERROR_OP_ATTR_NOT_MATCH, op, ": attribute '", name, "' has ", v.size(),
                    " values, expected ", n);
    for (int64_t x : v) ACL_SIM_REQUIRE(x >= 1, ACL_ERROR_OP_ATTR_NOT_MATCH, op, ": '", name, "' must be >= 1");
    return v;
  };
  g.stride = per_axis("strides", 1);
  g.dilation = allow_dilations ? per_axis("dilations", 1) : std::vector<int64_t>(n, 1);
  for (size_t i = 0; i < n; ++i)
    ACL_SIM_REQUIRE(g.kernel[i] >= 1, ACL_ERROR_OP_ATTR_NOT_MATCH, op, ": kernel size must be >= 1, got ",
                    dims_str(g.kernel));
  const std::string auto_pad = at.get_string("auto_pad", "NOTSET");
  g.pad_begin.assign(n, 0);
  g.pad_end.assign(n, 0);
  if (auto_pad == "SAME_UPPER" || auto_pad == "SAME_LOWER") {
    for (size_t i = 0; i < n; ++i) {
      const int64_t out = (g.in[i] + g.stride[i] - 1) / g.stride[i];
      const int64_t span = (g.kernel[i] - 1) * g.dilation[i] + 1;
      const int64_t total = std::max<int64_t>(0, (out - 1) * g.stride[i] + span - g.in[i]);
      g.pad_begin[i] = auto_pad == "SAME_UPPER" ? total / 2 : total - total / 2;
      g.pad_end[i] = total - g.pad_begin[i];
    }
  } else if (auto_pad == "NOTSET" || auto_pad.empty()) {
    std::vector<int64_t> pads = at.get_ints("pads", std::vector<int64_t>(2 * n, 0));
    if (pads.empty()) pads.assign(2 * n, 0);
    ACL_SIM_REQUIRE(pads.size() == 2 * n, ACL_ERROR_OP_ATTR_NOT_MATCH, op, ": 'pads' has ", pads.size(),
                    " values, expected ", 2 * n);
    for (size_t i = 0; i < n; ++i) {
      ACL_SIM_REQUIRE(pads[i] >= 0 && pads[n + i] >= 0, ACL_ERROR_OP_ATTR_NOT_MATCH, op, ": negative pads ",
                      dims_str(pads));
      g.pad_begin[i] = pads[i];
      g.pad_end[i] = pads[n + i];
    }
  } else {
    ACL_SIM_REQUIRE(auto_pad == "VALID", ACL_ERROR_OP_ATTR_NOT_MATCH, op, ": unknown auto_pad '", auto_pad, "'");
  }
}

std::vector<int64_t> window_output_dims(const SpatialGeometry& g, bool ceil_mode, bool pool) {
  std::vector<int64_t> out(g.nsp);
  for (int i = 0; i < g.nsp; ++i) {
    const int64_t span = (g.kernel[i] - 1) * g.dilation[i] + 1;
    const int64_t room = g.in[i] + g.pad_begin[i] + g.pad_end[i] - span;
    // A pool whose window overhangs the padded input by less than a stride still has its first window, as
    // onnxruntime and onnx's shape inference size it (C's division truncates -1 / 2 to 0; ceil(-1 / 2 + 1) = 1).
    if (room < 0) {
      out[i] = pool && room > -g.stride[i] ? 1 : 0;
      continue;
    }
    int64_t o = (ceil_mode ? (room + g.stride[i] - 1) / g.stride[i] : room / g.stride[i]) + 1;
    // With ceil_mode the last window must still start inside the input or its begin padding.
    if (ceil_mode && (o - 1) * g.stride[i] >= g.in[i] + g.pad_begin[i]) --o;
    out[i] = o;
  }
  return out;
}

}  // namespace acl_sim
