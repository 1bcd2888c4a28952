// The one global model-node hook: it feeds the profiler (per-op spans and
// the op summary) and the dump, whichever is on. Installed on first use.
#pragma once

namespace acl_sim::prof {

/** Install the global node hook (idempotent, thread-safe). */
void install_node_observer();

}  // namespace acl_sim::prof
