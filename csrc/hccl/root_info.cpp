#include "hccl/root_info.h"

#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <random>

#include "common/error.h"

namespace acl_sim::hccl {
namespace {

constexpr char kMagic[16] = "ACL_SIM_HCCL_RI";
constexpr uint32_t kVersion = 1;

struct Wire {  // little-endian host layout; the blob never leaves this host's architecture
  char magic[16];
  uint32_t version;
  uint32_t transport;
  uint64_t pid;
  uint64_t unique;
  char host[256];
};
static_assert(sizeof(Wire) <= HCCL_ROOT_INFO_BYTES, "root info wire format exceeds HcclRootInfo");
static_assert(sizeof(HcclRootInfo) == 4108, "HcclRootInfo must be 4108 bytes as in CANN");

long env_long(const char* name) {
  const char* v = std::getenv(name);
  return v && *v ? std::strtol(v, nullptr, 10) : 0;
}

}  // namespace

std::string RootInfoData::key() const {
  return str(host, ":", pid, ":", unique, transport == TransportKind::kMpi ? ":mpi" : ":local");
}

TransportKind choose_transport() {
  const char* forced = std::getenv("ACL_SIM_HCCL_TRANSPORT");
  if (forced && std::strcmp(forced, "mpi") == 0) return TransportKind::kMpi;
  if (forced && std::strcmp(forced, "local") == 0) return TransportKind::kLocal;
  long world = env_long("PMI_SIZE");
  if (!world) world = env_long("OMPI_COMM_WORLD_SIZE");
  if (!world) world = env_long("MPI_LOCALNRANKS");
  return world > 1 ? TransportKind::kMpi : TransportKind::kLocal;
}

RootInfoData make_root_info() {
  static std::atomic<uint64_t> counter{0};
  static const uint64_t salt = std::random_device{}() ^
      static_cast<uint64_t>(std::chrono::steady_clock::now().time_since_epoch().count());
  RootInfoData d;
  d.transport = choose_transport();
  d.pid = static_cast<uint64_t>(getpid());
  d.unique = (salt << 20) ^ ++counter;
  char host[256] = {0};
  gethostname(host, sizeof(host) - 1);
  d.host = host;
  return d;
}

void encode_root_info(const RootInfoData& d, HcclRootInfo* out) {
  std::memset(out, 0, sizeof(*out));
  Wire w{};
  std::memcpy(w.magic, kMagic, sizeof(kMagic));
  w.version = kVersion;
  w.transport = static_cast<uint32_t>(d.transport);
  w.pid = d.pid;
  w.unique = d.unique;
  std::strncpy(w.host, d.host.c_str(), sizeof(w.host) - 1);
  std::memcpy(out->internal, &w, sizeof(w));
}

RootInfoData decode_root_info(const HcclRootInfo* in) {
  Wire w;
  std::memcpy(&w, in->internal, sizeof(w));
  ACL_SIM_REQUIRE(std::memcmp(w.magic, kMagic, sizeof(kMagic)) == 0 && w.version == kVersion, HCCL_E_PARA,
                  "root info was not produced by HcclGetRootInfo (bad magic/version); pass the 4108-byte blob "
                  "from the root rank unchanged");
  ACL_SIM_REQUIRE(w.transport == 1 || w.transport == 2, HCCL_E_PARA, "root info names an unknown transport ",
                  w.transport);
  w.host[sizeof(w.host) - 1] = 0;
  RootInfoData d;
  d.transport = static_cast<TransportKind>(w.transport);
  d.pid = w.pid;
  d.unique = w.unique;
  d.host = w.host;
  return d;
}

}  // namespace acl_sim::hccl
