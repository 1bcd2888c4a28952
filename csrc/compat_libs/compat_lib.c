/*
 * CANN splits AscendCL over several libraries, and CANN's build files link them
 * by name: libacl_cblas.so (aclblas*, acl/ops/acl_cblas.h) and
 * libacl_op_compiler.so (aclopCompile*, acl/acl_op_compiler.h). acl_sim exports
 * all of those functions from libascendcl.so; each of these libraries is built
 * from this file and only depends on libascendcl, so that such build files link
 * and run unchanged.
 */
#include "acl/acl_op_compiler.h"
#include "acl/ops/acl_cblas.h"
