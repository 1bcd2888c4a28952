// The profiler's observer of the runtime (runtime/runtime_observer.h: stream tasks, pool memory)
// and of the executor (executor/executor_observer.h: thread-pool forks, kernel blocks). Those
// layers announce; this file turns announcements into trace records. Installed while recording.
#pragma once

namespace acl_sim::prof {

/** Install (@p on) or uninstall the observer of both layers; called by start / stop_and_write. */
void install_execution_observer(bool on);

}  // namespace acl_sim::prof
