#include "prof/op_summary.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>

#include "runtime/soc_profile.h"

namespace acl_sim::prof {
namespace {

double env_double(const char* name, double def) {
  const char* v = std::getenv(name);
  if (!v || !*v) return def;
  char* end = nullptr;
  double d = std::strtod(v, &end);
  return (end != v && d > 0) ? d : def;
}

// Device-memory bandwidth in GB/s. Huawei publishes no figure for most
// chips, so these are the commonly quoted
// values, and ACL_SIM_HBM_GBPS overrides them.
double default_bandwidth_gbps(const SocProfile& p) {
  const std::string n = p.name;
  if (n.rfind("Ascend910B4", 0) == 0) return 800;
  if (n.rfind("Ascend910B", 0) == 0 || n.rfind("Ascend910_93", 0) == 0) return 1600;
  if (n.rfind("Ascend910", 0) == 0) return 1200;
  if (n.rfind("Ascend310P", 0) == 0) return 204;
  if (n.rfind("Ascend310B", 0) == 0) return 51;
  return 1000;
}

struct Agg {
  std::string name, type, shapes;
  uint32_t block_dim = 0;
  double flops = 0, bytes = 0;
  bool cube = false;
  size_t count = 0;
  double total_us = 0, max_us = 0, est_us = 0;
  PoolUse pool;  // summed over the runs
};

std::string csv_field(const std::string& s) {
  if (s.find_first_of(",\"\n") == std::string::npos) return s;
  std::string out = "\"";
  for (char c : s) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + "\"";
}

}  // namespace

double Roofline::estimate_us(const OpRecord& r) const {
  double peak = r.cube ? cube_flops_per_s : vector_flops_per_s;
  double compute = peak > 0 ? r.flops / peak : 0;
  double memory = bytes_per_s > 0 ? r.bytes / bytes_per_s : 0;
  return std::max(compute, memory) * 1e6;
}

Roofline roofline_for(const std::string& soc) {
  const SocProfile* p = soc.empty() ? nullptr : find_soc_profile(soc);
  if (!p) p = &current_soc();
  uint32_t vec = p->split_cores ? p->vector_cores : p->cube_cores + p->vector_cores;
  Roofline r;
  r.cube_flops_per_s = env_double("ACL_SIM_CUBE_TFLOPS", p->peak_fp16_tflops()) * 1e12;
  r.vector_flops_per_s = env_double("ACL_SIM_VECTOR_TFLOPS", vec * 64.0 * p->cube_freq_mhz * 1e6 / 1e12) * 1e12;
  r.bytes_per_s = env_double("ACL_SIM_HBM_GBPS", default_bandwidth_gbps(*p)) * 1e9;
  return r;
}

void write_op_summary(const std::string& path, const std::vector<OpRecord>& ops, const std::string& soc) {
  Roofline roof = roofline_for(soc);
  std::map<std::pair<std::string, std::string>, Agg> by_op;
  std::vector<std::pair<std::string, std::string>> order;
  for (const auto& r : ops) {
    auto key = std::make_pair(r.name, r.type);
    auto it = by_op.find(key);
    if (it == by_op.end()) {
      order.push_back(key);
      Agg a;
      a.name = r.name;
      a.type = r.type;
      a.shapes = r.shapes;
      a.block_dim = r.block_dim;
      a.flops = r.flops;
      a.bytes = r.bytes;
      a.cube = r.cube;
      a.est_us = roof.estimate_us(r);
      it = by_op.emplace(key, a).first;
    }
    double us = (r.end_ns - r.start_ns) / 1000.0;
    it->second.count++;
    it->second.total_us += us;
    it->second.max_us = std::max(it->second.max_us, us);
    PoolUse& p = it->second.pool;
    p.threads = std::max(p.threads, r.pool.threads);
    p.forks += r.pool.forks;
    p.fork_ns += r.pool.fork_ns;
    p.caller_ns += r.pool.caller_ns;
    p.worker_ns += r.pool.worker_ns;
    p.wake_ns += r.pool.wake_ns;
    p.shares += r.pool.shares;
    p.indices += r.pool.indices;
    p.index_slots += r.pool.index_slots;
    p.caller_sleeps += r.pool.caller_sleeps;
  }
  std::ofstream os(path);
  os << "op_name,op_type,count,total_us,mean_us,max_us,block_dim,shapes,flops,bytes,est_npu_us,est_npu_total_us,bound,"
        "pool_threads,pool_forks,pool_fork_us,pool_caller_us,pool_worker_us,pool_wake_us,pool_worker_shares,pool_indices,pool_index_slots,pool_caller_sleeps\n";
  for (const auto& key : order) {
    const Agg& a = by_op[key];
    double compute_s = a.flops / (a.cube ? roof.cube_flops_per_s : roof.vector_flops_per_s);
    double memory_s = a.bytes / roof.bytes_per_s;
    os << csv_field(a.name) << ',' << csv_field(a.type) << ',' << a.count << ',' << a.total_us << ','
       << a.total_us / a.count << ',' << a.max_us << ',' << a.block_dim << ',' << csv_field(a.shapes) << ','
       << a.flops << ',' << a.bytes << ',' << a.est_us << ',' << a.est_us * a.count << ','
       << (compute_s >= memory_s ? "compute" : "memory") << ',' << a.pool.threads << ',' << a.pool.forks << ','
       << a.pool.fork_ns / 1000.0 << ',' << a.pool.caller_ns / 1000.0 << ',' << a.pool.worker_ns / 1000.0 << ',' << a.pool.wake_ns / 1000.0 << ','
       << a.pool.shares << ',' << a.pool.indices << ',' << a.pool.index_slots << ',' << a.pool.caller_sleeps << '\n';
  }
}

}  // namespace acl_sim::prof
