// Shared by the aclop and aclblas entry points: the aclopHandle table and the
// stream task that runs a compiled single op.
#pragma once

#include <memory>
#include <vector>

#include "acl/acl_op.h"
#include "op/compiled_op.h"

namespace acl_sim::capi {

/** Register a new aclopHandle for @p op (freed by aclopDestroyHandle). */
aclopHandle* add_op_handle(std::shared_ptr<CompiledOp> op);

/** Enqueue @p op on @p stream (0: the current context's default) with operand addresses already checked. */
void enqueue_compiled_op(std::shared_ptr<CompiledOp> op, std::vector<const void*> in, std::vector<void*> out,
                         aclrtStream stream);

}  // namespace acl_sim::capi
