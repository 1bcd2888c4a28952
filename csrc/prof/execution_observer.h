// The profiler's observer of the runtime (runtime/runtime_observer.h: stream tasks, pool memory)
// and of the executor (executor/executor_observer.h: thread-pool forks, kernel blocks). Those
// layers announce; this file turns announcements into trace records. Installed while recording.
#pragma once

#include "prof/profiler.h"

namespace acl_sim::prof {

/** The calling thread's use of the pool (the forks it opened inside a model node while recording)
 *  since the previous call, which it resets. */
PoolUse take_pool_use();

/** Install (@p on) or uninstall the observer of both layers; called by start / stop_and_write. */
void install_execution_observer(bool on);

}  // namespace acl_sim::prof
