#include <cstdio>
#include <string>

#include "acl/acl_base.h"
#include "common/dtype.h"
#include "common/error.h"
#include "prof/dump_writer.h"

namespace acl_sim::dump {

std::string npy_descr(int dtype) {
  const DtypeInfo* d = find_dtype(dtype);
  if (!d || !d->computed) return "";
  if (d->dtype == ACL_BF16) return "<u2";  // NumPy has no bf16 (ml_dtypes.bfloat16 can view the bits)
  const char kind = d->kind == DtypeKind::kFloat    ? 'f'
                    : d->kind == DtypeKind::kSigned ? 'i'
                    : d->kind == DtypeKind::kBool   ? 'b'
                                                    : 'u';
  const size_t bytes = d->bits / 8;
  return str(bytes == 1 ? '|' : '<', kind, bytes);
}

bool write_npy(const std::string& path, const TensorView& t) {
  const std::string descr = npy_descr(t.dtype);
  if (descr.empty() || !t.data) return false;
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
