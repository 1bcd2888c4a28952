#include <cstdio>
#include <string>

#include "prof/dump_writer.h"
#include "kernels/op_registry.h"  // dtype_size

namespace acl_sim::dump {

const char* npy_descr(int dtype) {
  switch (dtype) {
    case 0: return "<f4";
    case 1: return "<f2";
    case 2: return "|i1";
    case 3: return "<i4";
    case 4: return "|u1";
    case 6: return "<i2";
    case 7: return "<u2";
    case 8: return "<u4";
    case 9: return "<i8";
    case 10: return "<u8";
    case 11: return "<f8";
    case 12: return "|b1";
    case 27: return "<u2";  // bfloat16 bits: NumPy has no bf16 (ml_dtypes.bfloat16 can view them)
    default: return "";
  }
}

bool write_npy(const std::string& path, const TensorView& t) {
  const char* descr = npy_descr(t.dtype);
  if (!*descr || !t.data) return false;
  std::string shape = "(";
  for (size_t i = 0; i < t.shape.size(); ++i) {
    shape += std::to_string(t.shape[i]);
    shape += (t.shape.size() == 1 || i + 1 < t.shape.size()) ? "," : "";
  }
  shape += ")";
  std::string header = "{'descr': '" + std::string(descr) + "', 'fortran_order': False, 'shape': " + shape + ", }";
  // Version 1.0 header: magic(6) + version(2) + len(2) + header padded with spaces so the data is 64-aligned.
  size_t total = 10 + header.size() + 1;
  size_t pad = (64 - total % 64) % 64;
  header.append(pad, ' ');
  header.push_back('\n');
  FILE* f = std::fopen(path.c_str(), "wb");
  if (!f) return false;
  unsigned char pre[10] = {0x93, 'N', 'U', 'M', 'P', 'Y', 1, 0, 0, 0};
  pre[8] = static_cast<unsigned char>(header.size() & 0xff);
  pre[9] = static_cast<unsigned char>(header.size() >> 8);
  bool ok = std::fwrite(pre, 1, 10, f) == 10 && std::fwrite(header.data(), 1, header.size(), f) == header.size();
  size_t bytes = static_cast<size_t>(t.numel()) * dtype_size(t.dtype);
  ok = ok && std::fwrite(t.data, 1, bytes, f) == bytes;
  return std::fclose(f) == 0 && ok;
}

}  // namespace acl_sim::dump
