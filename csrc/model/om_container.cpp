// The `.om` container level: header, section table, bounds, overlaps and
// CRC-32 (docs/om_format.md). Section contents are parsed in om_sections.cpp.
#include <algorithm>
#include <array>
#include <cstring>

#include "acl/acl_base.h"
#include "common/error.h"
#include "model/om_reader.h"
#include "model/om_reader_internal.h"

namespace acl_sim {
namespace {

constexpr char kMagic[8] = {'A', 'C', 'L', 'S', 'I', 'M', 'O', 'M'};
constexpr uint32_t kVersion = 1;
constexpr uint32_t kHeaderSize = 64;
constexpr uint32_t kMaxSections = 16;
constexpr uint32_t kEntrySize = 32;

template <class T>
T load_le(const uint8_t* p) {
  T v;
  std::memcpy(&v, p, sizeof v);  // the hosts acl_sim targets are little-endian
  return v;
}

using CrcTables = std::array<std::array<uint32_t, 256>, 8>;

const CrcTables& crc_tables() {
  static const CrcTables tables = [] {
    CrcTables t{};
    for (uint32_t i = 0; i < 256; ++i) {
      uint32_t c = i;
      for (int k = 0; k < 8; ++k) c = (c & 1) ? 0xEDB88320u ^ (c >> 1) : c >> 1;
      t[0][i] = c;
    }
    for (uint32_t i = 0; i < 256; ++i)
      for (int s = 1; s < 8; ++s) t[s][i] = (t[s - 1][i] >> 8) ^ t[0][t[s - 1][i] & 0xFF];
    return t;
  }();
  return tables;
}

}  // namespace

uint32_t crc32(const uint8_t* data, size_t size, uint32_t crc) {
  const CrcTables& t = crc_tables();
  uint32_t c = ~crc;
  while (size >= 8) {
    uint32_t lo = load_le<uint32_t>(data) ^ c;
    uint32_t hi = load_le<uint32_t>(data + 4);
    c = t[7][lo & 0xFF] ^ t[6][(lo >> 8) & 0xFF] ^ t[5][(lo >> 16) & 0xFF] ^ t[4][lo >> 24] ^ t[3][hi & 0xFF] ^
        t[2][(hi >> 8) & 0xFF] ^ t[1][(hi >> 16) & 0xFF] ^ t[0][hi >> 24];
    data += 8;
    size -= 8;
  }
  while (size--) c = t[0][(c ^ *data++) & 0xFF] ^ (c >> 8);
  return ~c;
}

OmSections read_container(const uint8_t* data, size_t size) {
  constexpr int kBad = ACL_ERROR_INVALID_FILE;
  ACL_SIM_REQUIRE(data != nullptr, ACL_ERROR_INVALID_PARAM, "model data is NULL");
  ACL_SIM_REQUIRE(size >= kHeaderSize, kBad, "model is ", size, " bytes, smaller than the 64-byte .om header");
  ACL_SIM_REQUIRE(std::memcmp(data, kMagic, 8) == 0, kBad,
                  "not an acl_sim .om file (bad magic); compile the model with acl-sim atc");
  uint32_t version = load_le<uint32_t>(data + 8);
  ACL_SIM_REQUIRE(version == kVersion, kBad, ".om format version ", version, " is not supported (this build reads ",
                  kVersion, "); recompile the model with this acl_sim's atc");
  uint32_t header_size = load_le<uint32_t>(data + 12);
  ACL_SIM_REQUIRE(header_size == kHeaderSize, kBad, ".om header size ", header_size, " != 64");
  uint32_t count = load_le<uint32_t>(data + 16);
  ACL_SIM_REQUIRE(count >= 1 && count <= kMaxSections, kBad, ".om section count ", count, " outside 1..16");
  uint32_t flags = load_le<uint32_t>(data + 20);
  ACL_SIM_REQUIRE(flags == 0, kBad, ".om header flags ", flags, " are not supported");
  uint64_t file_size = load_le<uint64_t>(data + 24);
  ACL_SIM_REQUIRE(file_size == size, kBad, ".om header says ", file_size, " bytes but the model has ", size,
                  " (truncated or padded file)");
  for (size_t i = 32; i < kHeaderSize; ++i)
    ACL_SIM_REQUIRE(data[i] == 0, kBad, ".om header reserved bytes are not zero");
  uint64_t table_end = uint64_t(kHeaderSize) + uint64_t(count) * kEntrySize;
  ACL_SIM_REQUIRE(table_end <= size, kBad, ".om section table runs past the end of the file");

  OmSections out;
  std::vector<std::pair<uint64_t, uint64_t>> ranges;  // (offset, end) for the overlap check
  for (uint32_t i = 0; i < count; ++i) {
    const uint8_t* e = data + kHeaderSize + size_t(i) * kEntrySize;
    uint32_t kind = load_le<uint32_t>(e);
    uint32_t crc = load_le<uint32_t>(e + 4);
    uint64_t offset = load_le<uint64_t>(e + 8);
    uint64_t length = load_le<uint64_t>(e + 16);
    ACL_SIM_REQUIRE(load_le<uint64_t>(e + 24) == 0, kBad, ".om section ", i, " reserved field is not zero");
    ACL_SIM_REQUIRE(kind >= 1 && kind <= kSectionKinds, kBad, ".om section ", i, " has unknown kind ", kind);
    ACL_SIM_REQUIRE(!out.present[kind], kBad, ".om section kind ", kind, " appears twice");
    ACL_SIM_REQUIRE(offset >= table_end && offset <= size && length <= size - offset, kBad, ".om section ", i,
                    " (kind ", kind, ") at [", offset, ", +", length, ") lies outside the file");
    if (kind == kSectionWeights)
      ACL_SIM_REQUIRE(offset % 64 == 0, kBad, ".om WEIGHTS section offset ", offset, " is not 64-byte aligned");
    uint32_t actual = crc32(data + offset, length);
    ACL_SIM_REQUIRE(actual == crc, kBad, ".om section ", i, " (kind ", kind, ") is corrupted: CRC-32 ", actual,
                    " != stored ", crc);
    out.present[kind] = true;
    out.offset[kind] = offset;
    out.size[kind] = length;
    if (length) ranges.emplace_back(offset, offset + length);
  }
  std::sort(ranges.begin(), ranges.end());
  for (size_t i = 1; i < ranges.size(); ++i)
    ACL_SIM_REQUIRE(ranges[i].first >= ranges[i - 1].second, kBad, ".om sections overlap at offset ", ranges[i].first);
  for (uint32_t kind : {kSectionIoDesc, kSectionGraph, kSectionWeights})
    ACL_SIM_REQUIRE(out.present[kind], kBad, ".om file lacks required section kind ", kind);
  return out;
}

}  // namespace acl_sim
