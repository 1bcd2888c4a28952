// Bounds the wait of parked in-process collectives (HCCL_EXEC_TIMEOUT): a
// parked rank holds no thread that could notice its deadline, so one shared
// thread sleeps until the earliest deadline and fails what is still open.
// Watching and cancelling cost a mutex each and never wake that thread (later
// deadlines do not need it earlier).
#pragma once

#include <cstdint>
#include <memory>
#include <utility>

#include "hccl/sync.h"

namespace acl_sim::hccl {

class LocalGroup;

using WatchToken = std::pair<Deadline::Clock::time_point, uint64_t>;

/** At @p at, call group->expire(seq) unless cancelled first (or the group is gone). Thread-safe. */
WatchToken watch_collective(const std::shared_ptr<LocalGroup>& group, uint64_t seq, Deadline::Clock::time_point at);
/** Forget @p token (a no-op when it already fired). Thread-safe. */
void cancel_watch(const WatchToken& token);

}  // namespace acl_sim::hccl
