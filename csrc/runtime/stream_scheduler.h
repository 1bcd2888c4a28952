// Drainer threads for streams. Ready streams wait in one FIFO per priority;
// a drainer takes the highest-priority ready stream and runs a batch of its
// tasks. Threads are started on demand: when a stream becomes ready and no
// drainer is idle (up to the host core count of unblocked drainers), or when a
// running task declares it is about to block (BlockingRegion), so a collective
// waiting for its peers never starves the streams it waits for. These are not
// the executor's ThreadPool workers, which run kernel blocks.
#pragma once

#include "runtime/export.h"

#include <cstddef>
#include <memory>

namespace acl_sim {

class Stream;

class ACL_SIM_RT_API StreamScheduler {
 public:
  static StreamScheduler& instance();
  /** Queue @p s to be drained. Thread-safe. */
  void make_ready(std::shared_ptr<Stream> s);
  /** Stop and join every drainer (aclFinalize, after streams are idle). Later make_ready restarts them. */
  void shutdown();
  /** Drainer threads alive (for tests and the leak report). */
  size_t thread_count() const;

  struct Impl;

 private:
  friend class BlockingRegion;
  StreamScheduler();
  Impl* impl_;
};

/** Declare that the calling stream task is about to block for a while (peer waits, host
 *  synchronisation). While alive, the scheduler may start another drainer. No-op off drainers. */
class ACL_SIM_RT_API BlockingRegion {
 public:
  BlockingRegion();
  ~BlockingRegion();
  BlockingRegion(const BlockingRegion&) = delete;
  BlockingRegion& operator=(const BlockingRegion&) = delete;

 private:
  bool active_;
};

}  // namespace acl_sim
