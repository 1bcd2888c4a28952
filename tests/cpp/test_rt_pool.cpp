// MemPool unit test: rounding, alignment, best-fit reuse, split/coalesce,
// release-then-retry on a capacity miss, range checks, thread safety.
#include <atomic>
#include <cstdio>
#include <cstring>
#include <random>
#include <thread>
#include <vector>

#include "acl/acl.h"
#include "common/error.h"
#include "runtime/mem_pool.h"

#include "check.h"

using acl_sim::Error;
using acl_sim::MemPool;

template <class F>
static int error_code(F&& f) {
  try {
    f();
  } catch (const Error& e) {
    return e.code();
  }
  return 0;
}

static void test_rounding_and_alignment() {
  MemPool pool(0, 64 << 20);
  char* a = static_cast<char*>(pool.allocate(1));
  char* b = static_cast<char*>(pool.allocate(1));
  CHECK(reinterpret_cast<uintptr_t>(a) % 128 == 0);
  CHECK(b - a == 128);  // ALIGN_UP(1,32)+32 = 64 -> 128-byte block (blocks start 128-byte aligned)
  char* c = static_cast<char*>(pool.allocate(33));
  char* d = static_cast<char*>(pool.allocate(33));
  CHECK(d - c == 128);  // ALIGN_UP(33,32)+32 = 96 -> 128-byte block
  char* e = static_cast<char*>(pool.allocate(64, /*pad=*/false));
  char* f = static_cast<char*>(pool.allocate(64, false));
  CHECK(f - e == 128);
  CHECK(pool.used() == 6 * 128);
  pool.check_range(c, 96);
  CHECK(error_code([&] { pool.check_range(c, 97); }) == ACL_ERROR_RT_PARAM_INVALID);
  CHECK(error_code([&] { pool.check_range(c + 100, 1); }) == ACL_ERROR_RT_PARAM_INVALID);
  CHECK(pool.bytes_from(c + 16) == 80);
  for (char* p : {a, b, c, d, e, f}) pool.free(p);
  CHECK(pool.used() == 0);
  CHECK(error_code([&] { pool.free(a); }) == ACL_ERROR_RT_PARAM_INVALID);
  CHECK(error_code([&] { pool.check_range(a, 1); }) == ACL_ERROR_RT_PARAM_INVALID);
  int host = 0;
  CHECK(error_code([&] { pool.free(&host); }) == ACL_ERROR_RT_PARAM_INVALID);
  CHECK(error_code([&] { pool.allocate(0); }) == ACL_ERROR_INVALID_PARAM);
}

static void test_reuse_split_coalesce() {
  MemPool pool(0, 64 << 20);
  void* a = pool.allocate(1000);
  pool.free(a);
  CHECK(pool.allocate(1000) == a);  // exact-size cache hit
  void* b = pool.allocate(1000);
  void* c = pool.allocate(1000);
  // Fill the rest of the 2 MiB segment (3 blocks of 1152 bytes used) so only coalescing can serve 3000.
  void* rest = pool.allocate((2u << 20) - 3 * 1152, /*pad=*/false);
  pool.free(a);
  pool.free(b);
  pool.free(c);
  // a, b, c coalesce (after the bins merge) into one block big enough for 3x
  void* big = pool.allocate(3000);
  CHECK(big == a);
  pool.free(big);
  pool.free(rest);
}

static void test_capacity_miss_releases_cache() {
  MemPool pool(0, 40 << 20);
  std::vector<void*> ps;
  while (true) {
    try {
      ps.push_back(pool.allocate(1 << 20));
    } catch (const Error& e) {
      CHECK(e.code() == ACL_ERROR_RT_MEMORY_ALLOCATION);
      break;
    }
  }
  CHECK(ps.size() >= 36);
  for (void* p : ps) pool.free(p);
  CHECK(pool.reserved() >= 36u << 20);  // cached, still committed
  void* p = pool.allocate(30 << 20);     // needs the small-block segments given back first
  CHECK(p != nullptr);
  std::memset(p, 1, 30 << 20);
  pool.free(p);
  pool.release_cached();
  CHECK(pool.reserved() == 0);
  CHECK(pool.live_allocations().empty());
}

static void test_threads() {
  MemPool pool(0, 256 << 20);
  std::atomic<int> bad{0};
  std::vector<std::thread> ts;
  for (int t = 0; t < 8; ++t) {
    ts.emplace_back([&, t] {
      std::mt19937 rng(t);
      std::vector<std::pair<unsigned char*, size_t>> live;
      for (int i = 0; i < 20000; ++i) {
        if (live.size() < 32 && (rng() % 2 || live.empty())) {
          size_t n = 1 + rng() % 8192;
          auto* p = static_cast<unsigned char*>(pool.allocate(n));
          std::memset(p, t, n);
          live.emplace_back(p, n);
        } else {
          size_t k = rng() % live.size();
          auto [p, n] = live[k];
          if (p[0] != t || p[n - 1] != t) bad++;
          pool.free(p);
          live[k] = live.back();
          live.pop_back();
        }
      }
      for (auto& pn : live) pool.free(pn.first);
    });
  }
  for (auto& t : ts) t.join();
  CHECK(bad == 0);
  CHECK(pool.used() == 0);
}

static void test_huge_reservation_is_free() {
  MemPool pool(0, size_t(64) << 30);  // 64 GiB of address space, no RAM
  void* p = pool.allocate(size_t(32) << 30);
  static_cast<char*>(p)[size_t(16) << 30] = 1;  // touching one page commits one page
  pool.free(p);
}

int main() {
  test_rounding_and_alignment();
  test_reuse_split_coalesce();
  test_capacity_miss_releases_cache();
  test_threads();
  test_huge_reservation_is_free();
  if (g_failures) std::fprintf(stderr, "%d failure(s)\n", g_failures.load());
  else std::printf("test_rt_pool: ok\n");
  return g_failures.load() ? 1 : 0;
}
