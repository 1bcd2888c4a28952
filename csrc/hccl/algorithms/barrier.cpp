// Barrier, all-to-all: the arrival barrier every collective starts with is
// the whole operation; nothing is left to do after it.
#include "hccl/algorithms/algorithms.h"

namespace acl_sim::hccl {
namespace {
void run(const LocalOp&) {}
}  // namespace

const LocalAlgorithm kBarrierAllToAll{"barrier_all_to_all", nullptr, run};

}  // namespace acl_sim::hccl
